#!/usr/bin/env bash
# Session 29, call 2: PGB's direct plan (keys of a known span partitioned
# on their own bits, each its own slot) against the hashed plan, and the
# group-by tests with the direct plan's cases.
# carry: build/s29b.tgz (bin/gjadvise and tests of the working tree,
# gjadvise_old = 1b67418)
source bench/device_lib.sh
gj_unpack s29b
O=$PWD/$D/gjadvise_old
B="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log"
for r in 1 2; do
  echo "== round $r: PGB-TR 4-byte keys, direct (auto) / hashed (unknown) / old"
  timeout 120 $G $B --impls PGB-TR --sweep groups=2^20:2^26:2 | cut -d, -f1,4,6-9,13 | sed 's/^/direct,/'
  timeout 120 $G $B --impls PGB-TR --sweep groups=2^20:2^26:2 --key-range unknown | cut -d, -f1,4,6-9,13 | sed 's/^/hashed,/'
  timeout 120 $O $B --impls PGB-TR --sweep groups=2^20:2^26:2 | cut -d, -f1,4,6-9,13 | sed 's/^/old,/'
done
echo "== 8-byte keys, PGB-TR; PGB-UR 4-byte; smaller g"
timeout 120 $G $B --impls PGB-TR --key-bytes 8 --sweep groups=2^20:2^26:2 | cut -d, -f1,4,6-9,13 | sed 's/^/direct8,/'
timeout 120 $G $B --impls PGB-TR --key-bytes 8 --sweep groups=2^20:2^26:2 --key-range unknown | cut -d, -f1,4,6-9,13 | sed 's/^/hashed8,/'
timeout 120 $G $B --impls PGB-TR,PGB-UR --sweep groups=2^12:2^18:4 | cut -d, -f1,4,6-9,13 | sed 's/^/direct,/'
timeout 120 $G $B --impls PGB-TR,PGB-UR --sweep groups=2^12:2^18:4 --key-range unknown | cut -d, -f1,4,6-9,13 | sed 's/^/hashed,/'
echo "== 2^22 and 2^23 direct, forced bits"
for b in 9 10; do
  GJ_PGB_BITS=$b timeout 60 $G $B --impls PGB-TR --sweep groups=2^22:2^23:2 | cut -d, -f1,4,6-9,13 | sed "s/^/direct-bits$b,/"
done
GJ_TRACE=1 timeout 60 $G run groupby --rows 2^28 --groups 2^22 --aggs max,max --impl PGB-TR --repeat 2 --no-log 2>&1 | tail -14
timeout 60 $G run groupby --rows 2^26 --groups 2^22 --aggs sum,max --impl PGB-TR --check --repeat 1 --no-log | tail -2
timeout 60 $G run groupby --rows 2^26 --groups 2^20 --zipf 1.2 --aggs sum,max --impl PGB-UR --check --repeat 1 --no-log | tail -2
date -u +%FT%TZ
gj_tests groupby
date -u +%FT%TZ
