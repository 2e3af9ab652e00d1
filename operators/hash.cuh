/* Bijective hashes of 4- and 8-byte keys and their inverses, shared by the
 * operators that partition or probe on hashed keys: equal keys hash equal
 * and distinct keys stay distinct, so a join or group-by may run on hashed
 * keys and unhash only what it outputs. fmix: murmur3's finalisers (the
 * global tables' slots, the generator's sparse keys); hash_key: Fibonacci
 * hashing (below). */
#ifndef GJ_OPERATORS_HASH_CUH
#define GJ_OPERATORS_HASH_CUH

#include <cstdint>

namespace gjh {

__host__ __device__ inline uint32_t fmix(uint32_t h)
{
    h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
    return h;
}
__host__ __device__ inline uint64_t fmix(uint64_t k)
{
    k ^= k >> 33; k *= 0xff51afd7ed558ccdull; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ull; k ^= k >> 33;
    return k;
}
__host__ __device__ inline uint32_t unfmix(uint32_t h)
{
    h ^= h >> 16; h *= 0x7ed1b41du; h ^= (h >> 13) ^ (h >> 26); h *= 0xa5cb9243u; h ^= h >> 16;
    return h;
}
__host__ __device__ inline uint64_t unfmix(uint64_t k)
{
    k ^= k >> 33; k *= 0x9cb4b2f8129337dbull; k ^= k >> 33; k *= 0x4f74430c22a54005ull; k ^= k >> 33;
    return k;
}

/* bit reversals (host and device) */
__host__ __device__ inline uint32_t brev32(uint32_t x)
{
#ifdef __CUDA_ARCH__
    return __brev(x);
#else
    x = (x >> 1 & 0x55555555u) | (x & 0x55555555u) << 1;
    x = (x >> 2 & 0x33333333u) | (x & 0x33333333u) << 2;
    x = (x >> 4 & 0x0F0F0F0Fu) | (x & 0x0F0F0F0Fu) << 4;
    x = (x >> 8 & 0x00FF00FFu) | (x & 0x00FF00FFu) << 8;
    return x >> 16 | x << 16;
#endif
}
__host__ __device__ inline uint64_t brev64(uint64_t x)
{
#ifdef __CUDA_ARCH__
    return __brevll(x);
#else
    return (uint64_t)brev32((uint32_t)x) << 32 | brev32((uint32_t)(x >> 32));
#endif
}

/* The keys' hash for partitions and tables (PGB, PHJ on skewed keys, the
 * dictionary of SGB-DE-TR): multiplicative (Fibonacci) hashing, P = k * M
 * (M odd: a bijection), bit-reversed so that the hash's low bits, which
 * partitions take as their digits, are P's top bits. The products of
 * consecutive keys are spread evenly over [0, 2^w) (the three-gap
 * theorem), so dense keys (0..g-1: dictionary codes, surrogate keys, paper
 * 000's generator) split into partitions of equal groups, and within one
 * the bits of P below the partition's (hash_frac) put its keys on homes
 * about evenly spaced: a table at load 1/2 sees almost no two on one home
 * (murmur's finaliser, the hash before: 1.4 probes a key, a warp's longest
 * 3.5; bench/dense_probe.cu, bench/RESULTS.md session 28). How evenly
 * depends on M: the gaps' ratio is bounded by the continued fraction of
 * M / 2^w, whose partial quotients the golden ratio's 0x9E3779B1 keeps at 1
 * only up to denominators near 2^16 (then 4, 7, 7, 18: at 2^22..2^23 groups
 * its keys crowd, a warp's longest search 6-9 and some past PGB's 32-probe
 * bound). 0xC8199275's stay at most 3 up to 2^30, and a warp's longest
 * search in PGB's plans (2^11..2^26 groups, pgb_slot's double hashing;
 * bench/hash_sim.c) is at most 1.6 but at 4096 groups in two partitions
 * (2.8; murmur 2.5-4.0 everywhere). The 64-bit golden ratio's quotients
 * stay at most 3 up to 2^30. Keys without that structure hash as with any
 * multiplicative hash. */
enum : uint32_t { FIB_M32 = 0xC8199275u, FIB_I32 = 0x94B62DDDu };
static const uint64_t FIB_M64 = 0x9E3779B97F4A7C15ull, FIB_I64 = 0xF1DE83E19937733Dull;

/* Either width, for a key type of 4 or 8 bytes (unsigned long long included). */
template <typename K> __host__ __device__ inline K hash_key(K k)
{
    return sizeof(K) == 4 ? (K)brev32((uint32_t)k * FIB_M32) : (K)brev64((uint64_t)k * FIB_M64);
}
template <typename K> __host__ __device__ inline K unhash_key(K h)
{
    return sizeof(K) == 4 ? (K)(brev32((uint32_t)h) * FIB_I32) : (K)(brev64((uint64_t)h) * FIB_I64);
}

/* P's bits below the `pb` low bits of hashed key h (a partition's digits),
 * from the top of a 64-bit word: a home in a table of 2^(64 - sh) slots is
 * hash_frac(h, pb) >> sh */
template <typename K> __host__ __device__ inline uint64_t hash_frac(K h, int pb)
{
    return sizeof(K) == 4 ? (uint64_t)(brev32((uint32_t)h) << pb) << 32 : brev64((uint64_t)h) << pb;
}

/* h[i] = hash_key(k[i]): hashed keys for a sort or a partition
 * that cannot hash as it reads (CUB's) */
template <typename K>
__global__ void __launch_bounds__(256) hash_keys_kernel(const K *__restrict__ k, K *__restrict__ h, uint64_t n)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        h[i] = hash_key(k[i]);
}

} // namespace gjh

#endif
