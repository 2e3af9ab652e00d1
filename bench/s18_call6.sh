#!/usr/bin/env bash
# Session 18's sixth H100 call (kind nvidia-h100-x1): call 5's plain
# test_join ran past its 100 s (rc 124) while the same binary passed under
# compute-sanitizer; run it again with its log kept, twice, timed.
# carry ["build/s18c.tgz"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s18c.tgz -C build
D=build/vt
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for r in 1 2; do
    (cd $D && LD_LIBRARY_PATH=. timeout 110 ./test_join) > "$OUT/test_join_$r.txt" 2>&1
    echo "round $r rc=$? at $(el) s"; tail -4 "$OUT/test_join_$r.txt"
done
date -u +%FT%TZ
