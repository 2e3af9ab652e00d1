#!/usr/bin/env bash
# Session 27, call 3: the filter's bitmap sets combine a warp's bits of one
# word into one atomic (filt_or_bit), against GJ_JOIN_FILTER_COMBINE=off
# (an atomic a key, the same binary).
# Build: gjadvise, test_join, libcmocka.so.0 in build/s27c.tgz; carry it.
#  1. GJ_TRACE of the filter's steps, PHJ-TR, 2^25 a side, match ratio 0.3:
#     keys at random, S in key order, both sides in key order, S in runs
#     of 4; combine off and on;
#  2. run join --repeat 7, the same shapes and W2, off and on alternating,
#     two rounds;
#  3. test_join's tests of the filter's shapes (the filter forced on in check_all).
# (The first build hung: a shuffle behind a short-circuit &&, lane 0 never
# reached it; mended, this is the second.)
set -u
source bench/device_lib.sh
gj_unpack s27c
# (the first try of this call hung in test_join's first GPU test: that test alone first, briefly)
(cd $D && GJ_TEST_FILTER=test_gpu_empty_and_one LD_LIBRARY_PATH=. timeout 60 ./test_join > "$OUT/test_one.txt" 2>&1); rc=$?
echo "test_gpu_empty_and_one rc=$rc"; tail -3 "$OUT/test_one.txt"
[ $rc = 124 ] && exit 1
shapes=("" "--s-sorted" "--r-sorted --s-sorted" "--s-run 4")
for sh in "${shapes[@]}"; do
  for c in off on; do
    GJ_TRACE=1 GJ_JOIN_FILTER_COMBINE=$c timeout 60 $G run join --r-rows 2^25 --s-rows 2^25 --match-ratio 0.3 --impl PHJ-TR --filter on $sh \
      --repeat 3 --no-log --profile h100-tuned > "$OUT/trace.txt" 2>&1
    echo "== [$sh] combine=$c: $(grep -E "trace filter" "$OUT/trace.txt" | tail -6 | awk '{printf "%s ", $NF}')"
  done
done | tee "$OUT/traces.txt"
date -u +%FT%TZ
rj() { # combine args... -> "ms"
  local c=$1; shift
  GJ_JOIN_FILTER_COMBINE=$c timeout 120 $G run join --impl PHJ-TR --filter on --repeat 7 --no-log --json --profile h100-tuned "$@" 2>&1 |
    python3 -c 'import sys,json; d=json.loads(sys.stdin.read()); print(d.get("measured_ms"), d.get("predicted_ms"))' 2>/dev/null || echo "error"
}
for round in 1 2; do
  for sh in "${shapes[@]}"; do
    for c in off on; do echo "round $round [$sh] combine=$c: $(rj $c --r-rows 2^25 --s-rows 2^25 --match-ratio 0.3 $sh)"; done
  done
  for c in off on; do echo "round $round [W2] combine=$c: $(rj $c --match-ratio 0.25)"; done
done | tee "$OUT/ab.txt"
date -u +%FT%TZ
for t in test_gpu_odd_sizes test_gpu_structured_keys test_gpu_sides_in_order test_gpu_many_to_many test_gpu_key_filter; do
  (cd $D && GJ_TEST_FILTER=$t LD_LIBRARY_PATH=. timeout 120 ./test_join > "$OUT/$t.txt" 2>&1; echo "$t rc=$?")
  grep -E "^\[  (PASSED|FAILED)|FAIL" "$OUT/$t.txt" | head -3
done
date -u +%FT%TZ
