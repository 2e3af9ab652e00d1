#!/usr/bin/env bash
# Session 15's third H100 call (kind nvidia-h100-x1). On the H100 the
# operators' own radix partition (bw_part_pair 1573-1655 GB/s, its
# histogram included) runs at 0.73-0.77 of CUB's onesweep pass for the same
# pair (bw_part_k4v8 2136-2144 GB/s); on the H200 it was 0.94 (2412 /
# 2577). So:
# 1. W1, W3, W4 with the GFTR joins and PHJ-UR under the default (own
#    partition, 768 x 10 tile), GJ_JOIN_PART_SHAPE=384x15 and
#    GJ_JOIN_PARTITION=cub, the three alternating, two rounds (join_bench,
#    median of 7, checksums across the implementations);
# 2. join_part_bench: W1's R side alone, own partition against CUB, pack and
#    row ids, with its row-for-row check;
# 3. session 14's owner-ring probe (never run: both kernels), a 2^24-row
#    run first so that a hang costs 30 s.
# carry ["build/c3.tgz"] (join_bench, join_part_bench, owner_probe,
# stripped).
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/c3.tgz -C build
B=build/c3
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader; date -u +%FT%TZ
for round in 1 2; do
    for cfg in x=1 GJ_JOIN_PART_SHAPE=384x15 GJ_JOIN_PARTITION=cub; do
        env $cfg JOIN_BENCH_IMPLS=PHJ-UR,PHJ-TR,SMJ-TR timeout 60 $B/join_bench 7 W1 W3 W4 2>&1 |
            grep -E '^W[0-9] +(PHJ|SMJ)' | sed "s/^/$round $cfg /"
    done
done | tee "$OUT/part_ab.txt"
echo "A/B done at $(el) s"
timeout 60 $B/join_part_bench 7 all both check 2>&1 | tail -12 | tee "$OUT/join_part_bench.txt"
echo "join_part_bench done at $(el) s"
if timeout 30 $B/owner_probe 24 15 16 > "$OUT/owner_small.txt" 2>&1; then
    cat "$OUT/owner_small.txt" | tail -6
    timeout 120 $B/owner_probe 28 15 21 | tee "$OUT/owner_probe.csv"
else
    echo "owner_probe at 2^24 rows: rc=$? (a hang or an error); the 2^28 run skipped"; tail -5 "$OUT/owner_small.txt"
fi
echo "done at $(el) s"; date -u +%FT%TZ
