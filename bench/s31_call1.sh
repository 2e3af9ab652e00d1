#!/usr/bin/env bash
# Session 31, call 1: PGB with no partition (bits 0) in one wave of pieces
# (operators/shapes.h gj_pgb_piece_rows) against four waves
# (GJ_PGB_WHOLE=0, the old rule; at one partition it changes nothing
# else), same binary, two rounds; test_groupby. Where the GPU is an H100
# (issue 5's targets), PGB-TR's table at 4- and 8-byte keys as well.
# carry: build/s31a.tgz
source bench/device_lib.sh
gj_unpack s31a
B="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log"
for round in 1 2; do
  for k in 4 8; do
    timeout 60 $G $B --key-bytes $k --impls PGB-TR --sweep groups=2^8:2^15:1 | cut -d, -f1,4,6-9,13 | sed "s/^/new$k,/"
    GJ_PGB_WHOLE=0 timeout 60 $G $B --key-bytes $k --impls PGB-TR --sweep groups=2^8:2^15:1 | cut -d, -f1,4,6-9,13 | sed "s/^/old$k,/"
  done
done
timeout 60 $G $B --impls PGB-UR,HGB --sweep groups=2^8:2^14:2 | cut -d, -f1,4,6-9,13 | sed "s/^/newUR,/"
GJ_PGB_WHOLE=0 timeout 60 $G $B --impls PGB-UR --sweep groups=2^8:2^14:2 | cut -d, -f1,4,6-9,13 | sed "s/^/oldUR,/"
date -u +%FT%TZ
gj_tests groupby
timeout 60 $G run groupby --rows 2^26 --groups 2^13 --key-bytes 8 --aggs sum,max --impl PGB-TR --check --repeat 1 --no-log | tail -1
timeout 60 $G run groupby --rows 2^26 --groups 2^10 --aggs min,count --impl PGB-UR --check --repeat 1 --no-log | tail -1
timeout 60 $G run groupby --rows 2^26 --groups 2^14 --zipf 1.5 --aggs sum,avg --impl PGB-TR --check --repeat 1 --no-log | tail -1
date -u +%FT%TZ
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100; then
  for k in 4 8; do
    timeout 120 $G $B --key-bytes $k --impls PGB-TR --sweep groups=2^12:2^26:2 | tee "$OUT/pgbtr_k$k.csv" | cut -d, -f1,4,6-9,13 | sed "s/^/h100_$k,/"
  done
  date -u +%FT%TZ
fi
