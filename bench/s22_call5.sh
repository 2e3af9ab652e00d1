#!/usr/bin/env bash
# Session 22, call 5: what would one 10-bit partition pass cost? (PGB takes
# two passes from 2^23 groups with 4-byte keys, 2^22 with 8-byte: 6.3 and
# 8.1 ms group phases against 3.1 and 3.8 for one 8-bit pass, call 4.)
# bench/bits_probe now runs 9 and 10 bits in 1024 x 8 tiles too (a thread a
# bin). Then the validation grid again, its store packed (call 4's did not
# come back: too many files). Kind nvidia-h100-x1, carry
# ["build/s22d.tgz", "build/bench/bits_probe"].
# Predicted: 10 bits ~1.2-1.5x the 8-bit pass (session 20: 9 bits 1.185x);
# with the claim (no histogram) one 10-bit pass would save ~1.5 ms a
# two-pass group phase.
set -u
tar xzf build/s22d.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
timeout 200 build/bench/bits_probe 28 | tee "$OUT/bits_probe.txt"
date -u +%FT%TZ
timeout 200 $G validate --profile h100-tuned --db validate.sqlite > validate.txt 2>&1
echo "validate rc=$?"; grep -v "^validate: \[" validate.txt | sed -n 1,22p
tar czf "$OUT/validate.tgz" validate.sqlite validate.txt
date -u +%FT%TZ
