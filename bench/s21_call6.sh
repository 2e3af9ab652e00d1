#!/usr/bin/env bash
# Session 21, call 6 (kind nvidia-h100-x1, carry ["build/s21e.tgz"], call
# 5's build): why PGB's claimed pass lost with 4-byte keys (call 5: group
# phase +0.15-0.23 ms, PGB-TR and PGB-UR) and won with 8-byte keys (-0.6
# PGB-TR, -0.18 PGB-UR) where bench/histfree_probe predicted -0.22 for
# 4-byte keys: each partition kernel's duration (ncu, SpeedOfLight), exact
# and claimed, both key widths, PGB-TR at 2^20 groups.
set -u
tar xzf build/s21e.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for k in 4 8; do for c in 0 1; do
    GJ_PGB_CLAIM=$c timeout 100 ncu --clock-control none --section SpeedOfLight --section LaunchStats \
        --kernel-name regex:"part_|claim_|bounds_|Scan" --launch-count 12 \
        $G run groupby --rows 2^28 --groups 2^20 --aggs max,max --impl PGB-TR --repeat 1 --no-log --key-bytes $k > "$OUT/ncu_k${k}_c$c.txt" 2>&1
    echo "== key $k claim $c"
    grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Grid Size" "$OUT/ncu_k${k}_c$c.txt" | sed -E 's/\(const.*//; s/ +/ /g' | paste - - - - | cut -c1-200
done; done
date -u +%FT%TZ
