#!/usr/bin/env bash
# Session 33, call 10: pgb_slot4, a thread's four keys searched together
# (each round probes every key still unplaced), so a warp waits for its
# longest search of 128 keys rather than four longest searches of 32.
# Predicted: gb-aggs at load 1/2 (sum,max; max,max and sum at
# GJ_PGB_TS=8192) from ~1.05-1.10 ms aggregate toward 0.6; nothing at load
# 1/4 with dense keys (first probes hit). Binaries:
#   gjadvise_main  145fc2f's kernels
#   gjadvise_G     pgb_slot4 in k_pgb_many's general tile
#   gjadvise_GL    and in its lean tile (PGB-TR's packed pair)
# carry: build/s33f.tgz
source bench/device_lib.sh
gj_unpack s33f
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
R="run groupby --rows 2^26 --groups 4096 --key-range unknown --repeat 7 --no-log --json --impl PGB-TR"
for round in 1 2; do
  for c in "max,max" "max,max GJ_PGB_TS=8192" "sum GJ_PGB_TS=8192" "sum,max" "sum,max,count"; do
    set -- $c
    line="r$round $c:"
    for b in main G GL; do line="$line | $(env ${2:-X=1} timeout 60 $PWD/$D/gjadvise_$b $R --aggs $1 | f)"; done
    echo "$line"
  done
done
echo "columns: main | G | GL, each measured ms, aggregate ms"
S="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log"
for round in 1 2; do for b in main G GL; do
  timeout 100 $PWD/$D/gjadvise_$b $S --key-range unknown --sweep groups=2^10:2^24:4 --impls PGB-TR,PGB-UR > "$OUT/hashed_r${round}_$b.csv"
  timeout 100 $PWD/$D/gjadvise_$b $S --sweep groups=2^12:2^24:4 --impls PGB-TR,PGB-UR > "$OUT/direct4_r${round}_$b.csv"
  timeout 100 $PWD/$D/gjadvise_$b $S --key-bytes 8 --sweep groups=2^12:2^24:4 --impls PGB-TR > "$OUT/direct8_r${round}_$b.csv"
done; done
python3 - "$OUT" <<'PY'
import csv, sys
out = sys.argv[1]
for tag in ("hashed", "direct4", "direct8"):
    tab = {}
    for rnd in (1, 2):
        for b in ("main", "G", "GL"):
            for r in csv.DictReader(open(f"{out}/{tag}_r{rnd}_{b}.csv")):
                tab.setdefault((r["impl"], int(r["groups_param"])), {}).setdefault(b, []).append(r["median_ms"])
    for k in sorted(tab): print(tag, *k, *("/".join(tab[k].get(b, [])) for b in ("main", "G", "GL")))
PY
echo "columns: main G GL (median ms, round 1/2)"
date -u +%FT%TZ
