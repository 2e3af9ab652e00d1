#!/usr/bin/env bash
# The joins' dense materialization (operators/join_api.cu write_dense), one
# device call (carry ["build/dn"]: test_join, join_bench, join_bench_old
# built from the commit before, libcmocka.so.0):
# 1. test_join against the CPU reference (every implementation), under
#    each GJ_JOIN_DENSE of TEST_MODES (default: auto, the default shape);
# 2. join_bench WORKLOADS (median of REPEAT; peak memory per run),
#    join_bench_old then join_bench, alternating ROUNDS times; or with
#    MODES="off split fused ..." join_bench under each GJ_JOIN_DENSE.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
D=${D:-build/dn}
export LD_LIBRARY_PATH=$D
nvidia-smi --query-gpu=name,uuid,memory.total,clocks.sm,clocks.mem --format=csv,noheader
date -u +%FT%TZ
if [ "${SKIP_TESTS:-0}" = 0 ]; then
    for m in ${TEST_MODES:-auto}; do
        GJ_JOIN_DENSE=$m timeout 300 $D/test_join > "$OUT/test_join_$m.log" 2>&1
        echo "test_join GJ_JOIN_DENSE=$m rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/test_join_$m.log" | tr '\n' ' ')"
        grep -E "FAILED|rows vs|Error|error" "$OUT/test_join_$m.log" | head -10
    done
fi
for r in $(seq 1 "${ROUNDS:-1}"); do
    if [ -n "${MODES:-}" ]; then
        for m in $MODES; do
            echo "=== round $r GJ_JOIN_DENSE=$m"
            GJ_JOIN_DENSE=$m timeout 240 $D/join_bench "${REPEAT:-7}" ${WORKLOADS:-W1 W2 W3 W4} 2>&1
        done
        continue
    fi
    for b in join_bench_old join_bench; do
        echo "=== round $r $b"
        timeout 240 $D/$b "${REPEAT:-7}" ${WORKLOADS:-W1 W2 W3 W4} 2>&1
    done
done
date -u +%FT%TZ
