/* Uncertain estimates: the advisor over a box of workloads. Samples the box
 * on a grid, keeps each implementation's time range and worst-case regret,
 * picks the minimax-regret implementation and notes where the fastest one
 * changes. Pure computation, no state outside the caller's structs. */
#include "common/internal.h"
#include "model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The dimensions that may be uncertain. */
typedef enum { D_R_ROWS, D_S_ROWS, D_MATCH, D_OUT, D_ROWS, D_GROUPS, D_ZIPF, D_COUNT } dim_id;

static const struct {
    const char *name;
    int log;   /* log-spaced, rounded to whole rows */
} dims[D_COUNT] = {
    [D_R_ROWS] = {"r_rows", 1}, [D_S_ROWS] = {"s_rows", 1}, [D_MATCH] = {"match_ratio", 0},
    [D_OUT] = {"out_rows", 1},  [D_ROWS] = {"rows", 1},     [D_GROUPS] = {"groups", 1},
    [D_ZIPF] = {"zipf", 0},
};

static double get_dim(const gj_workload *w, dim_id d)
{
    switch (d) {
    case D_R_ROWS: return (double)w->r_rows;
    case D_S_ROWS: return (double)w->s_rows;
    case D_MATCH: return w->match_ratio;
    case D_OUT: return (double)w->out_rows;
    case D_ROWS: return (double)w->rows;
    case D_GROUPS: return (double)w->groups;
    default: return w->zipf;
    }
}

static void set_dim(gj_workload *w, dim_id d, double v)
{
    switch (d) {
    case D_R_ROWS: w->r_rows = (uint64_t)llround(v); break;
    case D_S_ROWS: w->s_rows = (uint64_t)llround(v); break;
    case D_MATCH: w->match_ratio = v; break;
    case D_OUT: w->out_rows = (uint64_t)llround(v); break;
    case D_ROWS: w->rows = (uint64_t)llround(v); break;
    case D_GROUPS: w->groups = (uint64_t)llround(v); break;
    default: w->zipf = v; break;
    }
}

/* uint64 fields compared exactly (doubles lose bits above 2^53) */
static int dim_less(const gj_workload *a, const gj_workload *b, dim_id d)
{
    switch (d) {
    case D_R_ROWS: return a->r_rows < b->r_rows;
    case D_S_ROWS: return a->s_rows < b->s_rows;
    case D_OUT: return a->out_rows < b->out_rows;
    case D_ROWS: return a->rows < b->rows;
    case D_GROUPS: return a->groups < b->groups;
    default: return get_dim(a, d) < get_dim(b, d);
    }
}

static int dim_differs(const gj_workload *a, const gj_workload *b, dim_id d)
{
    return dim_less(a, b, d) || dim_less(b, a, d);
}

static int op_dims(gj_op op, dim_id *out)
{
    int n = 0;
    if (op == GJ_OP_JOIN) {
        out[n++] = D_R_ROWS;
        out[n++] = D_S_ROWS;
        out[n++] = D_MATCH;
        out[n++] = D_OUT;
    } else {
        out[n++] = D_ROWS;
        out[n++] = D_GROUPS;
    }
    out[n++] = D_ZIPF;
    return n;
}

/* The fields that must be equal in lo, hi (and mid): GJ_OK or INVALID naming
 * the first that differs. */
static int same_fixed(const gj_workload *a, const char *an, const gj_workload *b, const char *bn,
                      gj_ctx *ctx)
{
    const char *allowed = a->op == GJ_OP_JOIN
                              ? "only r_rows, s_rows, match_ratio, out_rows and zipf may differ "
                                "in a join range"
                              : "only rows, groups and zipf may differ in a group-by range";
#define FIXED(f)                                                                               \
    if (a->f != b->f)                                                                          \
        return gj_seterr(ctx, GJ_ERR_INVALID, "%s." #f "=%d, %s." #f "=%d: must be equal (%s)", \
                         an, (int)a->f, bn, (int)b->f, allowed)
    FIXED(op);
    FIXED(key_bytes);
    FIXED(payload_bytes);
    FIXED(sorted_output);
    if (a->op == GJ_OP_JOIN) {
        FIXED(r_payloads);
        FIXED(s_payloads);
        if ((a->out_rows == 0) != (b->out_rows == 0))
            return gj_seterr(ctx, GJ_ERR_INVALID,
                             "%s.out_rows=%llu, %s.out_rows=%llu: both 0 (primary-foreign-key) "
                             "or both > 0 (many-to-many)",
                             an, (unsigned long long)a->out_rows, bn,
                             (unsigned long long)b->out_rows);
    } else {
        FIXED(n_aggs);
        FIXED(sorted_keys);
        if (a->key_range != b->key_range) /* a column statistic, not a guess */
            return gj_seterr(ctx, GJ_ERR_INVALID, "%s.key_range=%llu, %s.key_range=%llu: must be equal (%s)", an,
                             (unsigned long long)a->key_range, bn, (unsigned long long)b->key_range, allowed);
        for (int i = 0; i < a->n_aggs; i++)
            if (a->aggs[i] != b->aggs[i])
                return gj_seterr(ctx, GJ_ERR_INVALID, "%s.aggs[%d]=%s, %s.aggs[%d]=%s: must be equal (%s)",
                                 an, i, gj_agg_name(a->aggs[i]), bn, i, gj_agg_name(b->aggs[i]),
                                 allowed);
    }
#undef FIXED
    return GJ_OK;
}

static int check_one(const gj_workload *w, const char *name, gj_ctx *ctx)
{
    gj_ctx local = {0};
    int rc = gj_workload_check(w, &local);
    if (rc != GJ_OK) return gj_seterr(ctx, rc, "%s: %s", name, local.msg);
    return GJ_OK;
}

static int validate(const gj_workload_range *r, gj_ctx *ctx)
{
    int rc;
    dim_id d[D_COUNT];
    if ((rc = check_one(&r->lo, "lo", ctx)) != GJ_OK) return rc;
    if ((rc = check_one(&r->hi, "hi", ctx)) != GJ_OK) return rc;
    if ((rc = same_fixed(&r->lo, "lo", &r->hi, "hi", ctx)) != GJ_OK) return rc;
    int nd = op_dims(r->lo.op, d);
    for (int i = 0; i < nd; i++)
        if (dim_less(&r->hi, &r->lo, d[i]))
            return gj_seterr(ctx, GJ_ERR_INVALID, "lo.%s=%.17g > hi.%s=%.17g: allowed lo <= hi",
                             dims[d[i]].name, get_dim(&r->lo, d[i]), dims[d[i]].name,
                             get_dim(&r->hi, d[i]));
    if (r->has_mid) {
        if ((rc = check_one(&r->mid, "mid", ctx)) != GJ_OK) return rc;
        if ((rc = same_fixed(&r->lo, "lo", &r->mid, "mid", ctx)) != GJ_OK) return rc;
        for (int i = 0; i < nd; i++)
            if (dim_less(&r->mid, &r->lo, d[i]) || dim_less(&r->hi, &r->mid, d[i]))
                return gj_seterr(ctx, GJ_ERR_INVALID,
                                 "mid.%s=%.17g: allowed inside the range [%.17g, %.17g]",
                                 dims[d[i]].name, get_dim(&r->mid, d[i]), get_dim(&r->lo, d[i]),
                                 get_dim(&r->hi, d[i]));
    }
    return GJ_OK;
}

/* Copy dimension d from src exactly (uint64 fields without a double trip). */
static void copy_dim(gj_workload *w, const gj_workload *src, dim_id d)
{
    switch (d) {
    case D_R_ROWS: w->r_rows = src->r_rows; break;
    case D_S_ROWS: w->s_rows = src->s_rows; break;
    case D_OUT: w->out_rows = src->out_rows; break;
    case D_ROWS: w->rows = src->rows; break;
    case D_GROUPS: w->groups = src->groups; break;
    case D_MATCH: w->match_ratio = src->match_ratio; break;
    default: w->zipf = src->zipf; break;
    }
}

/* Grid value k of n along dimension d (k = 0 gives lo, k = n - 1 hi exactly). */
static void grid_set(gj_workload *w, const gj_workload_range *r, dim_id d, int k, int n)
{
    if (k == 0 || k == n - 1) {
        copy_dim(w, k == 0 ? &r->lo : &r->hi, d);
        return;
    }
    double lo = get_dim(&r->lo, d), hi = get_dim(&r->hi, d), t = (double)k / (n - 1);
    set_dim(w, d, dims[d].log ? lo * pow(hi / lo, t) : lo + (hi - lo) * t);
}

/* Estimate every implementation at w; fills ms[] (NAN when infeasible) and
 * returns the index of the fastest feasible one, -1 if none. */
static int eval_point(const gj_workload *w, const gj_profile *p, const gj_impl *list, int n,
                      double *ms, char (*why)[120], int *rc)
{
    int best = -1;
    *rc = GJ_OK;
    for (int i = 0; i < n; i++) {
        gj_estimate e;
        int s = gj_profile_estimate(list[i], w, p, &e, NULL);
        if (s != GJ_OK) {
            *rc = s;
            return -1;
        }
        if (!e.feasible) {
            ms[i] = NAN;
            if (why && !why[i][0]) gj_strlcpy(why[i], e.why, sizeof why[i]);
            continue;
        }
        ms[i] = e.ms;
        if (best < 0 || e.ms < ms[best]) best = i;
    }
    return best;
}

static int by_regret(const void *x, const void *y)
{
    const gj_range_estimate *a = x, *b = y;
    if (a->feasible != b->feasible) return b->feasible - a->feasible;
    if (a->feasible_points != b->feasible_points) return b->feasible_points - a->feasible_points;
    if (a->regret != b->regret) return a->regret < b->regret ? -1 : 1;
    if (a->max_ms != b->max_ms) return a->max_ms < b->max_ms ? -1 : 1;
    return (int)a->impl - (int)b->impl;
}

int gj_advise_range(const gj_workload_range *r, const gj_profile *p, gj_range_plan *out,
                    gj_ctx *ctx)
{
    if (out) memset(out, 0, sizeof *out);
    if (!r || !p || !out)
        return gj_seterr(ctx, GJ_ERR_INVALID, "range, profile and plan must not be NULL");
    int rc = validate(r, ctx);
    if (rc != GJ_OK) return rc;

    gj_range_plan res;
    memset(&res, 0, sizeof res);
    int n;
    const gj_impl *list = gj_impls_of(r->lo.op, &n);
    dim_id cand[D_COUNT], var[D_COUNT];
    int nc = op_dims(r->lo.op, cand), nv = 0;
    for (int i = 0; i < nc; i++)
        if (dim_differs(&r->lo, &r->hi, cand[i])) var[nv++] = cand[i];

    int per = GJ_RANGE_MAX_PER_DIM, total = 1;
    for (;;) {
        total = 1;
        for (int i = 0; i < nv; i++) total *= per;
        if (total <= GJ_RANGE_MAX_POINTS || per == 2) break;
        per--;
    }
    res.op = r->lo.op;
    res.n_dims = nv;
    res.per_dim = nv ? per : 1;
    res.n_points = total;
    res.n = n;
    gj_strlcpy(res.profile, gj_profile_name(p), sizeof res.profile);
    char why[GJ_IMPL_COUNT][120];
    memset(why, 0, sizeof why);
    for (int i = 0; i < n; i++) {
        res.est[i].impl = list[i];
        res.est[i].min_ms = INFINITY;
        res.est[i].max_ms = -INFINITY;
        res.est[i].regret = -INFINITY;
    }

    int first_best = -1, flip_best = -1, nonempty = 0;
    for (int pt = 0; pt < total; pt++) {
        gj_workload w = r->lo;
        for (int i = 0, rest = pt; i < nv; i++, rest /= per) grid_set(&w, r, var[i], rest % per, per);
        if (w.op == GJ_OP_GROUPBY && w.groups > w.rows) w.groups = w.rows;
        /* no more groups than the span told holds */
        if (w.op == GJ_OP_GROUPBY && w.key_range && w.groups > w.key_range) w.groups = w.key_range;
        double ms[GJ_IMPL_COUNT];
        int b = eval_point(&w, p, list, n, ms, why, &rc);
        if (rc != GJ_OK) {
            memset(out, 0, sizeof *out);
            return gj_seterr(ctx, rc, "estimating a point of the range failed");
        }
        if (b < 0) {
            res.n_empty++;
            continue;
        }
        nonempty++;
        res.est[b].best_points++;
        for (int i = 0; i < n; i++) {
            if (isnan(ms[i])) continue;
            gj_range_estimate *e = &res.est[i];
            e->feasible_points++;
            if (ms[i] < e->min_ms) e->min_ms = ms[i];
            if (ms[i] > e->max_ms) e->max_ms = ms[i];
            double reg = ms[b] > 0 ? ms[i] / ms[b] - 1 : (ms[i] > 0 ? INFINITY : 0);
            if (reg > e->regret) e->regret = reg;
        }
        if (first_best < 0) {
            first_best = b;
            res.flip_from_at = w;
        } else if (b != first_best && flip_best < 0) {
            flip_best = b;
            res.flip_to_at = w;
        }
    }
    for (int i = 0; i < n; i++) {
        gj_range_estimate *e = &res.est[i];
        e->feasible = nonempty > 0 && e->feasible_points == nonempty;
        if (!e->feasible_points) {
            e->min_ms = e->max_ms = 0;
            e->regret = INFINITY;
        }
        gj_strlcpy(e->why, why[i], sizeof e->why);
    }
    if (first_best >= 0) {
        res.flip_from = list[first_best];
        res.flip_to = list[first_best];
    } else {
        memset(&res.flip_from_at, 0, sizeof res.flip_from_at);
    }
    if (flip_best >= 0) {
        res.flips = 1;
        res.flip_to = list[flip_best];
    } else {
        memset(&res.flip_to_at, 0, sizeof res.flip_to_at);
    }
    qsort(res.est, (size_t)n, sizeof res.est[0], by_regret);
    res.choice = res.est[0].impl;
    res.choice_regret = res.est[0].regret;

    if (r->has_mid) {
        double ms[GJ_IMPL_COUNT];
        int b = eval_point(&r->mid, p, list, n, ms, NULL, &rc);
        if (rc != GJ_OK) {
            memset(out, 0, sizeof *out);
            return gj_seterr(ctx, rc, "estimating the mid workload failed");
        }
        res.has_point = 1;
        res.point_choice = b >= 0 ? list[b] : GJ_IMPL_COUNT;
        res.point_ms = b >= 0 ? ms[b] : -1;
    }
    *out = res;
    if (!nonempty)
        return gj_seterr(ctx, GJ_ERR_INFEASIBLE,
                         "no implementation fits at any point of the range: %s", res.est[0].why);
    return GJ_OK;
}

/* ---- a box around a point estimate ---------------------------------------- */

static uint64_t scale_down(uint64_t x, double f, uint64_t lo)
{
    double v = floor((double)x / f);
    return v < (double)lo ? lo : (uint64_t)v;
}

static uint64_t scale_up(uint64_t x, double f, uint64_t hi)
{
    double v = ceil((double)x * f);
    return v > (double)hi ? hi : (uint64_t)v;
}

int gj_workload_range_around(const gj_workload *w, double factor, gj_workload_range *out,
                             gj_ctx *ctx)
{
    if (!out) return gj_seterr(ctx, GJ_ERR_INVALID, "range must not be NULL");
    int rc = gj_workload_check(w, ctx);
    if (rc != GJ_OK) return rc;
    if (!isfinite(factor) || factor < 1)
        return gj_seterr(ctx, GJ_ERR_INVALID, "factor=%g: allowed a finite number >= 1", factor);
    gj_workload_range r;
    memset(&r, 0, sizeof r);
    r.lo = r.hi = r.mid = *w;
    r.has_mid = 1;
    if (w->op == GJ_OP_JOIN) {
        r.lo.r_rows = scale_down(w->r_rows, factor, 1);
        r.hi.r_rows = scale_up(w->r_rows, factor, GJ_MAX_ROWS);
        r.lo.s_rows = scale_down(w->s_rows, factor, 1);
        r.hi.s_rows = scale_up(w->s_rows, factor, GJ_MAX_ROWS);
        if (w->out_rows) {
            r.lo.out_rows = scale_down(w->out_rows, factor, 1);
            r.hi.out_rows = scale_up(w->out_rows, factor, GJ_MAX_ROWS << 4);
        }
        r.lo.match_ratio = w->match_ratio / factor;
        r.hi.match_ratio = fmin(1.0, w->match_ratio * factor);
    } else {
        r.lo.rows = scale_down(w->rows, factor, 1);
        r.hi.rows = scale_up(w->rows, factor, GJ_MAX_ROWS);
        r.lo.groups = scale_down(w->groups, factor, 1);
        r.hi.groups = scale_up(w->groups, factor, GJ_MAX_ROWS);
        if (r.lo.groups > r.lo.rows) r.lo.groups = r.lo.rows;
        if (r.hi.groups > r.hi.rows) r.hi.groups = r.hi.rows;
    }
    *out = r;
    return GJ_OK;
}

/* ---- JSON ------------------------------------------------------------------ */

int gj_range_plan_to_json(const gj_range_plan *plan, char **json)
{
    if (!json) return GJ_ERR_INVALID;
    *json = NULL;
    if (!plan) return GJ_ERR_INVALID;
    gj_sbuf s = {0};
    gj_sbuf_printf(&s, "{\"op\":\"%s\",\"profile\":", plan->op == GJ_OP_JOIN ? "join" : "groupby");
    gj_sbuf_json_str(&s, plan->profile);
    gj_sbuf_printf(&s, ",\"points\":%d,\"dims\":%d,\"per_dim\":%d,\"empty_points\":%d,"
                       "\"choice\":\"%s\",\"choice_regret\":",
                   plan->n_points, plan->n_dims, plan->per_dim, plan->n_empty,
                   gj_impl_name(plan->choice) ? gj_impl_name(plan->choice) : "?");
    gj_sbuf_json_num(&s, plan->choice_regret);
    gj_sbuf_printf(&s, ",\"flips\":%s,\"flip\":", plan->flips ? "true" : "false");
    if (plan->flips) {
        char *a = NULL, *b = NULL;
        int ra = gj_workload_to_json(&plan->flip_from_at, &a);
        int rb = gj_workload_to_json(&plan->flip_to_at, &b);
        gj_sbuf_printf(&s, "{\"from\":\"%s\",\"to\":\"%s\",\"from_at\":%s,\"to_at\":%s}",
                       gj_impl_name(plan->flip_from), gj_impl_name(plan->flip_to),
                       ra == GJ_OK ? a : "null", rb == GJ_OK ? b : "null");
        free(a);
        free(b);
        if (ra != GJ_OK || rb != GJ_OK) s.failed = 1;
    } else {
        gj_sbuf_printf(&s, "null");
    }
    gj_sbuf_printf(&s, ",\"point\":");
    if (plan->has_point && plan->point_choice < GJ_IMPL_COUNT) {
        gj_sbuf_printf(&s, "{\"impl\":\"%s\",\"ms\":", gj_impl_name(plan->point_choice));
        gj_sbuf_json_num(&s, plan->point_ms);
        gj_sbuf_printf(&s, "}");
    } else {
        gj_sbuf_printf(&s, "null");
    }
    gj_sbuf_printf(&s, ",\"implementations\":[");
    for (int i = 0; i < plan->n && i < GJ_IMPL_COUNT; i++) {
        const gj_range_estimate *e = &plan->est[i];
        gj_sbuf_printf(&s, "%s{\"impl\":\"%s\",\"feasible\":%s,\"feasible_points\":%d,"
                           "\"best_points\":%d,\"min_ms\":",
                       i ? "," : "", gj_impl_name(e->impl) ? gj_impl_name(e->impl) : "?",
                       e->feasible ? "true" : "false", e->feasible_points, e->best_points);
        gj_sbuf_json_num(&s, e->min_ms);
        gj_sbuf_printf(&s, ",\"max_ms\":");
        gj_sbuf_json_num(&s, e->max_ms);
        gj_sbuf_printf(&s, ",\"regret\":");
        gj_sbuf_json_num(&s, e->regret);
        gj_sbuf_printf(&s, ",\"why\":");
        gj_sbuf_json_str(&s, e->why);
        gj_sbuf_printf(&s, "}");
    }
    gj_sbuf_printf(&s, "]}");
    return gj_sbuf_take(&s, json);
}
