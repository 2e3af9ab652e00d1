#!/usr/bin/env bash
# Session 24, call 2: the MSD sort in place only where S's pair takes the
# halves (call 1: in place without them, W5's 8-byte columns, was 0.1-0.2
# ms slower and no smaller). Build: `bash bench/s18_pack.sh s24b`; carry
# ["build/s24b.tgz"].
#  1. test_join, test_model;
#  2. A/B: GJ_JOIN_MSD_INPLACE=off against the default, SMJ-TR, W1..W5, two
#     rounds;
#  3. issue 4's table on this build, W1..W5, every join, with peaks.
set -u
source bench/device_lib.sh
gj_unpack s24b
gj_tests join model
date -u +%FT%TZ
for r in 1 2; do for m in off on; do
    (cd $D && env GJ_JOIN_MSD_INPLACE=$m JOIN_BENCH_IMPLS=SMJ-TR timeout 200 ./join_bench 7 W1 W2 W3 W4 W5) 2>&1 \
        | sed "s/^/$r $m /" | tee -a "$OUT/ab_inplace.txt" | grep -E "SMJ-TR" | cut -c1-170
done; done
date -u +%FT%TZ
(cd $D && timeout 300 ./join_bench 7 W1 W2 W3 W4 W5) > "$OUT/join_w.txt" 2>&1; grep -E "^W|device" "$OUT/join_w.txt"
date -u +%FT%TZ
