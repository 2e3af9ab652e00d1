/* CUB primitives used by the group-by operators, in their own translation
 * unit so the (slow to compile) radix-sort instantiations build in parallel
 * with groupby_api.cu. Closed set: keys and values are raw 4- or 8-byte
 * patterns (uint32/uint64), so 4 SortPairs instantiations serve every key
 * width, payload width and payload type. */
extern "C" {
#include "common/internal.h" /* C linkage: internal.h has no extern "C" guard */
}
#include "operators/common.cuh"
#include "operators/groupby_sort.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

template <typename K, typename V>
static int sort_pairs(const void *kin, void *kout, const void *vin, void *vout, uint64_t n,
                      int begin_bit, int end_bit, gj_arena *ar, cudaStream_t st, gj_ctx *ctx)
{
    int rc = GJ_OK;
    void *tmp = NULL;
    size_t bytes = 0;
    GJ_CUDA(cub::DeviceRadixSort::SortPairs(NULL, bytes, (const K *)kin, (K *)kout, (const V *)vin,
                                            (V *)vout, (int)n, begin_bit, end_bit, st));
    GJ_CUDA(gj_arena_alloc(ar, &tmp, bytes));
    GJ_CUDA(cub::DeviceRadixSort::SortPairs(tmp, bytes, (const K *)kin, (K *)kout, (const V *)vin,
                                            (V *)vout, (int)n, begin_bit, end_bit, st));
done:
    gj_arena_free(ar, tmp);
    return rc;
}

int gjgb_sort_pairs(const void *kin, void *kout, int kw, const void *vin, void *vout, int vw,
                    uint64_t n, int begin_bit, int end_bit, gj_arena *ar, cudaStream_t st,
                    gj_ctx *ctx)
{
    if (n > 0x7fffffffull) return gj_seterr(ctx, GJ_ERR_UNSUPPORTED, "group-by sort: %llu rows > 2^31-1", (unsigned long long)n);
    if (kw == 4 && vw == 4) return sort_pairs<uint32_t, uint32_t>(kin, kout, vin, vout, n, begin_bit, end_bit, ar, st, ctx);
    if (kw == 4 && vw == 8) return sort_pairs<uint32_t, uint64_t>(kin, kout, vin, vout, n, begin_bit, end_bit, ar, st, ctx);
    if (kw == 8 && vw == 4) return sort_pairs<uint64_t, uint32_t>(kin, kout, vin, vout, n, begin_bit, end_bit, ar, st, ctx);
    return sort_pairs<uint64_t, uint64_t>(kin, kout, vin, vout, n, begin_bit, end_bit, ar, st, ctx);
}

/* CUB's inclusive sum of n values read through `in` (a pointer or an
 * iterator), its scratch from the arena */
template <typename In>
static int inclusive_sum(In in, uint32_t *out, uint64_t n, gj_arena *ar, cudaStream_t st, gj_ctx *ctx)
{
    int rc = GJ_OK;
    void *tmp = NULL;
    size_t bytes = 0;
    GJ_CUDA(cub::DeviceScan::InclusiveSum(NULL, bytes, in, out, (int)n, st));
    GJ_CUDA(gj_arena_alloc(ar, &tmp, bytes));
    GJ_CUDA(cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, (int)n, st));
done:
    gj_arena_free(ar, tmp);
    return rc;
}

int gjgb_inclusive_sum(const uint32_t *in, uint32_t *out, uint64_t n, gj_arena *ar,
                       cudaStream_t st, gj_ctx *ctx)
{
    return inclusive_sum(in, out, n, ar, st, ctx);
}

/* Row i's head flag, computed as the scan reads it: 1 where its key differs
 * from row i-1's (row 0: 1). */
template <typename K> struct HeadFlag {
    const K *k;
    __host__ __device__ __forceinline__ uint32_t operator()(const int &i) const
    {
        return i == 0 || k[i] != k[i - 1] ? 1u : 0u;
    }
};

template <typename K>
static int group_ids(const K *keys, uint32_t *gid1, uint64_t n, gj_arena *ar, cudaStream_t st, gj_ctx *ctx)
{
    return inclusive_sum(thrust::make_transform_iterator(thrust::counting_iterator<int>(0), HeadFlag<K>{keys}), gid1,
                         n, ar, st, ctx);
}

int gjgb_group_ids(const void *keys, int kw, uint32_t *gid1, uint64_t n, gj_arena *ar, cudaStream_t st,
                   gj_ctx *ctx)
{
    if (n > 0x7fffffffull) return gj_seterr(ctx, GJ_ERR_UNSUPPORTED, "group-by scan: %llu rows > 2^31-1", (unsigned long long)n);
    return kw == 4 ? group_ids((const uint32_t *)keys, gid1, n, ar, st, ctx)
                   : group_ids((const uint64_t *)keys, gid1, n, ar, st, ctx);
}
