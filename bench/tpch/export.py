#!/usr/bin/env python3
"""Export the join and group-by operators of TPC-H Q1, Q3, Q5, Q7, Q18 and Q19
as gjadvise column files (GJCOLS01, operators/COLUMNS.md), with DuckDB's
result for each operator and DuckDB's own time for it.

    python3 bench/tpch/export.py --sf 10 --out /tmp/tpch10 [--reps 5] [--ops q3j1,q1gb]

For every operator OP it writes under --out:
    OP.r.gjc, OP.s.gjc   join inputs (R = build side, S = probe side), or
    OP.in.gjc            the group-by input
    OP.expect.gjc        DuckDB's result: the whole join output (key, R payloads,
                         S payloads) or the whole group-by result (key, aggregates)
and manifest.json: sizes, widths, the SQL of every input, the timed SQL and
DuckDB's times. bench/tpch/README.md documents the operators and what is timed.

Each input is computed by DuckDB exactly as the query feeds the operator: after
the query's filters and after the earlier joins of the plan in README.md (an
earlier join's input is DuckDB's output of that join, which `gjadvise run
--expect` checks separately). Encodings: keys unsigned (4 bytes, or 8 for
composite keys packed hi << 32 | lo, or Q1's returnflag << 8 | linestatus),
dates int32 days since 1970-01-01, DECIMAL prices int64 cents, discounts and
taxes int32 hundredths, quantities int32 (TPC-H quantities are whole numbers:
checked), strings int32 dictionary codes (row number in sorted order).

DuckDB timing: each operator's SQL over the two input tables already held in
DuckDB's memory, materialised into a temporary table (CREATE OR REPLACE TEMP
TABLE ... AS SELECT ...), all threads; one warm-up, then the median of --reps
runs of Python's perf_counter around that one statement.
"""
import argparse
import json
import os
import statistics
import struct
import sys
import time

import duckdb
import numpy as np

# column type -> (DuckDB SQL type, numpy dtype, width, GJCOLS01 type byte)
TYPES = {
    "u4": ("UINTEGER", "<u4", 4, 0),
    "u8": ("UBIGINT", "<u8", 8, 0),
    "i4": ("INTEGER", "<i4", 4, 0),
    "i8": ("BIGINT", "<i8", 8, 0),
    "f8": ("DOUBLE", "<f8", 8, 1),
}

DAYS = "(({c}) - DATE '1970-01-01')::INTEGER"  # a date as int32 days


def days(c):
    return DAYS.format(c=c)


CENTS = "(({c}) * 100)::BIGINT"  # DECIMAL(15,2) as int64 cents / int32 hundredths

# Dictionaries of the string columns the operators carry (code = row number of
# the value in sorted order, from 0).
DICTS = {
    "dict_c_name": "SELECT DISTINCT c_name AS v FROM customer",
    "dict_p_brand": "SELECT DISTINCT p_brand AS v FROM part",
    "dict_p_container": "SELECT DISTINCT p_container AS v FROM part",
}

# One operator: name, kind, the query, a one-line description, then for a join
# the R and S inputs as (SQL producing the rows, [(column, type)], key column
# first) and for a group-by the input and the aggregates.
ASIA = ("(SELECT n_nationkey FROM nation JOIN region ON n_regionkey = r_regionkey "
        "WHERE r_name = 'ASIA')")
FRGE = "(SELECT n_nationkey FROM nation WHERE n_name IN ('FRANCE', 'GERMANY'))"

OPS = [
    dict(name="q1gb", kind="groupby", query="Q1",
         what="lineitem (l_shipdate <= 1998-09-02) group by (l_returnflag, l_linestatus)",
         inp=("SELECT ((ascii(l_returnflag)::UBIGINT << 8) | ascii(l_linestatus)::UBIGINT) AS k, "
              "l_quantity::INTEGER AS qty, " + CENTS.format(c="l_extendedprice") + " AS price, "
              + CENTS.format(c="l_extendedprice") + " * (100 - " + CENTS.format(c="l_discount") + ") AS disc_price, "
              + CENTS.format(c="l_extendedprice") + " * (100 - " + CENTS.format(c="l_discount") + ") * (100 + "
              + CENTS.format(c="l_tax") + ") AS charge, "
              "l_quantity::INTEGER AS qty2, " + CENTS.format(c="l_extendedprice") + " AS price2, "
              + CENTS.format(c="l_discount") + "::INTEGER AS disc "
              "FROM lineitem WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL 90 DAY",
              [("k", "u8"), ("qty", "i4"), ("price", "i8"), ("disc_price", "i8"), ("charge", "i8"),
               ("qty2", "i4"), ("price2", "i8"), ("disc", "i4")]),
         aggs=["sum", "sum", "sum", "sum", "avg", "avg", "avg", "count"]),
    dict(name="q18gb", kind="groupby", query="Q18",
         what="lineitem group by l_orderkey, sum(l_quantity) (the IN subquery, before HAVING > 300)",
         inp=("SELECT l_orderkey::UINTEGER AS k, l_quantity::INTEGER AS qty FROM lineitem",
              [("k", "u4"), ("qty", "i4")]),
         aggs=["sum"]),
    dict(name="q3j1", kind="join", query="Q3",
         what="customer (BUILDING) join orders (o_orderdate < 1995-03-15) on custkey",
         r=("SELECT c_custkey::UINTEGER AS k FROM customer WHERE c_mktsegment = 'BUILDING'", [("k", "u4")]),
         s=("SELECT o_custkey::UINTEGER AS k, o_orderkey::INTEGER AS orderkey, " + days("o_orderdate") +
            " AS orderdate, o_shippriority::INTEGER AS shippriority FROM orders "
            "WHERE o_orderdate < DATE '1995-03-15'",
            [("k", "u4"), ("orderkey", "i4"), ("orderdate", "i4"), ("shippriority", "i4")])),
    dict(name="q3j2", kind="join", query="Q3",
         what="q3j1's output join lineitem (l_shipdate > 1995-03-15) on orderkey",
         r=("SELECT orderkey::UINTEGER AS k, orderdate, shippriority FROM q3j1_out",
            [("k", "u4"), ("orderdate", "i4"), ("shippriority", "i4")]),
         s=("SELECT l_orderkey::UINTEGER AS k, " + CENTS.format(c="l_extendedprice") + " AS price, "
            + CENTS.format(c="l_discount") + "::INTEGER AS disc FROM lineitem "
            "WHERE l_shipdate > DATE '1995-03-15'",
            [("k", "u4"), ("price", "i8"), ("disc", "i4")])),
    dict(name="q5j1", kind="join", query="Q5",
         what="customer (nation in ASIA) join orders (1994) on custkey",
         r=("SELECT c_custkey::UINTEGER AS k, c_nationkey::INTEGER AS nationkey FROM customer "
            "WHERE c_nationkey IN " + ASIA, [("k", "u4"), ("nationkey", "i4")]),
         s=("SELECT o_custkey::UINTEGER AS k, o_orderkey::INTEGER AS orderkey FROM orders "
            "WHERE o_orderdate >= DATE '1994-01-01' AND o_orderdate < DATE '1995-01-01'",
            [("k", "u4"), ("orderkey", "i4")])),
    dict(name="q5j2", kind="join", query="Q5",
         what="q5j1's output join lineitem on orderkey",
         r=("SELECT orderkey::UINTEGER AS k, nationkey FROM q5j1_out", [("k", "u4"), ("nationkey", "i4")]),
         s=("SELECT l_orderkey::UINTEGER AS k, l_suppkey::INTEGER AS suppkey, "
            + CENTS.format(c="l_extendedprice") + " AS price, " + CENTS.format(c="l_discount") +
            "::INTEGER AS disc FROM lineitem",
            [("k", "u4"), ("suppkey", "i4"), ("price", "i8"), ("disc", "i4")])),
    dict(name="q5j3", kind="join", query="Q5",
         what="supplier (ASIA) join q5j2's output on (suppkey, nationkey) packed in 8 bytes",
         r=("SELECT ((s_suppkey::UBIGINT << 32) | s_nationkey::UBIGINT) AS k, s_nationkey::INTEGER AS nationkey "
            "FROM supplier WHERE s_nationkey IN " + ASIA, [("k", "u8"), ("nationkey", "i4")]),
         s=("SELECT ((suppkey::UBIGINT << 32) | nationkey::UBIGINT) AS k, price, disc FROM q5j2_out",
            [("k", "u8"), ("price", "i8"), ("disc", "i4")])),
    dict(name="q7j1", kind="join", query="Q7",
         what="supplier (FRANCE, GERMANY) join lineitem (shipdate in 1995..1996) on suppkey",
         r=("SELECT s_suppkey::UINTEGER AS k, s_nationkey::INTEGER AS supp_nation FROM supplier "
            "WHERE s_nationkey IN " + FRGE, [("k", "u4"), ("supp_nation", "i4")]),
         s=("SELECT l_suppkey::UINTEGER AS k, l_orderkey::INTEGER AS orderkey, "
            "year(l_shipdate)::INTEGER AS l_year, " + CENTS.format(c="l_extendedprice") + " * (100 - "
            + CENTS.format(c="l_discount") + ") AS volume FROM lineitem "
            "WHERE l_shipdate BETWEEN DATE '1995-01-01' AND DATE '1996-12-31'",
            [("k", "u4"), ("orderkey", "i4"), ("l_year", "i4"), ("volume", "i8")])),
    dict(name="q7j2", kind="join", query="Q7",
         what="orders join q7j1's output on orderkey",
         r=("SELECT o_orderkey::UINTEGER AS k, o_custkey::INTEGER AS custkey FROM orders",
            [("k", "u4"), ("custkey", "i4")]),
         s=("SELECT orderkey::UINTEGER AS k, supp_nation, l_year, volume FROM q7j1_out",
            [("k", "u4"), ("supp_nation", "i4"), ("l_year", "i4"), ("volume", "i8")])),
    dict(name="q7j3", kind="join", query="Q7",
         what="customer (FRANCE, GERMANY) join q7j2's output on custkey",
         r=("SELECT c_custkey::UINTEGER AS k, c_nationkey::INTEGER AS cust_nation FROM customer "
            "WHERE c_nationkey IN " + FRGE, [("k", "u4"), ("cust_nation", "i4")]),
         s=("SELECT custkey::UINTEGER AS k, supp_nation, l_year, volume FROM q7j2_out",
            [("k", "u4"), ("supp_nation", "i4"), ("l_year", "i4"), ("volume", "i8")])),
    dict(name="q18j1", kind="join", query="Q18",
         what="orderkeys with sum(l_quantity) > 300 (q18gb + HAVING) join orders on orderkey",
         r=("SELECT k FROM q18gb_out WHERE a0 > 300", [("k", "u4")]),
         s=("SELECT o_orderkey::UINTEGER AS k, o_custkey::INTEGER AS custkey, " + days("o_orderdate") +
            " AS orderdate, " + CENTS.format(c="o_totalprice") + " AS totalprice FROM orders",
            [("k", "u4"), ("custkey", "i4"), ("orderdate", "i4"), ("totalprice", "i8")])),
    dict(name="q18j2", kind="join", query="Q18",
         what="q18j1's output join lineitem on orderkey",
         r=("SELECT k, custkey, orderdate, totalprice FROM q18j1_out",
            [("k", "u4"), ("custkey", "i4"), ("orderdate", "i4"), ("totalprice", "i8")]),
         s=("SELECT l_orderkey::UINTEGER AS k, l_quantity::INTEGER AS qty FROM lineitem",
            [("k", "u4"), ("qty", "i4")])),
    dict(name="q18j3", kind="join", query="Q18",
         what="customer join q18j2's output on custkey (c_name dictionary-encoded)",
         r=("SELECT c_custkey::UINTEGER AS k, d.code AS name FROM customer JOIN dict_c_name d ON d.v = c_name",
            [("k", "u4"), ("name", "i4")]),
         s=("SELECT custkey::UINTEGER AS k, k AS orderkey, orderdate, totalprice, qty FROM q18j2_out",
            [("k", "u4"), ("orderkey", "i4"), ("orderdate", "i4"), ("totalprice", "i8"), ("qty", "i4")])),
    dict(name="q19j", kind="join", query="Q19",
         what="part (the disjunction's part-side terms) join lineitem (AIR/AIR REG, DELIVER IN PERSON, "
              "quantity 1..30) on partkey; the quantity/brand/container terms that span both sides "
              "are a filter on the output",
         r=("SELECT p_partkey::UINTEGER AS k, b.code AS brand, c.code AS container, p_size::INTEGER AS size "
            "FROM part JOIN dict_p_brand b ON b.v = p_brand JOIN dict_p_container c ON c.v = p_container "
            "WHERE (p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG') "
            "AND p_size BETWEEN 1 AND 5) OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG', "
            "'MED BOX', 'MED PKG', 'MED PACK') AND p_size BETWEEN 1 AND 10) OR (p_brand = 'Brand#34' "
            "AND p_container IN ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG') AND p_size BETWEEN 1 AND 15)",
            [("k", "u4"), ("brand", "i4"), ("container", "i4"), ("size", "i4")]),
         s=("SELECT l_partkey::UINTEGER AS k, l_quantity::INTEGER AS qty, "
            + CENTS.format(c="l_extendedprice") + " AS price, " + CENTS.format(c="l_discount") +
            "::INTEGER AS disc FROM lineitem WHERE l_shipmode IN ('AIR', 'AIR REG') "
            "AND l_shipinstruct = 'DELIVER IN PERSON' AND l_quantity BETWEEN 1 AND 30",
            [("k", "u4"), ("qty", "i4"), ("price", "i8"), ("disc", "i4")])),
]

AGG_SQL = {"sum": "sum({c})::BIGINT", "avg": "avg({c})::DOUBLE", "count": "count(*)::UBIGINT",
           "min": "min({c})", "max": "max({c})"}
AGG_TYPE = {"sum": "i8", "avg": "f8", "count": "u8"}


def typed_select(sql, cols):
    """SELECT the columns of `sql` cast to their declared types, in order."""
    return "SELECT " + ", ".join(f"{c}::{TYPES[t][0]} AS {c}" for c, t in cols) + f" FROM ({sql})"


def write_gjc(path, arrays, types):
    """Write columns (numpy arrays, key first) as GJCOLS01."""
    rows = len(arrays[0]) if arrays else 0
    with open(path, "wb") as f:
        f.write(b"GJCOLS01" + struct.pack("<QII", rows, len(arrays), 0))
        for t in types:
            f.write(struct.pack("<BB6x", TYPES[t][2], TYPES[t][3]))
        for a, t in zip(arrays, types):
            a = np.ascontiguousarray(a, dtype=TYPES[t][1])
            assert len(a) == rows
            f.write(a.tobytes())
    return rows


def export_table(con, table, cols, path):
    res = con.execute(f"SELECT {', '.join(c for c, _ in cols)} FROM {table}").fetchnumpy()
    arrays = []
    for c, t in cols:
        a = res[c]
        if np.ma.isMaskedArray(a):
            if a.mask.any():
                sys.exit(f"export: {table}.{c} has NULLs")
            a = a.data
        arrays.append(a)
    return write_gjc(path, arrays, [t for _, t in cols])


def mean_run(path, cols):
    """Average run of equal keys in row order of a GJCOLS01 file's key column
    (the workload's s_run: rows / runs; 1 when no neighbours are equal)."""
    with open(path, "rb") as f:
        rows, ncols, _ = struct.unpack("<QII", f.read(24)[8:24])
    if rows == 0:
        return 1.0
    k = np.fromfile(path, dtype=TYPES[cols[0][1]][1], count=rows, offset=24 + 8 * ncols)
    runs = 1 + int(np.count_nonzero(k[1:] != k[:-1]))
    return rows / runs


def keys_in_order(path, cols):
    """Whether a GJCOLS01 file's key column is non-decreasing as unsigned
    integers (the workload's sorted_keys: SGB-* skip their sorts; r_sorted,
    s_sorted: SMJ-* leave that side unsorted)."""
    with open(path, "rb") as f:
        rows, ncols, _ = struct.unpack("<QII", f.read(24)[8:24])
    if rows < 2:
        return True
    k = np.fromfile(path, dtype=TYPES[cols[0][1]][1], count=rows, offset=24 + 8 * ncols)
    return bool(np.all(k[1:] >= k[:-1]))


def timed(con, sql, reps):
    """One warm-up, then `reps` runs of CREATE OR REPLACE TEMP TABLE _timed AS sql."""
    stmt = f"CREATE OR REPLACE TEMP TABLE _timed AS {sql}"
    con.execute(stmt)
    runs = []
    for _ in range(reps):
        t0 = time.perf_counter()
        con.execute(stmt)
        runs.append((time.perf_counter() - t0) * 1e3)
    con.execute("DROP TABLE IF EXISTS _timed")
    return statistics.median(runs), runs


def width_sum(cols):
    return sum(TYPES[t][2] for _, t in cols)


def do_join(con, op, out, reps):
    n = op["name"]
    rsql, rcols = op["r"]
    ssql, scols = op["s"]
    con.execute(f"CREATE OR REPLACE TABLE {n}_r AS {typed_select(rsql, rcols)}")
    con.execute(f"CREATE OR REPLACE TABLE {n}_s AS {typed_select(ssql, scols)}")
    rp, sp = rcols[1:], scols[1:]
    if 1 + len(rp) + len(sp) > 9:
        sys.exit(f"{n}: {1 + len(rp) + len(sp)} output columns; GJCOLS01 holds 9")
    # output columns: key, R payloads, S payloads (names made distinct)
    sel = ["r.k AS k"] + [f"r.{c} AS r_{c}" for c, _ in rp] + [f"s.{c} AS s_{c}" for c, _ in sp]
    jsql = f"SELECT {', '.join(sel)} FROM {n}_r r JOIN {n}_s s ON r.k = s.k"
    con.execute(f"CREATE OR REPLACE TABLE {n}_outraw AS {jsql}")
    # the output as later operators see it: payload names without r_/s_
    names = ["k AS k"] + [f"r_{c} AS {c}" for c, _ in rp] + [f"s_{c} AS {c}" for c, _ in sp]
    con.execute(f"CREATE OR REPLACE TABLE {n}_out AS SELECT {', '.join(names)} FROM {n}_outraw")
    ocols = [("k", rcols[0][1])] + [(f"r_{c}", t) for c, t in rp] + [(f"s_{c}", t) for c, t in sp]
    r_rows = export_table(con, f"{n}_r", rcols, os.path.join(out, f"{n}.r.gjc"))
    s_rows = export_table(con, f"{n}_s", scols, os.path.join(out, f"{n}.s.gjc"))
    o_rows = export_table(con, f"{n}_outraw", ocols, os.path.join(out, f"{n}.expect.gjc"))
    r_distinct = con.execute(f"SELECT count(DISTINCT k) FROM {n}_r").fetchone()[0]
    s_matched = con.execute(f"SELECT count(*) FROM {n}_s WHERE k IN (SELECT k FROM {n}_r)").fetchone()[0]
    med, runs = timed(con, jsql, reps)
    in_bytes = r_rows * width_sum(rcols) + s_rows * width_sum(scols)
    out_bytes = o_rows * width_sum(ocols)
    s_run = mean_run(os.path.join(out, f"{n}.s.gjc"), scols)
    r_sorted = keys_in_order(os.path.join(out, f"{n}.r.gjc"), rcols)
    s_sorted = keys_in_order(os.path.join(out, f"{n}.s.gjc"), scols)
    return dict(r_rows=r_rows, s_rows=s_rows, out_rows=o_rows, r_unique=(r_distinct == r_rows),
                s_run=s_run, r_sorted=r_sorted, s_sorted=s_sorted,
                match_ratio=(s_matched / s_rows if s_rows else 0.0),
                key_bytes=TYPES[rcols[0][1]][2], r_payloads=len(rp), s_payloads=len(sp),
                r_file=f"{n}.r.gjc", s_file=f"{n}.s.gjc", expect_file=f"{n}.expect.gjc",
                r_sql=rsql, s_sql=ssql, r_columns=rcols, s_columns=scols, out_columns=ocols,
                timed_sql=jsql, in_bytes=in_bytes, out_bytes=out_bytes,
                duckdb_ms=med, duckdb_runs=runs)


def do_groupby(con, op, out, reps):
    n = op["name"]
    isql, icols = op["inp"]
    con.execute(f"CREATE OR REPLACE TABLE {n}_in AS {typed_select(isql, icols)}")
    pay = icols[1:]
    aggs = op["aggs"]
    sel, ocols = ["k"], [("k", icols[0][1])]
    for i, a in enumerate(aggs):
        sel.append(AGG_SQL[a].format(c=pay[i][0] if i < len(pay) else "*") + f" AS a{i}")
        ocols.append((f"a{i}", AGG_TYPE[a] if a in AGG_TYPE else pay[i][1]))
    gsql = f"SELECT {', '.join(sel)} FROM {n}_in GROUP BY k"
    con.execute(f"CREATE OR REPLACE TABLE {n}_out AS {gsql} ORDER BY k")
    rows = export_table(con, f"{n}_in", icols, os.path.join(out, f"{n}.in.gjc"))
    groups = export_table(con, f"{n}_out", ocols, os.path.join(out, f"{n}.expect.gjc"))
    med, runs = timed(con, gsql, reps)
    read = rows * (TYPES[icols[0][1]][2] + sum(TYPES[pay[i][1]][2] for i, a in enumerate(aggs) if a != "count"))
    sorted_keys = keys_in_order(os.path.join(out, f"{n}.in.gjc"), icols)
    return dict(rows=rows, groups=groups, aggs=",".join(aggs), key_bytes=TYPES[icols[0][1]][2],
                sorted_keys=sorted_keys,
                in_file=f"{n}.in.gjc", expect_file=f"{n}.expect.gjc", in_sql=isql, in_columns=icols,
                out_columns=ocols, timed_sql=gsql, in_bytes=read, out_bytes=groups * width_sum(ocols),
                duckdb_ms=med, duckdb_runs=runs)


def close(a, b, tol):
    return abs(float(a) - float(b)) <= tol * max(1.0, abs(float(b)))


def sanity(con, done):
    """The exported operators reproduce the queries' answers (DuckDB's own TPC-H queries)."""
    msgs = []
    if "q1gb" in done:
        q1 = con.execute("PRAGMA tpch(1)").fetchall()
        mine = con.execute("SELECT chr((k >> 8)::INTEGER), chr((k & 255)::INTEGER), a0, a1, a2, a3, a4, a5, a6, a7 "
                           "FROM q1gb_out ORDER BY 1, 2").fetchall()
        assert len(q1) == len(mine), "q1: group counts differ"
        for a, b in zip(q1, mine):
            assert a[0] == b[0] and a[1] == b[1], f"q1 keys {a[:2]} {b[:2]}"
            assert close(a[2], b[2], 1e-12) and close(a[3], b[3] / 100, 1e-12), f"q1 sums {a} {b}"
            assert close(a[4], b[4] / 1e4, 1e-12) and close(a[5], b[5] / 1e6, 1e-12), f"q1 sums {a} {b}"
            assert close(a[6], b[6], 1e-9) and close(a[7], b[7] / 100, 1e-9), f"q1 avgs {a} {b}"
            assert close(a[8], b[8] / 100, 1e-9) and a[9] == b[9], f"q1 avg/count {a} {b}"
        msgs.append("q1: the 4 groups match PRAGMA tpch(1)")
    if "q3j2" in done:
        q3 = con.execute("PRAGMA tpch(3)").fetchall()
        mine = con.execute("SELECT k, sum(price * (100 - disc)) / 10000.0 AS rev, orderdate FROM q3j2_out "
                           "GROUP BY k, orderdate, shippriority ORDER BY rev DESC, orderdate LIMIT 10").fetchall()
        assert [r[0] for r in q3] == [r[0] for r in mine], f"q3 orderkeys {q3[:3]} {mine[:3]}"
        assert all(close(a[1], b[1], 1e-9) for a, b in zip(q3, mine)), "q3 revenue"
        msgs.append("q3: top 10 match PRAGMA tpch(3)")
    if "q5j3" in done:
        q5 = dict(con.execute("PRAGMA tpch(5)").fetchall())
        mine = con.execute("SELECT n_name, sum(price * (100 - disc)) / 10000.0 FROM q5j3_out "
                           "JOIN nation ON n_nationkey = nationkey GROUP BY n_name").fetchall()
        assert len(q5) == len(mine) and all(close(q5[a], b, 1e-9) for a, b in mine), f"q5 {q5} {mine}"
        msgs.append("q5: revenue by nation matches PRAGMA tpch(5)")
    if "q7j3" in done:
        q7 = con.execute("PRAGMA tpch(7)").fetchall()
        mine = con.execute("SELECT n1.n_name, n2.n_name, l_year, sum(volume) / 10000.0 FROM q7j3_out "
                           "JOIN nation n1 ON n1.n_nationkey = supp_nation JOIN nation n2 ON n2.n_nationkey = cust_nation "
                           "WHERE n1.n_nationkey <> n2.n_nationkey GROUP BY ALL ORDER BY 1, 2, 3").fetchall()
        assert len(q7) == len(mine) and all(a[:3] == b[:3] and close(a[3], b[3], 1e-9) for a, b in zip(q7, mine)), \
            f"q7 {q7} {mine}"
        msgs.append("q7: volume by nation pair and year matches PRAGMA tpch(7)")
    if "q18j3" in done:
        q18 = con.execute("PRAGMA tpch(18)").fetchall()
        mine = con.execute("SELECT d.v, orderkey, sum(qty) FROM q18j3_out JOIN dict_c_name d ON d.code = name "
                           "GROUP BY ALL ORDER BY max(totalprice) DESC, min(orderdate) LIMIT 100").fetchall()
        assert sorted((a[0], a[2], float(a[5])) for a in q18) == sorted((b[0], b[1], float(b[2])) for b in mine), "q18"
        msgs.append("q18: the 100 rows match PRAGMA tpch(18)")
    if "q19j" in done:
        q19 = con.execute("PRAGMA tpch(19)").fetchone()[0]
        mine = con.execute(
            "SELECT sum(price * (100 - disc)) / 10000.0 FROM q19j_out "
            "JOIN dict_p_brand b ON b.code = brand JOIN dict_p_container c ON c.code = container WHERE "
            "(b.v = 'Brand#12' AND c.v IN ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG') AND qty BETWEEN 1 AND 11 AND size <= 5) OR "
            "(b.v = 'Brand#23' AND c.v IN ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK') AND qty BETWEEN 10 AND 20 AND size <= 10) OR "
            "(b.v = 'Brand#34' AND c.v IN ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG') AND qty BETWEEN 20 AND 30 AND size <= 15)"
        ).fetchone()[0]
        assert close(q19, mine, 1e-9), f"q19 {q19} {mine}"
        msgs.append("q19: revenue matches PRAGMA tpch(19)")
    return msgs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sf", type=float, required=True, help="TPC-H scale factor (0.01 .. 100)")
    ap.add_argument("--out", required=True, help="output folder (created)")
    ap.add_argument("--reps", type=int, default=5, help="timed DuckDB runs after one warm-up (default 5)")
    ap.add_argument("--ops", default="all", help="comma-separated operator names, or all: " +
                    ", ".join(o["name"] for o in OPS))
    ap.add_argument("--threads", type=int, default=0, help="DuckDB threads (default: all cores)")
    a = ap.parse_args()
    if not (0.01 <= a.sf <= 100) or a.reps < 1:
        ap.error("--sf allowed 0.01..100, --reps >= 1")
    want = [o["name"] for o in OPS] if a.ops == "all" else a.ops.split(",")
    unknown = [w for w in want if w not in {o["name"] for o in OPS}]
    if unknown:
        ap.error(f"--ops: unknown {unknown}; allowed all or " + ", ".join(o["name"] for o in OPS))
    os.makedirs(a.out, exist_ok=True)
    con = duckdb.connect()
    if a.threads:
        con.execute(f"SET threads = {a.threads}")
    threads = con.execute("SELECT current_setting('threads')").fetchone()[0]
    t0 = time.perf_counter()
    con.execute("LOAD tpch")
    con.execute(f"CALL dbgen(sf = {a.sf})")
    gen_s = time.perf_counter() - t0
    print(f"dbgen sf={a.sf}: {gen_s:.1f} s, {threads} threads", flush=True)
    frac = con.execute("SELECT count(*) FROM lineitem WHERE l_quantity <> round(l_quantity)").fetchone()[0]
    assert frac == 0, "l_quantity has fractions: int32 encoding would lose them"
    for d, sql in DICTS.items():
        con.execute(f"CREATE TABLE {d} AS SELECT v, (row_number() OVER (ORDER BY v) - 1)::INTEGER AS code FROM ({sql})")
    manifest = dict(sf=a.sf, duckdb=duckdb.__version__, threads=threads, reps=a.reps, dbgen_s=gen_s,
                    date=time.strftime("%Y-%m-%d"), ops=[])
    done = set()
    # every operator in plan order (a later one may read an earlier one's output)
    for op in OPS:
        deps = {"q3j2": "q3j1", "q5j2": "q5j1", "q5j3": "q5j2", "q7j2": "q7j1", "q7j3": "q7j2",
                "q18j1": "q18gb", "q18j2": "q18j1", "q18j3": "q18j2"}
        need = op["name"] in want or any(op["name"] == deps.get(w) for w in want) or \
            any(deps.get(deps.get(w, ""), "") == op["name"] for w in want)
        if not need:
            continue
        t1 = time.perf_counter()
        m = (do_join if op["kind"] == "join" else do_groupby)(con, op, a.out, a.reps)
        m.update(name=op["name"], kind=op["kind"], query=op["query"], what=op["what"],
                 export_s=time.perf_counter() - t1)
        done.add(op["name"])
        if op["name"] in want:
            manifest["ops"].append(m)
        if op["kind"] == "join":
            print(f"{op['name']:6s} |R|={m['r_rows']} |S|={m['s_rows']} out={m['out_rows']} "
                  f"match={m['match_ratio']:.4g} duckdb {m['duckdb_ms']:.2f} ms", flush=True)
        else:
            print(f"{op['name']:6s} rows={m['rows']} groups={m['groups']} duckdb {m['duckdb_ms']:.2f} ms", flush=True)
    manifest["sanity"] = sanity(con, done)
    for s in manifest["sanity"]:
        print("sanity:", s)
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"wrote {a.out}/manifest.json ({len(manifest['ops'])} operators), {time.perf_counter() - t0:.1f} s in all")


if __name__ == "__main__":
    main()
