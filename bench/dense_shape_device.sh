#!/usr/bin/env bash
# The dense WRITE's launch shapes (bench/RESULTS.md, Joins, session 8):
# GFUR and NPHJ materialize on W1 and W3 under GJ_JOIN_DENSE x
# GJ_DENSE_SHAPE (s256, s512, c512, v8). GJ_DENSE_SHAPE was taken out once
# 512 x 2 was chosen (operators/join_api.cu DensePolicy): rerunning this
# needs it back. carry ["build/dn"].
set -u
D=build/dn; export LD_LIBRARY_PATH=$D
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
export JOIN_BENCH_IMPLS=PHJ-UR,SMJ-UR,NPHJ
for cfg in off:s256 split:s256 split:s512 split:c512 split:v8 fused:s256 fused:c512 fused:v8 off:s256; do
  m=${cfg%%:*}; sh=${cfg##*:}
  echo "=== GJ_JOIN_DENSE=$m GJ_DENSE_SHAPE=$sh"
  GJ_JOIN_DENSE=$m GJ_DENSE_SHAPE=$sh timeout 120 $D/join_bench 5 W1 W3 2>&1 | grep -E "^W[0-9] +[A-Z]" | awk '{print $1,$2,$5,$6,$10}'
done
date -u +%FT%TZ
