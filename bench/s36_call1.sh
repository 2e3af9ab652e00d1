#!/usr/bin/env bash
# Session 36, call 1: bench/s36_pgb_cut_first.sh (session 35's prepared
# A/B of PGB-TR's work items, cut partitions' pieces first, through
# GJ_PGB_ORDER=cut-first; bench/patches/s35-pgb-cut-first.patch applied),
# timings first with the GPU to themselves; then test_groupby under
# cut-first beside the --check runs: cut-first's, and the four join A/B
# switches session 35's call 6 did not reach under --check (gj_env_is
# mend: GJ_JOIN_DENSE=fused, GJ_SMJ_IN_ORDER, GJ_JOIN_FILTER_COMBINE,
# GJ_JOIN_SPARSE).
# carry: build/s36a.tgz
source bench/device_lib.sh
gj_unpack s36a
f() { grep -o '"measured_ms":[0-9.]*\|"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for kr in unknown 2^20; do for z in 0 0.5 1 1.5 2; do
  R="run groupby --rows 2^26 --groups 2^20 --repeat 7 --no-log --json --impl PGB-TR --key-range $kr --zipf $z"
  echo "PGB-TR kr=$kr z$z (total agg): partition $(timeout 60 $G $R | f)| cut-first $(GJ_PGB_ORDER=cut-first timeout 60 $G $R | f)"
done; done
date -u +%FT%TZ
(cd "$D" && LD_LIBRARY_PATH=. GJ_PGB_ORDER=cut-first timeout 300 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby (cut-first) rc=$?" > "$OUT/test_rc.txt") &
TP=$!
for z in 1 1.5 2; do for v in "--key-range unknown" "--key-range 2^18" "--key-bytes 8 --key-range unknown" "--float --aggs sum,min,max,count,avg --key-range unknown"; do
  GJ_PGB_ORDER=cut-first timeout 60 $G run groupby --rows 2^24 --groups 2^18 --zipf $z $v --impl PGB-TR --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check cut-first z$z $v rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done; done
J="run join --r-rows 2^22 --s-rows 2^24 --check --repeat 3 --no-log --json"
t() { python3 -c 'import sys,json; d=json.loads(sys.stdin.read()); print(d["impl"], round(d["measured_ms"],3), d.get("checked"))' 2>/dev/null || echo "error"; }
for c in "GJ_JOIN_DENSE=fused:--impl PHJ-UR" "GJ_SMJ_IN_ORDER=off:--impl SMJ-UR --s-sorted --r-sorted" \
         "GJ_JOIN_FILTER_COMBINE=off:--impl PHJ-TR --match-ratio 0.1 --filter on"; do
  e=${c%%:*}; a=${c#*:}
  echo "$e $a: $(env $e timeout 120 $G $J $a 2>/dev/null | t)"
done
R=" --r-rows 4096 --s-rows 2^22 --match-ratio 0.01 --check --repeat 3 --no-log --json --impl PHJ-TR"
echo "GJ_JOIN_SPARSE=off: $(GJ_JOIN_SPARSE=off timeout 60 $G run join $R | t)"
date -u +%FT%TZ
wait $TP
cat "$OUT/test_rc.txt"; grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"; grep -E "FAIL|wrong" "$OUT/test_groupby.txt" | head
date -u +%FT%TZ
