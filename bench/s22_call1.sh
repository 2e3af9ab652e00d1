#!/usr/bin/env bash
# Prepared in session 21, run as session 22's first call: the claimed
# pass for the wide 9-bit pass too (bench/s21_claim9.patch: `git apply` it;
# it builds and passes the CPU tests but test_model's peaks at the 9-bit
# shapes, which this call re-measures). Build: `bash bench/s18_pack.sh
# s22a`; kind nvidia-h100-x1, carry ["build/s22a.tgz"].
# Predicted (session 21's ncu: the 8-bit claimed scatter 3.01 against the
# exact pass's 3.53 ms; the wide pass's histogram reads the same keys):
# PGB-TR 4-byte keys at 2^22 groups (one 9-bit pass) 5.96 -> about 5.5 ms;
# 8-byte keys at 2^21 7.52 -> about 6.8; PGB-UR likewise.
#  1. test_join (9-bit claims against the exact pass, an adversarial 9-bit
#     sample), test_groupby (GJ_PGB_BITS=9 with GJ_PART_CLAIM_MIN=0 too),
#     test_model (its 9-bit peaks will fail until updated from 3.);
#  2. A/B GJ_PGB_CLAIM=0/1, two rounds; 3. PGB's peaks (tests/test_model.c's
#     shapes) for the table.
set -u
tar xzf build/s22a.tgz -C build
D=build/vt; G=$PWD/$D/gjadvise
nvidia-smi --query-gpu=name,uuid --format=csv,noheader; date -u +%FT%TZ
for t in join groupby model; do
    (cd $D && LD_LIBRARY_PATH=. timeout 250 ./test_$t > "$OUT/test_$t.txt" 2>&1; echo "test_$t rc=$?") &
done
wait
(cd $D && GJ_PGB_BITS=9 GJ_PART_CLAIM_MIN=0 LD_LIBRARY_PATH=. timeout 250 ./test_groupby) > "$OUT/test_groupby_9claim.txt" 2>&1
echo "test_groupby (9 bits, claimed) rc=$?"
for t in join groupby model groupby_9claim; do echo "$t: $(grep -E '^\[  (PASSED|FAILED|  SKIPPED)' "$OUT/test_$t.txt" | tr '\n' ' ')"; done
grep -E "FAIL|wrong|differ|declined|ERROR" "$OUT"/test_*.txt | head -20
for r in 1 2; do for c in 0 1; do
    for k in "--key-bytes 4 --sweep groups=2^21:2^22:2" "--key-bytes 8 --sweep groups=2^20:2^21:2"; do
        env GJ_PGB_CLAIM=$c timeout 80 $G bench groupby --rows 2^28 --aggs max,max --impls PGB-TR,PGB-UR --repeat 7 --no-log $k \
            | sed "s/^/$r claim$c /" | tee -a "$OUT/ab_claim9.txt" | grep PGB | cut -d, -f1,2,5,6,7,8
    done
done; done
pk() { timeout 60 $G run groupby --rows $3 --groups $4 --aggs $2 --key-bytes $1 --impl $5 --repeat 1 --no-log --json 2>&1 \
        | grep -o '"peak_bytes":[0-9]*' | sed "s/^/$1,$2,$3,$4,$5,/"; }
for i in PGB-UR PGB-TR; do
    for g in 2^14 2^17 2^21 2^25; do pk 4 max,max 2^28 $g $i; done
    for g in 2^14 2^21; do pk 8 max,max 2^28 $g $i; done
    for g in 2^9 2^21; do pk 4 sum,count,avg 2^26 $g $i; done
done | tee "$OUT/peaks.txt"
date -u +%FT%TZ
# 4. Where PGB-TR's 4.66 ms at 2^20 groups (4-byte keys) goes, kernel by
#    kernel and copy by copy (nsys, if the machine has it).
if command -v nsys > /dev/null; then
    timeout 120 nsys profile -o "$OUT/pgb20" --force-overwrite true $G run groupby --rows 2^28 --groups 2^20 --aggs max,max --impl PGB-TR --repeat 3 --no-log > "$OUT/nsys_run.txt" 2>&1
    timeout 60 nsys stats --report cuda_gpu_trace --format csv "$OUT/pgb20.nsys-rep" > "$OUT/pgb20_trace.csv" 2>&1
    timeout 60 nsys stats --report cuda_api_sum "$OUT/pgb20.nsys-rep" > "$OUT/pgb20_api.txt" 2>&1
    rm -f "$OUT/pgb20.nsys-rep" "$OUT/pgb20.sqlite"; wc -l "$OUT/pgb20_trace.csv"
else echo "no nsys"; ls /usr/local/cuda/bin | head -50; fi
date -u +%FT%TZ
