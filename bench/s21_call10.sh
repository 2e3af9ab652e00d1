#!/usr/bin/env bash
# Session 21, call 10 (kind nvidia-h100-x1, carry ["build/s21h.tgz"]): the
# claimed pass at both key widths (its atomics in flight across the
# staging), the exact scatter's code as before call 9.
#  1. test_join, test_groupby, test_model side by side;
#  2. A/B GJ_PGB_CLAIM=0/1 (4-byte keys 2^14..2^20, 8-byte 2^16, 2^20),
#     one round; the joins' W1..W4 (PHJ-TR, SMJ-TR: their scatter shares
#     the kernel);
#  3. issue 5's PGB-TR sweep, both key widths; 4. the validation grid.
set -u
tar xzf build/s21h.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in join groupby model; do
    (cd $D && LD_LIBRARY_PATH=. timeout 250 ./test_$t > "$OUT/test_$t.txt" 2>&1; echo "test_$t rc=$?") &
done
wait
for t in join groupby model; do echo "$t: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_$t.txt" | tr '\n' ' ')"; done
grep -E "FAIL|wrong|differ|declined|ERROR" "$OUT"/test_*.txt | head -20
date -u +%FT%TZ
for c in 0 1; do
    for k in "--key-bytes 4 --sweep groups=2^14:2^20:2" "--key-bytes 8 --sweep groups=2^16:2^20:16"; do
        env GJ_PGB_CLAIM=$c timeout 80 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-TR,PGB-UR --repeat 7 --no-log $k \
            | sed "s/^/claim$c /" | tee -a "$OUT/ab_claim.txt" | grep PGB | cut -d, -f1,2,5,6,7,8
    done
done
(cd $D && JOIN_BENCH_IMPLS=PHJ-TR,SMJ-TR timeout 100 ./join_bench 7 W1 W2 W3 W4) > "$OUT/join_w.txt" 2>&1; tail -12 "$OUT/join_w.txt"
date -u +%FT%TZ
for k in 4 8; do
    timeout 100 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log --bg 2827.6 \
        --key-bytes $k --sweep groups=2^12:2^26:2 | tee "$OUT/pgbtr_k$k.csv" | cut -d, -f1,2,5,6,7,8,9,13
done
date -u +%FT%TZ
timeout 150 $G validate --profile h100-tuned --db "$OUT/validate.sqlite" > "$OUT/validate.txt" 2>&1
echo "validate rc=$?"; grep -v "^validate: \[" "$OUT/validate.txt" | sed -n 1,24p
date -u +%FT%TZ
