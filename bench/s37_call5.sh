#!/usr/bin/env bash
# Session 37, call 5: the general tile's fold (call 4's, by one warp
# reduction) in builds of its own (k_pgb_many's FOLD: generic builds of 1
# and 2 blocks), taken where the workload says Zipf >= 1
# (operators/shapes.h GJ_PGB_FOLD_ZIPF; `run groupby --zipf` tells it).
# Predicted: skewed points as call 4's new column (PGB-TR sum,count,avg
# Zipf 1.5 ~1.44 ms, max,sum,avg,count ~1.46), uniform ones as main's
# (the builds they take are main's code: ptxas's registers and spills
# equal). New (s37d) against main (s37a), two rounds; --check on skewed
# fold builds (4- and 8-byte keys, hashed and direct, floats: no fold for
# their kinds) and test_groupby (skewed cases now tell their Zipf; a new
# grid row GJ_GB_FOLD=0 keeps the unfolded builds under skew).
# carry: build/s37d.tgz build/s37a.tgz
source bench/device_lib.sh
gj_unpack s37d
mkdir -p build/old && tar xzf build/s37a.tgz -C build/old && O=$PWD/build/old/vt/gjadvise
f() { grep -o '"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for c in "PGB-TR sum,count,avg" "PGB-TR max,sum,avg,count" "PGB-TR max,max"; do
  set -- $c
  for z in 0 1 1.5 2; do
    R="run groupby --rows 2^26 --groups 2^20 --key-range unknown --zipf $z --aggs $2 --impl $1 --repeat 7 --no-log --json"
    echo "agg $1 $2 z$z: new $(timeout 30 $G $R | f)| main $(timeout 30 $O $R | f)| new $(timeout 30 $G $R | f)| main $(timeout 30 $O $R | f)"
  done
done
R="run groupby --rows 2^26 --groups 2^20 --zipf 1.5 --aggs sum,count,avg --impl PGB-TR --repeat 7 --no-log --json"
echo "agg direct z1.5 sum,count,avg: new $(timeout 30 $G $R | f)| main $(timeout 30 $O $R | f)"
for g in 2^16 2^22; do
  R="run groupby --rows 2^28 --groups $g --key-range unknown --aggs sum,count,avg --impl PGB-TR --repeat 7 --no-log --json"
  echo "agg uniform 2^28 $g sum,count,avg: new $(timeout 40 $G $R | f)| main $(timeout 40 $O $R | f)| new $(timeout 40 $G $R | f)| main $(timeout 40 $O $R | f)"
done
for v in "--impl PGB-TR --zipf 1.5 --key-range unknown --aggs sum,count,avg" \
         "--impl PGB-TR --zipf 2 --key-range unknown --aggs sum,min,max,count,avg --float" \
         "--impl PGB-UR --zipf 1.5 --key-range unknown --aggs sum,min,max,count,avg" \
         "--impl PGB-TR --zipf 1.5 --aggs max,sum,avg,count" \
         "--impl PGB-TR --zipf 1.5 --key-bytes 8 --key-range unknown --aggs sum,min,count"; do
  timeout 60 $G run groupby --rows 2^24 --groups 2^18 $v --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check $v rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done
date -u +%FT%TZ
(cd "$D" && LD_LIBRARY_PATH=. timeout 420 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby rc=$?")
grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"; grep -E "FAIL|wrong|mismatch" "$OUT/test_groupby.txt" | head
date -u +%FT%TZ
