#!/usr/bin/env bash
# Session 27, call 1: the advisor's filter choice passed to the executor.
# Build: gjadvise, test_join, test_model, test_advisor, libcmocka.so.0 in
# build/s27a.tgz; carry ["build/s27a.tgz"].
#  1. tests: test_gpu_key_filter (the hint off; gj_join_auto runs the
#     model's choice), test_model, test_advisor;
#  2. the band where the rule's one threshold lost (session 26), two rounds
#     on this GPU: --filter on (what the rule ran) against auto (the
#     model's choice, h100-tuned), run join --repeat 7;
#  3. W2 (2^27 a side, 0.25) under auto: every join still filtered;
#  4. the validation grid (h100-tuned) with this build, its store packed.
set -u
source bench/device_lib.sh
gj_unpack s27a
(cd $D && GJ_TEST_FILTER=test_gpu_key_filter LD_LIBRARY_PATH=. timeout 300 ./test_join > "$OUT/test_join.txt" 2>&1; echo "test_join rc=$?")
grep -E "^\[  (PASSED|FAILED)|FAIL|peak" "$OUT/test_join.txt" | head
gj_tests model advisor
date -u +%FT%TZ
rj() { # impl filter args... -> "impl filter ms filtered"
  local i=$1 f=$2; shift 2
  timeout 120 $G run join --impl $i --filter $f --repeat 7 --no-log --json --profile h100-tuned "$@" 2>&1 |
    python3 -c 'import sys,json; d=json.loads(sys.stdin.read()); print(d["impl"], d.get("measured_ms"), d.get("predicted_ms"), "filtered" if d.get("filter") else "unfiltered")' 2>/dev/null || echo "$i $f error"
}
for round in 1 2; do
  echo "== round $round"
  for mr in 0.45 0.5; do
    for f in on auto; do echo -n "2^25 mr=$mr PHJ-TR --filter $f: "; rj PHJ-TR $f --r-rows 2^25 --s-rows 2^25 --match-ratio $mr; done
  done
  for f in on auto; do echo -n "2^20x2^26 mr=0.5 NPHJ --filter $f: "; rj NPHJ $f --r-rows 2^20 --s-rows 2^26 --match-ratio 0.5; done
  for f in on off; do echo -n "2^25 s-sorted mr=0.3 SMJ-TR --filter $f: "; rj SMJ-TR $f --r-rows 2^25 --s-rows 2^25 --match-ratio 0.3 --s-sorted; done
done | tee "$OUT/band.txt"
date -u +%FT%TZ
for i in PHJ-UR PHJ-TR SMJ-UR SMJ-TR NPHJ; do echo -n "W2 $i auto: "; rj $i auto --match-ratio 0.25; done | tee "$OUT/w2.txt"
date -u +%FT%TZ
timeout 240 $G validate --profile h100-tuned --db validate.sqlite > "$OUT/validate.txt" 2>&1; echo "validate rc=$?"
grep -v "^validate: \[" "$OUT/validate.txt" | head -24
tar czf "$OUT/validate.tgz" validate.sqlite 2>/dev/null
date -u +%FT%TZ
