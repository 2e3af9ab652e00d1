#!/usr/bin/env bash
# Device-machine script for the joins (issue 4): prebuilt binaries only.
# 1. correctness: tests/test_gen and tests/test_join against the CPU reference
# 2. CLI: run join from CSV files and at 2^20 with --check, every implementation
# 3. timings: bench/join_bench (W1..W5), median of REPEAT runs per implementation
# 4. bench join --sweep match-ratio (CSV for the autotuner)
# Logs under $OUT.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
REPEAT=${REPEAT:-7}
G=bin/gjadvise
DB="$OUT/gj.db"
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
for t in build/tests/test_gen build/tests/test_join; do
    echo "=== $t"
    timeout 150 "$t" > "$OUT/$(basename $t).log" 2>&1; echo "rc=$?"
    grep -E "PASSED|FAILED|ERROR|LINE|rows vs" "$OUT/$(basename $t).log" | tail -12
done
if [ "${SKIP_CLI:-0}" = 0 ]; then
echo "=== CLI: CSV inputs, --check"
printf 'key,a,b\n1,10,11\n2,20,21\n2,22,23\n5,50,51\n4294967295,7,8\n' > "$OUT/r.csv"
printf 'key,x\n2,200\n5,500\n5,501\n9,900\n4294967295,1\n' > "$OUT/s.csv"
for i in PHJ-UR PHJ-TR SMJ-UR SMJ-TR NPHJ; do
    $G run join --r-file "$OUT/r.csv" --s-file "$OUT/s.csv" --impl $i --check --repeat 3 --db "$DB" 2>&1 | tail -2 | tr '\n' ' '; echo " rc=$?"
done
echo "=== CLI: 2^20, --check, every implementation and auto"
for i in PHJ-UR PHJ-TR SMJ-UR SMJ-TR NPHJ auto; do
    timeout 60 $G run join --r-rows 2^20 --s-rows 2^21 --match-ratio 0.5 --zipf 0.5 --impl $i --check --repeat 3 --db "$DB" --json 2>&1 | tail -1
done
timeout 60 $G run join --r-rows 2^18 --s-rows 2^18 --out-rows 2^20 --key-bytes 8 --payload-bytes 8 --key-offset 0xF000000000000000 --impl PHJ-TR --check --repeat 3 --db "$DB" 2>&1 | tail -3
echo "=== CLI: W1 auto (table)"
timeout 60 $G run join --db "$DB" 2>&1
fi
echo "=== join_bench $REPEAT ${WORKLOADS:-W1 W2 W3 W4 W5}"
timeout ${BENCH_TIMEOUT:-200} build/bench/join_bench "$REPEAT" ${WORKLOADS:-W1 W2 W3 W4 W5} 2>&1 | tee "$OUT/join_bench.log"
if [ "${SKIP_SWEEP:-0}" = 0 ]; then
echo "=== bench join --sweep match-ratio=0.05:1:0.05 at 2^24 x 2^24"
timeout 120 $G bench join --sweep match-ratio=0.05:1:0.05 --r-rows 2^24 --s-rows 2^24 --repeat "$REPEAT" --db "$DB" > "$OUT/sweep_match_ratio.csv" 2> "$OUT/sweep.err"
echo "rc=$?"; head -3 "$OUT/sweep_match_ratio.csv"; wc -l "$OUT/sweep_match_ratio.csv"; tail -3 "$OUT/sweep.err"
fi
