#!/usr/bin/env bash
# Helpers for the device scripts (bench/sNN_callM.sh), sourced after a
# build was unpacked into build/vt (bench/s18_pack.sh NAME; carry
# build/NAME.tgz). Session 22's scripts spell these out; later ones source
# this file instead of copying the loops again.
#
#   source bench/device_lib.sh
#   gj_unpack s23a                 # build/s23a.tgz -> build/vt, G=gjadvise
#   gj_tests join groupby model    # side by side, results in $OUT/test_*.txt
#   gj_peaks                       # PGB's peaks at test_model's shapes
#   gj_rj GJ_JOIN_FILTER=off -- --impl PHJ-TR --match-ratio 0.25   # one run join, one line
#
# Every helper writes under $OUT (the device tool's folder) and prints one
# line a result.

gj_unpack() {
    tar xzf "build/$1.tgz" -C build
    D=build/vt
    G=$PWD/$D/gjadvise
    nvidia-smi --query-gpu=name,uuid --format=csv,noheader
    date -u +%FT%TZ
}

# gj_tests NAME...: build/vt/test_NAME side by side (300 s each), then a
# line each with cmocka's summary and any failure lines.
gj_tests() {
    local t
    for t in "$@"; do
        (cd "$D" && LD_LIBRARY_PATH=. timeout 300 "./test_$t" > "$OUT/test_$t.txt" 2>&1; echo "test_$t rc=$?") &
    done
    wait
    for t in "$@"; do
        echo "$t: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_$t.txt" | tr '\n' ' ')"
    done
    grep -E "FAIL|wrong|differ|declined|ERROR" "$OUT"/test_*.txt | head -20
}

# gj_peak KEY_BYTES AGGS ROWS GROUPS IMPL: one run's peak device memory
gj_peak() {
    timeout 60 "$G" run groupby --rows "$3" --groups "$4" --aggs "$2" --key-bytes "$1" --impl "$5" --repeat 1 \
        --no-log --json 2>&1 | grep -o '"peak_bytes":[0-9]*' | sed "s/^/$1,$2,$3,$4,$5,/"
}

# gj_peaks: PGB's peaks at tests/test_model.c's group-by shapes -> $OUT/peaks.txt
gj_peaks() {
    local i g
    for i in PGB-UR PGB-TR; do
        for g in 2^14 2^17 2^21 2^25; do gj_peak 4 max,max 2^28 "$g" "$i"; done
        for g in 2^14 2^21; do gj_peak 8 max,max 2^28 "$g" "$i"; done
        for g in 2^9 2^21; do gj_peak 4 sum,count,avg 2^26 "$g" "$i"; done
    done | tee "$OUT/peaks.txt"
}

# gj_rj [VAR=VALUE...] -- RUN_JOIN_FLAGS...: one `run join --repeat 7 --json`
# (h100-tuned, not logged) summed up on one line: impl, measured and
# predicted ms, filtered or not, peak bytes. Environment assignments before
# `--` apply to that run only (A/B switches). Session 27's scripts spelt
# this out three times.
gj_rj() {
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  env "${envs[@]}" timeout 120 "$G" run join --repeat 7 --no-log --json --profile h100-tuned "$@" 2>&1 |
    python3 -c 'import sys,json; d=json.loads(sys.stdin.read()); print(d["impl"], d["measured_ms"], d["predicted_ms"], "filtered" if d.get("filter") else "unfiltered", d.get("peak_bytes"))' 2>/dev/null ||
    echo "error: run join $*"
}
