#!/usr/bin/env bash
# Session 36, call 4 (diagnostic, main's kernels: s36a's binary, whose
# only change, GJ_PGB_ORDER=cut-first, is not taken by default). Call 3's
# ncu at Zipf 1.5 (2^26 rows, 2^20 hashed groups): k_pgb_many 0.667 ms
# against 0.335 uniform, 67% more instructions, the SMs active 63% of the
# kernel on average (max 85%) against 79% (83%); k_pgb_merge 0.18 ms on 17
# SMs. Reckoned: at Zipf 1.5 ~80% of the rows are hot keys', cut into
# ~160 pieces of T = 328K rows beside 256 small whole partitions: 1.2
# waves of equal pieces, two rounds. Tested here: (a) ncu at Zipf 1,
# whose aggregate costs as much (0.65 ms) with ~19% of its rows hot; (b)
# GJ_PGB_WHOLE=0 (T = n / (4 SMs): 127K rows, every partition cut) at
# Zipf 0, 1, 1.5, 2: smaller pieces, more waves, more merging; (c)
# GJ_GB_FOLD=0 at Zipf 1 and 1.5 (the fold's instructions).
# carry: build/s36a.tgz
source bench/device_lib.sh
gj_unpack s36a
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for z in 0 1 1.5 2; do
  R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl PGB-TR --key-range unknown --zipf $z"
  echo "z$z (total agg): default $(timeout 20 $G $R | f)| WHOLE=0 $(GJ_PGB_WHOLE=0 timeout 20 $G $R | f)| FOLD=0 $(GJ_GB_FOLD=0 timeout 20 $G $R | f)"
done
NCU=/usr/local/cuda/bin/ncu
for e in "" GJ_PGB_WHOLE=0; do
  env $e timeout 100 $NCU --kernel-name regex:'k_pgb_(many|merge)' --launch-count 2 \
    --metrics gpu__time_duration.sum,launch__grid_size,smsp__inst_executed.sum,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.max \
    --csv $G run groupby --rows 2^26 --groups 2^20 --key-range unknown --zipf 1 --impl PGB-TR --repeat 1 --no-log > "$OUT/ncu_z1.csv" 2>&1
  python3 - "$OUT/ncu_z1.csv" "z1 $e" <<'PY'
import csv, sys, io
txt = open(sys.argv[1]).read()
i = txt.find('"ID"')
rows = list(csv.DictReader(io.StringIO(txt[i:]))) if i >= 0 else []
if not rows: print(txt[-1500:])
agg = {}
for r in rows:
    k = (r["ID"], r["Kernel Name"][:18])
    agg.setdefault(k, {})[r["Metric Name"]] = r["Metric Value"]
for (i, n), m in sorted(agg.items(), key=lambda x: int(x[0][0])):
    print(sys.argv[2], i, n, " ".join(f"{k.replace('__','.')[:30]}={v}" for k, v in sorted(m.items())))
PY
done
date -u +%FT%TZ
