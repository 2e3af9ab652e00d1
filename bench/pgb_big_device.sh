#!/usr/bin/env bash
# k_pgb_many's big tables (session 12): up to 16384 slots in up to 200 KB,
# one block of 1024 threads an SM (operators/groupby_api.cu pgb_chunks),
# against the binary before (8192 slots in 96 KB, two blocks of 512).
# carry ["build/abbin"] (gjadvise_old, gjadvise_new, stripped).
# 1. correctness (--check, 2^24 rows) at the new plans; 2. PGB-TR and
# PGB-UR, |R| = 2^28, max,max, g = 2^11..2^25 in steps of 2^2 (PGB-UR:
# 4-byte keys), old then new; 3. peak bytes of the model test's shapes
# whose plan changed (run groupby --json, new binary).
set -u
B=build/abbin
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for c in "2^13 4 max,max PGB-TR" "2^13 4 max,max PGB-UR" "2^14 8 max,max PGB-TR" "2^20 4 sum,count,avg PGB-TR" "2^21 4 max,max PGB-TR"; do
    set -- $c
    timeout 60 $B/gjadvise_new run groupby --rows 2^24 --groups $1 --key-bytes $2 --aggs $3 --impl $4 --check --repeat 3 \
        --json --no-log | python3 -c "import json,sys; d=json.load(sys.stdin); print('check $c', d['measured_ms'], d.get('checked'))"
done
for b in old new; do
    for kb in 4 8; do
        I=PGB-TR,PGB-UR; [ $kb = 8 ] && I=PGB-TR
        timeout 150 $B/gjadvise_$b bench groupby --rows 2^28 --aggs max,max --key-bytes $kb --sweep groups=2^11:2^25:4 \
            --impls $I --repeat 5 --no-log 2>&1 | grep -v "^impl" | cut -d, -f1,2,4,6-9 | sed "s/^/$b /"
    done
done
for c in "28 13 4 max,max" "28 14 4 max,max" "28 17 4 max,max" "28 21 4 max,max" "28 25 4 max,max" "28 14 8 max,max" "26 21 4 sum,count,avg"; do
    set -- $c
    for impl in PGB-UR PGB-TR; do
        timeout 60 $B/gjadvise_new run groupby --rows 2^$1 --groups 2^$2 --key-bytes $3 --aggs $4 --impl $impl --repeat 1 \
            --json --no-log | python3 -c "import json,sys; d=json.load(sys.stdin); print('peak $c $impl', d['peak_bytes'], d['measured_ms'])"
    done
done
date -u +%FT%TZ
