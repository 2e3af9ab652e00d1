#!/usr/bin/env bash
# Phase times of a few TPC-H joins (issue 6: the operators the advisor
# misses): DuckDB export of OPS at SF (bench/tpch/export.py), then
# `gjadvise run join` (table output: measured and predicted by phase) for
# every implementation in IMPLS; NCU=1: instead, every kernel's duration
# (ncu, one run) for each implementation. carry ["bin", ".whl"].
set -u
cd "$(dirname "$0")/../.."
OPS=${OPS:-q5j2,q7j2,q18j1}
SF=${SF:-10}
IMPLS=${IMPLS:-PHJ-UR PHJ-TR SMJ-UR SMJ-TR NPHJ}
D=/tmp/tpch/ph$SF
if ! python3 -c 'import duckdb' 2>/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
    export PYTHONPATH=/tmp/site
fi
timeout 300 python3 bench/tpch/export.py --sf "$SF" --out "$D" --ops "$OPS" 2>&1 | tail -3
NCU_BIN=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
export NCU_BIN
python3 - "$D/manifest.json" "$IMPLS" "${NCU:-0}" <<'PY' > /tmp/cmds.sh
import json, sys
m = json.load(open(sys.argv[1]))
for op in m["ops"]:
    if op["kind"] != "join": continue
    d = sys.argv[1].rsplit("/", 1)[0]
    extra = "" if op["r_unique"] else f" --out-rows {max(1, op['out_rows'])}"
    for impl in sys.argv[2].split():
        print(f"echo '=== {op['name']} {impl} (|R| {op['r_rows']}, |S| {op['s_rows']}, out {op['out_rows']})'")
        run = (f"bin/gjadvise run join --r-file {d}/{op['r_file']} --s-file {d}/{op['s_file']} "
               f"--match-ratio {min(1.0, op['match_ratio']):.6g}{extra} --impl {impl} --profile h200-tuned")
        if sys.argv[3] == "1":
            print(f"GJADVISE_DB=/tmp/ph.db timeout 120 $NCU_BIN --clock-control none --metrics gpu__time_duration.sum "
                  f"--csv {run} --repeat 1 --no-log 2>/dev/null | python3 bench/tpch/ncu_sum.py")
        else:
            print(f"GJADVISE_DB=/tmp/ph.db timeout 120 {run} --repeat 7 2>&1 | sed -n '3,9p'")
PY
bash /tmp/cmds.sh
rm -rf "$D"
