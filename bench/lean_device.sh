#!/usr/bin/env bash
# A/B of PHJ-TR's lean partition order for S's pairs (operators/join_api.cu
# partition_run; carry ["bin", "build/vl", "build/abbin"]): test_join with
# the new code, then `gjadvise run join --impl PHJ-TR` by phase with the
# peak, for the binary before (build/abbin/gjadvise_old) and after
# (bin/gjadvise), alternating, two rounds, on W1-W5 and a 2^22 join (the
# lean order's smallest).
set -u
export GJADVISE_DB=/tmp/lean_ab.db
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u
timeout 300 build/vl/test_join > /tmp/test_join.log 2>&1
echo "test_join rc=$? $(grep -E '^\[  (PASSED|FAILED)' /tmp/test_join.log | tr '\n' ' ')"
grep -E "wrong|rows vs|ERROR" /tmp/test_join.log | head -5
CASES=${CASES:-"W1|
W2|--match-ratio 0.25
W3|--r-rows 2^26
W4|--zipf 1
W5|--r-rows 2^26 --s-rows 2^26 --key-bytes 8 --payload-bytes 8
2^22|--r-rows 2^22 --s-rows 2^22"}
for round in 1 2; do
    while IFS='|' read -r name flags; do
        for b in build/abbin/gjadvise_old bin/gjadvise; do
            printf '%s %-13s %-5s ' "$round" "$(basename $b)" "$name"
            $b run join $flags --impl PHJ-TR --repeat 7 --no-log 2>&1 |
                awk '/^(transform|match|materialize|total)/ {printf "%s %s  ", $1, $2} /^peak/ {printf "%s %s", $1, $2} END {print ""}'
        done
    done <<< "$CASES"
done
date -u
