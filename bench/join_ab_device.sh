#!/usr/bin/env bash
# A/B of a join change (carry ["bin", "build/vt1", "build/abbin"]):
# test_join and test_gen with the new code, then `gjadvise run join` by
# phase for the binary before (build/abbin/gjadvise_old) and after
# (bin/gjadvise), alternating, on CASES ("impl|flags" entries).
set -u
export GJADVISE_DB=/tmp/join_ab.db
for t in test_join test_gen; do
    timeout 240 build/vt1/$t > /tmp/$t.log 2>&1
    echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED)' /tmp/$t.log | tr '\n' ' ')"
done
CASES=${CASES:-"PHJ-UR|--r-rows 2^19 --s-rows 2^26 --match-ratio 0.03
NPHJ|--r-rows 2^19 --s-rows 2^26 --match-ratio 0.03
PHJ-UR|--match-ratio 0.25
PHJ-UR|--match-ratio 1"}
for round in 1 2; do
    while IFS='|' read -r impl flags; do
        for b in build/abbin/gjadvise_old bin/gjadvise; do
            printf '%s %s %-7s %-45s ' "$round" "$(basename $b)" "$impl" "$flags"
            $b run join $flags --impl "$impl" --repeat 7 --no-log 2>&1 | awk '/^(transform|match|materialize|total)/ {printf "%s %s  ", $1, $2} END {print ""}'
        done
    done <<< "$CASES"
done
