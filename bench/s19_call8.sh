#!/usr/bin/env bash
# Session 19, calls 7 and 8 (kind nvidia-h100-x1), carry
# ["build/bench/pairtile_probe", "build/bench/pairtile_old"]: the probe
# measuring the operators' part_scatter2_kernel (pairtile_probe, this
# commit) against the probe's own copy before it moved (pairtile_old:
# bench/pairtile_probe.cu built from commit 056bc70's tree), same GPU,
# alternating, two rounds each at 2^27 and 2^28 rows, 8 bits. Call 7 ran
# only the first loop's pairtile_probe lines.
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for a in "27 8" "28 8"; do for b in old probe old probe; do echo "== $b $a"; timeout 60 build/bench/pairtile_$b $a | grep -E "^part_scatter|^pair|^outputs"; done; done 2>&1 | tee $OUT/probe_ab.txt
