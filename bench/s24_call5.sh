#!/usr/bin/env bash
# Session 24, call 5: test_join with test_gpu_msd_in_place_peak (the MSD
# sort's halves seen in SMJ-TR's peak). Build: `bash bench/s18_pack.sh
# s24d`; carry ["build/s24d.tgz"].
set -u
source bench/device_lib.sh
gj_unpack s24d
gj_tests join
grep -A3 "msd_in_place_peak" "$OUT/test_join.txt"
date -u +%FT%TZ
