#!/usr/bin/env bash
# Device script: SMJ's match with the block's R window in shared memory
# (session 11), against the binary before (build/abbin/gjadvise_old):
# test_join, then `gjadvise bench join --impls SMJ-UR,SMJ-TR`, alternating,
# two rounds, median of 7: W1, W1 with both sides in key order, W4 (Zipf 1),
# TPC-H Q5's lineitem join shape with S in order. Output: $OUT/ab.txt.
# carry ["bin", "build/dn", "build/abbin"].
set -u
OUT=${OUT:-/tmp/out}
export GJADVISE_DB=/tmp/gj_smjw.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
timeout 300 build/dn/test_join > "$OUT/test_join.log" 2>&1; echo "test_join rc=$?"
grep -E "^\[  (PASSED|FAILED)|FAIL" "$OUT/test_join.log" | head
run() { # binary, label, then bench join arguments
  local b=$1 label=$2; shift 2
  $b bench join --repeat 7 --no-log --impls SMJ-UR,SMJ-TR "$@" 2>/dev/null | grep -v '^impl' | cut -d, -f1,13-16 \
    | sed "s|^|$label $(basename $b) |" | tee -a "$OUT/ab.txt"
}
for round in 1 2; do
  for b in build/abbin/gjadvise_old bin/gjadvise; do
    run $b "$round W1"
    run $b "$round W1-both" --r-sorted --s-sorted
    run $b "$round W4" --zipf 1
    run $b "$round q5j2" --r-rows 456771 --s-rows 59986052 --r-payloads 1 --s-payloads 4 --match-ratio 0.0304 --s-sorted
  done
done
date -u +%FT%TZ
