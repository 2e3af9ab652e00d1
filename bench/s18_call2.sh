#!/usr/bin/env bash
# Session 18's second H100 call (kind nvidia-h100-x1), same build as call 1
# (build/s18a.tgz):
# 1. join_bench 7 W1..W4, every implementation (checksums compared);
# 2. SMJ-TR on W1..W4, GJ_JOIN_MSD_SPLIT=off (S's pair packed, as in
#    session 17's final build) against the default (split), two rounds;
# 3. SGB-DE-TR at 2^12 (shared-memory table) and 2^20 groups after the
#    probe loop's merge (session 17: 15.87 and 20.81 ms);
# 4. a calibration and the default validation grid (session 17's split hit
#    an illegal access there: join-payloads, 4 columns, 2^25 rows).
# carry ["build/s18a.tgz"].
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/s18a.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
timeout 150 $D/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4.txt" | grep -E "^W[0-9] "
echo "w1-w4 done at $(el) s"
for r in 1 2; do
    for m in off default; do
        if [ $m = default ]; then unset GJ_JOIN_MSD_SPLIT; else export GJ_JOIN_MSD_SPLIT=$m; fi
        JOIN_BENCH_IMPLS=SMJ-TR timeout 100 $D/join_bench 7 W1 W2 W3 W4 2>&1 | grep -E "^W[0-9] " | sed "s/^/$r $m /"
    done
done | tee "$OUT/smj_ab.txt"
unset GJ_JOIN_MSD_SPLIT; echo "smj a/b done at $(el) s"
timeout 60 $G bench groupby --rows 2^28 --aggs max,max --sweep groups=2^12:2^20:8 --repeat 7 --no-log \
    --impls SGB-DE-TR --key-bytes 4 2>/dev/null | tee "$OUT/sgb.csv"
V=$OUT/v.db
timeout 60 $G calibrate --db "$V" --name h100-s18c2 --json > /dev/null 2>&1; echo "calibrate rc=$? at $(el) s"
timeout 200 $G validate --profile h100-s18c2 --db "$V" > "$OUT/validate.txt" 2>&1
echo "validate rc=$? at $(el) s"; grep -v "^validate: \[" "$OUT/validate.txt" | sed -n 1,22p
echo "done at $(el) s"; date -u +%FT%TZ
