#!/usr/bin/env bash
# Session 15's closing H100 call (kind nvidia-h100-x1), on the final build
# (with the h100-measured / h100-tuned built-ins):
# 1. every test binary (test_cli's GPU branch wants the H100's built-in);
# 2. the README's commands on an H100 without a store: recommend, run join,
#    run groupby;
# 3. ncu of the radix partition's kernels on W1's R side (join_part_bench:
#    the own partition's histogram and its two scatter passes, then CUB's
#    onesweep passes), for the next step on the H100's transform: the own
#    scatter runs at 0.73-0.77 of CUB's pass here (0.94 on the H200).
# carry ["build/c4.tgz"] (the tests, libcmocka.so.0, gjadvise,
# join_part_bench, stripped). Returns $OUT/c4.tgz.
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/c4.tgz -C build
B=$PWD/build/c4; R=$OUT/c4; mkdir -p "$R"
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader | tee "$R/gpu.txt"
date -u +%FT%TZ | tee -a "$R/gpu.txt"
for t in $B/test_*; do
    (cd $B && GJ_BIN=$B/gjadvise LD_LIBRARY_PATH=. timeout 150 ./$(basename "$t")) > "$R/$(basename "$t").log" 2>&1
    echo "$(basename "$t") rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$R/$(basename "$t").log" | tr '\n' ' ')"
done
echo "tests done at $(el) s"
export GJADVISE_DB=/tmp/readme.db
for c in "recommend --match-ratio 0.3" "run join" "run groupby --rows 2^28 --groups 2^20 --aggs max,max" \
         "recommend --op groupby --rows 2^28 --groups 2^12 --aggs max,max"; do
    echo "\$ gjadvise $c"; timeout 60 $B/gjadvise $c 2>&1
done | tee "$R/readme.txt"
echo "readme done at $(el) s"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats"
timeout 100 $NCU --clock-control none $S -k regex:'part_' -c 4 $B/join_part_bench 1 pack custom > "$R/ncu_custom.txt" 2>&1
echo "ncu custom rc=$? at $(el) s"
timeout 100 $NCU --clock-control none $S -k regex:'Onesweep|Histogram' -c 3 $B/join_part_bench 1 pack cub > "$R/ncu_cub.txt" 2>&1
echo "ncu cub rc=$? at $(el) s"
grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|L2 Hit Rate|Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Block Size|Grid Size" \
    "$R"/ncu_*.txt | sed 's/  */ /g' | cut -c1-150 | head -90
(cd "$OUT" && tar czf c4.tgz c4 && rm -rf c4)
date -u +%FT%TZ
