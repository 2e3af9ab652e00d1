/* validate/: grid parsing (good and malformed files), the summary's
 * arithmetic on hand-made results (errors, regret, crossovers), collecting
 * results from execution records (newest wins, other tags and GPUs ignored,
 * regret), resume detection through a real store, the report files, the CLI
 * replay without a GPU, and a tiny grid end to end on the GPU (skipped
 * without one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gjadvise.h"
#include "testutil.h"
#include "validate/validate.h"

static int have_gpu(void)
{
    int n = 0;
    return gj_gpu_count(&n, NULL) == GJ_OK && n > 0;
}

static const char *GOOD =
    "{\"sweeps\":["
    "{\"name\":\"m\",\"base\":{\"op\":\"join\",\"r_rows\":1024,\"s_rows\":2048},\"param\":\"match_ratio\","
    "\"values\":[0.1,0.5,0.9]},"
    "{\"name\":\"g\",\"base\":{\"op\":\"groupby\",\"rows\":4096,\"groups\":16,\"aggs\":[\"sum\",\"max\",\"count\"]},"
    "\"param\":\"groups\",\"values\":[2,8,32]},"
    "{\"name\":\"a\",\"base\":{\"op\":\"groupby\",\"rows\":4096,\"groups\":16,\"aggs\":[\"sum\",\"max\",\"count\"]},"
    "\"param\":\"aggs\",\"values\":[1,3]},"
    "{\"name\":\"n\",\"base\":{\"op\":\"join\",\"r_rows\":1024,\"s_rows\":2048},\"param\":\"rows\","
    "\"values\":[4096]},"
    "{\"name\":\"gr\",\"base\":{\"op\":\"groupby\",\"rows\":4096,\"groups\":1000},\"param\":\"rows\","
    "\"values\":[512]}"
    "]}";

static void test_grid_good(void **state)
{
    (void)state;
    gj_grid *g = NULL;
    gj_ctx *ctx = NULL;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    assert_int_equal(gj_grid_parse(GOOD, "mine", &g, ctx), GJ_OK);
    assert_string_equal(g->tag, "validate:mine");
    assert_int_equal(g->n_sweeps, 5);
    assert_int_equal(g->n_points, 10);
    assert_int_equal(g->sweeps[0].param, GJ_VP_MATCH_RATIO);
    assert_double_equal(g->points[1].w.match_ratio, 0.5, 0);
    assert_int_equal(g->points[1].w.r_rows, 1024);
    assert_int_equal(g->points[1].w.s_rows, 2048);
    assert_int_equal(g->points[1].w.r_payloads, 2);   /* default kept */
    assert_int_equal(g->points[4].w.groups, 8);
    assert_int_equal(g->points[4].w.n_aggs, 3);
    /* aggs=1 keeps the first aggregate */
    assert_int_equal(g->points[6].w.n_aggs, 1);
    assert_int_equal(g->points[6].w.aggs[0], GJ_AGG_SUM);
    assert_int_equal(g->points[7].w.n_aggs, 3);
    assert_int_equal(g->points[7].w.aggs[2], GJ_AGG_COUNT);
    /* rows: both join sides; group-by rows with groups clamped to rows */
    assert_int_equal(g->points[8].w.r_rows, 4096);
    assert_int_equal(g->points[8].w.s_rows, 4096);
    assert_int_equal(g->points[9].w.rows, 512);
    assert_int_equal(g->points[9].w.groups, 512);
    gj_grid_free(g);
    /* a top-level array is the same grid */
    const char *arr = "[{\"name\":\"x\",\"base\":{\"op\":\"join\"},\"param\":\"zipf\",\"values\":[0,1]}]";
    assert_int_equal(gj_grid_parse(arr, "arr", &g, ctx), GJ_OK);
    assert_int_equal(g->n_points, 2);
    assert_double_equal(g->points[1].w.zipf, 1.0, 0);
    gj_grid_free(g);
    /* a groups sweep moves a span told in the base with the groups (the
     * generator's keys 0..g-1), and leaves an untold one untold */
    const char *span = "[{\"name\":\"s\",\"base\":{\"op\":\"groupby\",\"rows\":4096,\"groups\":16,\"key_range\":16},"
                       "\"param\":\"groups\",\"values\":[64,1024]},"
                       "{\"name\":\"u\",\"base\":{\"op\":\"groupby\",\"rows\":4096},\"param\":\"groups\",\"values\":[64]}]";
    assert_int_equal(gj_grid_parse(span, "span", &g, ctx), GJ_OK);
    assert_int_equal(g->n_points, 3);
    assert_true(g->points[0].w.key_range == 64 && g->points[1].w.key_range == 1024);
    assert_true(g->points[2].w.key_range == 0);
    gj_grid_free(g);
    /* built-ins parse, within the limits the issue sets */
    assert_int_equal(gj_grid_load("default", &g, ctx), GJ_OK);
    assert_true(g->n_points >= 50 && g->n_points <= 150);
    assert_string_equal(g->tag, "validate:default");
    gj_grid_free(g);
    assert_int_equal(gj_grid_load("quick", &g, ctx), GJ_OK);
    assert_true(g->n_points >= 10 && g->n_points <= 30);
    for (int i = 0; i < g->n_points; i++)
        assert_true(g->points[i].w.op == GJ_OP_JOIN ? g->points[i].w.r_rows == (1u << 22) : g->points[i].w.rows == (1u << 22));
    gj_grid_free(g);
    gj_ctx_free(ctx);
}

static void test_grid_file(void **state)
{
    (void)state;
    char path[] = "/tmp/gjval-grid-XXXXXX.json";
    int fd = mkstemps(path, 5);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, GOOD, strlen(GOOD)), (ssize_t)strlen(GOOD));
    close(fd);
    gj_grid *g = NULL;
    gj_ctx *ctx = NULL;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    assert_int_equal(gj_grid_load(path, &g, ctx), GJ_OK);
    /* tag from the base name without .json */
    char expect[64];
    const char *b = strrchr(path, '/') + 1;
    snprintf(expect, sizeof expect, "validate:%.*s", (int)(strlen(b) - 5), b);
    assert_string_equal(g->tag, expect);
    gj_grid_free(g);
    unlink(path);
    assert_int_equal(gj_grid_load(path, &g, ctx), GJ_ERR_IO);
    assert_null(g);
    assert_non_null(strstr(gj_ctx_errmsg(ctx), path));
    gj_ctx_free(ctx);
}

#define SW(fields) "[{" fields "}]"
#define JB "\"base\":{\"op\":\"join\",\"r_rows\":1024,\"s_rows\":1024}"
#define GBB "\"base\":{\"op\":\"groupby\",\"rows\":1024,\"groups\":16,\"aggs\":[\"max\",\"max\"]}"

static void test_grid_bad(void **state)
{
    (void)state;
    static const struct {
        const char *json;
        int code;
        const char *msg;
    } cases[] = {
        {"not json", GJ_ERR_PARSE, "not valid JSON"},
        {"42", GJ_ERR_PARSE, "top level is integer"},
        {"{\"sweeps\":[],}", GJ_ERR_PARSE, "not valid JSON"},
        {"{\"sweeps\":[]}", GJ_ERR_INVALID, "sweeps: 0 given"},
        {"{\"sweep\":[]}", GJ_ERR_PARSE, "unknown key \"sweep\""},
        {"{}", GJ_ERR_PARSE, "\"sweeps\" missing"},
        {"{\"sweeps\":3}", GJ_ERR_PARSE, "sweeps: is integer"},
        {"[3]", GJ_ERR_PARSE, "sweep 0: is integer"},
        {SW("\"name\":\"a\"," JB ",\"param\":\"match_ratio\""), GJ_ERR_PARSE, "sweep 0: key \"values\" missing"},
        {SW(JB ",\"param\":\"match_ratio\",\"values\":[1]"), GJ_ERR_PARSE, "sweep 0: key \"name\" missing"},
        {SW("\"name\":\"a\"," JB ",\"param\":\"foo\",\"values\":[1]"), GJ_ERR_PARSE, "sweep 0: param=foo"},
        {SW("\"name\":\"a\"," JB ",\"param\":3,\"values\":[1]"), GJ_ERR_PARSE, "sweep 0: param="},
        {SW("\"name\":\"a\"," JB ",\"param\":\"zipf\",\"values\":1"), GJ_ERR_PARSE, "sweep 0: values: is integer"},
        {SW("\"name\":\"a\"," JB ",\"param\":\"zipf\",\"values\":[0,\"x\"]"), GJ_ERR_PARSE,
         "sweep 0 (\"a\"): values[1]: is text"},
        {SW("\"name\":\"a\"," JB ",\"param\":\"match_ratio\",\"values\":[1.5]"), GJ_ERR_INVALID,
         "sweep 0 (\"a\"): values[0]=1.5: match_ratio allowed 0..1"},
        {SW("\"name\":\"a\"," JB ",\"param\":\"zipf\",\"values\":[1,0.5]"), GJ_ERR_INVALID,
         "sweep 0 (\"a\"): values[1]=0.5: values must increase"},
        {SW("\"name\":\"a\"," JB ",\"param\":\"zipf\",\"values\":[]"), GJ_ERR_INVALID, "sweep 0 (\"a\"): values: empty"},
        {SW("\"name\":\"a\"," JB ",\"param\":\"groups\",\"values\":[4]"), GJ_ERR_INVALID,
         "sweep 0 (\"a\"): param=groups does not apply to a join"},
        {SW("\"name\":\"a\"," GBB ",\"param\":\"match_ratio\",\"values\":[0.5]"), GJ_ERR_INVALID,
         "param=match_ratio does not apply to a groupby"},
        {SW("\"name\":\"a\",\"base\":3,\"param\":\"zipf\",\"values\":[1]"), GJ_ERR_PARSE, "sweep 0: base: is integer"},
        {SW("\"name\":\"a\",\"base\":{\"op\":\"join\",\"colour\":1},\"param\":\"zipf\",\"values\":[1]"), GJ_ERR_PARSE,
         "sweep 0 (\"a\"): base: workload: unknown key \"colour\""},
        {SW("\"name\":\"a\"," JB ",\"param\":\"zipf\",\"values\":[1],\"colour\":1"), GJ_ERR_PARSE,
         "sweep 0: unknown key \"colour\""},
        {SW("\"name\":\"a b\"," JB ",\"param\":\"zipf\",\"values\":[1]"), GJ_ERR_PARSE, "sweep 0: name:"},
        {SW("\"name\":\"a\",\"name\":\"b\"," JB ",\"param\":\"zipf\",\"values\":[1]"), GJ_ERR_PARSE, "appears twice"},
        {"[{\"name\":\"a\"," JB ",\"param\":\"zipf\",\"values\":[1]},{\"name\":\"a\"," JB
         ",\"param\":\"zipf\",\"values\":[2]}]", GJ_ERR_INVALID, "sweep 1 (\"a\"): name: used by sweep 0"},
        {SW("\"name\":\"a\"," GBB ",\"param\":\"aggs\",\"values\":[1,3]"), GJ_ERR_INVALID,
         "sweep 0 (\"a\"): values[1]=3: aggs allowed an integer 1..2"},
        {SW("\"name\":\"a\"," GBB ",\"param\":\"groups\",\"values\":[2048]"), GJ_ERR_INVALID,
         "sweep 0 (\"a\"): values[0]=2048: workload:"},
        {SW("\"name\":\"a\"," JB ",\"param\":\"r_rows\",\"values\":[10.5]"), GJ_ERR_INVALID,
         "values[0]=10.5: r_rows allowed an integer"},
        {SW("\"name\":\"a\"," JB ",\"param\":\"key_bytes\",\"values\":[4,6]"), GJ_ERR_INVALID,
         "values[1]=6: key_bytes allowed 4 or 8"},
        {SW("\"name\":\"a\"," JB ",\"param\":\"payloads\",\"values\":[9]"), GJ_ERR_INVALID,
         "values[0]=9: payloads allowed an integer 0..8"},
    };
    gj_ctx *ctx = NULL;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gj_grid *g = (gj_grid *)&ctx;   /* must be reset to NULL */
        int rc = gj_grid_parse(cases[i].json, "bad", &g, ctx);
        if (rc != cases[i].code || !strstr(gj_ctx_errmsg(ctx), cases[i].msg))
            fail_msg("case %zu: %s -> rc %d (expected %d), message \"%s\" (expected to contain \"%s\")", i,
                     cases[i].json, rc, cases[i].code, gj_ctx_errmsg(ctx), cases[i].msg);
        assert_null(g);
    }
    gj_grid *g = NULL;
    assert_int_equal(gj_grid_parse(GOOD, "bad name", &g, ctx), GJ_ERR_INVALID);
    assert_int_equal(gj_grid_parse(NULL, "x", &g, ctx), GJ_ERR_INVALID);
    assert_int_equal(gj_grid_load(NULL, &g, ctx), GJ_ERR_INVALID);
    gj_ctx_free(ctx);
}

static void blank(gj_vresult *r, int n)
{
    for (int p = 0; p < n; p++) {
        memset(&r[p], 0, sizeof r[p]);
        for (int i = 0; i < GJ_IMPL_COUNT; i++) r[p].measured[i] = r[p].predicted[i] = NAN;
        r[p].choice = r[p].best = -1;
        r[p].regret = NAN;
    }
}

static void test_summary_math(void **state)
{
    (void)state;
    gj_grid *g = NULL;
    gj_vresult r[10];
    gj_vsummary s;
    assert_int_equal(gj_grid_parse(GOOD, "t", &g, NULL), GJ_OK);
    blank(r, 10);
    /* sweep m (points 0..2, x = 0.1, 0.5, 0.9, linear axis) */
    double tr[3] = {10, 9, 4}, ur[3] = {6, 8, 9};
    for (int j = 0; j < 3; j++) {
        r[j].measured[GJ_IMPL_PHJ_TR] = tr[j];
        r[j].measured[GJ_IMPL_PHJ_UR] = ur[j];
        r[j].predicted[GJ_IMPL_PHJ_TR] = 5;
        r[j].predicted[GJ_IMPL_PHJ_UR] = 1 + j;   /* TR never faster */
        r[j].n_measured = 2;
    }
    r[0].holdout = r[2].holdout = 1;
    /* sweep g (points 3..5, x = 2, 8, 32, log2 axis) */
    double sgtr[3] = {10, 6, 5};
    for (int j = 0; j < 3; j++) {
        r[3 + j].measured[GJ_IMPL_SGB_TR] = sgtr[j];
        r[3 + j].measured[GJ_IMPL_SGB_UR] = 8;
        r[3 + j].predicted[GJ_IMPL_SGB_TR] = 1;
        r[3 + j].predicted[GJ_IMPL_SGB_UR] = 2;    /* TR faster from the start */
        r[3 + j].n_measured = 2;
    }
    /* regrets: 0, 0.25, -, 0.1, 0, 0.5 over points 0..5 */
    double rg[6] = {0, 0.25, NAN, 0.1, 0, 0.5};
    for (int j = 0; j < 6; j++) r[j].regret = rg[j];
    r[5].holdout = 1;

    assert_int_equal(gj_validate_summarize(g, r, 0, &s, NULL), GJ_OK);
    assert_int_equal(s.n_points, 10);
    assert_int_equal(s.n_used, 6);
    /* PHJ-TR errors: |5/10-1| = 0.5, |5/9-1| = 4/9, |5/4-1| = 0.25 */
    assert_int_equal(s.err[GJ_IMPL_PHJ_TR].n, 3);
    assert_double_equal(s.err[GJ_IMPL_PHJ_TR].med, 4.0 / 9, 1e-12);
    assert_double_equal(s.err[GJ_IMPL_PHJ_TR].max, 0.5, 1e-12);
    /* held out: points 0 and 2: 0.5 and 0.25 -> median 0.375 */
    assert_int_equal(s.err[GJ_IMPL_PHJ_TR].n_ho, 2);
    assert_double_equal(s.err[GJ_IMPL_PHJ_TR].med_ho, 0.375, 1e-12);
    assert_double_equal(s.err[GJ_IMPL_PHJ_TR].max_ho, 0.5, 1e-12);
    /* PHJ-UR: |1/6-1| = 5/6, |2/8-1| = 0.75, |3/9-1| = 2/3 */
    assert_double_equal(s.err[GJ_IMPL_PHJ_UR].med, 0.75, 1e-12);
    assert_double_equal(s.err[GJ_IMPL_PHJ_UR].max, 5.0 / 6, 1e-12);
    assert_int_equal(s.err[GJ_IMPL_HGB].n, 0);
    assert_true(isnan(s.err[GJ_IMPL_HGB].med));
    /* regret: (0 + 0.25 + 0.1 + 0 + 0.5) / 5 = 0.17, max 0.5 at point 5 */
    assert_int_equal(s.n_regret, 5);
    assert_double_equal(s.regret_mean, 0.17, 1e-12);
    assert_double_equal(s.regret_max, 0.5, 0);
    assert_int_equal(s.worst, 5);
    /* crossovers: m -> PHJ-TR over PHJ-UR; g -> SGB-TR over SGB-UR and
     * SGB-DE-TR over SGB-TR; a -> SGB-DE-TR over SGB-TR */
    assert_int_equal(s.n_cross, 4);
    gj_vcross *x = &s.cross[0];
    assert_int_equal(x->sweep, 0);
    assert_int_equal(x->challenger, GJ_IMPL_PHJ_TR);
    assert_int_equal(x->incumbent, GJ_IMPL_PHJ_UR);
    /* d = TR - UR = 4, 1, -5: between 0.5 and 0.9 at t = 1/6 */
    assert_int_equal(x->meas_state, GJ_VX_FOUND);
    assert_double_equal(x->meas_at, 0.5 + 0.4 / 6, 1e-12);
    assert_int_equal(x->pred_state, GJ_VX_NEVER);
    x = &s.cross[1];
    assert_int_equal(x->challenger, GJ_IMPL_SGB_TR);
    /* d = 2, -2, -3 at log2 x = 1, 3, 5: log2 x = 2, x = 4 */
    assert_int_equal(x->meas_state, GJ_VX_FOUND);
    assert_double_equal(x->meas_at, 4.0, 1e-12);
    assert_int_equal(x->pred_state, GJ_VX_BELOW);
    assert_double_equal(x->pred_at, 2.0, 0);
    x = &s.cross[2];
    assert_int_equal(x->challenger, GJ_IMPL_SGB_DE_TR);
    assert_int_equal(x->meas_state, GJ_VX_NODATA);
    assert_int_equal(s.cross[3].sweep, 2);

    /* held-out only: errors and regret over points 0, 2, 5 */
    assert_int_equal(gj_validate_summarize(g, r, 1, &s, NULL), GJ_OK);
    assert_int_equal(s.n_used, 3);   /* points 0, 2, 5 */
    assert_int_equal(s.err[GJ_IMPL_PHJ_TR].n, 2);
    assert_double_equal(s.err[GJ_IMPL_PHJ_TR].med, 0.375, 1e-12);
    assert_int_equal(s.n_regret, 2);
    assert_double_equal(s.regret_mean, 0.25, 1e-12);
    assert_int_equal(s.worst, 5);
    /* the crossovers do not depend on the split */
    assert_int_equal(s.cross[0].meas_state, GJ_VX_FOUND);

    /* a crossing exactly at a sweep point: d = 1, 0, -1 -> from 0 at x = 0.5 */
    blank(r, 10);
    for (int j = 0; j < 3; j++) {
        r[j].measured[GJ_IMPL_PHJ_TR] = 5 - j;
        r[j].measured[GJ_IMPL_PHJ_UR] = 4;
    }
    assert_int_equal(gj_validate_summarize(g, r, 0, &s, NULL), GJ_OK);
    assert_int_equal(s.cross[0].meas_state, GJ_VX_FOUND);
    assert_double_equal(s.cross[0].meas_at, 0.5, 1e-12);
    assert_int_equal(s.n_regret, 0);
    assert_true(isnan(s.regret_mean));
    assert_int_equal(s.worst, -1);
    /* missing middle point is skipped: d = 1, -, -1 -> halfway 0.1..0.9 */
    r[1].measured[GJ_IMPL_PHJ_TR] = NAN;
    assert_int_equal(gj_validate_summarize(g, r, 0, &s, NULL), GJ_OK);
    assert_double_equal(s.cross[0].meas_at, 0.5, 1e-12);
    assert_int_equal(gj_validate_summarize(NULL, r, 0, &s, NULL), GJ_ERR_INVALID);
    gj_grid_free(g);
}

static void fake(gj_exec_record *e, const gj_workload *w, gj_impl impl, double ms, const char *tag, const char *uuid)
{
    memset(e, 0, sizeof *e);
    strcpy(e->profile, "a100-paper");
    e->profile_version = 1;
    strcpy(e->device_uuid, uuid);
    e->w = *w;
    e->impl = impl;
    e->predicted_ms = 1;
    e->measured_ms = ms;
    e->n_phases = 0;
    e->checked = -1;
    e->repeats = 7;
    strcpy(e->tag, tag);
}

static void test_collect(void **state)
{
    (void)state;
    gj_grid *g = NULL;
    gj_profile *p = NULL;
    gj_vresult r[10];
    gj_exec_record e[10];
    gj_plan plan;
    assert_int_equal(gj_grid_parse(GOOD, "t", &g, NULL), GJ_OK);
    assert_int_equal(gj_profile_builtin("a100-paper", &p), GJ_OK);
    const gj_workload *w = &g->points[1].w;
    assert_int_equal(gj_advise(w, p, &plan, NULL), GJ_OK);
    gj_impl choice = plan.best;
    /* the choice measured at 100 first, then 12 (newest wins); the others 8..11 */
    int n = 0;
    fake(&e[n++], w, choice, 100, "validate:t", "GPU-a");
    double others = 8;
    for (int i = GJ_IMPL_PHJ_UR; i <= GJ_IMPL_NPHJ; i++)
        if (i != (int)choice) fake(&e[n++], w, (gj_impl)i, others++, "validate:t", "GPU-a");
    fake(&e[n++], w, choice, 12, "validate:t", "GPU-a");
    /* ignored: another tag, another GPU */
    fake(&e[n++], w, choice, 1, "validate:other", "GPU-a");
    fake(&e[n++], w, choice, 1, "validate:t", "GPU-b");
    assert_int_equal(gj_validate_collect(g, e, n, "GPU-a", p, r, NULL), GJ_OK);
    assert_int_equal(r[1].n_measured, 5);
    assert_double_equal(r[1].measured[choice], 12, 0);
    assert_int_equal(r[1].choice, choice);
    assert_double_equal(r[1].measured[r[1].best], 8, 0);
    assert_double_equal(r[1].regret, 12.0 / 8 - 1, 1e-12);
    /* predictions recomputed with the profile, not read from the records */
    gj_estimate est;
    assert_int_equal(gj_profile_estimate(choice, w, p, &est, NULL), GJ_OK);
    assert_double_equal(r[1].predicted[choice], est.ms, 0);
    assert_true(isnan(r[1].predicted[GJ_IMPL_HGB]));   /* other operator */
    /* unmeasured points */
    assert_int_equal(r[0].n_measured, 0);
    assert_int_equal(r[0].best, -1);
    assert_true(isnan(r[0].regret));
    assert_true(r[0].choice >= 0);
    /* every device when device_uuid is NULL: GPU-b's 1 ms is the newest */
    assert_int_equal(gj_validate_collect(g, e, n, NULL, p, r, NULL), GJ_OK);
    assert_double_equal(r[1].measured[choice], 1, 0);
    assert_int_equal(gj_validate_collect(g, NULL, 3, NULL, p, r, NULL), GJ_ERR_INVALID);
    gj_profile_free(p);
    gj_grid_free(g);
}

static void tmpdir(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/gjval-test-XXXXXX");
    assert_non_null(mkdtemp(dir));
}

/* a store with the GOOD grid's points 0, 2 (all five joins) and 3 (HGB) */
static void fill_store(const char *path, gj_grid *g)
{
    gj_db *db = NULL;
    gj_exec_record e[8];
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, NULL), GJ_OK);
    const int pts[2] = {0, 2};
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 5; i++)
            fake(&e[i], &g->points[pts[k]].w, (gj_impl)i, 2.0 + i + k, g->tag, "GPU-fake");
        assert_int_equal(gj_db_exec_log_many(db, e, 5, NULL), GJ_OK);
    }
    fake(&e[0], &g->points[3].w, GJ_IMPL_HGB, 3.0, g->tag, "GPU-fake");
    assert_int_equal(gj_db_exec_log_many(db, e, 1, NULL), GJ_OK);
    /* point 1 under another tag: not done for this grid */
    fake(&e[0], &g->points[1].w, GJ_IMPL_PHJ_UR, 3.0, "run", "GPU-fake");
    assert_int_equal(gj_db_exec_log_many(db, e, 1, NULL), GJ_OK);
    gj_db_close(db);
}

static void test_resume(void **state)
{
    (void)state;
    char dir[64], path[128];
    gj_grid *g = NULL;
    gj_db *db = NULL;
    gj_exec_record *recs = NULL, *mine;
    int n = 0, nm = 0;
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/v.db", dir);
    assert_int_equal(gj_grid_parse(GOOD, "t", &g, NULL), GJ_OK);
    fill_store(path, g);
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_EXISTING, &db, NULL), GJ_OK);
    assert_int_equal(gj_db_exec_list(db, "GPU-fake", &recs, &n, NULL), GJ_OK);
    assert_int_equal(n, 12);
    mine = calloc((size_t)n, sizeof *mine);
    for (int i = 0; i < n; i++)
        if (!strcmp(recs[i].tag, g->tag)) mine[nm++] = recs[i];
    assert_int_equal(nm, 11);
    /* workloads read back from the store compare equal to the grid's */
    int done[10];
    for (int i = 0; i < g->n_points; i++) done[i] = gj_validate_point_done(&g->points[i], mine, nm);
    assert_int_equal(done[0], 1);
    assert_int_equal(done[1], 0);
    assert_int_equal(done[2], 1);
    assert_int_equal(done[3], 1);
    for (int i = 4; i < 10; i++) assert_int_equal(done[i], 0);
    assert_int_equal(gj_validate_point_done(&g->points[0], NULL, 0), 0);
    free(mine);
    gj_free(recs);
    gj_db_close(db);
    unlink(path);
    rmdir(dir);
    gj_grid_free(g);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

/* Replay from a store without a GPU, through the library and the report. */
static void test_replay_report(void **state)
{
    (void)state;
    char dir[64], path[128], rdir[128], file[160];
    gj_grid *g = NULL;
    gj_db *db = NULL;
    gj_profile *p = NULL;
    gj_exec_record *recs = NULL;
    gj_vresult r[10];
    gj_vsummary s;
    int n = 0;
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/v.db", dir);
    snprintf(rdir, sizeof rdir, "%s/report/sub", dir);
    assert_int_equal(gj_grid_parse(GOOD, "t", &g, NULL), GJ_OK);
    fill_store(path, g);
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_EXISTING, &db, NULL), GJ_OK);
    assert_int_equal(gj_db_exec_list(db, NULL, &recs, &n, NULL), GJ_OK);
    assert_int_equal(gj_profile_builtin("a100-paper", &p), GJ_OK);
    assert_int_equal(gj_validate_collect(g, recs, n, "GPU-fake", p, r, NULL), GJ_OK);
    assert_int_equal(r[0].n_measured, 5);
    assert_double_equal(r[0].measured[GJ_IMPL_PHJ_UR], 2.0, 0);
    assert_double_equal(r[2].measured[GJ_IMPL_NPHJ], 7.0, 0);
    assert_int_equal(r[0].best, GJ_IMPL_PHJ_UR);
    assert_int_equal(r[1].n_measured, 0);   /* tag "run" */
    assert_int_equal(gj_validate_summarize(g, r, 0, &s, NULL), GJ_OK);
    assert_int_equal(s.n_used, 3);
    assert_int_equal(s.err[GJ_IMPL_PHJ_UR].n, 2);
    assert_int_equal(s.err[GJ_IMPL_HGB].n, 1);
    assert_int_equal(gj_validate_report(rdir, g, r, &s, p, "GPU-fake", NULL), GJ_OK);
    snprintf(file, sizeof file, "%s/index.html", rdir);
    char *html = slurp(file);
    assert_non_null(html);
    assert_int_equal(count(html, "<svg "), g->n_sweeps);
    assert_int_equal(count(html, "</svg>"), g->n_sweeps);
    assert_int_equal(count(html, "<table>"), count(html, "</table>"));
    assert_int_equal(count(html, "<tr>"), count(html, "</tr>"));
    assert_non_null(strstr(html, "</html>"));
    assert_non_null(strstr(html, "stroke-dasharray"));
    /* one regret row per point */
    assert_int_equal(count(html, "<tr><td>m match_ratio="), 3);
    snprintf(file, sizeof file, "%s/points.csv", rdir);
    char *csv = slurp(file);
    assert_non_null(csv);
    assert_int_equal(strncmp(csv, "sweep,param,x,impl,holdout,predicted_ms,measured_ms,rel_err\n", 60), 0);
    assert_non_null(strstr(csv, "\nm,match_ratio,0.10000000000000001,PHJ-UR,"));
    /* rows: every (point, impl) with a prediction or a measurement */
    int rows = 0;
    for (int pi = 0; pi < g->n_points; pi++)
        for (int i = 0; i < GJ_IMPL_COUNT; i++) rows += isfinite(r[pi].measured[i]) || isfinite(r[pi].predicted[i]);
    assert_int_equal(count(csv, "\n"), rows + 1);
    /* an unwritable place */
    assert_int_equal(gj_validate_report("/proc/gjval/x", g, r, &s, p, "GPU-fake", NULL), GJ_ERR_IO);
    char *js = NULL;
    assert_int_equal(gj_validate_summary_json(g, r, &s, p, "GPU-fake", &js), GJ_OK);
    assert_non_null(strstr(js, "\"grid\":\"t\""));
    assert_non_null(strstr(js, "\"regret\":{"));
    gj_free(js);
    gj_free(recs);
    gj_db_close(db);
    gj_profile_free(p);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    gj_grid_free(g);
}

/* The command line: --replay on a store without a GPU; bad flags. */
static void test_cli_replay(void **state)
{
    (void)state;
    const char *bin = getenv("GJ_BIN");
    if (!bin || access(bin, X_OK)) skip();
    char dir[64], path[128], gridf[128], cmd[1024], out[1 << 14];
    gj_grid *g = NULL;
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/v.db", dir);
    snprintf(gridf, sizeof gridf, "%s/t.json", dir);
    FILE *f = fopen(gridf, "w");
    assert_non_null(f);
    fputs(GOOD, f);
    fclose(f);
    assert_int_equal(gj_grid_load(gridf, &g, NULL), GJ_OK);
    assert_string_equal(g->tag, "validate:t");
    fill_store(path, g);
    snprintf(cmd, sizeof cmd, "%s validate --replay --grid %s --db %s --profile a100-paper --json --report %s/r 2>&1",
             bin, gridf, path, dir);
    FILE *pp = popen(cmd, "r");
    size_t n = fread(out, 1, sizeof out - 1, pp);
    out[n] = 0;
    assert_int_equal(WEXITSTATUS(pclose(pp)), 0);
    assert_non_null(strstr(out, "\"device_uuid\":\"GPU-fake\""));
    assert_non_null(strstr(out, "\"points_measured\":3"));
    snprintf(cmd, sizeof cmd, "%s/r/index.html", dir);
    assert_int_equal(access(cmd, R_OK), 0);
    /* the table form */
    snprintf(cmd, sizeof cmd, "%s validate --replay --grid %s --db %s --profile a100-paper --holdout", bin, gridf, path);
    pp = popen(cmd, "r");
    n = fread(out, 1, sizeof out - 1, pp);
    out[n] = 0;
    assert_int_equal(WEXITSTATUS(pclose(pp)), 0);
    assert_non_null(strstr(out, "held-out points only"));
    /* exit codes */
    static const struct { const char *args; int code; } bad[] = {
        {"--repeat 0", 2}, {"--bogus", 2}, {"--grid /nonexistent.json", 5}, {"--grid quick --replay", 1},
        {"--device GPU-x", 2}, {"--quick --grid default --replay --device GPU-nope", 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s validate --db %s %s >/dev/null 2>&1", bin, path, bad[i].args);
        int st = system(cmd);
        if (WEXITSTATUS(st) != bad[i].code) fail_msg("%s: exit %d, expected %d", bad[i].args, WEXITSTATUS(st), bad[i].code);
    }
    /* a malformed grid file: exit 5 with the sweep named */
    f = fopen(gridf, "w");
    fputs("[{\"name\":\"zz\",\"base\":{\"op\":\"join\"},\"param\":\"match_ratio\",\"values\":[2]}]", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s validate --replay --grid %s --db %s 2>&1", bin, gridf, path);
    pp = popen(cmd, "r");
    n = fread(out, 1, sizeof out - 1, pp);
    out[n] = 0;
    assert_int_equal(WEXITSTATUS(pclose(pp)), 5);
    assert_non_null(strstr(out, "sweep 0 (\"zz\")"));
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    gj_grid_free(g);
}

static int stop_after;
static int stop_cb(void *u)
{
    (void)u;
    return stop_after-- <= 0;
}

/* A tiny grid end to end on the GPU: measure, resume, interrupt. */
static void test_gpu_tiny(void **state)
{
    (void)state;
    if (!have_gpu()) skip();
    static const char *tiny =
        "[{\"name\":\"jm\",\"base\":{\"op\":\"join\",\"r_rows\":65536,\"s_rows\":65536},\"param\":\"match_ratio\","
        "\"values\":[0.25,1]},"
        "{\"name\":\"gg\",\"base\":{\"op\":\"groupby\",\"rows\":65536,\"groups\":16},\"param\":\"groups\","
        "\"values\":[4,1024]}]";
    char dir[64], path[128];
    gj_grid *g = NULL;
    gj_db *db = NULL;
    gj_profile *p = NULL;
    gj_vrun run;
    gj_ctx *ctx = NULL;
    gj_device dev;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/v.db", dir);
    assert_int_equal(gj_grid_parse(tiny, "tiny", &g, NULL), GJ_OK);
    assert_int_equal(gj_profile_builtin("h200-measured", &p), GJ_OK);
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, NULL), GJ_OK);
    gj_validate_opts o = {.repeat = 3, .should_stop = stop_cb};
    /* interrupted before the first implementation of the first point */
    stop_after = 1;
    int rc = gj_validate_run(g, p, db, &o, &run, ctx);
    if (rc) fail_msg("%s", gj_ctx_errmsg(ctx));
    assert_int_equal(run.interrupted, 1);
    assert_int_equal(run.n_measured, 0);
    /* the whole grid */
    stop_after = 1 << 30;
    rc = gj_validate_run(g, p, db, &o, &run, ctx);
    if (rc) fail_msg("%s", gj_ctx_errmsg(ctx));
    assert_int_equal(run.interrupted, 0);
    assert_int_equal(run.n_resumed, 0);
    assert_int_equal(run.n_measured, 4);
    assert_true(run.n_execs >= 4 * 3);
    for (int i = 0; i < run.n_skips && i < 20; i++) print_message("skipped: %s\n", run.skips[i]);
    /* resumed: nothing to do */
    rc = gj_validate_run(g, p, db, &o, &run, ctx);
    assert_int_equal(rc, GJ_OK);
    assert_int_equal(run.n_resumed, 4);
    assert_int_equal(run.n_measured, 0);
    /* summary from the store */
    gj_exec_record *recs = NULL;
    int n = 0;
    gj_vresult r[4];
    gj_vsummary s;
    assert_int_equal(gj_gpu_identify(0, &dev, NULL), GJ_OK);
    assert_int_equal(gj_db_exec_list(db, dev.uuid, &recs, &n, NULL), GJ_OK);
    assert_int_equal(gj_validate_collect(g, recs, n, dev.uuid, p, r, NULL), GJ_OK);
    for (int i = 0; i < 4; i++) {
        assert_true(r[i].n_measured >= 3);
        assert_true(r[i].best >= 0);
        assert_true(isfinite(r[i].regret) && r[i].regret >= 0);
    }
    for (int i = 0; i < n; i++) {
        assert_string_equal(recs[i].tag, "validate:tiny");
        assert_int_equal(recs[i].repeats, 3);
        assert_true(recs[i].measured_ms > 0);
        assert_true(recs[i].n_phases >= 2);
    }
    assert_int_equal(gj_validate_summarize(g, r, 0, &s, NULL), GJ_OK);
    assert_int_equal(s.n_used, 4);
    gj_free(recs);
    gj_db_close(db);
    gj_profile_free(p);
    gj_grid_free(g);
    gj_ctx_free(ctx);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* gj_groupby_generate: bad input never allocates; on the GPU the shape. */
static void test_groupby_generate(void **state)
{
    (void)state;
    gj_workload w;
    gj_dtable t;
    gj_ctx *ctx = NULL;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    gj_workload_default(&w, GJ_OP_JOIN);
    assert_int_equal(gj_groupby_generate(&w, 1, 0, &t, ctx), GJ_ERR_INVALID);
    assert_non_null(strstr(gj_ctx_errmsg(ctx), "op=join"));
    assert_int_equal(gj_groupby_generate(NULL, 1, 0, &t, ctx), GJ_ERR_INVALID);
    assert_int_equal(gj_groupby_generate(&w, 1, 0, NULL, ctx), GJ_ERR_INVALID);
    gj_workload_default(&w, GJ_OP_GROUPBY);
    w.rows = 1ULL << 31;
    assert_int_equal(gj_groupby_generate(&w, 1, 0, &t, ctx), GJ_ERR_INVALID);
    assert_null(t.key.data);
    if (!have_gpu()) { gj_ctx_free(ctx); skip(); }
    w.rows = 1000;
    w.groups = 7;
    w.key_bytes = 8;
    w.n_aggs = 3;
    w.aggs[2] = GJ_AGG_COUNT;
    assert_int_equal(gj_groupby_generate(&w, 5, 1, &t, ctx), GJ_OK);
    assert_int_equal(t.rows, 1000);
    assert_int_equal(t.key.width, 8);
    assert_int_equal(t.n_payloads, 3);
    assert_int_equal(t.payload[0].type, GJ_DT_FLOAT);
    gj_dtable h;
    assert_int_equal(gj_dtable_download(&t, &h, ctx), GJ_OK);
    int seen[7] = {0};
    for (int i = 0; i < 1000; i++) {
        uint64_t k = ((uint64_t *)h.key.data)[i];
        assert_true(k < 7);
        seen[k] = 1;
    }
    for (int i = 0; i < 7; i++) assert_true(seen[i]);
    for (int i = 0; i < 1000; i++) {
        float v = ((float *)h.payload[1].data)[i];
        assert_true(v >= -1e3f && v <= 1e3f);
    }
    gj_htable_free(&h);
    gj_dtable_free(&t);
    gj_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_good),
        cmocka_unit_test(test_grid_file),
        cmocka_unit_test(test_grid_bad),
        cmocka_unit_test(test_summary_math),
        cmocka_unit_test(test_collect),
        cmocka_unit_test(test_resume),
        cmocka_unit_test(test_replay_report),
        cmocka_unit_test(test_cli_replay),
        cmocka_unit_test(test_groupby_generate),
        cmocka_unit_test(test_gpu_tiny),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
