/* Calibration of the transformations: CUB DeviceRadixSort::SortPairs over a
 * bit range. One 8-bit range is the histogram pass plus one RADIX-PARTITION
 * pass; 16 bits adds a second pass; the orchestrator (calibrate.c) takes
 * the difference. Four instantiations only: (k32,v32), (k32,v64),
 * (k64,v64), (k64,v32). The same over the operators' own partition
 * (gj_join_partition, a histogram and a scatter a pass), which the GFTR
 * joins and PGB-TR run on 4-byte keys with packed pairs: with the pairs
 * already packed (own = 1), or packed from two 4-byte columns as the first
 * pass reads them (own = 2: GFTR's first pass). */
#include "calibrate/calibrate.h"
#include "operators/common.cuh"
#include "operators/hash.cuh"
#include "operators/join_partition.h"

#include <cub/device/device_radix_sort.cuh>

namespace {

__host__ __device__ inline uint32_t smix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

template <typename K, typename V>
__global__ void k_sort_fill(K *k, V *v, uint64_t n, uint32_t seed)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t lo = smix32((uint32_t)i ^ seed), hi = smix32(lo ^ 0x68E31DA4u);
        k[i] = sizeof(K) == 8 ? (K)(((uint64_t)hi << 32) | lo) : (K)lo;
        v[i] = (V)i;
    }
}

/* Checks that keys are ordered on bits [0, end_bit) and that every value
 * still carries its key (values are the original positions: regenerate;
 * hashed: the keys came out hashed, gjh::hash_key). */
template <typename K, typename V>
__global__ void k_sort_check(const K *k, const V *v, uint64_t n, int end_bit, uint32_t seed, bool hashed,
                             unsigned long long *bad)
{
    const K mask = end_bit >= (int)(8 * sizeof(K)) ? ~(K)0 : (((K)1 << end_bit) - 1);
    unsigned long long local = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        if (i + 1 < n && (k[i] & mask) > (k[i + 1] & mask)) local++;
        uint64_t src = (uint64_t)v[i];
        uint32_t lo = smix32((uint32_t)src ^ seed), hi = smix32(lo ^ 0x68E31DA4u);
        K want = sizeof(K) == 8 ? (K)(((uint64_t)hi << 32) | lo) : (K)lo;
        if (hashed) want = gjh::hash_key(want);
        if (src >= n || want != k[i]) local++;
    }
    if (local) atomicAdd(bad, local);
}

/* v (8-byte) split into its low and high 4-byte halves, as two columns */
__global__ void k_split_pairs(const uint64_t *v, uint32_t *lo, uint32_t *hi, uint64_t n)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        lo[i] = (uint32_t)v[i];
        hi[i] = (uint32_t)(v[i] >> 32);
    }
}

template <typename K, typename V>
int sort_bench(int end_bit, uint64_t n, int own, int warmup, int reps, double *ms, gj_ctx *ctx)
{
    int rc = GJ_OK;
    gj_arena ar = {};
    K *k0 = nullptr, *k1 = nullptr;
    V *v0 = nullptr, *v1 = nullptr;
    uint32_t *col_a = nullptr, *col_b = nullptr; /* own == 2: the values as two columns */
    void *tmp = nullptr;
    size_t tmp_bytes = 0;
    unsigned long long *bad = nullptr, hbad = 0;
    cudaEvent_t ea = nullptr, eb = nullptr;
    const int threads = 256;
    int grid = 0, dev = 0, sms = 0;
    uint32_t seed = 0;
    GJ_CUDA(cudaGetDevice(&dev));
    GJ_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    grid = sms * 8;
    GJ_CUDA(cudaEventCreate(&ea));
    GJ_CUDA(cudaEventCreate(&eb));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&k0, n * sizeof(K)));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&k1, n * sizeof(K)));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&v0, n * sizeof(V)));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&v1, n * sizeof(V)));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&bad, sizeof *bad));
    if (own >= 2) {
        GJ_CUDA(gj_arena_alloc(&ar, (void **)&col_a, n * 4));
        GJ_CUDA(gj_arena_alloc(&ar, (void **)&col_b, n * 4));
    }
    GJ_CUDA(cudaMemset(bad, 0, sizeof *bad));
    if (!own) { /* CUB's scratch; the own partition allocates its own */
        cub::DoubleBuffer<K> kb(k0, k1);
        cub::DoubleBuffer<V> vb(v0, v1);
        GJ_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, tmp_bytes, kb, vb, (int64_t)n, 0, end_bit));
        GJ_CUDA(gj_arena_alloc(&ar, &tmp, tmp_bytes));
    }
    for (int r = -warmup; r < reps; r++) {
        seed = 0xA5A5u + 7919u * (uint32_t)(r + warmup);
        k_sort_fill<K, V><<<grid, threads>>>(k0, v0, n, seed); /* fresh keys, untimed */
        GJ_LAUNCHED();
        if (own >= 2) {
            k_split_pairs<<<grid, threads>>>((const uint64_t *)v0, col_a, col_b, n);
            GJ_LAUNCHED();
        }
        cub::DoubleBuffer<K> kb(k0, k1);
        cub::DoubleBuffer<V> vb(v0, v1);
        GJ_CUDA(cudaEventRecord(ea));
        if (own) {
            const int mode = own == 3   ? GJ_PART_PACK | GJ_PART_HASH | GJ_PART_WIDE
                             : own == 2 ? GJ_PART_PACK
                             : sizeof(V) == 4 ? GJ_PART_COPY4 : GJ_PART_COPY8;
            if ((rc = gj_join_partition((int)sizeof(K), k0, k1, mode, own >= 2 ? (const void *)col_a : v0, col_b, v1, n,
                                        end_bit, 0, NULL, ctx)) != GJ_OK)
                goto done;
            kb = cub::DoubleBuffer<K>(k1, k0);
            vb = cub::DoubleBuffer<V>(v1, v0);
        } else {
            GJ_CUDA(cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, kb, vb, (int64_t)n, 0, end_bit));
            GJ_LAUNCHED();
        }
        GJ_CUDA(cudaEventRecord(eb));
        GJ_CUDA(cudaEventSynchronize(eb));
        float f = 0;
        GJ_CUDA(cudaEventElapsedTime(&f, ea, eb));
        if (r >= 0) ms[r] = f;
        if (r == reps - 1) {
            k_sort_check<K, V><<<grid, threads>>>(kb.Current(), vb.Current(), n, end_bit, seed, own == 3, bad);
            GJ_LAUNCHED();
        }
    }
    GJ_CUDA(cudaMemcpy(&hbad, bad, sizeof hbad, cudaMemcpyDeviceToHost));
    if (hbad)
        rc = gj_seterr(ctx, GJ_ERR_CUDA, "radix sort k%zu/v%zu bits [0,%d): verification failed: %llu "
                       "wrong elements", 8 * sizeof(K), 8 * sizeof(V), end_bit, hbad);
done:
    gj_arena_release(&ar);
    if (ea) cudaEventDestroy(ea);
    if (eb) cudaEventDestroy(eb);
    return rc;
}

} /* namespace */

extern "C" int gj_calk_sort(int key_bytes, int val_bytes, int end_bit, uint64_t n, int own, int warmup, int reps,
                            double *ms, double *work, gj_ctx *ctx)
{
    int rc = GJ_OK;
    if (warmup < 0 || reps < 1 || !ms || !work || n < 1 || n > (1ull << 31) ||
        (key_bytes != 4 && key_bytes != 8) || (val_bytes != 4 && val_bytes != 8) || end_bit < 1 ||
        end_bit > (own ? GJ_PART_MAX_BITS : 8 * key_bytes) || own < 0 || own > 3 ||
        (own >= 2 && (key_bytes != 4 || val_bytes != 8)) || (own == 3 && end_bit != GJ_PART_WIDE_BITS))
        return gj_seterr(ctx, GJ_ERR_INVALID, "sort: key_bytes=%d val_bytes=%d end_bit=%d n=%llu own=%d: "
                         "allowed widths 4 or 8, 1 <= end_bit <= key bits (16 for the own partition), "
                         "1 <= n <= 2^31; packed columns (own 2, 3) with 4-byte keys and 8-byte values; "
                         "the wide hashed pass (own 3) on %d bits",
                         key_bytes, val_bytes, end_bit, (unsigned long long)n, own, GJ_PART_WIDE_BITS);
    if (key_bytes == 4 && val_bytes == 4) rc = sort_bench<uint32_t, uint32_t>(end_bit, n, own, warmup, reps, ms, ctx);
    else if (key_bytes == 4) rc = sort_bench<uint32_t, uint64_t>(end_bit, n, own, warmup, reps, ms, ctx);
    else if (val_bytes == 8) rc = sort_bench<uint64_t, uint64_t>(end_bit, n, own, warmup, reps, ms, ctx);
    else rc = sort_bench<uint64_t, uint32_t>(end_bit, n, own, warmup, reps, ms, ctx);
    if (rc == GJ_OK) *work = (double)n;
    return rc;
}
