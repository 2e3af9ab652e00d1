#!/usr/bin/env bash
# Session 20, call 5 (kind nvidia-h100-x1), carry ["build/s20a.tgz"]: PGB's
# one wide (9-bit) partition pass where two passes were taken (4-byte keys
# at 2^22 groups, 8-byte keys at 2^21): test_groupby (GJ_PGB_BITS=9 runs
# every PGB case through the wide pass) and test_join (the partition's
# code changed); the A/B against the old plan (GJ_PGB_BITS=11, the bits the
# plan took before) on the same GPU, two rounds; PGB-TR and PGB-UR over
# 2^20..2^25 groups at both key widths; the two peaks tests/test_model.c
# holds for 8-byte keys at 2^21 groups.
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s20a.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in test_groupby test_join; do
    (cd $D && LD_LIBRARY_PATH=. timeout 170 ./$t) > "$OUT/$t.txt" 2>&1
    echo "$t rc=$? at $(el) s: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/$t.txt" | tr '\n' ' ')" | tee -a "$OUT/tests.txt"
done
B="bench groupby --rows 2^28 --aggs max,max --impls PGB-TR,PGB-UR --repeat 7 --no-log"
for r in 1 2; do
    for bits in 11 default; do
        e=""; [ $bits = default ] || e="GJ_PGB_BITS=$bits"
        env $e timeout 60 $G $B --key-bytes 4 --sweep groups=2^22:2^22:2 | sed "s/^/$r $bits k4 /" | tee -a "$OUT/ab.txt"
        env $e timeout 60 $G $B --key-bytes 8 --sweep groups=2^21:2^21:2 | sed "s/^/$r $bits k8 /" | tee -a "$OUT/ab.txt"
    done
done
echo "A/B done at $(el) s"
for k in 4 8; do timeout 120 $G $B --key-bytes $k --sweep groups=2^20:2^25:2 2>&1 | tee "$OUT/sweep_k$k.txt"; done
echo "sweeps done at $(el) s"
for i in PGB-UR PGB-TR; do
    timeout 60 $G run groupby --rows 2^28 --groups 2^21 --aggs max,max --key-bytes 8 --impl $i --repeat 1 --no-log --json 2>&1 | tee -a "$OUT/peaks.json" | grep -o '"peak_bytes":[0-9]*'
done
date -u +%FT%TZ; echo "done at $(el) s"
