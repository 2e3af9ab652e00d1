#!/usr/bin/env bash
# Device-machine script for the joins (issue 4): prebuilt binaries only.
# 1. correctness: tests/test_gen and tests/test_join against the CPU reference
# 2. timings: bench/join_bench (W1..W4 of issue 4 + optional extras), median
#    of REPEAT runs per implementation. Logs under $OUT.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
REPEAT=${REPEAT:-7}
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
for t in build/tests/test_gen build/tests/test_join; do
    echo "=== $t"
    timeout 150 "$t" > "$OUT/$(basename $t).log" 2>&1; echo "rc=$?"
    grep -E "PASSED|FAILED|SKIPPED|ERROR|rows vs|: " "$OUT/$(basename $t).log" | tail -15
done
echo "=== join_bench $REPEAT ${WORKLOADS:-W1 W2 W3 W4}"
timeout ${BENCH_TIMEOUT:-200} build/bench/join_bench "$REPEAT" ${WORKLOADS:-W1 W2 W3 W4} 2>&1 | tee "$OUT/join_bench.log"
