#!/usr/bin/env bash
# Session 22, call 2: the claimed pass's sample in runs of 4 adjacent rows
# (GJ_PART_CLAIM_RUN; a quarter of the sectors), the bins' cursors starting
# at their starts (no claim_end_kernel), pgb_chunks without its sync before
# the aggregate kernel, GJ_TRACE's steps. Build: make all + the three tests,
# packed with session 22 call 1's gjadvise as gjadvise_old into
# build/s22b.tgz; kind nvidia-h100-x1, carry ["build/s22b.tgz"].
# Predicted: the sample 0.13 -> ~0.035 ms, a kernel and a host wait less
# (~0.02): PGB-TR 4-byte 2^20 groups about -0.1 ms (4.66 -> ~4.55).
#  1. test_join (runs of equal keys, the cursor layout), test_groupby (also
#     9 bits claimed), test_model (its claimed peaks fail until 4.);
#  2. GJ_TRACE of PGB-TR at 2^20 groups; 3. A/B old/new, two rounds;
#  4. PGB's peaks at test_model's shapes.
set -u
tar xzf build/s22b.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise; O=$PWD/$D/gjadvise_old
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in join groupby model; do
    (cd $D && LD_LIBRARY_PATH=. timeout 250 ./test_$t > "$OUT/test_$t.txt" 2>&1; echo "test_$t rc=$?") &
done
wait
(cd $D && GJ_PGB_BITS=9 GJ_PART_CLAIM_MIN=0 LD_LIBRARY_PATH=. timeout 250 ./test_groupby) > "$OUT/test_groupby_9claim.txt" 2>&1
echo "test_groupby (9 bits, claimed) rc=$?"
for t in join groupby model groupby_9claim; do echo "$t: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_$t.txt" | tr '\n' ' ')"; done
grep -E "FAIL|wrong|differ|declined|ERROR" "$OUT"/test_*.txt | head -20
for kb in 4 8; do
    GJ_TRACE=1 timeout 60 $G run groupby --rows 2^28 --groups 2^20 --aggs max,max --key-bytes $kb --impl PGB-TR --repeat 3 --no-log > "$OUT/trace_$kb.txt" 2>&1
done
tail -24 "$OUT/trace_4.txt"
for r in 1 2; do for b in old new; do
    B=$G; [ $b = old ] && B=$O
    for k in "--key-bytes 4 --sweep groups=2^14:2^22:2" "--key-bytes 4 --sweep groups=2^21:2^21:2" "--key-bytes 8 --sweep groups=2^20:2^21:2"; do
        timeout 120 $B bench groupby --rows 2^28 --aggs max,max --impls PGB-TR,PGB-UR --repeat 7 --no-log $k \
            | sed "s/^/$r $b /" | tee -a "$OUT/ab.txt" | grep PGB | cut -d, -f1,2,5,6,7,8
    done
done; done
pk() { timeout 60 $G run groupby --rows $3 --groups $4 --aggs $2 --key-bytes $1 --impl $5 --repeat 1 --no-log --json 2>&1 \
        | grep -o '"peak_bytes":[0-9]*' | sed "s/^/$1,$2,$3,$4,$5,/"; }
for i in PGB-UR PGB-TR; do
    for g in 2^14 2^17 2^21 2^25; do pk 4 max,max 2^28 $g $i; done
    for g in 2^14 2^21; do pk 8 max,max 2^28 $g $i; done
    for g in 2^9 2^21; do pk 4 sum,count,avg 2^26 $g $i; done
done | tee "$OUT/peaks.txt"
date -u +%FT%TZ
