#!/usr/bin/env python3
"""Kernel durations from `ncu --csv --metrics gpu__time_duration.sum` on
stdin, in launch order, with the total (bench/tpch/phases_device.sh)."""
import csv
import sys

rows = [r for r in csv.reader(sys.stdin) if len(r) > 10]
if not rows:
    print("no kernels")
    sys.exit()
h = rows[0]
ki, vi, ui = h.index("Kernel Name"), h.index("Metric Value"), h.index("Metric Unit")
scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}
tot = 0.0
for r in rows[1:]:
    ms = float(r[vi].replace(",", "")) * scale.get(r[ui], float("nan"))
    tot += ms
    print(f"{ms:9.4f} ms  {r[ki][:90]}")
print(f"{tot:9.4f} ms  TOTAL")
