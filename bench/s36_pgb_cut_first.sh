#!/usr/bin/env bash
# For the next session (prepared in session 35, never run): PGB-TR's work
# items with the cut partitions' pieces first (GJ_PGB_ORDER=cut-first,
# bench/patches/s35-pgb-cut-first.patch applied) against partition order.
# Why: with one block an SM and whole partitions of up to 1.25x the
# average (gj_pgb_piece_rows), skew cuts the hot keys' partitions into
# pieces of T rows that, launched in partition order, can start behind
# whole partitions and end a wave late (2^26 rows, 2^20 hashed groups,
# Zipf 1: ~128 whole partitions of ~383K rows and ~44 pieces of up to
# 655K on 132 SMs: ~1040K rows' makespan in partition order at worst,
# ~770K cut-first). Predicted: PGB-TR's hashed aggregate at Zipf 1-2
# 0.63-0.70 -> ~0.5 ms; uniform unchanged (no whole partition beside cut
# ones: the order is not taken). Build: apply the patch, compile
# operators/groupby_api.cu, pack gjadvise and test_groupby as s36a.
# carry: build/s36a.tgz
source bench/device_lib.sh
gj_unpack s36a
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for kr in unknown 2^20; do for z in 0 0.5 1 1.5 2; do
  R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl PGB-TR --key-range $kr --zipf $z"
  echo "PGB-TR kr=$kr z$z (total agg): partition $(timeout 60 $G $R | f)| cut-first $(GJ_PGB_ORDER=cut-first timeout 60 $G $R | f)"
done; done
for z in 1 1.5 2; do for v in "--key-range unknown" "--key-range 2^18" "--key-bytes 8 --key-range unknown" "--float --aggs sum,min,max,count,avg --key-range unknown"; do
  GJ_PGB_ORDER=cut-first timeout 60 $G run groupby --rows 2^24 --groups 2^18 --zipf $z $v --impl PGB-TR --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check cut-first z$z $v rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done; done
(cd "$D" && LD_LIBRARY_PATH=. GJ_PGB_ORDER=cut-first timeout 300 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby (cut-first) rc=$?")
grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"
date -u +%FT%TZ
