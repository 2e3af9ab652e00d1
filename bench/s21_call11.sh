#!/usr/bin/env bash
# Session 21, call 11 (kind nvidia-h100-x1, carry ["build/s21i.tgz"]): the
# final build's GPU tests (test_join and test_groupby now share murmur3's
# finalisers from tests/testutil.h), side by side.
set -u
tar xzf build/s21i.tgz -C build
D=build/vt
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in join groupby; do
    (cd $D && LD_LIBRARY_PATH=. timeout 250 ./test_$t > "$OUT/test_$t.txt" 2>&1; echo "test_$t rc=$?") &
done
wait
for t in join groupby; do echo "$t: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_$t.txt" | tr '\n' ' ')"; done
date -u +%FT%TZ
