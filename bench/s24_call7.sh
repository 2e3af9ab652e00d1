#!/usr/bin/env bash
# Session 24, call 7 (calls 5, 6: an unmatched S row, the output set the peak): test_join with test_gpu_msd_in_place_peak (the MSD
# sort's halves seen in SMJ-TR's peak). Build: `bash bench/s18_pack.sh
# s24f`; carry ["build/s24f.tgz"].
set -u
source bench/device_lib.sh
gj_unpack s24f
gj_tests join
grep -A3 "msd_in_place_peak" "$OUT/test_join.txt"
date -u +%FT%TZ
