#!/usr/bin/env bash
# Session 34, call 6: the validation grid with the skew fold (pgb_lean_fold, f5a36b5)
# (h200-tuned as refitted in session 30; the model unchanged since session 33).
#
# carry: build/s34f.tgz (built at f5a36b5)
source bench/device_lib.sh
gj_unpack s34f
timeout 300 $G validate --profile h200-tuned --db "$OUT/validate.sqlite" > "$OUT/validate.txt" 2>"$OUT/validate.err"
echo "validate rc=$?"
head -40 "$OUT/validate.txt"
tar czf "$OUT/validate.tgz" -C "$OUT" validate.sqlite && rm "$OUT/validate.sqlite"
date -u +%FT%TZ
