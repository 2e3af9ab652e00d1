#!/usr/bin/env bash
# Session 28, call 1: PGB's aggregate with a partition's groups split among
# C blocks that each read the whole partition (bench/split_probe.cu), beside
# PGB-TR as it runs today at 2^21..2^26 groups (4-byte keys).
# carry: bin, build/bench/split_probe
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
date -u +%FT%TZ
build/bench/split_probe 256:8192:1 256:8192:2 256:16384:2 256:32768:4 256:65536:8 256:131072:16 \
    512:8192:1 512:16384:2 512:32768:4 512:65536:8 1024:32768:4 1024:65536:8 | tee "$OUT/split_probe.csv"
bin/gjadvise bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log \
    --sweep groups=2^21:2^26:2 | tee "$OUT/pgbtr_k4.csv" | cut -d, -f1-9
date -u +%FT%TZ
