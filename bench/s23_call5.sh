#!/usr/bin/env bash
# Session 23, call 5: W1 PHJ-TR's transform took 0.6 ms more with
# partition_halves (call 4) where its two partitions alone took 0.32 more
# (join_part_bench): the transform's kernels by ncu, halves off / on (one
# warm-up and one run; kernel time summed by kernel name). Build: call 4's,
# carry ["build/s23c.tgz"].
set -u
source bench/device_lib.sh
gj_unpack s23c
cd $D
for h in off on; do
    env GJ_JOIN_PART_HALF=$h JOIN_BENCH_IMPLS=PHJ-TR timeout 200 ncu --clock-control none \
        --metrics gpu__time_duration.sum ./join_bench 1 W1 > "$OUT/ncu_w1_$h.txt" 2>&1
    echo "== half=$h"
    grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" "$OUT/ncu_w1_$h.txt" | paste - - \
        | sed -E 's/^ +(void )?([A-Za-z_:0-9]+)(<([^(]*)>)?\(.*gpu__time_duration.sum +(us|ms|ns) +([0-9.]+)$/\2<\4> \5 \6/' \
        | awk '{u=$(NF-1); v=$NF; if(u=="ms") v*=1000; if(u=="ns") v/=1000; $NF=""; $(NF)=""; k=$0; t[k]+=v; c[k]++; tot+=v} END {for (k in t) printf "%10.1f us %3d  %s\n", t[k], c[k], substr(k,1,140); printf "%10.1f us total\n", tot}' \
        | sort -rn | head -30
    grep -E "PHJ-TR" "$OUT/ncu_w1_$h.txt" | tail -1
done
date -u +%FT%TZ
