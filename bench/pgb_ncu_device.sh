#!/usr/bin/env bash
# Device script: where k_pgb_many's time goes (issue 5). carry ["bin"].
# 1. PGB-TR at a few g, default vs GJ_PGB_KERNEL=chunk (the two-pass kernel)
# 2. ncu of one k_pgb_many launch: instructions, stall reasons, shared-memory
#    wavefronts and bank conflicts, atomics, DRAM bytes (SKIP_AB=1: only this;
#    KNAME and IMPL for another kernel, e.g. k_hgb_onepass in HGB).
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
G=bin/gjadvise
export GJADVISE_DB=/tmp/gj_pgb.db
[ "${SKIP_AB:-0}" = 1 ] || for k in many chunk; do
  echo "=== kernel $k"
  GJ_PGB_KERNEL=$k timeout 120 $G bench groupby --rows 2^28 --aggs max,max --key-bytes 4 \
      --sweep groups=${GLO:-2^12}:${GHI:-2^22}:${GSTEP:-16} --impls PGB-TR --repeat ${REPEAT:-5} --no-log \
      --profile h200-tuned 2>/dev/null | cut -d, -f1,4,6-8
done
NCU_BIN=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for g in ${NCU_G:-2^16}; do
  echo "=== ncu ${KNAME:-k_pgb_many} g=$g"
  M=smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio,gpu__time_duration.sum
  for r in long_scoreboard short_scoreboard mio_throttle lg_throttle barrier membar wait math_pipe_throttle \
           not_selected selected dispatch_stall no_instruction branch_resolving drain; do
    M=$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
  done
  M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
  M=$M,smsp__sass_inst_executed_op_shared_atom.sum,smsp__sass_inst_executed_op_shared_ld.sum
  M=$M,smsp__sass_inst_executed_op_global_ld.sum,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active
  timeout 200 "$NCU_BIN" --clock-control none --kernel-name regex:${KNAME:-k_pgb_many} --launch-count 1 --metrics "$M" \
      $G run groupby --rows 2^28 --groups "$g" --aggs max,max --impl ${IMPL:-PGB-TR} --repeat 1 --no-log \
      > "$OUT/ncu_many.txt" 2> "$OUT/ncu_many.err"
  echo "rc=$?"
  grep -vE "^==PROF==|^==WARNING" "$OUT/ncu_many.txt" | grep -E "\.(sum|ratio|pct)" | sed 's/  */ /g'
done
