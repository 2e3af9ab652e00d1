#!/usr/bin/env bash
# Session 34, call 2: skewed warps' rows combined before the shared atomics
# (groupby_kernels.cuh agg4_fold; GJ_PGB_FOLD=0 = before). Predicted:
# PGB-TR's aggregate at 2^26 rows, 2^20 groups, max,max 0.89 -> ~0.5 ms at
# Zipf 1 and 1.11 -> ~0.45 at Zipf 1.5 (0.37 uniform), PGB-UR's alike; the
# uniform sweeps within noise of before (a shuffle and a vote a tile).
# Then test_groupby (two new folded cases) and --check runs under skew.
# carry: build/s34b.tgz
source bench/device_lib.sh
gj_unpack s34b
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json"
for round in 1; do
  for i in PGB-TR PGB-UR; do for a in max,max sum,max,count; do for z in 0 1 1.5; do
    echo "r$round $i $a z$z: before $(GJ_PGB_FOLD=0 timeout 60 $G $R --impl $i --aggs $a --zipf $z | f)| fold $(timeout 60 $G $R --impl $i --aggs $a --zipf $z | f)"
  done; done; done
done
for z in 1 1.5 2; do
  echo "g4096 z$z PGB-TR max,max: before $(GJ_PGB_FOLD=0 timeout 60 $G run groupby --rows 2^26 --groups 4096 --repeat 7 --no-log --json --impl PGB-TR --zipf $z | f)| fold $(timeout 60 $G run groupby --rows 2^26 --groups 4096 --repeat 7 --no-log --json --impl PGB-TR --zipf $z | f)"
done
S="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log --impls PGB-TR --sweep groups=2^12:2^24:4"
for round in 1 2; do for b in before fold; do
  e=X=1; [ $b = before ] && e=GJ_PGB_FOLD=0
  env $e timeout 100 $G $S > "$OUT/d4_r${round}_$b.csv"
  env $e timeout 100 $G $S --key-range unknown > "$OUT/h4_r${round}_$b.csv"
done; done
python3 - "$OUT" <<'PY'
import csv, sys
out = sys.argv[1]
for tag in ("d4", "h4"):
    tab = {}
    for rnd in (1, 2):
        for b in ("before", "fold"):
            for r in csv.DictReader(open(f"{out}/{tag}_r{rnd}_{b}.csv")):
                tab.setdefault(int(r["groups_param"]), {}).setdefault(b, []).append(r["median_ms"])
    for g in sorted(tab): print(tag, g, *("/".join(tab[g].get(b, [])) for b in ("before", "fold")))
PY
date -u +%FT%TZ
gj_tests groupby > "$OUT/tests_line.txt" 2>&1 &
TP=$!
for i in PGB-TR PGB-UR; do for z in 1 1.5 2; do for a in sum,min,max,count max,max; do
  timeout 60 $G run groupby --rows 2^24 --groups 2^18 --zipf $z --key-range unknown --aggs $a --impl $i --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check $i z$z $a rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done; done; done
date -u +%FT%TZ
wait $TP; cat "$OUT/tests_line.txt"
date -u +%FT%TZ
