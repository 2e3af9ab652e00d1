#!/usr/bin/env bash
# First command of a fresh checkout (README): install the Debian packages the
# build needs if any is missing, build everything, and ask for a plan.
set -euo pipefail
cd "$(dirname "$0")"

need=()
for pkg in libgsl-dev libsqlite3-dev libcmocka-dev make gcc python3-venv; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing ${need[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x "$CUDA_HOME/bin/nvcc" ]; then
    echo "setup: the CUDA Toolkit (nvcc, CUB) is required to build; install it or set CUDA_HOME" >&2
    exit 1
fi
# DuckDB for `make test` (tests/tpch_plans.py: TPC-H plans for gjadvise explain);
# 1.1.3 has the tpch extension built in, so nothing is downloaded at test time.
if ! .venv/bin/python -c 'import duckdb' >/dev/null 2>&1; then
    echo "setup: creating .venv with duckdb==1.1.3"
    python3 -m venv .venv
    .venv/bin/pip install -q duckdb==1.1.3
fi
make -j"$(nproc)" CUDA_HOME="$CUDA_HOME"
echo
echo "$ bin/gjadvise recommend --match-ratio 0.3"
bin/gjadvise recommend --match-ratio 0.3
