#!/usr/bin/env bash
# Session 23, call 3: where partition_halves' 0.25 ms a side went (call 2:
# W1 PHJ-TR's transform 6.93-7.01 -> 7.50-7.51 ms, predicted ~+0.05).
# Build: call 2's, carry ["build/s23b.tgz", "build/bench/join_part_bench"].
#  1. W1's R side alone (join_part_bench: 2^27 rows, 16 bits, pack and
#     split), halves off / on / on with every 8-bit pass two tiles at a time;
#  2. ncu kernel times of one run of each.
set -u
source bench/device_lib.sh
gj_unpack s23b
J=$PWD/build/bench/join_part_bench; cd $D
for r in 1 2; do
    for v in "GJ_JOIN_PART_HALF=off" "GJ_JOIN_PART_HALF=on" "GJ_JOIN_PART_HALF=on GJ_JOIN_PART_PAIR=force"; do
        for m in pack split; do
            echo "$r $v $m: $(env $v timeout 60 $J 9 $m custom 2>&1 | grep -v '^#' | tr '\n' ' ')"
        done
    done
done | tee "$OUT/part_ab.txt"
for v in "GJ_JOIN_PART_HALF=off" "GJ_JOIN_PART_HALF=on"; do
    for m in pack split; do
        echo "== $v $m"
        env $v timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum $J 1 $m custom 2>&1 \
            | grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" | sed -E 's/\(int, int, .*//; s/ +/ /g' | paste - - | tail -12
    done
done | tee "$OUT/part_ncu.txt"
date -u +%FT%TZ
