#!/usr/bin/env bash
# Issues 4's and 5's benchmarks where they are defined, on an H100 (kind
# nvidia-h100-x1; never lent to this project so far), in one call: each
# step is capped (240 + 150 + 2 x 90 s) so that the call ends inside its
# 10 minutes and the results are packed even when a step runs out. Build
# first (make; make bench-tools) and carry ["bin", "build/bench/join_bench"].
# 1. `gjadvise calibrate` (one full run) into a fresh store, profile "gpu":
#    the H100's B_G (bw_seq), B_R and the rest, as JSON;
# 2. W1-W4 with every join (join_bench: median of 7, CUDA events, inputs on
#    the GPU, output materialised, checksums across the five, B_G from its
#    own copy), issue 4's table;
# 3. the group-by workload of paper 000 Sec. 5.2.1 (2^28 rows, max,max),
#    every implementation, 4- then 8-byte keys, g = 2^1..2^25 in steps of
#    2^2, median of 7, predicted by the calibrated profile, floors at its
#    bw_seq: issue 5's tables.
# Everything is packed into $OUT/h100.tgz (the device returns 8 files).
set -u
TOP=${OUT:-/tmp/out}
D=$TOP/h100; mkdir -p "$D"
DB=$D/gj.db
nvidia-smi --query-gpu=name,uuid,memory.total,clocks.sm,clocks.mem --format=csv,noheader | tee "$D/gpu.txt"
date -u +%FT%TZ | tee -a "$D/gpu.txt"
timeout 240 bin/gjadvise calibrate --db "$DB" --name gpu --json > "$D/calibrate.json" 2> "$D/calibrate.log"
echo "calibrate rc=$?"
BG=$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print([m['value'] for m in d['measurements'] if m['key'] == 'bw_seq'][0])" "$D/calibrate.json" 2>/dev/null)
echo "B_G (bw_seq) = ${BG:-not measured} GB/s"
PROF=gpu; [ -n "$BG" ] || PROF=a100-paper # no calibration: the paper's A100 predicts
timeout 150 build/bench/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$D/joins.txt" | tail -25
for kb in 4 8; do
    timeout 90 bin/gjadvise bench groupby --db "$DB" --profile $PROF --rows 2^28 \
        --aggs max,max --key-bytes $kb --sweep groups=2^1:2^26:4 --impls all --repeat 7 ${BG:+--bg $BG} \
        --no-log > "$D/groupby_k$kb.csv" 2> "$D/groupby_k$kb.err"
    echo "group-by, $kb-byte keys: rc=$?"; cut -d, -f1,4,6 "$D/groupby_k$kb.csv" | head -3
done
date -u +%FT%TZ | tee -a "$D/gpu.txt"
tar czf "$TOP/h100.tgz" -C "$D" . && rm -rf "$D"
