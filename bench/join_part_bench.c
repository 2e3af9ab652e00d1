/* Radix partition of PHJ's transform alone (operators/join_partition.h):
 * W1's R side (2^27 rows, 4-byte keys, 2 x 4-byte payloads, generated on the
 * GPU), 16 bits, (key, packed payloads) and (key, row id), the custom
 * partition against CUB's radix sort (with its packing / row-id pass), CUDA
 * events around each call (its allocations from the stream-ordered pool
 * included, as in gj_join_exec), median of `repeat` after one warm-up.
 * Then a check: the custom output equals CUB's, row for row (both are the
 * stable sort on those bits), on the whole input and on keys + 1 (16-byte
 * misaligned keys: the histogram's scalar path), n - 1 rows.
 * usage: join_part_bench [repeat [pack|rowid|split|all [custom|cub|both [check]]]]
 *   split: pack with the last pass's values split into two 4-byte columns
 *   (GJ_PART_SPLIT, PHJ's S side; custom only)
 *   PART_BITS=b: b bits instead of 16 (one pass at 8 or fewer)
 *   (bench/part_scatter_device.sh runs it; the library reads the opt-in
 *   GJ_JOIN_PART_SHAPE=768x10) */
#include "gjadvise.h"
#include "operators/join_partition.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int part_bits(void)
{
    const char *e = getenv("PART_BITS");
    return e && atoi(e) >= 1 && atoi(e) <= 16 ? atoi(e) : 16;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* custom vs CUB on rows [off, n) of r; 0 when equal */
static int check(const gj_dtable *r, uint64_t off, int m, void *ko, void *vo, gj_ctx *ctx)
{
    const uint64_t n = r->rows - off;
    const size_t vw = m == GJ_PART_IOTA ? 4 : 8;
    unsigned char *hk[2] = {malloc(n * 4), malloc(n * 4)}, *hv[2] = {malloc(n * vw), malloc(n * vw)};
    int bad = 1;
    if (!hk[0] || !hk[1] || !hv[0] || !hv[1]) goto done;
    for (int cub = 0; cub < 2; cub++) {
        if (gj_join_partition(4, (const uint32_t *)r->key.data + off, ko, m,
                              (const uint32_t *)r->payload[0].data + off,
                              (const uint32_t *)r->payload[1].data + off, vo, n, part_bits(), cub, NULL,
                              ctx) != GJ_OK) {
            fprintf(stderr, "partition: %s\n", gj_ctx_errmsg(ctx));
            goto done;
        }
        if (cudaMemcpy(hk[cub], ko, n * 4, cudaMemcpyDeviceToHost) ||
            cudaMemcpy(hv[cub], vo, n * vw, cudaMemcpyDeviceToHost))
            goto done;
    }
    bad = memcmp(hk[0], hk[1], n * 4) != 0 || memcmp(hv[0], hv[1], n * vw) != 0;
done:
    for (int i = 0; i < 2; i++) {
        free(hk[i]);
        free(hv[i]);
    }
    return bad;
}

int main(int argc, char **argv)
{
    int repeat = argc > 1 ? atoi(argv[1]) : 7;
    const char *modes = argc > 2 ? argv[2] : "all", *impls = argc > 3 ? argv[3] : "both";
    const int do_check = argc > 4 ? atoi(argv[4]) : 0;
    gj_ctx *ctx = NULL;
    gj_workload w;
    gj_dtable r, s;
    void *ko = NULL, *vo = NULL;
    cudaEvent_t e0, e1;
    int rc = 0;
    if (repeat < 1 || repeat > 64) repeat = 7;
    gj_ctx_new(&ctx);
    gj_workload_default(&w, GJ_OP_JOIN);
    if (gj_join_generate(&w, 1234, 0, &r, &s, ctx) != GJ_OK) {
        fprintf(stderr, "generate: %s\n", gj_ctx_errmsg(ctx));
        return 3;
    }
    const uint64_t n = r.rows;
    if (cudaMalloc(&ko, n * 4) || cudaMalloc(&vo, n * 8)) return 3;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    { /* keep freed blocks in the pool between calls, as gj_join_exec does */
        cudaMemPool_t pool;
        uint64_t thr = UINT64_MAX;
        cudaDeviceGetDefaultMemPool(&pool, 0);
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr);
    }
    printf("# n=%llu bits=%d, median of %d, shape=%s\n", (unsigned long long)n, part_bits(), repeat,
           getenv("GJ_JOIN_PART_SHAPE") ? getenv("GJ_JOIN_PART_SHAPE") : "default");
    printf("%-6s %-6s %9s %9s %12s\n", "values", "impl", "ms", "min", "GB/s(56|36B)");
    static const char *const names[3] = {"pack", "rowid", "split"};
    static const int mvals[3] = {GJ_PART_PACK, GJ_PART_IOTA, GJ_PART_PACK | GJ_PART_SPLIT};
    for (int mode = 0; mode < 3; mode++) {
        if (strcmp(modes, "all") && strcmp(modes, names[mode])) continue;
        const int m = mvals[mode];
        for (int cub = 0; cub < 2; cub++) {
            if ((cub && (!strcmp(impls, "custom") || mode == 2)) || (!cub && !strcmp(impls, "cub"))) continue;
            double v[64];
            for (int k = -1; k < repeat; k++) {
                float ms = 0;
                cudaEventRecord(e0, 0);
                if (gj_join_partition(4, r.key.data, ko, m, r.payload[0].data, r.payload[1].data, vo,
                                      n, part_bits(), cub, NULL, ctx) != GJ_OK) {
                    fprintf(stderr, "partition: %s\n", gj_ctx_errmsg(ctx));
                    return 4;
                }
                cudaEventRecord(e1, 0);
                cudaEventSynchronize(e1);
                cudaEventElapsedTime(&ms, e0, e1);
                if (k >= 0) v[k] = ms;
            }
            qsort(v, repeat, sizeof *v, cmp_d);
            /* bytes of the custom partition: 2 passes x (hist 4 + scatter r/w) */
            const double bytes = (mode == 1 ? 36.0 : 56.0) * n;
            printf("%-6s %-6s %9.3f %9.3f %12.0f\n", names[mode], cub ? "cub" : "custom",
                   v[repeat / 2], v[0], bytes / (v[repeat / 2] * 1e-3) / 1e9);
        }
        if (do_check && mode < 2) {
            const int b0 = check(&r, 0, m, ko, vo, ctx), b1 = check(&r, 1, m, ko, vo, ctx);
            printf("check %s: custom == CUB on %llu rows: %s; on keys + 1: %s\n", names[mode],
                   (unsigned long long)n, b0 ? "DIFFERS" : "equal", b1 ? "DIFFERS" : "equal");
            if (b0 || b1) rc = 5;
        }
    }
    gj_dtable_free(&r);
    gj_dtable_free(&s);
    cudaFree(ko);
    cudaFree(vo);
    gj_ctx_free(ctx);
    return rc;
}
