#!/usr/bin/env bash
# Where a group-by kernel's warps wait, by SASS instruction (issue 5): ncu
# source counters of one launch (default k_pgb_many in PGB-TR, 2^28 rows,
# 2^16 groups; KNAME, IMPL, G, ROWS to change), the 30 instructions with the most
# stall samples; the whole table stays in $OUT/sass.csv. carry ["bin"].
set -u
OUT=${OUT:-/tmp/out}
export GJADVISE_DB=/tmp/gj_pgb.db
NCU_BIN=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
"$NCU_BIN" --version | tail -1
timeout 300 "$NCU_BIN" --clock-control none --kernel-name regex:${KNAME:-k_pgb_many} --launch-count 1 \
    --section SourceCounters --section WarpStateStats --page source --print-source sass --csv \
    bin/gjadvise run groupby --rows ${ROWS:-2^28} --groups ${G:-2^16} --aggs max,max --impl ${IMPL:-PGB-TR} --repeat 1 --no-log \
    > "$OUT/sass.csv" 2> "$OUT/sass.err"
echo "rc=$?"; tail -3 "$OUT/sass.err"; head -3 "$OUT/sass.csv" | cut -c1-600
python3 - "$OUT/sass.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], errors="replace")))
hdr = None
for i, r in enumerate(rows):
    if any("Source" in c for c in r) and any("Sampl" in c for c in r):
        hdr = i; break
if hdr is None: print("no header found"); sys.exit()
h = rows[hdr]; print("columns:", [c for c in h][:30])
si = [j for j, c in enumerate(h) if "Sampl" in c and "Not" not in c]
src = [j for j, c in enumerate(h) if c == "Source" or c.startswith("Source")][0]
k = si[0]
def num(x):
    try: return float(x.replace(",", ""))
    except: return 0.0
body = [r for r in rows[hdr + 1:] if len(r) > k]
tot = sum(num(r[k]) for r in body)
body.sort(key=lambda r: -num(r[k]))
print("total samples", tot)
for r in body[:30]:
    print(f"{num(r[k]):8.0f} {100*num(r[k])/max(tot,1):5.1f}%  {r[src][:90]}")
PY
