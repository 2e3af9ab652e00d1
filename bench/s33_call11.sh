#!/usr/bin/env bash
# Session 33, call 11: call 10's pgb_slot4 took gb-aggs' load-1/2 tables
# 1.28-1.58 -> 1.13-1.25 ms but cost direct tables 4-15% (2^12..2^14, and
# 8-byte 2^22). G3 overlaps only hashed searches and not in the 3-block
# builds (their registers as main's). Predicted: call 10's gains, and the
# direct sweeps as main's. Then test_groupby on G3 and --check runs.
# carry: build/s33g.tgz
source bench/device_lib.sh
gj_unpack s33g
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
(cd "$D" && LD_LIBRARY_PATH=. timeout 320 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby rc=$?" > "$OUT/test_rc.txt") &
TP=$!
R="run groupby --rows 2^26 --groups 4096 --key-range unknown --repeat 7 --no-log --json --impl PGB-TR"
echo "(test_groupby runs beside these timings: compare the columns with each other only)"
for round in 1 2; do
  for c in "max,max" "max,max GJ_PGB_TS=8192" "sum,max" "sum,max,count"; do
    set -- $c
    line="r$round $c:"
    for b in main G3; do line="$line | $(env ${2:-X=1} timeout 60 $PWD/$D/gjadvise_$b $R --aggs $1 | f)"; done
    echo "$line"
  done
done
wait $TP
cat "$OUT/test_rc.txt"; grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"
S="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log"
for round in 1 2; do for b in main G3; do
  timeout 100 $PWD/$D/gjadvise_$b $S --sweep groups=2^12:2^24:4 --impls PGB-TR > "$OUT/d4_r${round}_$b.csv"
  timeout 100 $PWD/$D/gjadvise_$b $S --key-bytes 8 --sweep groups=2^12:2^24:4 --impls PGB-TR > "$OUT/d8_r${round}_$b.csv"
  timeout 100 $PWD/$D/gjadvise_$b $S --key-range unknown --sweep groups=2^12:2^24:4 --impls PGB-TR > "$OUT/h4_r${round}_$b.csv"
done; done
python3 - "$OUT" <<'PY'
import csv, sys
out = sys.argv[1]
for tag in ("d4", "d8", "h4"):
    tab = {}
    for rnd in (1, 2):
        for b in ("main", "G3"):
            for r in csv.DictReader(open(f"{out}/{tag}_r{rnd}_{b}.csv")):
                tab.setdefault(int(r["groups_param"]), {}).setdefault(b, []).append(r["median_ms"])
    for g in sorted(tab): print(tag, g, *("/".join(tab[g].get(b, [])) for b in ("main", "G3")))
PY
for g in 2^12 2^20; do
  timeout 60 $PWD/$D/gjadvise_G3 run groupby --rows 2^24 --groups $g --key-range unknown --aggs sum,max,count --impl PGB-TR --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check hashed $g rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done
date -u +%FT%TZ
