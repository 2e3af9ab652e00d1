#!/usr/bin/env bash
# Session 24, call 3: msd_block_sort_kernel's sources __restrict__ again
# (read-only loads; call 2's build s24b dropped them for the in-place sort).
# Build: `bash bench/s18_pack.sh s24c`; carry ["build/s24c.tgz",
# "build/jb_s24b"] (s24b's join_bench).
#  1. test_join, test_model;
#  2. A/B: s24b against s24c, SMJ-TR, W1 W2 W3 W5, in place (default) and
#     GJ_JOIN_MSD_INPLACE=off, two rounds.
set -u
source bench/device_lib.sh
gj_unpack s24c
gj_tests join model
date -u +%FT%TZ
cp build/jb_s24b $D/join_bench_b
for r in 1 2; do for m in off on; do for b in join_bench_b join_bench; do
    (cd $D && env GJ_JOIN_MSD_INPLACE=$m JOIN_BENCH_IMPLS=SMJ-TR timeout 200 ./$b 7 W1 W2 W3 W5) 2>&1 \
        | sed "s/^/$r $m $b /" | tee -a "$OUT/ab_restrict.txt" | grep -E "SMJ-TR" | cut -c1-150
done; done; done
date -u +%FT%TZ
