#!/usr/bin/env bash
# Session 18's first H100 call (kind nvidia-h100-x1): the mended operators
# (one dictionary probe loop, GJ_JOIN_COMPACT read once) and SMJ-TR's MSD
# sort leaving S's pair split again, now with a split scratch for its first
# partition's two passes (partition_run's xhi).
# 1. every test binary (GPU ones run here);
# 2. test_join and test_groupby under compute-sanitizer memcheck (session
#    17's split wrote past a buffer and test_join still passed);
# carry ["build/s18a.tgz"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s18a.tgz -C build
D=build/vt
export GJ_BIN=$PWD/$D/gjadvise
{ nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in $D/test_*; do
    b=$(basename $t)
    (cd $D && LD_LIBRARY_PATH=. timeout 120 ./$b) > /tmp/t.log 2>&1
    echo "$b rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
    grep -E '^\[  FAILED|FAIL ' /tmp/t.log | head -5
done; } > "$OUT/tests.txt" 2>&1
cat "$OUT/tests.txt"; echo "tests done at $(el) s"
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
echo "compute-sanitizer: $CS"
for t in test_join:280 test_groupby:150; do
    b=${t%%:*}; lim=${t##*:}
    (cd $D && LD_LIBRARY_PATH=. timeout $lim $CS --tool memcheck --error-exitcode 9 --print-limit 20 ./$b) \
        > "$OUT/memcheck_$b.txt" 2>&1
    echo "memcheck $b rc=$? at $(el) s: $(grep -E '^\[  (PASSED|FAILED)|ERROR SUMMARY' "$OUT/memcheck_$b.txt" | tr '\n' ' ')"
done
date -u +%FT%TZ
