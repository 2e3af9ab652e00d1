#!/usr/bin/env bash
# Session 29, call 1 (kind nvidia-h200): the validation grid on an H200,
# which the gather patch (bench/s28_gather_ws.patch) needs to refit
# h200-tuned's corrections on; the build is HEAD's (c5b1a52).
# carry: build/s29a.tgz
source bench/device_lib.sh
gj_unpack s29a
timeout 200 $G validate --profile h200-tuned --db "$OUT/validate.sqlite" > "$OUT/validate.txt" 2>"$OUT/validate.err"
echo "validate rc=$?"
head -40 "$OUT/validate.txt"
tar czf "$OUT/validate.tgz" -C "$OUT" validate.sqlite && rm "$OUT/validate.sqlite"
date -u +%FT%TZ
