#!/usr/bin/env bash
# Prepared in session 20, NOT RUN (its device time was spent): the next
# session's first call. Build first: `bash bench/s18_pack.sh s21a`, then
# copy build/bench/pgbtable_probe and build/bench/histfree_probe into
# build/vt and `tar czf build/s21a.tgz -C build vt`; kind nvidia-h100-x1,
# carry ["build/s21a.tgz"].
#  1. the validation grid after PGB's whole partitions (session 20 could
#     only replay the old store);
#  2. PGB-TR with 8-byte keys at 2^20 groups, whole partitions against
#     pieces, three rounds (session 20's one round: 7.33 -> 7.63 ms);
#  3. why k_pgb_many runs slower than pgbtable_probe's plain kernel on input
#     of the same shape (1.435 against 1.107 ms at load 1/4, ncu, session
#     20): the instruction, warp-state and memory sections of both;
#  4. bench/histfree_probe.cu: PGB's one 8-bit pass with its bins claimed by
#     atomics instead of its histogram pass (predicted -0.4 ms at 2^28 rows).
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s21a.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
timeout 200 $G validate --profile h100-tuned --db "$OUT/validate.sqlite" > "$OUT/validate.txt" 2>&1
echo "validate rc=$? at $(el) s"; grep -v "^validate: \[" "$OUT/validate.txt" | sed -n 1,22p
B="bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log --key-bytes 8 --sweep groups=2^20:2^20:2"
for r in 1 2 3; do for w in 0 1; do
    env GJ_PGB_WHOLE=$w timeout 60 $G $B | sed "s/^/$r w$w /" | tee -a "$OUT/ab_k8.txt" | grep PGB | cut -d, -f1,6,7,8
done; done
S=SpeedOfLight,WarpStateStats,InstructionStats,MemoryWorkloadAnalysis,SchedulerStats
timeout 150 ncu --clock-control none --section "$S" --kernel-name regex:k_pgb_many --launch-count 1 \
    $G run groupby --rows 2^28 --groups 2^20 --aggs max,max --impl PGB-TR --repeat 1 --no-log > "$OUT/ncu_many.txt" 2>&1
timeout 150 ncu --clock-control none --section "$S" --kernel-name regex:k_agg --launch-count 1 \
    $D/pgbtable_probe 4096 > "$OUT/ncu_probe.txt" 2>&1
timeout 120 $D/histfree_probe 28 2>&1 | tee "$OUT/histfree.txt"
echo "done at $(el) s"; date -u +%FT%TZ
