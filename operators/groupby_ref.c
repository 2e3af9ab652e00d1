/* CPU reference group-by (the test oracle): qsort row ids by key, then fold
 * each run of equal keys. Deliberately plain. */
#include "operators/groupby.h"
#include "common/internal.h"

#include <stdlib.h>
#include <string.h>

void gj_groupby_out_type(gj_agg a, int pw, gj_dtype pt, int *ow, gj_dtype *ot)
{
    switch (a) {
    case GJ_AGG_SUM: *ow = 8; *ot = pt; break;
    case GJ_AGG_MIN:
    case GJ_AGG_MAX: *ow = pw; *ot = pt; break;
    case GJ_AGG_AVG:
    case GJ_AGG_MEDIAN: *ow = 8; *ot = GJ_DT_FLOAT; break;
    default: *ow = 8; *ot = GJ_DT_INT; break; /* COUNT, COUNT_DISTINCT */
    }
}

static uint64_t key_at(const gj_htable *t, uint64_t i)
{
    if (t->key_width == 4) return ((const uint32_t *)t->key)[i];
    return ((const uint64_t *)t->key)[i];
}

/* Payload value widened: integers to int64, floats to double. */
static int64_t ival(const gj_htable *t, int c, uint64_t i)
{
    if (t->payload_width[c] == 4) return ((const int32_t *)t->payload[c])[i];
    return ((const int64_t *)t->payload[c])[i];
}
static double fval(const gj_htable *t, int c, uint64_t i)
{
    if (t->payload_width[c] == 4) return ((const float *)t->payload[c])[i];
    return ((const double *)t->payload[c])[i];
}

static const gj_htable *g_sort_tab; /* qsort has no context argument */
static int cmp_rows(const void *a, const void *b)
{
    uint64_t ka = key_at(g_sort_tab, *(const uint64_t *)a);
    uint64_t kb = key_at(g_sort_tab, *(const uint64_t *)b);
    return ka < kb ? -1 : ka > kb;
}
static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}
static int cmp_f64(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void gj_groupby_ref_free(gj_href *r)
{
    if (!r) return;
    free(r->key);
    for (int i = 0; i < GJ_MAX_AGGS; i++) free(r->agg[i]);
    memset(r, 0, sizeof *r);
}

int gj_groupby_ref(const gj_htable *in, int n_aggs, const gj_agg *aggs, gj_href *out,
                   gj_ctx *ctx)
{
    int rc = GJ_OK;
    uint64_t *idx = NULL;
    void *scratch = NULL;
    memset(out, 0, sizeof *out);
    if (!in || (in->key_width != 4 && in->key_width != 8) || n_aggs < 0 || n_aggs > GJ_MAX_AGGS) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "groupby_ref: bad table or n_aggs=%d", n_aggs);
        goto done;
    }
    for (int a = 0; a < n_aggs; a++)
        if (aggs[a] != GJ_AGG_COUNT && a >= in->n_payloads) {
            rc = gj_seterr(ctx, GJ_ERR_INVALID, "groupby_ref: aggregate %d has no payload", a);
            goto done;
        }
    uint64_t n = in->rows;
    idx = malloc((n ? n : 1) * sizeof *idx);
    scratch = malloc((n ? n : 1) * 8);
    out->key = malloc((n ? n : 1) * sizeof *out->key);
    if (!idx || !scratch || !out->key) { rc = gj_seterr(ctx, GJ_ERR_NOMEM, "groupby_ref: out of memory"); goto done; }
    out->n_aggs = n_aggs;
    for (int a = 0; a < n_aggs; a++) {
        int pw = a < in->n_payloads ? in->payload_width[a] : 4;
        gj_dtype pt = a < in->n_payloads ? in->payload_type[a] : GJ_DT_INT;
        gj_groupby_out_type(aggs[a], pw, pt, &out->width[a], &out->type[a]);
        out->agg[a] = malloc((n ? n : 1) * 8);
        if (!out->agg[a]) { rc = gj_seterr(ctx, GJ_ERR_NOMEM, "groupby_ref: out of memory"); goto done; }
    }
    for (uint64_t i = 0; i < n; i++) idx[i] = i;
    g_sort_tab = in;
    qsort(idx, n, sizeof *idx, cmp_rows);

    uint64_t g = 0;
    for (uint64_t s = 0; s < n;) {
        uint64_t e = s + 1, k = key_at(in, idx[s]);
        while (e < n && key_at(in, idx[e]) == k) e++;
        out->key[g] = k;
        uint64_t cnt = e - s;
        for (int a = 0; a < n_aggs; a++) {
            int isf = a < in->n_payloads && in->payload_type[a] == GJ_DT_FLOAT;
            int pw = a < in->n_payloads ? in->payload_width[a] : 4;
            uint8_t *dst = (uint8_t *)out->agg[a] + g * (uint64_t)out->width[a];
            int64_t is = 0, imin = 0, imax = 0;
            double fs = 0, fmin = 0, fmax = 0;
            if (aggs[a] != GJ_AGG_COUNT)
                for (uint64_t r = s; r < e; r++) {
                    if (isf) {
                        double v = fval(in, a, idx[r]);
                        fs += v;
                        if (r == s || v < fmin) fmin = v;
                        if (r == s || v > fmax) fmax = v;
                        ((double *)scratch)[r - s] = v;
                    } else {
                        int64_t v = ival(in, a, idx[r]);
                        is = (int64_t)((uint64_t)is + (uint64_t)v);
                        if (r == s || v < imin) imin = v;
                        if (r == s || v > imax) imax = v;
                        ((int64_t *)scratch)[r - s] = v;
                    }
                }
            switch (aggs[a]) {
            case GJ_AGG_COUNT: memcpy(dst, &cnt, 8); break;
            case GJ_AGG_SUM:
                if (isf) memcpy(dst, &fs, 8); else memcpy(dst, &is, 8);
                break;
            case GJ_AGG_AVG: {
                double v = isf ? fs / (double)cnt : (double)is / (double)cnt;
                memcpy(dst, &v, 8);
                break;
            }
            case GJ_AGG_MIN:
            case GJ_AGG_MAX:
                if (isf) {
                    double v = aggs[a] == GJ_AGG_MIN ? fmin : fmax;
                    if (pw == 4) { float f = (float)v; memcpy(dst, &f, 4); } else memcpy(dst, &v, 8);
                } else {
                    int64_t v = aggs[a] == GJ_AGG_MIN ? imin : imax;
                    if (pw == 4) { int32_t x = (int32_t)v; memcpy(dst, &x, 4); } else memcpy(dst, &v, 8);
                }
                break;
            case GJ_AGG_COUNT_DISTINCT:
            case GJ_AGG_MEDIAN: {
                qsort(scratch, cnt, 8, isf ? cmp_f64 : cmp_i64);
                if (aggs[a] == GJ_AGG_COUNT_DISTINCT) {
                    uint64_t d = 1;
                    for (uint64_t r = 1; r < cnt; r++)
                        d += isf ? ((double *)scratch)[r] != ((double *)scratch)[r - 1]
                                 : ((int64_t *)scratch)[r] != ((int64_t *)scratch)[r - 1];
                    memcpy(dst, &d, 8);
                } else {
                    double lo, hi;
                    if (isf) { lo = ((double *)scratch)[(cnt - 1) / 2]; hi = ((double *)scratch)[cnt / 2]; }
                    else { lo = (double)((int64_t *)scratch)[(cnt - 1) / 2]; hi = (double)((int64_t *)scratch)[cnt / 2]; }
                    double m = cnt % 2 ? lo : (lo + hi) / 2;
                    memcpy(dst, &m, 8);
                }
                break;
            }
            default: break;
            }
        }
        g++;
        s = e;
    }
    out->groups = g;
done:
    free(idx);
    free(scratch);
    if (rc != GJ_OK) gj_groupby_ref_free(out);
    return rc;
}
