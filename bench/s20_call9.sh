#!/usr/bin/env bash
# Session 20, call 9 (kind nvidia-h100-x1), carry ["build/s20c.tgz"]: the
# calibration's new item bw_part_wide (PGB's first pass on 9 hashed bits in
# one wide pass) beside bw_part_pair and bw_part_pair1, in a full
# calibration; test_calibrate.
set -u
tar xzf build/s20c.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
(cd $D && LD_LIBRARY_PATH=. timeout 120 ./test_calibrate) > "$OUT/test_calibrate.txt" 2>&1
echo "test_calibrate rc=$?: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_calibrate.txt" | tr '\n' ' ')"
timeout 90 $G calibrate --db "$OUT/cal.sqlite" --name h100-s20 --json > "$OUT/calibrate.json" 2>&1; echo "calibrate rc=$?"
python3 - "$OUT/calibrate.json" <<'PY' 2>/dev/null || grep -E '"bw_part_(pair|pair1|wide)"' -A1 "$OUT/calibrate.json"
import json, sys
j = json.load(open(sys.argv[1]))
m = {x["key"]: x for x in j["measurements"]}
for k in ("bw_part_pair", "bw_part_pair1", "bw_part_wide"):
    print(k, round(m[k]["value"], 1), "spread", round(m[k]["spread"], 4))
print("pair1 / wide", round(m["bw_part_pair1"]["value"] / m["bw_part_wide"]["value"], 4))
PY
date -u +%FT%TZ
