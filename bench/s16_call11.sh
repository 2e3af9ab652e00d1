#!/usr/bin/env bash
# Session 16's eleventh H100 call (kind nvidia-h100-x1): the dense write's
# pair load merged with its 8-byte column load (one loop, the store picks;
# a refactor, no change intended): test_join, then join_bench 7 W1..W4
# (checksums; W1 PHJ-UR materialize 10.15 ms and W2 PHJ-TR 1.64 ms in
# call 10). carry ["build/vt11.tgz"].
set -u
tar xzf build/vt11.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
(cd $D && GJ_BIN=$G LD_LIBRARY_PATH=. timeout 200 ./test_join) > /tmp/t.log 2>&1
echo "test_join rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
grep -E '^\[  FAILED|: wrong|rows vs reference' /tmp/t.log | head -5
timeout 150 $D/join_bench 7 W1 W2 W3 W4 2>&1 | grep -E '^W[0-9] +[PSN]' | tee "$OUT/w1_w4.txt"
date -u +%FT%TZ
