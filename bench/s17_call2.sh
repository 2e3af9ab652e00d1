#!/usr/bin/env bash
# Session 17's H200 call (kind nvidia-h200): SGB-DE-TR's hash dictionary
# (commit bf98288) on the H200, for the refit of h200-tuned's SGB-DE-TR
# correction (fitted in session 13 to the binary search it replaced):
# 1. test_groupby;
# 2. the default validation grid predicted by the built-in h200-measured
#    (tune starts from it, so the refit keeps its parameters);
# 3. issue 5's sweep for SGB-TR and SGB-DE-TR (odd powers), both key widths.
# carry ["build/s17a.tgz"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s17a.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
{ nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader; date -u +%FT%TZ
(cd $D && LD_LIBRARY_PATH=. timeout 200 ./test_groupby) > /tmp/t.log 2>&1
echo "test_groupby rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
grep -E '^\[  FAILED|FAIL ' /tmp/t.log | head -5; } > "$OUT/tests.txt" 2>&1
cat "$OUT/tests.txt"; echo "tests done at $(el) s"
V=$OUT/v.db
timeout 200 $G validate --profile h200-measured --db "$V" > "$OUT/validate.txt" 2>&1
echo "validate rc=$? at $(el) s"; grep -v "^validate: \[" "$OUT/validate.txt" | sed -n 1,20p
SW="--rows 2^28 --aggs max,max --sweep groups=2^1:2^25:4 --repeat 7 --no-log --profile h200-measured"
for k in 4 8; do
    timeout 100 $G bench groupby $SW --key-bytes $k --impls SGB-TR,SGB-DE-TR 2>/tmp/e.txt
    echo "sgb k$k rc=$? at $(el) s" >&2; tail -2 /tmp/e.txt >&2
done > "$OUT/sgb.csv"
echo "done at $(el) s"; date -u +%FT%TZ
