#!/usr/bin/env bash
# Session 30, call 2: the residues decoded with 32-bit arithmetic for
# 4-byte keys (kbase + residue * 2^bits), against old (2195980); the
# claimed pass's tests (the too-wide span mended) and the group-bys'.
# carry: build/s30b.tgz
source bench/device_lib.sh
gj_unpack s30b
O=$PWD/$D/gjadvise_old
B="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log --impls PGB-TR"
(gj_tests groupby join > $OUT/tests.txt 2>&1; date -u +%FT%TZ >> $OUT/tests.txt) &
sleep 1
wait
cat $OUT/tests.txt
for r in 1 2; do
  echo "== round $r: 4-byte new / old; 8-byte new / old"
  timeout 120 $G $B --sweep groups=2^20:2^24:2 | cut -d, -f1,4,6-9,13 | sed 's/^/new,/'
  timeout 120 $O $B --sweep groups=2^20:2^24:2 | cut -d, -f1,4,6-9,13 | sed 's/^/old,/'
  timeout 120 $G $B --key-bytes 8 --sweep groups=2^20:2^23:2 | cut -d, -f1,4,6-9,13 | sed 's/^/new8,/'
  timeout 120 $O $B --key-bytes 8 --sweep groups=2^20:2^23:2 | cut -d, -f1,4,6-9,13 | sed 's/^/old8,/'
done
timeout 60 $G run groupby --rows 2^26 --groups 2^22 --aggs sum,max --impl PGB-TR --check --repeat 1 --no-log | tail -1
timeout 60 $G run groupby --rows 2^26 --groups 2^23 --key-bytes 8 --aggs max,max --impl PGB-UR --check --repeat 1 --no-log | tail -1
date -u +%FT%TZ
