#!/usr/bin/env bash
# Session 28, call 6: the validation grid on call 5's build (Fibonacci
# hashing, M = 0xC8199275), and PGB-UR / PGB-TR at 2^10..2^14 groups old
# against new (call 5 saw PGB-UR at 2^12 over 2^26 rows 0.16 ms slower).
# carry: build/s28b.tgz
source bench/device_lib.sh
gj_unpack s28b
O=$PWD/$D/gjadvise_old
timeout 150 $G validate --profile h100-tuned --db "$OUT/validate.sqlite" > "$OUT/validate.txt" 2>/dev/null
head -32 "$OUT/validate.txt"
for b in "$O" "$G" "$O" "$G"; do
  echo "== $(basename $b)"
  $b bench groupby --rows 2^26 --aggs sum,max --impls PGB-UR,PGB-TR --repeat 7 --no-log --sweep groups=2^10:2^14:4 | cut -d, -f1,5-9
done
GJ_TRACE=1 $G run groupby --rows 2^26 --groups 2^12 --aggs sum,max --impl PGB-UR --repeat 2 --no-log 2>&1 | tail -12
GJ_TRACE=1 $O run groupby --rows 2^26 --groups 2^12 --aggs sum,max --impl PGB-UR --repeat 2 --no-log 2>&1 | tail -12
date -u +%FT%TZ
