#!/usr/bin/env bash
# Session 37, call 3: k_pgb_many's general tile folds a skewed warp's rows
# of lane 0's slot (groupby_kernels.cuh pgb_fold_plan, pgb_fold_acc), as
# the lean pair has since session 34. GJ_GB_FOLD=0 is the old general tile
# (and turns the lean pair's fold off too, so max,max is shown beside).
# Predicted from call 2 (H200, 2^26 rows, 2^20 hashed groups): the general
# tile's skew cost toward the lean pair's (1.85x of uniform at Zipf 1.5):
# PGB-TR sum,count,avg aggregate 1.81 -> ~1.45 ms, max,sum,avg,count 1.96
# -> ~1.3; at Zipf 1 (both 1.7x of uniform already) little; uniform level
# (one shuffle and vote a tile, as the lean pair pays).
# Then --check at skewed points of every path the fold takes, and
# test_groupby (a new case: floats of both signs, Zipf 1.5).
# carry: build/s37b.tgz
source bench/device_lib.sh
gj_unpack s37b
f() { grep -o '"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for c in "PGB-TR sum,count,avg" "PGB-TR max,sum,avg,count" "PGB-UR max,max" "PGB-UR sum,count,avg" "PGB-TR max,max"; do
  set -- $c
  for z in 0 1 1.5 2; do
    R="run groupby --rows 2^26 --groups 2^20 --key-range unknown --zipf $z --aggs $2 --impl $1 --repeat 7 --no-log --json"
    echo "agg $1 $2 z$z: new $(timeout 30 $G $R | f)| FOLD=0 $(GJ_GB_FOLD=0 timeout 30 $G $R | f)| new $(timeout 30 $G $R | f)"
  done
done
for g in 2^16 2^22; do
  R="run groupby --rows 2^28 --groups $g --key-range unknown --aggs sum,count,avg --impl PGB-TR --repeat 7 --no-log --json"
  echo "agg uniform 2^28 $g sum,count,avg: new $(timeout 40 $G $R | f)| FOLD=0 $(GJ_GB_FOLD=0 timeout 40 $G $R | f)| new $(timeout 40 $G $R | f)"
done
R="run groupby --rows 2^26 --groups 2^20 --zipf 1.5 --aggs sum,count,avg --impl PGB-TR --repeat 7 --no-log --json"
echo "agg direct z1.5 sum,count,avg: new $(timeout 30 $G $R | f)| FOLD=0 $(GJ_GB_FOLD=0 timeout 30 $G $R | f)"
date -u +%FT%TZ
for v in "--impl PGB-TR --zipf 1.5 --key-range unknown --aggs sum,count,avg" \
         "--impl PGB-TR --zipf 2 --key-range unknown --aggs sum,min,max,count,avg --float" \
         "--impl PGB-UR --zipf 1.5 --key-range unknown --aggs sum,min,max,count,avg --float" \
         "--impl PGB-UR --zipf 1 --key-range unknown" \
         "--impl PGB-TR --zipf 1.5 --aggs max,sum,avg,count" \
         "--impl PGB-TR --zipf 1.5 --key-bytes 8 --key-range unknown --aggs sum,min,count"; do
  timeout 60 $G run groupby --rows 2^24 --groups 2^18 $v --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check $v rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done
(cd "$D" && LD_LIBRARY_PATH=. timeout 400 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby rc=$?")
grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"; grep -E "FAIL|wrong|mismatch" "$OUT/test_groupby.txt" | head
date -u +%FT%TZ
