#!/usr/bin/env bash
# Session 20, call 11 (kind nvidia-h100-x1), carry ["build/s20d.tgz"]:
# where PGB-TR's aggregate phase spends its time at 2^20 and 2^21 groups
# (1.8 and 2.4 ms), against pgbtable_probe's plain kernel on input of the
# same shape (1.15 and 1.35 ms, call 10): ncu's duration and DRAM bytes of
# every kernel of one run.
set -u
tar xzf build/s20d.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for g in 20 21; do
    timeout 150 ncu --clock-control none --metrics $M --csv $G run groupby --rows 2^28 --groups 2^$g --aggs max,max \
        --impl PGB-TR --repeat 1 --no-log > "$OUT/ncu_pgb_2e$g.csv" 2>&1
    echo "2^$g rc=$?"
done
timeout 100 ncu --clock-control none --metrics $M --csv --kernel-name regex:k_agg --launch-count 1 \
    $D/pgbtable_probe 4096 > "$OUT/ncu_probe.csv" 2>&1; echo "probe rc=$?"
date -u +%FT%TZ
