#!/usr/bin/env python3
"""Write DuckDB's EXPLAIN (FORMAT JSON) plans of the 22 TPC-H queries for
tests/test_explain.c: OUTDIR/q01.json .. q22.json and OUTDIR/counts.txt, one
line per query, "qNN HASH_JOIN GROUP_BY DELIM_JOIN": how many nodes of each
kind gjadvise explain must annotate (HASH_JOIN; HASH_GROUP_BY and
PERFECT_HASH_GROUP_BY; LEFT_/RIGHT_DELIM_JOIN and DELIM_JOIN), counted here
independently of the C parser. Needs the duckdb package (./setup.sh puts
duckdb==1.1.3, whose tpch extension is built in, into .venv)."""
import json
import os
import sys

try:
    import duckdb
except ImportError:
    sys.exit("tpch_plans.py: the duckdb Python package is missing: run ./setup.sh "
             "(it creates .venv with duckdb==1.1.3)")


def count(node, acc):
    name = node["name"].strip()
    if name == "HASH_JOIN":
        acc[0] += 1
    elif name in ("HASH_GROUP_BY", "PERFECT_HASH_GROUP_BY"):
        acc[1] += 1
    elif name.endswith("DELIM_JOIN"):
        acc[2] += 1
    for child in node.get("children", []):
        count(child, acc)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "build/tpch_plans"
    os.makedirs(out, exist_ok=True)
    con = duckdb.connect()
    con.sql("load tpch")
    con.sql("call dbgen(sf=0.1)")  # plans only: the estimates follow the data
    lines = []
    for n in range(1, 23):
        query = con.sql(f"select query from tpch_queries() where query_nr={n}").fetchone()[0]
        plan = con.sql("EXPLAIN (FORMAT JSON) " + query).fetchall()[0][1]
        acc = [0, 0, 0]
        for root in json.loads(plan):
            count(root, acc)
        with open(os.path.join(out, f"q{n:02d}.json"), "w") as f:
            f.write(plan)
        lines.append(f"q{n:02d} {acc[0]} {acc[1]} {acc[2]}\n")
    # counts.txt last: its presence means the set is complete
    with open(os.path.join(out, "counts.txt"), "w") as f:
        f.write("".join(lines))
    print(f"tpch_plans.py: DuckDB {duckdb.__version__}: 22 TPC-H plans in {out}")


main()
