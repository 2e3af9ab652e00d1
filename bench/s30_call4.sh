#!/usr/bin/env bash
# Session 30, call 4: the final build (call 3's code): the CLI-driven GPU
# tests (test_expect, test_validate, test_gen, test_cli, GJ_BIN set), the
# validation grid (h200-tuned) for the replay, and run groupby's README
# defaults.
# carry: build/s30d.tgz (the same bin/gjadvise as s30c, with these tests)
source bench/device_lib.sh
gj_unpack s30d
export GJ_BIN=$PWD/$D/gjadvise
gj_tests expect validate gen cli
date -u +%FT%TZ
timeout 200 $G validate --profile h200-tuned --db "$OUT/validate.sqlite" > "$OUT/validate.txt" 2>"$OUT/validate.err"
echo "validate rc=$?"
head -30 "$OUT/validate.txt"
tar czf "$OUT/validate.tgz" -C "$OUT" validate.sqlite && rm "$OUT/validate.sqlite"
timeout 60 $G run groupby --no-log
timeout 60 $G run groupby --groups 2^24 --key-bytes 8 --check --no-log
date -u +%FT%TZ
