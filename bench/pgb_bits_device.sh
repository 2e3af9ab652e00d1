#!/usr/bin/env bash
# A/B of k_pgb_many's partition bits (pgb_many_plan against the fewest bits,
# forced by GJ_PGB_BITS), after test_groupby. carry ["bin", "build/pgbprobe"].
set -u
OUT=${OUT:-/tmp/out}
G=bin/gjadvise
export GJADVISE_DB=/tmp/gj_pgb.db
timeout 300 build/pgbprobe/test_groupby > "$OUT/test_groupby.log" 2>&1; echo "test_groupby rc=$?"
grep -E "^\[  (PASSED|FAILED)|FAIL" "$OUT/test_groupby.log" | head
b() { local g=$1; shift; env "$@" $G bench groupby --rows 2^28 --aggs max,max --sweep groups=$g --impls PGB-TR,PGB-UR --repeat 7 --no-log 2>/dev/null | grep -v impl | cut -d, -f1,4,6-8 | sed "s/^/$* /"; }
b 2^13:2^25:4 GJ_X=0
b 2^16 GJ_PGB_BITS=4
b 2^16 GJ_X=0
b 2^21 GJ_PGB_BITS=9
b 2^21 GJ_X=0
b 2^20 GJ_X=0
