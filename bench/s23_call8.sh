#!/usr/bin/env bash
# Session 23, call 8: the session's final build. Build: `bash
# bench/s18_pack.sh s23f`; kind nvidia-h100-x1, carry ["build/s23f.tgz"].
#  1. test_join, test_groupby, test_model;
#  2. issue 4's W1..W5, every join (join_bench, median of 7), with peaks;
#  3. issue 5's PGB-TR sweep, 4-byte keys, 2^12..2^26 groups;
#  4. the validation grid (h100-tuned), its store packed.
set -u
source bench/device_lib.sh
gj_unpack s23f
gj_tests join groupby model
date -u +%FT%TZ
(cd $D && timeout 300 ./join_bench 7 W1 W2 W3 W4 W5) > "$OUT/join_w.txt" 2>&1; grep -E "^W|device" "$OUT/join_w.txt"
date -u +%FT%TZ
timeout 200 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log --bg 2827.6 \
    --key-bytes 4 --sweep groups=2^12:2^26:2 | tee "$OUT/pgbtr_k4.csv" | cut -d, -f1,2,5,6,7,8,9,13
date -u +%FT%TZ
timeout 200 $G validate --profile h100-tuned --db validate.sqlite > validate.txt 2>&1
echo "validate rc=$?"; grep -v "^validate: \[" validate.txt | sed -n 1,22p
tar czf "$OUT/validate.tgz" validate.sqlite validate.txt
date -u +%FT%TZ
