#!/usr/bin/env bash
# Device script: SMJ with a side already in key order (session 11: its
# min/max pass checks the order and leaves such a side unsorted). test_join,
# then `gjadvise bench join` SMJ-UR,SMJ-TR (and the hash joins beside them)
# with --s-sorted / --r-sorted, default against GJ_SMJ_IN_ORDER=off (they
# sort anyway), median of 7: TPC-H Q5's lineitem join shape (456771 x
# 59986052, 1+4 columns, match ratio 0.0304, S stored by the key), W1 with
# both sides in order, W1 with S in order. Output: $OUT/ab.txt.
# carry ["bin", "build/dn"] (test_join, libcmocka.so.0).
set -u
OUT=${OUT:-/tmp/out}
export GJADVISE_DB=/tmp/gj_smjio.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
timeout 300 build/dn/test_join > "$OUT/test_join.log" 2>&1; echo "test_join rc=$?"
grep -E "^\[  (PASSED|FAILED)|FAIL" "$OUT/test_join.log" | head
run() { # label, then bench join arguments
  local label=$1; shift
  bin/gjadvise bench join --repeat 7 --no-log --profile h200-tuned "$@" 2>/dev/null | grep -v '^impl' \
    | sed "s|^|$label |" | tee -a "$OUT/ab.txt"
}
echo "# impl,param,value,r_rows,s_rows,key_bytes,payload_bytes,r_payloads,s_payloads,match_ratio,zipf,out_rows,median_ms,transform_ms,match_ms,materialize_ms,predicted_ms,pred_transform_ms,pred_match_ms,pred_materialize_ms,peak_bytes,bytes,floor_ms,ratio,check" >> "$OUT/ab.txt"
for mode in on off; do
  if [ $mode = off ]; then export GJ_SMJ_IN_ORDER=off; else unset GJ_SMJ_IN_ORDER; fi
  run "$mode q5j2" --r-rows 456771 --s-rows 59986052 --r-payloads 1 --s-payloads 4 --match-ratio 0.0304 \
      --s-run 4 --s-sorted --impls SMJ-UR,SMJ-TR,NPHJ,PHJ-UR
  run "$mode W1-both" --r-sorted --s-sorted --impls SMJ-UR,SMJ-TR,PHJ-TR
  run "$mode W1-s" --s-sorted --impls SMJ-UR,SMJ-TR
done
date -u +%FT%TZ
