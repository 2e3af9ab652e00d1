#!/usr/bin/env bash
# Session 35, call 5: k_pgb_merge at 1024 threads where call 3 did not
# look: hashed keys (--key-range unknown) and 8-byte keys, whose hashed
# merge (k_pgb_merge<u64, u64>) spills 8 bytes at 64 registers; 2^28 rows
# where partitions are cut (2^14..2^22 groups), and Zipf 1.5 at 2^26.
# GJ_PGB_MERGE_THREADS=512 against the default on the final build (s35d).
# Predicted: level or better everywhere (the merge is a small part of
# these plans' time).
# carry: build/s35d.tgz
source bench/device_lib.sh
gj_unpack s35d
for kb in 4 8; do for kr in unknown; do for v in 512 1024; do
  GJ_PGB_MERGE_THREADS=$v timeout 200 $G bench groupby --rows 2^28 --aggs max,max --key-bytes $kb --key-range $kr --sweep groups=2^14:2^22:2 --impls PGB-TR,PGB-UR --repeat 7 --no-log 2>/dev/null | cut -d, -f1,4,6,8 | tail -n +2 | tr '\n' ' '
  echo " <- kb=$kb key-range=$kr threads=$v (impl,groups,median,aggregate)"
done; done; done
v8="--key-bytes 8"
f() { grep -o '"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for kr in unknown 2^20; do for z in 1 1.5; do
  R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl PGB-TR --key-range $kr --zipf $z $v8"
  echo "8-byte PGB-TR kr=$kr z$z agg: 512 $(GJ_PGB_MERGE_THREADS=512 timeout 60 $G $R | f)| 1024 $(timeout 60 $G $R | f)| 512 $(GJ_PGB_MERGE_THREADS=512 timeout 60 $G $R | f)| 1024 $(timeout 60 $G $R | f)"
done; done
date -u +%FT%TZ
