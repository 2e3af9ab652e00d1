#!/usr/bin/env bash
# Session 16's review call (kind nvidia-h100-x1): transform_cols' split
# pair folded into its pair branch (one partition call), gfur_pack sharing
# payload_pair, HGB's launch by one lambda: no change in what runs. Checked
# by test_join, test_groupby, join_bench 7 W1 W2 W3 (checksums; W1 PHJ-TR
# 9.2-9.3 ms and PHJ-UR 16.5 before) and HGB at 2^14 8-byte keys (1.56 ms).
# carry ["build/vt15.tgz"].
set -u
tar xzf build/vt15.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in test_join test_groupby; do
    (cd $D && LD_LIBRARY_PATH=. timeout 200 ./$t) > /tmp/t.log 2>&1
    echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
    grep -E '^\[  FAILED|: wrong|rows vs reference|FAIL' /tmp/t.log | head -5
done | tee "$OUT/tests.txt"
timeout 120 $D/join_bench 7 W1 W2 W3 2>&1 | grep -E '^W[0-9] +[PSN]' | tee "$OUT/w1_w3.txt"
timeout 60 $G run groupby --rows 2^28 --groups 2^14 --aggs max,max --key-bytes 8 --impl HGB --repeat 7 --no-log 2>&1 | tee "$OUT/hgb.txt"
date -u +%FT%TZ
