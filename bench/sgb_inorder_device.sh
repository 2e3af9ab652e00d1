#!/usr/bin/env bash
# Device script: SGB on rows in key order reduced in one pass over the keys
# and payloads (k_inorder_heads + k_inorder_reduce, session 11), against the
# in-order path through group ids (GJ_SGB_IN_ORDER=ids, the same binary):
# test_groupby; then `gjadvise bench groupby --sorted-keys`, SGB-UR (the
# three SGB-* take the same path in order), alternating, two rounds, median
# of 7: 2^26 rows, sum, groups 2^10..2^26; max,max and sum,max,count,avg at
# 2^12 and 2^22; 8-byte keys; TPC-H Q18's shape (60 M rows, 15 M groups, an
# 8-byte sum); PGB-TR and HGB beside them once. Output: $OUT/ab.txt.
# carry ["bin", "build/vt4"].
set -u
OUT=${OUT:-/tmp/out}
export GJADVISE_DB=/tmp/gj_sgbio.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
timeout 300 build/vt4/test_groupby > "$OUT/test_groupby.log" 2>&1; echo "test_groupby rc=$?"
grep -E "^\[  (PASSED|FAILED)|FAIL|differs" "$OUT/test_groupby.log" | head
B=bin/gjadvise
run() { # label, then bench groupby arguments
  local label=$1; shift
  $B bench groupby --sorted-keys --repeat 7 --no-log "$@" 2>/dev/null | grep -v '^impl' | cut -d, -f1,2,3,5,6-9,13,14 \
    | sed "s|^|$label |" | tee -a "$OUT/ab.txt"
}
for round in 1 2; do
  for mode in ids fused; do
    if [ $mode = ids ]; then export GJ_SGB_IN_ORDER=ids; else unset GJ_SGB_IN_ORDER; fi
    run "$mode $round sum" --rows 2^26 --aggs sum --sweep groups=2^10:2^26:16 --impls SGB-UR
    run "$mode $round maxmax" --rows 2^26 --aggs max,max --sweep groups=2^12:2^22:1024 --impls SGB-UR
    run "$mode $round smca" --rows 2^26 --aggs sum,max,count,avg --sweep groups=2^12:2^22:1024 --impls SGB-UR
    run "$mode $round k8" --rows 2^26 --aggs sum --key-bytes 8 --sweep groups=2^12:2^22:1024 --impls SGB-UR
    run "$mode $round q18" --rows 60000000 --aggs sum --payload-bytes 8 --sweep groups=15000000:15000000 --impls SGB-UR
  done
done
unset GJ_SGB_IN_ORDER
run "others 1 sum" --rows 2^26 --aggs sum --sweep groups=2^10:2^26:16 --impls HGB,PGB-TR
run "others 1 q18" --rows 60000000 --aggs sum --payload-bytes 8 --sweep groups=15000000:15000000 --impls HGB,PGB-TR,SGB-TR,SGB-DE-TR --check
date -u +%FT%TZ
