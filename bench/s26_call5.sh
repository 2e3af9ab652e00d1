#!/usr/bin/env bash
# Session 26, call 5: gj_timing says whether the semi-join filter cut the
# sides (and to what); `run join` prints it.
# Build: make all tests; gjadvise, test_join, libcmocka.so.0 packed into
# build/s26e.tgz; carry ["build/s26e.tgz"].
#  1. test_join's test_gpu_key_filter (t.filtered, the cut rows) and
#     test_gpu_structured_keys (the filter forced under PHJ's hashed keys);
#  2. `run join` at W2 with the filter, text and JSON.
set -u
source bench/device_lib.sh
gj_unpack s26e
for t in 'test_gpu_key_filter' 'test_gpu_structured_keys' 'test_gpu_every_row_matches'; do
  (cd $D && GJ_TEST_FILTER=$t LD_LIBRARY_PATH=. timeout 150 ./test_join > "$OUT/$t.txt" 2>&1; echo "$t rc=$?")
  grep -E "^\[  (PASSED|FAILED)|ERROR|wrong|vs reference" "$OUT/$t.txt" | head -5
done
date -u +%FT%TZ
$G run join --match-ratio 0.25 --impl PHJ-TR --repeat 7 --no-log 2>&1 | tee "$OUT/run_w2.txt" | tail -6
$G run join --match-ratio 0.25 --impl NPHJ --repeat 3 --no-log --json 2>&1 | tee "$OUT/run_w2.json" | grep -o '"filter":[^]]*}' | head -2
date -u +%FT%TZ
