#!/usr/bin/env bash
# Session 19, call 6 (kind nvidia-h100-x1), carry ["build/ab"]: PGB-TR
# with the build before the two-tile scatter (gj_old: commit 056bc70's
# operators) and the final one (gj_new), same GPU, two rounds: the
# hashed partition keeps the one-tile scatter, refactored into shared
# loaders; nothing should change.
set -u
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for r in 1 2; do
    for b in old new; do
        timeout 100 build/ab/gj_$b bench groupby --rows 2^28 --aggs max,max --sweep groups=2^16:2^22:4 --impls PGB-TR --repeat 7 --no-log 2>&1 | grep -v "^impl" | sed "s/^/$r $b /"
    done
done | tee "$OUT/pgb_ab.txt"
date -u +%FT%TZ
