/* The validation report: DIR/index.html with one inline SVG chart per sweep
 * (measured time solid with markers, predicted dashed, one colour per
 * implementation, as paper 000 Figs. 10, 16 and 19), the crossover, error and
 * per-point regret tables; DIR/points.csv with every (point, impl) pair.
 * Written by our own code: no plotting dependency. */
#include "validate/validate.h"
#include "common/internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const COLOURS[GJ_IMPL_COUNT] = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#1f77b4",
    "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#7f7f7f"};

/* chart geometry */
#define CW 680
#define CH 400
#define ML 72
#define MR 150
#define MT 34
#define MB 52

typedef struct axis {
    int log;          /* x: log2; y: log10 */
    double lo, hi;    /* in axis units (log of the value when log) */
} axis;

static double nice_step(double range, int target)
{
    double raw = range / target, p = pow(10, floor(log10(raw))), f = raw / p;
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * p;
}

static double ax_u(const axis *a, double v, int base2)
{
    return a->log ? (base2 ? log2(v) : log10(v)) : v;
}

static double px_x(const axis *a, double u) { return ML + (u - a->lo) / (a->hi - a->lo) * (CW - ML - MR); }
static double px_y(const axis *a, double u) { return CH - MB - (u - a->lo) / (a->hi - a->lo) * (CH - MT - MB); }

static void fmt_num(char *b, size_t n, double v)
{
    if (v != 0 && (fabs(v) >= 1e5 || fabs(v) < 1e-3)) snprintf(b, n, "%.0e", v);
    else snprintf(b, n, "%g", v);
}

static void chart(gj_sbuf *b, const gj_grid *g, int si, int first, const gj_vresult *res)
{
    const gj_sweep *sw = &g->sweeps[si];
    int n = sw->n_values;
    axis X = {0}, Y = {0};
    double ymin = INFINITY, ymax = -INFINITY;
    int have[GJ_IMPL_COUNT] = {0};
    X.log = gj_vparam_log(sw->param);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < GJ_IMPL_COUNT; i++) {
            double m = res[first + j].measured[i], p = res[first + j].predicted[i];
            if (isfinite(m) && m > 0) { ymin = fmin(ymin, m); ymax = fmax(ymax, m); have[i] |= 1; }
            if (isfinite(p) && p > 0) { ymin = fmin(ymin, p); ymax = fmax(ymax, p); have[i] |= 2; }
        }
    /* only implementations measured somewhere in the sweep get a line */
    for (int i = 0; i < GJ_IMPL_COUNT; i++)
        if (!(have[i] & 1)) have[i] = 0;
    double u0 = ax_u(&X, sw->values[0], 1), u1 = ax_u(&X, sw->values[n - 1], 1);
    if (u1 - u0 <= 0) { u0 -= 0.5; u1 += 0.5; }
    double pad = 0.04 * (u1 - u0);
    X.lo = u0 - pad;
    X.hi = u1 + pad;
    if (!isfinite(ymin)) { ymin = 1; ymax = 10; }
    Y.log = ymax / ymin > 20;
    if (Y.log) {
        Y.lo = floor(log10(ymin) * 10) / 10 - 0.05;
        Y.hi = ceil(log10(ymax) * 10) / 10 + 0.05;
    } else {
        double st = nice_step(ymax, 5);
        Y.lo = 0;
        Y.hi = ceil(ymax * 1.05 / st) * st;
        if (Y.hi <= 0) Y.hi = 1;
    }
    char base[256] = "";
    const gj_workload *w = &sw->base;
    if (w->op == GJ_OP_JOIN)
        snprintf(base, sizeof base, "join |R|=%llu |S|=%llu, %d+%d payloads, %d/%d-byte keys/payloads",
                 (unsigned long long)w->r_rows, (unsigned long long)w->s_rows, w->r_payloads, w->s_payloads,
                 w->key_bytes, w->payload_bytes);
    else
        snprintf(base, sizeof base, "group-by %llu rows, %llu groups, %d aggregates, %d/%d-byte keys/payloads",
                 (unsigned long long)w->rows, (unsigned long long)w->groups, w->n_aggs, w->key_bytes,
                 w->payload_bytes);
    gj_sbuf_printf(b, "<h3 id=\"sweep-%s\">%s: time vs %s</h3>\n<p class=\"base\">base: %s</p>\n", sw->name,
                   sw->name, gj_vparam_name(sw->param), base);
    gj_sbuf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                      "font-family=\"sans-serif\" font-size=\"12\">\n", CW, CH, CW, CH);
    gj_sbuf_printf(b, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", CW, CH);
    gj_sbuf_printf(b, "<text x=\"%d\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", ML, sw->name);
    /* frame */
    gj_sbuf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n", ML, MT,
                   CW - ML - MR, CH - MT - MB);
    /* x ticks */
    char lab[32];
    if (X.log) {
        int e0 = (int)ceil(X.lo), e1 = (int)floor(X.hi), every = (e1 - e0) > 12 ? 2 : 1;
        for (int e = e0; e <= e1; e++) {
            if ((e - e0) % every) continue;
            double x = px_x(&X, e);
            gj_sbuf_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>"
                              "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">2<tspan dy=\"-5\" font-size=\"9\">%d</tspan></text>\n",
                           x, CH - MB, x, CH - MB + 5, x, CH - MB + 18, e);
        }
    } else {
        double st = nice_step(X.hi - X.lo, 6);
        for (double u = ceil(X.lo / st) * st; u <= X.hi + 1e-9 * st; u += st) {
            double x = px_x(&X, u);
            fmt_num(lab, sizeof lab, fabs(u) < 1e-12 * st ? 0 : u);
            gj_sbuf_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>"
                              "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                           x, CH - MB, x, CH - MB + 5, x, CH - MB + 18, lab);
        }
    }
    /* y ticks and grid */
    if (Y.log) {
        static const double m[3] = {1, 2, 5};
        for (int e = (int)floor(Y.lo); e <= (int)ceil(Y.hi); e++)
            for (int k = 0; k < 3; k++) {
                double u = e + log10(m[k]);
                if (u < Y.lo || u > Y.hi) continue;
                double y = px_y(&Y, u);
                fmt_num(lab, sizeof lab, m[k] * pow(10, e));
                gj_sbuf_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                                  "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                               ML, y, CW - MR, y, ML - 5, y + 4, lab);
            }
    } else {
        double st = nice_step(Y.hi - Y.lo, 5);
        for (double u = 0; u <= Y.hi + 1e-9 * st; u += st) {
            double y = px_y(&Y, u);
            fmt_num(lab, sizeof lab, u);
            gj_sbuf_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                              "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                           ML, y, CW - MR, y, ML - 5, y + 4, lab);
        }
    }
    gj_sbuf_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s%s</text>\n", ML + (CW - ML - MR) / 2,
                   CH - 12, gj_vparam_name(sw->param), X.log ? " (log2 scale)" : "");
    gj_sbuf_printf(b, "<text x=\"16\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">time, ms%s</text>\n",
                   MT + (CH - MT - MB) / 2, MT + (CH - MT - MB) / 2, Y.log ? " (log scale)" : "");
    /* series */
    int nleg = 0;
    for (int i = 0; i < GJ_IMPL_COUNT; i++) {
        if (!have[i]) continue;
        for (int kind = 0; kind < 2; kind++) {   /* 0 measured, 1 predicted */
            int np = 0;
            gj_sbuf_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s points=\"", COLOURS[i],
                           kind ? "1.5" : "2", kind ? " stroke-dasharray=\"6 4\"" : "");
            for (int j = 0; j < n; j++) {
                double v = kind ? res[first + j].predicted[i] : res[first + j].measured[i];
                if (!isfinite(v) || v <= 0) continue;
                gj_sbuf_printf(b, "%s%.1f,%.1f", np++ ? " " : "", px_x(&X, ax_u(&X, sw->values[j], 1)),
                               px_y(&Y, ax_u(&Y, v, 0)));
            }
            gj_sbuf_printf(b, "\"/>\n");
        }
        for (int j = 0; j < n; j++) {
            double v = res[first + j].measured[i];
            if (!isfinite(v) || v <= 0) continue;
            double x = px_x(&X, ax_u(&X, sw->values[j], 1)), y = px_y(&Y, ax_u(&Y, v, 0));
            if (i >= GJ_IMPL_HGB && i <= GJ_IMPL_SGB_DE_TR)   /* colours repeat across ops: squares */
                gj_sbuf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\" fill=\"%s\"/>\n", x - 3,
                               y - 3, COLOURS[i]);
            else
                gj_sbuf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", x, y, COLOURS[i]);
        }
        int ly = MT + 10 + 18 * nleg++;
        gj_sbuf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>"
                          "<text x=\"%d\" y=\"%d\">%s</text>\n",
                       CW - MR + 10, ly, CW - MR + 34, ly, COLOURS[i], CW - MR + 40, ly + 4, gj_impl_name((gj_impl)i));
    }
    int ly = MT + 18 + 18 * nleg;
    gj_sbuf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\" stroke-width=\"2\"/>"
                      "<text x=\"%d\" y=\"%d\">measured</text>\n",
                   CW - MR + 10, ly, CW - MR + 34, ly, CW - MR + 40, ly + 4);
    ly += 18;
    gj_sbuf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\" stroke-width=\"1.5\" "
                      "stroke-dasharray=\"6 4\"/><text x=\"%d\" y=\"%d\">predicted</text>\n",
                   CW - MR + 10, ly, CW - MR + 34, ly, CW - MR + 40, ly + 4);
    gj_sbuf_printf(b, "</svg>\n");
}

static int mkdirs(const char *dir)
{
    char p[4096];
    gj_strlcpy(p, dir, sizeof p);
    for (char *c = p + 1; *c; c++)
        if (*c == '/') {
            *c = 0;
            if (mkdir(p, 0777) && errno != EEXIST) return -1;
            *c = '/';
        }
    if (mkdir(p, 0777) && errno != EEXIST) return -1;
    return 0;
}

static int write_file(const char *dir, const char *name, const char *text, gj_ctx *ctx)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) return gj_seterr(ctx, GJ_ERR_IO, "report: %s: %s", tmp, strerror(errno));
    size_t n = strlen(text);
    int bad = fwrite(text, 1, n, f) != n;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path)) {
        remove(tmp);
        return gj_seterr(ctx, GJ_ERR_IO, "report: writing %s failed", path);
    }
    return GJ_OK;
}

static void pct(gj_sbuf *b, double v)
{
    if (isfinite(v)) gj_sbuf_printf(b, "<td>%.1f%%</td>", 100 * v);
    else gj_sbuf_printf(b, "<td>-</td>");
}

int gj_validate_report(const char *dir, const gj_grid *g, const gj_vresult *res, const gj_vsummary *s,
                       const gj_profile *p, const char *device_uuid, gj_ctx *ctx)
{
    gj_sbuf h = {0}, c = {0};
    char *hs = NULL, *cs = NULL, ts[32], lab[128];
    int rc = GJ_OK;
    if (!dir || !*dir || !g || !res || !s || !p) return gj_seterr(ctx, GJ_ERR_INVALID, "report: NULL argument");
    if (strlen(dir) > 4000) return gj_seterr(ctx, GJ_ERR_INVALID, "report: directory name too long");
    if (mkdirs(dir)) return gj_seterr(ctx, GJ_ERR_IO, "report: cannot create %s: %s", dir, strerror(errno));
    gj_now_iso(ts, sizeof ts);
    gj_sbuf_printf(&h, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>gjadvise validate: %s</title>\n"
                       "<style>body{font-family:sans-serif;max-width:1000px;margin:1em auto}"
                       "table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #bbb;padding:2px 8px;"
                       "text-align:right}th{background:#eee}td:first-child{text-align:left}.base{color:#555}"
                       "</style></head><body>\n", g->name);
    gj_sbuf_printf(&h, "<h1>gjadvise validate: grid %s</h1>\n<p>profile %s v%d; device %s; written %s; %d points, "
                       "%d measured. Prediction error = |predicted/measured - 1|; regret = measured time of the "
                       "advisor's choice / fastest measured - 1. Held-out points: tune/tune.h gj_holdout.%s</p>\n",
                   g->name, gj_profile_name(p), gj_profile_version(p), device_uuid && *device_uuid ? device_uuid : "(any)",
                   ts, s->n_points, s->n_used, s->holdout_only ? " Errors and regret over held-out points only." : "");
    /* errors */
    gj_sbuf_printf(&h, "<h2>Prediction error by implementation</h2>\n<table><tr><th>impl</th><th>points</th>"
                       "<th>median</th><th>max</th><th>held-out points</th><th>median</th><th>max</th></tr>\n");
    for (int i = 0; i < GJ_IMPL_COUNT; i++) {
        const gj_verr *e = &s->err[i];
        if (!e->n) continue;
        gj_sbuf_printf(&h, "<tr><td>%s</td><td>%d</td>", gj_impl_name((gj_impl)i), e->n);
        pct(&h, e->med);
        pct(&h, e->max);
        gj_sbuf_printf(&h, "<td>%d</td>", e->n_ho);
        pct(&h, e->med_ho);
        pct(&h, e->max_ho);
        gj_sbuf_printf(&h, "</tr>\n");
    }
    gj_sbuf_printf(&h, "</table>\n<h2>Advisor regret</h2>\n<p>%d points: mean ", s->n_regret);
    if (s->n_regret) {
        gj_vpoint_label(g, s->worst, lab, sizeof lab);
        gj_sbuf_printf(&h, "%.1f%%, max %.1f%% (%s).</p>\n", 100 * s->regret_mean, 100 * s->regret_max, lab);
    } else
        gj_sbuf_printf(&h, "-, max -.</p>\n");
    if (s->n_cross) {
        gj_sbuf_printf(&h, "<h2>Crossovers</h2>\n<table><tr><th>sweep</th><th>param</th><th>first overtakes "
                           "second</th><th>measured</th><th>predicted</th></tr>\n");
        for (int k = 0; k < s->n_cross; k++) {
            const gj_vcross *x = &s->cross[k];
            const gj_sweep *sw = &g->sweeps[x->sweep];
            gj_sbuf_printf(&h, "<tr><td>%s</td><td>%s</td><td>%s over %s</td>", sw->name, gj_vparam_name(sw->param),
                           gj_impl_name(x->challenger), gj_impl_name(x->incumbent));
            for (int m = 0; m < 2; m++) {
                int st = m ? x->pred_state : x->meas_state;
                double at = m ? x->pred_at : x->meas_at;
                if (st == GJ_VX_FOUND) gj_sbuf_printf(&h, "<td>%.4g</td>", at);
                else if (st == GJ_VX_BELOW) gj_sbuf_printf(&h, "<td>&lt;= %g</td>", sw->values[0]);
                else if (st == GJ_VX_NEVER) gj_sbuf_printf(&h, "<td>none &lt;= %g</td>", sw->values[sw->n_values - 1]);
                else gj_sbuf_printf(&h, "<td>no data</td>");
            }
            gj_sbuf_printf(&h, "</tr>\n");
        }
        gj_sbuf_printf(&h, "</table>\n");
    }
    /* charts */
    gj_sbuf_printf(&h, "<h2>Measured (solid) vs predicted (dashed) time along each sweep</h2>\n");
    int first = 0;
    for (int si = 0; si < g->n_sweeps; si++) {
        chart(&h, g, si, first, res);
        first += g->sweeps[si].n_values;
    }
    /* regret per point */
    gj_sbuf_printf(&h, "<h2>Regret per workload</h2>\n<table><tr><th>workload</th><th>held out</th>"
                       "<th>advisor's choice</th><th>ms</th><th>measured best</th><th>ms</th><th>regret</th></tr>\n");
    for (int pi = 0; pi < g->n_points; pi++) {
        const gj_vresult *r = &res[pi];
        gj_vpoint_label(g, pi, lab, sizeof lab);
        gj_sbuf_printf(&h, "<tr><td>%s</td><td>%s</td>", lab, r->holdout ? "yes" : "no");
        if (r->choice >= 0 && isfinite(r->measured[r->choice]))
            gj_sbuf_printf(&h, "<td>%s</td><td>%.3f</td>", gj_impl_name((gj_impl)r->choice), r->measured[r->choice]);
        else
            gj_sbuf_printf(&h, "<td>%s</td><td>-</td>", r->choice >= 0 ? gj_impl_name((gj_impl)r->choice) : "-");
        if (r->best >= 0) gj_sbuf_printf(&h, "<td>%s</td><td>%.3f</td>", gj_impl_name((gj_impl)r->best), r->measured[r->best]);
        else gj_sbuf_printf(&h, "<td>-</td><td>-</td>");
        pct(&h, r->regret);
        gj_sbuf_printf(&h, "</tr>\n");
    }
    gj_sbuf_printf(&h, "</table>\n</body></html>\n");
    /* csv */
    gj_sbuf_printf(&c, "sweep,param,x,impl,holdout,predicted_ms,measured_ms,rel_err\n");
    for (int pi = 0; pi < g->n_points; pi++) {
        const gj_vpoint *pt = &g->points[pi];
        const gj_sweep *sw = &g->sweeps[pt->sweep];
        for (int i = 0; i < GJ_IMPL_COUNT; i++) {
            if (gj_impl_op((gj_impl)i) != pt->w.op) continue;
            double pr = res[pi].predicted[i], me = res[pi].measured[i];
            if (!isfinite(pr) && !isfinite(me)) continue;
            gj_sbuf_printf(&c, "%s,%s,%.17g,%s,%d,", sw->name, gj_vparam_name(sw->param), pt->x,
                           gj_impl_name((gj_impl)i), res[pi].holdout);
            if (isfinite(pr)) gj_sbuf_printf(&c, "%.6g", pr);
            gj_sbuf_printf(&c, ",");
            if (isfinite(me)) gj_sbuf_printf(&c, "%.6g", me);
            gj_sbuf_printf(&c, ",");
            if (isfinite(pr) && isfinite(me)) gj_sbuf_printf(&c, "%.6g", pr / me - 1);
            gj_sbuf_printf(&c, "\n");
        }
    }
    int t1 = gj_sbuf_take(&h, &hs), t2 = gj_sbuf_take(&c, &cs);
    if (t1 || t2) { rc = gj_seterr(ctx, GJ_ERR_NOMEM, "report: out of memory"); goto done; }
    if ((rc = write_file(dir, "points.csv", cs, ctx))) goto done;
    rc = write_file(dir, "index.html", hs, ctx);
done:
    gj_free(hs);
    gj_free(cs);
    return rc;
}
