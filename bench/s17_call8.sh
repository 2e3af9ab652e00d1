#!/usr/bin/env bash
# Session 17's peak check (kind nvidia-h100-x1): SGB-DE-TR's measured peak
# where its dictionary's table outgrows what the later sorts allocate
# (g = |R|), against the model's (model/time.c, the table held while it
# encodes). carry ["build/s17e.tgz"].
set -u
tar xzf build/s17e.tgz -C build
G=$PWD/build/vt/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for k in 4 8; do for g in 2^12 2^22 2^24; do
    timeout 30 $G run groupby --rows 2^24 --groups $g --key-bytes $k --impl SGB-DE-TR --repeat 1 --no-log --json 2>&1 |
        grep -o '"groups":[0-9]*\|"peak_bytes":[0-9]*' | tr '\n' ' '; echo " k=$k g=$g"
done; done | tee "$OUT/peaks.txt"
date -u +%FT%TZ
