#!/usr/bin/env bash
# Prepared in session 22, not run (its device time was spent): the first
# call of the next session, on session 22's final build (double hashing in
# PGB's tables). Build: `bash bench/s18_pack.sh s23a`; kind
# nvidia-h100-x1, carry ["build/s23a.tgz"].
#  1. issue 5's PGB-TR sweeps, both key widths, 2^12..2^26 groups (B_G
#     2827.6 as the tables): the rows session 22 measured before double
#     hashing (2^12..2^15, 2^24..2^26) again;
#  2. the validation grid, its store packed: refit h100-tuned's PGB-TR
#     (and PGB-UR) correction on it (bench/tuned_builtin.py's steps), as
#     the one in the tree was fitted before double hashing (it predicts
#     PGB-TR about 6% high at 2^20..2^23).
set -u
source bench/device_lib.sh
gj_unpack s23a
for k in 4 8; do
    timeout 200 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-TR --repeat 7 --no-log --bg 2827.6 \
        --key-bytes $k --sweep groups=2^12:2^26:2 | tee "$OUT/pgbtr_k$k.csv" | cut -d, -f1,2,5,6,7,8,9,13
done
date -u +%FT%TZ
timeout 200 $G validate --profile h100-tuned --db validate.sqlite > validate.txt 2>&1
echo "validate rc=$?"; grep -v "^validate: \[" validate.txt | sed -n 1,22p
tar czf "$OUT/validate.tgz" validate.sqlite validate.txt
date -u +%FT%TZ
