#!/usr/bin/env bash
# Session 28, call 7: k_pgb_many's slots xor-folded (pgb_slot: dense keys'
# evenly spaced homes no longer share banks): test_groupby, then PGB old
# (cfa8f1d) against new at a few group counts. carry: build/s28c.tgz
source bench/device_lib.sh
gj_unpack s28c
(cd "$D" && LD_LIBRARY_PATH=. timeout 170 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby rc=$?")
grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"; grep -E "FAIL|wrong" "$OUT/test_groupby.txt" | head
O=$PWD/$D/gjadvise_old
for b in "$O" "$G"; do
  echo "== $(basename $b)"
  $b bench groupby --rows 2^26 --aggs sum,max --impls PGB-UR,PGB-TR --repeat 7 --no-log --sweep groups=2^10:2^14:4 | cut -d, -f1,5-9
  $b bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log --sweep groups=2^14:2^26:4 | cut -d, -f5-9
done
date -u +%FT%TZ
