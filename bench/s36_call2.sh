#!/usr/bin/env bash
# Session 36, call 2: (a) PGB's lean tile folds by HGB's rule
# (gb_fold_group: up to two slots a warp, each where two neighbouring
# lanes hold it) in place of lane 0's slot: one rule for one idea (the
# review's item of sessions 34-35). Predicted: level within noise (in a
# hashed plan a hot key is most of its partition, so lane 0 holds it
# nearly always; the pairs find a second hot slot where two share a
# partition, rare); uniform level (pgb_skewed gates the test). s36a's
# binary (6678438 + the cut-first patch, default order: lane 0's rule) is
# the old side, in two interleaved rounds. (b) Where PGB-TR's hashed skew
# cost lies now (call 1 refuted the wave): GJ_TRACE steps and ncu of
# k_pgb_many and k_pgb_merge at Zipf 0, 1, 1.5 with the SMs' active
# cycles min / avg / max (imbalance) beside instructions and shared-atomic
# conflicts. (c) test_groupby and --check on the new build.
# carry: build/s36a.tgz build/s36b.tgz
source bench/device_lib.sh
tar xzf build/s36a.tgz -C build && mv build/vt build/old
O=$PWD/build/old/gjadvise
gj_unpack s36b
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for round in 1 2; do
for kr in unknown 2^20; do for z in 0 1 1.5 2; do
  R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl PGB-TR --key-range $kr --zipf $z"
  echo "r$round PGB-TR kr=$kr z$z (total agg): lane0 $(timeout 60 $O $R | f)| pairs $(timeout 60 $G $R | f)"
done; done; done
for z in 1.5 2; do
  R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl HGB --zipf $z"
  echo "HGB z$z (total): old $(timeout 60 $O $R | f)| new $(timeout 60 $G $R | f)"
done
S="bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --sweep groups=2^16:2^24:2 --repeat 7 --no-log"
timeout 120 $O $S > "$OUT/sweep_old.csv" 2>/dev/null; timeout 120 $G $S > "$OUT/sweep_new.csv" 2>/dev/null
paste -d'|' "$OUT/sweep_old.csv" "$OUT/sweep_new.csv" | cut -c1-220
date -u +%FT%TZ
for z in 0 1 1.5; do
  echo "== trace zipf $z"
  GJ_TRACE=1 timeout 60 $G run groupby --rows 2^26 --groups 2^20 --key-range unknown --zipf $z --impl PGB-TR --repeat 1 --no-log 2>&1 | grep -E "^trace" | tail -6
done
NCU=/usr/local/cuda/bin/ncu
for z in 0 1 1.5; do
  timeout 150 $NCU --kernel-name regex:'k_pgb_(many|merge)' --launch-count 4 \
    --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,smsp__inst_executed.sum,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,dram__bytes.sum \
    --csv $G run groupby --rows 2^26 --groups 2^20 --key-range unknown --zipf $z --impl PGB-TR --repeat 1 --no-log > "$OUT/ncu_z$z.csv" 2>&1
  python3 - "$OUT/ncu_z$z.csv" "$z" <<'PY'
import csv, sys, io
txt = open(sys.argv[1]).read()
i = txt.find('"ID"')
rows = list(csv.DictReader(io.StringIO(txt[i:]))) if i >= 0 else []
if not rows: print(txt[-1500:])
agg = {}
for r in rows:
    k = (r["ID"], r["Kernel Name"][:40])
    agg.setdefault(k, {})[r["Metric Name"]] = r["Metric Value"]
for (i, n), m in sorted(agg.items(), key=lambda x: int(x[0][0])):
    print("z" + sys.argv[2], i, n, " ".join(f"{k.replace('__','.')[:40]}={v}" for k, v in sorted(m.items())))
PY
done
date -u +%FT%TZ
(cd "$D" && LD_LIBRARY_PATH=. timeout 300 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby rc=$?" > "$OUT/test_rc.txt") &
TP=$!
for z in 1 1.5 2; do for v in "--key-range unknown" "--key-range 2^18" "--key-bytes 8 --key-range unknown" "--aggs sum,min --key-range unknown" "--aggs min,sum --key-range 2^18"; do
  timeout 60 $G run groupby --rows 2^24 --groups 2^18 --zipf $z $v --impl PGB-TR --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check z$z $v rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done; done
for z in 1.5 2; do
  timeout 60 $G run groupby --rows 2^24 --groups 2^18 --zipf $z --aggs sum,min,max,count,avg --impl HGB --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check HGB z$z rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done
wait $TP
cat "$OUT/test_rc.txt"; grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"; grep -E "FAIL|wrong" "$OUT/test_groupby.txt" | head
date -u +%FT%TZ
