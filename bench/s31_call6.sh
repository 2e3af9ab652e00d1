#!/usr/bin/env bash
# Session 31, call 6: issue 5's tables on the H200 with the final build
# (every implementation, g = 2^2..2^26 in steps of 2^4, 4- and 8-byte
# keys, the generator's span told), as session 29's call 3 on the H100.
# carry: build/s31d.tgz (as call 4)
source bench/device_lib.sh
gj_unpack s31d
for k in 4 8; do
  timeout 150 $G bench groupby --rows 2^28 --aggs max,max --key-bytes $k --sweep groups=2^2:2^26:4 --impls all \
    --repeat 7 --no-log | tee "$OUT/table_k$k.csv" | cut -d, -f1,4,6,13,14
  date -u +%FT%TZ
done
