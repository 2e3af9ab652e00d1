#!/usr/bin/env bash
# Session 16's last H100 call (kind nvidia-h100-x1): every test binary on
# the final build (HEAD: joins as call 11, HGB's offset table as call 12),
# then README's `run join` and two group-bys of RESULTS as spot checks.
# carry ["build/vt14.tgz"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/vt14.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
{ nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in $D/test_*; do
    (cd $D && GJ_BIN=$G LD_LIBRARY_PATH=. timeout 200 ./$(basename "$t")) > /tmp/t.log 2>&1
    echo "$(basename "$t") rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
    grep -E '^\[  FAILED|: wrong|rows vs reference' /tmp/t.log | head -5
done; } > "$OUT/tests.txt" 2>&1
cat "$OUT/tests.txt"; echo "tests done at $(el) s"
{ GJADVISE_DB=/tmp/r.db timeout 60 $G run join --no-log
  for g in 2^14 2^20; do timeout 60 $G run groupby --rows 2^28 --groups $g --aggs max,max --key-bytes 8 --repeat 7 --no-log; done; } 2>&1 | tee "$OUT/spot.txt"
echo "done at $(el) s"; date -u +%FT%TZ
