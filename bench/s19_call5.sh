#!/usr/bin/env bash
# Session 19, call 5 (kind nvidia-h100-x1), carry ["build/s19c.tgz"]: the
# final build (two-tile scatter for the joins' unhashed 8-bit passes only):
# test_join, test_groupby; join_bench 7 W1..W4; PGB-TR at 2^16..2^22
# groups (back on the one-tile scatter); a calibration and the default
# validation grid.
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s19c.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in test_join test_groupby; do
    (cd $D && LD_LIBRARY_PATH=. timeout 170 ./$t) > "$OUT/$t.txt" 2>&1
    echo "$t rc=$? at $(el) s: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/$t.txt" | tr '\n' ' ')" | tee -a "$OUT/tests.txt"
done
timeout 100 $G bench groupby --rows 2^28 --aggs max,max --sweep groups=2^16:2^22:4 --impls PGB-TR --repeat 7 --no-log 2>&1 | tee "$OUT/pgb.txt"
timeout 150 $D/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4.txt" | grep -E "^#|^W[0-9] " | grep -v inputs
echo "joins done at $(el) s"
V=$OUT/v.db
timeout 60 $G calibrate --db "$V" --name h100-s19c5 --json > "$OUT/calibrate.json" 2>&1; echo "calibrate rc=$? at $(el) s"
grep -E '"bw_seq"|"bw_part_pair"|"bw_part_pair1"' -A1 "$OUT/calibrate.json" | grep -E "bw_|value" | head -6
timeout 200 $G validate --profile h100-s19c5 --db "$V" > "$OUT/validate.txt" 2>&1
echo "validate rc=$? at $(el) s"; grep -v "^validate: \[" "$OUT/validate.txt" | sed -n 1,22p
echo "done at $(el) s"; date -u +%FT%TZ
