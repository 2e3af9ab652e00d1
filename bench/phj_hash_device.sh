#!/usr/bin/env bash
# Device script: PHJ on hashed keys when raw key bits skew its partitions
# (operators/join_api.cu phj_skewed;
# bench/RESULTS.md, Joins). Build here first:
#   make bin/gjadvise build/lib/libgjadvise.a build/tests/test_join build/tests/test_gen
#   cc -Iinclude -I. -I/usr/local/cuda/include -O2 -std=c11 -D_POSIX_C_SOURCE=200809L \
#      -o build/probe-h/join_bench bench/join_bench.c build/lib/libgjadvise.a <static libs, as the Makefile>
#   cp build/tests/{test_join,test_gen,libcmocka.so.0} build/probe-h/
# then run with carry ["bin", "build/probe-h"]. 1. the join tests (structured
# key domains included; check_all also runs PHJ-TR with CUB's sort),
# 2. join_bench 7 W1..W4, T1, T2, 3. the sparse-vs-dense key probe.
D=build/probe-h
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for t in test_gen test_join; do
    timeout 300 $D/$t > "$OUT/$t.log" 2>&1
    echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/$t.log" | tr '\n' ' ')"
done
timeout 240 $D/join_bench 7 W1 W2 W3 W4 T1 T2 2>&1 | tee "$OUT/join_bench.log" | tail -40
bash bench/sparse_keys_device.sh
