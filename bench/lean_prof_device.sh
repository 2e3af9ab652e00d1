set -u
# per-kernel GPU time (ncu gpu__time_duration) of one PHJ-TR run on W1, old and new binaries
NCU_BIN=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
NSYS_BIN=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
echo "ncu=$NCU_BIN nsys=$NSYS_BIN"
export GJADVISE_DB=/tmp/p.db
for b in build/abbin/gjadvise_old bin/gjadvise; do
  echo "=== $b"
  timeout 200 $NCU_BIN --clock-control none --csv --metrics gpu__time_duration.sum $b run join --impl PHJ-TR --repeat 1 --no-log > /tmp/ncu.csv 2>/tmp/ncu.err
  echo rc=$?
  python3 - <<'PY'
import csv,re,collections
rows=[r for r in csv.reader(open('/tmp/ncu.csv')) if len(r)>10]
h=rows[0]; rows=rows[1:]
ki=h.index('Kernel Name'); vi=h.index('Metric Value'); ii=h.index('ID')
n=len(rows)//2  # warm-up then the run: take the second half
agg=collections.OrderedDict()
for r in rows[n:]:
    name=re.sub(r'\(.*','',r[ki]); name=re.sub(r'<.*','',name) if 'cub' in name else name[:90]
    u=r[h.index('Metric Unit')]; v=float(r[vi].replace(',',''))*{'nsecond':1,'usecond':1e3,'msecond':1e6,'second':1e9}.get(u,1)
    agg.setdefault(name,[0,0]); agg[name][0]+=v; agg[name][1]+=1
tot=0
for k,(v,c) in agg.items():
    tot+=v; print("%10.1f us %3d  %s"%(v/1000,c,k))
print("total kernels %.1f us"%(tot/1000))
PY
done
