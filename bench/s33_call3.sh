#!/usr/bin/env bash
# Session 33, call 3: (1) session 31's unexplained loss at gb-aggs (2^26
# rows, 4096 groups, span unknown: hashed, no partition): sum,max 1.17 ->
# 1.28 ms, sum,max,count 1.35 -> 1.49 with the one-wave pieces. A/B with
# GJ_PGB_WHOLE=0, then ncu on the aggregate kernel both ways. (2) PGB-UR's
# 2^23 (11.9 ms) against 2^22 (6.4): whole partitions in several waves,
# each wave re-fetching the payload sectors? ncu's DRAM bytes and L2 hit
# rate at 2^22 and 2^23 say.
# carry: build/s33c.tgz
source bench/device_lib.sh
gj_unpack s33c
R="run groupby --rows 2^26 --groups 4096 --key-range unknown --repeat 7 --no-log --json"
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*\|"predicted_ms":[0-9.]*' | tr '\n' ' '; }
for a in sum max,max sum,max sum,max,count; do for wh in 1 0; do for i in PGB-TR PGB-UR; do
  echo "$a WHOLE=$wh $i: $(GJ_PGB_WHOLE=$wh timeout 60 $G $R --aggs $a --impl $i | f)"
done; done; done
date -u +%FT%TZ
N="ncu --kernel-name regex:k_pgb_(many|chunk) --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis"
for a in sum,max max,max; do for wh in 1 0; do
  GJ_PGB_WHOLE=$wh timeout 120 $N $G run groupby --rows 2^26 --groups 4096 --key-range unknown --repeat 1 --no-log --aggs $a --impl PGB-TR > "$OUT/ncu_${a/,/_}_whole$wh.txt" 2>&1
  echo "ncu $a WHOLE=$wh rc=$?"
done; done
for g in 22 23; do
  timeout 150 $N $G run groupby --rows 2^28 --groups 2^$g --aggs max,max --repeat 1 --no-log --impl PGB-UR > "$OUT/ncu_ur_g$g.txt" 2>&1
  echo "ncu ur 2^$g rc=$?"
done
grep -E "k_pgb|Duration|DRAM Throughput|Memory Throughput|L2 Hit|L1/TEX Hit|Achieved Occupancy|Registers Per|Grid Size|Block Size|Waves Per SM|Theoretical Occupancy|Warp Cycles Per Issued|Dynamic Shared|Compute \(SM\) Throughput|Mem Busy|Max Bandwidth" "$OUT"/ncu_*.txt | sed "s#$OUT/##" | head -150
date -u +%FT%TZ
