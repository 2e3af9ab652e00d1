#!/usr/bin/env bash
# Session 25, call 8: msd_hot on a stream of its own, beside msd_sort's
# block sorts (disjoint rows; call 6: block sorts 1.25 ms, then msd_hot's
# copy 0.68 and scatter 0.55, one after the other). Build: `bash
# bench/s18_pack.sh s25h`; carry ["build/s25h.tgz", "build/s25g_jb.tgz"]
# (call 7's join_bench, for the A/B).
set -u
source bench/device_lib.sh
gj_unpack s25h
tar xzf build/s25g_jb.tgz -C build
gj_tests join
date -u +%FT%TZ
for r in 1 2; do for b in s25g_jb vt; do
    (cd build/$b && JOIN_BENCH_IMPLS=SMJ-TR timeout 120 ./join_bench 7 W4) 2>&1 \
        | sed "s/^/$r $b /" | tee -a "$OUT/ab_device.txt" | grep -E "SMJ-TR" | cut -c1-170
done; done
for r in 1 2; do
    GJ_TRACE=1 $G run join --zipf 1 --impl SMJ-TR --repeat 3 --no-log 2> "$OUT/trace_w4_$r.txt" > /dev/null
    grep -E "^trace" "$OUT/trace_w4_$r.txt" | tail -12
done
for z in 1.5; do
    timeout 120 $G run join --r-rows 2^25 --s-rows 2^25 --zipf $z --impl SMJ-TR --check --repeat 3 --no-log --json \
        > "$OUT/z25_$z.json" 2>&1; echo "zipf $z 2^25 rc=$?"
    GJ_TRACE=1 $G run join --zipf $z --impl SMJ-TR --repeat 7 --no-log --json 2> "$OUT/trace_z27_$z.txt" \
        > "$OUT/z27_$z.json"; echo "zipf $z 2^27 rc=$?"
    grep -o '"measured_ms":[0-9.]*\|"peak_bytes":[0-9]*\|"checked":[a-z]*' "$OUT/z25_$z.json" "$OUT/z27_$z.json" | tr '\n' ' '; echo
    grep -E "^trace" "$OUT/trace_z27_$z.txt" | tail -14
done
date -u +%FT%TZ
