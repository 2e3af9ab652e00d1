#!/usr/bin/env bash
# Device script: PGB's aggregate loops with several aggregates (session 10):
# test_groupby, then the binary before (build/abbin/gjadvise_old) and after
# (bin/gjadvise), alternating, two rounds, median of 7: PGB-TR and PGB-UR at
# 2^26 rows (the validate grid's size), g = 2^6..2^20, for each list of
# aggregates in AGGSETS, 4- and 8-byte keys (KBS). carry ["bin", "build/vt4", "build/abbin"].
set -u
OUT=${OUT:-/tmp/out}
export GJADVISE_DB=/tmp/gj_pgbaggs.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
if [ "${SKIP_TESTS:-0}" = 0 ]; then
  timeout 240 build/vt4/test_groupby > "$OUT/test_groupby.log" 2>&1; echo "test_groupby rc=$?"
  grep -E "^\[  (PASSED|FAILED)|FAIL|differs" "$OUT/test_groupby.log" | head
fi
for kb in ${KBS:-4 8}; do
for aggs in ${AGGSETS:-max,max sum sum,max,count sum,max,count,avg max,sum,avg}; do
  for round in 1 2; do
    for b in ${BINS:-build/abbin/gjadvise_old bin/gjadvise}; do
      $b bench groupby --rows ${ROWS:-2^26} --key-bytes $kb --aggs $aggs --sweep groups=${GLO:-2^6}:${GHI:-2^20}:${GSTEP:-8} \
          --impls ${IMPLS:-PGB-TR,PGB-UR} --repeat 7 --no-log 2>/dev/null | grep -v impl | cut -d, -f1,4,6-8 \
          | sed "s|^|k$kb $aggs $round $(basename $b) |" | tee -a "$OUT/ab.txt"
    done
  done
done
done
