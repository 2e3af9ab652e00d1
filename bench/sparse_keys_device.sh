#!/usr/bin/env bash
# Device script: PHJ on sparse vs dense key domains, q5j2's shape
# (bench/sparse_keys_probe.py says why). Carry: bin. Needs numpy there.
set -u
OUT=${OUT:-/tmp/out}
D=/tmp/skp
mkdir -p "$OUT"
python3 bench/sparse_keys_probe.py $D ${PROBE_FLAGS:-} | tee "$OUT/sparse.txt"
for v in sparse dense; do
    for i in PHJ-UR PHJ-TR NPHJ; do
        echo "== $v $i" | tee -a "$OUT/sparse.txt"
        bin/gjadvise run join --r-file $D/$v.r.gjc --s-file $D/$v.s.gjc --match-ratio 0.03 --impl $i \
            --repeat 7 --no-log --profile h200-tuned 2>&1 | grep -E "measured|total|transform|match|materialize" \
            | tee -a "$OUT/sparse.txt"
    done
done
rm -rf $D
