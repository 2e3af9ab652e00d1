#!/usr/bin/env bash
# Session 19, call 2 (kind nvidia-h100-x1): the write-combining scatter
# (bench/pairtile_probe.cu wc_scatter_kernel) against part_scatter_kernel
# and the two-tile stager: timings (median of 9), the 1-bit pass as the
# long-run reference, ncu's L2 write requests of all three, then
# compute-sanitizer racecheck and memcheck at sizes where blocks take
# several tiles. carry ["build/bench/pairtile_probe"].
set -u
P=build/bench/pairtile_probe
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for a in "27 8" "27 7" "28 8" "27 1" "27 8"; do timeout 60 $P $a; done 2>&1 | tee "$OUT/wc.txt"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
M="--metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum,smsp__inst_executed.sum"
timeout 150 $NCU --clock-control none $M -k regex:'scatter' $P 27 8 1 > "$OUT/ncu_wc.txt" 2>&1
grep -E "scatter_kernel|dram__|gpu__time|lts__|inst_exec" "$OUT/ncu_wc.txt" | cut -c1-110
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 150 $CS --tool racecheck --error-exitcode 9 $P 21 8 1 2>&1 | tail -4 | tee "$OUT/racecheck.txt"
timeout 150 $CS --tool memcheck --error-exitcode 9 $P 22 8 1 2>&1 | tail -4 | tee "$OUT/memcheck.txt"
date -u +%FT%TZ
