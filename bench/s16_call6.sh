#!/usr/bin/env bash
# Session 16's sixth H100 call (kind nvidia-h100-x1). GFUR's dense write now
# packs a side's 4-byte payload pairs (one sequential pass) before its
# gathers: one random sector a row a pair instead of two. Predicted (model,
# h100-tuned): W1 PHJ-UR materialize 16.4 -> about 8 ms (two of its four
# gathers gone, the packing 2 x 0.76 ms), SMJ-UR alike; peaks unchanged on
# W1 (3.774 GB), W3's 3.237 -> 3.758 GB (S's packed pair beside its
# columns).
# 1. test_join, test_cli; 2. join_bench 7 W1..W4; 3. a calibration and the
# default validation grid (tune refits PHJ-UR and SMJ-UR); 4. README's two
# commands in a fresh store. carry ["build/vt6.tgz"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/vt6.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
{ nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader; date -u +%FT%TZ
for t in test_join test_cli test_gen; do
    (cd $D && GJ_BIN=$G LD_LIBRARY_PATH=. timeout 200 ./$t) > /tmp/t.log 2>&1
    echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
    grep -E '^\[  FAILED|ERROR' /tmp/t.log | head -5
done; } > "$OUT/tests.txt" 2>&1
cat "$OUT/tests.txt"; echo "tests done at $(el) s"
timeout 150 $D/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4.txt"
echo "w1-w4 done at $(el) s"
V=$OUT/v.db
timeout 60 $G calibrate --db "$V" --name h100-s16c6 --json > /dev/null 2>&1; echo "calibrate rc=$? at $(el) s"
timeout 120 $G validate --profile h100-s16c6 --db "$V" > "$OUT/validate.txt" 2>&1
echo "validate rc=$? at $(el) s"; grep -v "^validate: \[" "$OUT/validate.txt" | head -20
{ for c in "recommend --match-ratio 0.3" "run join"; do echo "\$ gjadvise $c"; GJADVISE_DB=/tmp/readme.db timeout 60 $G $c 2>&1; done; } > "$OUT/readme.txt"
cat "$OUT/readme.txt"
echo "done at $(el) s"; date -u +%FT%TZ
