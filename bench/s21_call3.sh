#!/usr/bin/env bash
# Session 21, call 3 (kind nvidia-h100-x1, carry ["build/s21c.tgz"], the
# shipped build): where k_pgb_many's instructions go. Call 2's ncu: at 2^20
# groups (tables at load 1/4) it issues 879 M warp instructions where
# pgbtable_probe's k_agg, on input of the same shape, issues 497 M (1.45
# against 1.11 ms). Each kernel's SASS with its executed instructions a
# line (ncu source page), to find the 180 extra a 4-row tile.
set -u
tar xzf build/s21c.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
R="run groupby --rows 2^28 --aggs max,max --impl PGB-TR --repeat 1 --no-log --groups 2^20"
timeout 150 ncu --clock-control none --section SourceCounters --kernel-name regex:k_pgb_many --launch-count 1 -o /tmp/many $G $R > "$OUT/many.log" 2>&1
echo "many rc=$?"
timeout 150 ncu --clock-control none --section SourceCounters --kernel-name regex:k_agg --launch-count 1 -o /tmp/probe $D/pgbtable_probe 4096 > "$OUT/probe.log" 2>&1
echo "probe rc=$?"
for k in many probe; do
    ncu -i /tmp/$k.ncu-rep --page source --print-source sass --csv > "$OUT/src_$k.csv" 2> "$OUT/src_$k.err"
    echo "$k source rc=$? $(wc -l < "$OUT/src_$k.csv") lines"; head -c 600 "$OUT/src_$k.csv"; echo
    ncu -i /tmp/$k.ncu-rep --page details > "$OUT/details_$k.txt" 2>&1
done
gzip -9 "$OUT"/src_*.csv
date -u +%FT%TZ
