#!/usr/bin/env bash
# Device-machine script for the partition scatter (session 4 of 2026-11-22;
# operators/join_partition.cuh, bench/join_part_notes.md). Prebuilt binaries
# only: carry build-b/dev (join_part_bench, join_bench, test_join, test_gen,
# test_groupby, libcmocka.so.0). Logs under $OUT.
#   PHASE=variants: the tile shapes GJ_JOIN_PART_VARIANT=$VARIANTS, each with
#     the bin-major and the tile-major histogram (GJ_JOIN_PART_HIST), on
#     W1's R side: join_part_bench (medians of REPEAT, custom == CUB checked
#     row for row), ncu kernel times (NCU_METRICS), W1 PHJ-TR; test_join and
#     test_groupby with variant TESTV and the tile-major histogram.
#   PHASE=final: test_gen, test_join, test_groupby, join_part_bench
#     (custom and CUB, checked), then GJ_JOIN_PART_VARIANT=$VARIANTS
#     (exploratory shapes, pack only, checked), ncu kernel times of each,
#     join_bench W1..W4.
# usage: OUT=... PHASE=variants|final bash bench/part_scatter_device.sh
set -u
OUT=${OUT:-/tmp/out}
D=${D:-build-b/dev}
mkdir -p "$OUT"
REPEAT=${REPEAT:-9}
PHASE=${PHASE:-final}
VARIANTS=${VARIANTS:-0 1 2 3}
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
if [ "$PHASE" = variants ]; then
    for h in bin tile; do
        for v in $VARIANTS; do
            say "join_part_bench variant $v, histogram layout $h"
            GJ_JOIN_PART_HIST=$h GJ_JOIN_PART_VARIANT=$v timeout 60 $D/join_part_bench "$REPEAT" pack custom 1 2>&1 | tee -a "$OUT/part_bench.log"
        done
    done
    say "join_part_bench CUB"
    timeout 60 $D/join_part_bench "$REPEAT" pack cub 0 2>&1 | tee -a "$OUT/part_bench.log"
    for h in bin tile; do
        for v in $VARIANTS; do
            say "ncu variant $v $h"
            GJ_JOIN_PART_HIST=$h GJ_JOIN_PART_VARIANT=$v ncu_times "v$v-$h" --kernel-name regex:part_ -c ${NCU_COUNT:-10} $D/join_part_bench 1 pack custom 0
        done
    done
    for v in $VARIANTS; do
        say "join_bench 7 W1 PHJ-TR, variant $v, histogram ${BESTH:-tile}"
        GJ_JOIN_PART_HIST=${BESTH:-tile} GJ_JOIN_PART_VARIANT=$v JOIN_BENCH_IMPLS=PHJ-TR timeout 60 $D/join_bench 7 W1 2>&1 | tee -a "$OUT/jb_variants.log"
    done
    for t in test_join test_groupby; do
        say "$t, variant ${TESTV:-3}, histogram tile"
        GJ_JOIN_PART_HIST=tile GJ_JOIN_PART_VARIANT=${TESTV:-3} timeout 150 $D/$t > "$OUT/$t.log" 2>&1
        echo "rc=$?"; grep -E "PASSED|FAILED|wrong" "$OUT/$t.log" | tail -4
    done
else
    for t in test_gen test_join test_groupby; do
        say "$t"
        timeout 150 $D/$t > "$OUT/$t.log" 2>&1; echo "rc=$?"
        grep -E "PASSED|FAILED|wrong|ERROR" "$OUT/$t.log" | tail -4
    done
    say "join_part_bench $REPEAT all both, checked"
    timeout 90 $D/join_part_bench "$REPEAT" all both 1 2>&1 | tee "$OUT/part_bench.log"
    for v in $VARIANTS; do
        say "EXPLORATORY join_part_bench variant $v (pack, checked)"
        GJ_JOIN_PART_VARIANT=$v timeout 60 $D/join_part_bench "$REPEAT" pack custom 1 2>&1 | tee -a "$OUT/part_bench.log"
    done
    say "ncu default"
    ncu_times custom --kernel-name regex:part_ -c 8 $D/join_part_bench 1 all custom 0
    for v in $VARIANTS; do
        say "ncu variant $v"
        GJ_JOIN_PART_VARIANT=$v ncu_times "v$v" --kernel-name regex:part_ -c 4 $D/join_part_bench 1 pack custom 0
    done
    say "join_bench 7 ${W:-W1 W2 W3 W4}"
    timeout 240 $D/join_bench 7 ${W:-W1 W2 W3 W4} > "$OUT/join_bench.log" 2>&1; echo "rc=$?"
    cat "$OUT/join_bench.log"
fi
say done
