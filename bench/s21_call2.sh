#!/usr/bin/env bash
# Prepared in session 20, NOT RUN: k_pgb_many probing 4-slot buckets
# (bench/s20_pgb_bucket.patch: `git apply` it, build with `bash
# bench/s18_pack.sh s21b`; GJ_PGB_PROBE=bucket selects the buckets, the
# default is unchanged). pgbtable_probe on the H100 (session 20, call 10):
# buckets 1.177 against 1.347 ms at load 1/2, 1.412 against 1.894 at 5/8;
# session 14's bucket build of k_pgb_many lost on the H200. Predicted: PGB's
# aggregate at 2^21 and 2^22 groups (tables at load 1/2) 0.15-0.3 ms
# faster, level at 2^20 (load 1/4). Kind nvidia-h100-x1, carry
# ["build/s21b.tgz"]. Land only if test_groupby passes with it (below) and
# the A/B gains; then make it the default where the load is 1/2 and teach
# the model its probe lengths (bench/probe_lengths.c has them).
set -u
tar xzf build/s21b.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
(cd $D && GJ_PGB_PROBE=bucket LD_LIBRARY_PATH=. timeout 170 ./test_groupby) > "$OUT/test_groupby_bucket.txt" 2>&1
echo "test_groupby (buckets) rc=$?: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_groupby_bucket.txt" | tr '\n' ' ')"
B="bench groupby --rows 2^28 --aggs max,max --impls PGB-TR,PGB-UR --repeat 7 --no-log --key-bytes 4 --sweep groups=2^19:2^22:2"
for r in 1 2; do for p in linear bucket; do
    env GJ_PGB_PROBE=$p timeout 60 $G $B | sed "s/^/$r $p /" | tee -a "$OUT/ab_bucket.txt" | grep PGB | cut -d, -f1,5,6,7,8
done; done
date -u +%FT%TZ
