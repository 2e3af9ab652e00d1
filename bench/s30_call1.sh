#!/usr/bin/env bash
# Session 30, call 1: the direct plan's claimed pass writes 2-byte key
# residues (operators/join_partition.h GJ_PART_RES16) and k_pgb_many reads
# them: new against old (2195980), then the tests of the claimed pass and
# of the group-bys.
# carry: build/s30a.tgz (bin/gjadvise and tests of the working tree,
# gjadvise_old = 2195980)
source bench/device_lib.sh
gj_unpack s30a
O=$PWD/$D/gjadvise_old
B="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log"
for r in 1 2; do
  echo "== round $r: PGB-TR 4-byte keys, new / old"
  timeout 120 $G $B --impls PGB-TR --sweep groups=2^20:2^26:2 | cut -d, -f1,4,6-9,13 | sed 's/^/new,/'
  timeout 120 $O $B --impls PGB-TR --sweep groups=2^20:2^26:2 | cut -d, -f1,4,6-9,13 | sed 's/^/old,/'
done
echo "== 8-byte keys PGB-TR; PGB-UR 4-byte"
timeout 120 $G $B --impls PGB-TR --key-bytes 8 --sweep groups=2^20:2^26:2 | cut -d, -f1,4,6-9,13 | sed 's/^/new8,/'
timeout 120 $O $B --impls PGB-TR --key-bytes 8 --sweep groups=2^20:2^26:2 | cut -d, -f1,4,6-9,13 | sed 's/^/old8,/'
timeout 120 $G $B --impls PGB-UR --sweep groups=2^16:2^24:4 | cut -d, -f1,4,6-9,13 | sed 's/^/newUR,/'
timeout 120 $O $B --impls PGB-UR --sweep groups=2^16:2^24:4 | cut -d, -f1,4,6-9,13 | sed 's/^/oldUR,/'
for g in 2^22 2^24; do
  echo "== GJ_TRACE $g new / old"
  GJ_TRACE=1 timeout 60 $G run groupby --rows 2^28 --groups $g --aggs max,max --impl PGB-TR --repeat 2 --no-log 2>&1 | tail -14
  GJ_TRACE=1 timeout 60 $O run groupby --rows 2^28 --groups $g --aggs max,max --impl PGB-TR --repeat 2 --no-log 2>&1 | tail -14
done
echo "== checks"
timeout 60 $G run groupby --rows 2^26 --groups 2^22 --aggs sum,max --impl PGB-TR --check --repeat 1 --no-log | tail -2
timeout 60 $G run groupby --rows 2^26 --groups 2^21 --aggs min,count --impl PGB-UR --check --repeat 1 --no-log | tail -2
timeout 60 $G run groupby --rows 2^26 --groups 2^20 --zipf 1.2 --aggs sum,max --impl PGB-UR --check --repeat 1 --no-log | tail -2
timeout 60 $G run groupby --rows 2^26 --groups 2^23 --key-bytes 8 --aggs max,max --impl PGB-TR --check --repeat 1 --no-log | tail -2
timeout 60 $G run groupby --rows 2^26 --groups 2^22 --key-range 2^20 --aggs max,max --impl PGB-TR --check --repeat 1 --no-log | tail -2
date -u +%FT%TZ
gj_tests groupby join
date -u +%FT%TZ
