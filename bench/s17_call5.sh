#!/usr/bin/env bash
# Session 17's final H100 call (kind nvidia-h100-x1), the build of the
# session's operators (SGB-DE-TR's hash dictionary, PHJ's one-pass
# compaction, SGB-DE-TR's dictionary in shared memory where it fits):
# 1. every GPU test binary;
# 2. join_bench 7 W1..W4 (issue 4's table; checksums);
# 3. a calibration and the default validation grid (the refit of
#    h100-tuned on this build);
# 4. README's two commands in a fresh store;
# 5. SGB-DE-TR at 2^1..2^15 groups, both key widths: the dictionary in
#    shared memory (default where it fits) against GJ_SGB_ENCODE=global.
# carry ["build/s17c.tgz"]. Eight files back at most.
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s17c.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
{ nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader; date -u +%FT%TZ
for t in $D/test_*; do
    (cd $D && GJ_BIN=$G LD_LIBRARY_PATH=. timeout 200 ./$(basename "$t")) > /tmp/t.log 2>&1
    echo "$(basename "$t") rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
    grep -E '^\[  FAILED|: wrong|rows vs reference' /tmp/t.log | head -5
done; } > "$OUT/tests.txt" 2>&1
cat "$OUT/tests.txt"; echo "tests done at $(el) s"
timeout 150 $D/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4.txt" | grep -E "^W[0-9] "
echo "w1-w4 done at $(el) s"
V=$OUT/v.db
timeout 60 $G calibrate --db "$V" --name h100-s17c5 --json > /dev/null 2>&1; echo "calibrate rc=$? at $(el) s"
timeout 150 $G validate --profile h100-s17c5 --db "$V" > "$OUT/validate.txt" 2>&1
echo "validate rc=$? at $(el) s"; grep -v "^validate: \[" "$OUT/validate.txt" | sed -n 1,24p
{ for c in "recommend --match-ratio 0.3" "run join"; do echo "\$ gjadvise $c"; GJADVISE_DB=/tmp/readme.db timeout 60 $G $c 2>&1; done; } > "$OUT/readme.txt"
cat "$OUT/readme.txt"
SW="--rows 2^28 --aggs max,max --sweep groups=2^1:2^15:2 --repeat 7 --no-log --impls SGB-DE-TR"
for k in 4 8; do
    for m in default global; do
        if [ $m = default ]; then unset GJ_SGB_ENCODE; else export GJ_SGB_ENCODE=$m; fi
        timeout 100 $G bench groupby $SW --key-bytes $k 2>/dev/null | sed "s/^/$m,/"
    done
done > "$OUT/sgb_ab.csv"
unset GJ_SGB_ENCODE
echo "done at $(el) s"; date -u +%FT%TZ
