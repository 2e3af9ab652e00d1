#!/usr/bin/env bash
# Session 13, one device call. carry ["build/s13.tar.gz"] (build/s13
# packed: over the carry limit unpacked): gjadvise (this commit),
# gjadvise_old (the commit before the session's operator change, 1baf529),
# test_join, libcmocka.so.0, all stripped.
# 1. test_join (the shared table helpers, the sparse probe's R rows beside
#    sel); 2. old against new, ROUNDS alternations, median of 7 each: the
#    sparse probe's cases (CASES, |R|:|S|:match ratio:R payloads:S
#    payloads:key bytes), PHJ-UR, measured time and the operator's peak;
#    W1 (2^27 x 2^27, 2+2) PHJ-UR and PHJ-TR, whose COUNT pass now calls
#    the helpers; the new binary's first round with --check up to 2^24 S rows (the CPU reference is slow beyond); 3. the default
#    validation grid with this commit (bench/validate_device.sh,
#    SKIP_TESTS=1, h200-measured), a store for the model's phases.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
D=${D:-build/s13}; export LD_LIBRARY_PATH=$D
[ -d "$D" ] || tar xzf "$D.tar.gz" -C "$(dirname "$D")"
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
if [ "${SKIP_TESTS:-0}" = 0 ]; then
    timeout 300 $D/test_join > "$OUT/test_join.log" 2>&1
    echo "test_join rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/test_join.log" | tr '\n' ' ')"
    grep -E "FAILED|wrong|rows vs reference" "$OUT/test_join.log" | head -6
fi
one() { # binary impl nr ns m pr ps kb check
    timeout 120 $D/$1 run join --r-rows $3 --s-rows $4 --match-ratio $5 --r-payloads $6 --s-payloads $7 \
        --key-bytes $8 --impl $2 --repeat 7 $9 --json --no-log --profile h200-tuned 2>&1 | python3 -c "
import json,sys
t=sys.stdin.read()
try: d=json.loads(t)
except Exception: print('ERROR', t[:300].replace('\n',' ')); sys.exit()
ph=' '.join('%s %.4f/%.4f'%(p['name'][:5],p['measured_ms'],p['predicted_ms']) for p in d['phases'])
print('%.4f ms (pred %.4f) peak %.1f MB out=%d check=%s | %s'%(d['measured_ms'],d['predicted_ms'],d.get('peak_bytes',0)/1e6,d['out_rows'],d.get('checked'),ph))"
}
CASES=${CASES:-"624:15000000:0:0:3:4 2048:59986052:0.01:2:2:4 4096:67108864:0.001:2:2:4 4096:67108864:0.001:2:2:8 134217728:134217728:1:2:2:4"}
for r in $(seq 1 "${ROUNDS:-2}"); do
    for c in $CASES; do
        IFS=: read -r nr ns m pr ps kb <<< "$c"
        impls=PHJ-UR; [ "$nr" -gt 4096 ] && impls="PHJ-UR PHJ-TR"
        for impl in $impls; do
            for b in gjadvise_old gjadvise; do
                chk=""; [ $r = 1 ] && [ $b = gjadvise ] && [ "$ns" -le 16777216 ] && chk=--check
                echo "r$r $c $impl $b: $(one $b $impl $nr $ns $m $pr $ps $kb "$chk")"
            done
        done
    done
done
date -u +%FT%TZ
if [ "${SKIP_VALIDATE:-0}" = 0 ]; then
    mkdir -p bin && cp $D/gjadvise bin/gjadvise
    SKIP_TESTS=1 PROFILE=h200-measured bash bench/validate_device.sh > "$OUT/validate_device.log" 2>&1
    echo "validate: $(grep -E '^validate rc' "$OUT/validate_device.log")"
    sed -n '/=== validate/,/=== tune/p' "$OUT/validate_device.log" | head -24
fi
date -u +%FT%TZ
