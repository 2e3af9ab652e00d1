#!/usr/bin/env bash
# Session 33, call 2: call 1 found PGB-TR 8-byte 0.10-0.18 ms slower at
# 2^21..2^24 with PgbArgs.order in k_pgb_many (order unused by PGB-TR:
# only the kernels' registers moved). Three placements of the order lookup
# (ptxas: all move the 8-byte kernels' registers) against main (ae5eeb9)
# and call 1's build, two rounds interleaved to see the noise:
#   gjadvise    pgb_block(a) at each use (call 1)
#   gjadvise_A  the block's item read once at the top of k_pgb_many
#   gjadvise_C  pgb_block through __ldg
#   gjadvise_D1 the lookup inside pgb_item
# carry: build/s33b.tgz
source bench/device_lib.sh
gj_unpack s33b
S="bench groupby --rows 2^28 --aggs max,max --sweep groups=2^18:2^24:2 --repeat 7 --no-log"
for round in 1 2; do
  for b in main "" A C D1; do
    bin=$PWD/$D/gjadvise${b:+_$b}
    for k in 4 8; do
      timeout 60 $bin $S --key-bytes $k --impls PGB-TR > "$OUT/r${round}_${b:-new}_k$k.csv"
    done
    timeout 60 $bin $S --key-bytes 4 --impls PGB-UR > "$OUT/r${round}_${b:-new}_ur.csv"
  done
done
python3 - "$OUT" <<'PY'
import csv, sys, glob, os
out = sys.argv[1]
for tag in ("k4", "k8", "ur"):
    print(tag, "aggregate_ms by groups; binary round1/round2")
    tab = {}
    for f in sorted(glob.glob(f"{out}/r*_*_{tag}.csv")):
        rnd, b = os.path.basename(f).split("_")[:2]
        for r in csv.DictReader(open(f)):
            tab.setdefault(b, {}).setdefault(int(r["groups"]), []).append(r["aggregate_ms"])
    gs = sorted({g for v in tab.values() for g in v})
    print("bin", *gs)
    for b in ("main", "new", "A", "C", "D1"):
        print(b, *("/".join(tab.get(b, {}).get(g, [])) for g in gs))
PY
date -u +%FT%TZ
