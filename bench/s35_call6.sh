#!/usr/bin/env bash
# Session 35, call 6: join_api.cu's A/B switches read through gj_env_is
# (operators/common.cuh) in place of twelve getenv-and-compare copies:
# host code only (bench/ptx_compare.py: 170 of 170 kernels' PTX
# unchanged). test_join on the build, and each changed switch once under
# `run join --check` at 2^22 rows (each run must take its A/B path and
# agree with the CPU reference), with their times beside the default's
# (the switches still switch: a path's time moves where it should).
# carry: build/s35e.tgz
source bench/device_lib.sh
gj_unpack s35e
(cd "$D" && LD_LIBRARY_PATH=. timeout 300 ./test_join > "$OUT/test_join.txt" 2>&1; echo "test_join rc=$?" > "$OUT/test_rc.txt") &
TP=$!
J="run join --r-rows 2^22 --s-rows 2^24 --check --repeat 3 --no-log --json"
t() { python3 -c 'import sys,json; d=json.loads(sys.stdin.read()); print(d["impl"], round(d["measured_ms"],3), d.get("checked"))' 2>/dev/null || echo "error"; }
for c in ":--impl PHJ-TR" "GJ_JOIN_PARTITION=cub:--impl PHJ-TR" "GJ_JOIN_PART_ORDER=static:--impl PHJ-TR" \
         "GJ_JOIN_PART_PAIR=off:--impl PHJ-TR" "GJ_JOIN_PART_PAIR=force:--impl PHJ-TR" \
         "GJ_JOIN_PART_HALF=off:--impl PHJ-TR" "GJ_JOIN_PART_HALF=force:--impl PHJ-TR" \
         ":--impl SMJ-TR" "GJ_JOIN_MSD=off:--impl SMJ-TR" "GJ_JOIN_MSD=force:--impl SMJ-TR" \
         "GJ_JOIN_MSD_INPLACE=off:--impl SMJ-TR" "GJ_JOIN_MSD_HOT=off:--impl SMJ-TR --zipf 1.5" "GJ_JOIN_MSD_SPLIT=off:--impl SMJ-TR" \
         ":--impl PHJ-UR" "GJ_JOIN_DENSE=off:--impl PHJ-UR" "GJ_JOIN_DENSE=split:--impl PHJ-UR" "GJ_JOIN_DENSE=fused:--impl PHJ-UR" \
         "GJ_SMJ_IN_ORDER=off:--impl SMJ-UR --s-sorted --r-sorted" ":--impl SMJ-UR --s-sorted --r-sorted" \
         "GJ_JOIN_FILTER_COMBINE=off:--impl PHJ-TR --match-ratio 0.1 --filter on" ":--impl PHJ-TR --match-ratio 0.1 --filter on"; do
  e=${c%%:*}; a=${c#*:}
  echo "$e $a: $(env $e timeout 120 $G $J $a 2>/dev/null | t)"
done
R=" --r-rows 4096 --s-rows 2^22 --match-ratio 0.01 --check --repeat 3 --no-log --json --impl PHJ-TR"
echo "sparse default: $(timeout 60 $G run join $R | t) | GJ_JOIN_SPARSE=off: $(GJ_JOIN_SPARSE=off timeout 60 $G run join $R | t)"
date -u +%FT%TZ
wait $TP
cat "$OUT/test_rc.txt"; grep -E '^\[  (PASSED|FAILED)' "$OUT/test_join.txt"; grep -E "FAIL|wrong" "$OUT/test_join.txt" | head
date -u +%FT%TZ
