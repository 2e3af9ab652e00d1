#!/usr/bin/env bash
# Device script (2026-11-22, bench/RESULTS.md "## Joins", "Session 3"): PHJ
# with a tiny build side (624 x 2^26, TPC-H Q18's shape; join_bench T1, T2)
# and W1..W4: the join tests (also with GJ_JOIN_PARTITION=cub), then
# join_bench with the default (custom) GFTR partition and PHJ with CUB's.
# The session's three calls ran earlier versions of this script: before /
# after binaries (join_bench_old, join_bench_v1) and ncu kernel times
# ($NCU, summ below): bench/phj_small_call1.log, bench/phj_small_calls23.log.
# Build here first (the whole build/ is too large to carry):
#   make BUILD=build-b BIN=build-b/bin/gjadvise build-b/lib/libgjadvise.a \
#        build-b/tests/test_join build-b/tests/test_gen
#   L="$(cc -print-file-name=libsqlite3.a) $(cc -print-file-name=libgsl.a) \
#      $(cc -print-file-name=libgslcblas.a) -L/usr/local/cuda/lib64 -lcudart_static \
#      -lstdc++ -lm -ldl -lrt -lpthread"
#   cc -Iinclude -I. -I/usr/local/cuda/include -O2 -std=c11 -D_POSIX_C_SOURCE=200809L \
#      -o build/probe-b/join_bench bench/join_bench.c build-b/lib/libgjadvise.a $L
#   join_bench_v1: the same, linked against a copy of the library whose
#   join_api.cu.o was built from the earlier commit (ar r).
#   cp build-b/tests/{test_join,test_gen,libcmocka.so.0} build/probe-b/
# then run it with carry ["build/probe-b"]; the log comes back as $OUT/log.txt.
D=build/probe-b
OUT=${OUT:-/tmp/phj_out}
mkdir -p "$OUT"
NCU="ncu --clock-control none -k regex:^(phj_|bounds_) --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum --csv --page raw"
# one line per kernel launch: name, time, DRAM bytes, occupancy, shared-memory load wavefronts
summ() {
    python3 -c '
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith(chr(34))))
h = rows[0]; idx = {n: i for i, n in enumerate(h)}
def g(r, n): return r[idx[n]].replace(",", "") if n in idx else "?"
for r in rows[2:]:
    if len(r) < len(h): continue
    name = g(r, "Kernel Name").split("(")[0].replace("void ", "")[-48:]
    print("%-48s %8s ns rd %10s wr %10s occ %6s lds_wf %9s conf %9s" % (name,
        g(r, "gpu__time_duration.sum"), g(r, "dram__bytes_read.sum"), g(r, "dram__bytes_write.sum"),
        g(r, "sm__warps_active.avg.pct_of_peak_sustained_active"),
        g(r, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
        g(r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")))
' "$1"
}
{
    echo "== machine"; nvidia-smi -L; date -u
    echo "== tests"
    for t in test_gen test_join; do
        timeout 90 $D/$t > $OUT/$t.log 2>&1; echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/$t.log | tr '\n' ' ')"
    done
    GJ_JOIN_PARTITION=cub timeout 90 $D/test_join > $OUT/test_join_cub.log 2>&1
    echo "test_join (GJ_JOIN_PARTITION=cub) rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/test_join_cub.log | tr '\n' ' ')"
    grep -h -E "FAILED|Failure|error" $OUT/test_*.log | head -20
    echo "== 7 runs (GFTR partition: the custom one, the default)"
    timeout 150 $D/join_bench 7 T1 T2 W1 W2 W3 W4
    echo "== PHJ with GJ_JOIN_PARTITION=cub, 7 runs"
    GJ_JOIN_PARTITION=cub JOIN_BENCH_IMPLS=PHJ-UR,PHJ-TR timeout 90 $D/join_bench 7 W1 W2 W3 W4
} 2>&1 | tee $OUT/log.txt
