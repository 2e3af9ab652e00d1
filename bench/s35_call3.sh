#!/usr/bin/env bash
# Session 35, call 3: k_pgb_merge with 1024 threads a block (one block an
# SM: its table of up to 196 KB leaves room for no second), optionally
# prefetching each thread's next quad into the L2 (GJ_PGB_MERGE_PF=1),
# against 512 threads (GJ_PGB_MERGE_THREADS=512, as before). Call 2: the
# class split left the Zipf 1.5 aggregate level, so the merge is bound by
# each block's reads of its partition's pieces (16 warps, three 16-byte
# loads in flight a thread), not by its atomics. Predicted: twice the warps
# halve the merge (0.32 -> ~0.16 ms: hashed Zipf 1.5 aggregate 0.76 ->
# ~0.60); the prefetch a further part of the rest; uniform level.
# carry: build/s35c.tgz
source bench/device_lib.sh
gj_unpack s35c
f() { grep -o '"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for impl in PGB-TR PGB-UR; do for kr in unknown 2^20; do for z in 0 1 1.5 2; do
  R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl $impl --key-range $kr --zipf $z"
  echo "$impl kr=$kr z$z agg: 512 $(GJ_PGB_MERGE_THREADS=512 timeout 60 $G $R | f)| 1024 $(timeout 60 $G $R | f)| 1024+pf $(GJ_PGB_MERGE_PF=1 timeout 60 $G $R | f)| 512 $(GJ_PGB_MERGE_THREADS=512 timeout 60 $G $R | f)"
done; done; done
date -u +%FT%TZ
for v in "GJ_PGB_MERGE_THREADS=512" "GJ_PGB_MERGE_THREADS=1024" "GJ_PGB_MERGE_PF=1"; do
  env $v timeout 200 $G bench groupby --rows 2^28 --aggs max,max --sweep groups=2^14:2^22:2 --impls PGB-TR,PGB-UR --repeat 7 --no-log 2>/dev/null | cut -d, -f1,4,6,8 | tr '\n' ' '
  echo " <- sweep $v (impl,groups,median,aggregate)"
done
NCU=/usr/local/cuda/bin/ncu
for v in "GJ_PGB_MERGE_THREADS=512" "GJ_PGB_MERGE_THREADS=1024" "GJ_PGB_MERGE_PF=1"; do
  env $v timeout 100 $NCU --kernel-name regex:k_pgb_merge --launch-count 1 --launch-skip 1 --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum \
    $G run groupby --rows 2^26 --groups 2^20 --key-range unknown --zipf 1.5 --impl PGB-TR --repeat 2 --no-log 2>&1 | grep -E "^\s+(gpu__|dram__|lts__|smsp__)" | tr -s ' ' | tr '\n' ';'
  echo " <- ncu k_pgb_merge $v"
done
date -u +%FT%TZ
(cd "$D" && LD_LIBRARY_PATH=. timeout 300 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby rc=$?" > "$OUT/test_rc.txt") &
TP=$!
for impl in PGB-TR PGB-UR; do for z in 1.5 2; do for v in "--key-range unknown" "--key-range 2^18" "--key-bytes 8 --key-range unknown" "--float --aggs sum,min,max,count,avg --key-range unknown"; do
  GJ_PGB_MERGE_PF=1 timeout 60 $G run groupby --rows 2^24 --groups 2^18 --zipf $z $v --impl $impl --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check pf $impl z$z $v rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done; done; done
wait $TP
cat "$OUT/test_rc.txt"; grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"; grep -E "FAIL|wrong" "$OUT/test_groupby.txt" | head
date -u +%FT%TZ
