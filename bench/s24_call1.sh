#!/usr/bin/env bash
# Session 24, call 1: msd_sort partitions into its output (S's pair through
# a scratch of half its rows) and sorts each partition there, in place.
# Build: `bash bench/s18_pack.sh s24a`; carry ["build/s24a.tgz"].
#  1. test_join, test_model;
#  2. A/B: GJ_JOIN_MSD_INPLACE=off against the default, SMJ-TR, W1..W5, two
#     rounds (time and peak).
set -u
source bench/device_lib.sh
gj_unpack s24a
gj_tests join model
date -u +%FT%TZ
for r in 1 2; do for m in off on; do
    (cd $D && env GJ_JOIN_MSD_INPLACE=$m JOIN_BENCH_IMPLS=SMJ-TR timeout 200 ./join_bench 7 W1 W2 W3 W4 W5) 2>&1 \
        | sed "s/^/$r $m /" | tee -a "$OUT/ab_inplace.txt" | grep -E "SMJ-TR" | cut -c1-170
done; done
date -u +%FT%TZ
