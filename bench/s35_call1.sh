#!/usr/bin/env bash
# Session 35, call 1: (a) HGB's global-aggregate fold of up to two groups
# a warp, each found where two neighbouring lanes hold it
# (bench/patches/s34-hgb-fold-pairs.patch) against GJ_GB_FOLD=0; session
# 34 call 7's lane-0 fold: max,max Zipf 1.5 24.5 -> 16.9 ms, five aggs
# Zipf 2 43.9 -> 23.8. Predicted: Zipf 1.5 below 16.9 (a warp holds the
# hot group in ~12 of 32 lanes, so pairs find it in nearly every warp,
# where lane 0 held it 38% of the time: toward the ~2 ms of no
# one-by-one atomics), uniform level (a shuffle and a vote a try).
# (b) where k_pgb_merge's 0.32 ms at Zipf 1.5 goes (17 blocks, 4.0 M
# instructions: latency, not bandwidth): ncu sections on it, hashed and
# direct. (c) test_groupby and --check on the patched build.
# carry: build/s35a.tgz
source bench/device_lib.sh
gj_unpack s35a
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl HGB"
for a in max,max sum,min,max,count,avg; do for z in 0 1 1.5 2; do
  echo "HGB $a z$z: off $(GJ_GB_FOLD=0 timeout 60 $G $R --aggs $a --zipf $z | f)| pairs $(timeout 60 $G $R --aggs $a --zipf $z | f)"
done; done
date -u +%FT%TZ
(cd "$D" && LD_LIBRARY_PATH=. timeout 280 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby rc=$?" > "$OUT/test_rc.txt") &
TP=$!
for z in 1 1.5 2; do for fl in "" --float; do
  timeout 60 $G run groupby --rows 2^24 --groups 2^18 --zipf $z --aggs sum,min,max,count,avg $fl --impl HGB --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check HGB z$z $fl rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done; done
NCU=/usr/local/cuda/bin/ncu
for kr in unknown 2^20; do
  timeout 120 $NCU --kernel-name regex:k_pgb_merge --launch-count 1 --launch-skip 1 \
    --section SpeedOfLight --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
    $G run groupby --rows 2^26 --groups 2^20 --key-range $kr --zipf 1.5 --impl PGB-TR --repeat 2 --no-log > "$OUT/ncu_merge_$kr.txt" 2>&1
  echo "== ncu k_pgb_merge key-range $kr"
  grep -E "k_pgb_merge|Duration|Grid Size|Block Size|Throughput|Stall|Warp Cycles|Issued|Registers|Dynamic Shared|L2 Hit|Mem Busy|Max Bandwidth|Elapsed Cycles" "$OUT/ncu_merge_$kr.txt" | head -40
done
GJ_TRACE=1 timeout 60 $G run groupby --rows 2^26 --groups 2^20 --key-range unknown --zipf 1.5 --impl PGB-TR --repeat 1 --no-log 2>&1 | grep -E "trace|group " | tail -8
wait $TP
cat "$OUT/test_rc.txt"; grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"
date -u +%FT%TZ
