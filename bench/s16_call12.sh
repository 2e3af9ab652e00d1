#!/usr/bin/env bash
# Session 16's twelfth H100 call (kind nvidia-h100-x1). HGB with 8-byte
# keys fell off its one-pass kernel at 2^14 groups (session 15: 28.03 ms,
# 18.5x the floor, Algorithm 1), since a table of 8-byte keys and two
# 4-byte maxima holds 8192 slots. Dense 8-byte keys now take a table of
# 4-byte key offsets (16384 slots). Predicted: HGB 8-byte at 2^14 about
# 1.6 ms (1.0-1.1x of 1.519 ms), like 2^13's 1.54; 4-byte HGB unchanged
# (1.1-1.2 ms at 2^10..2^14). 1. test_groupby (new cases: the offset
# table, keys near 2^64, far keys that overflow it); 2. bench groupby HGB
# at both key widths; 3. run groupby at 2^14 8-byte (its peak, for
# tests/test_model.c). carry ["build/vt12.tgz"].
set -u
tar xzf build/vt12.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
(cd $D && LD_LIBRARY_PATH=. timeout 200 ./test_groupby) > /tmp/t.log 2>&1
echo "test_groupby rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"; grep -E "FAIL" /tmp/t.log | head
{ for kb in 8 4; do timeout 100 $G bench groupby --rows 2^28 --aggs max,max --key-bytes $kb --sweep groups=2^10:2^15:2 \
    --impls HGB,PGB-TR --repeat 7 --bg 2827.6 --no-log 2>&1; done; } | tee "$OUT/hgb.csv"
for kb in 8 4; do timeout 60 $G run groupby --rows 2^28 --groups 2^14 --aggs max,max --key-bytes $kb --impl HGB --check --repeat 3 --no-log 2>&1; done | tee "$OUT/run.txt"
date -u +%FT%TZ
