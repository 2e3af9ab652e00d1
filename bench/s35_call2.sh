#!/usr/bin/env bash
# Session 35, call 2: k_pgb_merge with 2^lc blocks a cut partition, each
# taking the keys of its class (pgb_class), against one block a partition
# (GJ_PGB_MERGE_SPLIT=0). Call 1's ncu: at Zipf 1.5 (2^26 rows, 2^20
# hashed groups, max,max) k_pgb_merge took 0.32 ms in 17 blocks, one of
# them with most of the work. Predicted: hashed Zipf 1.5 aggregate 0.70
# -> ~0.50 ms (8 blocks a partition: the hot block's instructions / 8,
# its reads unchanged); direct (0.09 ms merge, 76 blocks) -0.05; uniform
# and 2^28-row sweeps level (few or no cut partitions, or enough of them
# for lc = 0). Then test_groupby and --check runs on the build.
# carry: build/s35b.tgz
source bench/device_lib.sh
gj_unpack s35b
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for impl in PGB-TR PGB-UR; do for kr in unknown 2^20; do for z in 0 1 1.5 2; do
  R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl $impl --key-range $kr --zipf $z"
  echo "$impl kr=$kr z$z: one $(GJ_PGB_MERGE_SPLIT=0 timeout 60 $G $R | f)| split $(timeout 60 $G $R | f)"
done; done; done
date -u +%FT%TZ
for sp in 0 1; do
  GJ_PGB_MERGE_SPLIT=$sp timeout 200 $G bench groupby --rows 2^28 --aggs max,max --sweep groups=2^14:2^22:2 --impls PGB-TR,PGB-UR --repeat 7 --no-log > "$OUT/sweep_split$sp.csv" 2>"$OUT/sweep_split$sp.err"
  echo "sweep split=$sp rc=$?"; cat "$OUT/sweep_split$sp.csv"
done
date -u +%FT%TZ
GJ_TRACE=1 timeout 60 $G run groupby --rows 2^26 --groups 2^20 --key-range unknown --zipf 1.5 --impl PGB-TR --repeat 1 --no-log 2>&1 | grep -E "trace (partitioned|aggregated)"
(cd "$D" && LD_LIBRARY_PATH=. timeout 300 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby rc=$?" > "$OUT/test_rc.txt") &
TP=$!
for impl in PGB-TR PGB-UR; do for z in 1 1.5 2; do for v in "--key-range unknown" "--key-range 2^18" "--key-bytes 8 --key-range unknown" "--float --aggs sum,min,max,count,avg --key-range unknown"; do
  timeout 60 $G run groupby --rows 2^24 --groups 2^18 --zipf $z $v --impl $impl --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check $impl z$z $v rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done; done; done
wait $TP
cat "$OUT/test_rc.txt"; grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"; grep -E "FAIL|wrong" "$OUT/test_groupby.txt" | head
date -u +%FT%TZ
