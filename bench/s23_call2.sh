#!/usr/bin/env bash
# Session 23, call 2: GFTR's two-pass partitions through a scratch of half
# the rows (operators/join_api.cu partition_halves). Build: `bash
# bench/s18_pack.sh s23b`; kind nvidia-h100-x1, carry ["build/s23b.tgz"].
#  1. test_join (the halves against the CPU stable partition, PHJ-TR and
#     SMJ-TR with them forced), test_groupby (the kernels' new arguments);
#  2. A/B: GJ_JOIN_PART_HALF=off against the default, PHJ-TR and SMJ-TR on
#     W1..W4, two rounds (join_bench 7);
#  3. issue 4's table on this build, W1..W5, every join, with peaks;
#  4. ncu of the claimed scatter at 8, 9 and 10 bits (call 1's sections
#     were one argument: ncu wants a --section each).
set -u
source bench/device_lib.sh
gj_unpack s23b
gj_tests join groupby
date -u +%FT%TZ
for r in 1 2; do for h in off on; do
    echo "round $r half=$h"
    (cd $D && env GJ_JOIN_PART_HALF=$h JOIN_BENCH_IMPLS=PHJ-TR,SMJ-TR timeout 200 ./join_bench 7 W1 W2 W3 W4) 2>&1 \
        | sed "s/^/$r $h /" | tee -a "$OUT/ab_half.txt" | grep -E "PHJ-TR|SMJ-TR" | cut -c1-150
done; done
date -u +%FT%TZ
(cd $D && timeout 300 ./join_bench 7 W1 W2 W3 W4 W5) > "$OUT/join_w.txt" 2>&1; tail -32 "$OUT/join_w.txt"
date -u +%FT%TZ
for g in 2^20 2^22 2^23; do
    timeout 120 ncu --clock-control none --section SpeedOfLight --section WarpStateStats \
        --section MemoryWorkloadAnalysis --section Occupancy --kernel-name regex:part_scatter_kernel \
        --launch-count 1 $G run groupby --rows 2^28 --groups $g --aggs max,max --impl PGB-TR --repeat 1 \
        --no-log > "ncu_claim_$g.txt" 2>&1
    grep -E "^ +(Duration|DRAM Throughput|Memory Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per Thread|L2 Hit Rate|Mem Busy|Max Bandwidth)" \
        "ncu_claim_$g.txt" | sed "s/^/$g /"
done
tar czf "$OUT/ncu.tgz" ncu_claim_*.txt
date -u +%FT%TZ
