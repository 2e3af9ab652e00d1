#!/usr/bin/env bash
# Session 17's third H100 call (kind nvidia-h100-x1): PHJ's compacting
# write in one pass (phj_compact_write_kernel: first[] read once, matches
# staged in shared memory, no sel[]), where the select and the dense
# write's gathers took two (W2: match ratio 0.25).
# 1. test_join (check_all runs PHJ-TR and PHJ-UR with GJ_JOIN_COMPACT=
#    fused:5 and fused:<all> besides select);
# 2. join_bench 7 W1..W4 (checksums across the five implementations);
# 3. W2, PHJ-TR and PHJ-UR: GJ_JOIN_COMPACT=select (the old path) /
#    default / fused (PHJ-UR's default is the WRITE kernels), three rounds.
# carry ["build/s17b.tgz"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s17b.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
{ nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader; date -u +%FT%TZ
(cd $D && LD_LIBRARY_PATH=. timeout 250 ./test_join) > /tmp/t.log 2>&1
echo "test_join rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
grep -E '^\[  FAILED|FAIL|wrong|differ' /tmp/t.log | head -8; } > "$OUT/tests.txt" 2>&1
cat "$OUT/tests.txt"; echo "tests done at $(el) s"
timeout 150 $D/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4.txt" | grep -E "^ *[0-9]+ W|SUM|sum-" | head -30
echo "w1-w4 done at $(el) s"
for r in 1 2 3; do
    for m in select default fused; do
        if [ $m = default ]; then unset GJ_JOIN_COMPACT; else export GJ_JOIN_COMPACT=$m; fi
        JOIN_BENCH_IMPLS=PHJ-TR,PHJ-UR timeout 60 $D/join_bench 7 W2 2>&1 | grep -E "^W2 " | sed "s/^/$r $m /"
    done
done | tee "$OUT/w2_ab.txt"
unset GJ_JOIN_COMPACT
echo "done at $(el) s"; date -u +%FT%TZ
