#!/usr/bin/env bash
# Session 16's tenth H100 call (kind nvidia-h100-x1): write_rows (the
# select path's gathers: W2) in one launch for both sides (call 9:
# GJ_JOIN_DENSE=fused took W2 PHJ-TR's materialize 1.69-1.72 -> 1.64-1.67
# ms). test_join, test_groupby, then join_bench 7 W1..W4 twice (checksums;
# W2 is the only workload on that path). carry ["build/vt10.tgz"].
set -u
tar xzf build/vt10.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in test_join test_groupby; do
    (cd $D && GJ_BIN=$G LD_LIBRARY_PATH=. timeout 200 ./$t) > /tmp/t.log 2>&1
    echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
    grep -E '^\[  FAILED|: wrong|rows vs reference' /tmp/t.log | head -5
done
for round in 1 2; do timeout 150 $D/join_bench 7 W1 W2 W3 W4 2>&1 | grep -E '^W[0-9] +[PSN]' | sed "s/^/$round /"; done | tee "$OUT/w1_w4.txt"
date -u +%FT%TZ
