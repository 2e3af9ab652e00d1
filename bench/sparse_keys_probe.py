#!/usr/bin/env python3
"""Does PHJ slow down on sparse key domains? (bench/RESULTS.md, TPC-H q5j2)

TPC-H order keys are sparse: of every 32 consecutive values only 8 are used
(k = (i // 8) * 32 + i % 8 + 1). PHJ partitions on the low key bits, so such
keys fill a quarter of its partitions. This writes a q5j2-shaped join twice,
with the same structure: the order keys sparse as TPC-H makes them, and the
same rows with dense keys (k = i + 1). R: a random subset of the orders; S:
every order's line items (1-7 each, sorted by key, as lineitem is). One
4-byte payload column each side. GJCOLS01 files (operators/COLUMNS.md).

usage: bench/sparse_keys_probe.py OUTDIR [--orders N] [--r-rows N]
"""
import argparse
import os

import numpy as np


def write(path, key, pay):
    n = len(key)
    with open(path, "wb") as f:
        f.write(b"GJCOLS01")
        f.write(np.array([n], "<u8").tobytes())
        f.write(np.array([2, 0], "<u4").tobytes())
        f.write(bytes([4, 0, 0, 0, 0, 0, 0, 0]) * 2)
        f.write(key.astype("<u4").tobytes())
        f.write(pay.astype("<u4").tobytes())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--orders", type=int, default=15_000_000)
    ap.add_argument("--r-rows", type=int, default=456_771)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = np.random.default_rng(5)
    i = np.arange(a.orders, dtype=np.uint64)
    sparse = (i // 8) * 32 + i % 8 + 1
    dense = i + 1
    lines = rng.integers(1, 8, a.orders)           # 1..7 line items an order
    s_idx = np.repeat(i, lines)                     # sorted by order, as lineitem
    r_idx = np.sort(rng.choice(a.orders, a.r_rows, replace=False)).astype(np.uint64)
    rng.shuffle(r_idx)
    for name, k in (("sparse", sparse), ("dense", dense)):
        write(f"{a.out}/{name}.r.gjc", k[r_idx], rng.integers(0, 1 << 31, a.r_rows))
        write(f"{a.out}/{name}.s.gjc", k[s_idx], rng.integers(0, 1 << 31, len(s_idx)))
    print(f"R {a.r_rows} rows, S {len(s_idx)} rows, files in {a.out}")


if __name__ == "__main__":
    main()
