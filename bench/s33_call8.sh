#!/usr/bin/env bash
# Session 33, call 8: (1) call 7 had PGB-UR at 2^24 and 2^26 groups 6-7%
# slower than session 31's table (another H200): the piece order's A/B
# there (GJ_PGB_ORDER=partition), two rounds. (2) gb-aggs' sum,max whole
# runs: the plan's no-partition table at load 1/2 against one partition
# bit (GJ_PGB_BITS=1: load 1/4 at the price of a pass), measured in full.
# carry: build/s33c.tgz
source bench/device_lib.sh
gj_unpack s33c
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*\|"predicted_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
r() { echo "$*: $(env "$@" | f)"; }
R="$G run groupby --rows 2^28 --aggs max,max --repeat 7 --no-log --json --impl PGB-UR"
for round in 1 2; do for g in 2^24 2^25 2^26; do for k in 4 8; do
  r GJ_PGB_ORDER=piece $R --groups $g --key-bytes $k
  r GJ_PGB_ORDER=partition $R --groups $g --key-bytes $k
done; done; done
Q="$G run groupby --rows 2^26 --groups 4096 --key-range unknown --repeat 7 --no-log --json --impl PGB-TR"
for a in sum,max sum,max,count max,max; do
  r GJ_PGB_BITS=default $Q --aggs $a
  r GJ_PGB_BITS=1 $Q --aggs $a
  r GJ_PGB_BITS=2 $Q --aggs $a
done
echo "columns: measured ms, measured aggregate ms, predicted ms"
date -u +%FT%TZ
