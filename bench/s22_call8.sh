#!/usr/bin/env bash
# Session 22, call 8: the claimed 10-bit pass end to end at scale, checked
# against the CPU reference (`run groupby --check`): 4-byte keys at 2^23
# groups and 8-byte keys at 2^22 (where the plan takes it), uniform, Zipf
# 0.8, rows sorted by key (runs of 8 equal keys: the sample's worst case),
# 2^26 and 2^28 rows. Final build (bench/s18_pack.sh s22g); kind
# nvidia-h100-x1, carry ["build/s22g.tgz"].
set -u
tar xzf build/s22g.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
ck() {
    echo "== $*"
    timeout 150 $G run groupby --aggs max,max --check --repeat 3 --no-log "$@" > ck.txt 2>&1
    local rc=$?
    tail -7 ck.txt; echo "rc=$rc"
}
ck --rows 2^26 --groups 2^23 --impl PGB-TR
ck --rows 2^26 --groups 2^23 --impl PGB-UR
ck --rows 2^26 --groups 2^22 --impl PGB-TR --key-bytes 8 --key-offset 0xF000000000000000
ck --rows 2^26 --groups 2^23 --impl PGB-TR --zipf 0.8
ck --rows 2^26 --groups 2^23 --impl PGB-TR --sorted-keys
ck --rows 2^28 --groups 2^23 --impl PGB-TR
date -u +%FT%TZ
