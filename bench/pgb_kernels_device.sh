#!/usr/bin/env bash
# Kernel times (ncu gpu__time_duration, one run after the warm-up) of a
# group-by: each binary of BINS, rows of ROWS, groups of GS, implementation
# IMPL (default PGB-TR), aggregates AGGS, key bytes KB. carry ["bin"] (and build/abbin).
#   BINS="build/abbin/gjadvise_old bin/gjadvise" ROWS="2^26 2^28" GS="2^17 2^20" bash bench/pgb_kernels_device.sh
set -u
export GJADVISE_DB=/tmp/gj_pgbk.db
NCU_BIN=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for b in ${BINS:-bin/gjadvise}; do
  for rows in ${ROWS:-2^26}; do
    for g in ${GS:-2^20}; do
      echo "=== $(basename $b) rows=$rows g=$g ${IMPL:-PGB-TR} ${ENVS:-}"
      env ${ENVS:-GJ_X=0} timeout 120 "$NCU_BIN" --clock-control none --csv --metrics gpu__time_duration.sum \
          --kernel-name regex:"${KREGEX:-.}" $b run groupby --rows $rows --groups $g --aggs ${AGGS:-max,max} --key-bytes ${KB:-4} \
          --impl ${IMPL:-PGB-TR} --repeat 1 --no-log 2>/dev/null | python3 bench/tpch/ncu_sum.py | grep -v "gen\|fill\|iota_k\|zipf" | tail -${LAST:-14}
    done
  done
done
