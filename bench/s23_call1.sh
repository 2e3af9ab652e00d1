#!/usr/bin/env bash
# Session 23, call 1 (prepared in session 22, extended): session 22's final
# build (double hashing in PGB's tables). Build: `bash bench/s18_pack.sh
# s23a`; kind nvidia-h100-x1, carry ["build/s23a.tgz"].
#  1. issue 5's PGB-TR sweeps, both key widths, 2^12..2^26 groups (B_G
#     2827.6 as the tables): the rows session 22 measured before double
#     hashing (2^12..2^15, 2^24..2^26) again;
#  2. the validation grid, its store packed: refit h100-tuned's PGB-TR
#     (and PGB-UR) correction on it (bench/tuned_builtin.py's steps);
#  3. ncu of the claimed scatter at 8, 9 and 10 bits (PGB-TR, 4-byte keys,
#     2^20 / 2^22 / 2^23 groups): where the wider passes' time goes;
#  4. test_join, test_groupby, test_model on this build.
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
S=SpeedOfLight,WarpStateStats,MemoryWorkloadAnalysis,LaunchStats,Occupancy
for g in 2^20 2^22 2^23; do
    timeout 120 ncu --clock-control none --section "$S" --kernel-name regex:part_scatter_kernel --launch-count 1 \
        $G run groupby --rows 2^28 --groups $g --aggs max,max --impl PGB-TR --repeat 1 --no-log \
        > "$OUT/ncu_claim_$g.txt" 2>&1
    grep -E "Duration|DRAM Through|Memory Through|Compute \(SM\)|Registers Per|Achieved Occ|Stall|Warp Cycles Per Issued" \
        "$OUT/ncu_claim_$g.txt" | head -14 | sed "s/^/$g /"
done
tar czf "$OUT/ncu.tgz" -C "$OUT" $(cd "$OUT" && ls ncu_claim_*.txt) && rm -f "$OUT"/ncu_claim_*.txt
date -u +%FT%TZ
gj_tests join groupby model
date -u +%FT%TZ
