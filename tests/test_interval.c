/* gj_advise_range: the advisor over a box of workloads (advisor/interval.c),
 * on the paper's A100 profile. Oracles: gj_profile_estimate at the grid
 * points computed here, and the crossovers README prints for gj_advise. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "gjadvise.h"
#include "testutil.h"

static gj_profile *prof;

static int setup(void **state)
{
    (void)state;
    return gj_profile_builtin("a100-paper", &prof);
}

static int teardown(void **state)
{
    (void)state;
    gj_profile_free(prof);
    return 0;
}

static double est_ms(gj_impl impl, const gj_workload *w)
{
    gj_estimate e;
    assert_int_equal(gj_profile_estimate(impl, w, prof, &e, NULL), GJ_OK);
    assert_true(e.feasible);
    return e.ms;
}

static const gj_range_estimate *find(const gj_range_plan *p, gj_impl impl)
{
    for (int i = 0; i < p->n; i++)
        if (p->est[i].impl == impl) return &p->est[i];
    fail_msg("%s missing from the range plan", gj_impl_name(impl));
    return NULL;
}

/* lo == hi: one point, the same answer as gj_advise, no regret, no flip. */
static void test_point_box_is_gj_advise(void **state)
{
    (void)state;
    gj_workload_range r;
    memset(&r, 0, sizeof r);
    gj_workload_default(&r.lo, GJ_OP_JOIN);
    r.lo.match_ratio = 0.3;
    r.hi = r.lo;
    gj_range_plan rp;
    gj_plan plan;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    assert_int_equal(gj_advise(&r.lo, prof, &plan, NULL), GJ_OK);
    assert_int_equal(rp.n_dims, 0);
    assert_int_equal(rp.n_points, 1);
    assert_int_equal(rp.per_dim, 1);
    assert_int_equal(rp.n, 5);
    assert_int_equal(rp.choice, plan.best);
    assert_int_equal(rp.choice, GJ_IMPL_PHJ_TR); /* README's example at 0.3 */
    assert_double_equal(rp.choice_regret, 0, 0);
    assert_int_equal(rp.flips, 0);
    assert_int_equal(rp.has_point, 0);
    /* every implementation's range collapses to its point estimate, and the
     * regret is its ratio to the best minus one */
    for (int i = 0; i < rp.n; i++) {
        const gj_range_estimate *e = &rp.est[i];
        double ms = est_ms(e->impl, &r.lo);
        assert_double_equal(e->min_ms, ms, 0);
        assert_double_equal(e->max_ms, ms, 0);
        assert_double_equal(e->regret, ms / plan.est[0].ms - 1, 1e-12);
        assert_int_equal(e->feasible, 1);
        assert_int_equal(e->feasible_points, 1);
        assert_int_equal(e->best_points, e->impl == plan.best);
        if (i) assert_true(e->regret >= rp.est[i - 1].regret);
    }
}

/* Match ratio 1 and a 4x range of build rows: PHJ-TR wins everywhere (no
 * flip), its range runs from the estimate at lo to the estimate at hi. */
static void test_no_flip_gives_point_answer(void **state)
{
    (void)state;
    gj_workload_range r;
    memset(&r, 0, sizeof r);
    gj_workload_default(&r.lo, GJ_OP_JOIN);
    r.hi = r.lo;
    r.lo.r_rows = 1u << 25;
    r.hi.r_rows = 1u << 27;
    r.mid = r.lo;
    r.mid.r_rows = 1u << 26;
    r.has_mid = 1;
    gj_range_plan rp;
    gj_plan plan;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    assert_int_equal(gj_advise(&r.mid, prof, &plan, NULL), GJ_OK);
    assert_int_equal(rp.n_dims, 1);
    assert_int_equal(rp.per_dim, 9);
    assert_int_equal(rp.n_points, 9);
    assert_int_equal(rp.n_empty, 0);
    assert_int_equal(rp.flips, 0);
    assert_int_equal(rp.choice, plan.best);
    assert_int_equal(rp.has_point, 1);
    assert_int_equal(rp.point_choice, plan.best);
    assert_double_equal(rp.point_ms, plan.est[0].ms, 0);
    assert_double_equal(rp.choice_regret, 0, 0);
    assert_int_equal(rp.est[0].best_points, 9);
    assert_double_equal(rp.est[0].min_ms, est_ms(rp.choice, &r.lo), 0);
    assert_double_equal(rp.est[0].max_ms, est_ms(rp.choice, &r.hi), 0);
    assert_int_equal(rp.flip_from, rp.choice);
    assert_int_equal(rp.flip_to, rp.choice);
}

/* At match_ratio 0.11 PHJ-UR overtakes PHJ-TR (default join, no filter). The
 * box [0.1, 0.3] straddles it: the fastest flips from PHJ-UR (at 0.1) to
 * PHJ-TR. The regrets are checked against estimates at the 9 grid points
 * 0.1, 0.125, ..., 0.3 computed here. */
static void test_match_ratio_box_flips(void **state)
{
    (void)state;
    gj_workload_range r;
    memset(&r, 0, sizeof r);
    gj_workload_default(&r.lo, GJ_OP_JOIN);
    r.hi = r.lo;
    r.lo.match_ratio = 0.1;
    r.hi.match_ratio = 0.3;
    gj_range_plan rp;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    assert_int_equal(rp.n_points, 9);
    assert_int_equal(rp.flips, 1);
    assert_int_equal(rp.flip_from, GJ_IMPL_PHJ_UR);
    assert_int_equal(rp.flip_to, GJ_IMPL_PHJ_TR);
    assert_double_equal(rp.flip_from_at.match_ratio, 0.1, 0);
    assert_true(rp.flip_to_at.match_ratio > 0.11 && rp.flip_to_at.match_ratio <= 0.3);
    /* oracle */
    const gj_impl impls[5] = {GJ_IMPL_PHJ_UR, GJ_IMPL_PHJ_TR, GJ_IMPL_SMJ_UR, GJ_IMPL_SMJ_TR,
                              GJ_IMPL_NPHJ};
    double reg[5] = {0}, lo[5], hi[5];
    int bestn[5] = {0};
    for (int k = 0; k < 9; k++) {
        gj_workload w = r.lo;
        w.match_ratio = 0.1 + 0.2 * k / 8.0;
        double ms[5], best = INFINITY;
        int b = 0;
        for (int i = 0; i < 5; i++) {
            ms[i] = est_ms(impls[i], &w);
            if (ms[i] < best) best = ms[i], b = i;
            lo[i] = k ? fmin(lo[i], ms[i]) : ms[i];
            hi[i] = k ? fmax(hi[i], ms[i]) : ms[i];
        }
        bestn[b]++;
        for (int i = 0; i < 5; i++) reg[i] = fmax(reg[i], ms[i] / best - 1);
    }
    int choice = 0;
    for (int i = 1; i < 5; i++)
        if (reg[i] < reg[choice]) choice = i;
    assert_int_equal(rp.choice, impls[choice]);
    assert_double_equal(rp.choice_regret, reg[choice], 1e-12);
    for (int i = 0; i < 5; i++) {
        const gj_range_estimate *e = find(&rp, impls[i]);
        assert_double_equal(e->regret, reg[i], 1e-12);
        assert_double_equal(e->min_ms, lo[i], 0);
        assert_double_equal(e->max_ms, hi[i], 0);
        assert_int_equal(e->best_points, bestn[i]);
    }
    /* both PHJ variants lose something somewhere: neither regret is 0 */
    assert_true(find(&rp, GJ_IMPL_PHJ_UR)->regret > 0);
    assert_true(find(&rp, GJ_IMPL_PHJ_TR)->regret > 0);
    assert_true(rp.choice_regret < 0.2);
}

/* README: at groups = 10321 PGB-TR overtakes HGB (2^28 rows, max,max). */
static void test_groups_box_flips(void **state)
{
    (void)state;
    gj_workload_range r;
    memset(&r, 0, sizeof r);
    gj_workload_default(&r.lo, GJ_OP_GROUPBY);
    r.hi = r.lo;
    r.lo.groups = 1u << 12;
    r.hi.groups = 1u << 16;
    gj_range_plan rp;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    assert_int_equal(rp.n, 7);
    assert_int_equal(rp.n_points, 9);
    assert_int_equal(rp.flips, 1);
    assert_int_equal(rp.flip_from, GJ_IMPL_HGB);
    assert_int_equal(rp.flip_to, GJ_IMPL_PGB_TR);
    assert_int_equal(rp.flip_from_at.groups, 1u << 12);
    /* log-spaced: the points are 2^12, 2^12.5, ..., 2^16; the flip is seen
     * at the first of them where gj_advise no longer picks HGB. */
    uint64_t first_other = 0, last_hgb = 0;
    for (int k = 0; k <= 8; k++) {
        gj_workload w = r.lo;
        w.groups = (uint64_t)llround(pow(2, 12 + k / 2.0));
        gj_plan pl;
        assert_int_equal(gj_advise(&w, prof, &pl, NULL), GJ_OK);
        if (pl.best == GJ_IMPL_HGB && !first_other) last_hgb = w.groups;
        if (pl.best != GJ_IMPL_HGB && !first_other) first_other = w.groups;
    }
    assert_true(first_other > (1u << 12));
    assert_true(rp.flip_to_at.groups == first_other);
    /* a box entirely below the crossover: no flip, HGB with regret 0 */
    r.hi.groups = last_hgb;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    assert_int_equal(rp.flips, 0);
    assert_int_equal(rp.choice, GJ_IMPL_HGB);
    assert_double_equal(rp.choice_regret, 0, 0);
}

/* Sort-only aggregates: only SGB-* are feasible anywhere. */
static void test_sort_only_aggregates(void **state)
{
    (void)state;
    gj_workload_range r;
    memset(&r, 0, sizeof r);
    gj_workload_default(&r.lo, GJ_OP_GROUPBY);
    r.lo.n_aggs = 2;
    r.lo.aggs[0] = GJ_AGG_SUM;
    r.lo.aggs[1] = GJ_AGG_MEDIAN;
    r.hi = r.lo;
    r.lo.groups = 1000;
    r.hi.groups = 1000000;
    gj_range_plan rp;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    assert_true(rp.choice == GJ_IMPL_SGB_TR || rp.choice == GJ_IMPL_SGB_UR ||
                rp.choice == GJ_IMPL_SGB_DE_TR);
    int feasible = 0;
    for (int i = 0; i < rp.n; i++) {
        const gj_range_estimate *e = &rp.est[i];
        feasible += e->feasible;
        if (e->impl == GJ_IMPL_HGB) {
            assert_int_equal(e->feasible, 0);
            assert_int_equal(e->feasible_points, 0);
            assert_true(isinf(e->regret));
            assert_double_equal(e->min_ms, 0, 0);
            assert_non_null(strstr(e->why, "sort-based"));
        }
    }
    assert_int_equal(feasible, 3);
    /* the three sort-based ones rank first */
    for (int i = 0; i < 3; i++) assert_int_equal(rp.est[i].feasible, 1);
}

/* Device memory: the top of the box fits nowhere; the rest still decides. */
static void test_partly_infeasible_box(void **state)
{
    (void)state;
    gj_workload_range r;
    memset(&r, 0, sizeof r);
    gj_workload_default(&r.lo, GJ_OP_JOIN);
    r.hi = r.lo;
    r.lo.r_rows = r.lo.s_rows = 1u << 20;
    r.hi.r_rows = r.hi.s_rows = 1ull << 36;
    gj_range_plan rp;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    assert_int_equal(rp.n_dims, 2);
    assert_int_equal(rp.n_points, 81);
    assert_true(rp.n_empty > 0 && rp.n_empty < 81);
    assert_true(rp.est[0].feasible_points > 0);
    /* nothing fits anywhere: INFEASIBLE with the plan filled */
    r.lo.r_rows = r.lo.s_rows = 1ull << 38;
    r.hi.r_rows = r.hi.s_rows = 1ull << 40;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_ERR_INFEASIBLE);
    assert_int_equal(rp.n_empty, rp.n_points);
    assert_int_equal(rp.n, 5);
    assert_true(rp.est[0].why[0] != 0);
}

/* Grid size: at most 729 points, per-dimension count reduced, corners kept. */
static void test_grid_size(void **state)
{
    (void)state;
    gj_workload_range r;
    memset(&r, 0, sizeof r);
    gj_workload_default(&r.lo, GJ_OP_JOIN);
    r.lo.r_rows = r.lo.s_rows = 1000;
    r.hi = r.lo;
    r.hi.r_rows = r.hi.s_rows = 100000;
    r.lo.match_ratio = 0.2;
    r.hi.match_ratio = 0.9;
    r.lo.zipf = 0;
    r.hi.zipf = 1;
    gj_range_plan rp;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    assert_int_equal(rp.n_dims, 4);
    assert_int_equal(rp.per_dim, 5); /* 5^4 = 625 <= 729 < 6^4 */
    assert_int_equal(rp.n_points, 625);
    r.lo.out_rows = 500;
    r.hi.out_rows = 5000000;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    assert_int_equal(rp.n_dims, 5);
    assert_int_equal(rp.per_dim, 3); /* 3^5 = 243, 4^5 = 1024 */
    assert_int_equal(rp.n_points, 243);
    /* group-by: rows, groups, zipf: 9^3 = 729 */
    memset(&r, 0, sizeof r);
    gj_workload_default(&r.lo, GJ_OP_GROUPBY);
    r.lo.rows = 1u << 20;
    r.lo.groups = 10;
    r.hi = r.lo;
    r.hi.rows = 1u << 24;
    r.hi.groups = 1u << 22;
    r.hi.zipf = 1.5;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    assert_int_equal(rp.n_dims, 3);
    assert_int_equal(rp.per_dim, 9);
    assert_int_equal(rp.n_points, 729);
    /* groups > rows at some points (2^22 groups, 2^20 rows) are clamped,
     * not refused: every point is evaluated */
    assert_int_equal(rp.n_empty, 0);
}

static void expect_invalid(const gj_workload_range *r, const char *needle)
{
    gj_range_plan rp;
    gj_ctx *ctx;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    memset(&rp, 0xab, sizeof rp);
    assert_int_equal(gj_advise_range(r, prof, &rp, ctx), GJ_ERR_INVALID);
    if (!strstr(gj_ctx_errmsg(ctx), needle))
        fail_msg("message '%s' lacks '%s'", gj_ctx_errmsg(ctx), needle);
    /* nothing half-written: the plan is zeroed */
    assert_int_equal(rp.n, 0);
    assert_int_equal(rp.n_points, 0);
    gj_ctx_free(ctx);
}

/* A span told (key_range) bounds the groups: a box of 2^14..2^20 groups
 * over keys spanning 2^14 values is one point, 2^14 groups, at every
 * sample: each implementation's time range is its estimate there. */
static void test_groups_clamped_to_span(void **state)
{
    (void)state;
    gj_workload_range r;
    memset(&r, 0, sizeof r);
    gj_workload_default(&r.lo, GJ_OP_GROUPBY);
    r.lo.rows = 1u << 26;
    r.lo.groups = r.lo.key_range = 1u << 14;
    r.hi = r.lo;
    r.hi.groups = 1u << 20;
    gj_range_plan rp;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    assert_int_equal(rp.flips, 0);
    for (int i = 0; i < rp.n; i++) {
        const gj_range_estimate *e = &rp.est[i];
        if (!e->feasible_points) continue;
        const double ms = est_ms(e->impl, &r.lo);
        assert_double_equal(e->min_ms, ms, 0);
        assert_double_equal(e->max_ms, ms, 0);
    }
}

static void test_bad_ranges(void **state)
{
    (void)state;
    gj_workload_range r;
    memset(&r, 0, sizeof r);
    gj_workload_default(&r.lo, GJ_OP_JOIN);
    r.hi = r.lo;
    r.lo.r_rows = 2000;
    r.hi.r_rows = 1000;
    expect_invalid(&r, "lo.r_rows=2000 > hi.r_rows=1000");
    r.hi.r_rows = 2000;
    r.lo.match_ratio = 0.5;
    r.hi.match_ratio = 0.4;
    expect_invalid(&r, "lo.match_ratio=0.5 > hi.match_ratio");
    r.hi.match_ratio = 0.5;
    r.hi.key_bytes = 8;
    expect_invalid(&r, "lo.key_bytes=4, hi.key_bytes=8: must be equal");
    r.hi.key_bytes = 4;
    r.hi.s_payloads = 3;
    expect_invalid(&r, "s_payloads");
    r.hi.s_payloads = r.lo.s_payloads;
    r.hi.out_rows = 100;
    expect_invalid(&r, "both 0 (primary-foreign-key) or both > 0");
    r.hi.out_rows = 0;
    r.hi.match_ratio = 1.5;
    expect_invalid(&r, "hi: match-ratio=1.5");
    r.hi.match_ratio = 0.5;
    r.lo.r_rows = 0;
    expect_invalid(&r, "lo: r-rows=0");
    r.lo.r_rows = 2000;
    /* mid outside the box, and with another fixed field */
    r.has_mid = 1;
    r.mid = r.lo;
    r.mid.r_rows = 3000;
    expect_invalid(&r, "mid.r_rows=3000: allowed inside the range");
    r.mid.r_rows = 2000;
    r.mid.payload_bytes = 8;
    expect_invalid(&r, "mid.payload_bytes=8");
    r.has_mid = 0;
    /* fields a join does not use may differ */
    r.hi.groups = 77;
    gj_range_plan rp;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    /* group-by: the aggregates must be equal */
    memset(&r, 0, sizeof r);
    gj_workload_default(&r.lo, GJ_OP_GROUPBY);
    r.hi = r.lo;
    r.hi.aggs[1] = GJ_AGG_SUM;
    expect_invalid(&r, "lo.aggs[1]=max, hi.aggs[1]=sum: must be equal");
    r.hi = r.lo;
    r.hi.op = GJ_OP_JOIN;
    expect_invalid(&r, "op");
    r.hi = r.lo;
    r.lo.groups = 1u << 13;
    expect_invalid(&r, "lo.groups=8192 > hi.groups=4096");
    r.lo.groups = r.hi.groups;
    r.hi.key_range = 5000000000ull; /* a column statistic: one value for the box */
    expect_invalid(&r, "lo.key_range=0, hi.key_range=5000000000: must be equal");
    r.hi.key_range = 0;
    r.hi.sorted_keys = 1;
    expect_invalid(&r, "sorted_keys");
    /* NULLs */
    assert_int_equal(gj_advise_range(NULL, prof, &rp, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_advise_range(&r, NULL, &rp, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_advise_range(&r, prof, NULL, NULL), GJ_ERR_INVALID);
}

static void test_range_around(void **state)
{
    (void)state;
    gj_workload w;
    gj_workload_range r;
    gj_workload_default(&w, GJ_OP_JOIN);
    w.r_rows = 1000;
    w.s_rows = 3;
    w.match_ratio = 0.3;
    assert_int_equal(gj_workload_range_around(&w, 4, &r, NULL), GJ_OK);
    assert_int_equal(r.lo.r_rows, 250);
    assert_int_equal(r.hi.r_rows, 4000);
    assert_int_equal(r.lo.s_rows, 1); /* floor(3/4) = 0, kept at 1 */
    assert_int_equal(r.hi.s_rows, 12);
    assert_double_equal(r.lo.match_ratio, 0.075, 1e-15);
    assert_double_equal(r.hi.match_ratio, 1, 0); /* 1.2 clamped */
    assert_int_equal(r.has_mid, 1);
    assert_int_equal(r.mid.r_rows, 1000);
    assert_int_equal(r.lo.out_rows, 0);
    gj_range_plan rp;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    /* many-to-many, near the top */
    w.out_rows = 5000;
    w.r_rows = GJ_MAX_ROWS / 2;
    assert_int_equal(gj_workload_range_around(&w, 3, &r, NULL), GJ_OK);
    assert_int_equal(r.lo.out_rows, 1666);
    assert_int_equal(r.hi.out_rows, 15000);
    assert_int_equal(r.hi.r_rows, GJ_MAX_ROWS);
    /* factor 1: lo = hi = w */
    assert_int_equal(gj_workload_range_around(&w, 1, &r, NULL), GJ_OK);
    assert_int_equal(r.lo.r_rows, w.r_rows);
    assert_int_equal(r.hi.out_rows, w.out_rows);
    /* group-by: groups stay <= rows */
    gj_workload_default(&w, GJ_OP_GROUPBY);
    w.rows = 1000;
    w.groups = 900;
    assert_int_equal(gj_workload_range_around(&w, 10, &r, NULL), GJ_OK);
    assert_int_equal(r.lo.rows, 100);
    assert_int_equal(r.lo.groups, 90);
    assert_int_equal(r.hi.rows, 10000);
    assert_int_equal(r.hi.groups, 9000);
    w.groups = 1000;
    assert_int_equal(gj_workload_range_around(&w, 2.5, &r, NULL), GJ_OK);
    assert_int_equal(r.lo.groups, 400);
    assert_int_equal(r.lo.rows, 400);
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    /* bad input */
    assert_int_equal(gj_workload_range_around(&w, 0.5, &r, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_workload_range_around(&w, NAN, &r, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_workload_range_around(&w, INFINITY, &r, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_workload_range_around(NULL, 2, &r, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_workload_range_around(&w, 2, NULL, NULL), GJ_ERR_INVALID);
    w.groups = 0;
    assert_int_equal(gj_workload_range_around(&w, 2, &r, NULL), GJ_ERR_INVALID);
}

static void test_json(void **state)
{
    (void)state;
    gj_workload_range r;
    memset(&r, 0, sizeof r);
    gj_workload_default(&r.lo, GJ_OP_JOIN);
    r.hi = r.lo;
    r.lo.match_ratio = 0.1;
    r.hi.match_ratio = 0.3;
    r.mid = r.lo;
    r.mid.match_ratio = 0.15;
    r.has_mid = 1;
    gj_range_plan rp;
    char *j = NULL;
    assert_int_equal(gj_advise_range(&r, prof, &rp, NULL), GJ_OK);
    assert_int_equal(gj_range_plan_to_json(&rp, &j), GJ_OK);
    assert_non_null(strstr(j, "\"flips\":true"));
    assert_non_null(strstr(j, "\"from\":\"PHJ-UR\",\"to\":\"PHJ-TR\""));
    assert_non_null(strstr(j, "\"point\":{\"impl\":\"PHJ-TR\"")); /* mid 0.15, past the flip at 0.11 */
    assert_non_null(strstr(j, "\"points\":9,\"dims\":1,\"per_dim\":9"));
    assert_non_null(strstr(j, "\"from_at\":{\"op\":\"join\""));
    gj_free(j);
    /* infinite regret is written as null */
    gj_workload_range g;
    memset(&g, 0, sizeof g);
    gj_workload_default(&g.lo, GJ_OP_GROUPBY);
    g.lo.aggs[0] = GJ_AGG_MEDIAN;
    g.hi = g.lo;
    assert_int_equal(gj_advise_range(&g, prof, &rp, NULL), GJ_OK);
    assert_int_equal(gj_range_plan_to_json(&rp, &j), GJ_OK);
    assert_non_null(strstr(j, "\"regret\":null"));
    assert_non_null(strstr(j, "\"flip\":null"));
    assert_non_null(strstr(j, "\"point\":null"));
    gj_free(j);
    assert_int_equal(gj_range_plan_to_json(NULL, &j), GJ_ERR_INVALID);
    assert_null(j);
    assert_int_equal(gj_range_plan_to_json(&rp, NULL), GJ_ERR_INVALID);
}

/* Threads share the const profile and get the single-threaded answer. */
typedef struct {
    const gj_workload_range *r;
    char *json;
    int rc;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    for (int k = 0; k < 3; k++) {
        gj_range_plan rp;
        gj_ctx *ctx = NULL;
        if (gj_ctx_new(&ctx) != GJ_OK) {
            j->rc = -1;
            return NULL;
        }
        j->rc = gj_advise_range(j->r, prof, &rp, ctx);
        gj_ctx_free(ctx);
        free(j->json);
        j->json = NULL;
        if (j->rc != GJ_OK || gj_range_plan_to_json(&rp, &j->json) != GJ_OK) return NULL;
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    gj_workload_range r[2];
    memset(r, 0, sizeof r);
    gj_workload_default(&r[0].lo, GJ_OP_JOIN);
    r[0].hi = r[0].lo;
    r[0].lo.r_rows = 1000000;
    r[0].hi.r_rows = 4000000;
    r[0].lo.match_ratio = 0.1;
    r[0].hi.match_ratio = 0.6;
    gj_workload_default(&r[1].lo, GJ_OP_GROUPBY);
    r[1].hi = r[1].lo;
    r[1].lo.groups = 1000;
    r[1].hi.groups = 1000000;
    char *want[2];
    for (int i = 0; i < 2; i++) {
        gj_range_plan rp;
        assert_int_equal(gj_advise_range(&r[i], prof, &rp, NULL), GJ_OK);
        assert_int_equal(gj_range_plan_to_json(&rp, &want[i]), GJ_OK);
    }
    enum { N = 8 };
    pthread_t t[N];
    job jobs[N];
    for (int i = 0; i < N; i++) {
        jobs[i] = (job){.r = &r[i % 2]};
        assert_int_equal(pthread_create(&t[i], NULL, worker, &jobs[i]), 0);
    }
    for (int i = 0; i < N; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        assert_int_equal(jobs[i].rc, GJ_OK);
        assert_non_null(jobs[i].json);
        assert_string_equal(jobs[i].json, want[i % 2]);
        free(jobs[i].json);
    }
    gj_free(want[0]);
    gj_free(want[1]);
}

int main(void)
{
    /* the joins as the paper runs them, without the semi-join filter: the
     * boxes below straddle the paper's GFUR/GFTR flip (test_advisor's
     * test_filter_plan covers the filter) */
    setenv("GJ_JOIN_FILTER", "off", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point_box_is_gj_advise),
        cmocka_unit_test(test_groups_clamped_to_span),
        cmocka_unit_test(test_no_flip_gives_point_answer),
        cmocka_unit_test(test_match_ratio_box_flips),
        cmocka_unit_test(test_groups_box_flips),
        cmocka_unit_test(test_sort_only_aggregates),
        cmocka_unit_test(test_partly_infeasible_box),
        cmocka_unit_test(test_grid_size),
        cmocka_unit_test(test_bad_ranges),
        cmocka_unit_test(test_range_around),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
