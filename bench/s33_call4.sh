#!/usr/bin/env bash
# Session 33, call 4: call 3's ncu put gb-aggs' sum,max (1.09 ms aggregate
# against 0.45 for sum and 0.47 for max,max) in latency: 1 block of 1024
# an SM, 14 cycles an issue, DRAM 13%. add64_shared waits for its low
# word's return before the next row's atomics, four times a tile. Variants:
#   gjadvise_main  call 2's variant A (HEAD)
#   gjadvise_L     pgb_lean_tile's sums: the four low-word adds back to back
#                  (add64_shared4), the other accumulator's atomics first
#   gjadvise       L plus agg4's sums and counts the same way (every PGB
#                  and HGB kernel)
# Predicted: sum,max's aggregate 1.09 -> ~0.6 ms with L; sum,max,count
# (generic tile) only with the second.
# carry: build/s33d.tgz
source bench/device_lib.sh
gj_unpack s33d
R="run groupby --rows 2^26 --groups 4096 --key-range unknown --repeat 7 --no-log --json"
f() { grep -o '"measured_aggregate_ms":[0-9.]*' | cut -d: -f2; }
for round in 1 2; do
  for a in sum max,max sum,max sum,max,count avg,min sum,count; do for i in PGB-TR PGB-UR HGB; do
    line="r$round $a $i:"
    for b in main L ""; do line="$line $(timeout 60 $PWD/$D/gjadvise${b:+_$b} $R --aggs $a --impl $i | f)"; done
    echo "$line"
  done; done
done
echo "columns: main L LA (aggregate ms)"
S="bench groupby --rows 2^28 --sweep groups=2^4:2^24:4 --repeat 7 --no-log"
for b in main L ""; do
  timeout 100 $PWD/$D/gjadvise${b:+_$b} $S --aggs max,max --impls PGB-TR,HGB > "$OUT/mm_${b:-LA}.csv"
  timeout 100 $PWD/$D/gjadvise${b:+_$b} $S --aggs sum,count --impls PGB-TR,HGB > "$OUT/sc_${b:-LA}.csv"
done
python3 - "$OUT" <<'PY'
import csv, sys
out = sys.argv[1]
for tag in ("mm", "sc"):
    tab = {}
    for b in ("main", "L", "LA"):
        for r in csv.DictReader(open(f"{out}/{tag}_{b}.csv")):
            tab.setdefault((r["impl"], int(r["groups"])), []).append(r["median_ms"])
    for k in sorted(tab): print(tag, *k, *tab[k])
PY
date -u +%FT%TZ
gj_tests groupby
date -u +%FT%TZ
