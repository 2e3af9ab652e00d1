#!/usr/bin/env bash
# A/B of k_pgb_many's partition bits: pgb_many_plan's choice ("plan")
# against bits forced by GJ_PGB_BITS, for PGB-TR (IMPLS), after test_groupby
# (SKIP_TESTS=1 skips it). carry ["bin", "build/pgbprobe"].
#   ROWS="2^26 2^28" GS="2^17 2^19 2^20" BITS="plan 8 9 10 11" bash bench/pgb_bits_device.sh
set -u
OUT=${OUT:-/tmp/out}
G=bin/gjadvise
export GJADVISE_DB=/tmp/gj_pgb.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
if [ "${SKIP_TESTS:-0}" = 0 ]; then
  timeout 300 build/pgbprobe/test_groupby > "$OUT/test_groupby.log" 2>&1; echo "test_groupby rc=$?"
  grep -E "^\[  (PASSED|FAILED)|FAIL" "$OUT/test_groupby.log" | head
fi
echo "rows bits impl,groups,median_ms,group_ms,aggregate_ms,predicted_ms"
for rows in ${ROWS:-2^28}; do
  for g in ${GS:-2^16 2^21}; do
    for bits in ${BITS:-plan 9}; do
      if [ "$bits" = plan ]; then e=GJ_X=0; else e=GJ_PGB_BITS=$bits; fi
      env $e $G bench groupby --rows $rows --aggs ${AGGS:-max,max} --key-bytes ${KB:-4} --sweep groups=$g:$g \
          --impls ${IMPLS:-PGB-TR} --repeat 7 --no-log 2>/dev/null | grep -v impl | cut -d, -f1,5-9 \
          | sed "s/^/$rows $bits /"
    done
  done
done
