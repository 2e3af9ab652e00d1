#!/usr/bin/env bash
# Session 36, call 5: k_pgb_merge's largest block sets its time. Call 4's
# ncu at Zipf 1 (2^26 rows, 2^20 hashed groups, PGB-TR): 36 blocks, the
# kernel as long as its longest (298K of 300K cycles), the hottest key's
# partition's 15 pieces (15 x 196 KB) read by one block at ~15 GB/s.
# Partitions of more than GJ_PGB_MERGE_MAX pieces merge through the global
# table instead, each piece's groups at the end of its own block (the
# hottest at Zipf 1.5, 39 pieces, already does). Build s36d: the most
# pieces k_pgb_merge takes read from GJ_PGB_MERGE_MAX (A/B; default 16).
# Predicted: 4 or 1 in place of 16: the aggregate at Zipf 1-2 0.61-0.66 ->
# ~0.5 ms (the merge's 0.17 ms mostly gone, the global merges ~100K groups,
# spread over the pieces' blocks); uniform 2^20 level (nothing cut);
# uniform 2^16-2^18 at 2^28 rows, whose partitions are cut into pieces
# (two tables an SM), to be seen. Then --check and test_groupby with
# GJ_PGB_MERGE_MAX=2 (both paths on the test's small inputs).
# carry: build/s36d.tgz
source bench/device_lib.sh
gj_unpack s36d
f() { grep -o '"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for c in "unknown 0" "unknown 1" "unknown 1.5" "unknown 2" "2^20 1" "2^20 1.5"; do
  set -- $c
  R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl PGB-TR --key-range $1 --zipf $2"
  echo "agg kr=$1 z$2: 16 $(timeout 20 $G $R | f)| 4 $(GJ_PGB_MERGE_MAX=4 timeout 20 $G $R | f)| 1 $(GJ_PGB_MERGE_MAX=1 timeout 20 $G $R | f)| 16 $(timeout 20 $G $R | f)"
done
for g in 2^16 2^18; do for i in PGB-TR PGB-UR; do
  R="run groupby --rows 2^28 --groups $g --repeat 7 --no-log --json --impl $i --key-range unknown"
  echo "uniform 2^28 $g $i agg: 16 $(timeout 30 $G $R | f)| 4 $(GJ_PGB_MERGE_MAX=4 timeout 30 $G $R | f)| 1 $(GJ_PGB_MERGE_MAX=1 timeout 30 $G $R | f)"
done; done
date -u +%FT%TZ
(cd "$D" && LD_LIBRARY_PATH=. GJ_PGB_MERGE_MAX=2 timeout 300 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby (GJ_PGB_MERGE_MAX=2) rc=$?" > "$OUT/test_rc.txt") &
TP=$!
for m in 1 4; do for z in 1 2; do for v in "--key-range unknown" "--key-range 2^18" "--key-bytes 8 --key-range unknown" "--float --aggs sum,min,max,count,avg --key-range unknown"; do
  GJ_PGB_MERGE_MAX=$m timeout 60 $G run groupby --rows 2^24 --groups 2^18 --zipf $z $v --impl PGB-TR --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check max=$m z$z $v rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done; done; done
GJ_PGB_MERGE_MAX=1 timeout 60 $G run groupby --rows 2^24 --groups 2^18 --zipf 1 --impl PGB-UR --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
echo "check max=1 PGB-UR z1 rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
wait $TP
cat "$OUT/test_rc.txt"; grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"; grep -E "FAIL|wrong" "$OUT/test_groupby.txt" | head
date -u +%FT%TZ
