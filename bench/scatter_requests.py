#!/usr/bin/env python3
"""A line-count model of the partition scatter's L2 write requests
(operators/join_partition.cuh part_scatter_kernel): uniform keys over
`bins` bins, tiles of T rows staged in digit order, each warp store
covering 32 consecutive staged rows; a request is a distinct 128-byte
line a warp (4-byte columns) or a half-warp (8-byte columns) touches.
Session 18, call 4 measured 38.9 M requests for a packed pass of 2^27
rows (u32 key, u64 value) and 51.8 M split (the value as two 4-byte
columns); this model gives 32.6 M and 37.3 M, so it under-counts, and
the split's extra more than the model's: a rough guide for comparing
shapes, not a prediction. Usage: python3 bench/scatter_requests.py"""
import random


def requests_per_row(T=7680, bins=256, ntiles=120, pair=1, widths=(4, 8), seed=1):
    rnd = random.Random(seed)
    counts = []
    for _ in range(ntiles):
        c = [0] * bins
        for _ in range(T):
            c[rnd.randrange(bins)] += 1
        counts.append(c)
    base = [0] * bins  # the bins' regions, one after another
    for d in range(1, bins):
        base[d] = base[d - 1] + sum(counts[t][d - 1] for t in range(ntiles))
    done = [0] * bins
    req = {w: 0 for w in widths}
    for t0 in range(0, ntiles, pair):  # `pair` tiles staged together
        c = [sum(counts[t][d] for t in range(t0, min(t0 + pair, ntiles))) for d in range(bins)]
        dst = []
        for d in range(bins):
            dst.extend(range(base[d] + done[d], base[d] + done[d] + c[d]))
            done[d] += c[d]
        for w in widths:
            g = 32 if w == 4 else 16
            for h in range(0, len(dst), g):
                req[w] += len({x * w // 128 for x in dst[h:h + g]})
    return {w: req[w] / (T * ntiles) for w in widths}


if __name__ == "__main__":
    N = 2 ** 27
    one = requests_per_row()
    packed = (one[4] + one[8]) * N / 1e6
    print("7680-row tiles, 256 bins: packed %.1f M, split %.1f M requests a pass of 2^27 rows"
          % (packed, 3 * one[4] * N / 1e6))
    for label, kw in (("two tiles staged together (pairtile_probe)", {"pair": 2}),
                      ("5760-row tiles (384 x 15)", {"T": 5760}),
                      ("128 bins (7 bits)", {"bins": 128})):
        r = requests_per_row(**kw)
        x = (r[4] + r[8]) * N / 1e6
        print("%s: packed %.1f M (%+.0f%%)" % (label, x, 100 * (x / packed - 1)))
