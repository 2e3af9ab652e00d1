#!/usr/bin/env bash
# Session 34, call 1: the overlapped searches (pgb_slot4, k_pgb_many's OV)
# for hashed 8-byte keys, A/B on one binary (GJ_PGB_OVERLAP=0 = one search
# at a time, the landed choice for 8-byte keys). Predicted from 4-byte
# keys (session 33, call 11): 1-2.5% at 2^28 rows, 8-18% at load 1/2
# (gb-aggs' sum,max). Then test_groupby on this build (the host's kernel
# choice, untested on a GPU since session 33) and hashed --check runs.
# carry: build/s34a.tgz
source bench/device_lib.sh
gj_unpack s34a
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
R="run groupby --rows 2^26 --groups 4096 --key-range unknown --repeat 7 --no-log --json --impl PGB-TR"
for kb in 8 4; do for round in 1 2; do
  for a in max,max sum,max sum,max,count; do
    echo "k$kb r$round $a: one $(GJ_PGB_OVERLAP=0 timeout 60 $G $R --key-bytes $kb --aggs $a | f)| ov $(timeout 60 $G $R --key-bytes $kb --aggs $a | f)"
  done
done; done
S="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log --key-range unknown --impls PGB-TR"
for round in 1 2; do
  GJ_PGB_OVERLAP=0 timeout 100 $G $S --key-bytes 8 --sweep groups=2^12:2^24:4 > "$OUT/h8_r${round}_one.csv"
  timeout 100 $G $S --key-bytes 8 --sweep groups=2^12:2^24:4 > "$OUT/h8_r${round}_ov.csv"
done
python3 - "$OUT" <<'PY'
import csv, sys
out = sys.argv[1]
tab = {}
for rnd in (1, 2):
    for b in ("one", "ov"):
        for r in csv.DictReader(open(f"{out}/h8_r{rnd}_{b}.csv")):
            tab.setdefault(int(r["groups_param"]), {}).setdefault(b, []).append(r["median_ms"])
for g in sorted(tab): print("h8", g, *("/".join(tab[g].get(b, [])) for b in ("one", "ov")))
PY
date -u +%FT%TZ
gj_tests groupby
for kb in 8 4; do for g in 2^12 2^20; do
  timeout 60 $G run groupby --rows 2^24 --groups $g --key-bytes $kb --key-range unknown --aggs sum,max,count --impl PGB-TR --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check hashed k$kb g$g rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done
  timeout 60 $G run groupby --rows 2^24 --groups 2^17 --zipf 1.5 --key-bytes $kb --key-range unknown --aggs sum,min,avg --impl PGB-TR --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check hashed zipf k$kb rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done
date -u +%FT%TZ
