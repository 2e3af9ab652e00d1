#!/usr/bin/env bash
# Session 16's first H100 call (kind nvidia-h100-x1). Three changes to the
# joins' own radix partition (operators/join_partition.cuh, join_api.cu),
# predictions written before measuring:
# 1. S's payload pair leaves PHJ's partition as its two columns (split), so
#    the dense write does not unpack it: W1 PHJ-TR's materialize 1.77 ->
#    about 1.0 ms (2^27 x 16 B less at ~2.8 TB/s: -0.76 ms), W3/W4 alike;
#    W2 (compacting write) unchanged.
# 2. The histogram writes a bin's counts of 8 consecutive tiles as one
#    32-byte sector (was a partial sector a count): 0.23 -> ~0.18 ms a
#    pass, four passes on W1: -0.2 ms.
# 3. GJ_JOIN_PART_ORDER=dynamic: tiles handed out by a counter, so that
#    neighbouring tiles (which write the two halves of a bin's boundary
#    sectors) run together; ncu had 6% more DRAM bytes than needed on the
#    H100. Uncertain: 0 to -0.4 ms on W1.
# Baseline: HEAD before the changes (build/s16/base), same GPU, alternating.
# carry ["build/s16a.tgz"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s16a.tgz -C build
N=build/s16/new; B=build/s16/base
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader | tee "$OUT/gpu.txt"; date -u +%FT%TZ
(cd $N && for t in test_join test_groupby; do
    LD_LIBRARY_PATH=. timeout 300 ./$t > "$OUT/$t.txt" 2>&1; echo "$t rc=$? $(grep -E 'PASSED|FAILED' "$OUT/$t.txt" | tr '\n' ' ')"
done) | tee "$OUT/tests.txt"
echo "tests done at $(el) s"
timeout 150 $N/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4_new.txt"
echo "w1-w4 done at $(el) s"
for round in 1 2; do
    for cfg in base new dyn; do
        bin=$N/join_bench; env=x=1
        [ $cfg = base ] && bin=$B/join_bench
        [ $cfg = dyn ] && env=GJ_JOIN_PART_ORDER=dynamic
        env $env JOIN_BENCH_IMPLS=PHJ-TR,SMJ-TR timeout 60 $bin 7 W1 W2 W4 2>&1 |
            grep -E '^W[0-9] +(PHJ|SMJ)' | sed "s/^/$round $cfg /"
    done
done | tee "$OUT/ab.txt"
echo "A/B done at $(el) s"
for cfg in base new dyn; do
    bin=$N/join_part_bench; env=x=1
    [ $cfg = base ] && bin=$B/join_part_bench
    [ $cfg = dyn ] && env=GJ_JOIN_PART_ORDER=dynamic
    echo "== $cfg"; env $env timeout 60 $bin 7 all custom 2>&1 | tail -4
done | tee "$OUT/part_bench.txt"
echo "part bench done at $(el) s"
for cfg in base new dyn; do
    bin=$N/gjadvise; env=x=1
    [ $cfg = base ] && bin=$B/gjadvise
    [ $cfg = dyn ] && env=GJ_JOIN_PART_ORDER=dynamic
    env $env timeout 60 $bin bench groupby --rows 2^28 --aggs max,max --sweep groups=2^16:2^24:16 \
        --impls PGB-TR --repeat 7 --bg 2827.6 2>&1 | sed "s/^/$cfg,/"
done | tee "$OUT/pgb.csv"
echo "done at $(el) s"; date -u +%FT%TZ
