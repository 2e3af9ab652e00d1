#!/usr/bin/env bash
# Session 17's first H100 call (kind nvidia-h100-x1): SGB-DE-TR encodes
# its keys through a hash table of the dictionary (paper 000 Sec. 4.4)
# instead of a binary search of the sorted keys.
# 1. test_groupby (every implementation against the CPU reference);
# 2. issue 5's sweep (2^28 rows, max,max, g = 2^1..2^25, every power) for
#    SGB-TR and SGB-DE-TR at both key widths, then SGB-DE-TR again with
#    GJ_SGB_ENCODE=search (the binary search: the A/B, same GPU);
# 3. a calibration and the default validation grid (the refit of
#    h100-tuned's SGB-DE-TR).
# carry ["build/s17a.tgz"]. Eight files back at most.
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s17a.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise; BG=2827.6
{ nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader; date -u +%FT%TZ
for t in test_groupby test_model; do
    (cd $D && GJ_BIN=$G LD_LIBRARY_PATH=. timeout 200 ./$t) > /tmp/t.log 2>&1
    echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
    grep -E '^\[  FAILED|FAIL ' /tmp/t.log | head -5
done; } > "$OUT/tests.txt" 2>&1
cat "$OUT/tests.txt"; echo "tests done at $(el) s"
SW="--rows 2^28 --aggs max,max --sweep groups=2^1:2^25:2 --repeat 7 --bg $BG --no-log"
for k in 4 8; do
    timeout 150 $G bench groupby $SW --key-bytes $k --impls SGB-TR,SGB-DE-TR > "$OUT/sgb_k$k.csv" 2>/tmp/e.txt
    echo "sgb k$k rc=$? at $(el) s"; tail -2 /tmp/e.txt
done
for k in 4 8; do
    GJ_SGB_ENCODE=search timeout 120 $G bench groupby $SW --key-bytes $k --impls SGB-DE-TR 2>/tmp/e.txt
    echo "search k$k rc=$? at $(el) s" >&2; tail -2 /tmp/e.txt >&2
done > "$OUT/search.csv"
V=$OUT/v.db
timeout 60 $G calibrate --db "$V" --name h100-s17c1 --json > /dev/null 2>&1; echo "calibrate rc=$? at $(el) s"
timeout 150 $G validate --profile h100-s17c1 --db "$V" > "$OUT/validate.txt" 2>&1
echo "validate rc=$? at $(el) s"; grep -v "^validate: \[" "$OUT/validate.txt" | tail -8
echo "done at $(el) s"; date -u +%FT%TZ
