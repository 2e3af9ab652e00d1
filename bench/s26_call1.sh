#!/usr/bin/env bash
# Session 26, call 1: the semi-join filter (GJ_JOIN_FILTER) on the device.
# Build: `bash bench/s18_pack.sh s26a`; carry ["build/s26a.tgz"].
#  1. test_join (test_gpu_key_filter; the filter forced in check_all), test_model;
#  2. GJ_TRACE of the filter's steps at W2 (PHJ-TR);
#  3. W2, every join, the filter (default: taken by the hints) against
#     GJ_JOIN_FILTER=off, two rounds, with peaks;
#  4. run join --check at 2^25 a side, match ratio 0.25 and 0.1, filtered.
set -u
source bench/device_lib.sh
gj_unpack s26a
gj_tests join model
date -u +%FT%TZ
GJ_TRACE=1 $G run join --match-ratio 0.25 --impl PHJ-TR --repeat 3 --no-log > "$OUT/trace_w2.txt" 2>&1
grep -E "trace filter" "$OUT/trace_w2.txt" | tail -7
for round in 1 2; do
  for f in off auto; do
    (cd $D && GJ_JOIN_FILTER=$f ./join_bench 7 W2) > "$OUT/w2_${f}_$round.txt" 2>&1
    echo "round $round filter=$f"; grep -E "^W2" "$OUT/w2_${f}_$round.txt"
  done
done
date -u +%FT%TZ
for mr in 0.25 0.1; do
  for i in PHJ-TR SMJ-UR NPHJ; do
    timeout 120 $G run join --r-rows 2^25 --s-rows 2^25 --match-ratio $mr --impl $i --check --repeat 1 --no-log 2>&1 | grep -iE "check|error|total" | head -3
  done
done
date -u +%FT%TZ
