#!/usr/bin/env bash
# Group-by peak device memory (the operator's allocations with its output,
# inputs excluded; gj_timing.peak_bytes) for every implementation over a
# set of shapes: `gjadvise run groupby --json --no-log --repeat 1`. Prints
# CSV: impl,key_bytes,aggs,rows,groups,peak_bytes,ms. carry ["bin"].
set -u
G=bin/gjadvise
export GJADVISE_DB=/tmp/gbpeak.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
echo "impl,key_bytes,aggs,rows,groups,peak_bytes,ms"
run() { # kb aggs rows groups impls...
    local kb=$1 aggs=$2 rows=$3 g=$4; shift 4
    for i in "$@"; do
        timeout 60 $G run groupby --rows $rows --groups $g --aggs $aggs --key-bytes $kb --impl $i \
            --repeat 1 --no-log --json 2>/dev/null |
            python3 -c "import json,sys; d=json.load(sys.stdin); print('$i,$kb,$aggs,$rows,$g,%d,%.3f' % (d['peak_bytes'], d['measured_ms']))" ||
            echo "$i,$kb,$aggs,$rows,$g,ERR,"
    done
}
ALL="HGB SGB-UR SGB-TR SGB-DE-TR PGB-UR PGB-TR HASH-GLOBAL"
for g in 2 2^5 2^9 2^13 2^14 2^17 2^21 2^25; do run 4 max,max 2^28 $g $ALL; done
for g in 2^9 2^14 2^21; do run 8 max,max 2^28 $g $ALL; done
for g in 2^9 2^21; do run 4 sum,count,avg 2^26 $g $ALL; done
date -u +%FT%TZ
