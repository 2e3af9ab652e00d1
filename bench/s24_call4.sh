#!/usr/bin/env bash
# Session 24, call 4: the validation grid (h100-tuned) on the final build
# (s24c; later commits changed comments only), its store packed.
# Carry ["build/s24c.tgz"].
set -u
source bench/device_lib.sh
gj_unpack s24c
timeout 400 $G validate --profile h100-tuned --db validate.sqlite > validate.txt 2>&1
echo "validate rc=$?"; grep -v "^validate: \[" validate.txt | sed -n 1,24p
tar czf "$OUT/validate.tgz" validate.sqlite validate.txt
date -u +%FT%TZ
