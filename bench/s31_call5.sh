#!/usr/bin/env bash
# Session 31, call 5: the validation grid on the final build (h200-tuned,
# as refitted in session 30 on its call 4's grid): a second H200 grid, the
# independent check of that fit, with PGB's one-wave rule in both the
# operator and the model.
# carry: build/s31d.tgz (as call 4)
source bench/device_lib.sh
gj_unpack s31d
timeout 300 $G validate --profile h200-tuned --db "$OUT/validate.sqlite" > "$OUT/validate.txt" 2>"$OUT/validate.err"
echo "validate rc=$?"
head -40 "$OUT/validate.txt"
tar czf "$OUT/validate.tgz" -C "$OUT" validate.sqlite && rm "$OUT/validate.sqlite"
date -u +%FT%TZ
