#!/usr/bin/env bash
# Session 16's fifth H100 call (kind nvidia-h100-x1), the session's final
# operators build (commit 5b310c9: S's pair split, the histogram's sectors,
# the dynamic tile order):
# 1. every GPU test binary;
# 2. two full calibrations into a fresh store (the partition's pass rates
#    changed: h100-measured is refreshed from the second), the default
#    validation grid with it (tune refits h100-tuned on it, off the device);
# 3. issue 4's table (join_bench 7 W1..W4, every implementation);
# 4. W2's compacting write: GJ_JOIN_COMPACT=write against the select (the
#    default for PHJ-TR, chosen on the H200), two rounds;
# 5. PGB-UR and PGB-TR over issue 5's sweep at both key widths (their
#    partition changed; the other group-bys did not);
# 6. README's two commands in a fresh store.
# carry ["build/vt.tgz"]. Eight files back at most.
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
tar xzf build/vt.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise; BG=2827.6
{ nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader; date -u +%FT%TZ
for t in $D/test_*; do
    (cd $D && GJ_BIN=$G LD_LIBRARY_PATH=. timeout 150 ./$(basename "$t")) > /tmp/t.log 2>&1
    echo "$(basename "$t") rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' /tmp/t.log | tr '\n' ' ')"
    grep -E '^\[  FAILED' /tmp/t.log | head -3
done; } > "$OUT/tests.txt" 2>&1
cat "$OUT/tests.txt"; echo "tests done at $(el) s"
V=$OUT/v.db
for i in 1 2; do timeout 60 $G calibrate --db "$V" --name h100-s16-cal$i --json > /tmp/cal$i.json 2>/dev/null; echo "calibrate $i rc=$? at $(el) s"; done
timeout 120 $G validate --profile h100-s16-cal2 --db "$V" > "$OUT/validate.txt" 2>&1
echo "validate rc=$? at $(el) s"; tail -12 "$OUT/validate.txt"
timeout 150 $D/join_bench 7 W1 W2 W3 W4 2>&1 | tee "$OUT/w1_w4.txt"
echo "w1-w4 done at $(el) s"
for round in 1 2; do for cfg in x=1 GJ_JOIN_COMPACT=write; do
    env $cfg JOIN_BENCH_IMPLS=PHJ-TR,SMJ-TR,PHJ-UR timeout 60 $D/join_bench 7 W2 2>&1 | grep -E '^W2 ' | sed "s/^/$round $cfg /"
done; done | tee "$OUT/w2_compact.txt"
echo "w2 done at $(el) s"
for kb in 4 8; do
    timeout 120 $G bench groupby --db "$V" --profile h100-s16-cal2 --rows 2^28 --aggs max,max --key-bytes $kb \
        --sweep groups=2^1:2^25:2 --impls PGB-UR,PGB-TR --repeat 7 --bg $BG --no-log > "$OUT/pgb_k$kb.csv" 2>&1
    echo "pgb k$kb rc=$? at $(el) s"
done
{ for c in "recommend --match-ratio 0.3" "run join"; do echo "\$ gjadvise $c"; GJADVISE_DB=/tmp/readme.db timeout 60 $G $c 2>&1; done; } > "$OUT/readme.txt"
tail -30 "$OUT/readme.txt"
echo "done at $(el) s"; date -u +%FT%TZ
