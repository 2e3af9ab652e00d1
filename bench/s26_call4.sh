#!/usr/bin/env bash
# Session 26, call 4: the final build (call 3's filter; the model's probes at
# the L2's random rate).
# Build: make all bench-tools; gjadvise, test_model, libcmocka.so.0 and
# join_bench packed into build/s26d.tgz; carry ["build/s26d.tgz",
# "build/s25g_jb.tgz"] (session 25's join_bench, for W1 and W4 beside).
#  1. issue 4's table, W1..W5, every join, with peaks;
#  2. session 25's join_bench on W1 and W4 (the filter never takes them);
#  3. the validation grid (h100-tuned), its store packed.
set -u
source bench/device_lib.sh
tar xzf build/s25g_jb.tgz -C build
gj_unpack s26d
(cd $D && timeout 300 ./join_bench 7 W1 W2 W3 W4 W5) > "$OUT/join_w.txt" 2>&1; grep -E "^W|device" "$OUT/join_w.txt"
date -u +%FT%TZ
(cd build/s25g_jb && timeout 120 ./join_bench 7 W1 W4) > "$OUT/join_w_s25g.txt" 2>&1; grep -E "^W" "$OUT/join_w_s25g.txt"
date -u +%FT%TZ
timeout 200 $G validate --profile h100-tuned --db validate.sqlite > "$OUT/validate.txt" 2>&1; echo "validate rc=$?"
grep -v "^validate: \[" "$OUT/validate.txt" | head -22
tar czf "$OUT/validate.tgz" validate.sqlite "$OUT/validate.txt" 2>/dev/null
date -u +%FT%TZ
