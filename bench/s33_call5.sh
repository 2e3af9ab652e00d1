#!/usr/bin/env bash
# Session 33, call 5: is gb-aggs' sum,max slow (1.10 ms aggregate against
# 0.44 for sum, 0.47 for max,max) for its table's load? Its slots take 16
# bytes, so 8192 fit (load 1/2 at 4096 groups) where max,max and sum have
# 16384 (1/4). Call 4 refuted the chained shared atomics. Same kernel
# (no partition: NARROW, general tile) in each. If the load is it,
# max,max and sum at GJ_PGB_TS=8192 slow to ~1.1 and sum,max at fewer
# groups speeds up.
# carry: build/s33c.tgz (HEAD's build)
source bench/device_lib.sh
gj_unpack s33c
f() { grep -o '"measured_aggregate_ms":[0-9.]*\|"predicted_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
r() { echo "$*: $(env "$@" | f)"; }
R="$G run groupby --rows 2^26 --key-range unknown --repeat 7 --no-log --json --impl PGB-TR"
for round in 1 2; do
r $R --groups 4096 --aggs max,max
r GJ_PGB_TS=8192 $R --groups 4096 --aggs max,max
r $R --groups 4096 --aggs sum
r GJ_PGB_TS=8192 $R --groups 4096 --aggs sum
r $R --groups 4096 --aggs sum,max
r GJ_PGB_TS=4096 $R --groups 4096 --aggs sum,max
r GJ_PGB_PROBE=linear $R --groups 4096 --aggs sum,max
r GJ_PGB_BITS=1 $R --groups 4096 --aggs sum,max
for g in 1024 2048 3072 6144; do r $R --groups $g --aggs sum,max; done
for g in 2048 6144 8192; do r $R --groups $g --aggs max,max; done
done
echo "columns: measured, predicted aggregate ms"
date -u +%FT%TZ
