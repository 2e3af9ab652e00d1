/* Bijective 32- and 64-bit mixers (murmur3's finalisers) and their inverses,
 * shared by the operators that partition or probe on hashed keys: equal keys
 * hash equal and distinct keys stay distinct, so a join or group-by may run
 * on hashed keys and unhash only what it outputs. */
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

/* Either width, for a key type of 4 or 8 bytes (unsigned long long included). */
template <typename K> __host__ __device__ inline K hash_key(K k)
{
    return sizeof(K) == 4 ? (K)fmix((uint32_t)k) : (K)fmix((uint64_t)k);
}
template <typename K> __host__ __device__ inline K unhash_key(K k)
{
    return sizeof(K) == 4 ? (K)unfmix((uint32_t)k) : (K)unfmix((uint64_t)k);
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
