#!/usr/bin/env bash
# Session 21, call 5 (kind nvidia-h100-x1, carry ["build/s21e.tgz"]): PGB's
# claimed pass (operators/shapes.h gj_part_claims: one hashed pass of at
# most 8 bits with its bins sized from a sample, no histogram pass;
# GJ_PGB_CLAIM=0 the exact pass). Predicted from bench/histfree_probe (call
# 1: 3.331 against 3.551 ms): PGB's group phase about 0.2 ms shorter at 2^28
# rows wherever one call partitions on at most 8 bits (PGB-UR; PGB-TR's
# max,max pair), none at 2^22 groups (9 bits, wide).
#  1. test_join (gj_join_partition_claim against the exact pass, bin by bin;
#     an adversarial sample declined) and test_groupby (every PGB case also
#     claimed, GJ_PART_CLAIM_MIN=0) side by side (correctness only);
#  2. A/B, two rounds; 3. PGB's peaks at tests/test_model.c's shapes;
#  4. the validation grid (h100-tuned) after the lean tile and the claims.
set -u
tar xzf build/s21e.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
(cd $D && LD_LIBRARY_PATH=. timeout 280 ./test_join > "$OUT/test_join.txt" 2>&1; echo "test_join rc=$?") &
(cd $D && LD_LIBRARY_PATH=. timeout 280 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby rc=$?") &
wait
for t in join groupby; do echo "$t: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_$t.txt" | tr '\n' ' ')"; done
grep -E "FAIL|wrong|differ|declined|ERROR" "$OUT"/test_*.txt | head -20
date -u +%FT%TZ
for r in 1 2; do for c in 0 1; do
    for k in "--key-bytes 4 --sweep groups=2^12:2^22:4" "--key-bytes 8 --sweep groups=2^16:2^20:4"; do
        env GJ_PGB_CLAIM=$c timeout 80 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-TR,PGB-UR --repeat 7 --no-log $k \
            | sed "s/^/$r claim$c /" | tee -a "$OUT/ab_claim.txt" | grep PGB | cut -d, -f1,2,5,6,7,8,9
    done
done; done
date -u +%FT%TZ
pk() { timeout 60 $G run groupby --rows $3 --groups $4 --aggs $2 --key-bytes $1 --impl $5 --repeat 1 --no-log --json 2>&1 \
        | grep -o '"peak_bytes":[0-9]*' | sed "s/^/$1,$2,$3,$4,$5,/"; }
for i in PGB-UR PGB-TR; do
    for g in 2 2^5 2^9 2^13 2^14 2^17 2^21 2^25; do pk 4 max,max 2^28 $g $i; done
    for g in 2^9 2^14 2^21; do pk 8 max,max 2^28 $g $i; done
    for g in 2^9 2^21; do pk 4 sum,count,avg 2^26 $g $i; done
done | tee "$OUT/peaks.txt"
date -u +%FT%TZ
timeout 200 $G validate --profile h100-tuned --db "$OUT/validate.sqlite" > "$OUT/validate.txt" 2>&1
echo "validate rc=$?"; grep -v "^validate: \[" "$OUT/validate.txt" | sed -n 1,24p
date -u +%FT%TZ
