#!/usr/bin/env bash
# Session 21, call 4 (kind nvidia-h100-x1, carry ["build/s21d.tgz"]):
# k_pgb_many's lean tile (PGB-TR's packed pair alone, kinds fixed at
# compile time, no row bound tests where a warp's 128 rows lie inside the
# piece; GJ_PGB_LEAN=0 the general tile throughout). Predicted from call
# 3's SASS counts: about 100 of the general tile's 417 warp instructions a
# 128 rows gone, k_pgb_many at 2^20 groups 1.45 -> about 1.2 ms.
#  1. test_groupby (the lean tile is the default);
#  2. A/B, PGB-TR, 4-byte keys 2^12..2^24 groups (even powers) and 8-byte
#     keys 2^16..2^22, max,max, then sum,min at 2^20, two rounds;
#  3. ncu: k_pgb_many's instructions and time at 2^20 groups, lean and not.
set -u
tar xzf build/s21d.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
(cd $D && LD_LIBRARY_PATH=. timeout 200 ./test_groupby) > "$OUT/test_groupby.txt" 2>&1
echo "test_groupby rc=$?: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_groupby.txt" | tr '\n' ' ')"
for r in 1 2; do for l in 0 1; do
    for k in "--key-bytes 4 --aggs max,max --sweep groups=2^12:2^24:4" "--key-bytes 8 --aggs max,max --sweep groups=2^16:2^22:4" \
             "--key-bytes 4 --aggs sum,min --sweep groups=2^20:2^20:2"; do
        env GJ_PGB_LEAN=$l timeout 60 $G bench groupby --rows 2^28 --impls PGB-TR --repeat 7 --no-log $k \
            | sed "s/^/$r lean$l /" | tee -a "$OUT/ab_lean.txt" | grep PGB | cut -d, -f1,2,5,6,7,8
    done
done; done
date -u +%FT%TZ
R="run groupby --rows 2^28 --aggs max,max --impl PGB-TR --repeat 1 --no-log --groups 2^20"
for l in 0 1; do
    GJ_PGB_LEAN=$l timeout 100 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section InstructionStats \
        --kernel-name regex:k_pgb_many --launch-count 1 $G $R > "$OUT/ncu_lean$l.txt" 2>&1
    grep -E "Duration|Executed Instructions  |Issued Warp|Registers Per|Warp Cycles Per Issued" "$OUT/ncu_lean$l.txt" | sed "s/^/lean$l /"
done
date -u +%FT%TZ
