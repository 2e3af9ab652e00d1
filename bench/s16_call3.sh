#!/usr/bin/env bash
# Session 16's third H100 call (kind nvidia-h100-x1), same build as call 2
# (build/s16b.tgz), whose W1-W4 table and test_join log did not come back
# (over 8 files). Then why PGB-TR lost with this build: call 2 had its
# group phase at 2^16 and 2^24 groups slower than the base build under
# either tile order (2^16 3.46 -> 3.63-3.71 ms, 2^24 6.23-6.43 ->
# 6.74-6.94), faster at 2^20 with the dynamic one. ncu kernel times of the
# partition's kernels for base, new static, new dynamic at 2^16 and 2^24.
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s16b.tgz -C build
N=build/s16/new; B=build/s16/base
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader | tee "$OUT/gpu.txt"; date -u +%FT%TZ
(cd $N && LD_LIBRARY_PATH=. timeout 300 ./test_join 2>&1 | tail -25) > "$OUT/test_join.txt"
grep -E "PASSED|FAILED" "$OUT/test_join.txt"
echo "tests done at $(el) s"
timeout 150 $N/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4.txt"
echo "w1-w4 done at $(el) s"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
M="--metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size"
for cfg in base static dyn; do
    bin=$N/gjadvise; env=x=1
    [ $cfg = base ] && bin=$B/gjadvise
    [ $cfg = static ] && env=GJ_JOIN_PART_ORDER=static
    for g in 16 24; do
        echo "=== g=2^$g"
        env $env timeout 90 $NCU --clock-control none $M -k regex:'part_|pgb|Scan' $bin run groupby --rows 2^28 \
            --groups 2^$g --aggs max,max --impl PGB-TR --repeat 1 2>&1 |
            grep -E "^  [a-zA-Z_].*\(|gpu__time_duration|dram__bytes|launch__grid" | sed 's/  */ /g' | cut -c1-120
    done > "$OUT/ncu_pgb_$cfg.txt"
done
echo "ncu done at $(el) s"
for cfg in base static dyn; do echo "== $cfg"; grep -E "===|part_|duration" "$OUT/ncu_pgb_$cfg.txt" | cut -c1-90 | head -40; done
echo "done at $(el) s"; date -u +%FT%TZ
