/* What the standalone probes (bench/*_probe.cu) share: a CUDA check that
 * exits, and the group-by input of paper 000 Sec. 5.2.1 (keys uniform over
 * [0, g), two 4-byte payloads). */
#ifndef GJ_BENCH_PROBE_COMMON_CUH
#define GJ_BENCH_PROBE_COMMON_CUH

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "operators/hash.cuh"

#define CK(x)                                                                                           \
    do {                                                                                                \
        cudaError_t e_ = (x);                                                                           \
        if (e_ != cudaSuccess) {                                                                        \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                  \
            exit(1);                                                                                    \
        }                                                                                               \
    } while (0)

using gjh::fmix;

/* row i: key uniform over [0, g), payloads a and b (hashes of i) */
__global__ void probe_gen(uint32_t *k, int *a, int *b, uint64_t n, uint32_t g)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        k[i] = (uint32_t)(((uint64_t)fmix((uint32_t)i * 2654435761u + 7) * g) >> 32);
        a[i] = (int)fmix((uint32_t)i ^ 0x1234567u);
        b[i] = (int)fmix((uint32_t)i ^ 0x7654321u);
    }
}

/* Input as after PGB-TR's partition (bench/pgbtable_probe.cu,
 * bench/cluster_probe.cu): n rows in `parts` equal partitions, each key
 * ending in its partition's 8 bits above mix24 of its group j (uniform
 * over [0, G)), the packed pair of two 4-byte payloads beside it. */
__host__ __device__ inline uint32_t mix24(uint32_t x) /* a bijection on 24 bits */
{
    const uint32_t m = 0xFFFFFFu;
    x &= m;
    x ^= x >> 12; x = (x * 0x9E3779B1u) & m;
    x ^= x >> 11; x = (x * 0x85EBCA6Bu) & m;
    x ^= x >> 12;
    return x;
}

__global__ void gen_parts(uint32_t *key, uint64_t *pair, uint64_t n, uint32_t G, uint32_t parts)
{
    const uint64_t per = n / parts;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t p = (uint32_t)(i / per);
        const uint32_t j = (uint32_t)(((uint64_t)fmix((uint32_t)i * 2654435761u + 7) * G) >> 32);
        key[i] = mix24(j) << 8 | p;
        pair[i] = (uint64_t)fmix((uint32_t)i ^ 0x1234567u) | (uint64_t)fmix((uint32_t)i ^ 0x7654321u) << 32;
    }
}

/* k_pgb_many's probe (pgb_slot): linear from a Fibonacci home in a table
 * of 2^LG 4-byte keys (empty: all ones), an empty slot claimed by CAS; the
 * slot, or all ones after MAXP slots. tkey may be another block's shared
 * memory (a cluster's distributed shared memory). */
template <int LG, int MAXP>
__device__ __forceinline__ uint32_t probe_linear(uint32_t *tkey, uint32_t k)
{
    const uint32_t empty = 0xFFFFFFFFu;
    uint32_t sl = (uint32_t)(((uint64_t)k * 0x9E3779B97F4A7C15ull) >> (64 - LG));
    for (int p = 0; p < MAXP; p++) {
        uint32_t t = ((volatile uint32_t *)tkey)[sl];
        if (t == empty) t = atomicCAS(tkey + sl, empty, k);
        if (t == empty || t == k) return sl;
        sl = (sl + 1) & ((1u << LG) - 1);
    }
    return empty;
}

/* The CPU's answer for gen_parts' rows (hk, hp copied back): each
 * (partition, group)'s maxima at q = partition * G + group, whether it
 * occurs, and how many do. inv: mix24's inverse. */
struct PartRef {
    std::vector<uint32_t> inv;
    std::vector<int> ma, mb;
    std::vector<char> seen;
    uint64_t want = 0;
    PartRef() : inv(1u << 24)
    {
        for (uint32_t j = 0; j < (1u << 24); j++) inv[mix24(j)] = j;
    }
    /* gen_parts' rows on the GPU (key, pair: n rows), then their answer */
    void generate(uint32_t *key, uint64_t *pair, uint64_t n, uint32_t G, uint32_t parts, int sms)
    {
        std::vector<uint32_t> hk(n);
        std::vector<uint64_t> hp(n);
        gen_parts<<<sms * 8, 256>>>(key, pair, n, G, parts);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hk.data(), key, n * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hp.data(), pair, n * 8, cudaMemcpyDeviceToHost));
        build(hk, hp, n, parts, G);
    }
    void build(const std::vector<uint32_t> &hk, const std::vector<uint64_t> &hp, uint64_t n, uint32_t parts, uint32_t G)
    {
        const uint64_t per = n / parts;
        ma.assign((size_t)parts * G, INT_MIN);
        mb.assign((size_t)parts * G, INT_MIN);
        seen.assign((size_t)parts * G, 0);
        want = 0;
        for (uint64_t i = 0; i < n; i++) {
            const size_t q = (size_t)(i / per) * G + inv[hk[i] >> 8];
            want += !seen[q];
            seen[q] = 1;
            ma[q] = std::max(ma[q], (int)(uint32_t)hp[i]);
            mb[q] = std::max(mb[q], (int)(uint32_t)(hp[i] >> 32));
        }
    }
};

/* the probes' first argument: log2 of the rows, def when absent; exits 2
 * with the usage line outside [lo, hi] */
static int probe_lg(int argc, char **argv, int def, int lo, int hi, const char *usage)
{
    const int lg = argc > 1 ? atoi(argv[1]) : def;
    if (lg < lo || lg > hi) {
        fprintf(stderr, "usage: %s\n", usage);
        exit(2);
    }
    return lg;
}

#endif
