#!/usr/bin/env bash
# Session 23, call 4: partition_halves' first pass with one 32-bit compare
# a store (PartSecond: the second piece's pointers moved back by its first
# row) instead of a 64-bit compare and a subtraction (call 3: that pass
# took 1.61-1.63 ms against 1.45 for the plain one). Build: `bash
# bench/s18_pack.sh s23c`; carry ["build/s23c.tgz", "build/bench/join_part_bench"].
set -u
source bench/device_lib.sh
gj_unpack s23c
J=$PWD/build/bench/join_part_bench
(cd $D && LD_LIBRARY_PATH=. timeout 300 ./test_join > "$OUT/test_join.txt" 2>&1; echo "test_join rc=$?"; grep -E "PASSED|FAILED" "$OUT/test_join.txt")
cd $D
for r in 1 2; do
    for v in "GJ_JOIN_PART_HALF=off" "GJ_JOIN_PART_HALF=on"; do
        for m in pack split; do
            echo "$r $v $m: $(env $v timeout 60 $J 9 $m custom 2>&1 | grep -v '^#' | tail -1)"
        done
    done
done | tee "$OUT/part_ab.txt"
for m in pack split; do
    echo "== on $m"
    timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum $J 1 $m custom 2>&1 \
        | grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" | sed -E 's/\(int, int, .*//; s/ +/ /g' | paste - - | tail -12 \
        | sed -E 's/void gjj::([a-z_0-9]+)<([^>]*)>.*gpu__time_duration.sum/\1<\2>/; s/void cub::([A-Za-z]+)<.*gpu__time_duration.sum/\1/'
done | tee "$OUT/part_ncu.txt"
for r in 1 2; do for h in off on; do
    (env GJ_JOIN_PART_HALF=$h JOIN_BENCH_IMPLS=PHJ-TR timeout 200 ./join_bench 7 W1 W2 W3 W4) 2>&1 \
        | sed "s/^/$r $h /" | tee -a "$OUT/ab_half.txt" | grep -E "PHJ-TR" | cut -c1-150
done; done
date -u +%FT%TZ
