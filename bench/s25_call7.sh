#!/usr/bin/env bash
# Session 25, call 7: the final build (msd_hot on the device, the model charging it).
# Build: `bash bench/s18_pack.sh s25g`; carry ["build/s25g.tgz"].
#  1. test_join, test_model;
#  2. issue 4's table, W1..W5, every join, with peaks;
#  3. the validation grid (h100-tuned), its store packed.
set -u
source bench/device_lib.sh
gj_unpack s25g
gj_tests join groupby model
date -u +%FT%TZ
(cd $D && timeout 300 ./join_bench 7 W1 W2 W3 W4 W5) > "$OUT/join_w.txt" 2>&1; grep -E "^W|device" "$OUT/join_w.txt"
date -u +%FT%TZ
timeout 240 $G validate --profile h100-tuned --db validate.sqlite > "$OUT/validate.txt" 2>&1; echo "validate rc=$?"
tail -25 "$OUT/validate.txt"
tar czf "$OUT/validate.tgz" validate.sqlite "$OUT/validate.txt" 2>/dev/null
date -u +%FT%TZ
