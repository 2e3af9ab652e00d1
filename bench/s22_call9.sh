#!/usr/bin/env bash
# Session 22, call 9: PGB's tables probe by double hashing (pgb_slot: an
# odd stride from the key's product), GJ_PGB_PROBE=linear the old linear
# probes on the same binary. Kind nvidia-h100-x1, carry ["build/s22h.tgz"].
# Predicted (model/time.c probe_longest: a warp's longest probe at load 1/2
# 6.0 -> 4.3, at 1/4 3.0 -> 2.7; call 6/7's aggregate phases at load 1/4
# and 1/2, 1.35 and 1.63 ms at 2^20 and 2^21 groups, put a probe step near
# 0.09 ms): the aggregate phase -0.15 ms at 2^21..2^23 groups (load 1/2),
# -0.03 at 2^20 (1/4).
set -u
source bench/device_lib.sh
gj_unpack s22h
gj_tests groupby model
for r in 1 2; do for p in linear double; do
    for k in "--key-bytes 4 --sweep groups=2^16:2^23:2" "--key-bytes 8 --sweep groups=2^19:2^22:2"; do
        env GJ_PGB_PROBE=$p timeout 120 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log $k \
            | sed "s/^/$r $p /" | tee -a "$OUT/ab.txt" | grep PGB | cut -d, -f1,2,5,6,7,8
    done
done; done
date -u +%FT%TZ
