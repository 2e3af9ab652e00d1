#!/usr/bin/env bash
# Session 21, call 7 (kind nvidia-h100-x1, carry ["build/s21f.tgz"]): the
# claimed pass for 8-byte keys only (call 6: the 4-byte claimed scatter
# 0.46 ms slower than the exact one, the 8-byte one level).
#  1. test_join, test_groupby (an 8-byte Zipf case added; every PGB case
#     also with GJ_PART_CLAIM_MIN=0), test_model side by side;
#  2. PGB-TR and PGB-UR, 8-byte keys, 2^12..2^24 groups, and 4-byte 2^20
#     (no claim: the control), claimed or not, two rounds;
#  3. the validation grid (h100-tuned).
set -u
tar xzf build/s21f.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in join groupby model; do
    (cd $D && LD_LIBRARY_PATH=. timeout 280 ./test_$t > "$OUT/test_$t.txt" 2>&1; echo "test_$t rc=$?") &
done
wait
for t in join groupby model; do echo "$t: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_$t.txt" | tr '\n' ' ')"; done
grep -E "FAIL|wrong|differ|declined|ERROR" "$OUT"/test_*.txt | head -20
date -u +%FT%TZ
for r in 1 2; do for c in 0 1; do
    for k in "--key-bytes 8 --sweep groups=2^12:2^24:4" "--key-bytes 4 --sweep groups=2^20:2^20:2"; do
        env GJ_PGB_CLAIM=$c timeout 80 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-TR,PGB-UR --repeat 7 --no-log $k \
            | sed "s/^/$r claim$c /" | tee -a "$OUT/ab_claim8.txt" | grep PGB | cut -d, -f1,2,5,6,7,8,9
    done
done; done
date -u +%FT%TZ
timeout 200 $G validate --profile h100-tuned --db "$OUT/validate.sqlite" > "$OUT/validate.txt" 2>&1
echo "validate rc=$?"; grep -v "^validate: \[" "$OUT/validate.txt" | sed -n 1,24p
date -u +%FT%TZ
