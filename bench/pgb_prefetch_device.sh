#!/usr/bin/env bash
# A/B of a k_pgb_many change (issue 5; first the next-rows prefetch, then 3
# blocks per SM): test_groupby, then PGB-TR at 2^28 rows, max,max, the
# binary before (build/abbin/gjadvise_old)
# and after (bin/gjadvise), alternating; ncu of the new kernel at 2^16.
# carry ["bin", "build/pgbprobe", "build/abbin"].
set -u
OUT=${OUT:-/tmp/out}
export GJADVISE_DB=/tmp/gj_pgb.db
timeout 300 build/pgbprobe/test_groupby > "$OUT/test_groupby.log" 2>&1; echo "test_groupby rc=$?"
grep -E "^\[  (PASSED|FAILED)|FAIL" "$OUT/test_groupby.log" | head
for round in 1 2; do
  for b in build/abbin/gjadvise_old bin/gjadvise; do
    $b bench groupby --rows 2^28 --aggs max,max --sweep groups=2^13:2^25:4 --impls PGB-TR --repeat 7 --no-log \
        2>/dev/null | grep -v impl | cut -d, -f1,4,6-8 | sed "s|^|$round $(basename $b) |"
  done
done
if [ "${NCU:-1}" = 1 ]; then SKIP_AB=1 bash bench/pgb_ncu_device.sh; fi
