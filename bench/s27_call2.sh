#!/usr/bin/env bash
# Session 27, call 2: S's cut and R's flags in one grid (filt_write_flag_kernel).
# Build: gjadvise, test_join, libcmocka.so.0 in build/s27b.tgz (this build)
# beside build/s27a.tgz (call 1's: the two kernels one after the other);
# carry both.
#  1. GJ_TRACE of the filter's steps at W2 (PHJ-TR), both builds;
#  2. W2, every join, --filter on, the two builds alternating, two rounds;
#  3. test_join, the whole of it (the filter forced on in check_all's shapes).
set -u
source bench/device_lib.sh
tar xzf build/s27a.tgz -C build && mv build/vt build/va
gj_unpack s27b
A=$PWD/build/va/gjadvise
for b in A G; do
  eval bin=\$$b
  GJ_TRACE=1 $bin run join --match-ratio 0.25 --impl PHJ-TR --filter on --repeat 3 --no-log --profile h100-tuned > "$OUT/trace_$b.txt" 2>&1
  echo "== $b"; grep -E "trace filter" "$OUT/trace_$b.txt" | tail -7
done
date -u +%FT%TZ
rj() { # binary impl -> "impl ms filtered"
  timeout 120 $1 run join --impl $2 --filter on --match-ratio 0.25 --repeat 7 --no-log --json --profile h100-tuned 2>&1 |
    python3 -c 'import sys,json; d=json.loads(sys.stdin.read()); print(d["impl"], d.get("measured_ms"), d.get("predicted_ms"), "peak", d.get("peak_bytes"))' 2>/dev/null || echo "$2 error"
}
for round in 1 2; do
  for i in PHJ-UR PHJ-TR SMJ-UR SMJ-TR NPHJ; do
    echo "round $round old $(rj $A $i)"; echo "round $round new $(rj $G $i)"
  done
done | tee "$OUT/w2_ab.txt"
date -u +%FT%TZ
(cd $D && LD_LIBRARY_PATH=. timeout 330 ./test_join > "$OUT/test_join.txt" 2>&1; echo "test_join rc=$?")
grep -E "^\[  (PASSED|FAILED)|FAIL" "$OUT/test_join.txt" | head
date -u +%FT%TZ
