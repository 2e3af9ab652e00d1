#!/usr/bin/env bash
# Session 29, call 5: issue 5's even powers (2^2..2^26) with the direct
# plan for HGB, PGB-UR and PGB-TR, 4- and 8-byte keys (the odd powers are
# call 3's tables), to see 8-byte keys at 2^14 groups.
# carry: build/s29c.tgz
source bench/device_lib.sh
gj_unpack s29c
for k in 4 8; do
  timeout 200 $G bench groupby --rows 2^28 --aggs max,max --key-bytes $k --sweep groups=2^2:2^26:4 \
    --impls HGB,PGB-UR,PGB-TR --repeat 7 --no-log | tee "$OUT/even_k$k.csv" | cut -d, -f1,2,4,6,13
done
date -u +%FT%TZ
