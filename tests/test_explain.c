/* gjadvise explain (explain/explain.c, cli/explain.c): hand-written DuckDB
 * plans with hand-derived workloads, every malformed case, and the plans
 * real DuckDB prints for the 22 TPC-H queries (made by tests/tpch_plans.py
 * at `make test` time into $GJ_TPCH_PLANS, default build/tpch_plans). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gjadvise.h"
#include "explain/explain.h"
#include "testutil.h"

static gj_profile *prof;
static char tmpdir[] = "/tmp/gjexplainXXXXXX";

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(tmpdir)) return -1;
    char db[96];
    snprintf(db, sizeof db, "%s/none.db", tmpdir);
    setenv("GJADVISE_DB", db, 1); /* never the user's store */
    return gj_profile_builtin("a100-paper", &prof);
}

static int teardown(void **state)
{
    (void)state;
    gj_profile_free(prof);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static gj_explain *explain_ok(const char *json, double unc)
{
    gj_explain *e = NULL;
    gj_ctx *ctx;
    gj_explain_opts o = {.uncertainty = unc};
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    int rc = gj_explain_plan(json, prof, &o, &e, ctx);
    if (rc != GJ_OK) fail_msg("explain failed (%d): %s", rc, gj_ctx_errmsg(ctx));
    gj_ctx_free(ctx);
    return e;
}

static const gj_explain_node *by_path(const gj_explain *e, const char *path)
{
    for (int i = 0; i < e->n; i++)
        if (!strcmp(e->nodes[i].path, path)) return &e->nodes[i];
    fail_msg("no node at %s", path);
    return NULL;
}

/* The node was advised exactly as gj_advise / gj_advise_range would. */
static void check_advice(const gj_explain_node *n, double unc)
{
    gj_plan plan;
    assert_int_equal(gj_advise(&n->w, prof, &plan, NULL), GJ_OK);
    assert_int_equal(n->rc, GJ_OK);
    assert_int_equal(n->plan.best, plan.best);
    assert_double_equal(n->plan.est[0].ms, plan.est[0].ms, 0);
    gj_workload_range r;
    gj_range_plan rp;
    assert_int_equal(gj_workload_range_around(&n->w, unc, &r, NULL), GJ_OK);
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    assert_int_equal(n->range_rc, GJ_OK);
    assert_int_equal(n->range.choice, rp.choice);
    assert_int_equal(n->range.flips, rp.flips);
    assert_double_equal(n->range.choice_regret, rp.choice_regret, 0);
}

#define SCAN(table, cols, card)                                                                \
    "{\"name\":\"SEQ_SCAN \",\"children\":[],\"extra_info\":{\"Text\":\"" table              \
    "\",\"Projections\":" cols ",\"Estimated Cardinality\":\"" card "\"}}"

/* build = right child (orders, 250000), probe = left (lineitem, 1e6); out
 * 400000: match ratio 0.4; 3 and 2 columns minus one key: 1+2 payloads. */
static const char *join_plan =
    "[{\"name\":\"HASH_JOIN\",\"children\":["
    SCAN("lineitem", "[\"l_orderkey\",\"l_price\",\"l_qty\"]", "1000000") ","
    SCAN("orders", "[\"o_orderkey\",\"o_date\"]", "250000")
    "],\"extra_info\":{\"Join Type\":\"INNER\",\"Conditions\":\"l_orderkey = o_orderkey\","
    "\"Estimated Cardinality\":\"400000\"}}]";

static void test_join(void **state)
{
    (void)state;
    gj_explain *e = explain_ok(join_plan, 4);
    assert_int_equal(e->n, 3);
    assert_int_equal(e->n_roots, 1);
    assert_int_equal(e->n_joins, 1);
    assert_int_equal(e->n_groupbys, 0);
    const gj_explain_node *j = by_path(e, "plan[0]");
    assert_string_equal(j->name, "HASH_JOIN");
    assert_int_equal(j->kind, GJ_EXPLAIN_JOIN);
    assert_int_equal(j->w.op, GJ_OP_JOIN);
    assert_int_equal(j->w.r_rows, 250000);
    assert_int_equal(j->w.s_rows, 1000000);
    assert_double_equal(j->w.match_ratio, 0.4, 1e-15);
    assert_int_equal(j->w.out_rows, 0);
    assert_int_equal(j->w.key_bytes, 4);
    assert_int_equal(j->w.payload_bytes, 8);
    assert_int_equal(j->w.r_payloads, 1);
    assert_int_equal(j->w.s_payloads, 2);
    assert_string_equal(j->detail, "INNER l_orderkey = o_orderkey");
    assert_string_equal(j->note, "");
    check_advice(j, 4);
    const gj_explain_node *s = by_path(e, "plan[0].children[1]");
    assert_string_equal(s->name, "SEQ_SCAN"); /* trailing blank removed */
    assert_string_equal(s->detail, "orders");
    assert_int_equal(s->kind, GJ_EXPLAIN_NONE);
    assert_int_equal(s->depth, 1);
    assert_int_equal(s->has_card, 1);
    assert_double_equal(s->card, 250000, 0);
    gj_explain_free(e);
}

/* Output above the probe side: many-to-many; two equality conditions make
 * an 8-byte key, the != condition is a filter, not a key column. */
static void test_join_many_to_many_composite(void **state)
{
    (void)state;
    const char *plan =
        "[{\"name\":\"HASH_JOIN\",\"children\":["
        SCAN("a", "[\"k1\",\"k2\",\"x\",\"y\",\"z\"]", "1000") ","
        SCAN("b", "[\"k1\",\"k2\"]", "500")
        "],\"extra_info\":{\"Join Type\":\"INNER\",\"Conditions\":[\"a.k1 = b.k1\","
        "\"a.k2 = b.k2\",\"a.x != b.k1\"],\"Estimated Cardinality\":\"3000\"}}]";
    gj_explain *e = explain_ok(plan, 4);
    const gj_explain_node *j = &e->nodes[0];
    assert_int_equal(j->w.key_bytes, 8);
    assert_int_equal(j->w.out_rows, 3000);
    assert_double_equal(j->w.match_ratio, 1, 0);
    assert_int_equal(j->w.s_payloads, 3);
    assert_int_equal(j->w.r_payloads, 0);
    assert_non_null(strstr(j->note, "composite key of 2 columns"));
    assert_non_null(strstr(j->note, "many-to-many"));
    check_advice(j, 4);
    gj_explain_free(e);
    /* a SEMI join never outputs more than its probe side: capped, and the
     * build side's columns are not carried */
    const char *semi =
        "[{\"name\":\"HASH_JOIN\",\"children\":["
        SCAN("a", "[\"k\",\"x\"]", "1000") "," SCAN("b", "[\"k\",\"y\",\"z\"]", "500")
        "],\"extra_info\":{\"Join Type\":\"SEMI\",\"Conditions\":\"k = k\","
        "\"Estimated Cardinality\":\"2000\"}}]";
    e = explain_ok(semi, 4);
    assert_int_equal(e->nodes[0].w.out_rows, 0);
    assert_double_equal(e->nodes[0].w.match_ratio, 1, 0);
    assert_int_equal(e->nodes[0].w.r_payloads, 0);
    assert_int_equal(e->nodes[0].w.s_payloads, 1);
    assert_non_null(strstr(e->nodes[0].note, "capped at 1"));
    gj_explain_free(e);
}

/* 9 aggregates of every kind: the first 8 mapped, notes for "first" and
 * the ninth; median and count-distinct make only SGB-* feasible. */
static void test_groupby(void **state)
{
    (void)state;
    const char *plan =
        "[{\"name\":\"HASH_GROUP_BY\",\"children\":[{\"name\":\"PROJECTION\",\"children\":["
        SCAN("t", "[\"a\"]", "10000") "],\"extra_info\":{\"Projections\":[\"#0\",\"#1\"],"
        "\"Estimated Cardinality\":\"10000\"}}],\"extra_info\":{\"Groups\":[\"#0\",\"#1\"],"
        "\"Aggregates\":[\"sum(#2)\",\"count_star()\",\"count(DISTINCT #3)\",\"\\\"first\\\"(#4)\","
        "\"quantile_cont(#5, 0.5)\",\"avg(#6)\",\"min(#1)\",\"max(#2)\",\"sum_no_overflow(#3)\"],"
        "\"Estimated Cardinality\":\"500\"}}]";
    gj_explain *e = explain_ok(plan, 4);
    assert_int_equal(e->n, 3);
    assert_int_equal(e->n_groupbys, 1);
    const gj_explain_node *g = &e->nodes[0];
    assert_int_equal(g->kind, GJ_EXPLAIN_GROUPBY);
    assert_int_equal(g->w.rows, 10000);
    assert_int_equal(g->w.groups, 500);
    assert_int_equal(g->w.key_bytes, 8);
    assert_int_equal(g->w.n_aggs, 8);
    const gj_agg want[8] = {GJ_AGG_SUM, GJ_AGG_COUNT, GJ_AGG_COUNT_DISTINCT, GJ_AGG_SUM,
                            GJ_AGG_MEDIAN, GJ_AGG_AVG, GJ_AGG_MIN, GJ_AGG_MAX};
    for (int i = 0; i < 8; i++) assert_int_equal(g->w.aggs[i], want[i]);
    assert_non_null(strstr(g->note, "aggregate first not modelled: treated as sum"));
    assert_non_null(strstr(g->note, "9 aggregates: the first 8 modelled"));
    assert_true(g->plan.best == GJ_IMPL_SGB_TR || g->plan.best == GJ_IMPL_SGB_UR ||
                g->plan.best == GJ_IMPL_SGB_DE_TR);
    check_advice(g, 4);
    gj_explain_free(e);
}

/* PERFECT_HASH_GROUP_BY has no estimate: min(rows, 2^12) groups. Groups
 * above rows and 0-row estimates are clamped, with notes. */
static void test_groupby_estimates(void **state)
{
    (void)state;
    const char *perfect =
        "[{\"name\":\"PERFECT_HASH_GROUP_BY\",\"children\":[" SCAN("t", "[\"a\",\"b\"]", "100000")
        "],\"extra_info\":{\"Groups\":\"#0\",\"Aggregates\":\"sum(#1)\"}}]";
    gj_explain *e = explain_ok(perfect, 4);
    assert_int_equal(e->nodes[0].w.groups, 4096);
    assert_int_equal(e->nodes[0].w.key_bytes, 4);
    assert_int_equal(e->nodes[0].has_card, 0);
    assert_non_null(strstr(e->nodes[0].note, "perfect_ht_threshold"));
    gj_explain_free(e);
    const char *small =
        "[{\"name\":\"PERFECT_HASH_GROUP_BY\",\"children\":[" SCAN("t", "[\"a\"]", "100")
        "],\"extra_info\":{\"Groups\":\"#0\",\"Aggregates\":\"max(#1)\"}}]";
    e = explain_ok(small, 4);
    assert_int_equal(e->nodes[0].w.groups, 100);
    gj_explain_free(e);
    const char *over =
        "[{\"name\":\"HASH_GROUP_BY\",\"children\":[" SCAN("t", "[\"a\"]", "0")
        "],\"extra_info\":{\"Groups\":\"#0\",\"Estimated Cardinality\":\"50\"}}]";
    e = explain_ok(over, 1);
    const gj_explain_node *g = &e->nodes[0];
    assert_int_equal(g->w.rows, 1);
    assert_int_equal(g->w.groups, 1);
    assert_int_equal(g->w.n_aggs, 1);
    assert_int_equal(g->w.aggs[0], GJ_AGG_COUNT);
    assert_non_null(strstr(g->note, "input estimated at 0 rows: taken as 1"));
    assert_non_null(strstr(g->note, "no aggregates (DISTINCT)"));
    assert_non_null(strstr(g->note, "more groups than input rows"));
    assert_int_equal(g->range_rc, -1); /* uncertainty 1: no range */
    gj_explain_free(e);
}

/* A delim join as DuckDB 1.1.3 prints it (TPC-H Q4's shape), an
 * UNGROUPED_AGGREGATE child (1 row), a NESTED_LOOP_JOIN and an unknown
 * operator passed through. */
static const char *nested_plan =
    "[{\"name\":\"MYSTERY_OP\",\"children\":[{\"name\":\"RIGHT_DELIM_JOIN\",\"children\":["
    SCAN("orders", "[\"o_orderkey\",\"o_prio\"]", "30000") ","
    "{\"name\":\"HASH_JOIN\",\"children\":[{\"name\":\"PROJECTION\",\"children\":["
    "{\"name\":\"HASH_JOIN\",\"children\":[" SCAN("lineitem", "[\"l_orderkey\"]", "120000") ","
    "{\"name\":\"DELIM_SCAN\",\"children\":[],\"extra_info\":{\"Delim Index\":\"1\","
    "\"Estimated Cardinality\":\"15000\"}}],\"extra_info\":{\"Join Type\":\"INNER\","
    "\"Conditions\":\"l_orderkey = o_orderkey\",\"Estimated Cardinality\":\"32000\"}}],"
    "\"extra_info\":{\"Projections\":\"#0\",\"Estimated Cardinality\":\"32000\"}},"
    "{\"name\":\"DUMMY_SCAN\",\"children\":[]}],\"extra_info\":{\"Join Type\":\"RIGHT_SEMI\","
    "\"Conditions\":\"o_orderkey IS NOT DISTINCT FROM o_orderkey\","
    "\"Estimated Cardinality\":\"32000\"}}],\"extra_info\":{\"Join Type\":\"RIGHT_SEMI\","
    "\"Conditions\":\"o_orderkey IS NOT DISTINCT FROM o_orderkey\",\"Estimated Cardinality\":"
    "\"32000\",\"Delim Index\":\"1\"}},"
    "{\"name\":\"NESTED_LOOP_JOIN\",\"children\":[{\"name\":\"UNGROUPED_AGGREGATE\",\"children\":["
    SCAN("x", "[\"a\"]", "7") "],\"extra_info\":{\"Aggregates\":\"sum(#0)\"}},"
    "{\"name\":\"HASH_JOIN\",\"children\":[" SCAN("y", "[\"a\"]", "40") ","
    "{\"name\":\"UNGROUPED_AGGREGATE\",\"children\":[" SCAN("z", "[\"a\"]", "9")
    "],\"extra_info\":{\"Aggregates\":\"max(#0)\"}}],\"extra_info\":{\"Join Type\":\"INNER\","
    "\"Conditions\":\"a = a\",\"Estimated Cardinality\":\"4\"}}],"
    "\"extra_info\":{\"Join Type\":\"INNER\",\"Conditions\":\"a > SUBQUERY\","
    "\"Estimated Cardinality\":\"3\"}}]}]";

static void test_nested(void **state)
{
    (void)state;
    gj_explain *e = explain_ok(nested_plan, 4);
    assert_int_equal(e->n, 16);
    assert_int_equal(e->n_joins, 3);
    assert_int_equal(e->n_groupbys, 1);
    const gj_explain_node *m = by_path(e, "plan[0]");
    assert_string_equal(m->name, "MYSTERY_OP");
    assert_int_equal(m->kind, GJ_EXPLAIN_NONE);
    /* the delim join: DISTINCT of orders (30000 rows) into the DELIM_SCAN's 15000 */
    const gj_explain_node *d = by_path(e, "plan[0].children[0]");
    assert_int_equal(d->kind, GJ_EXPLAIN_GROUPBY);
    assert_int_equal(d->w.rows, 30000);
    assert_int_equal(d->w.groups, 15000);
    assert_non_null(strstr(d->note, "delim join"));
    check_advice(d, 4);
    /* its hash join: the DUMMY_SCAN stands for orders (30000 rows, 2 columns) */
    const gj_explain_node *j = by_path(e, "plan[0].children[0].children[1]");
    assert_int_equal(j->kind, GJ_EXPLAIN_JOIN);
    assert_int_equal(j->w.r_rows, 30000);
    assert_int_equal(j->w.s_rows, 32000);
    assert_int_equal(j->w.r_payloads, 1);
    assert_int_equal(j->w.s_payloads, 0); /* RIGHT_SEMI: probe columns dropped */
    assert_non_null(strstr(j->note, "DUMMY_SCAN stands for it"));
    const gj_explain_node *inner = by_path(e, "plan[0].children[0].children[1].children[0].children[0]");
    assert_int_equal(inner->w.r_rows, 15000);
    assert_int_equal(inner->w.s_rows, 120000);
    /* NESTED_LOOP_JOIN passed through; the hash join under it builds on an
     * UNGROUPED_AGGREGATE: one row */
    assert_int_equal(by_path(e, "plan[0].children[1]")->kind, GJ_EXPLAIN_NONE);
    const gj_explain_node *h = by_path(e, "plan[0].children[1].children[1]");
    assert_int_equal(h->w.r_rows, 1);
    assert_int_equal(h->w.s_rows, 40);
    assert_double_equal(h->w.match_ratio, 0.1, 1e-15);
    gj_explain_free(e);
}

static int count_str(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* A JSON value by path through SQLite's JSON functions (the re-parse). */
static void json_get(const char *json, const char *path, char *out, size_t n)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT json_valid(?1), json_extract(?1, ?2)", -1,
                                        &st, NULL), SQLITE_OK);
    sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 1);
    const char *v = (const char *)sqlite3_column_text(st, 1);
    snprintf(out, n, "%s", v ? v : "(null)");
    sqlite3_finalize(st);
    sqlite3_close(db);
}

static void test_outputs(void **state)
{
    (void)state;
    gj_explain *e = explain_ok(nested_plan, 4);
    char *t = NULL, *j = NULL, v[256];
    assert_int_equal(gj_explain_text(e, &t), GJ_OK);
    assert_int_equal(count_str(t, "=> GPU: "), 4);
    assert_int_equal(count_str(t, "over x/4..x*4"), 4);
    assert_non_null(strstr(t, "3 hash joins and 1 hash group-by annotated"));
    assert_non_null(strstr(t, "\n  RIGHT_DELIM_JOIN  ~32000 rows  RIGHT_SEMI"));
    assert_non_null(strstr(t, "\n  NESTED_LOOP_JOIN  ~3 rows  INNER a > SUBQUERY\n"));
    assert_int_equal(gj_explain_json(e, &j), GJ_OK);
    json_get(j, "$.hash_joins", v, sizeof v);
    assert_string_equal(v, "3");
    json_get(j, "$.plan[0].name", v, sizeof v);
    assert_string_equal(v, "MYSTERY_OP");
    json_get(j, "$.plan[0].gpu", v, sizeof v);
    assert_string_equal(v, "(null)");
    json_get(j, "$.plan[0].children[0].gpu.workload.groups", v, sizeof v);
    assert_string_equal(v, "15000");
    json_get(j, "$.plan[0].children[0].gpu.recommended", v, sizeof v);
    assert_string_equal(v, gj_impl_name(e->nodes[1].plan.best));
    json_get(j, "$.plan[0].children[0].gpu.range.choice", v, sizeof v);
    assert_string_equal(v, gj_impl_name(e->nodes[1].range.choice));
    json_get(j, "$.plan[0].children[1].children[1].path", v, sizeof v);
    assert_string_equal(v, "plan[0].children[1].children[1]");
    json_get(j, "$.plan[0].children[0].children[0].estimated_cardinality", v, sizeof v);
    assert_string_equal(v, "30000");
    gj_free(t);
    gj_free(j);
    gj_explain_free(e);
    assert_int_equal(gj_explain_text(NULL, &t), GJ_ERR_INVALID);
    assert_int_equal(gj_explain_json(NULL, &j), GJ_ERR_INVALID);
    assert_null(j);
}

/* Two 2^27-row sides, 2+2 payload columns of 4 bytes, match ratio 0.2:
 * a 4x box flips (across the semi-join filter's range and the joins'
 * crossovers); the text marks the filter. */
static void test_flips_marker(void **state)
{
    (void)state;
    const char *plan =
        "[{\"name\":\"HASH_JOIN\",\"children\":["
        SCAN("s", "[\"k\",\"a\",\"b\"]", "134217728") "," SCAN("r", "[\"k\",\"c\",\"d\"]", "134217728")
        "],\"extra_info\":{\"Join Type\":\"INNER\",\"Conditions\":\"k = k\","
        "\"Estimated Cardinality\":\"26843546\"}}]";
    gj_explain *e = NULL;
    gj_explain_opts o = {.uncertainty = 4, .payload_bytes = 4};
    assert_int_equal(gj_explain_plan(plan, prof, &o, &e, NULL), GJ_OK);
    assert_int_equal(e->nodes[0].w.payload_bytes, 4);
    assert_int_equal(e->nodes[0].w.r_payloads, 2);
    assert_int_equal(e->nodes[0].range.flips, 1);
    char *t = NULL;
    assert_int_equal(gj_explain_text(e, &t), GJ_OK);
    assert_non_null(strstr(t, "FLIPS "));
    /* at 0.2 the model runs the join after the semi-join filter, and says so */
    assert_true(e->nodes[0].plan.est[0].filtered);
    assert_non_null(strstr(t, " ms after a semi-join filter (runner-up "));
    gj_free(t);
    gj_explain_free(e);
}

static void expect_bad(const char *json, const char *needle)
{
    gj_explain *e = (gj_explain *)1;
    gj_ctx *ctx;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    int rc = gj_explain_plan(json, prof, NULL, &e, ctx);
    if (rc != GJ_ERR_PARSE) fail_msg("rc %d for %.80s (%s)", rc, json, gj_ctx_errmsg(ctx));
    if (!strstr(gj_ctx_errmsg(ctx), needle))
        fail_msg("message '%s' lacks '%s'", gj_ctx_errmsg(ctx), needle);
    assert_null(e);
    gj_ctx_free(ctx);
}

static void test_malformed(void **state)
{
    (void)state;
    expect_bad("not json", "not valid JSON");
    expect_bad("", "not valid JSON");
    expect_bad("[{\"name\":\"X\"", "not valid JSON");
    expect_bad("42", "the top level is integer");
    expect_bad("\"plan\"", "the top level is text");
    expect_bad("[]", "an empty array");
    expect_bad("{\"foo\":1}", "not a DuckDB plan");
    expect_bad("[{\"children\":[]}]", "plan[0]: no \"name\"");
    expect_bad("[{\"name\":7}]", "plan[0]: \"name\" is integer, expected a non-empty string");
    expect_bad("[{\"name\":\"\"}]", "expected a non-empty string");
    expect_bad("[1]", "plan[0]: is integer, expected a plan node");
    expect_bad("[{\"name\":\"A\",\"children\":[{\"name\":\"B\"},\"x\"]}]",
               "plan[0].children[1]: is text, expected a plan node");
    expect_bad("[{\"name\":\"A\",\"children\":{}}]",
               "plan[0] A: \"children\" is object, expected an array");
    expect_bad("[{\"name\":\"A\",\"extra_info\":\"EC: 5\"}]",
               "plan[0] A: \"extra_info\" is text, expected an object");
    /* cardinalities */
    const char *cards[] = {"\"abc\"", "\"-5\"", "-5", "\"\"", "true", "null", "\"1e999\"",
                           "\"12 rows\"", "[1]"};
    for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++) {
        char plan[512];
        snprintf(plan, sizeof plan,
                 "[{\"name\":\"HASH_JOIN\",\"children\":[" SCAN("a", "[\"k\"]", "5") ","
                 "{\"name\":\"SEQ_SCAN \",\"extra_info\":{\"Estimated Cardinality\":%s}}]}]",
                 cards[i]);
        expect_bad(plan, "plan[0].children[1] SEQ_SCAN: \"Estimated Cardinality\" is");
        expect_bad(plan, "expected a non-negative number");
    }
    /* a join needs two children, a group-by one */
    expect_bad("[{\"name\":\"HASH_JOIN\",\"children\":[" SCAN("a", "[\"k\"]", "5") "]}]",
               "plan[0] HASH_JOIN: has 1 children, expected 2 (probe side, build side)");
    expect_bad("[{\"name\":\"HASH_JOIN\"}]", "plan[0] HASH_JOIN: has 0 children, expected 2");
    expect_bad("[{\"name\":\"HASH_GROUP_BY\",\"children\":[" SCAN("a", "[\"k\"]", "5") ","
               SCAN("b", "[\"k\"]", "5") "]}]",
               "plan[0] HASH_GROUP_BY: has 2 children, expected 1 (its input)");
    /* a side whose rows cannot be known */
    expect_bad("[{\"name\":\"HASH_JOIN\",\"children\":[{\"name\":\"FOO\",\"children\":[]},"
               SCAN("b", "[\"k\"]", "5") "]}]",
               "plan[0].children[0] FOO: no \"Estimated Cardinality\" here or below: expected "
               "one for the probe side (left child) of HASH_JOIN at plan[0]");
    /* nested deeper than 256 operators */
    char *deep = malloc(300 * 40 + 64);
    assert_non_null(deep);
    char *p = deep;
    p += sprintf(p, "[");
    for (int i = 0; i < 300; i++) p += sprintf(p, "{\"name\":\"FILTER\",\"children\":[");
    for (int i = 0; i < 300; i++) p += sprintf(p, "]}");
    sprintf(p, "]");
    expect_bad(deep, "nested deeper than 256 operators");
    free(deep);
    /* bad arguments */
    gj_explain *e = NULL;
    gj_explain_opts o = {.uncertainty = 0.5};
    assert_int_equal(gj_explain_plan(join_plan, prof, &o, &e, NULL), GJ_ERR_INVALID);
    o = (gj_explain_opts){.payload_bytes = 5};
    assert_int_equal(gj_explain_plan(join_plan, prof, &o, &e, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_explain_plan(NULL, prof, NULL, &e, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_explain_plan(join_plan, NULL, NULL, &e, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_explain_plan(join_plan, prof, NULL, NULL, NULL), GJ_ERR_INVALID);
    assert_null(e);
    gj_explain_free(NULL);
}

/* ---- the 22 TPC-H plans of real DuckDB ------------------------------------- */

static const char *plans_dir(void)
{
    const char *d = getenv("GJ_TPCH_PLANS");
    return d && *d ? d : "build/tpch_plans";
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

static void test_tpch_plans(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/counts.txt", plans_dir());
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s missing: DuckDB's TPC-H plans were not generated. Run ./setup.sh (it "
                 "installs duckdb==1.1.3 into .venv), then make test", path);
    int queries = 0, total = 0;
    char q[8];
    int cj, cg, cd;
    while (fscanf(f, "%7s %d %d %d", q, &cj, &cg, &cd) == 4) {
        snprintf(path, sizeof path, "%s/%s.json", plans_dir(), q);
        char *json = slurp(path);
        if (!json) fail_msg("%s unreadable", path);
        gj_explain *e = explain_ok(json, 4);
        int hj = 0, hg = 0, dj = 0;
        for (int i = 0; i < e->n; i++) {
            const gj_explain_node *n = &e->nodes[i];
            const char *nm = n->name;
            int want = GJ_EXPLAIN_NONE;
            size_t l = strlen(nm);
            if (!strcmp(nm, "HASH_JOIN")) want = GJ_EXPLAIN_JOIN, hj++;
            else if (!strcmp(nm, "HASH_GROUP_BY") || !strcmp(nm, "PERFECT_HASH_GROUP_BY"))
                want = GJ_EXPLAIN_GROUPBY, hg++;
            else if (l >= 10 && !strcmp(nm + l - 10, "DELIM_JOIN")) want = GJ_EXPLAIN_GROUPBY, dj++;
            if ((int)n->kind != want) fail_msg("%s %s %s: kind %d, expected %d", q, n->path, nm, n->kind, want);
            if (want == GJ_EXPLAIN_NONE) continue;
            assert_int_equal(gj_workload_check(&n->w, NULL), GJ_OK);
            if (n->rc != GJ_OK || n->range_rc != GJ_OK)
                fail_msg("%s %s: rc %d range %d", q, n->path, n->rc, n->range_rc);
            assert_true(n->plan.est[0].ms > 0);
            assert_true(n->range.est[0].min_ms <= n->range.est[0].max_ms);
        }
        if (hj != cj || hg != cg || dj != cd)
            fail_msg("%s: annotated %d/%d/%d, DuckDB's plan has %d/%d/%d", q, hj, hg, dj, cj, cg, cd);
        assert_int_equal(e->n_joins, cj);
        assert_int_equal(e->n_groupbys, cg + cd);
        char *t = NULL, *js = NULL, v[64];
        assert_int_equal(gj_explain_text(e, &t), GJ_OK);
        assert_int_equal(count_str(t, "=> GPU: "), cj + cg + cd);
        assert_int_equal(gj_explain_json(e, &js), GJ_OK);
        json_get(js, "$.hash_joins", v, sizeof v);
        assert_int_equal(atoi(v), cj);
        json_get(js, "$.hash_group_bys", v, sizeof v);
        assert_int_equal(atoi(v), cg + cd);
        total += cj + cg + cd;
        gj_free(t);
        gj_free(js);
        gj_explain_free(e);
        free(json);
        queries++;
    }
    fclose(f);
    assert_int_equal(queries, 22);
    assert_true(total > 60); /* DuckDB 1.1.3 at sf 0.1: 73 + 18 + 3 + 7 */
}

/* ---- the command line -------------------------------------------------------- */

static int run_cli(const char *args, char *out, size_t n)
{
    const char *bin = getenv("GJ_BIN");
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", bin, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t got = fread(out, 1, n - 1, p);
    out[got] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void write_file(const char *path, const char *s)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(s, f);
    fclose(f);
}

static void test_cli(void **state)
{
    (void)state;
    const char *bin = getenv("GJ_BIN");
    if (!bin || access(bin, X_OK)) skip();
    static char out[1 << 16];
    char good[128], bad[128], args[512];
    snprintf(good, sizeof good, "%s/join.json", tmpdir);
    snprintf(bad, sizeof bad, "%s/bad.json", tmpdir);
    write_file(good, join_plan);
    write_file(bad, "[{\"name\":\"HASH_JOIN\",\"children\":[]}]");
    snprintf(args, sizeof args, "explain %s", good);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "HASH_JOIN  ~400000 rows  INNER l_orderkey = o_orderkey"));
    assert_non_null(strstr(out, "build 250000 rows, probe 1000000 rows, match ratio 0.4"));
    assert_non_null(strstr(out, "=> GPU: "));
    assert_non_null(strstr(out, "over x/4..x*4"));
    snprintf(args, sizeof args, "explain --json --uncertainty 1 - < %s", good);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    char v[64];
    json_get(out, "$.plan[0].gpu.workload.r_rows", v, sizeof v);
    assert_string_equal(v, "250000");
    json_get(out, "$.plan[0].gpu.range", v, sizeof v);
    assert_string_equal(v, "(null)");
    snprintf(args, sizeof args, "explain %s", bad);
    assert_int_equal(run_cli(args, out, sizeof out), 5);
    assert_non_null(strstr(out, "plan[0] HASH_JOIN: has 0 children, expected 2"));
    assert_int_equal(run_cli("explain /nonexistent/plan.json", out, sizeof out), 5);
    assert_non_null(strstr(out, "cannot open"));
    snprintf(args, sizeof args, "explain --uncertainty 0.5 %s", good);
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    assert_non_null(strstr(out, "--uncertainty=0.5: allowed a factor from 1"));
    snprintf(args, sizeof args, "explain --payload-bytes 6 %s", good);
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    snprintf(args, sizeof args, "explain --bogus %s", good);
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    assert_non_null(strstr(out, "unknown flag '--bogus'"));
    assert_int_equal(run_cli("explain", out, sizeof out), 2);
    assert_non_null(strstr(out, "PLAN.json missing"));
    snprintf(args, sizeof args, "explain %s %s", good, good);
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    snprintf(args, sizeof args, "explain --profile nosuch %s", good);
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    assert_int_equal(run_cli("explain --help", out, sizeof out), 0);
    assert_non_null(strstr(out, "examples:"));
    assert_non_null(strstr(out, "exit codes:"));
    assert_non_null(strstr(out, "--uncertainty F"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_join),
        cmocka_unit_test(test_join_many_to_many_composite),
        cmocka_unit_test(test_groupby),
        cmocka_unit_test(test_groupby_estimates),
        cmocka_unit_test(test_nested),
        cmocka_unit_test(test_outputs),
        cmocka_unit_test(test_flips_marker),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_tpch_plans),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
