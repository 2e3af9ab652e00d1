#!/usr/bin/env bash
# Session 28, call 2: where PGB-TR's aggregate at 2^21 groups (1.45 ms)
# loses to split_probe's plain loop over the same partitions (1.07 ms):
# GJ_TRACE of the operator's steps, then ncu of k_pgb_many and k_split.
# carry: bin, build/bench/split_probe
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
date -u +%FT%TZ
G=bin/gjadvise
GJ_TRACE=1 $G run groupby --rows 2^28 --groups 2^21 --aggs max,max --impl PGB-TR --repeat 3 --no-log 2>&1 | tail -30 | tee "$OUT/trace.txt"
S="--section SpeedOfLight --section WarpStateStats --section InstructionStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --section SchedulerStats"
timeout 200 ncu --clock-control none $S -k regex:k_pgb_many --launch-skip 1 --launch-count 1 \
    $G run groupby --rows 2^28 --groups 2^21 --aggs max,max --impl PGB-TR --repeat 1 --no-log > "$OUT/ncu_many.txt" 2>&1
echo "ncu many rc=$?"
timeout 200 ncu --clock-control none $S -k regex:k_split --launch-skip 1 --launch-count 1 \
    build/bench/split_probe 256:8192:1 > "$OUT/ncu_split.txt" 2>&1
echo "ncu split rc=$?"
for f in ncu_many ncu_split; do
  echo "== $f"; grep -E "Duration|Executed Ipc A|Issue Slots Busy|Warp Cycles Per Issued|Executed Instructions  |Registers Per|Achieved Occupancy|DRAM Throughput|L2 Cache Throughput|Block Size|Stall|Memory Throughput|No Eligible|Active Warps Per" "$OUT/$f.txt" | head -40
done
date -u +%FT%TZ
