/* Radix partition of PHJ's transform alone (operators/join_partition.h):
 * W1's R side (2^27 rows, 4-byte keys, 2 x 4-byte payloads, generated on the
 * GPU), 16 bits, (key, packed payloads) and (key, row id), the custom
 * partition against CUB's radix sort (with its packing / row-id pass), CUDA
 * events around each call (its allocations from the stream-ordered pool
 * included, as in gj_join_exec), median of `repeat` after one warm-up.
 * usage: join_part_bench [repeat]    (bench/join_part_device.sh runs it) */
#include "gjadvise.h"
#include "operators/join_partition.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int repeat = argc > 1 ? atoi(argv[1]) : 7;
    gj_ctx *ctx = NULL;
    gj_workload w;
    gj_dtable r, s;
    void *ko = NULL, *vo = NULL;
    cudaEvent_t e0, e1;
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
    printf("# n=%llu bits=16, median of %d\n", (unsigned long long)n, repeat);
    printf("%-6s %-6s %9s %12s\n", "values", "impl", "ms", "GB/s(56|36B)");
    for (int mode = 0; mode < 2; mode++)
        for (int cub = 0; cub < 2; cub++) {
            const int m = mode == 0 ? GJ_PART_PACK : GJ_PART_IOTA;
            double v[64];
            for (int k = -1; k < repeat; k++) {
                float ms = 0;
                cudaEventRecord(e0, 0);
                if (gj_join_partition(4, r.key.data, ko, m, r.payload[0].data, r.payload[1].data, vo,
                                      n, 16, cub, NULL, ctx) != GJ_OK) {
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
            const double bytes = (mode == 0 ? 56.0 : 36.0) * n;
            printf("%-6s %-6s %9.3f %12.0f\n", mode == 0 ? "pack" : "rowid", cub ? "cub" : "custom",
                   v[repeat / 2], bytes / (v[repeat / 2] * 1e-3) / 1e9);
        }
    gj_dtable_free(&r);
    gj_dtable_free(&s);
    cudaFree(ko);
    cudaFree(vo);
    gj_ctx_free(ctx);
    return 0;
}
