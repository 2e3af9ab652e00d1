#!/usr/bin/env bash
# Session 22, call 6: the claimed pass takes 10 bits in one pass (1024 x 8
# tiles, a thread a bin; GJ_PART_CLAIM_MAX_BITS), and PGB's plan takes one
# pass of 10 bits where those are the fewest and the partition claims
# (4-byte keys at 2^23 groups, 8-byte at 2^22). Build: make all + the three
# tests, packed with call 4's gjadvise as gjadvise_old into build/s22e.tgz;
# kind nvidia-h100-x1, carry ["build/s22e.tgz"].
# Predicted (call 5's bits_probe: the 10-bit pass 5.41 ms exact, its scatter
# 4.80; call 4: group phases 6.26 ms at 4-byte 2^23 and 8.14 at 8-byte
# 2^22): PGB-TR 4-byte 2^23 7.84 -> ~6.6 ms (group ~4.9, aggregate at load
# 1/2 ~+0.2), 8-byte 2^22 9.97 -> ~8.3.
set -u
tar xzf build/s22e.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise; O=$PWD/$D/gjadvise_old
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in join groupby model; do
    (cd $D && LD_LIBRARY_PATH=. timeout 300 ./test_$t > "$OUT/test_$t.txt" 2>&1; echo "test_$t rc=$?") &
done
wait
for t in join groupby model; do echo "$t: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_$t.txt" | tr '\n' ' ')"; done
grep -E "FAIL|wrong|differ|declined|ERROR" "$OUT"/test_*.txt | head -20
date -u +%FT%TZ
for r in 1 2; do for b in old new; do
    B=$G; [ $b = old ] && B=$O
    for k in "--key-bytes 4 --sweep groups=2^22:2^24:2" "--key-bytes 8 --sweep groups=2^21:2^23:2"; do
        timeout 120 $B bench groupby --rows 2^28 --aggs max,max --impls PGB-TR,PGB-UR --repeat 7 --no-log $k \
            | sed "s/^/$r $b /" | tee -a "$OUT/ab.txt" | grep PGB | cut -d, -f1,2,5,6,7,8,9
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
