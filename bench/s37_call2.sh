#!/usr/bin/env bash
# Session 37, call 2 (diagnostic, main's kernels: s37a). k_pgb_many's
# general tile (every aggregate set but PGB-TR's lean pair of 4-byte
# max/min/sum, and all of PGB-UR) does not fold a skewed warp's rows of
# one slot (operators/GROUPBY.md, session 34: "what is left"). How much
# does skew cost it? 2^26 rows, 2^20 hashed groups, Zipf 0 / 1 / 1.5,
# total and aggregate ms: PGB-TR max,max (lean, folds: the reference),
# PGB-TR sum,count,avg and max,sum,avg,count (general tile), PGB-UR
# max,max; HGB and SGB-TR beside them, and what auto picks.
# carry: build/s37a.tgz
source bench/device_lib.sh
gj_unpack s37a
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for a in max,max sum,count,avg max,sum,avg,count; do
  for i in PGB-TR PGB-UR HGB SGB-TR; do
    [ "$a" != max,max ] && [ "$i" = PGB-UR ] && continue
    line="$i $a:"
    for z in 0 1 1.5; do
      line="$line | z$z $(timeout 30 $G run groupby --rows 2^26 --groups 2^20 --key-range unknown --zipf $z --aggs $a --impl $i --repeat 7 --no-log --json | f)"
    done
    echo "$line"
  done
  for z in 0 1.5; do
    echo "auto $a z$z: $(timeout 30 $G run groupby --rows 2^26 --groups 2^20 --key-range unknown --zipf $z --aggs $a --impl auto --repeat 3 --no-log --json | grep -o '"impl":"[A-Z-]*"' | head -1)"
  done
done
date -u +%FT%TZ
