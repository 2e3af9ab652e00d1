#!/usr/bin/env bash
# Session 33, call 7: issue 5's tables on the H200 with this session's build (PGB-UR by piece, then partition)
# (every implementation, g = 2^2..2^26 in steps of 2^4, 4- and 8-byte
# keys, the generator's span told), as session 29's call 3 on the H100.
# carry: build/s33c.tgz (built at 145fc2f)
source bench/device_lib.sh
gj_unpack s33c
for k in 4 8; do
  timeout 150 $G bench groupby --rows 2^28 --aggs max,max --key-bytes $k --sweep groups=2^2:2^26:4 --impls all \
    --repeat 7 --no-log | tee "$OUT/table_k$k.csv" | cut -d, -f1,4,6,13,14
  date -u +%FT%TZ
done
