#!/usr/bin/env bash
# Session 17's fourth H100 call: call 3's A/B of W2 again (its filter
# matched no line): PHJ-TR and PHJ-UR with GJ_JOIN_COMPACT=select (the old
# path) / default / fused, three rounds. carry ["build/s17b.tgz"].
set -u
tar xzf build/s17b.tgz -C build
D=build/vt
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for r in 1 2 3; do
    for m in select default fused; do
        if [ $m = default ]; then unset GJ_JOIN_COMPACT; else export GJ_JOIN_COMPACT=$m; fi
        JOIN_BENCH_IMPLS=PHJ-TR,PHJ-UR timeout 60 $D/join_bench 7 W2 2>&1 | grep -E "^W2 " | sed "s/^/$r $m /"
    done
done | tee "$OUT/w2_ab.txt"
date -u +%FT%TZ
