#!/usr/bin/env python3
"""The advisor's regret on the TPC-H operators, for any profile, without a GPU.

bench/tpch/device.sh measured every implementation of every operator
(runs_sfN.json). This asks `gjadvise recommend` what it would choose for each
operator's workload (the same workload `gjadvise run --impl auto` builds from
the column files and the match ratio run_ops.py passes) and reads the
measured time of that choice:

    regret = measured(choice) / measured(fastest) - 1

usage: bench/tpch/regret.py RUNS.json --profile NAME [--db PATH] [--bin bin/gjadvise]
"""
import argparse
import json
import subprocess
import sys

WIDTH = {"i4": 4, "u4": 4, "f4": 4, "i8": 8, "u8": 8, "f8": 8}


def workload_flags(op):
    """The recommend flags for op, as run join/groupby derive them."""
    if op["kind"] == "join":
        r_cols = [c for c in op["out_columns"] if c[0].startswith("r_")]
        pb = WIDTH[r_cols[0][1]] if r_cols else 4
        f = ["--op", "join", "--r-rows", str(op["r_rows"]), "--s-rows", str(op["s_rows"]),
             "--r-payloads", str(op["r_payloads"]), "--s-payloads", str(op["s_payloads"]),
             "--key-bytes", str(op["key_bytes"]), "--payload-bytes", str(pb),
             "--match-ratio", f"{min(1.0, op['match_ratio']):.6g}"]
        if not op["r_unique"]:
            f += ["--out-rows", str(max(1, op["out_rows"]))]
        if op.get("s_run", 1) > 1.05:
            f += ["--s-run", f"{op['s_run']:.4g}"]
        f += ["--r-sorted"] if op.get("r_sorted") else []
        f += ["--s-sorted"] if op.get("s_sorted") else []
        return f
    pay = [c for c in op["in_columns"][1:]]
    pb = WIDTH[pay[0][1]] if pay else 4
    return ["--op", "groupby", "--rows", str(op["rows"]), "--groups", str(op["groups"]),
            "--aggs", op["aggs"], "--key-bytes", str(op["key_bytes"]), "--payload-bytes", str(pb)] + \
        (["--sorted-keys"] if op.get("sorted_keys") else [])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs")
    ap.add_argument("--profile", required=True)
    ap.add_argument("--db")
    ap.add_argument("--bin", default="bin/gjadvise")
    a = ap.parse_args()
    d = json.load(open(a.runs))
    measured = {}
    for r in d["runs"]:
        if r["impl"] != "auto" and r["rc"] == 0 and r.get("expected", True):
            measured.setdefault(r["op"], {})[r["impl"]] = r["ms"]
    total_choice = total_best = 0.0
    regrets = []
    print(f"{'op':7s} {'choice':11s} {'ms':>8s} {'fastest':11s} {'ms':>8s} {'regret':>8s}")
    for op in d["manifest"]["ops"]:
        m = measured.get(op["name"])
        if not m:
            continue
        cmd = [a.bin, "recommend", "--json", "--profile", a.profile] + workload_flags(op)
        if a.db:
            cmd += ["--db", a.db]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            print(f"{op['name']}: recommend failed: {p.stderr.strip()}", file=sys.stderr)
            return 1
        choice = json.loads(p.stdout)["best"]
        best = min(m, key=m.get)
        reg = m[choice] / m[best] - 1 if choice in m else float("nan")
        regrets.append(reg)
        total_choice += m.get(choice, float("nan"))
        total_best += m[best]
        print(f"{op['name']:7s} {choice:11s} {m.get(choice, float('nan')):8.3f} {best:11s} "
              f"{m[best]:8.3f} {100 * reg:7.1f}%")
    ok = [r for r in regrets if r == r]
    print(f"\n{len(ok)} operators, profile {a.profile}: regret mean {100 * sum(ok) / len(ok):.1f}%, "
          f"max {100 * max(ok):.1f}%; chosen {total_choice:.2f} ms vs fastest {total_best:.2f} ms "
          f"in all; the fastest chosen for {sum(1 for r in ok if r == 0)} of {len(ok)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
