#!/usr/bin/env bash
# Where the compaction by select starts to pay (operators/join_api.cu
# compact_by_select: from 2^24 S rows, set from TPC-H's 1.3-1.8 M-row probe
# sides): PHJ-TR and NPHJ at |S| = 2^21..2^25, |R| = |S| / 8, 1+1 payload
# columns, match ratio 0.1 (select rule's "an eighth of S" for NPHJ), under
# GJ_JOIN_COMPACT=write and select, alternating, two rounds; with MATCH=1,
# NPHJ and PHJ-UR (the "an eighth of S" rule) at match ratios 0.01..0.12,
# |S| = 2^24 and 2^26, |R| = |S| / 64. carry ["bin"].
set -u
export GJADVISE_DB=/tmp/sel.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
if [ "${MATCH:-0}" = 1 ]; then
  for round in 1 2; do for s in 24 26; do for mr in 0.01 0.03 0.06 0.12; do for i in NPHJ PHJ-UR; do
    for m in write select; do
      printf '%s 2^%s %-5s %-6s %-6s ' $round $s $mr $i $m
      GJ_JOIN_COMPACT=$m bin/gjadvise run join --r-rows 2^$((s - 6)) --s-rows 2^$s --r-payloads 1 --s-payloads 1 \
        --match-ratio $mr --impl $i --repeat 15 --no-log 2>&1 | awk '/^(materialize|total)/ {printf "%s %s  ", $1, $2} END {print ""}'
    done; done; done; done; done
  exit 0
fi
for round in 1 2; do
  for s in 21 22 23 24 25; do for i in PHJ-TR NPHJ; do for m in write select; do
    printf '%s 2^%s %-6s %-6s ' $round $s $i $m
    GJ_JOIN_COMPACT=$m bin/gjadvise run join --r-rows 2^$((s - 3)) --s-rows 2^$s --r-payloads 1 --s-payloads 1 \
      --match-ratio 0.1 --impl $i --repeat 15 --no-log 2>&1 | awk '/^(materialize|total)/ {printf "%s %s  ", $1, $2} END {print ""}'
  done; done; done
done
date -u +%FT%TZ
