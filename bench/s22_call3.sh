#!/usr/bin/env bash
# Session 22, call 3: PGB's work items in one block (k_pgb_items: pieces,
# both inclusive sums, the cut list and the totals) in place of k_pgb_pieces,
# two device-wide scans and two copies. Build: make all + the three tests,
# packed with call 2's gjadvise as gjadvise_old into build/s22c.tgz; kind
# nvidia-h100-x1, carry ["build/s22c.tgz"].
# Predicted (call 2's GJ_TRACE: pieces 0.014 ms, scans and read back
# 0.045-0.049 with 4-byte keys, 0.05 + 0.08 with 8-byte): the aggregate
# phase 0.03-0.04 ms shorter with 4-byte keys, ~0.1 with 8-byte.
#  1. test_groupby (also 9 bits claimed, and with GJ_PGB_WHOLE=0: cut
#     partitions merged), test_join, test_model; 2. GJ_TRACE at 2^20;
#  3. A/B old/new, two rounds; 4. the PGB-TR sweeps for the tables,
#     2^12..2^26 groups, 4- and 8-byte keys.
set -u
tar xzf build/s22c.tgz -C build
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
for kb in 4 8; do
    GJ_TRACE=1 timeout 60 $G run groupby --rows 2^28 --groups 2^20 --aggs max,max --key-bytes $kb --impl PGB-TR --repeat 3 --no-log > "$OUT/trace_$kb.txt" 2>&1
    tail -14 "$OUT/trace_$kb.txt" | head -9
done
for r in 1 2; do for b in old new; do
    B=$G; [ $b = old ] && B=$O
    for k in "--key-bytes 4 --sweep groups=2^16:2^22:2" "--key-bytes 4 --sweep groups=2^21:2^21:2" "--key-bytes 8 --sweep groups=2^20:2^21:2"; do
        timeout 120 $B bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log $k \
            | sed "s/^/$r $b /" | tee -a "$OUT/ab.txt" | grep PGB | cut -d, -f1,2,5,6,7,8
    done
done; done
for kb in 4 8; do
    timeout 200 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log --key-bytes $kb --sweep groups=2^12:2^26:2 \
        | tee "$OUT/sweep_$kb.csv" | cut -d, -f1,2,5,6,7,8,13
done
date -u +%FT%TZ
