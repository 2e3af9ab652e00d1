#!/usr/bin/env bash
# Session 22, call 4: pgb_chunks reads the items' totals back after the
# first round's output and table are set up (their allocations and
# memsets overlap k_pgb_items). Build: make all + the three tests, packed
# with call 3's gjadvise as gjadvise_old into build/s22d.tgz; kind
# nvidia-h100-x1, carry ["build/s22d.tgz"].
# Predicted (call 3's GJ_TRACE: output and table set 0.028 ms after the
# read back): the aggregate phase ~0.02 ms shorter.
#  1. the tests (test_groupby also 9 bits claimed and with cut partitions);
#  2. GJ_TRACE at 2^20; 3. A/B old/new, two rounds; 4. issue 5's PGB-TR
#     sweeps (both key widths, B_G 2827.6 as the tables); 5. the
#     validation grid (h100-tuned).
set -u
tar xzf build/s22d.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise; O=$PWD/$D/gjadvise_old
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in join groupby model; do
    (cd $D && LD_LIBRARY_PATH=. timeout 250 ./test_$t > "$OUT/test_$t.txt" 2>&1; echo "test_$t rc=$?") &
done
wait
(cd $D && GJ_PGB_BITS=9 GJ_PART_CLAIM_MIN=0 LD_LIBRARY_PATH=. timeout 250 ./test_groupby) > "$OUT/test_groupby_9claim.txt" 2>&1 &
(cd $D && GJ_PGB_WHOLE=0 LD_LIBRARY_PATH=. timeout 250 ./test_groupby) > "$OUT/test_groupby_cut.txt" 2>&1 &
wait
for t in join groupby model groupby_9claim groupby_cut; do echo "$t: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_$t.txt" | tr '\n' ' ')"; done
grep -E "FAIL|wrong|differ|declined|ERROR" "$OUT"/test_*.txt | head -20
GJ_TRACE=1 timeout 60 $G run groupby --rows 2^28 --groups 2^20 --aggs max,max --impl PGB-TR --repeat 3 --no-log 2>&1 | tail -14 | head -8
for r in 1 2; do for b in old new; do
    B=$G; [ $b = old ] && B=$O
    for k in "--key-bytes 4 --sweep groups=2^16:2^22:2" "--key-bytes 8 --sweep groups=2^20:2^21:2"; do
        timeout 120 $B bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log $k \
            | sed "s/^/$r $b /" | tee -a "$OUT/ab.txt" | grep PGB | cut -d, -f1,2,5,6,7,8
    done
done; done
for k in 4 8; do
    timeout 200 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log --bg 2827.6 \
        --key-bytes $k --sweep groups=2^12:2^26:2 | tee "$OUT/pgbtr_k$k.csv" | cut -d, -f1,2,5,6,7,8,9,13
done
date -u +%FT%TZ
timeout 200 $G validate --profile h100-tuned --db "$OUT/validate.sqlite" > "$OUT/validate.txt" 2>&1
echo "validate rc=$?"; grep -v "^validate: \[" "$OUT/validate.txt" | sed -n 1,24p
date -u +%FT%TZ
