#!/usr/bin/env bash
# Device script: NPHJ's count pass with four rows a thread in flight
# and one sector a probe (session 10). test_join and test_gen, then `gjadvise run join` by phase
# for the binary before (build/abbin/gjadvise_old) and after (bin/gjadvise),
# alternating, two rounds, median of 7, on CASES ("impl|flags"): TPC-H's
# q18j1 and q5j2 shapes, the validate grid's join-big-probe, 2^24 and W1.
# carry ["bin", "build/vt5", "build/abbin"]. Output also in $OUT/ab.txt.
set -u
OUT=${OUT:-/tmp/out}
export GJADVISE_DB=/tmp/nphj_ab.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
if [ "${SKIP_TESTS:-0}" = 0 ]; then
  for t in test_join test_gen; do
    timeout 240 build/vt5/$t > "$OUT/$t.log" 2>&1
    echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/$t.log" | tr '\n' ' ')"
  done
fi
CASES=${CASES:-"NPHJ|--r-rows 624 --s-rows 15000000 --match-ratio 0.0000416 --r-payloads 0 --s-payloads 3
PHJ-UR|--r-rows 624 --s-rows 15000000 --match-ratio 0.0000416 --r-payloads 0 --s-payloads 3
NPHJ|--r-rows 456771 --s-rows 59986052 --match-ratio 0.0304 --r-payloads 1 --s-payloads 3 --s-run 4
NPHJ|--r-rows 2^19 --s-rows 2^26 --match-ratio 0.3
NPHJ|--r-rows 2^24 --s-rows 2^24 --match-ratio 0.5
NPHJ|--r-rows 2^24 --s-rows 2^24 --match-ratio 0.5 --key-bytes 8
NPHJ|--r-rows 2^27 --s-rows 2^27 --match-ratio 1"}
for round in 1 2; do
    while IFS='|' read -r impl flags; do
        for b in build/abbin/gjadvise_old bin/gjadvise; do
            printf '%s %s %-7s %-90s ' "$round" "$(basename $b)" "$impl" "$flags"
            $b run join $flags --impl "$impl" --repeat 7 --no-log 2>&1 | awk '/^(transform|match|materialize|total)/ {printf "%s %s  ", $1, $2} END {print ""}'
        done
    done <<< "$CASES" | tee -a "$OUT/ab.txt"
done
