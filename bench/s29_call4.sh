#!/usr/bin/env bash
# Session 29, call 4: the validation grid with gb-groups-fine telling the
# keys' span (PGB's direct plan), for the replay and a refit of PGB's
# corrections; run groupby's defaults (2^12 groups, the span told) as the
# README shows them.
# carry: build/s29c.tgz (bin/gjadvise of 2e0b... the working tree)
source bench/device_lib.sh
gj_unpack s29c
timeout 200 $G validate --profile h100-tuned --db "$OUT/validate.sqlite" > "$OUT/validate.txt" 2>"$OUT/validate.err"
echo "validate rc=$?"
head -40 "$OUT/validate.txt"
tar czf "$OUT/validate.tgz" -C "$OUT" validate.sqlite && rm "$OUT/validate.sqlite"
timeout 60 $G run groupby --no-log
timeout 60 $G run groupby --groups 2^22 --check --no-log
date -u +%FT%TZ
