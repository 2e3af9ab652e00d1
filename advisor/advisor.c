/* The advisor: rank every implementation of an operator by predicted time,
 * explain the winner, find where the choice flips, and compare with the
 * paper's own rules of thumb. Pure computation: no GPU, no store. */
#include "common/internal.h"
#include "model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_time(const void *x, const void *y)
{
    const gj_estimate *a = x, *b = y;
    if (a->feasible != b->feasible) return b->feasible - a->feasible;
    return (a->ms > b->ms) - (a->ms < b->ms);
}

/* Estimate and rank; returns the number of feasible implementations. */
static int rank_all(const gj_workload *w, const gj_profile *p, gj_estimate *est, int *n)
{
    int count, feasible = 0;
    const gj_impl *list = gj_impls_of(w->op, &count);
    for (int i = 0; i < count; i++) {
        gj_profile_estimate(list[i], w, p, &est[i], NULL);
        feasible += est[i].feasible;
    }
    qsort(est, (size_t)count, sizeof est[0], by_time);
    *n = count;
    return feasible;
}

/* Best implementation for w, or -1 if none is feasible. */
static int best_of(const gj_workload *w, const gj_profile *p)
{
    gj_estimate est[GJ_IMPL_COUNT];
    int n;
    return rank_all(w, p, est, &n) ? (int)est[0].impl : -1;
}

/* ---- the paper's rules --------------------------------------------------- */

static int needs_sort_based(const gj_workload *w)
{
    for (int i = 0; i < w->n_aggs; i++)
        if (w->aggs[i] == GJ_AGG_COUNT_DISTINCT || w->aggs[i] == GJ_AGG_MEDIAN) return 1;
    return 0;
}

static int payload_columns(const gj_workload *w)
{
    int p = 0;
    for (int i = 0; i < w->n_aggs; i++) p += w->aggs[i] != GJ_AGG_COUNT;
    return p;
}

/* Sec. 5.1.10 and Sec. 7 for joins; Fig. 21 for group-bys. */
static gj_impl paper_rule(const gj_workload *w, const gj_hw *hw, char *why, size_t n)
{
    if (w->op == GJ_OP_JOIN) {
        if (w->r_payloads + w->s_payloads == 0) {
            snprintf(why, n, "Sec. 5.1.5: narrow joins favour PHJ-*, UR and TR alike");
            return GJ_IMPL_PHJ_UR;
        }
        if (w->match_ratio >= 0.25 || w->zipf >= 1 || w->key_bytes == 8 || w->payload_bytes == 8) {
            snprintf(why, n, "Sec. 7: PHJ-TR when the match ratio is >= 25%%, foreign keys are "
                             "skewed, or values are 8 bytes");
            return GJ_IMPL_PHJ_TR;
        }
        snprintf(why, n, "Sec. 7: PHJ-UR for wide joins with a low match ratio (< 25%%)");
        return GJ_IMPL_PHJ_UR;
    }
    int p = payload_columns(w);
    if (needs_sort_based(w) || w->sorted_output) {
        int min_p = gj_m44_min_payloads(hw, (double)w->rows, (double)w->groups, w->key_bytes);
        int de = p >= 2 && min_p > 0 && p >= min_p;
        snprintf(why, n, "Fig. 21: %s needs a sort-based group-by; Table 2 %s dictionary encoding "
                         "(p = %d, needs p >= %d)",
                 needs_sort_based(w) ? "the aggregate" : "the ordered output",
                 de ? "favours" : "does not favour", p, min_p);
        return de ? GJ_IMPL_SGB_DE_TR : GJ_IMPL_SGB_TR;
    }
    double slots = 0;
    for (int i = 0; i < w->n_aggs; i++)
        slots += (w->aggs[i] == GJ_AGG_MIN || w->aggs[i] == GJ_AGG_MAX) ? w->payload_bytes : 8;
    if ((double)w->groups * slots <= hw->smem_per_block) {
        snprintf(why, n, "Fig. 21: HGB while the groups' aggregates fit in shared memory");
        return GJ_IMPL_HGB;
    }
    if (w->zipf < 1) {
        snprintf(why, n, "Fig. 21: PGB-TR for many groups without heavy skew (z < 1)");
        return GJ_IMPL_PGB_TR;
    }
    snprintf(why, n, "Fig. 21: a sort-based group-by for many groups with heavy skew (z >= 1)");
    return GJ_IMPL_SGB_TR;
}

/* ---- crossover ------------------------------------------------------------ */

typedef struct {
    const char *name;
    double lo, hi;     /* range searched */
    int log2scale;     /* distances and steps in log2 */
    int integer;
} axis;

static double get_axis(const gj_workload *w, const char *name)
{
    if (!strcmp(name, "match_ratio")) return w->match_ratio;
    if (!strcmp(name, "payloads")) return w->op == GJ_OP_JOIN ? w->r_payloads : w->n_aggs;
    if (!strcmp(name, "zipf")) return w->zipf;
    if (!strcmp(name, "groups")) return (double)w->groups;
    if (!strcmp(name, "r_rows")) return (double)w->r_rows;
    return NAN;
}

static void set_axis(gj_workload *w, const char *name, double v)
{
    if (!strcmp(name, "match_ratio")) w->match_ratio = v;
    else if (!strcmp(name, "zipf")) w->zipf = v;
    else if (!strcmp(name, "groups")) {
        /* a span told (key_range) moves with the groups at the same
         * density, as validate's grid moves it: more groups than the span
         * holds would be keys the statistics deny */
        const uint64_t g = (uint64_t)llround(v);
        if (w->key_range && w->groups) {
            const double r = llround((double)w->key_range * (v / (double)w->groups));
            w->key_range = r < (double)g ? g : r > 0x1p62 ? 1ull << 62 : (uint64_t)r;
        }
        w->groups = g;
    }
    else if (!strcmp(name, "r_rows")) w->r_rows = (uint64_t)llround(v);
    else if (!strcmp(name, "payloads")) {
        int p = (int)lround(v);
        if (w->op == GJ_OP_JOIN) {
            w->r_payloads = p;
            w->s_payloads = p;
        } else {
            /* more columns of the workload's first aggregate */
            for (int i = w->n_aggs; i < p; i++) w->aggs[i] = w->aggs[0];
            w->n_aggs = p;
        }
    }
}

/* Nearest flip along one axis: scan outwards from the current value on a
 * fine grid, then bisect continuous axes. Returns the distance normalised to
 * the axis' range (INFINITY if none) and fills cx with the nearest flip. */
static double search_axis(const gj_workload *w0, const gj_profile *p, const axis *ax, int best,
                          gj_crossover *cx)
{
    double cur = get_axis(w0, ax->name);
    const int steps = 200;
    double best_dist = INFINITY;
    for (int dir = -1; dir <= 1; dir += 2) {
        double prev = cur;
        for (int i = 1; i <= steps; i++) {
            double v;
            if (ax->integer)
                v = cur + dir * i;
            else if (ax->log2scale)
                v = ldexp(cur, 0) * pow(2, dir * i * (log2(ax->hi / ax->lo) / steps));
            else
                v = cur + dir * i * (ax->hi - ax->lo) / steps;
            if (v < ax->lo - 1e-12 || v > ax->hi + 1e-12) break;
            if (ax->integer || ax->log2scale) v = round(v);
            if (v == prev) continue;
            gj_workload w = *w0;
            set_axis(&w, ax->name, v);
            if (gj_workload_check(&w, NULL) != GJ_OK) break;
            int b = best_of(&w, p);
            if (b >= 0 && b != best) {
                /* bisect between prev (best) and v (b) */
                double lo = prev, hi = v;
                for (int k = 0; k < 40 && !ax->integer; k++) {
                    double mid = ax->log2scale ? round(sqrt(lo * hi)) : (lo + hi) / 2;
                    if (mid == lo || mid == hi) break;
                    gj_workload wm = *w0;
                    set_axis(&wm, ax->name, mid);
                    int bm = best_of(&wm, p);
                    if (bm == best) lo = mid;
                    else {
                        hi = mid;
                        b = bm;
                    }
                }
                double at = hi;
                double dist = ax->log2scale ? fabs(log2(at) - log2(cur)) / log2(ax->hi / ax->lo)
                                            : fabs(at - cur) / (ax->hi - ax->lo);
                if (dist < best_dist) {
                    best_dist = dist;
                    cx->found = 1;
                    gj_strlcpy(cx->param, ax->name, sizeof cx->param);
                    cx->at = at;
                    cx->current = cur;
                    cx->from = (gj_impl)best;
                    cx->to = (gj_impl)b;
                }
                break;
            }
            prev = v;
        }
    }
    return best_dist;
}

static void find_crossover(const gj_workload *w, const gj_profile *p, gj_impl best,
                           gj_crossover *out)
{
    memset(out, 0, sizeof *out);
    axis axes[4];
    int n = 0;
    if (w->op == GJ_OP_JOIN) {
        if (!w->out_rows) axes[n++] = (axis){"match_ratio", 0, 1, 0, 0};
        axes[n++] = (axis){"payloads", 0, GJ_MAX_PAYLOADS, 0, 1};
        axes[n++] = (axis){"zipf", 0, 2, 0, 0};
    } else {
        axes[n++] = (axis){"groups", 1, (double)w->rows, 1, 0};
        axes[n++] = (axis){"payloads", 1, GJ_MAX_AGGS, 0, 1};
        axes[n++] = (axis){"zipf", 0, 2, 0, 0};
    }
    /* The axes are in order of how much the paper says they decide (match
     * ratio for joins, group count for group-bys): report the first that
     * flips the choice, at its nearest flip. */
    for (int i = 0; i < n && !out->found; i++) search_axis(w, p, &axes[i], (int)best, out);
}

/* ---- explanation ------------------------------------------------------------ */

/* What a kind of term stands for, in the explanation's words. */
static const char *const kind_words[GJ_TERMS] = {
    "sequential passes", "partition passes", "sorts", "random gathers", "probes and searches", "atomics",
    "launches and allocations"};

/* An estimate's time by kind of work (gj_estimate.term_ms), scaled as its
 * phases were by the profile's correction of that implementation. */
static void kind_ms(const gj_estimate *e, const gj_profile *p, double out[GJ_TERMS])
{
    gj_fit f;
    const int tuned = e->tuned && gj_profile_get_fit(p, e->impl, &f) == GJ_OK && f.set;
    for (int k = 0; k < GJ_TERMS; k++) out[k] = e->term_ms[k] * (tuned ? f.coef[k] : 1);
}

static void explain(gj_plan *plan, const gj_profile *p)
{
    const gj_estimate *b = &plan->est[0];
    gj_sbuf s = {0};
    gj_sbuf_printf(&s, "%s is predicted fastest at %.2f ms (%.1fx its bandwidth floor of %.2f ms)",
                   gj_impl_name(b->impl), b->ms, b->floor_ms > 0 ? b->ms / b->floor_ms : 0,
                   b->floor_ms);
    if (plan->n > 1 && plan->est[1].feasible) {
        /* Where the runner-up loses: the kind of work it spends the most
         * more time on (and the next, where that adds a quarter as much),
         * and the kind the winner spends the most more on, where that
         * offsets a quarter of it. By kind, not by phase: the
         * implementations do not share their phases' contents (HGB keeps
         * all of its work in one, a filtered join's largest term in the
         * transform is the filter's, the same for both). */
        const gj_estimate *r = &plan->est[1];
        double kb[GJ_TERMS], kr[GJ_TERMS];
        kind_ms(b, p, kb);
        kind_ms(r, p, kr);
        int more = 0, next = -1, less = 0;
        for (int k = 1; k < GJ_TERMS; k++) {
            if (kr[k] - kb[k] > kr[more] - kb[more]) more = k;
            if (kb[k] - kr[k] > kb[less] - kr[less]) less = k;
        }
        for (int k = 0; k < GJ_TERMS; k++)
            if (k != more && (next < 0 || kr[k] - kb[k] > kr[next] - kb[next])) next = k;
        const double excess = kr[more] - kb[more];
        gj_sbuf_printf(&s, "; the runner-up %s needs %.2f ms (%.2fx)", gj_impl_name(r->impl), r->ms,
                       r->ms / b->ms);
        if (excess > 0) {
            gj_sbuf_printf(&s, ": its %s take %.2f ms against %.2f", kind_words[more], kr[more], kb[more]);
            if (kr[next] - kb[next] > 0.25 * excess)
                gj_sbuf_printf(&s, " and its %s %.2f against %.2f", kind_words[next], kr[next], kb[next]);
            if (kb[less] - kr[less] > 0.25 * excess)
                gj_sbuf_printf(&s, ", while %s's %s take %.2f ms more", gj_impl_name(b->impl), kind_words[less],
                               kb[less] - kr[less]);
        }
    }
    int dom = 0;
    for (int i = 1; i < b->n_phases; i++)
        if (b->phase[i].ms > b->phase[dom].ms) dom = i;
    gj_sbuf_printf(&s, ". Its dominant term: %s (%s)", b->phase[dom].dominant, b->phase[dom].name);
    char *txt = NULL;
    if (gj_sbuf_take(&s, &txt) == GJ_OK) {
        gj_strlcpy(plan->reason, txt, sizeof plan->reason);
        free(txt);
    }
}

int gj_advise(const gj_workload *w, const gj_profile *p, gj_plan *out, gj_ctx *ctx)
{
    int rc = gj_workload_check(w, ctx);
    if (rc != GJ_OK) return rc;
    if (!p || !out) return gj_seterr(ctx, GJ_ERR_INVALID, "profile and plan must not be NULL");
    const gj_hw *hw = gj_profile_hw(p);
    memset(out, 0, sizeof *out);
    out->op = w->op;
    gj_strlcpy(out->profile, gj_profile_name(p), sizeof out->profile);
    int feasible = rank_all(w, p, out->est, &out->n);
    out->best = out->est[0].impl;
    out->heuristic = paper_rule(w, hw, out->heuristic_rule, sizeof out->heuristic_rule);
    if (!feasible) {
        snprintf(out->reason, sizeof out->reason, "no implementation fits: %s", out->est[0].why);
        return gj_seterr(ctx, GJ_ERR_INFEASIBLE, "no implementation fits: %s", out->est[0].why);
    }
    explain(out, p);
    find_crossover(w, p, out->best, &out->crossover);
    if (out->heuristic != out->best) {
        size_t l = strlen(out->reason);
        double hms = 0;
        for (int i = 0; i < out->n; i++)
            if (out->est[i].impl == out->heuristic) hms = out->est[i].ms;
        snprintf(out->reason + l, sizeof out->reason - l,
                 ". The paper's rule picks %s (%.2f ms predicted here): the model disagrees",
                 gj_impl_name(out->heuristic), hms);
    }
    return GJ_OK;
}

/* ---- JSON ----------------------------------------------------------------- */

int gj_plan_to_json(const gj_plan *plan, const gj_workload *w, char **json)
{
    if (!plan || !json) return GJ_ERR_INVALID;
    *json = NULL;
    gj_sbuf s = {0};
    char *wj = NULL;
    if (w && gj_workload_to_json(w, &wj) != GJ_OK) wj = NULL;
    gj_sbuf_printf(&s, "{\"op\":\"%s\",\"profile\":", plan->op == GJ_OP_JOIN ? "join" : "groupby");
    gj_sbuf_json_str(&s, plan->profile);
    if (wj) gj_sbuf_printf(&s, ",\"workload\":%s", wj);
    free(wj);
    gj_sbuf_printf(&s, ",\"best\":\"%s\",\"reason\":", gj_impl_name(plan->best));
    gj_sbuf_json_str(&s, plan->reason);
    gj_sbuf_printf(&s, ",\"paper_rule\":{\"impl\":\"%s\",\"rule\":", gj_impl_name(plan->heuristic));
    gj_sbuf_json_str(&s, plan->heuristic_rule);
    gj_sbuf_printf(&s, ",\"agrees\":%s}", plan->heuristic == plan->best ? "true" : "false");
    const gj_crossover *c = &plan->crossover;
    if (c->found) {
        gj_sbuf_printf(&s, ",\"crossover\":{\"param\":\"%s\",\"at\":", c->param);
        gj_sbuf_json_num(&s, c->at);
        gj_sbuf_printf(&s, ",\"current\":");
        gj_sbuf_json_num(&s, c->current);
        gj_sbuf_printf(&s, ",\"from\":\"%s\",\"to\":\"%s\"}", gj_impl_name(c->from),
                       gj_impl_name(c->to));
    } else {
        gj_sbuf_printf(&s, ",\"crossover\":null");
    }
    gj_sbuf_printf(&s, ",\"ranking\":[");
    for (int i = 0; i < plan->n; i++) {
        const gj_estimate *e = &plan->est[i];
        gj_sbuf_printf(&s, "%s{\"impl\":\"%s\",\"feasible\":%s,", i ? "," : "", gj_impl_name(e->impl),
                       e->feasible ? "true" : "false");
        uint64_t cr = 0, cs = 0;
        if (e->filtered && w) { /* the sides the filter cuts, where the model chose it */
            gj_join_cut_rows(w, &cr, &cs);
            gj_sbuf_printf(&s, "\"filter\":{\"r_rows\":%llu,\"s_rows\":%llu},", (unsigned long long)cr,
                           (unsigned long long)cs);
        } else if (plan->op == GJ_OP_JOIN)
            gj_sbuf_printf(&s, "\"filter\":null,");
        if (!e->feasible) {
            gj_sbuf_printf(&s, "\"why\":");
            gj_sbuf_json_str(&s, e->why);
            gj_sbuf_printf(&s, ",");
        }
        gj_sbuf_printf(&s, "\"ms\":");
        gj_sbuf_json_num(&s, e->ms);
        gj_sbuf_printf(&s, ",\"floor_ms\":");
        gj_sbuf_json_num(&s, e->floor_ms);
        gj_sbuf_printf(&s, ",\"bytes\":");
        gj_sbuf_json_num(&s, e->bytes);
        gj_sbuf_printf(&s, ",\"peak_bytes\":");
        gj_sbuf_json_num(&s, e->peak_bytes);
        gj_sbuf_printf(&s, ",\"phases\":[");
        for (int k = 0; k < e->n_phases; k++) {
            gj_sbuf_printf(&s, "%s{\"name\":\"%s\",\"ms\":", k ? "," : "", e->phase[k].name);
            gj_sbuf_json_num(&s, e->phase[k].ms);
            gj_sbuf_printf(&s, ",\"bytes\":");
            gj_sbuf_json_num(&s, e->phase[k].bytes);
            gj_sbuf_printf(&s, ",\"dominant\":");
            gj_sbuf_json_str(&s, e->phase[k].dominant);
            gj_sbuf_printf(&s, "}");
        }
        gj_sbuf_printf(&s, "]}");
    }
    gj_sbuf_printf(&s, "]}");
    return gj_sbuf_take(&s, json);
}
