#!/usr/bin/env bash
# Session 16's thirteenth H100 call: the peak of HGB with 8-byte keys at
# 2^14 groups now that it takes the table of key offsets (call 12 ran it
# with --check on 2^28 rows, which the 60-second cap cut short), for
# bench/gb_peak_h200.csv's row. carry ["build/vt12.tgz"].
set -u
tar xzf build/vt12.tgz -C build
G=$PWD/build/vt/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
timeout 60 $G run groupby --rows 2^28 --groups 2^14 --aggs max,max --key-bytes 8 --impl HGB --repeat 3 --no-log --json 2>&1 | tee "$OUT/run.json"
timeout 60 $G run groupby --rows 2^20 --groups 2^14 --aggs max,max --key-bytes 8 --impl HGB --check --repeat 3 --no-log 2>&1 | tee -a "$OUT/run.txt"
date -u +%FT%TZ
