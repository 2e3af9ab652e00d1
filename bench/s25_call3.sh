#!/usr/bin/env bash
# Session 25, call 3: where SMJ-TR's MSD sort spends its time (GJ_TRACE=1:
# events at its steps), W4 (msd_hot) and, in place or not, W1 and W3;
# test_join again (the peak tests now share smj_tr_peaks). Build: `bash
# bench/s18_pack.sh s25c`; carry ["build/s25c.tgz"].
set -u
source bench/device_lib.sh
gj_unpack s25c
gj_tests join
date -u +%FT%TZ
tr() { # NAME ENV... -- run flags: the last run's two sorts (R's, then S's)
    local name=$1; shift
    env GJ_TRACE=1 "$@" 2> "$OUT/trace_$name.txt" > /dev/null
    echo "== $name"; grep -E "^trace" "$OUT/trace_$name.txt" | tail -16
}
for r in 1 2; do
tr w4_hot_$r $G run join --zipf 1 --impl SMJ-TR --repeat 3 --no-log
tr w1_inplace_$r $G run join --impl SMJ-TR --repeat 3 --no-log
tr w1_scratch_$r env GJ_JOIN_MSD_INPLACE=off $G run join --impl SMJ-TR --repeat 3 --no-log
tr w3_inplace_$r $G run join --r-rows 2^26 --impl SMJ-TR --repeat 3 --no-log
tr w3_scratch_$r env GJ_JOIN_MSD_INPLACE=off $G run join --r-rows 2^26 --impl SMJ-TR --repeat 3 --no-log
done
date -u +%FT%TZ
