#!/usr/bin/env bash
# Device-machine script for the partition scatter (session 4 of 2026-11-22;
# operators/join_partition.cuh, bench/join_part_notes.md). Prebuilt binaries
# only: carry build-b/dev (join_part_bench, join_bench, test_join, test_gen,
# test_groupby, libcmocka.so.0). Logs under $OUT.
# test_gen, test_join, test_groupby; join_part_bench (custom and CUB, medians
# of REPEAT, custom == CUB checked row for row); for each opt-in shape in
# SHAPES (GJ_JOIN_PART_SHAPE, e.g. 768x10): join_part_bench and test_join;
# ncu kernel times (NCU_METRICS); join_bench 7 W1..W4 (W overrides).
# usage: OUT=... SHAPES=768x10 bash bench/part_scatter_device.sh
# (session 4's comparison calls ran earlier versions of this script, with
# variants since removed: git log -- bench/part_scatter_device.sh)
set -u
OUT=${OUT:-/tmp/out}
D=${D:-build-b/dev}
mkdir -p "$OUT"
REPEAT=${REPEAT:-9}
SHAPES=${SHAPES:-}
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
t0=$(date +%s)
NCU_BIN=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
ncu_times() { # $1: label; rest: command. Kernel durations in launch order.
    local label=$1; shift
    [ -n "$NCU_BIN" ] || { echo "no ncu"; return; }
    timeout 100 "$NCU_BIN" --clock-control none --metrics ${NCU_METRICS:-gpu__time_duration.sum} --csv "$@" \
        > /tmp/ncu_tmp.csv 2> /tmp/ncu_tmp.err || echo "ncu rc=$?"
    tail -3 /tmp/ncu_tmp.err; python3 - /tmp/ncu_tmp.csv "$label" <<'PY' | tee -a "$OUT/ncu.log"
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: print(sys.argv[2], "no rows"); sys.exit()
h = rows[0]; ki, vi, ui = h.index("Kernel Name"), h.index("Metric Value"), h.index("Metric Unit")
scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}
mi = h.index("Metric Name"); tot = 0
for r in rows[1:]:
    if r[mi] == "gpu__time_duration.sum":
        ms = float(r[vi].replace(',', '')) * scale.get(r[ui], float('nan')); tot += ms
        print(f"{sys.argv[2]:12s} {ms:9.3f} ms  {r[ki][:62]}")
    else:
        print(f"{sys.argv[2]:12s}   {r[mi]} = {r[vi]} {r[ui]}")
print(f"{sys.argv[2]:12s} {tot:9.3f} ms  TOTAL")
PY
}
say() { echo "=== $* ($(( $(date +%s) - t0 ))s)"; }
for t in test_gen test_join test_groupby; do
    say "$t"
    timeout 150 $D/$t > "$OUT/$t.log" 2>&1; echo "rc=$?"
    grep -E "PASSED|FAILED|wrong|ERROR" "$OUT/$t.log" | tail -4
done
say "join_part_bench $REPEAT all both, checked"
timeout 90 $D/join_part_bench "$REPEAT" all both 1 2>&1 | tee "$OUT/part_bench.log"
for v in $SHAPES; do
    say "join_part_bench GJ_JOIN_PART_SHAPE=$v (pack, checked)"
    GJ_JOIN_PART_SHAPE=$v timeout 60 $D/join_part_bench "$REPEAT" pack custom 1 2>&1 | tee -a "$OUT/part_bench.log"
    say "test_join GJ_JOIN_PART_SHAPE=$v"
    GJ_JOIN_PART_SHAPE=$v timeout 150 $D/test_join > "$OUT/test_join_$v.log" 2>&1; echo "rc=$?"
    grep -E "PASSED|FAILED|wrong|ERROR" "$OUT/test_join_$v.log" | tail -4
done
say "ncu default"
ncu_times custom --kernel-name regex:part_ -c 8 $D/join_part_bench 1 all custom 0
for v in $SHAPES; do
    say "ncu GJ_JOIN_PART_SHAPE=$v"
    GJ_JOIN_PART_SHAPE=$v ncu_times "$v" --kernel-name regex:part_ -c 4 $D/join_part_bench 1 pack custom 0
done
say "join_bench 7 ${W:-W1 W2 W3 W4}"
timeout 240 $D/join_bench 7 ${W:-W1 W2 W3 W4} > "$OUT/join_bench.log" 2>&1; echo "rc=$?"
cat "$OUT/join_bench.log"
say done
