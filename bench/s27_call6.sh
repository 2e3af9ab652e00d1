#!/usr/bin/env bash
# Session 27, call 6: ncu of the filter's four kernels at W2 (PHJ-TR, the
# timed run's: R's keys set, S flagged, S's cut beside R's flags, R's cut),
# to check what bounds the shared grid (the L2, as the separate kernels
# were in session 26?). Build: call 5's, build/s27e.tgz; carry it.
set -u
source bench/device_lib.sh
gj_unpack s27e
ncu --clock-control none -k regex:filt_ --launch-skip 4 --launch-count 4 \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread \
    $G run join --match-ratio 0.25 --impl PHJ-TR --filter on --repeat 1 --no-log > "$OUT/ncu_filter.txt" 2>&1
grep -E "filt_|duration|dram__|lts__|warps_active|registers" "$OUT/ncu_filter.txt" | head -50
date -u +%FT%TZ
