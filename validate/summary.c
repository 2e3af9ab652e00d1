/* Validation summary: measurements of a grid read back from execution
 * records, predictions and the advisor's choices recomputed with a profile,
 * then per implementation the median and largest |predicted/measured - 1|,
 * the advisor's regret, and crossovers predicted vs measured. No GPU. */
#include "validate/validate.h"
#include "common/internal.h"
#include "tune/tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gj_vpoint_label(const gj_grid *g, int point, char *buf, size_t n)
{
    if (!buf || !n) return;
    if (!g || point < 0 || point >= g->n_points) { snprintf(buf, n, "?"); return; }
    const gj_vpoint *p = &g->points[point];
    const gj_sweep *s = &g->sweeps[p->sweep];
    double x = p->x;
    int e = (int)round(log2(x));
    if (gj_vparam_log(s->param) && x >= 1 && ldexp(1.0, e) == x)
        snprintf(buf, n, "%s %s=2^%d", s->name, gj_vparam_name(s->param), e);
    else
        snprintf(buf, n, "%s %s=%g", s->name, gj_vparam_name(s->param), x);
}

int gj_validate_collect(const gj_grid *g, const gj_exec_record *recs, int n, const char *device_uuid,
                        const gj_profile *p, gj_vresult *res, gj_ctx *ctx)
{
    char **rj = NULL;
    int rc = GJ_OK;
    if (!g || !p || !res || (n > 0 && !recs) || n < 0)
        return gj_seterr(ctx, GJ_ERR_INVALID, "validate: grid, profile, results or records is NULL");
    if (n > 0 && !(rj = calloc((size_t)n, sizeof *rj))) return gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n; i++) {
        if (strcmp(recs[i].tag, g->tag) || (device_uuid && strcmp(recs[i].device_uuid, device_uuid))) continue;
        if (gj_workload_to_json(&recs[i].w, &rj[i]) != GJ_OK) { rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory"); goto done; }
    }
    for (int pi = 0; pi < g->n_points; pi++) {
        gj_vresult *r = &res[pi];
        const gj_workload *w = &g->points[pi].w;
        char *pj = NULL;
        memset(r, 0, sizeof *r);
        r->holdout = gj_holdout(w);
        r->choice = r->best = -1;
        r->regret = NAN;
        for (int i = 0; i < GJ_IMPL_COUNT; i++) r->measured[i] = r->predicted[i] = NAN;
        if (gj_workload_to_json(w, &pj) != GJ_OK) { rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory"); goto done; }
        for (int i = 0; i < n; i++)   /* oldest first: the newest wins */
            if (rj[i] && !strcmp(rj[i], pj) && (unsigned)recs[i].impl < GJ_IMPL_COUNT &&
                isfinite(recs[i].measured_ms) && recs[i].measured_ms > 0)
                r->measured[recs[i].impl] = recs[i].measured_ms;
        gj_free(pj);
        for (int i = 0; i < GJ_IMPL_COUNT; i++) {
            gj_estimate e;
            if (gj_impl_op((gj_impl)i) != w->op) continue;
            if (isfinite(r->measured[i])) {
                r->n_measured++;
                if (r->best < 0 || r->measured[i] < r->measured[r->best]) r->best = i;
            }
            if (gj_profile_estimate((gj_impl)i, w, p, &e, NULL) == GJ_OK && e.feasible && isfinite(e.ms))
                r->predicted[i] = e.ms;
        }
        gj_plan plan;
        if (gj_advise(w, p, &plan, NULL) == GJ_OK) r->choice = plan.best;
        if (r->choice >= 0 && r->best >= 0 && isfinite(r->measured[r->choice]))
            r->regret = r->measured[r->choice] / r->measured[r->best] - 1;
    }
done:
    for (int i = 0; i < n && rj; i++) gj_free(rj[i]);
    free(rj);
    return rc;
}

static void med_max(double *v, int n, double *med, double *max)
{
    *med = gj_median(v, n); /* sorts v */
    *max = n > 0 ? v[n - 1] : NAN;
}

/* Crossover of challenger c over incumbent b along xs (ascending), values
 * yc/yb (NAN: missing, skipped). */
static void crossing(const double *xs, const double *yc, const double *yb, int n, int logx, int *state, double *at)
{
    double px = NAN, pd = NAN;
    int first = 1;
    *state = GJ_VX_NODATA;
    *at = NAN;
    for (int i = 0; i < n; i++) {
        if (!isfinite(yc[i]) || !isfinite(yb[i])) continue;
        double u = logx ? log2(xs[i]) : xs[i], d = yc[i] - yb[i];
        if (first) {
            *state = d < 0 ? GJ_VX_BELOW : GJ_VX_NEVER;
            if (d < 0) *at = xs[i];
            first = 0;
        } else if (pd >= 0 && d < 0) {
            double t = pd / (pd - d), uu = px + t * (u - px);
            *state = GJ_VX_FOUND;
            *at = logx ? exp2(uu) : uu;
            return;
        }
        px = u;
        pd = d;
    }
}

int gj_validate_summarize(const gj_grid *g, const gj_vresult *res, int holdout_only, gj_vsummary *s, gj_ctx *ctx)
{
    double *all = NULL, *ho = NULL, *xs = NULL, *y[4] = {0};
    int rc = GJ_OK;
    if (!g || !res || !s) return gj_seterr(ctx, GJ_ERR_INVALID, "validate: grid, results or summary is NULL");
    memset(s, 0, sizeof *s);
    s->holdout_only = holdout_only ? 1 : 0;
    s->n_points = g->n_points;
    s->worst = -1;
    size_t np = (size_t)(g->n_points ? g->n_points : 1);
    all = malloc(np * sizeof *all);
    ho = malloc(np * sizeof *ho);
    xs = malloc(GJ_GRID_MAX_VALUES * sizeof *xs);
    for (int k = 0; k < 4; k++) y[k] = malloc(GJ_GRID_MAX_VALUES * sizeof *y[k]);
    if (!all || !ho || !xs || !y[0] || !y[1] || !y[2] || !y[3]) { rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory"); goto done; }
    for (int pi = 0; pi < g->n_points; pi++)
        if (res[pi].n_measured > 0 && (!holdout_only || res[pi].holdout)) s->n_used++;
    for (int i = 0; i < GJ_IMPL_COUNT; i++) {
        int na = 0, nh = 0;
        for (int pi = 0; pi < g->n_points; pi++) {
            const gj_vresult *r = &res[pi];
            if (!isfinite(r->measured[i]) || !isfinite(r->predicted[i])) continue;
            if (holdout_only && !r->holdout) continue;
            double e = fabs(r->predicted[i] / r->measured[i] - 1);
            all[na++] = e;
            if (r->holdout) ho[nh++] = e;
        }
        gj_verr *E = &s->err[i];
        E->n = na;
        E->n_ho = nh;
        med_max(all, na, &E->med, &E->max);
        med_max(ho, nh, &E->med_ho, &E->max_ho);
    }
    double sum = 0;
    s->regret_mean = s->regret_max = NAN;
    for (int pi = 0; pi < g->n_points; pi++) {
        const gj_vresult *r = &res[pi];
        if (!isfinite(r->regret) || (holdout_only && !r->holdout)) continue;
        sum += r->regret;
        if (s->worst < 0 || r->regret > s->regret_max) { s->regret_max = r->regret; s->worst = pi; }
        s->n_regret++;
    }
    if (s->n_regret) s->regret_mean = sum / s->n_regret;
    /* crossovers */
    int first = 0;
    for (int si = 0; si < g->n_sweeps; si++) {
        const gj_sweep *sw = &g->sweeps[si];
        int n = sw->n_values;
        gj_impl pairs[2][2];
        int npairs = 0;
        if (sw->base.op == GJ_OP_JOIN && (sw->param == GJ_VP_MATCH_RATIO || sw->param == GJ_VP_PAYLOADS)) {
            pairs[npairs][0] = GJ_IMPL_PHJ_TR; pairs[npairs++][1] = GJ_IMPL_PHJ_UR;
        }
        if (sw->base.op == GJ_OP_GROUPBY && sw->param == GJ_VP_GROUPS) {
            pairs[npairs][0] = GJ_IMPL_SGB_TR; pairs[npairs++][1] = GJ_IMPL_SGB_UR;
        }
        if (sw->base.op == GJ_OP_GROUPBY && (sw->param == GJ_VP_GROUPS || sw->param == GJ_VP_AGGS)) {
            pairs[npairs][0] = GJ_IMPL_SGB_DE_TR; pairs[npairs++][1] = GJ_IMPL_SGB_TR;
        }
        for (int k = 0; k < npairs && s->n_cross < GJ_VAL_MAX_CROSS; k++) {
            gj_impl c = pairs[k][0], b = pairs[k][1];
            for (int j = 0; j < n; j++) {
                const gj_vresult *r = &res[first + j];
                xs[j] = g->points[first + j].x;
                y[0][j] = r->measured[c];
                y[1][j] = r->measured[b];
                y[2][j] = r->predicted[c];
                y[3][j] = r->predicted[b];
            }
            gj_vcross *x = &s->cross[s->n_cross++];
            x->sweep = si;
            x->challenger = c;
            x->incumbent = b;
            crossing(xs, y[0], y[1], n, gj_vparam_log(sw->param), &x->meas_state, &x->meas_at);
            crossing(xs, y[2], y[3], n, gj_vparam_log(sw->param), &x->pred_state, &x->pred_at);
        }
        first += n;
    }
done:
    free(all);
    free(ho);
    free(xs);
    for (int k = 0; k < 4; k++) free(y[k]);
    return rc;
}

static const char *state_name(int st)
{
    switch (st) {
    case GJ_VX_FOUND: return "found";
    case GJ_VX_BELOW: return "below";
    case GJ_VX_NEVER: return "never";
    default: return "nodata";
    }
}

static void cross_text(int st, double at, const gj_sweep *sw, char *buf, size_t n)
{
    int lg = gj_vparam_log(sw->param);
    switch (st) {
    case GJ_VX_FOUND:
        if (lg) snprintf(buf, n, "%.4g (2^%.2f)", at, log2(at));
        else snprintf(buf, n, "%.4g", at);
        break;
    case GJ_VX_BELOW: snprintf(buf, n, "<= %g (wins throughout)", sw->values[0]); break;
    case GJ_VX_NEVER: snprintf(buf, n, "none up to %g", sw->values[sw->n_values - 1]); break;
    default: snprintf(buf, n, "no data"); break;
    }
}

void gj_validate_summary_print(FILE *f, const gj_grid *g, const gj_vresult *res, const gj_vsummary *s)
{
    char lab[128], a[64], b[64];
    fprintf(f, "prediction error |predicted/measured - 1| by implementation%s\n",
            s->holdout_only ? " (held-out points only)" : "");
    fprintf(f, "%-12s %6s %10s %10s %8s %10s %10s\n", "impl", "points", "median", "max", "held-out", "median", "max");
    for (int i = 0; i < GJ_IMPL_COUNT; i++) {
        const gj_verr *e = &s->err[i];
        if (!e->n) continue;
        fprintf(f, "%-12s %6d %9.1f%% %9.1f%% %8d", gj_impl_name((gj_impl)i), e->n, 100 * e->med, 100 * e->max, e->n_ho);
        if (e->n_ho) fprintf(f, " %9.1f%% %9.1f%%\n", 100 * e->med_ho, 100 * e->max_ho);
        else fprintf(f, " %10s %10s\n", "-", "-");
    }
    fprintf(f, "\nadvisor regret (measured time of its choice / measured best - 1), %d points%s\n", s->n_regret,
            s->holdout_only ? " (held-out only)" : "");
    if (s->n_regret) {
        const gj_vresult *w = &res[s->worst];
        gj_vpoint_label(g, s->worst, lab, sizeof lab);
        fprintf(f, "  mean %.1f%%, max %.1f%% at %s (chose %s %.3f ms, best %s %.3f ms)\n", 100 * s->regret_mean,
                100 * s->regret_max, lab, gj_impl_name((gj_impl)w->choice), w->measured[w->choice],
                gj_impl_name((gj_impl)w->best), w->measured[w->best]);
        int zero = 0;
        for (int pi = 0; pi < g->n_points; pi++)
            if (isfinite(res[pi].regret) && (!s->holdout_only || res[pi].holdout) && res[pi].regret == 0) zero++;
        fprintf(f, "  chose the measured best at %d of %d points\n", zero, s->n_regret);
    } else
        fprintf(f, "  no point with both the advisor's choice and the best measured\n");
    if (s->n_cross) {
        fprintf(f, "\ncrossovers (where the first overtakes the second along the sweep)\n");
        fprintf(f, "%-16s %-12s %-22s %-26s %-26s\n", "sweep", "param", "pair", "measured", "predicted");
        for (int k = 0; k < s->n_cross; k++) {
            const gj_vcross *x = &s->cross[k];
            const gj_sweep *sw = &g->sweeps[x->sweep];
            char pair[40];
            snprintf(pair, sizeof pair, "%s>%s", gj_impl_name(x->challenger), gj_impl_name(x->incumbent));
            cross_text(x->meas_state, x->meas_at, sw, a, sizeof a);
            cross_text(x->pred_state, x->pred_at, sw, b, sizeof b);
            fprintf(f, "%-16s %-12s %-22s %-26s %-26s\n", sw->name, gj_vparam_name(sw->param), pair, a, b);
        }
    }
}

int gj_validate_summary_json(const gj_grid *g, const gj_vresult *res, const gj_vsummary *s, const gj_profile *p,
                             const char *device_uuid, char **json)
{
    gj_sbuf b = {0};
    if (!json) return GJ_ERR_INVALID;
    *json = NULL;
    if (!g || !res || !s || !p) return GJ_ERR_INVALID;
    gj_sbuf_printf(&b, "{\"grid\":");
    gj_sbuf_json_str(&b, g->name);
    gj_sbuf_printf(&b, ",\"tag\":");
    gj_sbuf_json_str(&b, g->tag);
    gj_sbuf_printf(&b, ",\"profile\":");
    gj_sbuf_json_str(&b, gj_profile_name(p));
    gj_sbuf_printf(&b, ",\"profile_version\":%d,\"device_uuid\":", gj_profile_version(p));
    gj_sbuf_json_str(&b, device_uuid ? device_uuid : "");
    gj_sbuf_printf(&b, ",\"holdout_only\":%s,\"points\":%d,\"points_measured\":%d,\"impls\":[",
                   s->holdout_only ? "true" : "false", s->n_points, s->n_used);
    int first = 1;
    for (int i = 0; i < GJ_IMPL_COUNT; i++) {
        const gj_verr *e = &s->err[i];
        if (!e->n) continue;
        gj_sbuf_printf(&b, "%s{\"impl\":\"%s\",\"points\":%d,\"median_err\":", first ? "" : ",",
                       gj_impl_name((gj_impl)i), e->n);
        gj_sbuf_json_num(&b, e->med);
        gj_sbuf_printf(&b, ",\"max_err\":");
        gj_sbuf_json_num(&b, e->max);
        gj_sbuf_printf(&b, ",\"holdout_points\":%d,\"holdout_median_err\":", e->n_ho);
        gj_sbuf_json_num(&b, e->med_ho);
        gj_sbuf_printf(&b, ",\"holdout_max_err\":");
        gj_sbuf_json_num(&b, e->max_ho);
        gj_sbuf_printf(&b, "}");
        first = 0;
    }
    gj_sbuf_printf(&b, "],\"regret\":{\"points\":%d,\"mean\":", s->n_regret);
    gj_sbuf_json_num(&b, s->regret_mean);
    gj_sbuf_printf(&b, ",\"max\":");
    gj_sbuf_json_num(&b, s->regret_max);
    gj_sbuf_printf(&b, ",\"worst\":");
    if (s->worst >= 0) {
        char lab[128];
        gj_vpoint_label(g, s->worst, lab, sizeof lab);
        gj_sbuf_json_str(&b, lab);
    } else
        gj_sbuf_printf(&b, "null");
    gj_sbuf_printf(&b, "},\"crossovers\":[");
    for (int k = 0; k < s->n_cross; k++) {
        const gj_vcross *x = &s->cross[k];
        gj_sbuf_printf(&b, "%s{\"sweep\":", k ? "," : "");
        gj_sbuf_json_str(&b, g->sweeps[x->sweep].name);
        gj_sbuf_printf(&b, ",\"param\":\"%s\",\"challenger\":\"%s\",\"incumbent\":\"%s\",\"measured\":\"%s\","
                           "\"measured_at\":", gj_vparam_name(g->sweeps[x->sweep].param),
                       gj_impl_name(x->challenger), gj_impl_name(x->incumbent), state_name(x->meas_state));
        gj_sbuf_json_num(&b, x->meas_at);
        gj_sbuf_printf(&b, ",\"predicted\":\"%s\",\"predicted_at\":", state_name(x->pred_state));
        gj_sbuf_json_num(&b, x->pred_at);
        gj_sbuf_printf(&b, "}");
    }
    gj_sbuf_printf(&b, "],\"per_point\":[");
    for (int pi = 0; pi < g->n_points; pi++) {
        const gj_vresult *r = &res[pi];
        char lab[128];
        gj_vpoint_label(g, pi, lab, sizeof lab);
        gj_sbuf_printf(&b, "%s{\"point\":", pi ? "," : "");
        gj_sbuf_json_str(&b, lab);
        gj_sbuf_printf(&b, ",\"holdout\":%s,\"choice\":", r->holdout ? "true" : "false");
        if (r->choice >= 0) gj_sbuf_json_str(&b, gj_impl_name((gj_impl)r->choice)); else gj_sbuf_printf(&b, "null");
        gj_sbuf_printf(&b, ",\"best\":");
        if (r->best >= 0) gj_sbuf_json_str(&b, gj_impl_name((gj_impl)r->best)); else gj_sbuf_printf(&b, "null");
        gj_sbuf_printf(&b, ",\"regret\":");
        gj_sbuf_json_num(&b, r->regret);
        gj_sbuf_printf(&b, ",\"measured_ms\":{");
        int f2 = 1;
        for (int i = 0; i < GJ_IMPL_COUNT; i++)
            if (isfinite(r->measured[i])) {
                gj_sbuf_printf(&b, "%s\"%s\":", f2 ? "" : ",", gj_impl_name((gj_impl)i));
                gj_sbuf_json_num(&b, r->measured[i]);
                f2 = 0;
            }
        gj_sbuf_printf(&b, "},\"predicted_ms\":{");
        f2 = 1;
        for (int i = 0; i < GJ_IMPL_COUNT; i++)
            if (isfinite(r->predicted[i])) {
                gj_sbuf_printf(&b, "%s\"%s\":", f2 ? "" : ",", gj_impl_name((gj_impl)i));
                gj_sbuf_json_num(&b, r->predicted[i]);
                f2 = 0;
            }
        gj_sbuf_printf(&b, "}}");
    }
    gj_sbuf_printf(&b, "]}");
    return gj_sbuf_take(&b, json);
}
