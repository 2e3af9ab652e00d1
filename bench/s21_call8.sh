#!/usr/bin/env bash
# Session 21, call 8 (kind nvidia-h100-x1, carry ["build/s21f.tgz"], the
# build committed as 98136eb): issue 5's PGB-TR figures after the lean tile
# and the claimed pass, 2^28 rows, max,max, every power of two of groups
# from 2^12 to 2^26, both key widths, median of 7, floor at B_G 2827.6 GB/s.
set -u
tar xzf build/s21f.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for k in 4 8; do
    timeout 150 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log --bg 2827.6 \
        --key-bytes $k --sweep groups=2^12:2^26:2 | tee "$OUT/pgbtr_k$k.csv" | cut -d, -f1,2,5,6,7,8,9,13
done
date -u +%FT%TZ
