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

static int alloc_host(gj_dtable *o, uint64_t rows, int kw, const gj_dtable *r, const gj_dtable *s)
{
    memset(o, 0, sizeof *o);
    o->rows = rows;
    o->key.width = kw;
    o->key.data = malloc(rows * kw + 1);
    if (!o->key.data) return -1;
    for (int c = 0; c < r->n_payloads + s->n_payloads; c++) {
        o->payload[c] = c < r->n_payloads ? r->payload[c] : s->payload[c - r->n_payloads];
        o->payload[c].data = malloc(rows * o->payload[c].width + 1);
        o->n_payloads = c + 1;
        if (!o->payload[c].data) return -1;
    }
    return 0;
}

int gj_join_reference(const gj_dtable *r, const gj_dtable *s, gj_dtable *out, gj_ctx *ctx)
{
    int rc = GJ_OK;
    uint64_t *rm = NULL, *sm = NULL, *om = NULL;
    if (!r || !s || !out) return gj_seterr(ctx, GJ_ERR_INVALID, "table is NULL");
    memset(out, 0, sizeof *out);
    if (r->key.width != s->key.width || r->n_payloads + s->n_payloads > GJ_MAX_PAYLOADS * 2 ||
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
        put(&out->key, i, om[i * ow]);
        for (int c = 0; c < out->n_payloads; c++) put(&out->payload[c], i, om[i * ow + 1 + c]);
    }
    goto done;
nomem:
    rc = gj_seterr(ctx, GJ_ERR_NOMEM, "reference join: out of host memory");
done:
    free(rm);
    free(sm);
    free(om);
    if (rc != GJ_OK) gj_htable_free(out);
    return rc;
}

int gj_join_compare(const gj_dtable *a, const gj_dtable *b, int *equal, gj_ctx *ctx)
{
    int rc = GJ_OK;
    uint64_t *am = NULL, *bm = NULL;
    if (!a || !b || !equal) return gj_seterr(ctx, GJ_ERR_INVALID, "argument is NULL");
    *equal = 0;
    if (a->n_payloads != b->n_payloads || a->key.width != b->key.width)
        return gj_seterr(ctx, GJ_ERR_INVALID, "shapes differ: %d vs %d payloads, key %d vs %d bytes",
                         a->n_payloads, b->n_payloads, a->key.width, b->key.width);
    for (int c = 0; c < a->n_payloads; c++)
        if (a->payload[c].width != b->payload[c].width)
            return gj_seterr(ctx, GJ_ERR_INVALID, "payload %d widths differ", c);
    if (a->rows != b->rows) {
        gj_seterr(ctx, GJ_OK, "row counts differ: %llu vs %llu", (unsigned long long)a->rows,
                  (unsigned long long)b->rows);
        return GJ_OK;
    }
    const size_t w = 1 + (size_t)a->n_payloads;
    am = widen(a);
    bm = widen(b);
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
