#!/usr/bin/env bash
# Device-machine script: join sweeps for the autotuner (CSV under $OUT), all
# five implementations, measured and predicted. Prebuilt bin/gjadvise only.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
G=bin/gjadvise
DB="$OUT/gj.db"
R=${REPEAT:-7}
build/tests/test_colfile > "$OUT/test_colfile.log" 2>&1; echo "test_colfile rc=$?"
run() { # name, args...
    local name=$1; shift
    timeout 150 $G bench join "$@" --repeat "$R" --db "$DB" > "$OUT/$name.csv" 2> "$OUT/$name.err"
    echo "$name rc=$? rows=$(($(wc -l < "$OUT/$name.csv") - 1))"; tail -2 "$OUT/$name.err"
}
run sweep_zipf --sweep zipf=0:1.5:0.25 --r-rows 2^24 --s-rows 2^24
run sweep_payloads --sweep payloads=0:8:2 --r-rows 2^24 --s-rows 2^24
run sweep_r_rows --sweep r-rows=2^16:2^26:4 --s-rows 2^26
run sweep_match_8b --sweep match-ratio=0.1:1:0.3 --r-rows 2^24 --s-rows 2^24 --key-bytes 8 --payload-bytes 8
for f in "$OUT"/sweep_*.csv; do echo "== $f"; cut -d, -f1,3,12,13,17,25 "$f" | column -t -s, | head -40; done
