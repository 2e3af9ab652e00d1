#!/usr/bin/env bash
# HGB's dense one pass, the merge through rows of partials against the
# global table's atomics (GJ_HGB_PART_MERGE=on|off), alternating, two
# rounds, median of 7: 4-byte keys at 2^14 groups (16384-slot tables) and
# 8-byte keys at 2^13 (8192 slots), 2^28 rows, max,max. carry ["bin"].
set -u
export GJADVISE_DB=/tmp/hgbm.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for round in 1 2; do for c in "4 2^14" "8 2^13"; do set -- $c; for m in off on; do
  printf '%s k%s g=%s %-3s ' $round $1 $2 $m
  GJ_HGB_PART_MERGE=$m bin/gjadvise run groupby --rows 2^28 --groups $2 --aggs max,max --key-bytes $1 --impl HGB \
    --repeat 7 --no-log 2>&1 | awk '/^total/ {print $2}'
done; done; done
