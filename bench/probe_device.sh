#!/usr/bin/env bash
# Device probe (2026-11-22, bench/RESULTS.md Joins and Validation): PHJ with
# a small build side against a large probe side, HGB/HASH-GLOBAL/PGB at small
# |R| with many groups, and the join tests and W1..W4 as a regression check.
# Build here first (the whole build/ is too large to carry):
#   make && make build/tests/test_join build/tests/test_gen
#   cc -Iinclude -I. -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o build/bench/join_bench \
#      bench/join_bench.c build/lib/libgjadvise.a <the static libraries of the Makefile>
#   mkdir -p build/probe && cp build/tests/test_join build/tests/test_gen \
#      build/tests/libcmocka.so.0 build/bench/join_bench build/probe/
# then run it with carry ["bin", "build/probe"].
G=bin/gjadvise
for t in build/probe/test_gen build/probe/test_join; do
    timeout 200 $t > /tmp/$(basename $t).log 2>&1; echo "$(basename $t) rc=$? $(grep -E '^\[  (PASSED|FAILED)' /tmp/$(basename $t).log | tr '\n' ' ')"
done
for i in PHJ-UR PHJ-TR NPHJ; do echo "== $i 624 x 2^26"; $G run join --r-rows 624 --s-rows 2^26 --match-ratio 0.0001 --r-payloads 3 --s-payloads 1 --impl $i --repeat 7 --no-log --profile h200-tuned | grep -E "total|match"; done
for i in PHJ-UR NPHJ; do echo "== $i 2^19 x 2^26"; $G run join --r-rows 2^19 --s-rows 2^26 --match-ratio 0.03 --r-payloads 1 --s-payloads 3 --impl $i --repeat 7 --no-log --profile h200-tuned | grep -E "total|match"; done
timeout 200 build/probe/join_bench 7 W1 W2 W3 W4 2>&1 | tail -30
for i in HGB HASH-GLOBAL PGB-UR; do echo "== $i 2^22 rows, 2^20 groups"; $G run groupby --rows 2^22 --groups 2^20 --impl $i --repeat 5 --no-log --profile h200-tuned | grep -E "group|total"; done
