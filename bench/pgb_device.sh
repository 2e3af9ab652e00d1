#!/usr/bin/env bash
# Device script for PGB at large g (issue 5, bench/RESULTS.md "## Group-by").
# Build here first, then run with carry ["bin", "build/pgbprobe"]:
#   make bin/gjadvise build/tests/test_groupby
#   mkdir -p build/pgbprobe && cp build/tests/test_groupby build/tests/libcmocka.so.0 build/pgbprobe/
# 1. tests/test_groupby (every implementation against the CPU reference,
#    PGB under each partition and table shape)
# 2. |R| = 2^28, two 4-byte payloads, max,max (paper 000 Sec. 5.2.1),
#    PGB-UR and PGB-TR for g = 2^14..2^26 step 2^2 (4-byte keys), median of
#    REPEAT: the default, GJ_PGB_PARTITION=cub and =custom; 8-byte
#    keys with the default. Floors at B_G = $BG GB/s. Everything under $OUT.
set -u
OUT=${OUT:-/tmp/out}
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
  local name=$1 kb=$2; shift 2
  echo "=== $name (key bytes $kb) $*"
  env "$@" timeout 200 $G bench groupby --rows 2^28 --aggs max,max --key-bytes "$kb" \
      --sweep groups=${GLO:-2^14}:${GHI:-2^26}:4 --impls ${IMPLS:-PGB-UR,PGB-TR} --repeat "$REPEAT" --bg "$BG" \
      --no-log --profile h200-tuned > "$OUT/$name.csv" 2> "$OUT/$name.err"
  echo "rc=$?"; cat "$OUT/$name.csv"; tail -2 "$OUT/$name.err"
}
sweep k4_default 4
[ "${AB:-1}" = 1 ] && sweep k4_cub 4 GJ_PGB_PARTITION=cub
[ "${AB:-1}" = 1 ] && sweep k4_custom 4 GJ_PGB_PARTITION=custom
sweep k8_default 8
tar czf "$OUT/pgb-out.tgz" -C "$OUT" --exclude pgb-out.tgz . 2>/dev/null
