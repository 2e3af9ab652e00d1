#!/usr/bin/env bash
# Session 34, call 3: where skew's time goes in PGB-TR's aggregate phase
# (2^26 rows, 2^20 groups, max,max, hashed: 0.37 ms uniform, 1.11 at Zipf
# 1.5 in session 33's grid). Call 2 refuted shared-atomic conflicts as the
# cause (combining a warp's rows of one slot first made most cases
# slower). main's binary (c8e93db): GJ_TRACE steps, then ncu per kernel.
# carry: build/s34c.tgz
source bench/device_lib.sh
gj_unpack s34c
M=$PWD/$D/gjadvise_main
for z in 0 1.5; do
  echo "== trace zipf $z"
  GJ_TRACE=1 timeout 60 $M run groupby --rows 2^26 --groups 2^20 --key-range unknown --zipf $z --impl PGB-TR --repeat 1 --no-log 2>&1 | grep -v '^ *$' | tail -25
done
NCU=/usr/local/cuda/bin/ncu
for z in 0 1.5; do
  echo "== ncu zipf $z"
  timeout 150 $NCU --launch-count 80 \
    --metrics gpu__time_duration.sum,launch__grid_size,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio \
    --csv $M run groupby --rows 2^26 --groups 2^20 --key-range unknown --zipf $z --impl PGB-TR --repeat 1 --no-log > "$OUT/ncu_z$z.csv" 2>&1
  python3 - "$OUT/ncu_z$z.csv" <<'PY'
import csv, sys, io
txt = open(sys.argv[1]).read()
i = txt.find('"ID"')
rows = list(csv.DictReader(io.StringIO(txt[i:]))) if i >= 0 else []
if not rows: print(txt[-1500:])
agg = {}
for r in rows:
    k = (r["ID"], r["Kernel Name"][:60])
    agg.setdefault(k, {})[r["Metric Name"]] = r["Metric Value"]
for (i, n), m in sorted(agg.items(), key=lambda x: int(x[0][0])):
    print(i, n, " ".join(f"{k.split('__')[1][:18]}={v}" for k, v in sorted(m.items())))
PY
done
date -u +%FT%TZ
