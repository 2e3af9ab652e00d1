#!/usr/bin/env bash
# Session 31, call 4: the final build (03ae265: df8fc2b's kernels, the
# one-wave rule for no partition, the direct claim's 2-byte keys buffer):
# PGB-TR against call 1's build (gjadvise_a), peaks, test_groupby and the
# CLI-driven GPU tests, --check runs (a span told too small among them).
# carry: build/s31d.tgz
source bench/device_lib.sh
gj_unpack s31d
A=$PWD/$D/gjadvise_a
export GJ_BIN=$G
B="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log --impls PGB-TR"
for k in 4 8; do
  timeout 60 $G $B --key-bytes $k --sweep groups=2^12:2^24:4 | cut -d, -f1,4,6-9,13 | sed "s/^/final_$k,/"
  timeout 60 $A $B --key-bytes $k --sweep groups=2^12:2^24:4 | cut -d, -f1,4,6-9,13 | sed "s/^/a_$k,/"
done
for s in "4 2^22" "8 2^22" "8 2^24"; do
  set -- $s
  for i in PGB-TR PGB-UR; do
    timeout 60 $G run groupby --rows 2^28 --groups $2 --aggs max,max --key-bytes $1 --impl $i --repeat 1 --no-log --json |
      grep -o '"peak_bytes":[0-9]*' | sed "s|^|peak,$1,$2,$i,|"
  done
done
date -u +%FT%TZ
gj_tests groupby expect validate gen cli
C="--rows 2^26 --repeat 1 --no-log --check"
timeout 60 $G run groupby $C --groups 2^22 --key-range 2^20 --aggs max,max --impl PGB-TR | tail -1
timeout 60 $G run groupby $C --groups 2^22 --key-range 2^20 --key-bytes 8 --aggs sum,min --impl PGB-UR | tail -1
timeout 60 $G run groupby $C --groups 2^23 --key-bytes 8 --aggs sum,max --impl PGB-TR | tail -1
timeout 60 $G run groupby $C --groups 2^13 --key-bytes 8 --aggs sum,avg --impl PGB-TR | tail -1
timeout 60 $G run groupby $C --groups 2^12 --zipf 1.5 --aggs min,count --impl PGB-TR | tail -1
timeout 60 $G run groupby $C --groups 2^14 --aggs max,count --impl PGB-UR | tail -1
date -u +%FT%TZ
