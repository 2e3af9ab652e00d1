#!/usr/bin/env bash
# Device script: two builds of SGB's in-order reduction (build/abbin/
# gjadvise_old against bin/gjadvise), alternating, two rounds, median of 7,
# `gjadvise bench groupby --sorted-keys`, SGB-UR: 2^26 rows, sum (2^10,
# 2^22, 2^26 groups), max,max and sum,max,count,avg at 2^12 and 2^22, 8-byte
# keys, TPC-H Q18's shape. ORD="" and IMPLS=SGB-UR,SGB-TR,SGB-DE-TR: the
# same on unordered rows through the sorts. BINS: the binaries to alternate (default the
# two above); build/abbin.tar.gz, when carried, is unpacked first (three
# binaries exceed the carry). Output: $OUT/ab.txt.
# carry ["bin", "build/abbin"] or ["build/abbin.tar.gz"].
set -u
OUT=${OUT:-/tmp/out}
export GJADVISE_DB=/tmp/gj_sgbab.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
[ -f build/abbin.tar.gz ] && tar -C build -xzf build/abbin.tar.gz
BINS=${BINS:-build/abbin/gjadvise_old bin/gjadvise}
ORD=${ORD---sorted-keys}
IMPLS=${IMPLS:-SGB-UR}
run() { # binary, label, then bench groupby arguments
  local b=$1 label=$2; shift 2
  $b bench groupby $ORD --impls $IMPLS --repeat 7 --no-log "$@" 2>/dev/null | grep -v '^impl' | cut -d, -f1,2,3,5,6-9 \
    | sed "s|^|$label $(basename $b) |" | tee -a "$OUT/ab.txt"
}
for round in 1 2; do
  for b in $BINS; do
    run $b "$round sum" --rows 2^26 --aggs sum --sweep groups=2^10:2^26:4096
    run $b "$round maxmax" --rows 2^26 --aggs max,max --sweep groups=2^12:2^22:1024
    run $b "$round smca" --rows 2^26 --aggs sum,max,count,avg --sweep groups=2^12:2^22:1024
    run $b "$round k8" --rows 2^26 --aggs sum --key-bytes 8 --sweep groups=2^12:2^22:1024
    run $b "$round q18" --rows 60000000 --aggs sum --payload-bytes 8 --sweep groups=15000000:15000000
  done
done
date -u +%FT%TZ
