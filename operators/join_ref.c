/* CPU reference join (the test oracle) and multiset comparison of join
 * outputs. Deliberately plain: rows are widened to arrays of uint64_t, both
 * sides sorted by key with qsort, equal-key runs merged, every pair of a run
 * emitted. Output rows end up in canonical order: by key, then payload bits. */
#include "common/internal.h"

#include <stdlib.h>
#include <string.h>

static uint64_t get(const gj_column *c, uint64_t i)
{
    if (c->width == 4) return ((const uint32_t *)c->data)[i];
    return ((const uint64_t *)c->data)[i];
}
static void put(gj_column *c, uint64_t i, uint64_t v)
{
    if (c->width == 4) ((uint32_t *)c->data)[i] = (uint32_t)v;
    else ((uint64_t *)c->data)[i] = v;
}

/* qsort comparator over rows of `g_width` uint64_t (qsort has no context
 * argument in C11; the reference is single-threaded by design) */
static _Thread_local size_t g_width;
static int cmp_rows(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    for (size_t i = 0; i < g_width; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* widen table t into rows of 1 + n_payloads uint64_t; NULL if out of memory */
static uint64_t *widen(const gj_dtable *t)
{
    size_t w = 1 + (size_t)t->n_payloads;
    uint64_t *m = malloc((t->rows ? t->rows : 1) * w * sizeof *m);
    if (!m) return NULL;
    for (uint64_t i = 0; i < t->rows; i++) {
        m[i * w] = get(&t->key, i);
        for (int c = 0; c < t->n_payloads; c++) m[i * w + 1 + c] = get(&t->payload[c], i);
    }
    return m;
}

static int alloc_host(gj_join_out *o, uint64_t rows, int kw, const gj_dtable *r, const gj_dtable *s)
{
    memset(o, 0, sizeof *o);
    o->rows = rows;
    o->key.width = kw;
    o->key.data = malloc(rows * kw + 1);
    if (!o->key.data) return -1;
    for (int c = 0; c < r->n_payloads; c++) {
        o->r[c] = r->payload[c];
        o->r[c].data = malloc(rows * o->r[c].width + 1);
        o->r_payloads = c + 1;
        if (!o->r[c].data) return -1;
    }
    for (int c = 0; c < s->n_payloads; c++) {
        o->s[c] = s->payload[c];
        o->s[c].data = malloc(rows * o->s[c].width + 1);
        o->s_payloads = c + 1;
        if (!o->s[c].data) return -1;
    }
    return 0;
}

/* column c of a join output: 0 key, then R payloads, then S payloads */
static gj_column *out_col(gj_join_out *o, int c)
{
    if (c == 0) return &o->key;
    return c <= o->r_payloads ? &o->r[c - 1] : &o->s[c - 1 - o->r_payloads];
}

/* widen a join output into rows of 1 + r + s uint64_t */
static uint64_t *widen_out(const gj_join_out *o)
{
    size_t w = 1 + (size_t)o->r_payloads + (size_t)o->s_payloads;
    uint64_t *m = malloc((o->rows ? o->rows : 1) * w * sizeof *m);
    if (!m) return NULL;
    for (size_t c = 0; c < w; c++) {
        const gj_column *col = out_col((gj_join_out *)o, (int)c);
        for (uint64_t i = 0; i < o->rows; i++) m[i * w + c] = get(col, i);
    }
    return m;
}

int gj_join_reference(const gj_dtable *r, const gj_dtable *s, gj_join_out *out, gj_ctx *ctx)
{
    int rc = GJ_OK;
    uint64_t *rm = NULL, *sm = NULL, *om = NULL;
    if (!r || !s || !out) return gj_seterr(ctx, GJ_ERR_INVALID, "table is NULL");
    memset(out, 0, sizeof *out);
    if (r->key.width != s->key.width || r->n_payloads < 0 || s->n_payloads < 0 ||
        r->n_payloads > GJ_MAX_PAYLOADS || s->n_payloads > GJ_MAX_PAYLOADS)
        return gj_seterr(ctx, GJ_ERR_INVALID, "key widths or payload counts invalid");
    const size_t rw = 1 + (size_t)r->n_payloads, sw = 1 + (size_t)s->n_payloads;
    const size_t ow = rw + sw - 1;
    rm = widen(r);
    sm = widen(s);
    if (!rm || !sm) goto nomem;
    g_width = rw;
    qsort(rm, r->rows, rw * sizeof *rm, cmp_rows);
    g_width = sw;
    qsort(sm, s->rows, sw * sizeof *sm, cmp_rows);
    /* count, then fill */
    uint64_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        uint64_t i = 0, j = 0, o = 0;
        while (i < r->rows && j < s->rows) {
            uint64_t ki = rm[i * rw], kj = sm[j * sw];
            if (ki < kj) { i++; continue; }
            if (kj < ki) { j++; continue; }
            uint64_t ie = i, je = j;
            while (ie < r->rows && rm[ie * rw] == ki) ie++;
            while (je < s->rows && sm[je * sw] == kj) je++;
            if (pass == 1)
                for (uint64_t a = i; a < ie; a++)
                    for (uint64_t b = j; b < je; b++, o++) {
                        om[o * ow] = ki;
                        memcpy(om + o * ow + 1, rm + a * rw + 1, (rw - 1) * sizeof *om);
                        memcpy(om + o * ow + rw, sm + b * sw + 1, (sw - 1) * sizeof *om);
                    }
            else
                o += (ie - i) * (je - j);
            i = ie;
            j = je;
        }
        if (pass == 0) {
            n = o;
            om = malloc((n ? n : 1) * ow * sizeof *om);
            if (!om) goto nomem;
        }
    }
    g_width = ow;
    qsort(om, n, ow * sizeof *om, cmp_rows);
    if (alloc_host(out, n, r->key.width, r, s)) goto nomem;
    for (uint64_t i = 0; i < n; i++) {
        for (size_t c = 0; c < ow; c++) put(out_col(out, (int)c), i, om[i * ow + c]);
    }
    goto done;
nomem:
    rc = gj_seterr(ctx, GJ_ERR_NOMEM, "reference join: out of host memory");
done:
    free(rm);
    free(sm);
    free(om);
    if (rc != GJ_OK) gj_join_out_free_host(out);
    return rc;
}

int gj_join_compare(const gj_join_out *a, const gj_join_out *b, int *equal, gj_ctx *ctx)
{
    int rc = GJ_OK;
    uint64_t *am = NULL, *bm = NULL;
    if (!a || !b || !equal) return gj_seterr(ctx, GJ_ERR_INVALID, "argument is NULL");
    *equal = 0;
    if (a->r_payloads != b->r_payloads || a->s_payloads != b->s_payloads ||
        a->key.width != b->key.width)
        return gj_seterr(ctx, GJ_ERR_INVALID, "shapes differ: %d+%d vs %d+%d payloads, key %d vs %d bytes",
                         a->r_payloads, a->s_payloads, b->r_payloads, b->s_payloads,
                         a->key.width, b->key.width);
    for (int c = 0; c < a->r_payloads + a->s_payloads; c++)
        if (out_col((gj_join_out *)a, c + 1)->width != out_col((gj_join_out *)b, c + 1)->width)
            return gj_seterr(ctx, GJ_ERR_INVALID, "payload %d widths differ", c);
    if (a->rows != b->rows) {
        gj_seterr(ctx, GJ_OK, "row counts differ: %llu vs %llu", (unsigned long long)a->rows,
                  (unsigned long long)b->rows);
        return GJ_OK;
    }
    const size_t w = 1 + (size_t)a->r_payloads + (size_t)a->s_payloads;
    am = widen_out(a);
    bm = widen_out(b);
    if (!am || !bm) {
        rc = gj_seterr(ctx, GJ_ERR_NOMEM, "compare: out of host memory");
        goto done;
    }
    g_width = w;
    qsort(am, a->rows, w * sizeof *am, cmp_rows);
    qsort(bm, b->rows, w * sizeof *bm, cmp_rows);
    *equal = 1;
    for (uint64_t i = 0; i < a->rows; i++)
        if (memcmp(am + i * w, bm + i * w, w * sizeof *am)) {
            *equal = 0;
            gj_seterr(ctx, GJ_OK, "first difference at sorted row %llu: key %llu vs %llu",
                      (unsigned long long)i, (unsigned long long)am[i * w],
                      (unsigned long long)bm[i * w]);
            break;
        }
done:
    free(am);
    free(bm);
    return rc;
}
