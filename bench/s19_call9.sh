#!/usr/bin/env bash
# Prepared in session 19, NOT RUN (the device time was spent): the
# two-tile scatter with its split store a template argument, one store
# loop a kernel (bench/s19_pair_split.patch: `git apply` it, then build
# build/vt9 with test_join, libcmocka.so.0, join_bench, pairtile_probe and
# a pairtile_old built from commit 056bc70's tree, as RESULTS session 19
# says). Kind nvidia-h100-x1, carry ["build/vt9"]: the probe's view
# against the probe's old copy (same GPU, 2^27 and 2^28 rows), test_join,
# join_bench 7 W1..W4 (PHJ-TR, SMJ-TR). Land the patch only if test_join
# passes (also under memcheck) and the joins gain.
D=build/vt9
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for a in "27 8" "28 8"; do for b in old probe; do echo "== $b $a"; timeout 30 $D/pairtile_$b $a | grep -E "^part_scatter|^pair|^outputs"; done; done 2>&1 | tee $OUT/probe.txt
(cd $D && LD_LIBRARY_PATH=. timeout 110 ./test_join) > $OUT/test_join.txt 2>&1
echo "test_join rc=$?: $(grep -E '^\[  (PASSED|FAILED)' $OUT/test_join.txt | tr '\n' ' ')"
JOIN_BENCH_IMPLS=PHJ-TR,SMJ-TR timeout 45 $D/join_bench 7 W1 W2 W3 W4 2>&1 | grep -E "^W[0-9] " | grep -v inputs | tee $OUT/w.txt
date -u +%FT%TZ
