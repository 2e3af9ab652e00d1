#!/usr/bin/env bash
# Session 33, call 9: the validation grid with this session's build and model (h200-tuned,
# as refitted in session 30): PGB-UR by piece and the model of its
# gathers in waves; do the advisor's choices and regret hold?
#
# carry: build/s33e.tgz (built at acb47f5)
source bench/device_lib.sh
gj_unpack s33e
timeout 300 $G validate --profile h200-tuned --db "$OUT/validate.sqlite" > "$OUT/validate.txt" 2>"$OUT/validate.err"
echo "validate rc=$?"
head -40 "$OUT/validate.txt"
tar czf "$OUT/validate.tgz" -C "$OUT" validate.sqlite && rm "$OUT/validate.sqlite"
date -u +%FT%TZ
