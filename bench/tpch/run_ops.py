#!/usr/bin/env python3
"""Run every operator of a bench/tpch/export.py folder on the GPU with
`gjadvise run`: the advisor's choice (--impl auto), then every implementation
on its own, each with --expect DuckDB's result; print a summary table and write
CSV and JSON.

    python3 bench/tpch/run_ops.py --dir /tmp/tpch/sf10 --out $OUT --tag sf10 \
        [--bin bin/gjadvise] [--repeat 7] [--profile h200-measured] [--bg 3942]

The advisor plans with what an optimizer would know: sizes and widths from the
files, the match ratio (joins; --out-rows when R's keys repeat) and the number
of groups (group-bys) as DuckDB counted them. Regret = the advisor's choice's
time / the fastest implementation's time - 1, both from the per-implementation
runs (medians of --repeat, CUDA events, inputs on the GPU, output written).
Floor = bytes that must move (inputs read once, output written once, each
column at its width) / B_G.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time

JOIN_IMPLS = ["PHJ-UR", "PHJ-TR", "SMJ-UR", "SMJ-TR", "NPHJ"]
GB_IMPLS = ["HGB", "SGB-UR", "SGB-TR", "SGB-DE-TR", "PGB-UR", "PGB-TR", "HASH-GLOBAL"]


def run(cmd, log, timeout):
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = 124, "", f"timeout after {timeout} s"
    wall = time.perf_counter() - t0
    log.write(f"$ {' '.join(cmd)}\nrc={rc} wall={wall:.1f}s\n{out}{err}\n")
    log.flush()
    res = None
    for line in out.splitlines():
        if line.startswith("{"):
            try:
                res = json.loads(line)
            except ValueError:
                pass
    return rc, res, err.strip().splitlines()[-1] if err.strip() else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--tag", default="run")
    ap.add_argument("--bin", default="bin/gjadvise")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--profile", default="h200-measured")
    ap.add_argument("--bg", type=float, default=3942.0, help="B_G in GB/s for the floor")
    ap.add_argument("--ops", default="all")
    ap.add_argument("--timeout", type=int, default=180, help="seconds per gjadvise call")
    a = ap.parse_args()
    man = json.load(open(os.path.join(a.dir, "manifest.json")))
    os.makedirs(a.out, exist_ok=True)
    log = open(os.path.join(a.out, f"log_{a.tag}.txt"), "a")
    runs, summary = [], []
    for op in man["ops"]:
        if a.ops != "all" and op["name"] not in a.ops.split(","):
            continue
        d = lambda f: os.path.join(a.dir, op[f])
        common = ["--repeat", str(a.repeat), "--json", "--no-log", "--profile", a.profile, "--expect", d("expect_file")]
        if op["kind"] == "join":
            base = [a.bin, "run", "join", "--r-file", d("r_file"), "--s-file", d("s_file"),
                    "--match-ratio", f"{min(1.0, op['match_ratio']):.6g}"]
            if not op["r_unique"]:
                base += ["--out-rows", str(max(1, op["out_rows"]))]
            if op.get("s_run", 1) > 1.05:  # S clustered by its key (export.py mean_run)
                base += ["--s-run", f"{op['s_run']:.4g}"]
            base += ["--r-sorted"] if op.get("r_sorted") else []  # a side in key order (export.py keys_in_order)
            base += ["--s-sorted"] if op.get("s_sorted") else []
            impls = JOIN_IMPLS
        else:
            base = [a.bin, "run", "groupby", "--file", d("in_file"), "--aggs", op["aggs"],
                    "--groups", str(op["groups"])]
            if op.get("sorted_keys"):  # rows in key order (export.py keys_in_order)
                base += ["--sorted-keys"]
            impls = GB_IMPLS
        per = {}
        for impl in ["auto"] + impls:
            rc, res, err = run(base + ["--impl", impl] + common, log, a.timeout)
            row = dict(sf=man["sf"], op=op["name"], impl=impl, rc=rc,
                       chosen=res["impl"] if res else "", ms=res["measured_ms"] if res else None,
                       predicted_ms=res["predicted_ms"] if res else None,
                       expected=res.get("expected") if res else None,
                       peak_bytes=res["peak_bytes"] if res else None, error=err if rc else "")
            runs.append(row)
            print(f"{op['name']:6s} {impl:11s} rc={rc} "
                  f"{(str(round(row['ms'], 3)) + ' ms') if row['ms'] is not None else err}"
                  f"{' expect ' + str(row['expected']) if res else ''}", flush=True)
            if impl != "auto":
                per[impl] = row
        auto = runs[-len(impls) - 1]
        ok = {k: v for k, v in per.items() if v["rc"] == 0 and v["ms"] is not None and v["expected"]}
        best = min(ok, key=lambda k: ok[k]["ms"]) if ok else ""
        choice = auto["chosen"]
        choice_ms = per[choice]["ms"] if choice in ok else None
        regret = (choice_ms / ok[best]["ms"] - 1) if choice_ms is not None and best else None
        nbytes = op["in_bytes"] + op["out_bytes"]
        floor_ms = nbytes / (a.bg * 1e9) * 1e3
        s = dict(sf=man["sf"], op=op["name"], query=op["query"], kind=op["kind"],
                 r_rows=op.get("r_rows", op.get("rows")), s_rows=op.get("s_rows", ""),
                 out_rows=op.get("out_rows", op.get("groups")), match_ratio=op.get("match_ratio", ""),
                 advisor=choice, advisor_auto_ms=auto["ms"], advisor_ms=choice_ms, best=best,
                 best_ms=ok[best]["ms"] if best else None, regret=regret,
                 all_ok=all(v["rc"] == 0 and v["expected"] for v in per.values()) and auto["rc"] == 0 and
                 bool(auto["expected"]),
                 duckdb_ms=op["duckdb_ms"], bytes=nbytes, floor_ms=floor_ms,
                 best_vs_floor=(ok[best]["ms"] / floor_ms) if best else None,
                 times=";".join(f"{k}={v['ms']:.3f}" if v["ms"] is not None else f"{k}=rc{v['rc']}"
                                for k, v in per.items()))
        summary.append(s)
    fields = list(summary[0].keys()) if summary else []
    with open(os.path.join(a.out, f"summary_{a.tag}.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(summary)
    with open(os.path.join(a.out, f"runs_{a.tag}.json"), "w") as f:
        json.dump(dict(manifest=man, runs=runs, summary=summary, repeat=a.repeat, profile=a.profile, bg=a.bg), f,
                  indent=1)
    fmt = lambda x, p=3: "-" if x is None else f"{x:.{p}f}"
    print(f"\nTPC-H operators at SF {man['sf']} (GPU medians of {a.repeat}; DuckDB {man['duckdb']} median of "
          f"{man['reps']} on {man['threads']} threads; floor at B_G {a.bg:g} GB/s)")
    print(f"{'op':6s} {'|R|/rows':>10s} {'|S|':>10s} {'out':>10s} {'advisor':10s} {'adv_ms':>8s} {'best':10s} "
          f"{'best_ms':>8s} {'regret':>7s} {'duckdb':>8s} {'floor':>7s} {'x_floor':>7s} ok")
    for s in summary:
        print(f"{s['op']:6s} {s['r_rows']:>10} {s['s_rows']:>10} {s['out_rows']:>10} {s['advisor']:10s} "
              f"{fmt(s['advisor_ms'])[:8]:>8s} {s['best']:10s} {fmt(s['best_ms'])[:8]:>8s} "
              f"{(fmt(100 * s['regret'], 1) + '%') if s['regret'] is not None else '-':>7s} "
              f"{fmt(s['duckdb_ms'], 2):>8s} {fmt(s['floor_ms']):>7s} {fmt(s['best_vs_floor'], 1):>7s} "
              f"{'yes' if s['all_ok'] else 'NO'}")
    bad = [s["op"] for s in summary if not s["all_ok"]]
    if bad:
        print("not every run matched DuckDB or ran:", ", ".join(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
