#!/usr/bin/env bash
# Session 18's fourth H100 call (kind nvidia-h100-x1): what does the
# partition's split store cost? join_part_bench on W1's R side (2^27 rows,
# key + packed pair), the last pass's values packed (8 bytes) against
# split (two 4-byte columns), 16 bits (two passes) and 8 (one), two
# rounds; then ncu's DRAM bytes of the scatter kernels, pack and split.
# carry ["build/bench/join_part_bench"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
N=build/bench
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for r in 1 2; do
    for b in 16 8; do
        for m in pack split; do
            PART_BITS=$b timeout 60 $N/join_part_bench 9 $m custom | grep -E "^(pack|split) " | sed "s/^/$r bits=$b /"
        done
    done
done | tee "$OUT/part_split.txt"
echo "bench done at $(el) s"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
M="--metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum"
for m in pack split; do
    timeout 60 $NCU --clock-control none $M -k regex:'part_scatter' -c 2 $N/join_part_bench 1 $m custom > "$OUT/ncu_$m.txt" 2>&1
    grep -E "part_scatter|dram__|gpu__time|lts__" "$OUT/ncu_$m.txt" | sed "s/^/$m /" | cut -c1-150
done
echo "done at $(el) s"; date -u +%FT%TZ
