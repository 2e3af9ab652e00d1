#!/usr/bin/env bash
# Session 20, call 6 (kind nvidia-h100-x1), carry ["build/ab6.tgz"]: min and max
# look first in the shared tables (agg4's look_first: the atomic only where
# a row beats the value read): test_groupby on the new build; HGB and
# PGB-TR, old build (gjadvise_old, commit 8315700) against new, same GPU,
# two rounds, 4-byte keys at 2^4..2^22 groups, then 8-byte keys once.
set -u
tar xzf build/ab6.tgz -C build; D=build/ab
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
(cd $D && LD_LIBRARY_PATH=. timeout 170 ./test_groupby) > "$OUT/test_groupby.txt" 2>&1
echo "test_groupby rc=$?: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_groupby.txt" | tr '\n' ' ')"
B="bench groupby --rows 2^28 --aggs max,max --impls HGB,PGB-TR --repeat 7 --no-log"
for r in 1 2; do for b in old new; do
    timeout 90 $D/gjadvise_$b $B --key-bytes 4 --sweep groups=2^4:2^22:2 | sed "s/^/$r $b k4 /" | tee -a "$OUT/ab.txt" | cut -d, -f1-8
done; done
for b in old new; do
    timeout 90 $D/gjadvise_$b $B --key-bytes 8 --sweep groups=2^4:2^22:4 | sed "s/^/1 $b k8 /" | tee -a "$OUT/ab.txt" | cut -d, -f1-8
done
date -u +%FT%TZ
