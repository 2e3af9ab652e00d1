#!/usr/bin/env bash
# Session 23, call 6: partition_halves with its second passes two tiles at
# a time as for the whole partition (call 5: S's smaller half, just under
# 2^26 rows, went one tile at a time: 0.94 against 0.80 ms). Build: `bash
# bench/s18_pack.sh s23d`; carry ["build/s23d.tgz",
# "build/gjadvise_s23a.gz"] (call 1's binary, for PGB's A/B).
#  1. test_join, test_groupby;
#  2. A/B: GJ_JOIN_PART_HALF=off against the default, PHJ-TR, W1..W4, two
#     rounds (SMJ-TR's W1..W4 sort with the MSD sort, which the halves do
#     not change);
#  3. issue 4's table on this build, W1..W5, every join, with peaks;
#  4. PGB-TR on call 1's build and this one (the partition kernels' new
#     arguments), 2^20 / 2^22 / 2^24 groups, two rounds.
set -u
source bench/device_lib.sh
gj_unpack s23d
gunzip -c build/gjadvise_s23a.gz > build/gjadvise_old && chmod +x build/gjadvise_old
gj_tests join groupby
date -u +%FT%TZ
for r in 1 2; do for h in off on; do
    (cd $D && env GJ_JOIN_PART_HALF=$h JOIN_BENCH_IMPLS=PHJ-TR timeout 200 ./join_bench 7 W1 W2 W3 W4) 2>&1 \
        | sed "s/^/$r $h /" | tee -a "$OUT/ab_half.txt" | grep -E "PHJ-TR" | cut -c1-150
done; done
date -u +%FT%TZ
(cd $D && timeout 300 ./join_bench 7 W1 W2 W3 W4 W5) > "$OUT/join_w.txt" 2>&1; grep -E "^W|device" "$OUT/join_w.txt"
date -u +%FT%TZ
for r in 1 2; do for b in old new; do
    bin=$G; [ $b = old ] && bin=$PWD/build/gjadvise_old
    timeout 120 $bin bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log --bg 2827.6 \
        --sweep groups=2^20:2^24:2 | sed "s/^/$r $b /" | tee -a "$OUT/pgb_ab.txt" | grep PGB | cut -d, -f1-6
done; done
date -u +%FT%TZ
