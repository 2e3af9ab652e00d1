/* Device tables of the joins: workload generation on the GPU (paper 000
 * Sec. 5.1.1 and 5.1.6), download to the host, and freeing. */
extern "C" {
#include "common/internal.h" /* C linkage: internal.h has no extern "C" guard */
}
#include "operators/common.cuh"
#include "operators/gen.h"
#include "operators/colfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern "C" void gj_dtable_free(gj_dtable *t)
{
    if (!t) return;
    cudaFree(t->key.data);
    for (int c = 0; c < t->n_payloads && c < GJ_MAX_PAYLOADS; c++) cudaFree(t->payload[c].data);
    cudaGetLastError();
    memset(t, 0, sizeof *t);
}

extern "C" void gj_htable_free(gj_dtable *h)
{
    if (!h) return;
    free(h->key.data);
    for (int c = 0; c < h->n_payloads && c < GJ_MAX_PAYLOADS; c++) free(h->payload[c].data);
    memset(h, 0, sizeof *h);
}

extern "C" int gj_dtable_download(const gj_dtable *d, gj_dtable *h, gj_ctx *ctx)
{
    int rc = GJ_OK;
    if (!d || !h) return gj_seterr(ctx, GJ_ERR_INVALID, "table is NULL");
    memset(h, 0, sizeof *h);
    h->rows = d->rows;
    h->key = d->key;
    h->n_payloads = d->n_payloads;
    h->key.data = malloc(d->rows * d->key.width + 1);
    if (!h->key.data) goto nomem;
    for (int c = 0; c < d->n_payloads; c++) {
        h->payload[c] = d->payload[c];
        h->payload[c].data = malloc(d->rows * d->payload[c].width + 1);
        if (!h->payload[c].data) goto nomem;
    }
    if (d->rows) {
        GJ_CUDA(cudaMemcpy(h->key.data, d->key.data, d->rows * d->key.width, cudaMemcpyDeviceToHost));
        for (int c = 0; c < d->n_payloads; c++)
            GJ_CUDA(cudaMemcpy(h->payload[c].data, d->payload[c].data,
                               d->rows * d->payload[c].width, cudaMemcpyDeviceToHost));
    }
    goto done;
nomem:
    rc = gj_seterr(ctx, GJ_ERR_NOMEM, "host copy of %llu rows", (unsigned long long)d->rows);
done:
    if (rc != GJ_OK) gj_htable_free(h);
    return rc;
}

/* allocate the columns of one side: key width kb, p payloads of width pb */
static int alloc_side(gj_dtable *t, uint64_t rows, int kb, int p, int pb, gj_ctx *ctx)
{
    int rc = GJ_OK;
    memset(t, 0, sizeof *t);
    t->rows = rows;
    t->key.width = kb;
    GJ_CUDA(cudaMalloc(&t->key.data, rows * kb + 1));
    for (int c = 0; c < p; c++) {
        t->payload[c].width = pb;
        GJ_CUDA(cudaMalloc(&t->payload[c].data, rows * pb + 1));
        t->n_payloads = c + 1;
    }
done:
    return rc;
}

extern "C" int gj_join_generate(const gj_workload *w, uint64_t seed, uint64_t key_offset,
                                gj_dtable *r, gj_dtable *s, gj_ctx *ctx)
{
    int rc = GJ_OK;
    if (!w || !r || !s) return gj_seterr(ctx, GJ_ERR_INVALID, "workload or table is NULL");
    memset(r, 0, sizeof *r);
    memset(s, 0, sizeof *s);
    if ((rc = gj_workload_check(w, ctx)) != GJ_OK) return rc;
    if (w->op != GJ_OP_JOIN) return gj_seterr(ctx, GJ_ERR_INVALID, "op: allowed join");
    if (w->r_rows >= (1ULL << 32) || w->s_rows >= (1ULL << 32))
        return gj_seterr(ctx, GJ_ERR_INVALID, "rows: allowed at most 2^32-1 per side");
    if (w->key_bytes == 4 && (2 * w->r_rows > (1ULL << 32) || key_offset >= (1ULL << 32)))
        return gj_seterr(ctx, GJ_ERR_INVALID, "r-rows=%llu: 4-byte keys allow at most 2^31 here",
                         (unsigned long long)w->r_rows);
    const int kb = w->key_bytes, pb = w->payload_bytes;
    const uint64_t nr = w->r_rows, ns = w->s_rows;
    if ((rc = alloc_side(r, nr, kb, w->r_payloads, pb, ctx)) != GJ_OK) goto done;
    if ((rc = alloc_side(s, ns, kb, w->s_payloads, pb, ctx)) != GJ_OK) goto done;
    if (w->out_rows) { /* many-to-many: both sides over a common domain */
        double d = floor((double)nr * (double)ns / (double)w->out_rows);
        uint64_t dom = d < 1 ? 1 : (uint64_t)d;
        if (kb == 4 && dom > (1ULL << 31)) dom = 1ULL << 31;
        if ((rc = gj_gen_uniform_keys(r->key.data, kb, nr, dom, seed, 0, ctx)) != GJ_OK) goto done;
        if ((rc = gj_gen_zipf_keys(s->key.data, kb, ns, dom, w->zipf, seed + 1, 0, ctx)) != GJ_OK)
            goto done;
    } else {
        uint64_t keep = (uint64_t)llround(w->match_ratio * (double)nr);
        if ((rc = gj_gen_shuffled_keys(r->key.data, kb, nr, seed, 0, ctx)) != GJ_OK) goto done;
        if ((rc = gj_gen_mismatch_keys(r->key.data, kb, nr, keep, 0, ctx)) != GJ_OK) goto done;
        if ((rc = gj_gen_zipf_keys(s->key.data, kb, ns, nr, w->zipf, seed + 1, 0, ctx)) != GJ_OK)
            goto done;
    }
    if (w->s_run > 1) { /* S clustered: runs of round(s_run) equal keys */
        const uint64_t run = (uint64_t)llround(w->s_run);
        if ((rc = gj_gen_runs(s->key.data, kb, ns, run, 0, ctx)) != GJ_OK) goto done;
    }
    if (key_offset) {
        if ((rc = gj_gen_offset_keys(r->key.data, kb, nr, key_offset, 0, 0, ctx)) != GJ_OK) goto done;
        if ((rc = gj_gen_offset_keys(s->key.data, kb, ns, key_offset, 0, 0, ctx)) != GJ_OK) goto done;
    }
    /* a side stored by its key (w->r_sorted, w->s_sorted) */
    if (w->r_sorted && (rc = gj_gen_sort_keys(r->key.data, kb, nr, 0, ctx)) != GJ_OK) goto done;
    if (w->s_sorted && (rc = gj_gen_sort_keys(s->key.data, kb, ns, 0, ctx)) != GJ_OK) goto done;
    for (int c = 0; c < w->r_payloads; c++)
        if ((rc = gj_gen_values(r->payload[c].data, pb, GJ_DT_INT, nr, seed + 100 + c, 0, ctx)) != GJ_OK)
            goto done;
    for (int c = 0; c < w->s_payloads; c++)
        if ((rc = gj_gen_values(s->payload[c].data, pb, GJ_DT_INT, ns, seed + 200 + c, 0, ctx)) != GJ_OK)
            goto done;
    GJ_CUDA(cudaDeviceSynchronize());
done:
    if (rc != GJ_OK) {
        gj_dtable_free(r);
        gj_dtable_free(s);
    }
    return rc;
}

extern "C" void gj_join_out_free(gj_join_out *o)
{
    if (!o) return;
    cudaFree(o->key.data);
    for (int c = 0; c < o->r_payloads && c < GJ_MAX_PAYLOADS; c++) cudaFree(o->r[c].data);
    for (int c = 0; c < o->s_payloads && c < GJ_MAX_PAYLOADS; c++) cudaFree(o->s[c].data);
    cudaGetLastError();
    memset(o, 0, sizeof *o);
}

extern "C" void gj_join_out_free_host(gj_join_out *h)
{
    if (!h) return;
    free(h->key.data);
    for (int c = 0; c < h->r_payloads && c < GJ_MAX_PAYLOADS; c++) free(h->r[c].data);
    for (int c = 0; c < h->s_payloads && c < GJ_MAX_PAYLOADS; c++) free(h->s[c].data);
    memset(h, 0, sizeof *h);
}

/* one column device -> fresh host buffer */
static int pull(const gj_column *d, gj_column *h, uint64_t rows, gj_ctx *ctx)
{
    int rc = GJ_OK;
    *h = *d;
    h->data = malloc(rows * d->width + 1);
    if (!h->data) {
        rc = gj_seterr(ctx, GJ_ERR_NOMEM, "host copy of %llu rows", (unsigned long long)rows);
        goto done;
    }
    if (rows) GJ_CUDA(cudaMemcpy(h->data, d->data, rows * d->width, cudaMemcpyDeviceToHost));
done:
    return rc;
}

extern "C" int gj_join_out_download(const gj_join_out *d, gj_join_out *h, gj_ctx *ctx)
{
    int rc = GJ_OK;
    if (!d || !h) return gj_seterr(ctx, GJ_ERR_INVALID, "join output is NULL");
    memset(h, 0, sizeof *h);
    h->rows = d->rows;
    if ((rc = pull(&d->key, &h->key, d->rows, ctx)) != GJ_OK) goto done;
    for (int c = 0; c < d->r_payloads; c++) {
        h->r_payloads = c + 1;
        if ((rc = pull(&d->r[c], &h->r[c], d->rows, ctx)) != GJ_OK) goto done;
    }
    for (int c = 0; c < d->s_payloads; c++) {
        h->s_payloads = c + 1;
        if ((rc = pull(&d->s[c], &h->s[c], d->rows, ctx)) != GJ_OK) goto done;
    }
done:
    if (rc != GJ_OK) gj_join_out_free_host(h);
    return rc;
}

extern "C" int gj_dtable_upload(const gj_dtable *h, gj_dtable *d, gj_ctx *ctx)
{
    int rc = GJ_OK;
    if (!h || !d) return gj_seterr(ctx, GJ_ERR_INVALID, "table is NULL");
    memset(d, 0, sizeof *d);
    if ((rc = alloc_side(d, h->rows, h->key.width, 0, 4, ctx)) != GJ_OK) goto done;
    if (h->rows) GJ_CUDA(cudaMemcpy(d->key.data, h->key.data, h->rows * h->key.width, cudaMemcpyHostToDevice));
    for (int c = 0; c < h->n_payloads; c++) {
        d->payload[c] = h->payload[c];
        d->payload[c].data = NULL;
        d->n_payloads = c + 1;
        GJ_CUDA(cudaMalloc(&d->payload[c].data, h->rows * h->payload[c].width + 1));
        if (h->rows)
            GJ_CUDA(cudaMemcpy(d->payload[c].data, h->payload[c].data,
                               h->rows * h->payload[c].width, cudaMemcpyHostToDevice));
    }
done:
    if (rc != GJ_OK) gj_dtable_free(d);
    return rc;
}
