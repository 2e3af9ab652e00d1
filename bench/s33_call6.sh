#!/usr/bin/env bash
# Session 33, call 6: call 5 found k_pgb_many's one-block (1024 threads)
# tables slow at 8192 slots and fast at 16384 with the same 4096 groups,
# the same code and plan: max,max 0.46 -> 1.07 ms (GJ_PGB_TS=8192), sum
# 0.45 -> 1.01; sum,max (16-byte slots: 8192 fit) 1.10, and 0.39 at 4096
# slots (two blocks of 512). ncu both ways, with instruction counts,
# shared-memory conflicts and the source counters' hot spots.
# carry: build/s33c.tgz
source bench/device_lib.sh
gj_unpack s33c
N="ncu --kernel-name regex:k_pgb_many --launch-count 1 --section SpeedOfLight --section InstructionStats --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --section SourceCounters --section Occupancy --metrics smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_inst_executed_op_shared_atom.sum,smsp__sass_inst_executed_op_global_red.sum,smsp__sass_inst_executed_op_global_atom.sum,sm__cycles_elapsed.avg"
R="run groupby --rows 2^26 --groups 4096 --key-range unknown --repeat 1 --no-log --impl PGB-TR"
timeout 120 $N $G $R --aggs max,max > "$OUT/ncu_mm16k.txt" 2>&1; echo "mm16k rc=$?"
GJ_PGB_TS=8192 timeout 120 $N $G $R --aggs max,max > "$OUT/ncu_mm8k.txt" 2>&1; echo "mm8k rc=$?"
GJ_PGB_TS=4096 timeout 120 $N $G $R --aggs max,max > "$OUT/ncu_mm4k.txt" 2>&1; echo "mm4k rc=$?"
for f in mm16k mm8k mm4k; do
  echo "== $f"
  grep -E "Duration|Executed Ipc A|Issue Slots Busy|smsp__inst_executed.sum|bank_conflicts|wavefronts_mem_shared|op_shared_atom|op_global_red|op_global_atom|sm__cycles|Warp Cycles Per Issued|Active Threads Per Warp|Grid Size|Block Size|Dynamic Shared|L1/TEX Hit|L2 Hit|Branch Efficiency|Divergent" "$OUT/ncu_$f.txt" | sed 's/  */ /g'
done
date -u +%FT%TZ
