#!/usr/bin/env bash
# SMJ's MSD sort (operators/join_api.cu msd_sort), one device call
# (carry ["bin", "build/msd"]: test_join, join_bench, libcmocka.so.0):
# 1. test_join against the CPU reference (every implementation);
# 2. join_bench W1..W4 (median of REPEAT), GJ_JOIN_MSD=off then on,
#    alternating ROUNDS times, SMJ only (IMPLS);
# 3. ncu kernel times of one SMJ run on W1 with the MSD sort (NCU=1).
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
D=${D:-build/msd}
export LD_LIBRARY_PATH=$D
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv,noheader
if [ "${SKIP_TESTS:-0}" = 0 ]; then
    timeout 300 $D/test_join > "$OUT/test_join.log" 2>&1
    echo "test_join rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/test_join.log" | tr '\n' ' ')"
    grep -E "FAILED|rows vs|Error|error" "$OUT/test_join.log" | head -10
fi
export JOIN_BENCH_IMPLS=${IMPLS:-SMJ-UR,SMJ-TR}
for r in $(seq 1 "${ROUNDS:-1}"); do
    for m in off on; do
        echo "=== round $r GJ_JOIN_MSD=$m"
        GJ_JOIN_MSD=$m timeout 240 $D/join_bench "${REPEAT:-7}" ${WORKLOADS:-W1 W2 W3 W4} 2>&1
    done
done
if [ "${NCU:-0}" = 1 ]; then
    JOIN_BENCH_IMPLS=${NCU_IMPL:-SMJ-TR} timeout 200 ncu --metrics gpu__time_duration.sum --csv \
        $D/join_bench 1 W1 > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
    python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; ki = h.index("Kernel Name"); vi = h.index("Metric Value")
t = collections.OrderedDict()
for r in rows[1:]:
    k = r[ki][:70]
    t.setdefault(k, []).append(float(r[vi].replace(",", "")) / 1e6)
for k, v in t.items():
    print("%-70s n=%2d  first %.3f ms  sum %.3f ms" % (k, len(v), v[0], sum(v)))
PY
fi
cd "$OUT" && tar czf msd.tgz *.log *.csv 2>/dev/null; true
