#!/usr/bin/env bash
# Session 26, call 3: the filter's second version (S's flags set the second
# bitmap; R's flags on a second stream beside S's cut; the cut's copy at
# four blocks an SM; SMJ with both sides in order not filtered).
# Build: `bash bench/s18_pack.sh s26c`, then only gjadvise, test_join,
# test_model, libcmocka.so.0 and join_bench packed into build/s26c.tgz (the
# carry limit); carry ["build/s26c.tgz",
# "build/s26b_jb.tgz", "build/s25g_g.tgz"] (call 2's join_bench: the first
# filter; session 25's gjadvise: no filter).
#  1. test_join, test_model;
#  2. GJ_TRACE of the filter's steps at W2 (PHJ-TR);
#  3. W2, every join: the first filter (s26b) against this one, two rounds;
#  4. small joins the filter never takes (validate's join-mid and
#     join-small-probe were slower in call 2): session 25's binary against
#     this one, two rounds.
set -u
source bench/device_lib.sh
tar xzf build/s26b_jb.tgz -C build; tar xzf build/s25g_g.tgz -C build
gj_unpack s26c
gj_tests join model
date -u +%FT%TZ
GJ_TRACE=1 $G run join --match-ratio 0.25 --impl PHJ-TR --repeat 3 --no-log > "$OUT/trace_w2.txt" 2>&1
grep -E "trace filter" "$OUT/trace_w2.txt" | tail -7
for round in 1 2; do
  for b in s26b_jb vt; do
    (cd build/$b && ./join_bench 7 W2) > "$OUT/w2_${b}_$round.txt" 2>&1
    echo "round $round $b"; grep -E "^W2" "$OUT/w2_${b}_$round.txt"
  done
done
date -u +%FT%TZ
for round in 1 2; do
  for g in build/s25g/gjadvise $G; do
    for a in "--r-rows 2^18 --s-rows 2^21 --match-ratio 1 --impl PHJ-UR" "--r-rows 2^18 --s-rows 2^21 --match-ratio 1 --impl PHJ-TR" \
             "--r-rows 2^20 --s-rows 2^20 --match-ratio 1 --impl SMJ-UR" "--r-rows 2^20 --s-rows 2^12 --match-ratio 1 --impl PHJ-UR"; do
      echo "$round $g $a: $($g run join $a --repeat 15 --no-log 2>&1 | grep -E '^total')"
    done
  done
done
date -u +%FT%TZ
