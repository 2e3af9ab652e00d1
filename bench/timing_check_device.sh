#!/usr/bin/env bash
# Device check after moving run/bench/validate onto one timing loop
# (operators/timing.c): the CLI's GPU tests, run join/groupby with --check,
# and a quick validation grid. Carry ["bin", "build/probe"] with
# build/probe holding test_validate, test_expect and libcmocka.so.0.
G=bin/gjadvise
for t in build/probe/test_validate build/probe/test_expect; do
    GJ_BIN=$PWD/$G timeout 200 $t > /tmp/t.log 2>&1; echo "$(basename $t) rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' /tmp/t.log | tr '\n' ' ')"
done
$G run join --r-rows 2^20 --s-rows 2^21 --match-ratio 0.5 --impl PHJ-TR --check --repeat 5 --no-log | tail -4
$G run groupby --rows 2^22 --groups 2^10 --aggs sum,max --impl HGB --check --repeat 5 --no-log | tail -4
$G run groupby --rows 2^22 --groups 2^12 --impl PGB-TR --key-bytes 8 --key-offset 0xffffffff00000000 --check --repeat 4 --no-log | tail -2
$G validate --quick --profile h200-tuned --db /tmp/v.db 2>/dev/null | sed -n '/advisor regret/,/mean/p'
$G validate --quick --profile h200-tuned --db /tmp/v.db 2>&1 | grep -i resum
