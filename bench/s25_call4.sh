#!/usr/bin/env bash
# Session 25, call 4: msd_hot's copy kernel with a thread's rows all loaded
# before any is stored (call 3: copy 0.94-1.00 ms for 1.62 GB, about 1.7
# TB/s). Build: `bash bench/s18_pack.sh s25d`; carry ["build/s25d.tgz",
# "build/s25c_jb.tgz"] (call 3's join_bench, for the A/B).
set -u
source bench/device_lib.sh
gj_unpack s25d
tar xzf build/s25c_jb.tgz -C build
gj_tests join
date -u +%FT%TZ
for r in 1 2; do for b in s25c_jb vt; do
    (cd build/$b && JOIN_BENCH_IMPLS=SMJ-TR timeout 120 ./join_bench 7 W4) 2>&1 \
        | sed "s/^/$r $b /" | tee -a "$OUT/ab_copy.txt" | grep -E "SMJ-TR" | cut -c1-170
done; done
for r in 1 2; do
    GJ_TRACE=1 $G run join --zipf 1 --impl SMJ-TR --repeat 3 --no-log 2> "$OUT/trace_w4_$r.txt" > /dev/null
    grep -E "^trace" "$OUT/trace_w4_$r.txt" | tail -11
done
date -u +%FT%TZ
