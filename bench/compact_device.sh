#!/usr/bin/env bash
# The compacting WRITE as a select and gathers (operators/join_api.cu
# write_selected) against the WRITE kernels (GJ_JOIN_COMPACT=write): test_join
# under both, W2 and the TPC-H q5j2 shape, alternating. carry ["bin", "build/dn"].
set -u
export LD_LIBRARY_PATH=build/dn
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for m in auto select write; do
  GJ_JOIN_COMPACT=$m timeout 300 build/dn/test_join > /tmp/tj.log 2>&1
  echo "test_join GJ_JOIN_COMPACT=$m rc=$? $(grep -E '^\[  (PASSED|FAILED)' /tmp/tj.log | tr '\n' ' ')"; grep -E "FAILED|rows vs" /tmp/tj.log | head -5
done
for r in 1 2; do for m in write auto; do
  echo "=== round $r GJ_JOIN_COMPACT=$m"
  GJ_JOIN_COMPACT=$m timeout 200 build/dn/join_bench 7 W2 2>&1 | grep -E "^W2 "
  export GJADVISE_DB=/tmp/q.db
  for i in PHJ-UR PHJ-TR SMJ-UR SMJ-TR NPHJ; do GJ_JOIN_COMPACT=$m bin/gjadvise run join --r-rows 456771 --s-rows 59986052 --r-payloads 1 --s-payloads 1 --match-ratio 0.0304 --impl $i --repeat 7 --no-log --json 2>&1 | python3 -c "
import json,sys; d=json.load(sys.stdin)
print('q5j2-shape $i', ' '.join('%s %.3f' % (p['name'], p['measured_ms']) for p in d['phases']), 'total %.3f' % d['measured_ms'])"; done
done; done
date -u +%FT%TZ
