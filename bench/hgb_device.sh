#!/usr/bin/env bash
# Device script: HGB's one pass at 2^8..2^14 groups (issue 5's 1.5x band).
# carry ["bin", "build/pgbprobe", "build/abbin"]: the binary before
# (build/abbin/gjadvise_old) and after (bin/gjadvise), alternating, 2^28
# rows, max,max, 4- then 8-byte keys (FLAGS: more bench flags, BINS: the
# binaries, ROWS: input rows); then ncu of k_hgb_onepass (NCU_G).
set -u
OUT=${OUT:-/tmp/out}
export GJADVISE_DB=/tmp/gj_hgb.db
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader; date -u +%FT%TZ
if [ "${SKIP_TESTS:-0}" = 0 ]; then
  for t in ${HGB_TESTS:-test_groupby test_gen}; do
    timeout 240 build/pgbprobe/$t > "$OUT/$t.log" 2>&1; echo "$t rc=$?"
    grep -E "^\[  (PASSED|FAILED)|FAIL|differs" "$OUT/$t.log" | head
  done
fi
for kb in ${KBS:-4 8}; do
  for round in 1 2; do
    for b in ${BINS:-build/abbin/gjadvise_old bin/gjadvise}; do
      env ${ENVS:-} $b bench groupby --rows ${ROWS:-2^28} --aggs ${AGGS:-max,max} --key-bytes $kb \
          --sweep groups=${GLO:-2^8}:${GHI:-2^14}:${GSTEP:-2} --impls ${IMPLS:-HGB} --repeat 7 --no-log ${FLAGS:-} \
          2>/dev/null | grep -v impl | cut -d, -f1,4,6-8 | sed "s|^|k$kb $round $(basename $b) |"
    done
  done
done
if [ -n "${NCU_G:-}" ]; then SKIP_AB=1 KNAME=k_hgb_onepass IMPL=HGB bash bench/pgb_ncu_device.sh; fi
