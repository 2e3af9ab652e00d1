#!/usr/bin/env bash
# Session 26, call 6: the filter on one stream again (the second stream had
# not overlapped), key_filter simplified.
# Build: make all tests bench-tools; gjadvise, test_join, libcmocka.so.0,
# join_bench packed into build/s26f.tgz; carry ["build/s26f.tgz"].
#  1. test_join's filter tests and three check_all shapes that force it
#     (hashed keys, 8-byte keys with high bits, many-to-many);
#  2. GJ_TRACE at W2 (PHJ-TR); W2 PHJ-TR and NPHJ.
set -u
source bench/device_lib.sh
gj_unpack s26f
for t in test_gpu_key_filter test_gpu_structured_keys test_gpu_wide_keys_and_payloads test_gpu_many_to_many; do
  (cd $D && GJ_TEST_FILTER=$t LD_LIBRARY_PATH=. timeout 90 ./test_join > "$OUT/$t.txt" 2>&1; echo "$t rc=$?")
  grep -E "^\[  (PASSED|FAILED)|ERROR|vs reference" "$OUT/$t.txt" | head -3
done
date -u +%FT%TZ
GJ_TRACE=1 $G run join --match-ratio 0.25 --impl PHJ-TR --repeat 3 --no-log > "$OUT/trace_w2.txt" 2>&1
grep -E "trace filter" "$OUT/trace_w2.txt" | tail -6
(cd $D && JOIN_BENCH_IMPLS=PHJ-TR,NPHJ timeout 60 ./join_bench 7 W2) > "$OUT/w2.txt" 2>&1; grep -E "^W2" "$OUT/w2.txt"
date -u +%FT%TZ
