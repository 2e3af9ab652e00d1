#!/usr/bin/env bash
# Session 20, call 8 (kind nvidia-h100-x1), carry ["build/s20a.tgz"]: is the
# wide 9-bit pass worth taking where one 8-bit pass leaves PGB's tables at
# load 1/2 (4-byte keys at 2^21 groups, 8-byte keys at 2^20)? Default
# against GJ_PGB_BITS=9 (the one-table-an-SM plan at a quarter of the load),
# two rounds, PGB-TR and PGB-UR.
set -u
tar xzf build/s20a.tgz -C build
G=$PWD/build/vt/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
B="bench groupby --rows 2^28 --aggs max,max --impls PGB-TR,PGB-UR --repeat 7 --no-log"
for r in 1 2; do for bits in default 9; do
    e=""; [ $bits = default ] || e="GJ_PGB_BITS=$bits"
    env $e timeout 60 $G $B --key-bytes 4 --sweep groups=2^20:2^21:2 | sed "s/^/$r $bits k4 /" | tee -a "$OUT/ab9.txt" | cut -d, -f1-9
    env $e timeout 60 $G $B --key-bytes 8 --sweep groups=2^19:2^20:2 | sed "s/^/$r $bits k8 /" | tee -a "$OUT/ab9.txt" | cut -d, -f1-9
done; done
date -u +%FT%TZ
