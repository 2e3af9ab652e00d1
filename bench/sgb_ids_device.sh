#!/usr/bin/env bash
# Device script: SGB's group ids by one scan over the keys (head flags
# computed as it reads them, session 10), against the binary before
# (build/abbin/gjadvise_old): test_groupby, then `gjadvise bench groupby`
# SGB-* at 2^26 rows, one sum, in key order (--sorted-keys) and not,
# alternating, two rounds, median of 7; then the group-by peaks
# (bench/gb_peak_device.sh) into $OUT/peak.csv.
# carry ["bin", "build/vt4", "build/abbin"].
set -u
OUT=${OUT:-/tmp/out}
export GJADVISE_DB=/tmp/gj_sgbids.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
timeout 300 build/vt4/test_groupby > "$OUT/test_groupby.log" 2>&1; echo "test_groupby rc=$?"
grep -E "^\[  (PASSED|FAILED)|FAIL|differs" "$OUT/test_groupby.log" | head
for ord in --sorted-keys ""; do
  for round in 1 2; do
    for b in build/abbin/gjadvise_old bin/gjadvise; do
      $b bench groupby --rows 2^26 --aggs sum $ord --sweep groups=2^10:2^22:16 --impls SGB-UR,SGB-TR,SGB-DE-TR \
          --repeat 7 --no-log 2>/dev/null | grep -v impl | cut -d, -f1,4,6-8 \
          | sed "s|^|${ord:-unordered} $round $(basename $b) |" | tee -a "$OUT/ab.txt"
    done
  done
done
[ "${PEAKS:-1}" = 1 ] && bash bench/gb_peak_device.sh > "$OUT/peak.csv" 2>&1
date -u +%FT%TZ
