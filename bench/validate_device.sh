#!/usr/bin/env bash
# Device-machine script for issue 6 (prebuilt binaries only): every test
# binary on the GPU, then the default validation grid with the calibrated
# profile, tune on its log, and the summaries that compare the untuned, the
# tuned and the paper's A100 profile on the same measurements.
# Logs, the store and the reports go under $OUT.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
G=bin/gjadvise
DB="$OUT/validate.db"
P=${PROFILE:-h200-measured}
nvidia-smi --query-gpu=name,uuid,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
if [ "${SKIP_TESTS:-0}" = 0 ]; then
    for t in ${TESTS_DIR:-build/tests}/test_*; do
        case "$t" in *.so*) continue ;; esac
        GJ_BIN=$PWD/$G timeout 300 "$t" > "$OUT/$(basename "$t").log" 2>&1
        echo "$(basename "$t") rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/$(basename "$t").log" | tr '\n' ' ')"
    done
fi
if [ "${CUB_PARTITION_TEST:-0}" = 1 ]; then
    echo "=== test_join with CUB's sort for the GFTR partition (the custom one is the default)"
    GJ_JOIN_PARTITION=cub timeout 300 ${TESTS_DIR:-build/tests}/test_join > "$OUT/test_join_cub.log" 2>&1
    echo "test_join (GJ_JOIN_PARTITION cub) rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/test_join_cub.log" | tr '\n' ' ')"
fi
echo "=== validate (untuned $P)"
timeout 420 $G validate --profile "$P" --db "$DB" --report "$OUT/report-untuned" > "$OUT/validate.txt" 2> "$OUT/validate.progress"
echo "validate rc=$?"
cat "$OUT/validate.txt"
echo "=== tune"
$G tune --profile "$P" --db "$DB" | tee "$OUT/tune.txt"
echo "=== replay: tuned, held-out only"
$G validate --replay --profile "$P" --db "$DB" --holdout --report "$OUT/report-tuned" | tee "$OUT/replay-tuned-holdout.txt"
echo "=== replay: tuned, every point"
$G validate --replay --profile "$P" --db "$DB" > "$OUT/replay-tuned.txt"; head -30 "$OUT/replay-tuned.txt"
echo "=== replay: untuned ($P@1), held-out only"
$G validate --replay --profile "$P@1" --db "$DB" --holdout > "$OUT/replay-untuned-holdout.txt" 2>&1 || \
    echo "(version refs not accepted by --profile)"
head -30 "$OUT/replay-untuned-holdout.txt"
echo "=== replay: a100-paper, held-out only"
$G validate --replay --profile a100-paper --db "$DB" --holdout > "$OUT/replay-a100-holdout.txt"
head -30 "$OUT/replay-a100-holdout.txt"
echo "=== recommend on this GPU picks the tuned profile"
$G recommend --match-ratio 0.3 --db "$DB" | head -4
# The device returns only a few files: pack everything into one.
tar czf /tmp/validate-out.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/validate-out.tgz "$OUT/"
