#!/usr/bin/env bash
# Session 29, call 3: issue 5's tables with PGB's direct plan (bench
# groupby tells the operators the generator's key span), 4- and 8-byte
# keys, every implementation, g = 2^1..2^25 in steps of 2^2; then test_join
# on the same build (join_api.cu's claimed pass took a HASH parameter).
# carry: build/s29b.tgz (as call 2)
source bench/device_lib.sh
gj_unpack s29b
for k in 4 8; do
  echo "== $k-byte keys"
  timeout 240 $G bench groupby --rows 2^28 --aggs max,max --key-bytes $k --sweep groups=2^1:2^26:4 --impls all \
    --repeat 7 --no-log | tee "$OUT/table_k$k.csv" | cut -d, -f1,4,6,13,14
done
date -u +%FT%TZ
gj_tests join
date -u +%FT%TZ
