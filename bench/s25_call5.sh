#!/usr/bin/env bash
# Session 25, call 5: the final build. test_join (test_gpu_msd_hot's 8-byte
# case now with four S payload columns: two pairs sorted apart), test_model;
# msd_hot's steps with its host set-up split off (GJ_TRACE=1, W4); SMJ-TR
# on W4 and W1 once more. Build: `bash bench/s18_pack.sh s25e`; carry
# ["build/s25e.tgz"].
set -u
source bench/device_lib.sh
gj_unpack s25e
gj_tests join model
date -u +%FT%TZ
for r in 1 2; do
    GJ_TRACE=1 $G run join --zipf 1 --impl SMJ-TR --repeat 3 --no-log 2> "$OUT/trace_w4_$r.txt" > /dev/null
    grep -E "^trace" "$OUT/trace_w4_$r.txt" | tail -13
done
(cd $D && JOIN_BENCH_IMPLS=SMJ-TR timeout 120 ./join_bench 7 W4 W1) 2>&1 | tee "$OUT/smjtr.txt" | grep SMJ-TR
date -u +%FT%TZ
