#!/usr/bin/env bash
# The partition scatter with bulk copies (operators/join_partition.cuh
# part_scatter_tma_kernel) against the scatter before it (v2), one device
# call. carry ["build/pt.tar.gz"]: build/pt (test_join, test_groupby,
# test_gen, join_part_bench, join_bench, gjadvise, libcmocka.so.0) as built
# from one commit; GJ_JOIN_PART_SCATTER=v2|tma|tma2 picks the scatter.
# 1. tests (default scatter, and test_join's partition cases under v2);
# 2. join_part_bench: W1's R side, 16 and 8 bits, each scatter in SCATTERS;
# 3. ncu kernel times, v2 and the default;
# 4. join_bench W (PHJ-TR, SMJ-TR, PHJ-UR) and PGB-TR, scatters alternating.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
tar xzf build/pt.tar.gz -C build
D=build/pt
export LD_LIBRARY_PATH=$D
SCATTERS=${SCATTERS:-v2 tma tma2}
nvidia-smi --query-gpu=name,uuid,memory.total,clocks.sm,clocks.mem --format=csv,noheader
date -u +%FT%TZ
t0=$(date +%s)
say() { echo "=== $* ($(( $(date +%s) - t0 ))s)"; }
if [ "${SKIP_TESTS:-0}" = 0 ]; then
    for t in test_join test_groupby; do
        timeout 300 $D/$t > "$OUT/$t.log" 2>&1
        say "$t rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/$t.log" | tr '\n' ' ')"
        grep -E "FAILED|wrong|Error|error" "$OUT/$t.log" | head -6
    done
fi
for bits in 16 8; do
    for v in $SCATTERS; do
        say "join_part_bench bits=$bits $v"
        PART_BITS=$bits GJ_JOIN_PART_SCATTER=$v timeout 90 $D/join_part_bench 9 all custom 1 2>&1 | grep -v "^#"
    done
done
NCU=/usr/local/cuda/bin/ncu
for v in v2 tma; do
    say "ncu $v (pack, 16 bits)"
    GJ_JOIN_PART_SCATTER=$v timeout 120 $NCU --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
        --kernel-name regex:part_ -c 4 $D/join_part_bench 1 pack custom 0 2>/dev/null |
        grep -E "part_(hist|scatter)|gpu__time|dram__bytes" | sed -E 's/\(unsigned.*//; s/ +/ /g' | cut -c1-110
done
for r in 1 2; do
    for v in v2 tma; do
        say "round $r join_bench $v"
        GJ_JOIN_PART_SCATTER=$v JOIN_BENCH_IMPLS=PHJ-TR,SMJ-TR,PHJ-UR timeout 200 $D/join_bench 7 ${W:-W1 W3 W5} 2>&1 | grep -E "^W[0-9] +[A-Z]"
        say "round $r PGB-TR $v"
        for kb in 4 8; do
            GJ_JOIN_PART_SCATTER=$v timeout 100 $D/gjadvise bench groupby --rows 2^28 --aggs max,max --key-bytes $kb \
                --sweep groups=2^17:2^25:16 --impls PGB-TR,PGB-UR --repeat 7 --no-log 2>&1 | cut -d, -f1-8
        done
    done
done
say done
