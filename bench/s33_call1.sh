#!/usr/bin/env bash
# Session 33, call 1: PGB-UR's work items by piece, then partition
# (PgbArgs.order), against partition order (GJ_PGB_ORDER=partition) and
# against session 31's build (gjadvise_main, HEAD ae5eeb9). Predicted:
# PGB-UR 2^20 4-byte 13.1 -> ~6.4 ms (session 31 call 8: 2^22's pieces cut
# in partition order 4.37 -> 12.36 ms aggregate). PGB-TR must not move
# (it runs in partition order; only k_pgb_many's registers may).
# Then --check at full size where partitions are cut, and test_groupby.
# carry: build/s33a.tgz
source bench/device_lib.sh
gj_unpack s33a
M=$PWD/$D/gjadvise_main
which ncu nsys 2>&1 | head -2
S="bench groupby --rows 2^28 --aggs max,max --sweep groups=2^16:2^24:2 --impls PGB-UR,PGB-TR --repeat 7 --no-log"
for k in 4 8; do
  timeout 100 $G $S --key-bytes $k > "$OUT/piece_k$k.csv"
  GJ_PGB_ORDER=partition timeout 100 $G $S --key-bytes $k > "$OUT/partition_k$k.csv"
  timeout 100 $M $S --key-bytes $k > "$OUT/main_k$k.csv"
  python3 - "$OUT" $k <<'PY'
import csv, sys
out, k = sys.argv[1], sys.argv[2]
rows = {}
for tag in ("piece", "partition", "main"):
    for r in csv.DictReader(open(f"{out}/{tag}_k{k}.csv")):
        rows.setdefault((r["impl"], int(r["groups"])), {})[tag] = (r["median_ms"], r["aggregate_ms"], r["predicted_ms"])
print(f"k{k} impl groups: piece(ms,agg) | partition(ms,agg) | main(ms,agg) | predicted")
for key in sorted(rows):
    v = rows[key]
    print(k, key[0], key[1], *(f"{v.get(t, ('-', '-'))[0]},{v.get(t, ('-', '-'))[1]}" for t in ("piece", "partition", "main")),
          v.get("piece", ("", "", "-"))[2])
PY
done
date -u +%FT%TZ
for k in 4 8; do for g in 2^12 2^17 2^20 2^23; do
  timeout 60 $G run groupby --rows 2^24 --groups $g --key-bytes $k --aggs sum,max,count --impl PGB-UR --check --repeat 1 --no-log > "$OUT/check_k${k}_$g.txt" 2>&1
  echo "check k$k g$g rc=$? $(grep -iE 'check|error' "$OUT/check_k${k}_$g.txt" | head -2 | tr '\n' ' ')"
done; done
timeout 60 $G run groupby --rows 2^22 --groups 2^19 --zipf 1.5 --aggs max,min --impl PGB-UR --check --repeat 1 --no-log > "$OUT/check_zipf.txt" 2>&1
echo "check zipf 1.5 rc=$? $(grep -iE 'check|error' "$OUT/check_zipf.txt" | head -2 | tr '\n' ' ')"
gj_tests groupby
date -u +%FT%TZ
