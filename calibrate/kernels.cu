/* Calibration microbenchmarks: memory, atomics, hash tables, overheads.
 * Kernels are file-local; the extern "C" launchers (calibrate/calibrate.h)
 * allocate, generate inputs on the GPU, warm up, time each repetition with
 * CUDA events and verify the output on the device. */
#include "calibrate/calibrate.h"
#include "operators/common.cuh"

#include <stdlib.h>
#include <string.h>
#include <time.h>

namespace {

constexpr int kThreads = 256;

/* Bijective 32-bit mixer (lowbias32). */
__host__ __device__ inline uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* Bijection on [0, 2^bits): odd multiplications and right xor-shifts, each
 * invertible modulo 2^bits. */
__device__ inline uint32_t perm_bits(uint32_t x, int bits, uint32_t seed)
{
    const uint32_t m = bits >= 32 ? 0xffffffffu : ((1u << bits) - 1);
    const int s = bits / 2 > 0 ? bits / 2 : 1;
    x = (x * 0x9E3779B1u + seed) & m;
    x ^= x >> s;
    x = (x * 0x85EBCA6Bu) & m;
    x ^= x >> (s / 2 + 1);
    x = (x * 0xC2B2AE35u + (seed >> 7)) & m;
    x ^= x >> s;
    return x;
}

int log2_exact(uint64_t n)
{
    int b = 0;
    while ((1ull << b) < n) b++;
    return (1ull << b) == n ? b : -1;
}

int grid_for(uint64_t items, int per_thread)
{
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 1;
    uint64_t want = (items + (uint64_t)kThreads * per_thread - 1) / ((uint64_t)kThreads * per_thread);
    uint64_t cap = (uint64_t)sms * 16;
    if (want < 1) want = 1;
    return (int)(want < cap ? want : cap);
}

/* ---- sequential ---- */

__global__ void k_fill_u32(uint32_t *a, uint64_t n, uint32_t seed)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        a[i] = mix32((uint32_t)i ^ seed) | 1u;
}

__global__ void __launch_bounds__(kThreads) k_seq_read(const uint4 *__restrict__ a, uint64_t n,
                                                       uint32_t *sink)
{
    uint32_t acc = 0;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        uint4 v0 = a[i], v1 = a[i + stride], v2 = a[i + 2 * stride], v3 = a[i + 3 * stride];
        acc ^= v0.x ^ v0.y ^ v0.z ^ v0.w ^ v1.x ^ v1.y ^ v1.z ^ v1.w;
        acc ^= v2.x ^ v2.y ^ v2.z ^ v2.w ^ v3.x ^ v3.y ^ v3.z ^ v3.w;
    }
    for (; i < n; i += stride) {
        uint4 v = a[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u) atomicAdd(sink, 1u); /* keeps the loads, almost never taken */
}

__global__ void __launch_bounds__(kThreads) k_seq_write(uint4 *__restrict__ a, uint64_t n, uint32_t v)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += stride)
        a[i] = make_uint4(v, v + (uint32_t)i, v, (uint32_t)i);
}

__global__ void __launch_bounds__(kThreads) k_seq_copy(const uint4 *__restrict__ a,
                                                       uint4 *__restrict__ b, uint64_t n)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        uint4 v0 = a[i], v1 = a[i + stride], v2 = a[i + 2 * stride], v3 = a[i + 3 * stride];
        b[i] = v0;
        b[i + stride] = v1;
        b[i + 2 * stride] = v2;
        b[i + 3 * stride] = v3;
    }
    for (; i < n; i += stride) b[i] = a[i];
}

/* Counts elements of a (u32 view) differing from b; with b NULL, counts
 * positions where a[i] != expected pattern of k_seq_write with v. */
__global__ void k_check_eq(const uint32_t *a, const uint32_t *b, uint64_t n, unsigned long long *bad)
{
    unsigned long long local = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        local += a[i] != b[i];
    if (local) atomicAdd(bad, local);
}

__global__ void k_check_write(const uint4 *a, uint64_t n, uint32_t v, unsigned long long *bad)
{
    unsigned long long local = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint4 x = a[i];
        local += x.x != v || x.y != v + (uint32_t)i || x.z != v || x.w != (uint32_t)i;
    }
    if (local) atomicAdd(bad, local);
}

/* ---- gathers ---- */

__global__ void __launch_bounds__(kThreads) k_gather(const uint32_t *__restrict__ in,
                                                     const uint32_t *__restrict__ map,
                                                     uint32_t *__restrict__ out, uint64_t n)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = in[map[i]];
}

__global__ void k_map(uint32_t *map, uint64_t n, int bits, int mode, int u, uint32_t small_mask,
                      uint32_t seed)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t v;
        if (mode == GJ_CALK_GATHER_CLUSTERED) {
            v = (uint32_t)i;
        } else if (mode == GJ_CALK_GATHER_PERMUTED) {
            v = perm_bits((uint32_t)i, bits, seed);
        } else if (mode == GJ_CALK_GATHER_LINES) {
            /* lane l of warp w reads line (w*u + l%u) permuted, word l/u:
             * exactly u distinct lines per warp (the permutation is a
             * bijection on lines and w*u + k are distinct). */
            const int line_bits = bits - 5;
            uint32_t w = (uint32_t)(i >> 5), l = (uint32_t)(i & 31);
            uint32_t slot = (w * (uint32_t)u + l % (uint32_t)u) & ((1u << line_bits) - 1);
            uint32_t line = perm_bits(slot, line_bits, seed);
            v = line * 32u + l / (uint32_t)u;
        } else {
            v = mix32((uint32_t)i * 0x9E3779B1u ^ seed) & small_mask;
        }
        map[i] = v;
    }
}

/* in[j] = j ^ salt, so out[i] must be map[i] ^ salt. */
__global__ void k_check_gather(const uint32_t *map, const uint32_t *out, uint64_t n, uint32_t salt,
                               unsigned long long *bad)
{
    unsigned long long local = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        local += out[i] != (map[i] ^ salt);
    if (local) atomicAdd(bad, local);
}

__global__ void k_salted_iota(uint32_t *a, uint64_t n, uint32_t salt)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        a[i] = (uint32_t)i ^ salt;
}

/* Checks that map (of a permutation) hits every slot once: counts[] must
 * end all ones. */
__global__ void k_count_hits(const uint32_t *map, uint64_t n, uint32_t *counts)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        atomicAdd(&counts[map[i]], 1u);
}

__global__ void k_check_ones(const uint32_t *c, uint64_t n, unsigned long long *bad)
{
    unsigned long long local = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        local += c[i] != 1u;
    if (local) atomicAdd(bad, local);
}

/* ---- shared memory and L2 ---- */

constexpr int kSmemWords = 8192; /* 32 KB */

__global__ void __launch_bounds__(512) k_smem_seq(int iters, uint32_t *sink)
{
    __shared__ uint4 s[kSmemWords / 4];
    for (int i = threadIdx.x; i < kSmemWords / 4; i += blockDim.x)
        s[i] = make_uint4(i, i * 3, i * 5, i * 7);
    __syncthreads();
    uint32_t acc = 0;
    unsigned idx = threadIdx.x;
    const unsigned mask = kSmemWords / 4 - 1;
#pragma unroll 8
    for (int it = 0; it < iters; it++) {
        uint4 v = s[idx & mask];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
        idx += blockDim.x;
    }
    if (acc == 0x9e3779b9u) atomicAdd(sink, 1u);
}

__global__ void __launch_bounds__(512) k_smem_rand(int iters, uint32_t *sink)
{
    __shared__ uint32_t s[kSmemWords];
    for (int i = threadIdx.x; i < kSmemWords; i += blockDim.x) s[i] = mix32(i);
    __syncthreads();
    uint32_t acc = 0;
    uint32_t x = mix32(blockIdx.x * blockDim.x + threadIdx.x + 1);
#pragma unroll 8
    for (int it = 0; it < iters; it++) {
        x = x * 1664525u + 1013904223u;
        acc += s[(x >> 9) & (kSmemWords - 1)];
    }
    if (acc == 0x9e3779b9u) atomicAdd(sink, 1u);
}

__global__ void __launch_bounds__(kThreads) k_l2_seq(const uint4 *__restrict__ a, uint64_t n,
                                                     int passes, uint32_t *sink)
{
    uint32_t acc = 0;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++) {
        uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
        for (; i + 3 * stride < n; i += 4 * stride) {
            uint4 v0 = __ldcg(a + i), v1 = __ldcg(a + i + stride);
            uint4 v2 = __ldcg(a + i + 2 * stride), v3 = __ldcg(a + i + 3 * stride);
            acc ^= v0.x ^ v0.y ^ v0.z ^ v0.w ^ v1.x ^ v1.y ^ v1.z ^ v1.w;
            acc ^= v2.x ^ v2.y ^ v2.z ^ v2.w ^ v3.x ^ v3.y ^ v3.z ^ v3.w;
        }
        for (; i < n; i += stride) {
            uint4 v = __ldcg(a + i);
            acc ^= v.x ^ v.y ^ v.z ^ v.w;
        }
    }
    if (acc == 0x9e3779b9u) atomicAdd(sink, 1u);
}

__global__ void __launch_bounds__(kThreads) k_l2_rand(const uint32_t *__restrict__ a, uint32_t mask,
                                                      uint64_t per_thread, uint32_t *sink)
{
    uint32_t acc = 0;
    uint32_t x = mix32(blockIdx.x * blockDim.x + threadIdx.x + 7);
#pragma unroll 8
    for (uint64_t it = 0; it < per_thread; it++) {
        x = x * 1664525u + 1013904223u;
        acc += __ldcg(a + (mix32(x) & mask));
    }
    if (acc == 0x9e3779b9u) atomicAdd(sink, 1u);
}

/* ---- atomics ---- */

__global__ void __launch_bounds__(kThreads) k_atomic_global(uint32_t *tab, uint32_t mask, uint64_t n,
                                                            uint32_t seed)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += stride) {
        uint32_t h = mix32((uint32_t)i ^ seed);
        atomicAdd(&tab[h & mask], (h >> 24) + 1u);
    }
}

/* Expected total of k_atomic_global's adds, for the check. */
__global__ void k_atomic_expect(uint64_t n, uint32_t seed, unsigned long long *sum)
{
    unsigned long long local = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        local += (mix32((uint32_t)i ^ seed) >> 24) + 1u;
    atomicAdd(sum, local);
}

__global__ void k_sum_u32(const uint32_t *a, uint64_t n, unsigned long long *sum)
{
    unsigned long long local = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        local += a[i];
    atomicAdd(sum, local);
}

__global__ void __launch_bounds__(512) k_atomic_shared(int targets, int iters,
                                                       unsigned long long *total)
{
    __shared__ uint32_t s[4096];
    for (int i = threadIdx.x; i < targets; i += blockDim.x) s[i] = 0;
    __syncthreads();
    const uint32_t mask = (uint32_t)targets - 1;
    uint32_t x = mix32(blockIdx.x * blockDim.x + threadIdx.x + 11);
    for (int it = 0; it < iters; it++) {
        x = x * 1664525u + 1013904223u;
        atomicAdd(&s[(x >> 8) & mask], (x >> 28) + 1u);
    }
    __syncthreads();
    unsigned long long local = 0;
    for (int i = threadIdx.x; i < targets; i += blockDim.x) local += s[i];
    /* one global atomic per block: per-thread ones would cost more than the
     * shared-memory work being measured */
    __shared__ unsigned long long warp_sum[16];
    for (int o = 16; o > 0; o /= 2) local += __shfl_down_sync(0xffffffffu, local, o);
    if ((threadIdx.x & 31) == 0) warp_sum[threadIdx.x >> 5] = local;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long b = 0;
        for (int w = 0; w < (int)(blockDim.x >> 5); w++) b += warp_sum[w];
        atomicAdd(total, b);
    }
}

__global__ void k_atomic_shared_expect(int iters, unsigned long long *total)
{
    uint32_t x = mix32(blockIdx.x * blockDim.x + threadIdx.x + 11);
    unsigned long long local = 0;
    for (int it = 0; it < iters; it++) {
        x = x * 1664525u + 1013904223u;
        local += (x >> 28) + 1u;
    }
    atomicAdd(total, local);
}

/* ---- hash table (linear probing, SoA, empty = 0xffffffff) ---- */

constexpr uint32_t kEmpty = 0xffffffffu;

__global__ void k_ht_keys(uint32_t *keys, uint64_t n, uint32_t seed)
{
    /* distinct: mix32 is a bijection; never kEmpty since i < 2^31 and the
     * bijection's image of those excludes at most one value we remap. */
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t k = mix32((uint32_t)i ^ seed);
        keys[i] = k == kEmpty ? mix32((uint32_t)n ^ seed) : k;
    }
}

__global__ void k_ht_probes(const uint32_t *keys, uint64_t n_keys, uint32_t *probes, uint64_t n,
                            uint32_t seed)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        probes[i] = keys[mix32((uint32_t)i * 0x9E3779B1u ^ seed) & (uint32_t)(n_keys - 1)];
}

__device__ inline uint32_t ht_slot(uint32_t k, uint32_t mask) { return mix32(k ^ 0x5bd1e995u) & mask; }

/* A table of cap slots in one array t of 2 cap words: SoA (two arrays, as
 * the group-bys' global tables): the keys, then the values; AoS (NPHJ's
 * NphjSlot): a key and its value side by side in 8 bytes, one sector a
 * probe. */
template <bool AOS> struct HtLayout {
    uint32_t *t;
    uint32_t cap;
    __device__ uint32_t *key(uint32_t s) const { return AOS ? t + 2 * s : t + s; }
    __device__ uint32_t *val(uint32_t s) const { return AOS ? t + 2 * s + 1 : t + cap + s; }
    /* the key at slot s, and (AoS: in the same load) its value */
    __device__ uint32_t load(uint32_t s, uint32_t &v) const
    {
        if (AOS) {
            const uint2 e = __ldg((const uint2 *)key(s));
            v = e.y;
            return e.x;
        }
        return __ldg(key(s));
    }
};

template <bool AOS>
__global__ void __launch_bounds__(kThreads) k_ht_build(const uint32_t *__restrict__ keys, uint64_t n,
                                                       HtLayout<AOS> L, uint32_t mask)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += stride) {
        uint32_t k = keys[i], s = ht_slot(k, mask);
        for (;;) {
            uint32_t prev = atomicCAS(L.key(s), kEmpty, k);
            if (prev == kEmpty || prev == k) {
                *L.val(s) = (uint32_t)i;
                break;
            }
            s = (s + 1) & mask;
        }
    }
}

template <bool AOS>
__global__ void __launch_bounds__(kThreads) k_ht_probe(const uint32_t *__restrict__ probes, uint64_t n,
                                                       HtLayout<AOS> L, uint32_t mask,
                                                       uint32_t *__restrict__ out, unsigned long long *miss)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += stride) {
        uint32_t k = probes[i], s = ht_slot(k, mask), v = kEmpty;
        for (;;) {
            uint32_t sv, t = L.load(s, sv);
            if (t == k) {
                v = AOS ? sv : __ldg(L.val(s));
                break;
            }
            if (t == kEmpty) break;
            s = (s + 1) & mask;
        }
        if (v == kEmpty) atomicAdd(miss, 1ull);
        out[i] = v;
    }
}

/* Build check: the value stored for keys[i] must be i. */
template <bool AOS>
__global__ void k_ht_check(const uint32_t *keys, uint64_t n, HtLayout<AOS> L, uint32_t mask,
                           unsigned long long *bad)
{
    unsigned long long local = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t k = keys[i], s = ht_slot(k, mask);
        for (;;) {
            uint32_t t = *L.key(s);
            if (t == k) {
                local += *L.val(s) != (uint32_t)i;
                break;
            }
            if (t == kEmpty) {
                local++;
                break;
            }
            s = (s + 1) & mask;
        }
    }
    if (local) atomicAdd(bad, local);
}

__global__ void k_empty(void) {}

/* ---- timing helper ---- */

struct timer {
    cudaEvent_t a = nullptr, b = nullptr;
};

cudaError_t timer_init(timer *t)
{
    cudaError_t e = cudaEventCreate(&t->a);
    if (e == cudaSuccess) e = cudaEventCreate(&t->b);
    return e;
}

void timer_free(timer *t)
{
    if (t->a) cudaEventDestroy(t->a);
    if (t->b) cudaEventDestroy(t->b);
    t->a = t->b = nullptr;
}

cudaError_t timer_ms(timer *t, double *ms)
{
    float f = 0;
    cudaError_t e = cudaEventSynchronize(t->b);
    if (e == cudaSuccess) e = cudaEventElapsedTime(&f, t->a, t->b);
    *ms = f;
    return e;
}

double host_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int check_args(int warmup, int reps, double *ms, double *work, gj_ctx *ctx)
{
    if (warmup < 0 || reps < 1 || !ms || !work)
        return gj_seterr(ctx, GJ_ERR_INVALID, "calibrate: warmup=%d reps=%d: allowed warmup >= 0, "
                         "reps >= 1, non-NULL outputs", warmup, reps);
    return GJ_OK;
}

/* Reads *bad and fails with a message if nonzero. */
int verify(unsigned long long *d_bad, const char *what, gj_ctx *ctx)
{
    unsigned long long bad = 0;
    cudaError_t e = cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return gj_seterr(ctx, GJ_ERR_CUDA, "%s: reading the check: %s", what, cudaGetErrorString(e));
    }
    if (bad) return gj_seterr(ctx, GJ_ERR_CUDA, "%s: verification failed: %llu wrong elements", what, bad);
    return GJ_OK;
}

} /* namespace */

template <bool AOS>
static int hash_run(int probe, uint64_t n_keys, uint64_t n_probes, int warmup, int reps, double *ms,
                    double *work, gj_ctx *ctx)
{
    int rc = GJ_OK;
    timer t;
    gj_arena ar = {};
    uint32_t *keys = nullptr, *probes = nullptr, *out = nullptr;
    unsigned long long *bad = nullptr;
    const uint64_t cap = 2 * n_keys;
    const uint32_t mask = (uint32_t)(cap - 1);
    HtLayout<AOS> L = {nullptr, (uint32_t)cap};
    GJ_CUDA(timer_init(&t));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&keys, n_keys * 4));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&L.t, cap * 8));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&bad, sizeof *bad));
    GJ_CUDA(cudaMemset(bad, 0, sizeof *bad));
    k_ht_keys<<<grid_for(n_keys, 4), kThreads>>>(keys, n_keys, 0x9E3779B9u);
    GJ_LAUNCHED();
    if (probe) {
        GJ_CUDA(gj_arena_alloc(&ar, (void **)&probes, n_probes * 4));
        GJ_CUDA(gj_arena_alloc(&ar, (void **)&out, n_probes * 4));
        k_ht_probes<<<grid_for(n_probes, 4), kThreads>>>(keys, n_keys, probes, n_probes, 0x1234567u);
        GJ_LAUNCHED();
        GJ_CUDA(cudaMemset(L.t, 0xff, cap * 8));
        k_ht_build<AOS><<<grid_for(n_keys, 4), kThreads>>>(keys, n_keys, L, mask);
        GJ_LAUNCHED();
    }
    for (int r = -warmup; r < reps; r++) {
        if (!probe) GJ_CUDA(cudaMemset(L.t, 0xff, cap * 8)); /* clear, untimed */
        GJ_CUDA(cudaEventRecord(t.a));
        if (probe)
            k_ht_probe<AOS><<<grid_for(n_probes, 4), kThreads>>>(probes, n_probes, L, mask, out, bad);
        else
            k_ht_build<AOS><<<grid_for(n_keys, 4), kThreads>>>(keys, n_keys, L, mask);
        GJ_LAUNCHED();
        GJ_CUDA(cudaEventRecord(t.b));
        double m;
        GJ_CUDA(timer_ms(&t, &m));
        if (r >= 0) ms[r] = m;
    }
    if (!probe) {
        k_ht_check<AOS><<<grid_for(n_keys, 4), kThreads>>>(keys, n_keys, L, mask, bad);
        GJ_LAUNCHED();
    }
    if ((rc = verify(bad, probe ? "hash probe (misses)" : "hash build", ctx)) != GJ_OK) goto done;
    *work = probe ? (double)n_probes : (double)n_keys;
done:
    gj_arena_release(&ar);
    timer_free(&t);
    return rc;
}

extern "C" {

int gj_calk_seq(int kind, uint64_t bytes, int inner, int warmup, int reps, double *ms, double *work,
                gj_ctx *ctx)
{
    int rc = check_args(warmup, reps, ms, work, ctx);
    gj_arena ar = {};
    timer t;
    uint4 *a = nullptr, *b = nullptr;
    uint32_t *sink = nullptr;
    unsigned long long *bad = nullptr;
    const uint64_t n = bytes / 16;
    if (rc != GJ_OK) return rc;
    if (kind < 0 || kind > 2 || n < 1024 || inner < 1) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "seq: kind=%d bytes=%llu inner=%d: allowed kind 0..2, "
                       "bytes >= 16 KB, inner >= 1", kind, (unsigned long long)bytes, inner);
        goto done;
    }
    GJ_CUDA(timer_init(&t));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&a, n * 16));
    if (kind == 2) GJ_CUDA(gj_arena_alloc(&ar, (void **)&b, n * 16));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&sink, 4));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&bad, sizeof *bad));
    GJ_CUDA(cudaMemset(bad, 0, sizeof *bad));
    k_fill_u32<<<grid_for(n * 4, 4), kThreads>>>((uint32_t *)a, n * 4, 0x1234u);
    GJ_LAUNCHED();
    for (int r = -warmup; r < reps; r++) {
        GJ_CUDA(cudaEventRecord(t.a));
        for (int k = 0; k < inner; k++) {
            if (kind == 0) k_seq_read<<<grid_for(n, 4), kThreads>>>(a, n, sink);
            else if (kind == 1) k_seq_write<<<grid_for(n, 4), kThreads>>>(a, n, 0xabcd0000u + r);
            else k_seq_copy<<<grid_for(n, 4), kThreads>>>(a, b, n);
            GJ_LAUNCHED();
        }
        GJ_CUDA(cudaEventRecord(t.b));
        double m;
        GJ_CUDA(timer_ms(&t, &m));
        if (r >= 0) ms[r] = m;
    }
    if (kind == 1) k_check_write<<<grid_for(n, 4), kThreads>>>(a, n, 0xabcd0000u + reps - 1, bad);
    if (kind == 2) k_check_eq<<<grid_for(n * 4, 4), kThreads>>>((uint32_t *)a, (uint32_t *)b, n * 4, bad);
    GJ_LAUNCHED();
    if ((rc = verify(bad, "sequential access", ctx)) != GJ_OK) goto done;
    *work = (double)n * 16 * (kind == 2 ? 2 : 1) * inner;
done:
    gj_arena_release(&ar);
    timer_free(&t);
    return rc;
}

int gj_calk_gather(int mode, uint64_t n, int u, uint64_t src_items, int inner, int warmup, int reps,
                   double *ms, double *work, gj_ctx *ctx)
{
    int rc = check_args(warmup, reps, ms, work, ctx);
    gj_arena ar = {};
    timer t;
    uint32_t *in = nullptr, *map = nullptr, *out = nullptr, *cnt = nullptr;
    unsigned long long *bad = nullptr;
    const int bits = log2_exact(n);
    const uint64_t src = mode == GJ_CALK_GATHER_SMALL ? src_items : n;
    const uint32_t salt = 0x5a5a1234u;
    if (rc != GJ_OK) return rc;
    if (mode < 0 || mode > 3 || bits < 10 || bits > 31 || inner < 1 ||
        (mode == GJ_CALK_GATHER_LINES && (u < 1 || u > 32 || (u & (u - 1)))) ||
        (mode == GJ_CALK_GATHER_SMALL && (log2_exact(src_items) < 5 || src_items > n))) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID,
                       "gather: mode=%d n=%llu u=%d src_items=%llu: allowed n a power of two in "
                       "[2^10, 2^31], u in 1,2,4,8,16,32, src_items a power of two <= n",
                       mode, (unsigned long long)n, u, (unsigned long long)src_items);
        goto done;
    }
    GJ_CUDA(timer_init(&t));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&in, src * 4));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&map, n * 4));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&out, n * 4));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&bad, sizeof *bad));
    GJ_CUDA(cudaMemset(bad, 0, sizeof *bad));
    k_salted_iota<<<grid_for(src, 4), kThreads>>>(in, src, salt);
    GJ_LAUNCHED();
    k_map<<<grid_for(n, 4), kThreads>>>(map, n, bits, mode, u, (uint32_t)(src - 1), 0x2545F491u);
    GJ_LAUNCHED();
    if (mode == GJ_CALK_GATHER_PERMUTED) { /* the map must be a permutation */
        GJ_CUDA(gj_arena_alloc(&ar, (void **)&cnt, n * 4));
        GJ_CUDA(cudaMemset(cnt, 0, n * 4));
        k_count_hits<<<grid_for(n, 4), kThreads>>>(map, n, cnt);
        GJ_LAUNCHED();
        k_check_ones<<<grid_for(n, 4), kThreads>>>(cnt, n, bad);
        GJ_LAUNCHED();
        if ((rc = verify(bad, "gather permutation", ctx)) != GJ_OK) goto done;
        gj_arena_free(&ar, cnt);
    }
    for (int r = -warmup; r < reps; r++) {
        GJ_CUDA(cudaMemset(out, 0xff, n * 4)); /* poison, untimed */
        GJ_CUDA(cudaEventRecord(t.a));
        for (int k = 0; k < inner; k++) {
            k_gather<<<grid_for(n, 4), kThreads>>>(in, map, out, n);
            GJ_LAUNCHED();
        }
        GJ_CUDA(cudaEventRecord(t.b));
        double m;
        GJ_CUDA(timer_ms(&t, &m));
        if (r >= 0) ms[r] = m;
    }
    k_check_gather<<<grid_for(n, 4), kThreads>>>(map, out, n, salt, bad);
    GJ_LAUNCHED();
    if ((rc = verify(bad, "gather", ctx)) != GJ_OK) goto done;
    *work = (double)n * inner;
done:
    gj_arena_release(&ar);
    timer_free(&t);
    return rc;
}

int gj_calk_smem(int random, int iters, int warmup, int reps, double *ms, double *work, gj_ctx *ctx)
{
    int rc = check_args(warmup, reps, ms, work, ctx);
    timer t;
    gj_arena ar = {};
    uint32_t *sink = nullptr;
    int dev = 0, sms = 0, blocks_per_sm = 0;
    if (rc != GJ_OK) return rc;
    if (iters < 1) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "smem: iters=%d: allowed >= 1", iters);
        goto done;
    }
    GJ_CUDA(timer_init(&t));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&sink, 4));
    GJ_CUDA(cudaGetDevice(&dev));
    GJ_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    if (random)
        GJ_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, k_smem_rand, 512, 0));
    else
        GJ_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, k_smem_seq, 512, 0));
    if (blocks_per_sm < 1) blocks_per_sm = 1;
    for (int r = -warmup; r < reps; r++) {
        GJ_CUDA(cudaEventRecord(t.a));
        if (random) k_smem_rand<<<sms * blocks_per_sm, 512>>>(iters, sink);
        else k_smem_seq<<<sms * blocks_per_sm, 512>>>(iters, sink);
        GJ_LAUNCHED();
        GJ_CUDA(cudaEventRecord(t.b));
        double m;
        GJ_CUDA(timer_ms(&t, &m));
        if (r >= 0) ms[r] = m;
    }
    *work = (double)sms * blocks_per_sm * 512 * (double)iters * (random ? 4 : 16);
done:
    gj_arena_release(&ar);
    timer_free(&t);
    return rc;
}

int gj_calk_l2(int random, uint64_t bytes, int passes, int warmup, int reps, double *ms, double *work,
               gj_ctx *ctx)
{
    int rc = check_args(warmup, reps, ms, work, ctx);
    timer t;
    gj_arena ar = {};
    uint32_t *a = nullptr, *sink = nullptr;
    uint64_t words = 1;
    while (words * 2 * 4 <= bytes) words *= 2; /* power of two for the random mask */
    const uint64_t per_thread_total = words * (uint64_t)passes;
    int grid = 0;
    uint64_t per_thread = 0;
    if (rc != GJ_OK) return rc;
    if (bytes < (1u << 16) || passes < 1) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "l2: bytes=%llu passes=%d: allowed bytes >= 64 KB, passes >= 1",
                       (unsigned long long)bytes, passes);
        goto done;
    }
    GJ_CUDA(timer_init(&t));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&a, words * 4));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&sink, 4));
    k_fill_u32<<<grid_for(words, 4), kThreads>>>(a, words, 77u);
    GJ_LAUNCHED();
    grid = grid_for(words / 4, 4);
    if (random) {
        grid = grid_for(1ull << 40, 1); /* as many blocks as the sequential cap */
        per_thread = per_thread_total / ((uint64_t)grid * kThreads);
        if (per_thread < 1) per_thread = 1;
    }
    for (int r = -warmup; r < reps; r++) {
        GJ_CUDA(cudaEventRecord(t.a));
        if (random) k_l2_rand<<<grid, kThreads>>>(a, (uint32_t)(words - 1), per_thread, sink);
        else k_l2_seq<<<grid, kThreads>>>((const uint4 *)a, words / 4, passes, sink);
        GJ_LAUNCHED();
        GJ_CUDA(cudaEventRecord(t.b));
        double m;
        GJ_CUDA(timer_ms(&t, &m));
        if (r >= 0) ms[r] = m;
    }
    *work = random ? (double)grid * kThreads * per_thread * 4 : (double)words * 4 * passes;
done:
    gj_arena_release(&ar);
    timer_free(&t);
    return rc;
}

int gj_calk_atomic_global(uint64_t targets, uint64_t n, int warmup, int reps, double *ms, double *work,
                          gj_ctx *ctx)
{
    int rc = check_args(warmup, reps, ms, work, ctx);
    timer t;
    gj_arena ar = {};
    uint32_t *tab = nullptr;
    unsigned long long *sums = nullptr, h[2] = {0, 0};
    if (rc != GJ_OK) return rc;
    if (log2_exact(targets) < 0 || targets > (1ull << 31) || n < 1 || n > (1ull << 32)) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "atomics: targets=%llu n=%llu: allowed targets a power of "
                       "two <= 2^31, 1 <= n <= 2^32", (unsigned long long)targets, (unsigned long long)n);
        goto done;
    }
    GJ_CUDA(timer_init(&t));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&tab, targets * 4));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&sums, 2 * sizeof *sums));
    for (int r = -warmup; r < reps; r++) {
        GJ_CUDA(cudaMemset(tab, 0, targets * 4));
        GJ_CUDA(cudaEventRecord(t.a));
        k_atomic_global<<<grid_for(n, 4), kThreads>>>(tab, (uint32_t)(targets - 1), n, 0xC0FFEEu + r);
        GJ_LAUNCHED();
        GJ_CUDA(cudaEventRecord(t.b));
        double m;
        GJ_CUDA(timer_ms(&t, &m));
        if (r >= 0) ms[r] = m;
    }
    /* check the last repetition: the counters sum to what was added; a single counter
     * may wrap (n * 256 >= 2^32), then compare modulo 2^32 */
    GJ_CUDA(cudaMemset(sums, 0, 2 * sizeof *sums));
    k_sum_u32<<<grid_for(targets, 4), kThreads>>>(tab, targets, sums);
    GJ_LAUNCHED();
    k_atomic_expect<<<grid_for(n, 4), kThreads>>>(n, 0xC0FFEEu + reps - 1, sums + 1);
    GJ_LAUNCHED();
    GJ_CUDA(cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost));
    if (targets > 1 || n * 256 < (1ull << 32)) {
        if (h[0] != h[1]) {
            rc = gj_seterr(ctx, GJ_ERR_CUDA, "global atomics: verification failed: sum %llu, expected %llu",
                           h[0], h[1]);
            goto done;
        }
    } else if ((uint32_t)h[0] != (uint32_t)h[1]) {
        rc = gj_seterr(ctx, GJ_ERR_CUDA, "global atomics: verification failed (mod 2^32)");
        goto done;
    }
    *work = (double)n;
done:
    gj_arena_release(&ar);
    timer_free(&t);
    return rc;
}

int gj_calk_atomic_shared(int targets, int iters, int warmup, int reps, double *ms, double *work,
                          gj_ctx *ctx)
{
    int rc = check_args(warmup, reps, ms, work, ctx);
    timer t;
    gj_arena ar = {};
    unsigned long long *sums = nullptr, h[2] = {0, 0};
    int dev = 0, sms = 0, bps = 0, grid = 0;
    if (rc != GJ_OK) return rc;
    if (targets < 1 || targets > 4096 || (targets & (targets - 1)) || iters < 1) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "shared atomics: targets=%d iters=%d: allowed a power of "
                       "two <= 4096, iters >= 1", targets, iters);
        goto done;
    }
    GJ_CUDA(timer_init(&t));
    GJ_CUDA(gj_arena_alloc(&ar, (void **)&sums, 2 * sizeof *sums));
    GJ_CUDA(cudaGetDevice(&dev));
    GJ_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GJ_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, k_atomic_shared, 512, 0));
    grid = sms * (bps > 0 ? bps : 1);
    for (int r = -warmup; r < reps; r++) {
        GJ_CUDA(cudaMemset(sums, 0, 2 * sizeof *sums));
        GJ_CUDA(cudaEventRecord(t.a));
        k_atomic_shared<<<grid, 512>>>(targets, iters, sums);
        GJ_LAUNCHED();
        GJ_CUDA(cudaEventRecord(t.b));
        double m;
        GJ_CUDA(timer_ms(&t, &m));
        if (r >= 0) ms[r] = m;
    }
    k_atomic_shared_expect<<<grid, 512>>>(iters, sums + 1);
    GJ_LAUNCHED();
    GJ_CUDA(cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost));
    if (h[0] != h[1]) {
        rc = gj_seterr(ctx, GJ_ERR_CUDA, "shared atomics: verification failed: sum %llu, expected %llu",
                       h[0], h[1]);
        goto done;
    }
    *work = (double)grid * 512 * iters;
done:
    gj_arena_release(&ar);
    timer_free(&t);
    return rc;
}

int gj_calk_hash(int probe, int aos, uint64_t n_keys, uint64_t n_probes, int warmup, int reps, double *ms,
                 double *work, gj_ctx *ctx)
{
    int rc = check_args(warmup, reps, ms, work, ctx);
    if (rc != GJ_OK) return rc;
    if (log2_exact(n_keys) < 4 || n_keys > (1ull << 30) || (probe && (n_probes < 1 || n_probes > (1ull << 32))))
        return gj_seterr(ctx, GJ_ERR_INVALID, "hash: n_keys=%llu n_probes=%llu: allowed n_keys a power of "
                         "two in [16, 2^30], 1 <= n_probes <= 2^32",
                         (unsigned long long)n_keys, (unsigned long long)n_probes);
    return aos ? hash_run<true>(probe, n_keys, n_probes, warmup, reps, ms, work, ctx)
               : hash_run<false>(probe, n_keys, n_probes, warmup, reps, ms, work, ctx);
}

int gj_calk_launch(int launches, int warmup, int reps, double *ms, double *work, gj_ctx *ctx)
{
    int rc = check_args(warmup, reps, ms, work, ctx);
    timer t;
    if (rc != GJ_OK) return rc;
    if (launches < 1) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "launch: launches=%d: allowed >= 1", launches);
        goto done;
    }
    GJ_CUDA(timer_init(&t));
    for (int r = -warmup; r < reps; r++) {
        GJ_CUDA(cudaEventRecord(t.a));
        for (int i = 0; i < launches; i++) {
            k_empty<<<1, 32>>>();
            GJ_LAUNCHED();
        }
        GJ_CUDA(cudaEventRecord(t.b));
        double m;
        GJ_CUDA(timer_ms(&t, &m));
        if (r >= 0) ms[r] = m;
    }
    *work = launches;
done:
    timer_free(&t);
    return rc;
}

int gj_calk_malloc(uint64_t bytes, int pairs, int warmup, int reps, double *ms, double *work, gj_ctx *ctx)
{
    int rc = check_args(warmup, reps, ms, work, ctx);
    void *p = nullptr;
    if (rc != GJ_OK) return rc;
    if (pairs < 1 || bytes < 1) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "malloc: pairs=%d bytes=%llu: allowed >= 1", pairs,
                       (unsigned long long)bytes);
        goto done;
    }
    GJ_CUDA(cudaDeviceSynchronize());
    for (int r = -warmup; r < reps; r++) {
        double t0 = host_ms();
        for (int i = 0; i < pairs; i++) {
            GJ_CUDA(cudaMalloc(&p, bytes));
            cudaError_t e = cudaFree(p);
            p = nullptr;
            GJ_CUDA(e);
        }
        if (r >= 0) ms[r] = host_ms() - t0;
    }
    *work = pairs;
done:
    if (p) cudaFree(p);
    return rc;
}

int gj_calk_hostcopy(int d2h, int pinned, uint64_t bytes, int warmup, int reps, double *ms, double *work,
                     gj_ctx *ctx)
{
    int rc = check_args(warmup, reps, ms, work, ctx);
    timer t;
    gj_arena ar = {};
    void *d = nullptr, *h = nullptr;
    if (rc != GJ_OK) return rc;
    if (bytes < 4096) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "host copy: bytes=%llu: allowed >= 4096", (unsigned long long)bytes);
        goto done;
    }
    GJ_CUDA(timer_init(&t));
    GJ_CUDA(gj_arena_alloc(&ar, &d, bytes));
    if (pinned) {
        GJ_CUDA(cudaMallocHost(&h, bytes));
    } else if (!(h = malloc(bytes))) {
        rc = gj_seterr(ctx, GJ_ERR_NOMEM, "host copy: malloc(%llu) failed", (unsigned long long)bytes);
        goto done;
    }
    memset(h, 0x5a, bytes); /* touch every page */
    GJ_CUDA(cudaMemset(d, 0x3c, bytes));
    for (int r = -warmup; r < reps; r++) {
        GJ_CUDA(cudaEventRecord(t.a));
        GJ_CUDA(d2h ? cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost)
                    : cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
        GJ_CUDA(cudaEventRecord(t.b));
        double m;
        GJ_CUDA(timer_ms(&t, &m));
        if (r >= 0) ms[r] = m;
    }
    if (d2h && (((unsigned char *)h)[0] != 0x3c || ((unsigned char *)h)[bytes - 1] != 0x3c)) {
        rc = gj_seterr(ctx, GJ_ERR_CUDA, "device to host copy: verification failed");
        goto done;
    }
    *work = (double)bytes;
done:
    if (h) {
        if (pinned) cudaFreeHost(h);
        else free(h);
    }
    gj_arena_release(&ar);
    timer_free(&t);
    return rc;
}

} /* extern "C" */
