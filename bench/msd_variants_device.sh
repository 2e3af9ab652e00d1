#!/usr/bin/env bash
# Block-sort variants of the MSD sort against GJ_JOIN_MSD=off: join_bench
# medians on WORKLOADS for IMPLS, then (NCU=1) ncu times of the block sort
# kernels (carry ["bin", "build/msd"]). The variants were selected by a
# GJ_MSD_KERNEL switch in operators/join_api.cu msd_sort, taken out once
# the shape was chosen (bench/RESULTS.md, Joins, session 7): put one back
# to compare shapes again.
set -u
D=${D:-build/msd}
export JOIN_BENCH_IMPLS=${IMPLS:-SMJ-UR,SMJ-TR}
for v in ${VARIANTS:-off 6 7 8}; do
    echo "=== $v"
    if [ "$v" = off ]; then export GJ_JOIN_MSD=off; else export GJ_JOIN_MSD=on GJ_MSD_KERNEL=$v; fi
    timeout 200 $D/join_bench "${REPEAT:-5}" ${WORKLOADS:-W1 W4} 2>&1 | grep -E "^W[0-9] +SMJ|error|mismatch"
    if [ "${NCU:-0}" = 1 ] && [ "$v" != off ]; then
        timeout 100 ncu --kernel-name regex:msd_block --metrics gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes.sum.per_second \
            $D/join_bench 1 W1 2>/dev/null | grep -E "msd_block_sort_kernel<|gpu__time|warps_active|dram__bytes" | sed 's/  */ /g; s/(const.*//' | cut -c1-120 | head -12
    fi
done
