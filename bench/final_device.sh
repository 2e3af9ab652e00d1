#!/usr/bin/env bash
# A session's closing device call: every GPU test binary on the final
# build, the README's `gjadvise run join` in a fresh store, and optional
# `run join` cases (CASES, |R|:|S|:match ratio:R payloads:S payloads:key
# bytes; PHJ-UR, median of 7). carry ["build/vt.tar.gz"]: build/vt packed
# (the eight test binaries, gjadvise, libcmocka.so.0, stripped; unpacked it
# is over the carry limit).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
D=${D:-build/vt}; export LD_LIBRARY_PATH=$D
[ -d "$D" ] || tar xzf "$D.tar.gz" -C "$(dirname "$D")"
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in "$D"/test_*; do
    GJ_BIN=$PWD/$D/gjadvise timeout 300 "$t" > "$OUT/$(basename "$t").log" 2>&1
    echo "$(basename "$t") rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/$(basename "$t").log" | tr '\n' ' ')"
    grep -E "^\[  FAILED|rows vs reference" "$OUT/$(basename "$t").log" | head -4
done
date -u +%FT%TZ
echo "=== README: gjadvise run join (fresh store)"
GJADVISE_DB=$OUT/readme.db $D/gjadvise run join
for c in ${CASES:-}; do
    IFS=: read -r nr ns m pr ps kb <<< "$c"
    echo "=== $c PHJ-UR: $($D/gjadvise run join --r-rows $nr --s-rows $ns --match-ratio $m --r-payloads $pr \
        --s-payloads $ps --key-bytes $kb --impl PHJ-UR --repeat 7 --no-log --json | python3 -c "
import json,sys
d=json.load(sys.stdin)
print('%.4f ms (pred %.4f) peak %.1f MB out=%d | %s'%(d['measured_ms'],d['predicted_ms'],d.get('peak_bytes',0)/1e6,d['out_rows'],' '.join('%s %.4f/%.4f'%(p['name'][:5],p['measured_ms'],p['predicted_ms']) for p in d['phases'])))")"
done
date -u +%FT%TZ
