#!/usr/bin/env bash
# Session 31, call 7: PGB-UR's run-to-run spread at 2^20 groups (call 6:
# 12.3 ms at 2^20, 6.5 at 2^22): five processes of `run groupby --repeat
# 7`, their phases, then two with GJ_TRACE to see which kernel moves.
# carry: build/s31d.tgz (as call 4)
source bench/device_lib.sh
gj_unpack s31d
R="run groupby --rows 2^28 --aggs max,max --impl PGB-UR --repeat 7 --no-log --json"
for g in 2^20 2^22; do
  for i in 1 2 3 4 5; do
    timeout 60 $G $R --groups $g | grep -o '"measured_ms":[0-9.]*,"measured_group_ms":[0-9.]*,"measured_aggregate_ms":[0-9.]*' | sed "s/^/$g,$i,/"
  done
done
for i in 1 2; do GJ_TRACE=1 timeout 60 $G run groupby --rows 2^28 --aggs max,max --impl PGB-UR --repeat 1 --no-log --groups 2^20 2>&1 | tail -14; done
date -u +%FT%TZ
