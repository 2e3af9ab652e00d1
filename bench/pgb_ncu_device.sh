#!/usr/bin/env bash
# Device script: where k_pgb_many's time goes (issue 5). carry ["bin"].
# 1. PGB-TR at a few g, default vs GJ_PGB_KERNEL=chunk (the two-pass kernel)
# 2. ncu of one k_pgb_many launch: speed of light, warp states, source
#    counters (stall reasons by SASS line), memory workload.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
G=bin/gjadvise
export GJADVISE_DB=/tmp/gj_pgb.db
for k in many chunk; do
  echo "=== kernel $k"
  GJ_PGB_KERNEL=$k timeout 120 $G bench groupby --rows 2^28 --aggs max,max --key-bytes 4 \
      --sweep groups=${GLO:-2^12}:${GHI:-2^22}:${GSTEP:-16} --impls PGB-TR --repeat ${REPEAT:-5} --no-log \
      --profile h200-tuned 2>/dev/null | cut -d, -f1,4,6-8
done
NCU_BIN=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for g in ${NCU_G:-2^16}; do
  echo "=== ncu k_pgb_many g=$g"
  timeout 200 "$NCU_BIN" --clock-control none --kernel-name regex:k_pgb_many --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis \
      --section InstructionStats --section SchedulerStats \
      $G run groupby --rows 2^28 --groups "$g" --aggs max,max --impl PGB-TR --repeat 1 --no-log \
      > "$OUT/ncu_many.txt" 2> "$OUT/ncu_many.err"
  echo "rc=$?"
  grep -vE "^==PROF==" "$OUT/ncu_many.txt" | grep -iE "Duration|Throughput|Stall|Warp Cycles|Issued|Eligible|Bank|Shared|L2 Hit|L1/TEX Hit|Excessive|uncoalesced|Executed Instructions|Branch" | head -80
done
