#!/usr/bin/env bash
# For the next session (prepared in session 36, never run): the final
# build of session 36 (PGB's k_pgb_merge limit chosen by the host,
# operators/shapes.h gj_pgb_merge_max: a hashed plan 4 pieces or twice a
# partition of average rows' pieces, a direct plan 16) ran on no device.
# Its kernels are call 5's (s36d), but the rule's twice-typical term was
# never timed. Here: test_groupby; the default against
# GJ_PGB_MERGE_MAX=16 (as before) at the skewed points of call 5
# (hashed: should gain as its 4 did; direct: the same path) and at the
# uniform points with evenly cut partitions that the replayed grid named
# (2^26 rows at 2^17 and 2^19 groups, PGB-UR at 2^20 groups over 2^24
# rows: the same decisions, so level); --check on the default.
# Pack: gjadvise and test_groupby of the session's last commit as s37a.
# carry: build/s37a.tgz
source bench/device_lib.sh
gj_unpack s37a
f() { grep -o '"measured_aggregate_ms":[0-9.]*' | cut -d: -f2 | tr '\n' ' '; }
for c in "PGB-TR 2^26 2^20 unknown 1" "PGB-TR 2^26 2^20 unknown 1.5" "PGB-TR 2^26 2^20 unknown 2" "PGB-TR 2^26 2^20 2^20 1" \
         "PGB-TR 2^26 2^17 unknown 0" "PGB-TR 2^26 2^19 unknown 0" "PGB-UR 2^24 2^20 unknown 0" "PGB-UR 2^26 2^20 unknown 1"; do
  set -- $c
  R="run groupby --impl $1 --rows $2 --groups $3 --key-range $4 --zipf $5 --repeat 7 --no-log --json"
  echo "agg $c: default $(timeout 30 $G $R | f)| 16 $(GJ_PGB_MERGE_MAX=16 timeout 30 $G $R | f)| default $(timeout 30 $G $R | f)"
done
date -u +%FT%TZ
(cd "$D" && LD_LIBRARY_PATH=. timeout 300 ./test_groupby > "$OUT/test_groupby.txt" 2>&1; echo "test_groupby rc=$?" > "$OUT/test_rc.txt") &
TP=$!
for v in "--impl PGB-TR --zipf 1.5 --key-range unknown" "--impl PGB-TR --zipf 1 --key-range 2^18" "--impl PGB-UR --zipf 1 --key-range unknown" "--impl PGB-TR --zipf 2 --key-bytes 8 --key-range unknown --aggs sum,min,max,count,avg --float"; do
  timeout 40 $G run groupby --rows 2^24 --groups 2^18 $v --check --repeat 1 --no-log > "$OUT/chk.txt" 2>&1
  echo "check $v rc=$? $(grep -o 'check: [a-z]*' "$OUT/chk.txt")"
done
wait $TP
cat "$OUT/test_rc.txt"; grep -E '^\[  (PASSED|FAILED)' "$OUT/test_groupby.txt"; grep -E "FAIL|wrong" "$OUT/test_groupby.txt" | head
date -u +%FT%TZ
