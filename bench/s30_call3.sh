#!/usr/bin/env bash
# Session 30, call 3: a direct plan's 8-byte keys held in the tables as
# 4-byte table keys (groupby_kernels.cuh PgbTk: 16384 slots where 8192 fit
# before, a partition bit less), against old (2195980); the group-by and
# claimed-pass tests first.
# carry: build/s30c.tgz
source bench/device_lib.sh
gj_unpack s30c
O=$PWD/$D/gjadvise_old
B="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log"
gj_tests groupby join
date -u +%FT%TZ
echo "== 8-byte keys PGB-TR new / old, 2^12..2^26"
timeout 150 $G $B --impls PGB-TR --key-bytes 8 --sweep groups=2^12:2^26:2 | cut -d, -f1,4,6-9,13 | sed 's/^/new8,/'
timeout 150 $O $B --impls PGB-TR --key-bytes 8 --sweep groups=2^12:2^26:2 | cut -d, -f1,4,6-9,13 | sed 's/^/old8,/'
echo "== 8-byte PGB-UR new / old; 4-byte PGB-TR new"
timeout 120 $G $B --impls PGB-UR --key-bytes 8 --sweep groups=2^20:2^24:2 | cut -d, -f1,4,6-9,13 | sed 's/^/new8UR,/'
timeout 120 $O $B --impls PGB-UR --key-bytes 8 --sweep groups=2^20:2^24:2 | cut -d, -f1,4,6-9,13 | sed 's/^/old8UR,/'
timeout 120 $G $B --impls PGB-TR --sweep groups=2^12:2^26:2 | cut -d, -f1,4,6-9,13 | sed 's/^/new,/'
echo "== checks"
timeout 60 $G run groupby --rows 2^26 --groups 2^23 --key-bytes 8 --aggs sum,max --impl PGB-TR --check --repeat 1 --no-log | tail -1
timeout 60 $G run groupby --rows 2^26 --groups 2^24 --key-bytes 8 --aggs min,count --impl PGB-UR --check --repeat 1 --no-log | tail -1
timeout 60 $G run groupby --rows 2^26 --groups 2^22 --key-bytes 8 --zipf 1.2 --aggs max,max --impl PGB-TR --check --repeat 1 --no-log | tail -1
timeout 60 $G run groupby --rows 2^26 --groups 2^16 --key-bytes 8 --aggs sum,avg --impl PGB-TR --check --repeat 1 --no-log | tail -1
date -u +%FT%TZ
