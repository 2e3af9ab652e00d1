#!/usr/bin/env bash
# Session 34, call 7: HGB's global aggregate (k_agg_gid, R = 0) under skew:
# a warp's rows of lane 0's group, where they are 8 or more, combine by
# shuffles (gb_fold) and lane 0 sends one atomic; GJ_GB_FOLD=0 = before.
# Call 6's grid: HGB 2^26 rows, 2^20 groups, max,max stage 2 1.39 ms
# uniform, 6.4 at Zipf 1, 24.0 at Zipf 1.5 (global atomics on a hot
# group, one after another in the L2). Predicted: Zipf 1.5 24 -> ~2 ms,
# uniform within noise. test_groupby runs beside the timings (one budget
# left): compare each line's two columns only.
# carry: build/s34g.tgz
source bench/device_lib.sh
gj_unpack s34g
(cd "$D" && LD_LIBRARY_PATH=. timeout 270 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby rc=$?" > "$OUT/test_rc.txt") &
TP=$!
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl HGB"
for a in max,max sum,min,max,count,avg; do for z in 0 1 1.5 2; do
  echo "HGB $a z$z: before $(GJ_GB_FOLD=0 timeout 60 $G $R --aggs $a --zipf $z | f)| fold $(timeout 60 $G $R --aggs $a --zipf $z | f)"
done; done
for z in 0 1.5 2; do
  echo "PGB-TR max,max hashed z$z: before $(GJ_GB_FOLD=0 timeout 60 $G run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl PGB-TR --key-range unknown --zipf $z | f)| fold $(timeout 60 $G run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl PGB-TR --key-range unknown --zipf $z | f)"
done
for z in 0 1 1.5 2; do for fl in "" --float; do
  timeout 60 $G run groupby --rows 2^24 --groups 2^18 --zipf $z --aggs sum,min,max,count,avg $fl --impl HGB --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check HGB z$z $fl rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done; done
date -u +%FT%TZ
wait $TP
cat "$OUT/test_rc.txt"; grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"
date -u +%FT%TZ
