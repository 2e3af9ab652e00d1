#!/usr/bin/env bash
# Session 18's fifth H100 call (kind nvidia-h100-x1): SMJ-TR's MSD sort
# leaves S's pair split from its block sorts (session 17's structure),
# its partition's two passes going through S's two 4-byte columns as a
# scratch of n 8-byte values in two pieces (part_scatter_kernel SEG 1 and
# 2), not through a split store (call 4: +0.3-0.4 ms a pass)
# (build/s18c.tgz):
# 1. test_join, and test_join under compute-sanitizer memcheck;
# 2. join_bench 7 W1..W4, every implementation (checksums compared);
# 3. SMJ-TR on W1..W4, GJ_JOIN_MSD_SPLIT=off (S's pair packed, as in
#    session 17's final build) against the default (split), two rounds;
# 4. a calibration and the default validation grid.
# carry ["build/s18c.tgz"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s18c.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
(cd $D && LD_LIBRARY_PATH=. timeout 100 ./test_join) > /tmp/t.log 2>&1
echo "test_join rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')" | tee "$OUT/tests.txt"
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
(cd $D && LD_LIBRARY_PATH=. timeout 150 $CS --tool memcheck --error-exitcode 9 --print-limit 20 ./test_join) \
    > "$OUT/memcheck_test_join.txt" 2>&1
echo "memcheck test_join rc=$? at $(el) s: $(grep -E '^\[  (PASSED|FAILED)|ERROR SUMMARY' "$OUT/memcheck_test_join.txt" | tr '\n' ' ')" | tee -a "$OUT/tests.txt"
timeout 150 $D/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4.txt" | grep -E "^W[0-9] "
echo "w1-w4 done at $(el) s"
for r in 1 2; do
    for m in off default; do
        if [ $m = default ]; then unset GJ_JOIN_MSD_SPLIT; else export GJ_JOIN_MSD_SPLIT=$m; fi
        JOIN_BENCH_IMPLS=SMJ-TR timeout 100 $D/join_bench 7 W1 W2 W3 W4 2>&1 | grep -E "^W[0-9] " | sed "s/^/$r $m /"
    done
done | grep -v inputs | tee "$OUT/smj_ab.txt"
unset GJ_JOIN_MSD_SPLIT; echo "smj a/b done at $(el) s"
V=$OUT/v.db
timeout 60 $G calibrate --db "$V" --name h100-s18c5 --json > /dev/null 2>&1; echo "calibrate rc=$? at $(el) s"
timeout 200 $G validate --profile h100-s18c5 --db "$V" > "$OUT/validate.txt" 2>&1
echo "validate rc=$? at $(el) s"; grep -v "^validate: \[" "$OUT/validate.txt" | sed -n 1,22p
echo "done at $(el) s"; date -u +%FT%TZ
