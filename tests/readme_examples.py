#!/usr/bin/env python3
"""The README's example outputs, checked against what gjadvise prints now.

Every fenced block of README.md that starts with `$ bin/gjadvise ...` and
needs no GPU (not calibrate, run, bench or validate) is run with $GJ_BIN
(default bin/gjadvise), a scratch store and no GPU visible (the outputs
name the profile a GPU-less machine gets), and its standard output must
equal the block's text: a model change that moves a figure the README
shows fails here until the README shows the new one. `explain q03.json`
reads TPC-H Q3's plan at scale factor 1, made with the DuckDB of ./setup.sh
(.venv) into build/readme_q03.json; without DuckDB that block is skipped,
saying so. Exit status 1 on any difference (a unified diff of each)."""
import difflib
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GPU_COMMANDS = ("calibrate", "run", "bench", "validate")
Q03 = os.path.join(ROOT, "build", "readme_q03.json")
Q03_SCRIPT = """
import duckdb, sys
con = duckdb.connect()
con.sql("load tpch")
con.sql("call dbgen(sf=1)")
q = con.sql("select query from tpch_queries() where query_nr=3").fetchone()[0]
open(sys.argv[1], "w").write(con.sql("explain (format json) " + q).fetchall()[0][1])
"""


def q03_plan():
    """TPC-H Q3's plan at SF 1 (made once), or None without DuckDB."""
    if os.path.exists(Q03):
        return Q03
    py = os.path.join(ROOT, ".venv", "bin", "python")
    if not os.path.exists(py):
        return None
    os.makedirs(os.path.dirname(Q03), exist_ok=True)
    r = subprocess.run([py, "-c", Q03_SCRIPT, Q03 + ".tmp"], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    os.replace(Q03 + ".tmp", Q03)
    return Q03


def main():
    gj = os.environ.get("GJ_BIN", os.path.join(ROOT, "bin", "gjadvise"))
    text = open(os.path.join(ROOT, "README.md")).read()
    blocks = re.findall(r"```\n\$ bin/gjadvise ([^\n]*)\n(.*?)```", text, re.S)
    checked = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        # no GPU visible, as on the machine the README's outputs come from
        env = dict(os.environ, GJADVISE_DB=os.path.join(tmp, "store.db"), CUDA_VISIBLE_DEVICES="")
        for args, want in blocks:
            argv = args.split()
            if argv[0] in GPU_COMMANDS:
                continue
            if argv[0] == "explain" and "q03.json" in argv:
                plan = q03_plan()
                if not plan:
                    print(f"readme: skipped `gjadvise {args}` (no DuckDB in .venv: run ./setup.sh)")
                    continue
                argv = [plan if a == "q03.json" else a for a in argv]
            r = subprocess.run([gj] + argv, capture_output=True, text=True, env=env, cwd=ROOT)
            checked += 1
            if r.returncode != 0 or r.stdout.rstrip("\n") != want.rstrip("\n"):
                failed += 1
                print(f"readme: `gjadvise {args}` (exit {r.returncode}) prints otherwise than README.md shows:")
                sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), r.stdout.splitlines(True),
                                                           "README.md", "gjadvise"))
    print(f"readme: {checked - failed} of {checked} example outputs as shown")
    return 1 if failed or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
