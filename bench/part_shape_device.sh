#!/usr/bin/env bash
# The partition's tile shape (operators/join_api.cu partition_pairs;
# session 12): tests under the default, then for each GJ_JOIN_PART_SHAPE in
# SHAPES (default: 768 x 10; 384x15: the shape before; session 12 also ran
# shapes 1024x8 and 512x10x2, since removed): join_part_bench (W1's R side,
# 16 and 8 bits), PGB-TR/PGB-UR group phases (sum: 4-byte values; max,max: a packed
# pair; 4- and 8-byte keys), join_bench PHJ-TR/SMJ-TR on W1, W5; ROUNDS
# alternations. carry ["build/pt.tar.gz"] (build/pt: test_join,
# test_groupby, join_part_bench, join_bench, gjadvise, libcmocka.so.0).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
tar xzf build/pt.tar.gz -C build
D=build/pt; export LD_LIBRARY_PATH=$D
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
SHAPES=${SHAPES:-default 384x15}
if [ "${SKIP_TESTS:-0}" = 0 ]; then
    for t in test_join test_groupby; do
        timeout 300 $D/$t > "$OUT/$t.log" 2>&1
        echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/$t.log" | tr '\n' ' ')"
        grep -E "FAILED|wrong|Error|error" "$OUT/$t.log" | head -6
    done
fi
for v in $SHAPES; do echo "== part $v"; for b in 16 8; do
    PART_BITS=$b GJ_JOIN_PART_SHAPE=$v $D/join_part_bench 7 all custom 0 | grep -E "^(pack|rowid)" | sed "s/^/bits=$b /"
done; done
for r in $(seq 1 "${ROUNDS:-2}"); do for v in $SHAPES; do for a in sum max,max; do for kb in 4 8; do
    GJ_JOIN_PART_SHAPE=$v $D/gjadvise bench groupby --rows 2^28 --aggs $a --key-bytes $kb --sweep groups=2^17:2^21:16 \
        --impls PGB-TR,PGB-UR --repeat 5 --no-log 2>&1 | grep -v "^impl" | cut -d, -f1-2,4,6-8 | sed "s/^/r$r $v $a /"
done; done; done; done
for r in $(seq 1 "${ROUNDS:-2}"); do for v in $SHAPES; do echo "== join $v"
    GJ_JOIN_PART_SHAPE=$v JOIN_BENCH_IMPLS=PHJ-TR,SMJ-TR timeout 200 $D/join_bench 5 W1 W5 2>&1 | grep -E "^W[0-9] +[A-Z]" | cut -c1-60
done; done
date -u +%FT%TZ
