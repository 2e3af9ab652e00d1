#!/usr/bin/env bash
# Session 21, call 2 (kind nvidia-h100-x1, carry ["build/s21b.tgz"], built
# with bench/s20_pgb_bucket.patch applied: GJ_PGB_PROBE=bucket selects
# k_pgb_many's 4-slot buckets, the default unchanged).
#  1. test_groupby with the buckets, then the A/B at 2^19..2^22 groups,
#     two rounds (predicted: 0.15-0.3 ms faster at 2^21, 2^22, load 1/2;
#     level at 2^20, load 1/4);
#  2. call 1's ncu again (its --section list was one argument: refused):
#     k_pgb_many at 2^20 groups against pgbtable_probe's k_agg; and
#     k_pgb_many with 8-byte keys at 2^20 groups, whole against pieces
#     (call 1: whole 7.47-7.55 ms, pieces 7.19-7.25);
#  3. the validation point whose regret was 41% in call 1 (join-payloads-8b
#     payloads=2: PHJ-TR 4.618 ms where sessions 16-20 measured 2.66-2.81).
set -u
tar xzf build/s21b.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
(cd $D && GJ_PGB_PROBE=bucket LD_LIBRARY_PATH=. timeout 170 ./test_groupby) > "$OUT/test_groupby_bucket.txt" 2>&1
echo "test_groupby (buckets) rc=$?: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_groupby_bucket.txt" | tr '\n' ' ')"
B="bench groupby --rows 2^28 --aggs max,max --impls PGB-TR,PGB-UR --repeat 7 --no-log --key-bytes 4 --sweep groups=2^19:2^22:2"
for r in 1 2; do for p in linear bucket; do
    env GJ_PGB_PROBE=$p timeout 60 $G $B | sed "s/^/$r $p /" | tee -a "$OUT/ab_bucket.txt" | grep PGB | cut -d, -f1,5,6,7,8
done; done
B="bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log --key-bytes 8 --sweep groups=2^20:2^22:2"
for p in linear bucket; do
    env GJ_PGB_PROBE=$p timeout 60 $G $B | sed "s/^/k8 $p /" | tee -a "$OUT/ab_bucket.txt" | grep PGB | cut -d, -f1,5,6,7,8
done
date -u +%FT%TZ
S="--section SpeedOfLight --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis --section SchedulerStats --section Occupancy --section LaunchStats"
R="run groupby --rows 2^28 --aggs max,max --impl PGB-TR --repeat 1 --no-log --groups 2^20"
timeout 100 ncu --clock-control none $S --kernel-name regex:k_pgb_many --launch-count 1 $G $R > "$OUT/ncu_many.txt" 2>&1
timeout 100 ncu --clock-control none $S --kernel-name regex:k_agg --launch-count 1 $D/pgbtable_probe 4096 > "$OUT/ncu_probe.txt" 2>&1
for w in 0 1; do
    GJ_PGB_WHOLE=$w timeout 100 ncu --clock-control none $S --kernel-name regex:k_pgb_m --launch-count 2 $G $R --key-bytes 8 > "$OUT/ncu_k8_w$w.txt" 2>&1
done
date -u +%FT%TZ
timeout 60 $G bench join --r-rows 2^24 --s-rows 2^24 --key-bytes 8 --payload-bytes 8 --sweep payloads=1:3:1 \
    --impls PHJ-UR,PHJ-TR,SMJ-TR --repeat 7 --no-log | tee "$OUT/join_p8.txt" | cut -d, -f1-8
date -u +%FT%TZ
