#!/usr/bin/env bash
# Device script: the sort-based group-bys on rows already in key order
# (workload sorted_keys, session 10). test_groupby, then `gjadvise bench
# groupby --sorted-keys` (2^26 rows, sum and max,max) for SGB-UR, SGB-TR,
# SGB-DE-TR and PGB-TR with the in-order path on and off (GJ_SGB_IN_ORDER),
# alternating, two rounds, median of 7. carry ["bin", "build/vt4"].
set -u
OUT=${OUT:-/tmp/out}
export GJADVISE_DB=/tmp/gj_sgb.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
if [ "${SKIP_TESTS:-0}" = 0 ]; then
  timeout 300 build/vt4/test_groupby > "$OUT/test_groupby.log" 2>&1; echo "test_groupby rc=$?"
  grep -E "^\[  (PASSED|FAILED)|FAIL|differs" "$OUT/test_groupby.log" | head
fi
for aggs in ${AGGSETS:-sum max,max}; do
  for round in 1 2; do
    for mode in on off; do
      GJ_SGB_IN_ORDER=$mode bin/gjadvise bench groupby --rows ${ROWS:-2^26} --aggs $aggs --sorted-keys \
          --sweep groups=${GLO:-2^10}:${GHI:-2^24}:${GSTEP:-16} --impls ${IMPLS:-SGB-UR,SGB-TR,SGB-DE-TR,PGB-TR} \
          --repeat 7 --no-log 2>/dev/null | grep -v impl | cut -d, -f1-8 | sed "s|^|$aggs $round $mode |" | tee -a "$OUT/ab.txt"
    done
  done
done
