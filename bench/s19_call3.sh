#!/usr/bin/env bash
# Session 19, call 3 (kind nvidia-h100-x1), carry ["build/s19a.tgz",
# "build/bench/pairtile_probe"]:
# 1. the scatter probe again: the write-combining scatter with and without
#    its carried lines, and part_scatter_kernel in its static order;
# 2. msd_sort's two mends (the split layout chosen before, no read-back
#    before the block sorts): test_join, plain and under memcheck;
# 3. join_bench 7 W1..W4, every implementation.
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s19a.tgz -C build
D=build/vt
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for a in "27 8" "28 8" "27 7"; do timeout 60 build/bench/pairtile_probe $a; done 2>&1 | tee "$OUT/wc2.txt"
(cd $D && LD_LIBRARY_PATH=. timeout 170 ./test_join) > "$OUT/test_join.txt" 2>&1
echo "test_join rc=$? at $(el) s: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_join.txt" | tr '\n' ' ')" | tee "$OUT/tests.txt"
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
(cd $D && LD_LIBRARY_PATH=. timeout 200 $CS --tool memcheck --error-exitcode 9 --print-limit 20 ./test_join) \
    > "$OUT/memcheck_test_join.txt" 2>&1
echo "memcheck test_join rc=$? at $(el) s: $(grep -E '^\[  (PASSED|FAILED)|ERROR SUMMARY' "$OUT/memcheck_test_join.txt" | tr '\n' ' ')" | tee -a "$OUT/tests.txt"
timeout 120 $D/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4.txt" | grep -E "^#|^W[0-9] "
echo "done at $(el) s"; date -u +%FT%TZ
