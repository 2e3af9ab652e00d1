#!/usr/bin/env bash
# Session 25, call 1: SMJ-TR's MSD sort takes hot partitions (skew) in
# place through msd_hot instead of declining for CUB's sort of the whole
# side. Build: `bash bench/s18_pack.sh s25a`; carry ["build/s25a.tgz"].
#  1. test_join (test_gpu_msd_hot, test_gpu_msd_hot_peak new);
#  2. A/B: GJ_JOIN_MSD_HOT=off against the default, SMJ-TR, W4 and W1, two rounds;
#  3. Zipf 1.0 and 1.5 at 2^25 a side with --check; Zipf 1.5 at 2^27.
set -u
source bench/device_lib.sh
gj_unpack s25a
gj_tests join
date -u +%FT%TZ
for r in 1 2; do for m in off on; do
    (cd $D && env GJ_JOIN_MSD_HOT=$m JOIN_BENCH_IMPLS=SMJ-TR timeout 120 ./join_bench 7 W4 W1) 2>&1 \
        | sed "s/^/$r $m /" | tee -a "$OUT/ab_hot.txt" | grep -E "SMJ-TR" | cut -c1-170
done; done
date -u +%FT%TZ
for z in 1.0 1.5; do for m in off on; do
    echo "zipf $z hot=$m"
    GJ_JOIN_MSD_HOT=$m timeout 120 $G run join --r-rows 2^25 --s-rows 2^25 --zipf $z --impl SMJ-TR --check \
        --repeat 3 --no-log --json > "$OUT/z25_${z}_$m.json" 2>&1; echo "rc=$?"
    grep -o '"measured_ms":[0-9.]*,"predicted_ms":[0-9.]*,"phases"\|"peak_bytes":[0-9]*\|"checked":[a-z]*' "$OUT/z25_${z}_$m.json" | tr '\n' ' '; echo
done; done
for m in off on; do
    echo "zipf 1.5 2^27 hot=$m"
    GJ_JOIN_MSD_HOT=$m timeout 60 $G run join --zipf 1.5 --impl SMJ-TR --repeat 7 --no-log --json \
        > "$OUT/z27_1.5_$m.json" 2>&1; echo "rc=$?"
    grep -o '"measured_ms":[0-9.]*,"predicted_ms":[0-9.]*,"phases"\|"peak_bytes":[0-9]*' "$OUT/z27_1.5_$m.json" | tr '\n' ' '; echo
done
date -u +%FT%TZ
