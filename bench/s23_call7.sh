#!/usr/bin/env bash
# Session 23, call 7: partition_halves for S's partition only (R's, first,
# held nothing else beside it: the halves only cost it time; call 6: W1
# PHJ-TR +0.43 ms with both sides). Build: `bash bench/s18_pack.sh s23e`;
# carry ["build/s23e.tgz", "build/bench/join_part_bench"].
#  1. test_join, test_model;
#  2. A/B: GJ_JOIN_PART_HALF=off against the default, PHJ-TR, W1..W4, two
#     rounds; W1's S-shaped partition alone (join_part_bench split, forced);
#  3. issue 4's table on this build, W1..W5, every join, with peaks.
set -u
source bench/device_lib.sh
gj_unpack s23e
J=$PWD/build/bench/join_part_bench
gj_tests join model
date -u +%FT%TZ
for r in 1 2; do for h in off on; do
    (cd $D && env GJ_JOIN_PART_HALF=$h JOIN_BENCH_IMPLS=PHJ-TR timeout 200 ./join_bench 7 W1 W2 W3 W4) 2>&1 \
        | sed "s/^/$r $h /" | tee -a "$OUT/ab_half.txt" | grep -E "PHJ-TR" | cut -c1-150
done; done
for r in 1 2; do for h in off force; do
    echo "$r $h split: $(env GJ_JOIN_PART_HALF=$h timeout 60 $J 9 split custom 2>&1 | grep -v '^#' | tail -1)"
done; done | tee "$OUT/part_ab.txt"
date -u +%FT%TZ
(cd $D && timeout 300 ./join_bench 7 W1 W2 W3 W4 W5) > "$OUT/join_w.txt" 2>&1; grep -E "^W|device" "$OUT/join_w.txt"
date -u +%FT%TZ
