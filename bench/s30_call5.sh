#!/usr/bin/env bash
# Session 30, call 5: the review's build (one base key read for residues
# and table keys, pgb_base; no other change): test_groupby, and PGB-TR
# against call 3's build (gjadvise_c3) at 4- and 8-byte keys.
# carry: build/s30e.tgz
source bench/device_lib.sh
gj_unpack s30e
O=$PWD/$D/gjadvise_c3
B="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log --impls PGB-TR"
timeout 60 $G $B --sweep groups=2^20:2^24:4 | cut -d, -f1,4,6-9,13 | sed 's/^/new,/'
timeout 60 $O $B --sweep groups=2^20:2^24:4 | cut -d, -f1,4,6-9,13 | sed 's/^/c3,/'
timeout 60 $G $B --key-bytes 8 --sweep groups=2^20:2^24:4 | cut -d, -f1,4,6-9,13 | sed 's/^/new8,/'
timeout 60 $O $B --key-bytes 8 --sweep groups=2^20:2^24:4 | cut -d, -f1,4,6-9,13 | sed 's/^/c38,/'
gj_tests groupby
date -u +%FT%TZ
