/* Group-by input generation on the GPU (paper 000 Sec. 5.2.1): R(k, r1..rp)
 * with keys uniform over 0..g-1 (or Zipf over g ranks; the rows ordered by
 * key with sorted_keys) and one random payload column per aggregate. The
 * library form of what `gjadvise run groupby` generates, so validate, bench
 * and run time the same inputs. */
#include "common/internal.h"
#include "operators/gen.h"

#include <cuda_runtime_api.h>
#include <string.h>

int gj_groupby_generate(const gj_workload *w, uint64_t seed, int float_payloads, gj_dtable *out,
                        gj_ctx *ctx)
{
    int rc = GJ_OK;
    gj_dtable t;
    memset(&t, 0, sizeof t);
    if (!out) return gj_seterr(ctx, GJ_ERR_INVALID, "gj_groupby_generate: out is NULL");
    memset(out, 0, sizeof *out);
    if (!w) return gj_seterr(ctx, GJ_ERR_INVALID, "gj_groupby_generate: workload is NULL");
    if (w->op != GJ_OP_GROUPBY)
        return gj_seterr(ctx, GJ_ERR_INVALID, "gj_groupby_generate: op=join: allowed a group-by workload");
    if ((rc = gj_workload_check(w, ctx)) != GJ_OK) return rc;
    if (w->rows >= (1ULL << 31))
        return gj_seterr(ctx, GJ_ERR_INVALID, "gj_groupby_generate: rows=%llu: allowed 1..2^31-1",
                         (unsigned long long)w->rows);
    uint64_t n = w->rows;
    t.rows = n;
    t.key.width = w->key_bytes;
    if (cudaMalloc(&t.key.data, n * (uint64_t)w->key_bytes) != cudaSuccess) {
        (void)cudaGetLastError();
        rc = gj_seterr(ctx, GJ_ERR_INFEASIBLE, "gj_groupby_generate: cudaMalloc of %llu key bytes failed",
                       (unsigned long long)(n * (uint64_t)w->key_bytes));
        goto done;
    }
    rc = w->zipf > 0 ? gj_gen_zipf_keys(t.key.data, w->key_bytes, n, w->groups, w->zipf, seed, NULL, ctx)
                     : gj_gen_uniform_keys(t.key.data, w->key_bytes, n, w->groups, seed, NULL, ctx);
    if (rc == GJ_OK && w->sorted_keys) rc = gj_gen_sort_keys(t.key.data, w->key_bytes, n, NULL, ctx);
    if (rc) goto done;
    t.n_payloads = w->n_aggs;
    for (int i = 0; i < w->n_aggs; i++) {
        gj_column *c = &t.payload[i];
        c->width = w->payload_bytes;
        c->type = float_payloads ? GJ_DT_FLOAT : GJ_DT_INT;
        if (cudaMalloc(&c->data, n * (uint64_t)c->width) != cudaSuccess) {
            (void)cudaGetLastError();
            rc = gj_seterr(ctx, GJ_ERR_INFEASIBLE, "gj_groupby_generate: cudaMalloc of payload %d failed", i);
            goto done;
        }
        if ((rc = gj_gen_values(c->data, c->width, c->type, n, seed + 1 + (uint64_t)i, NULL, ctx))) goto done;
    }
    if (cudaDeviceSynchronize() != cudaSuccess) {
        rc = gj_seterr(ctx, GJ_ERR_CUDA, "gj_groupby_generate: %s", cudaGetErrorString(cudaGetLastError()));
        goto done;
    }
    *out = t;
done:
    if (rc) gj_dtable_free(&t);
    return rc;
}
