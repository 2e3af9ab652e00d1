#!/usr/bin/env bash
# Calibration on the GPU machine, with binaries built beforehand (builds
# nothing): the calibration tests (a --quick calibration inside), one timed
# `calibrate --quick` (table), then two back-to-back timed full runs (JSON),
# and a comparison of the two full runs, printed last.
#
#   bench/calibrate_device.sh            logs and JSON under $OUT (or /tmp/gjcal)
#   GJ_BIN=path/to/gjadvise bench/calibrate_device.sh
#
# Files written (8 at most, flat): gpu.txt test.log quick.log full1.json
# full1.log full2.json full2.log compare.txt. The store is a fresh file in
# /tmp so every run starts from nothing. Never touches clocks or settings.
set -u
OUT=${OUT:-/tmp/gjcal}
mkdir -p "$OUT"
BIN=${GJ_BIN:-bin/gjadvise}
DB=$(mktemp -d)/gj.db

ms() { date +%s%3N; }
timed() { # timed NAME CMD...: runs CMD, prints and records its wall time
    local name=$1 s e rc
    shift
    s=$(ms)
    "$@"
    rc=$?
    e=$(ms)
    echo "$name: rc=$rc wall=$(( (e - s) / 1000 )).$(( (e - s) % 1000 / 100 )) s" >> "$OUT/compare.txt"
}

: > "$OUT/compare.txt"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu,persistence_mode --format=csv > "$OUT/gpu.txt" 2>&1
nvidia-smi -q -d CLOCK,PERFORMANCE >> "$OUT/gpu.txt" 2>&1
echo "binary: $BIN" >> "$OUT/compare.txt"

GJ_BIN=$BIN timed test_calibrate build/tests/test_calibrate > "$OUT/test.log" 2>&1
tail -4 "$OUT/test.log"
timed quick "$BIN" calibrate --quick --db "$DB" > "$OUT/quick.log" 2>&1
timed full1 "$BIN" calibrate --db "$DB" --json > "$OUT/full1.json" 2> "$OUT/full1.log"
timed full2 "$BIN" calibrate --db "$DB" --json > "$OUT/full2.json" 2> "$OUT/full2.log"
cat "$OUT/quick.log" | tail -50
{ echo "--- profiles list / show (store $DB)"; "$BIN" profiles list --db "$DB"; "$BIN" profiles show h200 --db "$DB"; } >> "$OUT/compare.txt" 2>&1

python3 - "$OUT/full1.json" "$OUT/full2.json" >> "$OUT/compare.txt" 2>&1 <<'EOF'
import json, sys
try:
    a, b = (json.load(open(f)) for f in sys.argv[1:3])
except Exception as e:
    print("compare: cannot read the full runs:", e); sys.exit(0)
mb = {m["key"]: m for m in b["measurements"]}
print("wall: full1 %.1f s, full2 %.1f s (inside the library)" % (a["wall_s"], b["wall_s"]))
print("%-14s %12s %12s %7s %6s %6s %s" % ("parameter", "full1", "full2", "diff%", "spr1%", "spr2%", "unit"))
worst = 0
for m in a["measurements"]:
    n = mb.get(m["key"])
    if not n: continue
    d = 100 * (n["value"] - m["value"]) / m["value"] if m["value"] else 0
    if m["unit"] == "GB/s": worst = max(worst, abs(d))
    flag = (" rerun" if m["rerun"] or n["rerun"] else "") + (" WIDE" if m["wide"] or n["wide"] else "")
    print("%-14s %12.5g %12.5g %+7.2f %6.2f %6.2f %s%s" % (m["key"], m["value"], n["value"], d,
          100 * m["spread"], 100 * n["spread"], m["unit"], flag))
print("largest |diff| over GB/s parameters: %.2f%%" % worst)
EOF
cat "$OUT/compare.txt"
