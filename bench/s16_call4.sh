#!/usr/bin/env bash
# Session 16's fourth H100 call (kind nvidia-h100-x1). Call 3's ncu: with
# this session's partition, PGB-TR's scatter passes ran slower than the
# base build's under either tile order (2^24 groups, 64 bins a pass: pass
# 2 2.45 -> 2.87-2.95 ms; 2^16: 2.98 -> 3.15-3.33), while the joins' 256-bin
# passes gained. Guess: the split store (a branch on vhi for every item in
# the final store loop) stopped the staged values' shared loads from being
# batched ahead of the stores. Now two loops (the branch outside). Predicted:
# PGB's scatter back to base (static) or better (dynamic); the joins as in
# call 3 (W1 PHJ-TR 9.50 ms).
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s16c.tgz -C build
N=build/s16/new; B=build/s16/base
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader | tee "$OUT/gpu.txt"; date -u +%FT%TZ
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
M="--metrics gpu__time_duration.sum"
for cfg in base static dyn; do
    bin=$N/gjadvise; env=x=1
    [ $cfg = base ] && bin=$B/gjadvise
    [ $cfg = static ] && env=GJ_JOIN_PART_ORDER=static
    for g in 16 24; do
        echo "=== $cfg g=2^$g"
        env $env timeout 90 $NCU --clock-control none $M -k regex:'part_scatter' -c 2 $bin run groupby --rows 2^28 \
            --groups 2^$g --aggs max,max --impl PGB-TR --repeat 1 2>&1 | grep -E "gpu__time_duration" | sed 's/  */ /g'
    done
    echo "=== $cfg join_part_bench pack"
    env $env timeout 90 $NCU --clock-control none $M -k regex:'part_' -c 4 $(dirname $bin)/join_part_bench 1 pack custom 2>&1 |
        grep -E "gpu__time_duration" | sed 's/  */ /g'
done 2>&1 | tee "$OUT/ncu.txt"
echo "ncu done at $(el) s"
for round in 1 2; do
    for cfg in base new static; do
        bin=$N/gjadvise; env=x=1
        [ $cfg = base ] && bin=$B/gjadvise
        [ $cfg = static ] && env=GJ_JOIN_PART_ORDER=static
        env $env timeout 60 $bin bench groupby --rows 2^28 --aggs max,max --sweep groups=2^16:2^24:16 \
            --impls PGB-TR --repeat 7 --bg 2827.6 2>&1 | grep PGB | sed "s/^/$round,$cfg,/"
    done
done | tee "$OUT/pgb_ab.csv"
echo "pgb done at $(el) s"
for round in 1 2; do
    for cfg in base new static; do
        bin=$N/join_bench; env=x=1
        [ $cfg = base ] && bin=$B/join_bench
        [ $cfg = static ] && env=GJ_JOIN_PART_ORDER=static
        env $env JOIN_BENCH_IMPLS=PHJ-TR,SMJ-TR timeout 60 $bin 7 W1 W2 2>&1 |
            grep -E '^W[0-9] +(PHJ|SMJ)' | sed "s/^/$round $cfg /"
    done
done | tee "$OUT/join_ab.txt"
echo "done at $(el) s"; date -u +%FT%TZ
