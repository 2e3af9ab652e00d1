#!/usr/bin/env bash
# Session 31, call 2 (call 1's sweeps asked a step of 1, which bench
# refuses): PGB-TR with no partition in one wave of pieces against four
# (GJ_PGB_WHOLE=0), same binary, two rounds; then the review's mends
# (pgb_item gives the partition, one decode for residues and table keys,
# a direct claim's keys buffer at 2 bytes a row) against call 1's build
# (gjadvise_a: same host rules, the kernels of df8fc2b): PGB-TR times,
# two rounds, and peaks; test_groupby; --check runs, a span told too small
# (the claim declines, the exact pass gets a whole-key buffer) among them.
# carry: build/s31b.tgz
source bench/device_lib.sh
gj_unpack s31b
A=$PWD/$D/gjadvise_a
B="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log --impls PGB-TR"
for round in 1 2; do
  for k in 4 8; do
    timeout 60 $G $B --key-bytes $k --sweep groups=2^8:2^16:2 | cut -d, -f1,4,6-9,13 | sed "s/^/wave1_$k,/"
    GJ_PGB_WHOLE=0 timeout 60 $G $B --key-bytes $k --sweep groups=2^8:2^16:2 | cut -d, -f1,4,6-9,13 | sed "s/^/wave4_$k,/"
  done
done
for round in 1 2; do
  for k in 4 8; do
    timeout 60 $G $B --key-bytes $k --sweep groups=2^20:2^24:2 | cut -d, -f1,4,6-9,13 | sed "s/^/mend_$k,/"
    timeout 60 $A $B --key-bytes $k --sweep groups=2^20:2^24:2 | cut -d, -f1,4,6-9,13 | sed "s/^/a_$k,/"
  done
done
date -u +%FT%TZ
for bin in $G $A; do
  for s in "4 2^22" "8 2^22" "8 2^24"; do
    set -- $s
    for i in PGB-TR PGB-UR; do
      timeout 60 $bin run groupby --rows 2^28 --groups $2 --aggs max,max --key-bytes $1 --impl $i --repeat 1 --no-log --json |
        grep -o '"peak_bytes":[0-9]*' | sed "s|^|peak,$(basename $bin),$1,$2,$i,|"
    done
  done
done
gj_tests groupby
C="--rows 2^26 --repeat 1 --no-log --check"
timeout 60 $G run groupby $C --groups 2^22 --key-range 2^20 --aggs max,max --impl PGB-TR | tail -1
timeout 60 $G run groupby $C --groups 2^22 --key-range 2^20 --key-bytes 8 --aggs sum,min --impl PGB-UR | tail -1
timeout 60 $G run groupby $C --groups 2^23 --key-bytes 8 --aggs sum,max --impl PGB-TR | tail -1
timeout 60 $G run groupby $C --groups 2^21 --zipf 1.2 --aggs min,count --impl PGB-UR | tail -1
timeout 60 $G run groupby $C --groups 2^13 --key-bytes 8 --aggs sum,avg --impl PGB-TR | tail -1
date -u +%FT%TZ
