#!/usr/bin/env bash
# Session 20, call 12 (kind nvidia-h100-x1), carry ["build/s20e.tgz"]: PGB's
# partitions kept whole where whole partitions keep the SMs 90% busy
# (operators/shapes.h gj_pgb_piece_rows; GJ_PGB_WHOLE=0: cut as before):
# test_groupby; A/B on one GPU, PGB-TR and PGB-UR, two rounds with 4-byte
# keys, one with 8-byte; the peaks tests/test_model.c holds at 2^21 groups.
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s20e.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
(cd $D && LD_LIBRARY_PATH=. timeout 170 ./test_groupby) > "$OUT/test_groupby.txt" 2>&1
echo "test_groupby rc=$? at $(el) s: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_groupby.txt" | tr '\n' ' ')"
B="bench groupby --rows 2^28 --aggs max,max --impls PGB-TR,PGB-UR --repeat 7 --no-log"
for r in 1 2; do for w in 0 1; do
    env GJ_PGB_WHOLE=$w timeout 60 $G $B --key-bytes 4 --sweep groups=2^16:2^22:2 | sed "s/^/$r w$w k4 /" >> "$OUT/ab.txt"
done; done
for w in 0 1; do
    env GJ_PGB_WHOLE=$w timeout 60 $G $B --key-bytes 8 --sweep groups=2^18:2^21:2 | sed "s/^/1 w$w k8 /" >> "$OUT/ab.txt"
done
grep PGB-TR "$OUT/ab.txt" | cut -d, -f1,5,6,7,8
echo "A/B done at $(el) s"
for k in 4 8; do for i in PGB-UR PGB-TR; do
    timeout 60 $G run groupby --rows 2^28 --groups 2^21 --aggs max,max --key-bytes $k --impl $i --repeat 1 --no-log --json 2>&1 | tee -a "$OUT/peaks.json" | grep -o '"peak_bytes":[0-9]*' | sed "s/^/$k $i /"
done; done
echo "done at $(el) s"; date -u +%FT%TZ
