#!/usr/bin/env bash
# Session 20, call 10 (kind nvidia-h100-x1), carry ["build/s20d.tgz"]: the
# final build: test_join, test_groupby; the two probes whose input and
# linear probe moved into bench/probe_common.cuh, each checked against its
# CPU pass (cluster_probe at 16384 groups a partition).
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s20d.tgz -C build
D=build/vt
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in test_join test_groupby; do
    (cd $D && LD_LIBRARY_PATH=. timeout 170 ./$t) > "$OUT/$t.txt" 2>&1
    echo "$t rc=$? at $(el) s: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/$t.txt" | tr '\n' ' ')" | tee -a "$OUT/tests.txt"
done
timeout 60 $D/cluster_probe 16384 2>&1 | tee "$OUT/cluster_probe.csv"
timeout 150 $D/pgbtable_probe 2>&1 | tee "$OUT/pgbtable_probe.csv"
echo "done at $(el) s"; date -u +%FT%TZ
