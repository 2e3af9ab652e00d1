#!/usr/bin/env bash
# Session 20, call 7 (kind nvidia-h100-x1), carry ["build/s20a.tgz"]: the
# validation grid with PGB's wide pass, predicted by the shipped
# h100-tuned profile (the store comes back for replays).
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s20a.tgz -C build
G=$PWD/build/vt/gjadvise; V=$OUT/validate.sqlite
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
timeout 400 $G validate --profile h100-tuned --db "$V" > "$OUT/validate.txt" 2>&1
echo "validate rc=$? at $(el) s"; grep -v "^validate: \[" "$OUT/validate.txt" | sed -n 1,30p
date -u +%FT%TZ
