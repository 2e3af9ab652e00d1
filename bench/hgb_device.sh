#!/usr/bin/env bash
# Device script: HGB's one pass at 2^8..2^14 groups (issue 5's 1.5x band).
# carry ["bin", "build/pgbprobe", "build/abbin"]: the binary before
# (build/abbin/gjadvise_old) and after (bin/gjadvise), alternating, 2^28
# rows, max,max, 4- then 8-byte keys (FLAGS: more bench flags, BINS: the
# binaries); then ncu of k_hgb_onepass (NCU_G).
set -u
OUT=${OUT:-/tmp/out}
export GJADVISE_DB=/tmp/gj_hgb.db
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader; date -u +%FT%TZ
if [ "${SKIP_TESTS:-0}" = 0 ]; then
  for t in test_groupby test_gen; do
    timeout 240 build/pgbprobe/$t > "$OUT/$t.log" 2>&1; echo "$t rc=$?"
    grep -E "^\[  (PASSED|FAILED)|FAIL|differs" "$OUT/$t.log" | head
  done
fi
for kb in ${KBS:-4 8}; do
  for round in 1 2; do
    for b in ${BINS:-build/abbin/gjadvise_old bin/gjadvise}; do
      env ${ENVS:-} $b bench groupby --rows 2^28 --aggs ${AGGS:-max,max} --key-bytes $kb \
          --sweep groups=${GLO:-2^8}:${GHI:-2^14}:${GSTEP:-2} --impls ${IMPLS:-HGB} --repeat 7 --no-log ${FLAGS:-} \
          2>/dev/null | grep -v impl | cut -d, -f1,4,6-8 | sed "s|^|k$kb $round $(basename $b) |"
    done
  done
done
NCU_BIN=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$NCU_BIN" ] && for g in ${NCU_G:-}; do
  echo "=== ncu k_hgb_onepass g=$g"
  M=smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio,gpu__time_duration.sum
  for r in long_scoreboard short_scoreboard mio_throttle lg_throttle barrier membar wait math_pipe_throttle \
           not_selected selected dispatch_stall no_instruction branch_resolving drain; do
    M=$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
  done
  M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
  M=$M,smsp__sass_inst_executed_op_shared_atom.sum,smsp__sass_inst_executed_op_shared_ld.sum
  M=$M,smsp__sass_inst_executed_op_global_ld.sum,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active
  timeout 200 "$NCU_BIN" --clock-control none --kernel-name regex:k_hgb_onepass --launch-count 1 --metrics "$M" \
      bin/gjadvise run groupby --rows 2^28 --groups "$g" --aggs max,max --impl HGB --repeat 1 --no-log \
      > "$OUT/ncu_hgb.txt" 2> "$OUT/ncu_hgb.err"
  echo "rc=$?"
  grep -vE "^==PROF==|^==WARNING" "$OUT/ncu_hgb.txt" | grep -E "\.(sum|ratio|pct)" | sed 's/  */ /g'
done
