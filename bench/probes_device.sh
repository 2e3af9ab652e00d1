#!/usr/bin/env bash
# Session 14's untried probes beside PGB-TR, in one call. carry
# ["build/bench/owner_probe", "build/bench/pgbtable_probe", "bin"]
# (make bench-tools; make).
# 1. owner_probe (every SM owns a slice of the groups, rows sent to it
#    through rings in L2): a small run first (2^24 rows), so that a hang
#    costs 60 s, not the call; then 2^28 rows, max,max, g = 2^15..2^21, both
#    kernels (one-role, warp-specialised), each checked against a CPU pass;
# 2. pgbtable_probe: PGB's aggregate phase with slot-by-slot against 4-slot
#    bucket probes, 2048..10240 groups a partition, checked likewise;
# 3. PGB-TR on the same GPU (its aggregate phase at 2^20 / 2^21 is what
#    pgbtable_probe's 4096 / 8192 rows stand for). CSVs under $OUT.
set -u
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
timeout 120 build/bench/pgbtable_probe | tee "$OUT/pgbtable_probe.csv"
if timeout 60 build/bench/owner_probe 24 15 16; then
    timeout 240 build/bench/owner_probe 28 15 21 | tee "$OUT/owner_probe.csv"
else
    echo "owner_probe at 2^24 rows: rc=$? (a hang or an error); the 2^28 run skipped"
fi
timeout 120 bin/gjadvise bench groupby --rows 2^28 --aggs max,max --sweep groups=2^15:2^21:2 --impls PGB-TR \
    --repeat 5 --no-log 2>&1 | tee "$OUT/pgb_tr.csv"
date -u +%FT%TZ
