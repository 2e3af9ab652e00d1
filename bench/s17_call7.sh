#!/usr/bin/env bash
# Session 17's last H100 call (kind nvidia-h100-x1): the final build (call
# 5's operators, SGB-DE-TR's shared-memory table limited to 64 KiB, SMJ-TR's
# split reverted): test_groupby, test_join, join_bench 7 W1 W2 (checksums),
# SGB-DE-TR at 2^11..2^13 groups (4-byte keys) and 2^11, 2^12 (8-byte).
# carry ["build/s17e.tgz"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s17e.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
{ nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in test_groupby test_join; do
    (cd $D && LD_LIBRARY_PATH=. timeout 200 ./$t) > /tmp/t.log 2>&1
    echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
    grep -E '^\[  FAILED|FAIL ' /tmp/t.log | head -5
done; } > "$OUT/tests.txt" 2>&1
cat "$OUT/tests.txt"; echo "tests done at $(el) s"
timeout 100 $D/join_bench 7 W1 W2 2>&1 | tee "$OUT/w1_w2.txt" | grep -E "^W[0-9] "
for k in 4 8; do
    timeout 60 $G bench groupby --rows 2^28 --aggs max,max --sweep groups=2^11:2^13:2 --repeat 7 --no-log \
        --impls SGB-DE-TR --key-bytes $k 2>/dev/null
done | tee "$OUT/sgb.csv"
echo "done at $(el) s"; date -u +%FT%TZ
