#!/usr/bin/env bash
# Session 35, call 4: the final build (HGB's pair fold, k_pgb_merge at 1024
# threads, its prefetch removed): test_groupby, the skew timings of calls
# 1 and 3 once more (GJ_PGB_MERGE_THREADS=512 and GJ_GB_FOLD=0 as the
# before), and the validation grid, whose HGB points under skew now
# measure the pair fold against the model's hottest line.
# carry: build/s35d.tgz
source bench/device_lib.sh
gj_unpack s35d
(cd "$D" && LD_LIBRARY_PATH=. timeout 300 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby rc=$?" > "$OUT/test_rc.txt") &
TP=$!
wait $TP
cat "$OUT/test_rc.txt"; grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"; grep -E "FAIL|wrong" "$OUT/test_groupby.txt" | head
date -u +%FT%TZ
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for kr in unknown 2^20; do for z in 0 1 1.5 2; do
  R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl PGB-TR --key-range $kr --zipf $z"
  echo "PGB-TR kr=$kr z$z (total agg): 512 $(GJ_PGB_MERGE_THREADS=512 timeout 60 $G $R | f)| 1024 $(timeout 60 $G $R | f)"
done; done
for z in 0 1.5; do
  R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl HGB --aggs max,max --zipf $z"
  echo "HGB max,max z$z (total agg): off $(GJ_GB_FOLD=0 timeout 60 $G $R | f)| pairs $(timeout 60 $G $R | f)"
done
date -u +%FT%TZ
timeout 300 $G validate --profile h200-tuned --db "$OUT/validate.sqlite" > "$OUT/validate.txt" 2>"$OUT/validate.err"
echo "validate rc=$?"
head -24 "$OUT/validate.txt"
tar czf "$OUT/validate.tgz" -C "$OUT" validate.sqlite && rm "$OUT/validate.sqlite"
date -u +%FT%TZ
