#!/usr/bin/env bash
# Device script (issue 6): calibrate with bw_part_pair (the operators' own
# partition pass of 4-byte keys with packed pairs, histogram included),
# then the default validation grid with that calibrated profile, tune and
# the replays (bench/validate_device.sh, PROFILE=h200), in one store.
# carry ["bin", "build/calprobe"].
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
GJ_BIN=$PWD/bin/gjadvise timeout 300 build/calprobe/test_calibrate > "$OUT/test_calibrate.log" 2>&1
echo "test_calibrate rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/test_calibrate.log" | tr '\n' ' ')"
s=$(date +%s)
timeout 400 bin/gjadvise calibrate --db "$OUT/validate.db" --name h200 > "$OUT/calibrate.txt" 2> "$OUT/calibrate.progress"
echo "calibrate rc=$? $(( $(date +%s) - s )) s"
grep -E "bw_seq |bw_hist|bw_part|sort_k" "$OUT/calibrate.txt"
PROFILE=h200 SKIP_TESTS=1 bash bench/validate_device.sh
