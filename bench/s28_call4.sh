#!/usr/bin/env bash
# Session 28, call 4: Fibonacci hashing for the partitions and tables
# (operators/hash.cuh hash_key): test_groupby and test_join, then PGB-TR,
# PGB-UR and SGB-DE-TR old (gjadvise_old, cfa8f1d) against new, same GPU,
# two rounds. carry: build/s28a.tgz
source bench/device_lib.sh
gj_unpack s28a
gj_tests groupby join
O=$PWD/$D/gjadvise_old
for round in 1 2; do
  for b in "$O" "$G"; do
    echo "== round $round $(basename $b)"
    $b bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log --sweep groups=2^14:2^26:2 \
      | tee "$OUT/pgbtr_$(basename $b)_$round.csv" | cut -d, -f5-9
    $b bench groupby --rows 2^28 --aggs max,max --impls PGB-TR,PGB-UR --key-bytes 8 --repeat 7 --no-log \
      --sweep groups=2^20:2^22:2 | cut -d, -f1,2,5-9
    $b bench groupby --rows 2^26 --aggs sum,max --impls PGB-UR,SGB-DE-TR,HGB --repeat 7 --no-log \
      --sweep groups=2^12:2^20:256 | cut -d, -f1,5-9
  done
done
date -u +%FT%TZ
