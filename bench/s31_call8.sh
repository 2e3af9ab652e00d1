#!/usr/bin/env bash
# Session 31, call 8: why PGB-UR's aggregate takes 11.2 ms at 2^20 groups
# and 4.4 at 2^22 (call 7, steady across processes). Hypothesis: at 2^20
# (6 bits, 64 partitions, each cut into ~8 pieces, items in partition
# order) the blocks running together gather payloads from 8 different
# row-id segments, so a sector's rows (8 of them, of 8 partitions) are
# fetched once for each; at 2^22 (256 whole partitions) every block walks
# row ids from 0 up at the same pace and the L2 serves the neighbours.
# Checks: 2^22 cut into pieces (GJ_PGB_WHOLE=0) should slow to ~11; 2^20
# with 8 bits (GJ_PGB_BITS=8) should approach 2^22's 4.4.
# carry: build/s31d.tgz (as call 4)
source bench/device_lib.sh
gj_unpack s31d
R="run groupby --rows 2^28 --aggs max,max --impl PGB-UR --repeat 7 --no-log --json"
f() { grep -o '"measured_group_ms":[0-9.]*,"measured_aggregate_ms":[0-9.]*'; }
echo "2^22 as is: $(timeout 60 $G $R --groups 2^22 | f)"
echo "2^22 cut (GJ_PGB_WHOLE=0): $(GJ_PGB_WHOLE=0 timeout 60 $G $R --groups 2^22 | f)"
echo "2^20 as is: $(timeout 60 $G $R --groups 2^20 | f)"
for b in 7 8; do echo "2^20 GJ_PGB_BITS=$b: $(GJ_PGB_BITS=$b timeout 60 $G $R --groups 2^20 | f)"; done
echo "2^18 as is: $(timeout 60 $G $R --groups 2^18 | f)"
echo "2^18 GJ_PGB_BITS=8: $(GJ_PGB_BITS=8 timeout 60 $G $R --groups 2^18 | f)"
date -u +%FT%TZ
