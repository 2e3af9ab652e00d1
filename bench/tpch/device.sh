#!/usr/bin/env bash
# The whole TPC-H device run, one call (bench/tpch/README.md):
#   bench/tpch/device.sh [SF ...]        default: 10
# Installs the carried DuckDB wheel (.whl/) unless duckdb imports, runs the
# --expect GPU tests, then for each scale factor: DuckDB's dbgen into memory and
# export.py (inputs, DuckDB's results and times) into /tmp/tpch/sfN, run_ops.py
# (every operator: the advisor's choice and every implementation, each checked
# against DuckDB), and removes the data. Writes under $OUT, per scale factor:
# log_sfN.txt (device, export and every gjadvise call), summary_sfN.txt (the
# table), summary_sfN.csv, runs_sfN.json. Every step has a timeout so that a hang still returns logs.
# Needs bin/gjadvise (and build/tests/test_expect) built on the dev machine.
set -u -o pipefail
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/tpch-out} PYTHONUNBUFFERED=1
mkdir -p "$OUT"
SFS=${*:-10}
if ! python3 -c 'import duckdb' 2>/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl ||
        { echo "device.sh: cannot install the DuckDB wheel from .whl/"; exit 1; }
    export PYTHONPATH=/tmp/site
fi
info() {
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
    echo "cpu cores: $(nproc); $(free -g | awk '/Mem:/ {print $2}') GiB RAM"
    python3 -c 'import duckdb, numpy; print("duckdb", duckdb.__version__, "numpy", numpy.__version__)'
    git log -1 --format='commit %h %s' 2>/dev/null || true
}
first=1
for sf in $SFS; do
    D=/tmp/tpch/sf$sf
    L="$OUT/log_sf$sf.txt"
    info > "$L" 2>&1
    cat "$L"
    if [ $first = 1 ] && [ -x build/tests/test_expect ]; then
        GJ_BIN=$PWD/bin/gjadvise timeout 120 build/tests/test_expect 2>&1 | tee -a "$L"
    fi
    first=0
    t0=$(date +%s)
    timeout "${EXPORT_TIMEOUT:-360}" python3 bench/tpch/export.py --sf "$sf" --out "$D" 2>&1 | tee -a "$L" ||
        { echo "device.sh: export sf=$sf failed" | tee -a "$L"; rm -rf "$D"; continue; }
    echo "export sf=$sf: $(( $(date +%s) - t0 )) s; $(du -sh "$D" | cut -f1) of files" | tee -a "$L"
    t0=$(date +%s)
    timeout "${RUN_TIMEOUT:-300}" python3 bench/tpch/run_ops.py --dir "$D" --out "$OUT" --tag "sf$sf" \
        ${RUN_OPS_FLAGS:-} 2>&1 | tee "$OUT/summary_sf$sf.txt"
    echo "gpu runs sf=$sf: rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$L"
    rm -rf "$D"
done
