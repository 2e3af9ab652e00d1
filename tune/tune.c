/* gj_tune: learn each implementation's model correction (gj_fit, T-FIT in
 * model/MODEL.md) from logged executions.
 *
 * For one implementation the model's prediction is a sum of terms, each the
 * bytes or operations of one kind over the calibrated rate of the unit that
 * moves them (gj_estimate.term_ms: sequential traffic, partition passes,
 * sorts, random gathers, hashing, atomics, fixed costs). Calibration gets the
 * rates from micro-benchmarks; a real operator runs some of them faster or
 * slower (overlap, occupancy, its own kernels). Tuning scales each kind:
 *
 *     measured_i  ~  sum_k c_k * T_ik + b                              (1)
 *
 * fitted by least squares on relative residuals (each row divided by
 * measured_i, so a 10% miss on a 1 ms run counts as much as on a 100 ms run),
 * with a ridge pulling every c_k towards 1 (the calibrated physics) and b
 * towards 0, and with c_k, b >= 0 (a negative coefficient is fixed at 0 and
 * the rest refitted). Kinds that never contribute more than 0.1% of a
 * training row are left at 1: the data say nothing about them.
 *
 * Fitting uses only the training side of gj_holdout's split; the held-out
 * side decides whether the fit is kept. */
#include "tune/tune.h"
#include "common/internal.h"
#include "model/model.h"

#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_RIDGE 0.05
#define DEFAULT_MIN_TRAIN 6
#define NEGLIGIBLE 1e-3 /* a kind below this share of every row is not fitted */

/* One usable execution of one implementation, reduced to what the fit needs. */
typedef struct obs {
    double t[GJ_TERMS]; /* raw model terms, ms */
    double before;      /* base profile's prediction, ms */
    double measured;    /* ms */
    int holdout;
} obs;

static double predict(const gj_fit *f, const double *t)
{
    double s = f->intercept_ms;
    for (int k = 0; k < GJ_TERMS; k++) s += f->coef[k] * t[k];
    return s;
}

static double rel_err(double pred, double meas) { return fabs(pred / meas - 1); }

/* Median relative error over one side of the split: of the base prediction
 * (f NULL) or of fit f. */
static double side_error(const obs *o, int n, int holdout, const gj_fit *f, double *scratch)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (o[i].holdout == holdout)
            scratch[m++] = rel_err(f ? predict(f, o[i].t) : o[i].before, o[i].measured);
    return gj_median(scratch, m);
}

/* Fit (1) on the training rows of o. Column j < GJ_TERMS is kind j, column
 * GJ_TERMS the intercept. Returns GJ_OK or GJ_ERR_NOMEM; *f filled. */
static int fit_rows(const obs *o, int n, double ridge, gj_fit *f, double *scratch)
{
    enum { NC = GJ_TERMS + 1 };
    int active[NC];
    double fixed[NC]; /* the value of an inactive column's coefficient */
    int m_train = 0;
    for (int i = 0; i < n; i++)
        if (!o[i].holdout) scratch[m_train++] = o[i].measured;
    double ymed = gj_median(scratch, m_train);

    for (int k = 0; k < GJ_TERMS; k++) {
        double share = 0;
        for (int i = 0; i < n; i++)
            if (!o[i].holdout) share = fmax(share, o[i].t[k] / o[i].measured);
        active[k] = share > NEGLIGIBLE;
        fixed[k] = 1;
    }
    active[GJ_TERMS] = 1;
    fixed[GJ_TERMS] = 0;

    for (;;) {
        int cols[NC], m = 0;
        for (int j = 0; j < NC; j++)
            if (active[j]) cols[m++] = j;
        if (m == 0) break;
        size_t rows = (size_t)m_train + (size_t)m;
        gsl_matrix *X = gsl_matrix_calloc(rows, (size_t)m);
        gsl_vector *y = gsl_vector_calloc(rows), *c = gsl_vector_alloc((size_t)m);
        gsl_matrix *cov = gsl_matrix_alloc((size_t)m, (size_t)m);
        gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(rows, (size_t)m);
        if (!X || !y || !c || !cov || !ws) {
            gsl_matrix_free(X), gsl_vector_free(y), gsl_vector_free(c), gsl_matrix_free(cov);
            if (ws) gsl_multifit_linear_free(ws);
            return GJ_ERR_NOMEM;
        }
        size_t r = 0;
        for (int i = 0; i < n; i++) {
            if (o[i].holdout) continue;
            double yi = o[i].measured, rest = 0;
            for (int j = 0; j < GJ_TERMS; j++)
                if (!active[j]) rest += fixed[j] * o[i].t[j];
            if (!active[GJ_TERMS]) rest += fixed[GJ_TERMS];
            for (int q = 0; q < m; q++) {
                int j = cols[q];
                gsl_matrix_set(X, r, (size_t)q, (j < GJ_TERMS ? o[i].t[j] : 1.0) / yi);
            }
            gsl_vector_set(y, r, (yi - rest) / yi);
            r++;
        }
        /* Prior rows: sqrt(ridge) (c_j - 1) for kinds, sqrt(ridge) b / ymed for
         * the intercept (b in units of a typical run). */
        double sr = sqrt(ridge);
        for (int q = 0; q < m; q++, r++) {
            int j = cols[q];
            double scale = j < GJ_TERMS ? 1 : 1 / ymed;
            gsl_matrix_set(X, r, (size_t)q, sr * scale);
            gsl_vector_set(y, r, j < GJ_TERMS ? sr : 0);
        }
        double chisq;
        gsl_multifit_linear(X, y, c, cov, &chisq, ws);
        int worst = -1;
        double worst_v = 0;
        for (int q = 0; q < m; q++) {
            double v = gsl_vector_get(c, (size_t)q);
            fixed[cols[q]] = v;
            if (v < worst_v || !isfinite(v)) worst = q, worst_v = isfinite(v) ? v : -INFINITY;
        }
        gsl_matrix_free(X), gsl_vector_free(y), gsl_vector_free(c), gsl_matrix_free(cov);
        gsl_multifit_linear_free(ws);
        if (worst < 0) break;
        /* Fix the most negative at 0 and refit the rest. */
        active[cols[worst]] = 0;
        fixed[cols[worst]] = 0;
    }
    memset(f, 0, sizeof *f);
    f->set = 1;
    for (int k = 0; k < GJ_TERMS; k++) f->coef[k] = fixed[k];
    f->intercept_ms = fixed[GJ_TERMS];
    return GJ_OK;
}

static int usable(const gj_exec_record *r, const gj_tune_opts *o)
{
    if (o->device_uuid && strcmp(r->device_uuid, o->device_uuid)) return 0;
    if (o->tag_prefix && strncmp(r->tag, o->tag_prefix, strlen(o->tag_prefix))) return 0;
    return r->checked != 0 && isfinite(r->measured_ms) && r->measured_ms > 0 &&
           gj_impl_name(r->impl) && gj_impl_op(r->impl) == r->w.op;
}

int gj_tune(const gj_profile *base, const gj_exec_record *rows, int n, const gj_tune_opts *opts,
            gj_profile **out, gj_tune_report *rep, gj_ctx *ctx)
{
    gj_tune_opts o = opts ? *opts : (gj_tune_opts){0};
    obs *all = NULL;
    double *scratch = NULL, *hb = NULL, *ha = NULL, *tb = NULL, *ta = NULL;
    gj_profile *p = NULL;
    int rc = GJ_OK, counts[GJ_IMPL_COUNT] = {0};

    if (out) *out = NULL;
    if (!base || (!rows && n > 0) || n < 0 || !out || !rep)
        return gj_seterr(ctx, GJ_ERR_INVALID, "base, rows, out and rep must not be NULL, n >= 0");
    if (!(o.ridge >= 0) || !isfinite(o.ridge) || o.min_train < 0)
        return gj_seterr(ctx, GJ_ERR_INVALID, "ridge=%g min_train=%d: allowed ridge >= 0 and "
                         "min_train >= 0 (0 = defaults %g and %d)", o.ridge, o.min_train,
                         DEFAULT_RIDGE, DEFAULT_MIN_TRAIN);
    if (o.ridge == 0) o.ridge = DEFAULT_RIDGE;
    if (o.min_train == 0) o.min_train = DEFAULT_MIN_TRAIN;
    memset(rep, 0, sizeof *rep);
    rep->n_rows = n;

    size_t cap = (size_t)(n ? n : 1);
    all = malloc(sizeof *all * cap);
    gj_impl *impl_of = malloc(sizeof *impl_of * cap);
    scratch = malloc(sizeof *scratch * cap);
    hb = malloc(sizeof *hb * cap), ha = malloc(sizeof *ha * cap);
    tb = malloc(sizeof *tb * cap), ta = malloc(sizeof *ta * cap);
    if (!all || !impl_of || !scratch || !hb || !ha || !tb || !ta) {
        rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory for %d executions", n);
        goto done;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        gj_estimate e;
        if (!usable(&rows[i], &o)) continue;
        if (gj_profile_estimate(rows[i].impl, &rows[i].w, base, &e, NULL) != GJ_OK) continue;
        memcpy(all[m].t, e.term_ms, sizeof all[m].t);
        all[m].before = e.ms;
        all[m].measured = rows[i].measured_ms;
        all[m].holdout = gj_holdout(&rows[i].w);
        impl_of[m] = rows[i].impl;
        counts[rows[i].impl]++;
        m++;
    }
    rep->n_used = m;
    if (m == 0) {
        rc = gj_seterr(ctx, GJ_ERR_NOTFOUND, "no usable execution among %d (need a measured time, "
                       "a result not found wrong%s%s%s%s): run `gjadvise validate` or "
                       "`gjadvise run` first", n, o.device_uuid ? ", device " : "",
                       o.device_uuid ? o.device_uuid : "", o.tag_prefix ? ", tag " : "",
                       o.tag_prefix ? o.tag_prefix : "");
        goto done;
    }
    if ((rc = gj_profile_clone(base, &p)) != GJ_OK) {
        rc = gj_seterr(ctx, rc, "out of memory");
        goto done;
    }

    /* Rows grouped by implementation, in enum order. */
    obs *grp = malloc(sizeof *grp * (size_t)m);
    if (!grp) {
        rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory");
        goto done;
    }
    int nh = 0, nt = 0, accepted = 0;
    for (int im = 0; im < GJ_IMPL_COUNT; im++) {
        if (!counts[im]) continue;
        int k = 0;
        for (int i = 0; i < m; i++)
            if (impl_of[i] == (gj_impl)im) grp[k++] = all[i];
        gj_tune_impl *ti = &rep->impls[rep->n_impls++];
        memset(ti, 0, sizeof *ti);
        ti->impl = (gj_impl)im;
        for (int i = 0; i < k; i++) grp[i].holdout ? ti->n_holdout++ : ti->n_train++;
        ti->train_before = side_error(grp, k, 0, NULL, scratch);
        ti->holdout_before = side_error(grp, k, 1, NULL, scratch);
        const gj_fit *use = NULL; /* NULL: predictions stay base's */
        if (ti->n_train < o.min_train) {
            snprintf(ti->why, sizeof ti->why, "%d training executions, %d needed: left as it was",
                     ti->n_train, o.min_train);
            ti->train_after = ti->train_before;
            ti->holdout_after = ti->holdout_before;
        } else {
            if ((rc = fit_rows(grp, k, o.ridge, &ti->fit, scratch)) != GJ_OK) {
                free(grp);
                rc = gj_seterr(ctx, rc, "out of memory fitting %s", gj_impl_name((gj_impl)im));
                goto done;
            }
            ti->fit.n_train = ti->n_train;
            ti->train_after = side_error(grp, k, 0, &ti->fit, scratch);
            ti->holdout_after = side_error(grp, k, 1, &ti->fit, scratch);
            ti->fit.err_train = ti->train_after;
            ti->fit.err_holdout = ti->n_holdout ? ti->holdout_after : -1;
            /* The judge is the held-out side; without one, the training side. */
            double before = ti->n_holdout ? ti->holdout_before : ti->train_before;
            double after = ti->n_holdout ? ti->holdout_after : ti->train_after;
            if (after <= before) {
                ti->accepted = 1;
                use = &ti->fit;
                gj_profile_set_fit(p, (gj_impl)im, &ti->fit);
                accepted++;
                snprintf(ti->why, sizeof ti->why, "fitted on %d, %s median |err| %.1f%% -> %.1f%%",
                         ti->n_train, ti->n_holdout ? "held-out" : "training (none held out)",
                         100 * before, 100 * after);
            } else {
                snprintf(ti->why, sizeof ti->why, "kept the old model: %s median |err| would rise "
                         "%.1f%% -> %.1f%%", ti->n_holdout ? "held-out" : "training",
                         100 * before, 100 * after);
            }
        }
        for (int i = 0; i < k; i++) {
            double after = use ? predict(use, grp[i].t) : grp[i].before;
            if (grp[i].holdout) {
                hb[nh] = rel_err(grp[i].before, grp[i].measured);
                ha[nh++] = rel_err(after, grp[i].measured);
            } else {
                tb[nt] = rel_err(grp[i].before, grp[i].measured);
                ta[nt++] = rel_err(after, grp[i].measured);
            }
        }
    }
    free(grp);
    rep->holdout_before = gj_median(hb, nh);
    rep->holdout_after = gj_median(ha, nh);
    rep->train_before = gj_median(tb, nt);
    rep->train_after = gj_median(ta, nt);
    /* Better means better by more than rounding: 0.1% of the error, and
     * more than 1e-9 (an exact model's errors are rounding, ~1e-16). */
    double eb = nh ? rep->holdout_before : rep->train_before;
    double ea = nh ? rep->holdout_after : rep->train_after;
    rep->improved = accepted > 0 && ea < eb * (1 - 1e-3) && eb - ea > 1e-9;
    char notes[256];
    snprintf(notes, sizeof notes, "tuned from %d executions (%d held out), %d of %d implementations "
             "refitted; held-out median |err| %.1f%% (was %.1f%%)", m, nh, accepted, rep->n_impls,
             100 * rep->holdout_after, 100 * rep->holdout_before);
    char now[32];
    gj_now_iso(now, sizeof now);
    gj_profile_set_meta(p, "tune", now, notes, gj_profile_version(base),
                        nh ? rep->holdout_after : rep->train_after);
    *out = p;
    p = NULL;
done:
    gj_profile_free(p);
    free(all);
    free(impl_of);
    free(scratch);
    free(hb), free(ha), free(tb), free(ta);
    return rc;
}
