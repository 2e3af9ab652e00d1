#!/usr/bin/env bash
# Session 16's eighth H100 call (kind nvidia-h100-x1). Call 7's join_bench
# had W2 PHJ-TR's checksum differ from the others: write_rows reuses one
# DenseCols for S after R's launch (n = 0) and the pair flag of R's packed
# pair was left on S's first column. Fixed (dense_add clears the new
# column's flag); test_join's check_all now also runs PHJ-TR and PHJ-UR
# with GJ_JOIN_COMPACT=select (that path at any size). Then the final
# build's figures:
# 1. every GPU test binary; 2. join_bench 7 W1..W4 (checksums);
# 3. a calibration and the default validation grid (the refit of
# h100-tuned); 4. README's two commands in a fresh store.
# carry ["build/vt8.tgz"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/vt8.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
{ nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader; date -u +%FT%TZ
for t in $D/test_*; do
    (cd $D && GJ_BIN=$G LD_LIBRARY_PATH=. timeout 200 ./$(basename "$t")) > /tmp/t.log 2>&1
    echo "$(basename "$t") rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
    grep -E '^\[  FAILED|: wrong|rows vs reference' /tmp/t.log | head -5
done; } > "$OUT/tests.txt" 2>&1
cat "$OUT/tests.txt"; echo "tests done at $(el) s"
timeout 150 $D/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4.txt"
echo "w1-w4 done at $(el) s"
V=$OUT/v.db
timeout 60 $G calibrate --db "$V" --name h100-s16c8 --json > /dev/null 2>&1; echo "calibrate rc=$? at $(el) s"
timeout 120 $G validate --profile h100-s16c8 --db "$V" > "$OUT/validate.txt" 2>&1
echo "validate rc=$? at $(el) s"; grep -v "^validate: \[" "$OUT/validate.txt" | head -20
{ for c in "recommend --match-ratio 0.3" "run join"; do echo "\$ gjadvise $c"; GJADVISE_DB=/tmp/readme.db timeout 60 $G $c 2>&1; done; } > "$OUT/readme.txt"
cat "$OUT/readme.txt"
echo "done at $(el) s"; date -u +%FT%TZ
