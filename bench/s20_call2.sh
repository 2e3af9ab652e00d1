#!/usr/bin/env bash
# Session 20, call 2 (kind nvidia-h100-x1), carry ["build/bench/cluster_probe",
# "bin/gjadvise"]: PGB's aggregate with a partition's table spread over a
# thread-block cluster (bench/cluster_probe.cu: remote atomics, a staged
# exchange with two barriers a tile, double-buffered with one), every group
# checked against a CPU pass; PGB-TR's phases at 2^21..2^25 groups on the
# same GPU for reference.
set -u
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
timeout 300 build/bench/cluster_probe 2>&1 | tee "$OUT/cluster_probe.csv"
timeout 100 bin/gjadvise bench groupby --rows 2^28 --aggs max,max --sweep groups=2^21:2^25:2 --impls PGB-TR --repeat 7 --no-log 2>&1 | tee "$OUT/pgb.txt"
date -u +%FT%TZ
