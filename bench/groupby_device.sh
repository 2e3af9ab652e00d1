#!/usr/bin/env bash
# Device-machine script for the group-by operators (issue 5): prebuilt
# binaries only. Build here first:
#   make build/tests/test_groupby build/lib/libgjadvise.a build/obj/cli/run_groupby.o build/obj/cli/util.o
#   cc -Iinclude -I. -I/usr/local/cuda/include -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O2 -std=c11 \
#      -o build/bench/groupby_bench bench/groupby_bench.c build/obj/cli/run_groupby.o build/obj/cli/util.o \
#      build/lib/libgjadvise.a $(cc -print-file-name=libsqlite3.a) $(cc -print-file-name=libgsl.a) \
#      $(cc -print-file-name=libgslcblas.a) -L/usr/local/cuda/lib64 -lcudart_static -lstdc++ -lm -ldl -lrt -lpthread
# 1. correctness: tests/test_groupby against the CPU reference
# 2. B_G: device-to-device copy (read + write)
# 3. paper 000 Sec. 5.2.1 sweep: |R| = 2^28, two 4-byte int payloads, max,max,
#    g = 2^1..2^26 step 2^2, every implementation, median of REPEAT runs;
#    4-byte keys, then 8-byte keys. CSV under $OUT.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
REPEAT=${REPEAT:-7}
ROWS=${ROWS:-2^28}
export GJADVISE_DB=/tmp/gj_groupby.db
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
if [ "${SKIP_TESTS:-0}" = 0 ]; then
  echo "=== test_groupby"
  timeout ${TEST_TIMEOUT:-150} build/tests/test_groupby > "$OUT/test_groupby.log" 2>&1; echo "rc=$?"
  grep -E "PASSED|FAILED|SKIPPED|ERROR|FAIL|differs|groups|rc=" "$OUT/test_groupby.log" | head -40
fi
echo "=== B_G"
build/bench/groupby_bench bg $((4<<30)) | tee "$OUT/bg.txt"
BG=$(sed -n 's/.*ms, \([0-9.]*\) GB\/s.*/\1/p' "$OUT/bg.txt")
for KB in ${KEYS:-4 8}; do
  echo "=== sweep key_bytes=$KB rows=$ROWS impls=${IMPLS:-all}"
  timeout ${SWEEP_TIMEOUT:-150} build/bench/groupby_bench bench --rows "$ROWS" --aggs max,max --key-bytes $KB \
      --sweep groups=${GLO:-2^1}:${GHI:-2^26}:4 --impls ${IMPLS:-all} --repeat $REPEAT --bg "$BG" --no-log \
      > "$OUT/sweep_k$KB.csv" 2> "$OUT/sweep_k$KB.err"; echo "rc=$?"
  cut -d, -f1,4,5,6,7,8,13,14 "$OUT/sweep_k$KB.csv" | head -120
  tail -3 "$OUT/sweep_k$KB.err"
done
if [ "${ZIPF:-1}" = 1 ]; then
  echo "=== Zipf 1.5, g = 2^12, 4-byte keys"
  timeout 60 build/bench/groupby_bench bench --rows "$ROWS" --aggs max,max --zipf 1.5 --sweep groups=2^12:2^12 \
      --impls all --repeat $REPEAT --bg "$BG" --no-log > "$OUT/zipf.csv" 2>&1; echo "rc=$?"
  cut -d, -f1,4,5,6,7,8,13 "$OUT/zipf.csv"
fi
if [ "${CHECKRUN:-1}" = 1 ]; then
  echo "=== run groupby --check, 2^24 rows"
  for spec in "HGB 2^12 4" "PGB-TR 2^20 4" "SGB-DE-TR 2^16 8"; do
    set -- $spec
    timeout 60 build/bench/groupby_bench run --rows 2^24 --groups $2 --key-bytes $3 --impl $1 --check --repeat 3 \
        --no-log --profile a100-paper 2>&1 | tail -2
  done
fi
