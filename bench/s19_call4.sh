#!/usr/bin/env bash
# Session 19, call 4 (kind nvidia-h100-x1), carry ["build/s19b.tgz"]:
# the partition's 8-bit passes scatter two tiles at a time
# (part_scatter2_kernel) from 2^26 rows:
# 1. test_join and test_groupby (each with GJ_JOIN_PART_PAIR=force cases),
#    test_join under compute-sanitizer memcheck;
# 2. A/B, GJ_JOIN_PART_PAIR=off -> default, two rounds: join_bench 7
#    W1..W4 (PHJ-TR, SMJ-TR); PGB-TR at 2^16, 2^20, 2^22 groups;
# 3. join_bench 7 W1..W4, every implementation (checksums).
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s19b.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in test_join test_groupby; do
    (cd $D && LD_LIBRARY_PATH=. timeout 170 ./$t) > "$OUT/$t.txt" 2>&1
    echo "$t rc=$? at $(el) s: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/$t.txt" | tr '\n' ' ')" | tee -a "$OUT/tests.txt"
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
(cd $D && LD_LIBRARY_PATH=. timeout 200 $CS --tool memcheck --error-exitcode 9 --print-limit 20 ./test_join) \
    > "$OUT/memcheck_test_join.txt" 2>&1
echo "memcheck test_join rc=$? at $(el) s: $(grep -E '^\[  (PASSED|FAILED)|ERROR SUMMARY' "$OUT/memcheck_test_join.txt" | tr '\n' ' ')" | tee -a "$OUT/tests.txt"
for r in 1 2; do
    for m in off default; do
        if [ $m = default ]; then unset GJ_JOIN_PART_PAIR; else export GJ_JOIN_PART_PAIR=$m; fi
        JOIN_BENCH_IMPLS=PHJ-TR,SMJ-TR timeout 100 $D/join_bench 7 W1 W2 W3 W4 2>&1 | grep -E "^W[0-9] " | grep -v inputs | sed "s/^/$r $m /"
        timeout 100 $G bench groupby --rows 2^28 --aggs max,max --sweep groups=2^16:2^22:4 --impls PGB-TR --repeat 7 --no-log 2>/dev/null | sed "s/^/$r $m /"
    done
done | tee "$OUT/pair_ab.txt"
unset GJ_JOIN_PART_PAIR; echo "a/b done at $(el) s"
timeout 150 $D/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4.txt" | grep -E "^#|^W[0-9] " | grep -v inputs
echo "done at $(el) s"; date -u +%FT%TZ
