#!/usr/bin/env bash
# Session 16's ninth H100 call (kind nvidia-h100-x1), the final build
# (build/vt8.tgz). W2 PHJ-TR sits on issue 4's 2/3 line (10.02-10.30 ms
# against 10.07). Its materialize is CUB's select over first[] (0.34 ms)
# and two launches of the dense write (R's columns 0.60 ms, S's 0.72; ncu,
# call 2), each reading sel[]. In write_rows nothing is freed between the
# two, so one launch costs no memory: GJ_JOIN_DENSE=fused A/B on W2 (it
# fuses write_dense too, not used on W2). Predicted: -0.05 to -0.15 ms.
set -u
tar xzf build/vt8.tgz -C build
D=build/vt
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for round in 1 2 3; do for cfg in x=1 GJ_JOIN_DENSE=fused; do
    env $cfg JOIN_BENCH_IMPLS=PHJ-TR,PHJ-UR,SMJ-TR,SMJ-UR timeout 60 $D/join_bench 7 W2 2>&1 | grep -E '^W2 +[PS]' | sed "s/^/$round $cfg /"
done; done | tee "$OUT/w2_fused.txt"
date -u +%FT%TZ
