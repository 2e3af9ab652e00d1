#!/usr/bin/env bash
# Session 28, call 3: PGB's aggregate over dense keys with Fibonacci homes
# (bench/dense_probe.cu) against murmur's random ones, tables at load 1/2
# and 0.85. carry: build/bench/dense_probe
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
date -u +%FT%TZ
timeout 240 build/bench/dense_probe 21:8:16384 22:8:19200 22:9:16384 24:10:19200 23:9:19200 | tee "$OUT/dense_probe.csv"
date -u +%FT%TZ
