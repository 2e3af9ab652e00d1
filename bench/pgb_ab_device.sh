#!/usr/bin/env bash
# A/B of PGB's chunk kernels and table sizes (issue 5): PGB-TR at |R| = 2^28,
# max,max, the default (k_pgb_many, 8192 slots) against GJ_PGB_TS and
# GJ_PGB_KERNEL=chunk (the two-pass kernel at every g), after test_groupby.
# carry ["bin", "build/pgbprobe"] (see bench/pgb_device.sh).
set -u
OUT=${OUT:-/tmp/out}
G=bin/gjadvise
export GJADVISE_DB=/tmp/gj_pgb.db
if [ "${SKIP_TESTS:-0}" = 0 ]; then
  timeout 300 build/pgbprobe/test_groupby > "$OUT/test_groupby.log" 2>&1; echo "test_groupby rc=$?"
  grep -E "^\[  (PASSED|FAILED)|FAIL|differs" "$OUT/test_groupby.log" | head -20
fi
b() { env "$@" $G bench groupby --rows 2^28 --aggs max,max --sweep groups=${GLO:-2^12}:${GHI:-2^24}:${GST:-16} --impls ${IMPLS:-PGB-TR} --repeat ${REPEAT:-3} --no-log 2>/dev/null | cut -d, -f1,4,6-8 | grep -v impl | sed "s/^/$* /"; }
b GJ_PGB_X=0
b GJ_PGB_TS=4096
b GJ_PGB_TS=2048
b GJ_PGB_KERNEL=chunk
