#!/usr/bin/env bash
# Session 29, call 6: the final build (pgb_many_plan takes the claims flag;
# no kernel changed): test_groupby, and PGB-TR at 2^22 and 2^23 groups with
# the span told and not.
# carry: build/s29d.tgz
source bench/device_lib.sh
gj_unpack s29d
B="bench groupby --rows 2^28 --aggs max,max --repeat 7 --no-log --impls PGB-TR --sweep groups=2^22:2^23:2"
timeout 60 $G $B | cut -d, -f1,4,6-9,13 | sed 's/^/direct,/'
timeout 60 $G $B --key-range unknown | cut -d, -f1,4,6-9,13 | sed 's/^/hashed,/'
gj_tests groupby
date -u +%FT%TZ
