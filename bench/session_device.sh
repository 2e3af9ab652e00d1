#!/usr/bin/env bash
# End-of-session device run: the GPU test binaries of TESTS_DIR (GJ_BIN set
# for those that drive the CLI), README's `gjadvise run join` example in a
# fresh store (so the a100-paper profile, as the README says), and with
# TPCH=1 the TPC-H SF 10 operators (bench/tpch/device.sh, RUN_OPS_FLAGS
# passed through). Everything is packed into $OUT/session.tgz.
# carry ["bin", TESTS_DIR] (and ".whl" for TPCH=1).
set -u
TOP=${OUT:-/tmp/out}
export OUT=$TOP/s
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader | tee "$OUT/gpu.txt"
date -u +%FT%TZ | tee -a "$OUT/gpu.txt"
for t in "${TESTS_DIR:-build/vt1}"/test_*; do
    [ -e "$t" ] || continue
    GJ_BIN=$PWD/bin/gjadvise timeout 300 "$t" > "$OUT/$(basename "$t").log" 2>&1
    echo "$(basename "$t") rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/$(basename "$t").log" | tr '\n' ' ')"
done
if [ "${RUN_JOIN:-1}" = 1 ]; then
    echo '$ gjadvise run join'
    GJADVISE_DB=/tmp/readme_example.db timeout 120 bin/gjadvise run join 2>&1 | tee "$OUT/run_join.txt"
fi
if [ "${TPCH:-0}" = 1 ]; then
    OUT=$OUT/tpch timeout 480 bash bench/tpch/device.sh 10 > "$OUT/tpch.log" 2>&1
    echo "tpch rc=$?"; tail -25 "$OUT/tpch.log"
fi
tar czf "$TOP/session.tgz" -C "$OUT" . && rm -rf "$OUT"
