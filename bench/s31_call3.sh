#!/usr/bin/env bash
# Session 31, call 3: call 2's mends cost the aggregate ~0.1 ms; this
# build decodes residues and table keys with a multiply-add again (one
# helper, pgb_key, for both), which gives the 4-byte kernels their old
# registers (62). PGB-TR against call 1's build (gjadvise_a), two rounds,
# 4- and 8-byte keys, 2^16..2^24 groups.
# carry: build/s31c.tgz
source bench/device_lib.sh
gj_unpack s31c
A=$PWD/$D/gjadvise_a
B="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log --impls PGB-TR"
for round in 1 2; do
  for k in 4 8; do
    timeout 60 $G $B --key-bytes $k --sweep groups=2^16:2^24:2 | cut -d, -f1,4,6-9,13 | sed "s/^/new_$k,/"
    timeout 60 $A $B --key-bytes $k --sweep groups=2^16:2^24:2 | cut -d, -f1,4,6-9,13 | sed "s/^/a_$k,/"
  done
done
date -u +%FT%TZ
