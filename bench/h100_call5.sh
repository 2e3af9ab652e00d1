#!/usr/bin/env bash
# Session 15's fifth H100 call (kind nvidia-h100-x1): the own radix
# partition in two 12-warp blocks an SM (GJ_JOIN_PART_SHAPE=384x12x2,
# 384x15x2: CUB's onesweep runs 2 x 384 threads an SM at 80 registers and
# moves its pass in 1.53 ms where ours, one 768-thread block, takes 1.80-1.94
# (ncu, call 4)) against the default 768 x 10:
# 1. test_join under each new shape (test_gpu_partition: row for row equal
#    to CUB's sort);
# 2. join_part_bench (W1's R side, pack and row ids) under each shape;
# 3. W1, W3, W4 with PHJ-UR, PHJ-TR, SMJ-TR, the three shapes alternating,
#    two rounds (join_bench, median of 7);
# 4. PGB-TR (its partition is this one, on hashed keys), 2^28 rows, max,max,
#    g = 2^17, 2^21, 2^23, each shape.
# carry ["build/c5.tgz"]. The two shapes lost and were removed after this
# run (bench/RESULTS.md, "The H100"): with this tree both names run the
# default 768 x 10.
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/c5.tgz -C build
B=$PWD/build/c5
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader; date -u +%FT%TZ
for s in 384x12x2 384x15x2; do
    (cd $B && GJ_JOIN_PART_SHAPE=$s LD_LIBRARY_PATH=. timeout 120 ./test_join 2>&1 | grep -E '^\[  (PASSED|FAILED)' | tr '\n' ' ')
    echo " <- test_join $s at $(el) s"
done
for s in 768x10 384x12x2 384x15x2; do
    GJ_JOIN_PART_SHAPE=$s timeout 40 $B/join_part_bench 7 all custom 2>&1 | grep -E '^(pack|rowid)' | sed "s/^/$s /"
done | tee "$OUT/part_bench.txt"
for round in 1 2; do
    for s in 768x10 384x12x2 384x15x2; do
        GJ_JOIN_PART_SHAPE=$s JOIN_BENCH_IMPLS=PHJ-UR,PHJ-TR,SMJ-TR timeout 60 $B/join_bench 7 W1 W3 W4 2>&1 |
            grep -E '^W[0-9] +(PHJ|SMJ)' | sed "s/^/$round $s /"
    done
    [ $(el) -lt 330 ] || break
done | tee "$OUT/shape_ab.txt"
echo "joins done at $(el) s"
for s in 768x10 384x12x2 384x15x2; do
    GJ_JOIN_PART_SHAPE=$s timeout 40 $B/gjadvise bench groupby --profile h100-tuned --rows 2^28 --aggs max,max \
        --sweep groups=2^17:2^23:4 --impls PGB-TR --repeat 7 --no-log 2>/dev/null | grep -v '^impl' | cut -d, -f1,4,6-8 | sed "s/^/$s /"
done | tee "$OUT/pgb_shape.txt"
date -u +%FT%TZ
