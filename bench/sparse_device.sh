#!/usr/bin/env bash
# PHJ's sparse probe (operators/join_api.cu phj_sparse; session 12), one
# device call. carry ["build/pt"] (test_join, gjadvise, libcmocka.so.0).
# test_join; then `gjadvise run join` (generated, median of 7, checked)
# for each case in CASES (|R|:|S|:match ratio:R payloads:S payloads:key
# bytes) with GJ_JOIN_SPARSE=off and on (default), PHJ-UR,
# PHJ-TR and NPHJ, ROUNDS alternations; the predictions beside.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
D=${D:-build/pt}; export LD_LIBRARY_PATH=$D
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
if [ "${SKIP_TESTS:-0}" = 0 ]; then
    timeout 300 $D/test_join > "$OUT/test_join.log" 2>&1
    echo "test_join rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/test_join.log" | tr '\n' ' ')"
    grep -E "FAILED|wrong|Error|error" "$OUT/test_join.log" | head -6
fi
CASES=${CASES:-"624:15000000:0:0:3:4 2048:59986052:0.01:2:2:4 4096:67108864:0.001:2:2:4 4096:67108864:0.001:2:2:8 624:15000000:1:0:3:4 3000:16777216:0.5:2:2:4"}
for r in $(seq 1 "${ROUNDS:-2}"); do
    for c in $CASES; do
        IFS=: read -r nr ns m pr ps kb <<< "$c"
        for impl in PHJ-UR PHJ-TR NPHJ; do
            for sp in off on; do
                [ "$impl" = NPHJ ] && [ "$sp" = off ] && continue
                GJ_JOIN_SPARSE=$sp timeout 60 $D/gjadvise run join --r-rows $nr --s-rows $ns --match-ratio $m \
                    --r-payloads $pr --s-payloads $ps --key-bytes ${kb:-4} --impl $impl --repeat 7 $([ $r = 1 ] && echo --check) --json --no-log \
                    --profile h200-tuned 2>&1 | python3 -c "
import json,sys
t=sys.stdin.read()
try: d=json.loads(t)
except Exception: print('r$r $c $impl sparse=$sp ERROR', t[:300]); sys.exit()
ph=' '.join('%s %.4f/%.4f'%(p['name'][:5],p['measured_ms'],p['predicted_ms']) for p in d['phases'])
print('r$r %-32s %-7s sparse=%-3s %.4f ms (pred %.4f) out=%d check=%s | %s'%('$c','$impl','$sp',d['measured_ms'],d['predicted_ms'],d['out_rows'],d.get('checked'),ph))"
            done
        done
    done
done
date -u +%FT%TZ
