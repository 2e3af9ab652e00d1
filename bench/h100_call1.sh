#!/usr/bin/env bash
# Session 15's first H100 call (kind nvidia-h100-x1): issues 4's and 5's
# benchmarks with the committed operators (bench/h100_device.sh: calibrate,
# W1-W4, the Sec. 5.2.1 group-by sweep at both key widths), then, while the
# call has time, an A/B of PGB-TR with the kernel session 14 left
# uncommitted (16-byte bucket probes, whole partitions instead of pieces;
# env switches GJ_PGB_PROBE / GJ_PGB_PIECE in build/ab/gjadvise_wip)
# against the committed binary, the two alternating. That kernel lost and
# was dropped (bench/RESULTS.md, "The H100"): its source is gone, so this
# script only records what ran. carry ["bin", "build/ab.tgz"]: build/ab
# packed (gjadvise_wip and join_bench, stripped; unpacked, bin and these
# are over the carry limit).
set -u
t0=$(date +%s)
tar xzf build/ab.tgz -C build && mkdir -p build/bench && cp build/ab/join_bench build/bench/
bash bench/h100_device.sh
left=$((560 - ($(date +%s) - t0)))
echo "=== A/B of PGB-TR (wip kernel), ${left}s left"
[ "$left" -gt 60 ] || exit 0
ab() { # binary, env, key bytes, groups sweep
    env $2 timeout 40 "$1" bench groupby --rows 2^28 --aggs max,max --key-bytes "$3" --sweep "groups=$4" \
        --impls PGB-TR --repeat 7 --no-log 2>/dev/null | grep -v '^impl' | cut -d, -f1,2,5-9,13 | sed "s|^|$(basename "$1") $2,|"
}
{
    for round in 1 2; do
        ab bin/gjadvise x=1 4 2^13:2^25:4
        ab build/ab/gjadvise_wip x=1 4 2^13:2^25:4
        ab build/ab/gjadvise_wip GJ_PGB_PROBE=bucket 4 2^13:2^25:4
        ab build/ab/gjadvise_wip GJ_PGB_PIECE=0 4 2^13:2^25:4
        [ $(($(date +%s) - t0)) -lt 500 ] || break
    done
} | tee "$OUT/pgb_ab.csv"
date -u +%FT%TZ
