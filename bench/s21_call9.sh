#!/usr/bin/env bash
# Session 21, call 9 (kind nvidia-h100-x1, carry ["build/s21g.tgz"]): the
# claimed scatter with its atomic in flight while the tile's keys are
# staged and the next tile's loaded (before: issued and waited on ahead of
# the staging; call 6: 3.59 against the exact 3.13 ms with 4-byte keys).
# Predicted: the 4-byte claimed scatter level with the exact one, so that
# GJ_PGB_CLAIM=1 (4-byte keys too) saves the histogram less the sample,
# about 0.25 ms, at 2^14..2^20 groups; 8-byte unchanged or better.
set -u
tar xzf build/s21g.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
(cd $D && LD_LIBRARY_PATH=. timeout 280 ./test_join > "$OUT/test_join.txt" 2>&1; echo "test_join rc=$?") &
(cd $D && GJ_PGB_CLAIM=1 GJ_PART_CLAIM_MIN=0 LD_LIBRARY_PATH=. timeout 280 ./test_groupby > "$OUT/test_groupby_claim.txt" 2>&1; echo "test_groupby (claims at every width and size) rc=$?") &
wait
for t in join groupby_claim; do echo "$t: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_$t.txt" | tr '\n' ' ')"; done
grep -E "FAIL|wrong|differ|declined|ERROR" "$OUT"/test_*.txt | head -20
date -u +%FT%TZ
for r in 1 2; do for c in 0 1; do
    for k in "--key-bytes 4 --sweep groups=2^12:2^20:2" "--key-bytes 8 --sweep groups=2^16:2^20:4"; do
        env GJ_PGB_CLAIM=$c timeout 80 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-TR,PGB-UR --repeat 7 --no-log $k \
            | sed "s/^/$r claim$c /" | tee -a "$OUT/ab_claim.txt" | grep PGB | cut -d, -f1,2,5,6,7,8
    done
done; done
date -u +%FT%TZ
for k in 4 8; do
    GJ_PGB_CLAIM=1 timeout 100 ncu --clock-control none --section SpeedOfLight --kernel-name regex:"part_scatter|claim_sample" --launch-count 2 \
        $G run groupby --rows 2^28 --groups 2^20 --aggs max,max --impl PGB-TR --repeat 1 --no-log --key-bytes $k > "$OUT/ncu_k$k.txt" 2>&1
    grep -E "^  [a-zA-Z_].*\(|Duration" "$OUT/ncu_k$k.txt" | sed -E 's/\(const.*//; s/ +/ /g' | paste - - | cut -c1-160
done
date -u +%FT%TZ
