#!/usr/bin/env bash
# Session 27, call 5: the review's build (gj_workload_pin_filter in
# gj_join_auto, run join and validate; no kernel changed since call 4):
# test_join's filter tests and run join under auto on W2 and the band.
# Build: gjadvise, test_join, libcmocka.so.0 in build/s27e.tgz; carry it.
set -u
source bench/device_lib.sh
gj_unpack s27e
for t in test_gpu_empty_and_one test_gpu_key_filter test_gpu_many_to_many; do
  (cd $D && GJ_TEST_FILTER=$t LD_LIBRARY_PATH=. timeout 100 ./test_join > "$OUT/$t.txt" 2>&1; echo "$t rc=$?")
  grep -E "^\[  (PASSED|FAILED)|FAIL" "$OUT/$t.txt" | head -3
done
for a in "--match-ratio 0.25" "--r-rows 2^20 --s-rows 2^26 --match-ratio 0.5"; do
  timeout 60 $G run join $a --repeat 3 --no-log --profile h100-tuned 2>&1 | grep -E "advisor|semi-join|^total" | head -4
done
date -u +%FT%TZ
