#!/usr/bin/env bash
# Device script for PGB at large g (issue 5, bench/RESULTS.md "## Group-by").
# Build here first, then run with carry ["bin", "build/pgbprobe"]:
#   make bin/gjadvise build/tests/test_groupby
#   mkdir -p build/pgbprobe && cp build/tests/test_groupby build/tests/libcmocka.so.0 build/pgbprobe/
# 1. tests/test_groupby (every implementation against the CPU reference,
#    PGB under each partition and table shape)
# 2. |R| = 2^28, two 4-byte payloads, max,max (paper 000 Sec. 5.2.1),
#    IMPLS (default PGB-UR,PGB-TR; "all") for g = GLO..GHI step 2^2, median
#    of REPEAT, 4-byte then 8-byte keys; VARIANTS="name:keybytes:VAR=value"
#    adds PGB-only sweeps under a knob (GJ_PGB_PARTITION, GJ_PGB_TS,
#    GJ_PGB_KERNEL). Floors at B_G = $BG GB/s. Everything under $OUT.
set -u
TOP=${OUT:-/tmp/out}
OUT=$TOP/d # the device returns 8 files at most: everything is packed at the end
mkdir -p "$OUT"
REPEAT=${REPEAT:-7}
BG=${BG:-4277.8}
G=bin/gjadvise
export GJADVISE_DB=/tmp/gj_pgb.db
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader | tee "$OUT/gpu.txt"
date -u +%FT%TZ | tee -a "$OUT/gpu.txt"
if [ "${SKIP_TESTS:-0}" = 0 ]; then
  timeout 240 build/pgbprobe/test_groupby > "$OUT/test_groupby.log" 2>&1; echo "test_groupby rc=$?"
  grep -E "^\[  (PASSED|FAILED)|FAIL|differs" "$OUT/test_groupby.log" | head -20
fi
sweep() { # name, key bytes, env...
  local name=$1 kb=$2 impls=${SWEEP_IMPLS:-${IMPLS:-PGB-UR,PGB-TR}}; shift 2
  echo "=== $name (key bytes $kb) $*"
  env "$@" timeout 200 $G bench groupby --rows 2^28 --aggs max,max --key-bytes "$kb" \
      --sweep groups=${GLO:-2^14}:${GHI:-2^26}:4 --impls "$impls" --repeat "$REPEAT" --bg "$BG" \
      --no-log --profile h200-tuned > "$OUT/$name.csv" 2> "$OUT/$name.err"
  echo "rc=$?"; cat "$OUT/$name.csv"; tail -2 "$OUT/$name.err"
}
sweep k4_default 4
# VARIANTS="name:keybytes:VAR=value ...": extra sweeps (A/B knobs)
for v in ${VARIANTS:-}; do # PGB only (VIMPLS)
  IFS=: read -r vn vk ve <<< "$v"
  SWEEP_IMPLS=${VIMPLS:-PGB-UR,PGB-TR} sweep "$vn" "$vk" "$ve"
done
sweep k8_default 8
# NCU=1: kernel durations and throughput of one PGB-TR run per NCU_G value
NCU_BIN=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ "${NCU:-0}" = 1 ] && [ -n "$NCU_BIN" ]; then
  for g in ${NCU_G:-2^16 2^22}; do
    echo "=== ncu PGB-TR g=$g"
    timeout 120 "$NCU_BIN" --clock-control none --section SpeedOfLight --section Occupancy \
        --section LaunchStats --csv --page details \
        $G run groupby --rows 2^28 --groups "$g" --aggs max,max --impl PGB-TR --repeat 1 --no-log \
        > "$OUT/ncu_$g.csv" 2> "$OUT/ncu_$g.err"
    echo "rc=$?"
    python3 - "$OUT/ncu_$g.csv" <<'PY2'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: sys.exit(0)
h = rows[0]; ix = {k: i for i, k in enumerate(h)}
want = ("Duration", "Memory Throughput", "DRAM Throughput", "Achieved Occupancy", "Registers Per Thread",
        "Compute (SM) Throughput", "Theoretical Occupancy", "Block Limit Shared Mem")
seen = {}
for r in rows[1:]:
    k = (r[ix["ID"]], r[ix["Kernel Name"]][:60])
    if r[ix["Metric Name"]] in want: seen.setdefault(k, []).append(f'{r[ix["Metric Name"]]}={r[ix["Metric Value"]]}{r[ix["Metric Unit"]]}')
for k, v in seen.items(): print(k[0], k[1], "; ".join(v))
PY2
  done
fi
tar czf "$TOP/pgb-out.tgz" -C "$OUT" . && rm -rf "$OUT"
