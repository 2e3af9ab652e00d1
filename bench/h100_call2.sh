#!/usr/bin/env bash
# Session 15's second H100 call (kind nvidia-h100-x1), after
# bench/h100_call1.sh: what issues 4 and 5 still need from the H100, most
# needed first, each step capped so that the call ends inside 10 minutes.
# 1. every GPU test binary (correctness on this GPU);
# 2. two back-to-back full calibrations into a fresh store (the second is
#    the h100-measured built-in);
# 3. issue 5's sweep at the even powers that h100_device.sh's steps of 2^2
#    from 2^1 skip (g = 2^4 .. 2^24: the 1.5x band's 2^14, the 4x target's
#    2^20), both key widths, every implementation, median of 7, floors at
#    --bg, predicted by the second calibration;
# 4. the default validation grid with it (the model's accuracy on the
#    H100, and what tune learns here);
# 5. README's `gjadvise run join` in a fresh store.
# carry ["bin", "build/vt.tar.gz"] (build/vt: the test binaries,
# libcmocka.so.0, stripped). BG: the first call's bw_seq. Returns
# $OUT/v.db and $OUT/r.tgz (logs, CSVs, calibrations).
set -u
t0=$(date +%s); el() { echo $(($(date +%s) - t0)); }
D=build/vt; [ -d $D ] || tar xzf $D.tar.gz -C build
BG=${BG:-2827.63}
R=$OUT/r; mkdir -p "$R/t"
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem --format=csv,noheader | tee "$R/gpu.txt"
date -u +%FT%TZ | tee -a "$R/gpu.txt"
for t in $D/test_*; do
    (cd $D && GJ_BIN=$PWD/../../bin/gjadvise LD_LIBRARY_PATH=. timeout 150 ./$(basename "$t")) > "$R/t/$(basename "$t").log" 2>&1
    echo "$(basename "$t") rc=$? $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$R/t/$(basename "$t").log" | tr '\n' ' ')"
    grep -E '^\[  FAILED' "$R/t/$(basename "$t").log" | head -3
done
echo "tests done at $(el) s"
V=$OUT/v.db
for i in 1 2; do
    timeout 60 bin/gjadvise calibrate --db "$V" --name h100-cal$i --json > "$R/calibrate$i.json" 2>/dev/null
    echo "calibrate $i rc=$? at $(el) s"
done
for kb in 4 8; do
    timeout 100 bin/gjadvise bench groupby --db "$V" --profile h100-cal2 --rows 2^28 --aggs max,max --key-bytes $kb \
        --sweep groups=2^4:2^24:4 --impls all --repeat 7 --bg "$BG" --no-log > "$R/groupby_even_k$kb.csv" 2>/dev/null
    echo "group-by even powers, $kb-byte keys: rc=$? at $(el) s"
done
left=$((540 - $(el)))
[ $left -gt 30 ] && timeout $left bin/gjadvise validate --profile h100-cal2 --db "$V" > "$R/validate.txt" 2>/dev/null
echo "validate rc=$? at $(el) s"; tail -40 "$R/validate.txt"
echo '$ gjadvise run join'
GJADVISE_DB=/tmp/readme.db timeout 30 bin/gjadvise run join 2>&1 | tee "$R/run_join.txt"
(cd "$OUT" && tar czf r.tgz r && rm -rf r)
date -u +%FT%TZ
