/* GPU-scope acquire loads and release stores: a flag or counter published
 * by one thread and read by threads of other blocks (the group-bys' global
 * table, the bench probes' rings). */
#ifndef GJ_OPERATORS_SYNC_CUH
#define GJ_OPERATORS_SYNC_CUH

#include <cstdint>

namespace gjsync {

/* Load with acquire semantics (GPU scope): reads after it see what the
 * publisher wrote before its release store (st_release). */
__device__ __forceinline__ uint32_t ld_acquire(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/* Store with release semantics (GPU scope): what this thread wrote before
 * is visible to whoever acquires the value. Cheaper than __threadfence()
 * (a sequentially consistent fence) and an exchange: ncu put 14% of a cut
 * partition's flush stalls on that fence (bench/RESULTS.md). */
__device__ __forceinline__ void st_release(uint32_t *p, uint32_t v)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

} // namespace gjsync

#endif
