#!/usr/bin/env bash
# Superseded by bench/part_scatter_device.sh (session 4 of 2026-11-22): kept
# because bench/RESULTS.md cites it for session 3's runs. The custom partition
# is now the default; GJ_JOIN_PARTITION=cub selects CUB.
# Device-machine script for the joins' custom radix partition (issue 4,
# perf; operators/join_partition.cuh, opt-in with GJ_JOIN_PARTITION=custom):
# prebuilt binaries only (carry build/tests, build/bench). Logs under $OUT.
# 1. correctness: tests/test_gen, tests/test_join (test_gpu_partition checks
#    the custom partition against a CPU stable partition and CUB whatever the
#    setting), test_join again with GJ_JOIN_PARTITION=custom
# 2. bench/join_part_bench: the partition alone at W1's R side, custom vs CUB
# 3. join_bench REPEAT W1..W4, CUB (default) then custom
# 4. with NCU=1: ncu kernel durations of join_part_bench (one run each)
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
REPEAT=${REPEAT:-7}
W=${WORKLOADS:-W1 W2 W3 W4}
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
t0=$(date +%s)
for t in test_gen test_join; do
    echo "=== $t"
    timeout 120 build/tests/$t > "$OUT/$t.log" 2>&1; echo "rc=$? $(( $(date +%s) - t0 ))s"
    grep -E "PASSED|FAILED|ERROR|LINE|rows vs|wrong" "$OUT/$t.log" | tail -6
done
echo "=== test_join, GJ_JOIN_PARTITION=custom"
GJ_JOIN_PARTITION=custom timeout 120 build/tests/test_join > "$OUT/test_join_custom.log" 2>&1
echo "rc=$? $(( $(date +%s) - t0 ))s"; grep -E "PASSED|FAILED|wrong|rows vs" "$OUT/test_join_custom.log" | tail -4
echo "=== join_part_bench $REPEAT"
timeout 60 build/bench/join_part_bench "$REPEAT" 2>&1 | tee "$OUT/part_bench.log"
for p in cub custom; do
    echo "=== join_bench $REPEAT $W, GJ_JOIN_PARTITION=$p"
    GJ_JOIN_PARTITION=$p timeout 150 build/bench/join_bench "$REPEAT" $W > "$OUT/bench_$p.log" 2>&1
    echo "rc=$? $(( $(date +%s) - t0 ))s"; cat "$OUT/bench_$p.log"
done
NCU_BIN=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -n "$NCU_BIN" ] && [ "${NCU:-0}" = 1 ]; then
    echo "=== ncu join_part_bench 1 (ms per kernel, in launch order)"
    timeout 90 "$NCU_BIN" --clock-control none --metrics gpu__time_duration.sum --csv \
        build/bench/join_part_bench 1 > "$OUT/ncu.csv" 2> "$OUT/ncu.err"; echo "rc=$?"
    python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; ki, vi, ui = h.index("Kernel Name"), h.index("Metric Value"), h.index("Metric Unit")
scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}
for r in rows[1:]:
    print(f"{float(r[vi].replace(',', '')) * scale.get(r[ui], float('nan')):9.3f} ms  {r[ki][:70]}")
PY
fi
