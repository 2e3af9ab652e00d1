#!/usr/bin/env bash
# Session 17's sixth H100 call (kind nvidia-h100-x1): SMJ-TR's MSD sort
# leaves S's payload pair split (its block sorts store the halves as two
# columns), so the dense write hands them over instead of unpacking them.
# 1. test_join (SMJ's MSD paths: block sorts, segmented and full CUB
#    fallbacks, all with S's pairs split);
# 2. join_bench 7 W1..W4, every implementation (checksums);
# 3. SMJ-TR on W1..W4 with GJ_JOIN_MSD_SPLIT=off (packed, as before) and
#    the default, two rounds;
# 4. a calibration and the default validation grid (the final refit).
# carry ["build/s17d.tgz"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s17d.tgz -C build
D=build/vt
{ nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader; date -u +%FT%TZ
(cd $D && LD_LIBRARY_PATH=. timeout 250 ./test_join) > /tmp/t.log 2>&1
echo "test_join rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
grep -E '^\[  FAILED|FAIL|wrong|differ' /tmp/t.log | head -8; } > "$OUT/tests.txt" 2>&1
cat "$OUT/tests.txt"; echo "tests done at $(el) s"
timeout 150 $D/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4.txt" | grep -E "^W[0-9] "
echo "w1-w4 done at $(el) s"
for r in 1 2; do
    for m in off default; do
        if [ $m = default ]; then unset GJ_JOIN_MSD_SPLIT; else export GJ_JOIN_MSD_SPLIT=$m; fi
        JOIN_BENCH_IMPLS=SMJ-TR timeout 100 $D/join_bench 7 W1 W2 W3 W4 2>&1 | grep -E "^W[0-9] " | sed "s/^/$r $m /"
    done
done | tee "$OUT/smj_ab.txt"
unset GJ_JOIN_MSD_SPLIT
G=$PWD/$D/gjadvise; V=$OUT/v.db
timeout 60 $G calibrate --db "$V" --name h100-s17c6 --json > /dev/null 2>&1; echo "calibrate rc=$? at $(el) s"
timeout 150 $G validate --profile h100-s17c6 --db "$V" > "$OUT/validate.txt" 2>&1
echo "validate rc=$? at $(el) s"; grep -v "^validate: \[" "$OUT/validate.txt" | sed -n 1,22p
echo "done at $(el) s"; date -u +%FT%TZ
