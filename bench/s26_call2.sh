#!/usr/bin/env bash
# Session 26, call 2: the filter's cut sides kept (mem_keep) so PHJ's hashed
# second transform no longer frees them; where the filter's time goes.
# Build: `bash bench/s18_pack.sh s26b`; carry ["build/s26b.tgz"].
#  1. test_join, test_model;
#  2. ncu of the filter's kernels at W2 (PHJ-TR, the timed run's six);
#  3. the validation grid (h100-tuned), its store packed.
set -u
source bench/device_lib.sh
gj_unpack s26b
gj_tests join model
date -u +%FT%TZ
ncu --clock-control none -k regex:filt_ --launch-skip 6 --launch-count 6 \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread \
    $G run join --match-ratio 0.25 --impl PHJ-TR --repeat 1 --no-log > "$OUT/ncu_filter.txt" 2>&1
grep -E "filt_|duration|dram__|lts__|warps_active|registers" "$OUT/ncu_filter.txt" | head -60
date -u +%FT%TZ
timeout 240 $G validate --profile h100-tuned --db validate.sqlite > "$OUT/validate.txt" 2>&1; echo "validate rc=$?"
tail -25 "$OUT/validate.txt"
tar czf "$OUT/validate.tgz" validate.sqlite "$OUT/validate.txt" 2>/dev/null
date -u +%FT%TZ
