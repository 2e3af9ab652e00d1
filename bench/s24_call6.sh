#!/usr/bin/env bash
# Session 24, call 6 (call 5 ran it with s24d, keys of 21 bits): test_join with test_gpu_msd_in_place_peak (the MSD
# sort's halves seen in SMJ-TR's peak). Build: `bash bench/s18_pack.sh
# s24e`; carry ["build/s24e.tgz"].
set -u
source bench/device_lib.sh
gj_unpack s24e
gj_tests join
grep -A3 "msd_in_place_peak" "$OUT/test_join.txt"
date -u +%FT%TZ
