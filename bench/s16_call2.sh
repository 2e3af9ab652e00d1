#!/usr/bin/env bash
# Session 16's second H100 call (kind nvidia-h100-x1): the dynamic tile
# order is now the default (GJ_JOIN_PART_ORDER=static the old one), its
# counters zeroed by the histogram kernel.
# 1. test_join, test_groupby on the new default;
# 2. join_bench 7 W1..W4, every implementation (issue 4's table);
# 3. PGB-TR at 2^16 / 2^20 / 2^24 groups: base (HEAD~1's parent: before
#    this session), new (dynamic), static, alternating, two rounds: call 1
#    had PGB slower after the histogram change at 2^16 and 2^24 (one
#    round, base first), faster at 2^20;
# 4. ncu kernel times: W1's R side partition (join_part_bench pack custom)
#    new and static; PGB-TR at 2^24 groups base and new (part_ kernels);
#    W2's PHJ-TR, every kernel (where its 1.7 ms materialize goes).
# carry ["build/s16b.tgz"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s16b.tgz -C build
N=build/s16/new; B=build/s16/base
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader | tee "$OUT/gpu.txt"; date -u +%FT%TZ
(cd $N && for t in test_join test_groupby; do
    LD_LIBRARY_PATH=. timeout 300 ./$t > "$OUT/$t.txt" 2>&1; echo "$t rc=$? $(grep -E 'PASSED|FAILED' "$OUT/$t.txt" | tr '\n' ' ')"
done) | tee "$OUT/tests.txt"
echo "tests done at $(el) s"
timeout 150 $N/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4.txt"
echo "w1-w4 done at $(el) s"
for round in 1 2; do
    for cfg in base new static; do
        bin=$N/gjadvise; env=x=1
        [ $cfg = base ] && bin=$B/gjadvise
        [ $cfg = static ] && env=GJ_JOIN_PART_ORDER=static
        env $env timeout 60 $bin bench groupby --rows 2^28 --aggs max,max --sweep groups=2^16:2^24:16 \
            --impls PGB-TR --repeat 7 --bg 2827.6 2>&1 | grep PGB | sed "s/^/$round,$cfg,/"
    done
done | tee "$OUT/pgb_ab.csv"
echo "pgb done at $(el) s"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
M="--metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum"
timeout 60 $NCU --clock-control none $M -k regex:'part_' -c 4 $N/join_part_bench 1 pack custom > "$OUT/ncu_part_new.txt" 2>&1
GJ_JOIN_PART_ORDER=static timeout 60 $NCU --clock-control none $M -k regex:'part_' -c 4 $N/join_part_bench 1 pack custom > "$OUT/ncu_part_static.txt" 2>&1
echo "ncu part done at $(el) s"
for cfg in base new; do
    bin=$N/gjadvise; [ $cfg = base ] && bin=$B/gjadvise
    timeout 90 $NCU --clock-control none $M -k regex:'part_|pgb' $bin run groupby --rows 2^28 --groups 2^24 \
        --aggs max,max --impl PGB-TR --repeat 1 > "$OUT/ncu_pgb_$cfg.txt" 2>&1
done
echo "ncu pgb done at $(el) s"
JOIN_BENCH_IMPLS=PHJ-TR timeout 120 $NCU --clock-control none --metrics gpu__time_duration.sum $N/join_bench 1 W2 > "$OUT/ncu_w2.txt" 2>&1
echo "ncu w2 done at $(el) s"
for f in "$OUT"/ncu_*.txt; do
    echo "== $f"; grep -E "^  [a-zA-Z_].*\(|gpu__time_duration|dram__bytes" "$f" | sed 's/  */ /g' | cut -c1-110 | head -60
done | head -230
echo "done at $(el) s"; date -u +%FT%TZ
