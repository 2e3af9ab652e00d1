#!/usr/bin/env bash
# Session 37, call 4: call 3's general-tile fold by 64-bit shuffles and the
# accumulator's own combine (gb_fold) made skewed aggregates 1.2-3.5x
# slower. Here the fold takes only the kinds one warp reduction combines
# (counts; 4-byte sums, maxima, minima: pgb_lean_fold's __reduce_*_sync,
# the lean pair's fold); floats and 8-byte sources keep their own atomics.
# ptxas: 64 registers (was 56-62) and 12-20 bytes of spill in some builds,
# so the uniform points compare the new binary (s37c) with main's (s37a),
# not only the switch (GJ_GB_FOLD=0 also turns the lean pair's fold off).
# Predicted (call 3's FOLD=0 side, 2^26 rows, 2^20 hashed groups): PGB-TR
# sum,count,avg at Zipf 1.5 1.88 -> ~1.5 ms, PGB-UR max,max 1.80 -> ~1.4;
# uniform level.
# carry: build/s37c.tgz build/s37a.tgz
source bench/device_lib.sh
gj_unpack s37c
mkdir -p build/old && tar xzf build/s37a.tgz -C build/old && O=$PWD/build/old/vt/gjadvise
f() { grep -o '"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for c in "PGB-TR sum,count,avg" "PGB-TR max,sum,avg,count" "PGB-UR max,max" "PGB-UR sum,count,avg" "PGB-TR max,max"; do
  set -- $c
  for z in 0 1 1.5 2; do
    R="run groupby --rows 2^26 --groups 2^20 --key-range unknown --zipf $z --aggs $2 --impl $1 --repeat 7 --no-log --json"
    echo "agg $1 $2 z$z: new $(timeout 30 $G $R | f)| FOLD=0 $(GJ_GB_FOLD=0 timeout 30 $G $R | f)| main $(timeout 30 $O $R | f)| new $(timeout 30 $G $R | f)"
  done
done
for c in "PGB-TR max,max 2^16" "PGB-TR max,max 2^20" "PGB-TR max,max 2^22" "PGB-TR sum,count,avg 2^16" "PGB-TR sum,count,avg 2^22" "PGB-UR max,max 2^20"; do
  set -- $c
  R="run groupby --rows 2^28 --groups $3 --key-range unknown --aggs $2 --impl $1 --repeat 7 --no-log --json"
  echo "agg uniform 2^28 $c: new $(timeout 40 $G $R | f)| main $(timeout 40 $O $R | f)| new $(timeout 40 $G $R | f)| main $(timeout 40 $O $R | f)"
done
R="run groupby --rows 2^26 --groups 2^20 --zipf 1.5 --aggs sum,count,avg --impl PGB-TR --repeat 7 --no-log --json"
echo "agg direct z1.5 sum,count,avg: new $(timeout 30 $G $R | f)| main $(timeout 30 $O $R | f)"
date -u +%FT%TZ
for v in "--impl PGB-TR --zipf 1.5 --key-range unknown --aggs sum,count,avg" \
         "--impl PGB-TR --zipf 2 --key-range unknown --aggs sum,min,max,count,avg --float" \
         "--impl PGB-UR --zipf 1.5 --key-range unknown --aggs sum,min,max,count,avg" \
         "--impl PGB-UR --zipf 1 --key-range unknown" \
         "--impl PGB-TR --zipf 1.5 --aggs max,sum,avg,count" \
         "--impl PGB-TR --zipf 1.5 --key-bytes 8 --key-range unknown --aggs sum,min,count"; do
  timeout 60 $G run groupby --rows 2^24 --groups 2^18 $v --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check $v rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done
(cd "$D" && LD_LIBRARY_PATH=. timeout 400 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby rc=$?")
grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"; grep -E "FAIL|wrong|mismatch" "$OUT/test_groupby.txt" | head
date -u +%FT%TZ
