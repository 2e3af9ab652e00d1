#!/usr/bin/env bash
# For the next device call (kind nvidia-h100-x1): bench/pairtile_probe.cu,
# the partition scatter staging two ranked tiles before it stores (bin runs
# twice as long) against part_scatter_kernel: 2^27 and 2^28 rows, 8 and 7
# bits, median of 9 each; then ncu's L2 write requests and DRAM bytes of
# both kernels at 2^27 rows, 8 bits.
# carry ["build/bench/pairtile_probe"].
set -u
P=build/bench/pairtile_probe
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for a in "27 8" "27 7" "28 8"; do timeout 60 $P $a; done | tee "$OUT/pairtile.txt"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
M="--metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum"
timeout 120 $NCU --clock-control none $M -k regex:'scatter' -c 4 $P 27 8 > "$OUT/ncu_pairtile.txt" 2>&1
grep -E "scatter_kernel|dram__|gpu__time|lts__" "$OUT/ncu_pairtile.txt" | cut -c1-150
date -u +%FT%TZ
