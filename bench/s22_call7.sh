#!/usr/bin/env bash
# Session 22, call 7: the session's final build (operators as call 6's; the
# model's 10-bit pass cost and counters since). Kind nvidia-h100-x1, carry
# ["build/s22f.tgz"] (bench/s18_pack.sh s22f).
#  1. issue 5's PGB-TR sweeps, both key widths, 2^12..2^26 groups (B_G
#     2827.6 as the tables); PGB-UR at 4-byte keys;
#  2. issue 4's W1..W4, every join (join_bench, median of 7);
#  3. the validation grid (h100-tuned), its store packed.
set -u
tar xzf build/s22f.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for k in 4 8; do
    timeout 200 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log --bg 2827.6 \
        --key-bytes $k --sweep groups=2^12:2^26:2 | tee "$OUT/pgbtr_k$k.csv" | cut -d, -f1,2,5,6,7,8,9,13
done
timeout 200 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-UR --repeat 7 --no-log --bg 2827.6 \
    --key-bytes 4 --sweep groups=2^14:2^26:4 | tee "$OUT/pgbur_k4.csv" | cut -d, -f1,2,5,6,7,8,9,13
date -u +%FT%TZ
(cd $D && timeout 200 ./join_bench 7 W1 W2 W3 W4) > "$OUT/join_w.txt" 2>&1; tail -30 "$OUT/join_w.txt"
date -u +%FT%TZ
timeout 200 $G validate --profile h100-tuned --db validate.sqlite > validate.txt 2>&1
echo "validate rc=$?"; grep -v "^validate: \[" validate.txt | sed -n 1,22p
tar czf "$OUT/validate.tgz" validate.sqlite validate.txt
date -u +%FT%TZ
