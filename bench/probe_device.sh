#!/usr/bin/env bash
# One-off device probe (2026-11-22): PHJ with a small build side against a
# large probe side, before/after the S-chunk size change, and the join
# correctness tests and W1..W4 timings as a regression check.
G=bin/gjadvise
for t in build/probe/test_gen build/probe/test_join; do
    timeout 200 $t > /tmp/$(basename $t).log 2>&1; echo "$(basename $t) rc=$? $(grep -E '^\[  (PASSED|FAILED)' /tmp/$(basename $t).log | tr '\n' ' ')"
done
for i in PHJ-UR PHJ-TR NPHJ; do echo "== $i 624 x 2^26"; $G run join --r-rows 624 --s-rows 2^26 --match-ratio 0.0001 --r-payloads 3 --s-payloads 1 --impl $i --repeat 7 --no-log --profile h200-tuned | grep -E "total|match"; done
for i in PHJ-UR NPHJ; do echo "== $i 2^19 x 2^26"; $G run join --r-rows 2^19 --s-rows 2^26 --match-ratio 0.03 --r-payloads 1 --s-payloads 3 --impl $i --repeat 7 --no-log --profile h200-tuned | grep -E "total|match"; done
timeout 200 build/probe/join_bench 7 W1 W2 W3 W4 2>&1 | tail -30
