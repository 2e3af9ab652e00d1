#!/usr/bin/env bash
# Session 27, call 4: the final build (b7faa7b: the model's filter choice
# passed on, S's cut beside R's flags, a warp's bits of a word in one atomic).
# Build: gjadvise, test_join, libcmocka.so.0 and join_bench in
# build/s27d.tgz; carry it.
#  1. issue 4's table, W1..W5, every join, with peaks (join_bench 7);
#  2. the validation grid (h100-tuned), its store packed;
#  3. test_join, the whole of it.
set -u
source bench/device_lib.sh
gj_unpack s27d
(cd $D && timeout 200 ./join_bench 7 W1 W2 W3 W4 W5) > "$OUT/join_w.txt" 2>&1; grep -E "^W|device" "$OUT/join_w.txt"
date -u +%FT%TZ
timeout 150 $G validate --profile h100-tuned --db validate.sqlite > "$OUT/validate.txt" 2>&1; echo "validate rc=$?"
grep -v "^validate: \[" "$OUT/validate.txt" | head -22
tar czf "$OUT/validate.tgz" validate.sqlite 2>/dev/null
date -u +%FT%TZ
(cd $D && LD_LIBRARY_PATH=. timeout 280 ./test_join > "$OUT/test_join.txt" 2>&1; echo "test_join rc=$?")
grep -E "^\[  (PASSED|FAILED)|FAIL" "$OUT/test_join.txt" | head
date -u +%FT%TZ
