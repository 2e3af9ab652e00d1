#!/usr/bin/env bash
# The owner-ring group-by probe (bench/owner_probe.cu: every SM owns a slice
# of the groups, rows sent to it through rings in L2) beside PGB-TR, in one
# call. carry ["build/bench/owner_probe", "bin"] (make bench-tools; make).
# 1. a small run first (2^24 rows): a hang costs 60 s, not the call;
# 2. 2^28 rows, max,max, g = 2^15..2^21: both kernels (one-role and
#    warp-specialised), each checked against a CPU pass; 3. PGB-TR on the
#    same GPU. CSVs under $OUT.
set -u
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
timeout 60 build/bench/owner_probe 24 15 16 || { echo "owner_probe 2^24: rc=$? (a hang or an error): stopping"; exit 1; }
timeout 300 build/bench/owner_probe 28 15 21 | tee "$OUT/owner_probe.csv"
timeout 120 bin/gjadvise bench groupby --rows 2^28 --aggs max,max --sweep groups=2^15:2^21:2 --impls PGB-TR \
    --repeat 5 --no-log 2>&1 | tee "$OUT/pgb_tr.csv"
date -u +%FT%TZ
