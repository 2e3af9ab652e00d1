#!/usr/bin/env bash
# Device script (an experiment, reverted: bench/RESULTS.md, Group-by,
# session 10): agg4 combining a thread's four rows in one slot before the
# shared-memory update (rows in key order), against the binary before
# (build/abbin/gjadvise_old): test_groupby, then `gjadvise bench
# groupby` HGB, PGB-UR, PGB-TR at 2^26 rows, in key order and not,
# alternating, two rounds, median of 7. carry ["bin", "build/vt4", "build/abbin"].
set -u
OUT=${OUT:-/tmp/out}
export GJADVISE_DB=/tmp/gj_agg4.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
timeout 300 build/vt4/test_groupby > "$OUT/test_groupby.log" 2>&1; echo "test_groupby rc=$?"
grep -E "^\[  (PASSED|FAILED)|FAIL|differs" "$OUT/test_groupby.log" | head
for aggs in sum max,max; do
  for ord in --sorted-keys ""; do
    for round in 1 2; do
      for b in build/abbin/gjadvise_old bin/gjadvise; do
        $b bench groupby --rows 2^26 --aggs $aggs $ord --sweep groups=2^4:2^16:16 --impls HGB,PGB-UR,PGB-TR \
            --repeat 7 --no-log 2>/dev/null | grep -v impl | cut -d, -f1,4,6-8 \
            | sed "s|^|$aggs ${ord:-unordered} $round $(basename $b) |" | tee -a "$OUT/ab.txt"
      done
    done
  done
done
date -u +%FT%TZ
