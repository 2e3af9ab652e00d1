/* Group-by kernels (device code only; launches live in groupby_api.cu).
 *
 * Every implementation ends in the same place: a dense group id per row (or
 * per sorted position) and accumulators updated by (atomic) combines. The
 * aggregate list is runtime data (GbSpec); keys and group-id widths are
 * template parameters. Accumulators: SUM of ints -> int64, SUM of floats ->
 * double, MIN/MAX native width and type, COUNT -> uint64; AVG is a SUM plus
 * a hidden COUNT, divided at the end. */
#ifndef GJ_OPERATORS_GROUPBY_KERNELS_CUH
#define GJ_OPERATORS_GROUPBY_KERNELS_CUH

#include <cub/block/block_scan.cuh>
#include <climits>
#include <cstdint>
#include <cuda_runtime.h>

#include "operators/hash.cuh"
#include "operators/shapes.h"
#include "operators/sync.cuh"

namespace gjgb {

enum { OP_ADD_I = 0, OP_ADD_F, OP_MIN, OP_MAX, OP_CNT };
#define GB_MAX_ACC 10
#define GB_EMPTY 0xFFFFFFFFu
#define GB_PENDING 0xFFFFFFFEu
#define GB_OVF 0xFFFFFFFDu

struct GbSpec {
    int n;                          /* accumulators                          */
    int op[GB_MAX_ACC];
    int width[GB_MAX_ACC];          /* accumulator width                     */
    int isf[GB_MAX_ACC];            /* MIN/MAX over floats                   */
    int pw[GB_MAX_ACC];             /* source payload width (0: none)        */
    const void *src[GB_MAX_ACC];    /* source column (device), NULL for CNT  */
    int sshift[GB_MAX_ACC];         /* row i's value at src[i << sshift]: 1 for
                                       a 4-byte half of a packed 8-byte pair */
    void *dst[GB_MAX_ACC];          /* dense accumulators (device)           */
    unsigned soff[GB_MAX_ACC];      /* shared-memory offset (bytes)          */
};

/* ---- hashing: operators/hash.cuh ---- */
using gjh::fmix;

/* ---- values and combines on 64-bit patterns ---- */
__device__ __forceinline__ uint64_t load_raw(const void *p, int w, uint64_t i)
{
    return w == 4 ? (uint64_t)((const uint32_t *)p)[i] : ((const uint64_t *)p)[i];
}

/* Source bits -> accumulator domain. */
__device__ __forceinline__ uint64_t to_acc(const GbSpec &s, int j, uint64_t raw)
{
    switch (s.op[j]) {
    case OP_ADD_I:
        return s.pw[j] == 4 ? (uint64_t)(int64_t)(int32_t)(uint32_t)raw : raw;
    case OP_ADD_F: {
        double d = s.pw[j] == 4 ? (double)__uint_as_float((uint32_t)raw) : __longlong_as_double((long long)raw);
        return (uint64_t)__double_as_longlong(d);
    }
    case OP_CNT: return 1;
    default: return raw;
    }
}

__device__ __forceinline__ uint64_t identity(const GbSpec &s, int j)
{
    int w = s.width[j];
    switch (s.op[j]) {
    case OP_MIN:
        if (s.isf[j]) return w == 4 ? 0x7f800000ull : 0x7ff0000000000000ull;
        return w == 4 ? 0x7fffffffull : 0x7fffffffffffffffull;
    case OP_MAX:
        if (s.isf[j]) return w == 4 ? 0xff800000ull : 0xfff0000000000000ull;
        return w == 4 ? 0x80000000ull : 0x8000000000000000ull;
    default: return 0;
    }
}

__device__ __forceinline__ uint64_t combine(const GbSpec &s, int j, uint64_t a, uint64_t b)
{
    int op = s.op[j];
    if (op == OP_ADD_I || op == OP_CNT) return a + b;
    if (op == OP_ADD_F)
        return (uint64_t)__double_as_longlong(__longlong_as_double((long long)a) + __longlong_as_double((long long)b));
    bool mn = op == OP_MIN, lt;
    if (s.width[j] == 4) {
        if (s.isf[j]) lt = __uint_as_float((uint32_t)b) < __uint_as_float((uint32_t)a);
        else lt = (int32_t)(uint32_t)b < (int32_t)(uint32_t)a;
        if (!mn) lt = s.isf[j] ? __uint_as_float((uint32_t)b) > __uint_as_float((uint32_t)a)
                               : (int32_t)(uint32_t)b > (int32_t)(uint32_t)a;
    } else {
        if (s.isf[j]) lt = mn ? __longlong_as_double((long long)b) < __longlong_as_double((long long)a)
                              : __longlong_as_double((long long)b) > __longlong_as_double((long long)a);
        else lt = mn ? (int64_t)b < (int64_t)a : (int64_t)b > (int64_t)a;
    }
    return lt ? b : a;
}

/* A 64-bit add into shared memory as two 32-bit adds: sm_90 has no 64-bit
 * shared-memory add, and atomicAdd on an unsigned long long there compiles
 * to a compare-and-swap loop (ATOMS.CAST.SPIN.64) that retries under
 * contention. The low word takes the low half; the high word takes the
 * high half plus this addition's own carry, so the sum of every addition is
 * exact modulo 2^64 (counts and non-negative 32-bit values: one add, the
 * second only on a carry). Read only after a barrier. */
__device__ __forceinline__ void add64_shared(void *p, uint64_t v)
{
    unsigned *w = (unsigned *)p;
    const unsigned lo = (unsigned)v, hi = (unsigned)(v >> 32);
    const unsigned old = atomicAdd(w, lo);
    const unsigned inc = hi + (old + lo < old ? 1u : 0u);
    if (inc) atomicAdd(w + 1, inc);
}

/* Atomic combine into p (generic address: global or shared). */
__device__ __forceinline__ void atomic_combine(const GbSpec &s, int j, void *p, uint64_t v)
{
    int op = s.op[j];
    if (op == OP_ADD_I || op == OP_CNT) {
        if (__isShared(p)) add64_shared(p, v);
        else atomicAdd((unsigned long long *)p, (unsigned long long)v);
        return;
    }
    if (op == OP_ADD_F) { atomicAdd((double *)p, __longlong_as_double((long long)v)); return; }
    bool mn = op == OP_MIN;
    if (s.width[j] == 4) {
        uint32_t u = (uint32_t)v;
        if (s.isf[j]) {
            bool neg = u >> 31;
            /* non-negative floats order like signed ints, negative ones
             * reversed like unsigned ints (identity: +-inf) */
            if (mn) { if (!neg) atomicMin((int *)p, (int)u); else atomicMax((unsigned *)p, u); }
            else    { if (!neg) atomicMax((int *)p, (int)u); else atomicMin((unsigned *)p, u); }
        } else {
            if (mn) atomicMin((int *)p, (int)u); else atomicMax((int *)p, (int)u);
        }
    } else {
        if (s.isf[j]) {
            bool neg = v >> 63;
            if (mn) { if (!neg) atomicMin((long long *)p, (long long)v); else atomicMax((unsigned long long *)p, (unsigned long long)v); }
            else    { if (!neg) atomicMax((long long *)p, (long long)v); else atomicMin((unsigned long long *)p, (unsigned long long)v); }
        } else {
            if (mn) atomicMin((long long *)p, (long long)v); else atomicMax((long long *)p, (long long)v);
        }
    }
}

__device__ __forceinline__ void store_bits(void *p, int w, uint64_t v)
{
    if (w == 4) *(uint32_t *)p = (uint32_t)v; else *(uint64_t *)p = v;
}
__device__ __forceinline__ uint64_t load_bits(const void *p, int w)
{
    return w == 4 ? (uint64_t) * (const uint32_t *)p : *(const uint64_t *)p;
}
__device__ __forceinline__ void *elem(void *base, int w, uint64_t i) { return (char *)base + i * (uint64_t)w; }

/* Value of accumulator j for input row `row` (CNT: 1). */
__device__ __forceinline__ uint64_t row_val(const GbSpec &s, int j, uint64_t row)
{
    if (s.op[j] == OP_CNT) return 1;
    return to_acc(s, j, load_raw(s.src[j], s.pw[j], row << s.sshift[j]));
}

/* Value of accumulator j from the raw source bits of one row (CNT: 1). */
__device__ __forceinline__ uint64_t row_val_raw(const GbSpec &s, int j, uint64_t raw)
{
    return s.op[j] == OP_CNT ? 1 : to_acc(s, j, raw);
}

/* ---- global hash table: key -> 32-bit value, claim-then-publish ----
 * vals[] starts at GB_EMPTY; keys[] are written before the value is
 * published (a release store), readers spin on GB_PENDING. Entries are
 * never removed, so a published value is final. */
template <typename K> struct GTable {
    K *keys;
    uint32_t *vals;
    uint64_t mask;
    uint32_t *count;   /* values handed out                                 */
    uint32_t limit;    /* more fresh keys than this: set *overflow           */
    int *overflow;
};

/* acquire loads and release stores: operators/sync.cuh */
using gjsync::ld_acquire;
using gjsync::st_release;

/* Insert-or-find. MakeVal(fresh) is called once by the inserting thread
 * and returns the value to publish. Returns GB_EMPTY on overflow. */
template <typename K, typename MakeVal>
__device__ __forceinline__ uint32_t gt_insert(const GTable<K> &t, K key, MakeVal make, bool &fresh)
{
    fresh = false;
    uint64_t s = fmix((uint64_t)key) & t.mask;
    const K sent = (K)~(K)0; /* keys[] is filled with this before a run */
    for (uint64_t probe = 0; probe <= t.mask; probe++) {
        /* fast path: plain (L1-cacheable) loads. keys[] goes from the
         * sentinel to its key once, before the value is published, so a
         * published value with a non-sentinel key read is final; a stale
         * sentinel read takes the slow path. */
        uint32_t v = t.vals[s];
        if (v < GB_OVF) {
            K k2 = t.keys[s];
            if (k2 != sent) {
                if (k2 == key) return v;
                s = (s + 1) & t.mask;
                continue;
            }
        }
        if (v == GB_EMPTY) {
            /* No look at *overflow first: make() refuses ids past the
             * limit anyway, and that dependent load of a flag was 21% of a
             * cut partition's flush stalls. */
            v = atomicCAS(&t.vals[s], GB_EMPTY, GB_PENDING);
            if (v == GB_EMPTY) {
                ((volatile K *)t.keys)[s] = key;
                uint32_t nv = make();
                if (nv == GB_EMPTY) { /* out of ids: tombstone, never leave PENDING */
                    st_release(&t.vals[s], GB_OVF);
                    *(volatile int *)t.overflow = 1;
                    return GB_EMPTY;
                }
                st_release(&t.vals[s], nv);
                fresh = true;
                return nv;
            }
        }
        if (v != GB_EMPTY) v = ld_acquire(&t.vals[s]);
        while (v == GB_PENDING) v = ld_acquire(&t.vals[s]);
        if (v == GB_OVF) return GB_EMPTY;
        if (((volatile K *)t.keys)[s] == key) return v; /* ordered after the acquire */
        s = (s + 1) & t.mask;
    }
    *(volatile int *)t.overflow = 1;
    return GB_EMPTY;
}

} // namespace gjgb

/* ======================================================================== */
/* Kernels                                                                  */
/* ======================================================================== */
namespace gjgb {

/* Policies: (block threads). Throughputs measured on the H200 are recorded in
 * bench/RESULTS.md (## Group-by); see the comment at each dispatch site. */
struct PolicyStream { enum { THREADS = 256 }; };          /* streaming passes         */
struct PolicyChunk  { enum { THREADS = 512 }; };          /* PGB per-chunk tables     */
struct PolicySorted { enum { THREADS = 256, ITEMS = 8 }; };/* sorted-run reduction    */
enum { INORDER_TILE = GJ_SGB_INORDER_TILE }; /* k_inorder_*'s tile: */
static_assert(INORDER_TILE == 32 * PolicySorted::ITEMS, "a tile is a warp's rows");

__global__ void __launch_bounds__(PolicyStream::THREADS) k_init_acc(GbSpec s, uint64_t groups)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < groups; i += (uint64_t)gridDim.x * blockDim.x)
        for (int j = 0; j < s.n; j++) store_bits(elem(s.dst[j], s.width[j], i), s.width[j], identity(s, j));
}

__global__ void __launch_bounds__(PolicyStream::THREADS) k_iota(uint32_t *o, uint64_t n)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        o[i] = (uint32_t)i;
}

/* ---- HGB stage 1 (Algorithm 1, compute_group_id): insert each key, a fresh
 * key takes the next dense id; every row writes its group id. Differs from
 * the paper in one point: the table stores the group id itself (published
 * after the atomicAdd), so stage 2 reads gid[i] directly instead of
 * gid[groupIdLoc[i]], saving a random gather. G is the narrowest type the
 * expected group count fits (uint8/16/32): fewer bytes written and read. */
template <typename K, typename G>
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_hgb_assign(const K *key, uint64_t n, GTable<K> t, G *gid, K *out_key)
{
    /* Per-block cache of the global table in shared memory (key -> group
     * id, 2 GJ_HGB_CACHE slots of 4-byte keys or GJ_HGB_CACHE of 8 bytes,
     * filled up to half: operators/shapes.h): with few groups every lookup
     * after the first few is an on-chip hit instead of an L2 round trip
     * (plain global loads cannot be trusted to see a slot's key in L1). */
    constexpr int SC = sizeof(K) == 4 ? 2 * GJ_HGB_CACHE : GJ_HGB_CACHE; /* 32 KB / 24 KB */
    __shared__ K ckey[SC];
    __shared__ uint32_t cval[SC];
    __shared__ uint32_t ccount;
    for (int i = threadIdx.x; i < SC; i += blockDim.x) cval[i] = GB_EMPTY;
    if (threadIdx.x == 0) ccount = 0;
    __syncthreads();
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        K k = key[i];
        uint32_t cs = (uint32_t)((fmix((uint64_t)k) >> 20) & (SC - 1)), g = GB_EMPTY;
        for (;;) { /* cache probe */
            uint32_t v = ((volatile uint32_t *)cval)[cs];
            if (v == GB_EMPTY) break;
            if (v != GB_PENDING && ((volatile K *)ckey)[cs] == k) { g = v; break; }
            if (v == GB_PENDING) continue;
            cs = (cs + 1) & (SC - 1);
        }
        if (g == GB_EMPTY) {
            bool fresh;
            g = gt_insert(t, k, [&]() -> uint32_t {
                uint32_t x = atomicAdd(t.count, 1u);
                return x < t.limit ? x : GB_EMPTY;
            }, fresh);
            if (g == GB_EMPTY) return; /* overflow: the host retries larger */
            if (fresh) out_key[g] = k;
            /* remember it (cs is the empty slot the probe stopped at) */
            if (*(volatile uint32_t *)&ccount < SC / 2 && atomicCAS(&cval[cs], GB_EMPTY, GB_PENDING) == GB_EMPTY) {
                atomicAdd(&ccount, 1u);
                ((volatile K *)ckey)[cs] = k;
                __threadfence_block();
                atomicExch(&cval[cs], g);
            }
        }
        gid[i] = (G)g;
    }
}

/* Skew in a global aggregate: a hot group's rows send their atomics to one
 * address, which the L2 applies one after another (HGB, H200, 2^26 rows,
 * 2^20 groups, max,max: stage 2 1.39 ms uniform, 24.0 at Zipf 1.5;
 * bench/RESULTS.md session 34). gb_fold: accumulator j's values combined
 * across the warp (the rows outside the group giving the identity), for
 * one lane's one atomic; every lane of the warp calls it. */
__device__ __forceinline__ uint64_t gb_fold(const GbSpec &s, int j, uint64_t v)
{
#pragma unroll
    for (int o = 16; o; o >>= 1) v = combine(s, j, v, __shfl_xor_sync(~0u, v, o));
    return v;
}

/* ---- HGB stage 2 (compute_agg). R > 0: every block aggregates into R
 * copies of the dense arrays in shared memory (copy = lane % R, so lanes of
 * one warp hitting one group do not collide), then flushes them with one
 * global atomic per touched (group, accumulator). R == 0: global atomics. */
template <typename G>
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_agg_gid(GbSpec s, const G *gid, uint64_t n, uint32_t groups, int R, bool fold)
{
    extern __shared__ __align__(16) unsigned char smem[];
    if (R > 0) {
        for (int j = 0; j < s.n; j++)
            for (uint32_t e = threadIdx.x; e < groups * (uint32_t)R; e += blockDim.x)
                store_bits(smem + s.soff[j] + (uint64_t)e * s.width[j], s.width[j], identity(s, j));
        __syncthreads();
    }
    int copy = R > 0 ? (threadIdx.x & (R - 1)) : 0;
    if (R > 0) { /* separate loops: the compiler sees shared addresses here */
        for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
            uint32_t g = gid[i];
            for (int j = 0; j < s.n; j++)
                atomic_combine(s, j, smem + s.soff[j] + ((uint64_t)g * R + copy) * s.width[j], row_val(s, j, i));
        }
    } else { /* a warp's rows in step (blockDim a multiple of 32), for gb_fold */
        const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
        for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i - (threadIdx.x & 31) < n; i += stride) {
            const bool live = i < n;
            const uint32_t g = live ? (uint32_t)gid[i] : GB_EMPTY;
            bool done = !live;
            /* up to GJ_GB_FOLD_TRIES groups a warp, each held by a pair of
             * neighbouring lanes (a hot group's lanes pair up at any lane,
             * where lane 0 holds it only as often as its share) */
            for (int t = 0; fold && t < GJ_GB_FOLD_TRIES; t++) {
                const uint32_t o = __shfl_xor_sync(~0u, g, 1);
                const unsigned cand = __ballot_sync(~0u, !done && g == o);
                if (!cand) break;
                const int lead = __ffs(cand) - 1;
                const uint32_t c = __shfl_sync(~0u, g, lead);
                const bool in = !done && g == c;
                if (__popc(__ballot_sync(~0u, in)) < GJ_GB_FOLD_MIN) break;
                for (int j = 0; j < s.n; j++) {
                    const uint64_t v = gb_fold(s, j, in ? row_val(s, j, i) : identity(s, j));
                    if ((int)(threadIdx.x & 31) == lead) atomic_combine(s, j, elem(s.dst[j], s.width[j], c), v);
                }
                done = done || in;
            }
            if (!done)
                for (int j = 0; j < s.n; j++) atomic_combine(s, j, elem(s.dst[j], s.width[j], g), row_val(s, j, i));
        }
    }
    if (R > 0) {
        __syncthreads();
        for (uint32_t g = threadIdx.x; g < groups; g += blockDim.x)
            for (int j = 0; j < s.n; j++) {
                uint64_t id = identity(s, j), a = id;
                for (int r = 0; r < R; r++)
                    a = combine(s, j, a, load_bits(smem + s.soff[j] + ((uint64_t)g * R + r) * s.width[j], s.width[j]));
                if (a != id) atomic_combine(s, j, elem(s.dst[j], s.width[j], g), a);
            }
    }
}

/* ---- HGB one pass, for g small enough that a block's table of (key,
 * aggregates) fits in shared memory. A deviation from Algorithm 1 of paper
 * 000 (which finds dense group ids in a global table first, then aggregates
 * by id in shared memory): here each block aggregates its rows into a
 * shared-memory table keyed by the key itself (open addressing, atomicCAS
 * on keys, shared atomics on the slots), then merges its table into a
 * global table of g entries (dense output positions). The input is read
 * once and nothing is written per row. For few groups every slot has R
 * copies (copy = lane % R) so lanes of a warp hitting one group do not
 * serialise on one address. A block that sees more than `limit` distinct
 * keys (the group hint was too small) sets the overflow flag; the host then
 * runs Algorithm 1. Groups up to 2^pbits tables' worth: one launch per
 * part, each reading the whole input and taking only the keys whose home
 * (over a table 2^pbits times larger) lies in its part.
 * NARROW: every payload read is 4 bytes wide and at most two accumulators
 * (max,max; sum; avg = sum + count ...): 32-bit registers, the next tile
 * loaded while this one aggregates, and the combine chosen once per tile
 * instead of per row. Else a generic loop (any widths, up to 10
 * accumulators). Measured on the H200, 2026-11-22: bench/RESULTS.md. */
struct PolicyOnePass { enum { THREADS = 1024, ITEMS = 4 }; };

/* At most 2^HGB_MAX_PBITS passes. Each reads the whole input and merges
 * every block's table, so 4 passes (2^15 groups of 4-byte keys) were only
 * level with PGB-TR at 2^28 rows and 35% slower at 2^26; 2 passes (2^14)
 * were twice as fast as PGB-TR (H200, bench/RESULTS.md, session 5). */
enum { HGB_MAX_PBITS = GJ_HGB_MAX_PBITS };
/* keys sampled (evenly spaced) for the range that decides HGB's dense pass:
 * with every key read, 2^14 groups over 2^28 rows took 1.42-1.46 ms, with
 * the sample 1.09-1.12 (H200, bench/RESULTS.md, session 7) */
enum { HGB_RANGE_SAMPLES = 1 << 16 };

struct OnePassArgs {
    uint64_t n;
    unsigned ts;      /* shared table slots (power of 2); slot ts: the key
                         equal to the empty marker                      */
    int pbits;        /* 2^pbits passes over the input, each for the keys
                         whose home over ts << pbits slots lies in its
                         part (g up to 2^pbits tables' worth)            */
    unsigned pass;    /* this launch's part                              */
    uint32_t limit;   /* distinct keys a block may hold                  */
    int rlog;         /* log2 of the copies R of every aggregate slot    */
    int vec;          /* every column 16-byte aligned: vector loads      */
    int dense;        /* keys in [base, base + ts): home k - base        */
    uint64_t base;
    /* dense, pflag set (tables of GJ_HGB_PART_MERGE_TS slots and more):
     * each block's slots k - base, aggregates combined over the R copies,
     * go to its row of part[j] (gridDim.x x ts values of s.width[j] bytes)
     * with a flag (pflag, one byte a slot: the key was seen), for
     * k_hgb_dense_merge; not through the global table */
    void *part[GB_MAX_ACC];
    unsigned char *pflag;
};

__device__ __forceinline__ uint32_t cas_key(uint32_t *p, uint32_t cmp, uint32_t v) { return atomicCAS(p, cmp, v); }
__device__ __forceinline__ uint64_t cas_key(uint64_t *p, uint64_t cmp, uint64_t v)
{
    return atomicCAS((unsigned long long *)p, (unsigned long long)cmp, (unsigned long long)v);
}

/* 4 consecutive raw values of a w-byte column from row r0 (vector loads
 * when `full`; else scalar, 0 past n). Streaming loads: read once. */
__device__ __forceinline__ void op_load(const void *p, int w, uint64_t r0, uint64_t n, bool full, uint64_t v[4])
{
    if (full) {
        if (w == 4) {
            uint4 q = __ldcs((const uint4 *)((const uint32_t *)p + r0));
            v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
        } else {
            ulonglong2 a = __ldcs((const ulonglong2 *)((const uint64_t *)p + r0));
            ulonglong2 b = __ldcs((const ulonglong2 *)((const uint64_t *)p + r0 + 2));
            v[0] = a.x; v[1] = a.y; v[2] = b.x; v[3] = b.y;
        }
    } else {
#pragma unroll
        for (int i = 0; i < 4; i++) v[i] = r0 + i < n ? load_raw(p, w, r0 + i) : 0;
    }
}
__device__ __forceinline__ void op_load32(const void *p, uint64_t r0, uint64_t n, bool full, uint32_t v[4])
{
    if (full) {
        uint4 q = __ldcs((const uint4 *)((const uint32_t *)p + r0));
        v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
    } else {
#pragma unroll
        for (int i = 0; i < 4; i++) v[i] = r0 + i < n ? ((const uint32_t *)p)[r0 + i] : 0;
    }
}
template <typename K> __device__ __forceinline__ void op_loadk(const K *p, uint64_t r0, uint64_t n, bool full, K v[4])
{
    uint64_t t[4];
    op_load(p, sizeof(K), r0, n, full, t);
#pragma unroll
    for (int i = 0; i < 4; i++) v[i] = (K)t[i];
}

/* A key's home slot in a block's table of 2^(64 - sh) slots: Fibonacci
 * hashing (the multiply's top bits), as k_pgb_many's tables. Dense keys
 * land on distinct slots; a miss on the first probe costs a warp a pass of
 * the probe loop, whichever lane it was (measured in ncu, 2^11 groups with
 * murmur's mixer: 118 warp instructions a row, 3 passes of the loop per
 * row at 12 lanes). */
template <typename K> __device__ __forceinline__ uint32_t op_home(K k, int sh)
{
    return (uint32_t)(((uint64_t)k * 0x9E3779B97F4A7C15ull) >> sh);
}

/* Find or claim k's slot in a block's table from slot h on, when the home
 * slot held another key (GB_EMPTY: table full). */
template <typename K>
__device__ __forceinline__ uint32_t op_find_from(K *tkey, unsigned ts, K k, uint32_t h, uint32_t *count,
                                                 uint32_t limit, int *bovf)
{
    const K EMPTYK = (K)~(K)0;
    const unsigned mask = ts - 1;
    for (unsigned p = 0; p < ts; p++) {
        K cur = ((volatile K *)tkey)[h];
        if (cur == k) return h;
        if (cur == EMPTYK) {
            cur = cas_key(&tkey[h], EMPTYK, k);
            if (cur == EMPTYK) {
                if (atomicAdd(count, 1u) >= limit) *(volatile int *)bovf = 1;
                return h;
            }
            if (cur == k) return h;
        }
        h = (h + 1) & mask;
    }
    *(volatile int *)bovf = 1;
    return GB_EMPTY;
}

/* The NARROW paths (HGB's one pass, k_pgb_many): at most two accumulators,
 * every source 4 bytes wide. */
inline bool narrow_spec(const GbSpec &s)
{
    if (s.n > 2) return false;
    for (int j = 0; j < s.n; j++)
        if (s.src[j] && s.pw[j] != 4) return false;
    return true;
}

/* Combines chosen once per accumulator and tile of 4 rows, not per row
 * inside atomic_combine: count, integer sum (4- or 8-byte sources),
 * integer min and max (4 or 8 bytes); the rest (floats) through
 * atomic_combine. ncu of HGB's one pass with sum,max,count,avg (2^26 rows,
 * 2^10 groups) counted 52 warp instructions a row and accumulator in the
 * per-row switch (bench/RESULTS.md). */
enum { WK_CNT = 0, WK_ADDI, WK_MAXI4, WK_MINI4, WK_MAXI8, WK_MINI8, WK_GEN };
__device__ __forceinline__ int agg_kind(const GbSpec &s, int j)
{
    if (s.op[j] == OP_CNT) return WK_CNT;
    if (s.op[j] == OP_ADD_I) return WK_ADDI;
    if (s.isf[j] || (s.op[j] != OP_MAX && s.op[j] != OP_MIN)) return WK_GEN;
    if (s.width[j] == 4) return s.op[j] == OP_MAX ? WK_MAXI4 : WK_MINI4;
    return s.op[j] == OP_MAX ? WK_MAXI8 : WK_MINI8;
}
/* Slot sl's aggregate j in a one-pass table: its R copies combined. */
__device__ __forceinline__ uint64_t slot_value(const GbSpec &s, int j, const unsigned char *smem,
                                               const unsigned *soff, unsigned sl, unsigned R)
{
    uint64_t v = identity(s, j);
    for (unsigned r = 0; r < R; r++)
        v = combine(s, j, v, load_bits(smem + soff[j] + (uint64_t)(sl * R + r) * s.width[j], s.width[j]));
    return v;
}

/* Key k into the global table, which hands out its output row on first
 * sight (the key written, the aggregates at identity), and value(j)
 * combined into its aggregate j (a callable, so that no array of values
 * goes to local memory). false: the table or the output is full
 * (gt_insert flagged the overflow). */
template <typename K, typename Value>
__device__ __forceinline__ bool gt_enter(const GTable<K> &gt, const GbSpec &s, K k, Value value, K *out_key)
{
    bool fresh;
    const uint32_t g = gt_insert(gt, k, [&]() -> uint32_t {
        uint32_t x = atomicAdd(gt.count, 1u);
        if (x >= gt.limit) return GB_EMPTY;
        out_key[x] = k;
        for (int j = 0; j < s.n; j++) store_bits(elem(s.dst[j], s.width[j], x), s.width[j], identity(s, j));
        return x;
    }, fresh);
    if (g == GB_EMPTY) return false;
    for (int j = 0; j < s.n; j++) {
        const uint64_t v = value(j);
        if (v != identity(s, j)) atomic_combine(s, j, elem(s.dst[j], s.width[j], g), v);
    }
    return true;
}

/* Accumulator j (kind kd = agg_kind, shared array base) over 4 values at
 * slots sl (GB_EMPTY: none). PARTIAL false: the rows' raw source bits
 * (load_raw; V = uint32_t for the NARROW paths' 4-byte sources, which keeps
 * their registers); true: partial aggregates of the same accumulator
 * (k_pgb_merge), so counts and sums add the value itself. */
template <bool PARTIAL, typename V>
__device__ __forceinline__ void agg4(const GbSpec &s, int j, int kd, unsigned char *base, const uint32_t sl[4],
                                     const V v[4])
{
    switch (kd) {
    case WK_CNT:
#pragma unroll
        for (int i = 0; i < 4; i++) if (sl[i] != GB_EMPTY) add64_shared((unsigned long long *)base + sl[i], PARTIAL ? v[i] : 1);
        break;
    case WK_ADDI: {
        const bool w4 = !PARTIAL && s.pw[j] == 4;
#pragma unroll
        for (int i = 0; i < 4; i++)
            if (sl[i] != GB_EMPTY)
                add64_shared((unsigned long long *)base + sl[i], w4 ? (uint64_t)(int64_t)(int32_t)(uint32_t)v[i] : v[i]);
        break;
    }
    case WK_MAXI4:
#pragma unroll
        for (int i = 0; i < 4; i++) if (sl[i] != GB_EMPTY) atomicMax((int *)base + sl[i], (int)(uint32_t)v[i]);
        break;
    case WK_MINI4:
#pragma unroll
        for (int i = 0; i < 4; i++) if (sl[i] != GB_EMPTY) atomicMin((int *)base + sl[i], (int)(uint32_t)v[i]);
        break;
    case WK_MAXI8:
#pragma unroll
        for (int i = 0; i < 4; i++) if (sl[i] != GB_EMPTY) atomicMax((long long *)base + sl[i], (long long)v[i]);
        break;
    case WK_MINI8:
#pragma unroll
        for (int i = 0; i < 4; i++) if (sl[i] != GB_EMPTY) atomicMin((long long *)base + sl[i], (long long)v[i]);
        break;
    default:
#pragma unroll
        for (int i = 0; i < 4; i++) {
            if (sl[i] == GB_EMPTY || (PARTIAL && v[i] == identity(s, j))) continue;
            atomic_combine(s, j, base + (uint64_t)sl[i] * s.width[j], PARTIAL ? v[i] : row_val_raw(s, j, v[i]));
        }
    }
}

/* KS: the key as the block table stores it: K, or for dense 8-byte keys
 * (a.dense) a 4-byte offset k - (a.base - 2^31), so that a table of twice
 * the slots fits the SM; keys from 2^31 below the sample's smallest to
 * 2^31 - 2 above it have one (a key that has none overflows the block, and
 * the caller runs Algorithm 1). */
template <typename K, bool NARROW, typename KS = K>
__global__ void __launch_bounds__(PolicyOnePass::THREADS)
k_hgb_onepass(const K *key, GbSpec s, OnePassArgs a, GTable<K> gt, K *out_key)
{
    static_assert(sizeof(KS) == sizeof(K) || sizeof(KS) == 4, "a table key: the key or a 4-byte offset");
    constexpr bool OFF = sizeof(KS) != sizeof(K);
    constexpr int IT = PolicyOnePass::ITEMS;
    static_assert(IT == 4, "op_load loads 4 items");
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned soff[GB_MAX_ACC];
    __shared__ uint32_t count;
    __shared__ int bovf, sent_used;
    const K EMPTYK = (K)~(K)0;
    const KS EMPTYS = (KS)~(KS)0;
    const uint64_t kbias = a.base - (1ull << 31); /* OFF: a key's offset is k - kbias */
    const unsigned TS = a.ts, R = 1u << a.rlog, copy = threadIdx.x & (R - 1);
    const unsigned nslots = (TS + 1) * R; /* aggregate elements per accumulator */
    KS *tkey = (KS *)smem;
    if (threadIdx.x == 0) {
        unsigned off = ((TS + 1) * (unsigned)sizeof(KS) + 15) & ~15u;
        for (int j = 0; j < s.n; j++) {
            soff[j] = off;
            off += (nslots * (unsigned)s.width[j] + 15) & ~15u;
        }
        count = 0;
        bovf = 0;
        sent_used = 0;
    }
    for (unsigned i = threadIdx.x; i <= TS; i += blockDim.x) tkey[i] = EMPTYS;
    __syncthreads();
    for (int j = 0; j < s.n; j++) {
        uint64_t id = identity(s, j);
        for (unsigned i = threadIdx.x; i < nslots; i += blockDim.x) store_bits(smem + soff[j] + i * s.width[j], s.width[j], id);
    }
    __syncthreads();

    const uint64_t tile = (uint64_t)blockDim.x * IT, stride = (uint64_t)gridDim.x * tile;
    const uint64_t t0 = (uint64_t)threadIdx.x * IT;
    unsigned iter = 0;
    /* a block stops at its own overflow, and every 16 tiles looks whether
     * another block overflowed; a warp stops as one (the __syncwarp after
     * the probes needs every lane) */
    auto stop = [&]() {
        int f = *(volatile int *)&bovf;
        if ((iter++ & 15) == 15) f |= *(volatile int *)gt.overflow;
        return __any_sync(0xffffffffu, f);
    };
    /* The rows' slots: every row's home slot first (four independent
     * shared loads), then the probe loop for the rows whose home held
     * another key or was empty. The key equal to the empty marker has
     * slot TS. Homes are taken over TS << pbits slots: their top pbits
     * name the pass that takes the key (the other passes skip its row).
     * Dense (the keys' sampled range fits the table): a key in
     * [base, base + TS) has home k - base, a slot of its own, so no
     * probes, and every slot may fill; a key outside (the sample missed
     * it) takes its hashed home and probes, which stays correct. */
    const int lts = 31 - __clz((int)TS), sh = 64 - lts - a.pbits;
    auto finds = [&](const K k[IT], uint64_t r0, uint32_t sl[IT]) {
        uint32_t h[IT];
        bool skip[IT];
        KS ks[IT];
#pragma unroll
        for (int i = 0; i < IT; i++) {
            h[i] = a.dense && (uint64_t)k[i] - a.base < TS ? (uint32_t)((uint64_t)k[i] - a.base)
                                                           : op_home(k[i], sh);
            skip[i] = r0 + i >= a.n || (a.pbits && (k[i] == EMPTYK ? a.pass != 0 : h[i] >> lts != a.pass));
            ks[i] = OFF ? (KS)((uint64_t)k[i] - kbias) : (KS)k[i];
            if (OFF && !skip[i] && k[i] != EMPTYK && (uint64_t)k[i] - kbias >= (uint64_t)EMPTYS) {
                *(volatile int *)&bovf = 1; /* no 4-byte offset: Algorithm 1 takes over */
                skip[i] = true;
            }
            h[i] &= TS - 1;
            sl[i] = GB_EMPTY;
            if (!skip[i] && k[i] != EMPTYK && ((volatile KS *)tkey)[h[i]] == ks[i]) sl[i] = h[i];
        }
#pragma unroll
        for (int i = 0; i < IT; i++)
            if (sl[i] == GB_EMPTY && !skip[i]) {
                if (k[i] == EMPTYK) {
                    *(volatile int *)&sent_used = 1;
                    sl[i] = TS;
                } else
                    sl[i] = op_find_from(tkey, TS, ks[i], h[i], &count, a.limit, &bovf);
            }
#pragma unroll
        for (int i = 0; i < IT; i++)
            if (sl[i] != GB_EMPTY) sl[i] = (sl[i] << a.rlog) | copy;
    };
    if (NARROW) {
        const int n0 = s.n, kd0 = n0 > 0 ? agg_kind(s, 0) : 0, kd1 = n0 > 1 ? agg_kind(s, 1) : 0;
        const void *src0 = n0 > 0 ? s.src[0] : NULL, *src1 = n0 > 1 ? s.src[1] : NULL;
        K kc[IT];
        uint32_t ac[IT] = {0, 0, 0, 0}, bc[IT] = {0, 0, 0, 0};
        uint64_t base = blockIdx.x * tile;
        if (base < a.n) {
            bool full = a.vec && base + tile <= a.n;
            op_loadk(key, base + t0, a.n, full, kc);
            if (src0) op_load32(src0, base + t0, a.n, full, ac);
            if (src1) op_load32(src1, base + t0, a.n, full, bc);
        }
        for (; base < a.n; base += stride) {
            if (stop()) break; /* no barrier inside */
            /* next tile in flight while this one aggregates */
            const uint64_t nb = base + stride;
            K kn[IT];
            uint32_t an[IT] = {0, 0, 0, 0}, bn[IT] = {0, 0, 0, 0};
            if (nb < a.n) {
                bool full = a.vec && nb + tile <= a.n;
                op_loadk(key, nb + t0, a.n, full, kn);
                if (src0) op_load32(src0, nb + t0, a.n, full, an);
                if (src1) op_load32(src1, nb + t0, a.n, full, bn);
            }
            uint32_t sl[IT];
            finds(kc, base + t0, sl);
            __syncwarp(); /* probe lengths differ by lane: combine as one warp */
            if (n0 > 0) agg4<false>(s, 0, kd0, smem + soff[0], sl, ac);
            if (n0 > 1) agg4<false>(s, 1, kd1, smem + soff[1], sl, bc);
#pragma unroll
            for (int i = 0; i < IT; i++) { kc[i] = kn[i]; ac[i] = an[i]; bc[i] = bn[i]; }
        }
    } else {
        for (uint64_t base = blockIdx.x * tile; base < a.n; base += stride) {
            if (stop()) break;
            const uint64_t r0 = base + t0;
            const bool full = a.vec && base + tile <= a.n;
            uint64_t kr[IT];
            K k[IT];
            op_load(key, sizeof(K), r0, a.n, full, kr);
#pragma unroll
            for (int i = 0; i < IT; i++) k[i] = (K)kr[i];
            uint32_t sl[IT];
            finds(k, r0, sl);
            __syncwarp();
            for (int j = 0; j < s.n; j++) {
                uint64_t v[IT] = {0, 0, 0, 0};
                if (s.src[j]) op_load(s.src[j], s.pw[j], r0, a.n, full, v);
                agg4<false>(s, j, agg_kind(s, j), smem + soff[j], sl, v);
            }
        }
    }
    __syncthreads();
    if (bovf) {
        if (threadIdx.x == 0) *(volatile int *)gt.overflow = 1;
        return;
    }
    /* merge: each occupied slot (its R copies combined) into the global
     * table, which hands out dense output positions. Dense: a slot holding
     * its own key (k - base) goes to the block's row of the partials
     * instead (k_hgb_dense_merge combines the rows): every block's slot
     * holds the same key, and 132 blocks' atomics on each of 2^14 groups
     * cost 0.12 ms more than the rows (H200, bench/RESULTS.md, Group-by,
     * session 9) */
    for (unsigned sl = threadIdx.x; sl <= TS; sl += blockDim.x) {
        const KS kt = tkey[sl];
        K k = (K)kt;
        if (OFF) k = kt == EMPTYS ? EMPTYK : (K)(kbias + kt);
        if (a.pflag && sl < TS) {
            const bool own = k != EMPTYK && (uint64_t)k - a.base == sl;
            const uint64_t at = (uint64_t)blockIdx.x * TS + sl;
            a.pflag[at] = own;
            if (own) {
                for (int j = 0; j < s.n; j++)
                    store_bits(elem(a.part[j], s.width[j], at), s.width[j], slot_value(s, j, smem, soff, sl, R));
                continue;
            }
        }
        if (sl < TS ? k == EMPTYK : !sent_used) continue;
        if (!gt_enter(gt, s, k, [&](int j) { return slot_value(s, j, smem, soff, sl, R); }, out_key)) return;
    }
}

/* Dense HGB's merge: slot sl of every block's row of the partials (the
 * key base + sl where the block saw it) combined, the key entered into the
 * global table (which hands out its output row) and its aggregates stored.
 * A block takes 32 slots: each of its 8 warps combines every 8th row for
 * the 32 (a warp reads 32 adjacent slots of a row), then warp 0 combines
 * the 8 and enters the groups; only that lane writes its key's row. (One
 * thread a slot over all rows left 2^13-2^14 threads each walking 132
 * rows: slower than the atomics it replaced, at 8-byte keys.) */
template <typename K>
__global__ void __launch_bounds__(256)
k_hgb_dense_merge(GbSpec s, OnePassArgs a, unsigned blocks, GTable<K> gt, K *out_key)
{
    enum { W = 8 };
    __shared__ uint64_t part_v[W][GB_MAX_ACC][32];
    __shared__ unsigned char part_seen[W][32];
    const unsigned lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const uint64_t sl = (uint64_t)blockIdx.x * 32 + lane;
    bool seen = false;
    uint64_t v[GB_MAX_ACC];
    for (int j = 0; j < s.n; j++) v[j] = identity(s, j);
    if (sl < a.ts)
        for (unsigned b = wid; b < blocks; b += W) {
            const uint64_t at = (uint64_t)b * a.ts + sl;
            if (!a.pflag[at]) continue;
            seen = true;
            for (int j = 0; j < s.n; j++) v[j] = combine(s, j, v[j], load_bits(elem(a.part[j], s.width[j], at), s.width[j]));
        }
    part_seen[wid][lane] = seen;
    for (int j = 0; j < s.n; j++) part_v[wid][j][lane] = v[j];
    __syncthreads();
    if (wid != 0 || sl >= a.ts) return;
    for (int w = 1; w < W; w++) {
        if (!part_seen[w][lane]) continue;
        seen = true;
        for (int j = 0; j < s.n; j++) v[j] = combine(s, j, v[j], part_v[w][j][lane]);
    }
    if (seen) gt_enter(gt, s, (K)(a.base + sl), [&](int j) { return v[j]; }, out_key); /* overflow: Algorithm 1 follows */
}

/* ---- HASH-GLOBAL (cuDF, Sec. 3.2.1): the table maps key -> first row id;
 * aggregates go straight into sparse arrays of |R| entries by atomics. */
template <typename K>
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_hg_insert(const K *key, uint64_t n, GTable<K> t, GbSpec sparse)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        bool fresh;
        uint32_t pos = gt_insert(t, key[i], [&]() -> uint32_t { return (uint32_t)i; }, fresh);
        if (pos == GB_EMPTY) return;
        for (int j = 0; j < sparse.n; j++)
            atomic_combine(sparse, j, elem(sparse.dst[j], sparse.width[j], pos), row_val(sparse, j, i));
    }
}
/* Extract (key, pos) pairs from the table into dense order. */
template <typename K>
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_hg_extract(GTable<K> t, K *out_key, uint32_t *out_pos, uint32_t *count)
{
    for (uint64_t s = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; s <= t.mask; s += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t v = t.vals[s];
        if (v != GB_EMPTY) {
            uint32_t o = atomicAdd(count, 1u);
            out_key[o] = t.keys[s];
            out_pos[o] = v;
        }
    }
}
/* dst[j][o] = src[j][pos[o]] for every accumulator (width preserved). */
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_gather_acc(GbSpec from, GbSpec to, const uint32_t *pos, uint64_t m)
{
    for (uint64_t o = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; o < m; o += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t p = pos[o];
        for (int j = 0; j < to.n; j++)
            store_bits(elem(to.dst[j], to.width[j], o), to.width[j], load_bits(elem(from.dst[j], from.width[j], p), from.width[j]));
    }
}

/* ---- sort-based: from gid1 (group id + 1 a row, gjgb_group_ids), each
 * group's key and first position. */
template <typename K>
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_group_keys(const K *k, const uint32_t *gid1, uint64_t n, K *out_key, uint32_t *start)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        if (i == 0 || gid1[i] != gid1[i - 1]) {
            out_key[gid1[i] - 1] = k[i];
            if (start) start[gid1[i] - 1] = (uint32_t)i;
        }
}

/* SGB-DE-TR's dictionary (paper 000 Sec. 4.4): a hash table of the g
 * distinct keys, each with its code, the key's rank in key order (so that
 * sorting the codes sorts the keys). Linear probing from the key's
 * Fibonacci hash (gjh::hash_key); a slot holds the key and code + 1 (0:
 * empty, so every key value, 0 included, is a key), read with one 8- or
 * 16-byte load: one sector a probe, where a binary search of the sorted
 * keys took log2 g dependent loads (k_encode_search, GJ_SGB_ENCODE=search
 * for A/B runs). dict_slots: a power of two of at least 2g slots (load at
 * most 1/2). */
template <typename K> struct DictSlot;
template <> struct __align__(8) DictSlot<uint32_t> {
    uint32_t key, code1;
};
template <> struct __align__(16) DictSlot<uint64_t> {
    uint64_t key;
    uint32_t code1, pad;
};
__device__ __forceinline__ DictSlot<uint32_t> ld_slot(const DictSlot<uint32_t> *p)
{
    const uint2 v = __ldg((const uint2 *)p);
    return {v.x, v.y};
}
__device__ __forceinline__ DictSlot<uint64_t> ld_slot(const DictSlot<uint64_t> *p)
{
    const ulonglong2 v = __ldg((const ulonglong2 *)p);
    return {v.x, (uint32_t)v.y, (uint32_t)(v.y >> 32)};
}
static inline uint64_t dict_slots(uint32_t groups)
{
    uint64_t s = 2;
    while (s < 2ull * groups) s <<= 1;
    return s;
}

/* Each distinct key dict[i] (sorted, none repeated) claims a slot with code
 * i; the table zeroed before. */
template <typename K>
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_dict_build(const K *__restrict__ dict, uint32_t groups, DictSlot<K> *t, uint64_t mask)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < groups; i += (uint64_t)gridDim.x * blockDim.x) {
        const K k = dict[i];
        uint64_t h = (uint64_t)gjh::hash_key(k) & mask;
        while (atomicCAS(&t[h].code1, 0u, (uint32_t)i + 1) != 0) h = (h + 1) & mask;
        t[h].key = k;
    }
}

/* code[i] = the code of key[i], grid-stride; slot(h) reads slot h of the
 * table (global or shared memory). Every key is in the table (it holds
 * every group's key), so the search ends at its slot, before an empty one. */
template <typename K, typename Slot>
__device__ __forceinline__ void dict_encode_rows(const K *__restrict__ key, uint64_t n, uint64_t mask,
                                                 uint32_t *__restrict__ code, Slot slot)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const K k = key[i];
        uint64_t h = (uint64_t)gjh::hash_key(k) & mask;
        uint32_t c = 0;
        for (uint64_t probe = 0; probe <= mask; probe++, h = (h + 1) & mask) {
            const DictSlot<K> s = slot(h);
            if (!s.code1) break; /* not in the table: cannot happen */
            if (s.key == k) {
                c = s.code1 - 1;
                break;
            }
        }
        code[i] = c;
    }
}

template <typename K>
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_dict_encode(const K *__restrict__ key, uint64_t n, const DictSlot<K> *__restrict__ t, uint64_t mask,
              uint32_t *__restrict__ code)
{
    dict_encode_rows(key, n, mask, code, [t](uint64_t h) { return ld_slot(t + h); });
}

/* k_dict_encode with the table copied into each block's shared memory
 * first (at most DICT_SMEM bytes, two blocks of 1024 threads an SM): a
 * probe then costs a shared-memory load, not an L1 or L2 one. Persistent
 * grid. H100, 2026-11-27 (session 17, bench/s17_call5.sh), SGB-DE-TR at
 * 2^28 rows, max,max, against the global table: 4-byte keys 2^4..2^12
 * groups 0.2-1.0 ms faster (2^12: 15.87 against 16.53 ms); a 128 KiB
 * table (one block an SM) gained nothing (2^13: 16.66 against 16.68) and
 * lost with 8-byte keys (2^12: 30.47 against 30.27). */
enum { DICT_SMEM = 64 * 1024 };
template <typename K>
__global__ void __launch_bounds__(1024)
k_dict_encode_smem(const K *__restrict__ key, uint64_t n, const DictSlot<K> *__restrict__ t, uint64_t mask,
                   uint32_t *__restrict__ code)
{
    extern __shared__ __align__(16) unsigned char dict_sm[];
    DictSlot<K> *st = (DictSlot<K> *)dict_sm;
    for (uint64_t i = threadIdx.x; i <= mask; i += blockDim.x) st[i] = ld_slot(t + i);
    __syncthreads();
    dict_encode_rows(key, n, mask, code, [st](uint64_t h) { return st[h]; });
}

/* The same codes by a binary search of the sorted keys (no table). */
template <typename K>
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_encode_search(const K *key, uint64_t n, const K *dict, uint32_t groups, uint32_t *code)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        K k = key[i];
        uint32_t lo = 0, hi = groups; /* first dict[x] >= k */
        while (lo < hi) {
            uint32_t mid = (lo + hi) >> 1;
            if (dict[mid] < k) lo = mid + 1; else hi = mid;
        }
        code[i] = lo;
    }
}

/* Accumulator j of each lane's trailing run (group cur, GB_EMPTY: none)
 * combined across the warp by a segmented shuffle reduction (a group's
 * positions are contiguous, so its lanes are), then one atomic combine a
 * warp's run. Every lane of the warp calls it; comb(a, b) combines two
 * values of accumulator j. */
template <typename Comb>
__device__ __forceinline__ void flush_trailing(const GbSpec &s, int j, uint32_t cur, uint64_t acc, Comb comb)
{
    const int lane = threadIdx.x & 31;
    for (int off = 1; off < 32; off <<= 1) {
        uint32_t og = __shfl_down_sync(0xffffffffu, cur, off);
        uint64_t ov = __shfl_down_sync(0xffffffffu, acc, off);
        if (lane + off < 32 && og == cur && cur != GB_EMPTY) acc = comb(acc, ov);
    }
    uint32_t prev = __shfl_up_sync(0xffffffffu, cur, 1);
    if (cur != GB_EMPTY && (lane == 0 || prev != cur)) atomic_combine(s, j, elem(s.dst[j], s.width[j], cur), acc);
}

/* ---- rows in key order (workload sorted_keys): no sort and no group-id
 * array. Tiles of a warp's rows, ITEMS consecutive rows a lane, as
 * k_sorted_reduce's. k_inorder_heads counts each tile's heads (rows whose
 * key differs from the row before's) and sets *unsorted at a descent (in
 * the unsigned order the sorts use), each warp leaving at its next tile;
 * an inclusive sum of the counts (tile_incl) gives each tile the groups
 * before it. k_inorder_reduce counts its tile's heads again, so that every
 * row knows its group, writes each group's key, and reduces: a run that
 * opens and closes inside a lane is stored (init_acc ran, nobody else
 * touches the group), the others combined atomically as k_sorted_reduce
 * does. Keys read twice, payloads once; k_sorted_reduce's path reads and
 * writes 20 bytes a row more for 4-byte keys. Warps go their own ways (no
 * block barrier, no shared memory): tiles of a block's rows with a block
 * scan measured the same, within 5% (H200: bench/RESULTS.md, session 11). */
template <typename K>
__device__ __forceinline__ void inorder_keys(const K *k, uint64_t lo, uint64_t n, bool vec, K (&key)[PolicySorted::ITEMS],
                                             K &before)
{
    const int IT = PolicySorted::ITEMS;
    const bool full = vec && lo + IT <= n;
#pragma unroll
    for (int q = 0; q < IT; q += 4) op_loadk(k, lo + q, n, full, key + q);
    before = lo > 0 && lo < n ? k[lo - 1] : key[0];
}

template <typename K>
__global__ void __launch_bounds__(PolicySorted::THREADS)
k_inorder_heads(const K *k, uint64_t n, bool vec, uint32_t *tile_heads, int *unsorted)
{
    const int IT = PolicySorted::ITEMS, TILE = INORDER_TILE;
    const uint64_t tiles = (n + TILE - 1) / TILE, warps = (uint64_t)gridDim.x * (blockDim.x / 32);
    for (uint64_t t = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) / 32; t < tiles; t += warps) {
        if (__any_sync(0xffffffffu, *(volatile int *)unsorted)) return;
        const uint64_t lo = t * TILE + (uint64_t)(threadIdx.x & 31) * IT;
        uint32_t h = 0;
        bool desc = false;
        if (lo < n) {
            K key[IT], prev;
            inorder_keys(k, lo, n, vec, key, prev);
#pragma unroll
            for (int i = 0; i < IT; i++) {
                if (lo + i >= n) break;
                h += lo + i == 0 || key[i] != prev;
                desc |= key[i] < prev;
                prev = key[i];
            }
        }
        h = __reduce_add_sync(0xffffffffu, h);
        if (desc) *(volatile int *)unsorted = 1;
        if ((threadIdx.x & 31) == 0) tile_heads[t] = h;
    }
}

/* Accumulator j's raw values of a thread's rows [lo, hi) (vector loads
 * when full; run_sgb's columns are whole, sshift 0; COUNT reads nothing). */
__device__ __forceinline__ void inorder_load(const GbSpec &s, int j, uint64_t lo, uint64_t hi, bool full,
                                             uint64_t (&v)[PolicySorted::ITEMS])
{
    if (s.op[j] == OP_CNT) return;
#pragma unroll
    for (int q = 0; q < PolicySorted::ITEMS; q += 4) op_load(s.src[j], s.pw[j], lo + q, hi, full, v + q);
}

/* Accumulator j over a thread's rows [lo, hi) from their raw values v, the
 * rows' heads in mask, g the group of the row before lo: one running value
 * in a register, the combine of kind KD (agg_kind) chosen once a column
 * (generic combines per row: 70% of the SM's issue slots busy at 24-39% of
 * the memory bandwidth, ncu, H200). */
template <int KD>
__device__ __forceinline__ void inorder_column(const GbSpec &s, int j, uint64_t lo, uint64_t hi, unsigned mask,
                                               uint32_t g, const uint64_t (&v)[PolicySorted::ITEMS])
{
    const bool w4 = s.pw[j] == 4;
    auto val = [&](uint64_t raw) -> uint64_t {
        if (KD == WK_CNT) return 1;
        if (KD == WK_ADDI) return w4 ? (uint64_t)(int64_t)(int32_t)(uint32_t)raw : raw;
        if (KD == WK_GEN) return to_acc(s, j, raw);
        return raw;
    };
    auto comb = [&](uint64_t a, uint64_t x) -> uint64_t {
        if (KD == WK_CNT || KD == WK_ADDI) return a + x;
        if (KD == WK_MAXI4) return (uint32_t)max((int)(uint32_t)a, (int)(uint32_t)x);
        if (KD == WK_MINI4) return (uint32_t)min((int)(uint32_t)a, (int)(uint32_t)x);
        if (KD == WK_MAXI8) return (uint64_t)max((long long)a, (long long)x);
        if (KD == WK_MINI8) return (uint64_t)min((long long)a, (long long)x);
        return combine(s, j, a, x);
    };
    uint32_t cur = GB_EMPTY;
    bool own = false; /* cur's head is in this thread */
    uint64_t acc = 0;
#pragma unroll
    for (int i = 0; i < PolicySorted::ITEMS; i++) {
        if (lo + i >= hi) break;
        const uint64_t x = val(v[i]);
        if (mask >> i & 1) {
            if (cur != GB_EMPTY) {
                void *d = elem(s.dst[j], s.width[j], cur);
                if (own) store_bits(d, s.width[j], acc); else atomic_combine(s, j, d, acc);
            }
            cur = ++g;
            own = true;
            acc = x;
        } else if (cur == GB_EMPTY) {
            cur = g;
            acc = x;
        } else {
            acc = comb(acc, x);
        }
    }
    flush_trailing(s, j, cur, acc, comb);
}

/* Every accumulator over a lane's positions [lo, hi), their heads in mask,
 * g the group of the position before lo: values at the positions, or
 * (GATHER) from the lane's rows[i] (SGB-UR's sorted row ids). */
template <bool GATHER>
__device__ __forceinline__ void reduce_columns(const GbSpec &s, uint64_t lo, uint64_t hi, bool full, unsigned mask,
                                               uint32_t g, const uint32_t (&rows)[PolicySorted::ITEMS])
{
    const int IT = PolicySorted::ITEMS;
    for (int j = 0; j < s.n; j++) {
        uint64_t v[IT];
        if (!GATHER) {
            inorder_load(s, j, lo, hi, full, v);
        } else if (s.op[j] != OP_CNT) {
#pragma unroll
            for (int i = 0; i < IT; i++) v[i] = lo + i < hi ? load_raw(s.src[j], s.pw[j], (uint64_t)rows[i] << s.sshift[j]) : 0;
        }
        switch (agg_kind(s, j)) {
        case WK_CNT: inorder_column<WK_CNT>(s, j, lo, hi, mask, g, v); break;
        case WK_ADDI: inorder_column<WK_ADDI>(s, j, lo, hi, mask, g, v); break;
        case WK_MAXI4: inorder_column<WK_MAXI4>(s, j, lo, hi, mask, g, v); break;
        case WK_MINI4: inorder_column<WK_MINI4>(s, j, lo, hi, mask, g, v); break;
        case WK_MAXI8: inorder_column<WK_MAXI8>(s, j, lo, hi, mask, g, v); break;
        case WK_MINI8: inorder_column<WK_MINI8>(s, j, lo, hi, mask, g, v); break;
        default: inorder_column<WK_GEN>(s, j, lo, hi, mask, g, v);
        }
    }
}

/* ---- reduction over sorted positions (gid1: group id + 1 a position,
 * gjgb_group_ids): ITEMS consecutive positions a lane, reduced as
 * k_inorder_reduce reduces rows in key order (reduce_columns). rowid !=
 * NULL: the value of accumulator j at position p is src[j][rowid[p]]
 * (GFUR gather), else src[j][p] (columns sorted with the key, GFTR). vec:
 * gid1 and the columns 16-byte aligned. */
__global__ void __launch_bounds__(PolicySorted::THREADS)
k_sorted_reduce(GbSpec s, const uint32_t *gid1, const uint32_t *rowid, uint64_t n, bool vec)
{
    const int IT = PolicySorted::ITEMS;
    const uint64_t tiles = (n + IT - 1) / IT, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t t0 = blockIdx.x * (uint64_t)blockDim.x; t0 < tiles; t0 += stride) { /* warp-uniform loop */
        const uint64_t lo = (t0 + threadIdx.x) * IT, hi = lo + IT < n ? lo + IT : n;
        const bool full = vec && lo + IT <= n;
        uint32_t id[IT], rows[IT];
#pragma unroll
        for (int q = 0; q < IT; q += 4) {
            op_load32(gid1, lo + q, hi, full, id + q);
            if (rowid) op_load32(rowid, lo + q, hi, full, rows + q);
        }
        uint32_t prev = lo > 0 && lo < n ? gid1[lo - 1] : 0; /* ids start at 1: row 0 is a head */
        unsigned mask = 0;
#pragma unroll
        for (int i = 0; i < IT; i++) {
            if (lo + i < hi && id[i] != prev) mask |= 1u << i;
            prev = id[i];
        }
        const uint32_t g = id[0] - 1 - (mask & 1); /* the group of the position before lo */
        if (rowid) reduce_columns<true>(s, lo, hi, full, mask, g, rows);
        else reduce_columns<false>(s, lo, hi, full, mask, g, rows);
    }
}

template <typename K>
__global__ void __launch_bounds__(PolicySorted::THREADS)
k_inorder_reduce(GbSpec s, const K *k, uint64_t n, bool vec, const uint32_t *tile_incl, K *out_key)
{
    const int IT = PolicySorted::ITEMS, TILE = INORDER_TILE;
    const unsigned lane = threadIdx.x & 31;
    const uint64_t tiles = (n + TILE - 1) / TILE, warps = (uint64_t)gridDim.x * (blockDim.x / 32);
    for (uint64_t t = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) / 32; t < tiles; t += warps) {
        const uint64_t lo = t * TILE + (uint64_t)lane * IT, hi = lo + IT < n ? lo + IT : n;
        const bool full = vec && lo + IT <= n;
        K key[IT], prev;
        unsigned mask = 0; /* bit i: row lo + i is a head */
        if (lo < n) {
            inorder_keys(k, lo, n, vec, key, prev);
#pragma unroll
            for (int i = 0; i < IT; i++) {
                if (lo + i < n && (lo + i == 0 || key[i] != prev)) mask |= 1u << i;
                prev = key[i];
            }
        }
        uint32_t upto = __popc(mask); /* the warp's inclusive scan of heads */
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            const uint32_t o = __shfl_up_sync(0xffffffffu, upto, off);
            if (lane >= (unsigned)off) upto += o;
        }
        const uint32_t g = (t ? tile_incl[t - 1] : 0) + upto - __popc(mask) - 1; /* the group of the row before lo */
        uint32_t h = g;
#pragma unroll
        for (int i = 0; i < IT; i++)
            if (mask >> i & 1) out_key[++h] = key[i];
        const uint32_t none[IT] = {};
        reduce_columns<false>(s, lo, hi, full, mask, g, none);
    }
}

/* ---- finishing ---- */
/* AVG: dst = sum / count in place (sum int64 or double). */
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_finish_avg(void *sum, int isf, const uint64_t *count, uint64_t m)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < m; i += (uint64_t)gridDim.x * blockDim.x) {
        double s = isf ? ((double *)sum)[i] : (double)((int64_t *)sum)[i];
        ((double *)sum)[i] = s / (double)count[i];
    }
}

/* Order-preserving unsigned bits of a payload (for sorting values). */
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_ord(const void *v, int w, int isf, uint64_t n, void *o)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        if (w == 4) {
            uint32_t u = ((const uint32_t *)v)[i];
            u = isf ? ((u >> 31) ? ~u : u | 0x80000000u) : u ^ 0x80000000u;
            ((uint32_t *)o)[i] = u;
        } else {
            uint64_t u = ((const uint64_t *)v)[i];
            u = isf ? ((u >> 63) ? ~u : u | 0x8000000000000000ull) : u ^ 0x8000000000000000ull;
            ((uint64_t *)o)[i] = u;
        }
    }
}
__device__ __forceinline__ double unord(uint64_t u, int w, int isf)
{
    if (w == 4) {
        uint32_t x = (uint32_t)u;
        if (isf) { x = (x >> 31) ? x & 0x7fffffffu : ~x; return (double)__uint_as_float(x); }
        return (double)(int32_t)(x ^ 0x80000000u);
    }
    if (isf) { u = (u >> 63) ? u & 0x7fffffffffffffffull : ~u; return __longlong_as_double((long long)u); }
    return (double)(int64_t)(u ^ 0x8000000000000000ull);
}
/* Values sorted within groups (ordered bits `ov`, groups by gid1):
 * count-distinct (dst uint64, must start at 0) or median (dst double). */
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_distinct(const void *ov, int w, const uint32_t *gid1, uint64_t n, unsigned long long *dst)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        if (i == 0 || gid1[i] != gid1[i - 1] || load_raw(ov, w, i) != load_raw(ov, w, i - 1))
            atomicAdd(&dst[gid1[i] - 1], 1ull);
}
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_median(const void *ov, int w, int isf, const uint32_t *start, uint64_t groups, uint64_t n, double *dst)
{
    for (uint64_t g = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; g < groups; g += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t s = start[g], e = g + 1 < groups ? start[g + 1] : n, c = e - s;
        double lo = unord(load_raw(ov, w, s + (c - 1) / 2), w, isf), hi = unord(load_raw(ov, w, s + c / 2), w, isf);
        dst[g] = c % 2 ? lo : (lo + hi) / 2;
    }
}

/* Gather a column by a permutation (sorted output of hash-based paths). */
__global__ void __launch_bounds__(PolicyStream::THREADS)
k_permute(const void *src, int w, const uint32_t *perm, uint64_t m, void *dst)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < m; i += (uint64_t)gridDim.x * blockDim.x)
        store_bits(elem(dst, w, i), w, load_raw(src, w, perm[i]));
}

__host__ __device__ constexpr int ilog2(unsigned x) { return x <= 1 ? 0 : 1 + ilog2(x >> 1); }

/* Groups a PGB chunk keeps in shared memory: its table of TS slots filled to
 * at most 5/8 (linear probing: ~1.8 probes a hit), and one aggregate slot of
 * slot_bytes per group in agg_bytes. The host sizes partitions from it. */
__host__ __device__ inline uint32_t pgb_limit(uint32_t TS, unsigned agg_bytes, unsigned slot_bytes)
{
    uint32_t l = agg_bytes / (slot_bytes ? slot_bytes : 1);
    return l < TS / 8 * 5 ? l : TS / 8 * 5;
}

struct PgbArgs {
    uint64_t n, pmask, T;          /* rows, partitions - 1, piece rows        */
    const uint32_t *start;         /* P partition starts                      */
    const uint32_t *item_end;      /* P: inclusive sum of pieces per partition */
    const uint32_t *rowid;         /* PGB-UR: row ids in partition order      */
    /* k_pgb_many's cut partitions of at most gj_pgb_merge_max pieces
     * (spill NULL, or more pieces: they merge through the global table, as
     * k_pgb_chunk's do): each piece leaves its table of spill_bytes in
     * spill, at its rank among those pieces (cut_end: P, inclusive sum of
     * such a partition's pieces, 0 for the others), and k_pgb_merge
     * combines them; spill_global[b] (a flag per work item) is set when
     * piece b sent a row to the global table. */
    const uint32_t *cut_end;
    unsigned char *spill;
    uint64_t spill_bytes;
    int *spill_global;
    int nolean; /* A/B: k_pgb_many's general tile throughout (GJ_PGB_LEAN=0) */
    int nofold; /* A/B: a skewed warp's rows of one slot not combined first (GJ_GB_FOLD=0; pgb_lean_fold) */
    int probe; /* pgb_slot's probes: PGB_PROBE_DOUBLE, or _LINEAR (A/B, GJ_PGB_PROBE=linear),
                * or _DIRECT (a direct plan: the keys are not hashed) */
    const uint32_t *end; /* P partition ends: start + 1 (contiguous), or a claimed pass's */
    /* res: a direct plan's claimed pass left each row's key as a 2-byte
     * residue (operators/join_partition.h GJ_PART_RES16; NULL: the keys as
     * they are; k_pgb_many reads it). key0: a direct plan's input keys,
     * whose first above the partition's bits is the base of the residues
     * and of 8-byte keys' table keys (pgb_base, PgbTk); NULL: hashed. */
    const uint16_t *res;
    const void *key0;
    /* NULL, or the work item of each block: PGB-UR's cut partitions by
     * piece, then partition (k_pgb_piece_keys), so that the blocks running
     * at once gather from one stretch of the row ids' range and share L2
     * (partition order: 2^20 groups 2.5x slower than 2^22, session 31) */
    const uint32_t *order;
};

/* Where a block's keys come from: p, the keys, or (mul != 0) the 2-byte
 * residues of PgbArgs.res, a key kbase + residue * mul (kbase: the base
 * key above the partition's bits with the partition's own, mul 2^pb). One
 * pointer and two words: k_pgb_many's 3-block builds are held to 40
 * registers and spill already. */
template <typename K>
struct PgbKeys {
    const void *p;
    K kbase, mul;
    __device__ K dec(int32_t r) const { return kbase + (K)r * mul; }
    __device__ K at(uint64_t i) const { return mul ? dec(((const int16_t *)p)[i]) : ((const K *)p)[i]; }
    /* four keys from row r0 (a multiple of 4), inside the piece: 16-byte
     * loads of keys, or one 8-byte load of residues */
    __device__ void load4(uint64_t r0, uint64_t hi, K k[4]) const
    {
        if (!mul) {
            op_loadk((const K *)p, r0, hi, true, k);
            return;
        }
        const uint2 q = __ldcs((const uint2 *)((const uint16_t *)p + r0));
        k[0] = dec((int32_t)(q.x << 16) >> 16); /* the low halves, sign-extended */
        k[1] = dec((int32_t)q.x >> 16);
        k[2] = dec((int32_t)(q.y << 16) >> 16);
        k[3] = dec((int32_t)q.y >> 16);
    }
};

/* The work items: each partition's pieces, ceil(rows / T) (none for an
 * empty one), as inclusive sums over the partitions in item_end. With cut:
 * also the pieces of those partitions k_pgb_merge is to combine (2 to
 * merge_max pieces; else whole, or merged through the global
 * table) as inclusive sums in cut_end, and those partitions in cut_list, in
 * order. totals: the items, the cut partitions, their pieces. One block,
 * each thread a run of partitions (P <= 2^16), in place of a kernel and
 * two device-wide scans (H100, session 22: 0.06 ms with their copies and
 * the read back, GJ_TRACE). */
enum { PGB_ITEMS_THREADS = 1024 };
__global__ void __launch_bounds__(PGB_ITEMS_THREADS)
k_pgb_items(const uint32_t *start, const uint32_t *end, uint32_t P, uint64_t T, uint32_t *item_end, uint32_t *cut_end,
            uint32_t *cut_list, uint32_t *totals, uint32_t merge_max)
{
    typedef cub::BlockScan<uint32_t, PGB_ITEMS_THREADS> Scan;
    __shared__ typename Scan::TempStorage tmp;
    const uint32_t per = (P + PGB_ITEMS_THREADS - 1) / PGB_ITEMS_THREADS;
    const uint32_t p0 = min(P, threadIdx.x * per), p1 = min(P, p0 + per);
    auto pieces = [&](uint32_t p) { return (uint32_t)((end[p] - start[p] + T - 1) / T); };
    auto merged = [&](uint32_t k) { return cut_end && k > 1 && k <= merge_max; };
    uint32_t items = 0, cut_pieces = 0, cuts = 0;
    for (uint32_t p = p0; p < p1; p++) {
        const uint32_t k = pieces(p);
        items += k;
        if (merged(k)) cut_pieces += k, cuts++;
    }
    uint32_t at_items, at_pieces, at_cuts, total[3];
    Scan(tmp).ExclusiveSum(items, at_items, total[0]);
    __syncthreads();
    Scan(tmp).ExclusiveSum(cuts, at_cuts, total[1]);
    __syncthreads();
    Scan(tmp).ExclusiveSum(cut_pieces, at_pieces, total[2]);
    for (uint32_t p = p0; p < p1; p++) {
        const uint32_t k = pieces(p);
        item_end[p] = at_items += k;
        if (!cut_end) continue;
        if (merged(k)) at_pieces += k, cut_list[at_cuts++] = p;
        cut_end[p] = at_pieces;
    }
    if (threadIdx.x == 0)
        for (int i = 0; i < 3; i++) totals[i] = total[i];
}

/* The work items' sort keys, to order them by piece and then partition
 * (PgbArgs.order): item b of partition p gets key b - item_end[p - 1] (its
 * piece) and value b; a stable sort on the keys keeps partition order
 * within a piece. A thread a partition. */
__global__ void k_pgb_piece_keys(const uint32_t *item_end, uint32_t P, uint32_t *key, uint32_t *item)
{
    const uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= P) return;
    const uint32_t b0 = p ? item_end[p - 1] : 0;
    for (uint32_t b = b0; b < item_end[p]; b++) key[b] = b - b0, item[b] = b;
}

/* This block's work item (PgbArgs.order). */
__device__ __forceinline__ uint32_t pgb_block(const PgbArgs &a)
{
    return a.order ? a.order[blockIdx.x] : blockIdx.x;
}

/* The partition that holds work item b: the first p with item_end[p] > b. */
__device__ __forceinline__ uint64_t pgb_part(const PgbArgs &a, uint64_t b)
{
    uint64_t l = 0, h = a.pmask;
    while (l < h) {
        uint64_t m = (l + h) >> 1;
        if (a.item_end[m] > b) h = m; else l = m + 1;
    }
    return l;
}

/* Work item b: piece b - item_end[p - 1] of the partition p that holds it,
 * rows [lo, hi); whole: the partition is this one piece, so its groups
 * live only in this chunk. Returns where the piece leaves its table for
 * k_pgb_merge (a.spill set, and its partition merged there), else NULL. */
__device__ __forceinline__ unsigned char *pgb_item(const PgbArgs &a, uint64_t b, uint64_t &lo, uint64_t &hi,
                                                   bool &whole)
{
    const uint64_t l = pgb_part(a, b);
    const uint64_t piece = b - (l ? a.item_end[l - 1] : 0), s = a.start[l], e = a.end[l];
    lo = s + piece * a.T;
    hi = lo + a.T < e ? lo + a.T : e;
    whole = e - s <= a.T;
    if (!a.spill || whole) return nullptr;
    const uint64_t c0 = l ? a.cut_end[l - 1] : 0;
    return a.cut_end[l] > c0 ? a.spill + (c0 + piece) * a.spill_bytes : nullptr;
}

/* k_pgb_many, a row of this block's piece sent to the global table: flag
 * the piece, whose partition's merge (if any) must then go through the
 * global table too. */
__device__ __forceinline__ void pgb_note_global(const PgbArgs &a)
{
    if (a.spill) a.spill_global[pgb_block(a)] = 1;
}

/* A chunk's shared table: find hashed key k, or claim a slot for it while
 * fewer than `limit` keys are in. Returns its local id (< limit), GB_OVF
 * (claimed past the limit) or GB_EMPTY (table full): both mean "global".
 * Its home: gjh::hash_frac(k, pb) >> SH (pb: the partition's bits). */
template <typename K, int TS>
__device__ __forceinline__ uint32_t pgb_claim(K *tkey, uint32_t *tval, uint32_t *lcount, uint32_t limit, K k, int pb)
{
    constexpr int SH = 64 - ilog2(TS);
    uint32_t sl = (uint32_t)(gjh::hash_frac(k, pb) >> SH);
    for (;;) {
        uint32_t v = ((volatile uint32_t *)tval)[sl];
        if (v == GB_EMPTY) {
            if (*(volatile uint32_t *)lcount >= limit) return GB_EMPTY;
            v = atomicCAS(&tval[sl], GB_EMPTY, GB_PENDING);
            if (v == GB_EMPTY) {
                ((volatile K *)tkey)[sl] = k;
                uint32_t x = atomicAdd(lcount, 1u);
                __threadfence_block();
                x = x < limit ? x : GB_OVF;
                atomicExch(&tval[sl], x);
                return x;
            }
        }
        while (v == GB_PENDING) v = ((volatile uint32_t *)tval)[sl];
        __threadfence_block();
        if (((volatile K *)tkey)[sl] == k) return v;
        sl = (sl + 1) & (TS - 1);
    }
}

/* pgb_slot's probe sequences (PgbArgs.probe) */
enum { PGB_PROBE_DOUBLE = 0, PGB_PROBE_LINEAR = 1, PGB_PROBE_DIRECT = 2 };

/* A table's key as the output writes it: hashed keys unhashed, a direct
 * plan's as they are */
template <typename K> __device__ __forceinline__ K pgb_out_key(K k, bool raw) { return raw ? k : gjh::unhash_key(k); }

/* The output row of hashed key `key` (raw: a direct plan's key) in the
 * global table: found, or a new row with its key written and its
 * aggregates at identity. GB_EMPTY when the output is full (the caller
 * grows it and runs again). */
template <typename K>
__device__ __forceinline__ uint32_t pgb_global_id(const GbSpec &s, const GTable<K> &gt, K *out_key, K key,
                                                  bool raw = false)
{
    bool fresh;
    return gt_insert(gt, key, [&]() -> uint32_t {
        uint32_t x = atomicAdd(gt.count, 1u);
        if (x >= gt.limit) return GB_EMPTY;
        out_key[x] = pgb_out_key(key, raw);
        for (int j = 0; j < s.n; j++) store_bits(elem(s.dst[j], s.width[j], x), s.width[j], identity(s, j));
        return x;
    }, fresh);
}

/* A row whose key is not in its chunk's table (case 3): its
 * group's id from the global table, and its values combined there. */
template <typename K>
__device__ __forceinline__ void pgb_row_global(const GbSpec &s, const GTable<K> &gt, K *out_key, K key, uint64_t row,
                                               bool raw = false)
{
    const uint32_t g = pgb_global_id(s, gt, out_key, key, raw);
    if (g != GB_EMPTY)
        for (int j = 0; j < s.n; j++) atomic_combine(s, j, elem(s.dst[j], s.width[j], g), row_val(s, j, row));
}

/* A PGB tile: a warp takes 128 rows of a piece [lo, hi) from wb (the
 * first: pgb_tile_start), a thread four of them, row(u) = r0 + u st. st 1:
 * four consecutive rows a thread, in one vector load each where the four
 * lie inside the piece; st 32 (PGB-UR): a warp's load covers 32
 * consecutive rows, whose row ids increase inside a partition, so that its
 * gathers touch the fewest lines (four consecutive rows a thread: 2.45 ->
 * 3.07 ms at 2^15 groups, sum,max,count). */
struct PgbTile {
    uint64_t r0, lo, hi;
    unsigned st;
    __device__ uint64_t row(int u) const { return r0 + (uint64_t)u * st; }
    __device__ bool in(int u) const { return row(u) >= lo && row(u) < hi; }
    __device__ bool full() const { return r0 >= lo && r0 + 3 * st < hi; } /* all four inside */
};
__device__ __forceinline__ uint64_t pgb_tile_start(uint64_t lo)
{
    return (lo & ~(uint64_t)3) + (uint64_t)(threadIdx.x & ~31u) * 4;
}
__device__ __forceinline__ PgbTile pgb_tile(uint64_t wb, bool rowids, uint64_t lo, uint64_t hi)
{
    const unsigned lane = threadIdx.x & 31, st = rowids ? 32 : 1;
    return PgbTile{wb + (st == 1 ? lane * 4 : lane), lo, hi, st};
}

/* A tile's hashed keys and input rows (row ids for PGB-UR, else the
 * position); vec: all four inside and the columns 16-byte aligned. */
template <typename K>
__device__ __forceinline__ void pgb_tile_rows(const PgbKeys<K> &ks, const uint32_t *rowid, const PgbTile &t, bool vec,
                                              K k[4], uint64_t row[4])
{
    if (vec && t.st == 1) {
        ks.load4(t.r0, t.hi, k);
        uint32_t id[4];
        if (rowid) op_load32(rowid, t.r0, t.hi, true, id);
#pragma unroll
        for (int u = 0; u < 4; u++) row[u] = rowid ? id[u] : t.r0 + u;
        return;
    }
#pragma unroll
    for (int u = 0; u < 4; u++) {
        const bool in = t.in(u);
        k[u] = in ? ks.at(t.row(u)) : (K)0;
        row[u] = !in ? 0 : rowid ? rowid[t.row(u)] : t.row(u);
    }
}

/* The raw source bits of accumulator j for a tile's rows that have a slot
 * (sl[u] != GB_EMPTY; 0 for the others and for a count): one vector load
 * when the four rows are the consecutive positions r0.. of an unpacked
 * column (seq), else a load a row (row ids, a packed pair's half). */
__device__ __forceinline__ void pgb_tile_vals(const GbSpec &s, int j, const uint64_t row[4], uint64_t r0,
                                              uint64_t hi, bool seq, const uint32_t sl[4], uint64_t v[4])
{
#pragma unroll
    for (int u = 0; u < 4; u++) v[u] = 0;
    if (!s.src[j]) return;
    if (seq && s.sshift[j] == 0 && ((uintptr_t)s.src[j] & 15) == 0) {
        op_load(s.src[j], s.pw[j], r0, hi, true, v);
        return;
    }
#pragma unroll
    for (int u = 0; u < 4; u++)
        if (sl[u] != GB_EMPTY) v[u] = load_raw(s.src[j], s.pw[j], row[u] << s.sshift[j]);
}

/* A chunk's flush, first step (every thread of the block calls it): *gbase
 * receives the first of the dense output rows of a whole partition's
 * occupied slots (`mine` per thread), counted once and taken with one
 * counter update. *nwhole starts at 0. */
__device__ __forceinline__ void pgb_whole_base(bool whole, uint32_t mine, uint32_t *nwhole, uint32_t *gbase,
                                                   uint32_t *count)
{
    if (whole) {
        for (int o = 16; o; o >>= 1) mine += __shfl_down_sync(0xffffffffu, mine, o);
        if ((threadIdx.x & 31) == 0 && mine) atomicAdd(nwhole, mine);
    }
    __syncthreads();
    if (threadIdx.x == 0 && *nwhole) *gbase = atomicAdd(count, *nwhole);
    __syncthreads();
}

/* A chunk's flush: the output row of a group in its table. A whole
 * partition's groups live only in this chunk and take the next of its dense
 * rows (from gbase); a cut one's merge through the global table. */
template <typename K>
__device__ __forceinline__ uint32_t pgb_flush_id(bool whole, uint32_t gbase, uint32_t *rank, const GbSpec &s,
                                                 const GTable<K> &gt, K *out_key, K k, bool raw = false)
{
    if (!whole) return pgb_global_id(s, gt, out_key, k, raw);
    const uint32_t g = gbase + atomicAdd(rank, 1u);
    if (g >= gt.limit) {
        *(volatile int *)gt.overflow = 1;
        return GB_EMPTY;
    }
    out_key[g] = pgb_out_key(k, raw);
    return g;
}

/* Per chunk: a shared-memory table of hashed keys -> local slot (load <=
 * 5/8), then the three cases of Sec. 4.3: one group (register accumulators,
 * one shared update per thread: a block reduction), few groups (R copies of
 * shared slots), too many (rows of keys past the limit aggregate in global
 * memory through the global table). Two passes over the chunk: count the
 * groups, then aggregate with as many copies as fit; used for few groups
 * (PGB_FEW), where the copies pay. More groups: k_pgb_many's one pass. A
 * chunk is one partition or a piece of one (pgb_item), so its groups are
 * one partition's. Flush: the groups of a
 * whole partition live only in this chunk and are written at dense
 * positions; those of a cut partition merge through the global table. */
template <typename K, int TS>
__global__ void __launch_bounds__(PolicyChunk::THREADS, sizeof(K) == 4 ? 3 : 2)
k_pgb_chunk(const K *h, GbSpec s, PgbArgs a, GTable<K> gt, K *out_key, unsigned agg_bytes)
{
    extern __shared__ __align__(16) unsigned char smem[];
    K *tkey = (K *)smem;
    uint32_t *tval = (uint32_t *)(smem + sizeof(K) * TS);
    unsigned char *aggs = smem + (sizeof(K) + 4) * TS;
    __shared__ uint32_t lcount, nwhole, rank;
    __shared__ uint32_t gbase;
    uint64_t lo, hi;
    bool whole;
    pgb_item(a, pgb_block(a), lo, hi, whole);
    if (lo >= hi) return;
    unsigned slot_bytes = 0;
    for (int j = 0; j < s.n; j++) slot_bytes += s.width[j];
    const uint32_t limit = pgb_limit(TS, agg_bytes, slot_bytes);
    const int pb = __popcll(a.pmask); /* the partition's bits: hash_frac's homes below them */
    for (int i = threadIdx.x; i < TS; i += blockDim.x) tval[i] = GB_EMPTY;
    if (threadIdx.x == 0) { lcount = 0; nwhole = 0; rank = 0; }
    __syncthreads();
    /* 1: count the groups */
    for (uint64_t i = lo + threadIdx.x; i < hi; i += blockDim.x) pgb_claim<K, TS>(tkey, tval, &lcount, limit, h[i], pb);
    __syncthreads();
    const uint32_t G = lcount < limit ? lcount : limit;
    const unsigned cap = agg_bytes / slot_bytes;
    int R = 1;
    while (R < 32 && (uint64_t)2 * R * G <= cap) R <<= 1;
    unsigned soff[GB_MAX_ACC], off = 0; /* R copies of G slots per accumulator, at identity */
    for (int j = 0; j < s.n; j++) { soff[j] = off; off += (unsigned)(R * G * s.width[j] + 7) & ~7u; }
    for (int j = 0; j < s.n; j++)
        for (uint32_t e = threadIdx.x; e < G * (uint32_t)R; e += blockDim.x)
            store_bits(aggs + soff[j] + (uint64_t)e * s.width[j], s.width[j], identity(s, j));
    __syncthreads();
    /* 2: aggregate: four consecutive rows a thread (keys in one 16-byte
     * load where the four lie inside the piece), every row's probe before
     * any combine, then each accumulator's combine chosen once for the four
     * (agg4), as k_pgb_many's; one row a thread with the per-row combine
     * ran a dependent chain of loads per row and aggregate. */
    constexpr int SH = 64 - ilog2(TS);
    const unsigned copy = threadIdx.x & (R - 1);
    const bool one = G == 1;
    uint64_t racc[GB_MAX_ACC];
    bool rany = false;
    if (one) for (int j = 0; j < s.n; j++) racc[j] = identity(s, j);
    const bool kal = (((uintptr_t)h | (uintptr_t)a.rowid) & 15) == 0;
    for (uint64_t wb = pgb_tile_start(lo); wb < hi; wb += (uint64_t)blockDim.x * 4) {
        const PgbTile t = pgb_tile(wb, a.rowid, lo, hi);
        const bool full = t.full();
        K k[4];
        uint64_t row[4];
        uint32_t sl[4];
        bool glob[4];
        pgb_tile_rows(PgbKeys<K>{h, 0, 0}, a.rowid, t, full && kal, k, row);
#pragma unroll
        for (int u = 0; u < 4; u++) {
            sl[u] = GB_EMPTY;
            glob[u] = false;
            if (!t.in(u)) continue;
            uint32_t p = (uint32_t)(gjh::hash_frac(k[u], pb) >> SH), v;
            for (;;) { /* every key of the chunk is in, or past the limit */
                v = tval[p];
                if (v == GB_EMPTY || tkey[p] == k[u]) break;
                p = (p + 1) & (TS - 1);
            }
            if (v < limit) sl[u] = one ? copy : v * R + copy;
            else glob[u] = true; /* case 3: global */
        }
        __syncwarp();
        for (int j = 0; j < s.n; j++) {
            uint64_t v[4];
            pgb_tile_vals(s, j, row, t.r0, hi, full && !a.rowid, sl, v);
            if (one) {
#pragma unroll
                for (int u = 0; u < 4; u++)
                    if (sl[u] != GB_EMPTY) racc[j] = combine(s, j, racc[j], row_val_raw(s, j, v[u])), rany = true;
            } else
                agg4<false>(s, j, agg_kind(s, j), aggs + soff[j], sl, v);
        }
#pragma unroll
        for (int u = 0; u < 4; u++)
            if (glob[u]) pgb_row_global(s, gt, out_key, k[u], row[u]);
        __syncwarp();
    }
    if (one && rany)
        for (int j = 0; j < s.n; j++) atomic_combine(s, j, aggs + soff[j] + (uint64_t)copy * s.width[j], racc[j]);
    __syncthreads();
    /* 3: flush */
    uint32_t mine = 0;
    if (whole)
        for (int sl = threadIdx.x; sl < TS; sl += blockDim.x) mine += tval[sl] < limit;
    pgb_whole_base(whole, mine, &nwhole, &gbase, gt.count);
    for (int sl = threadIdx.x; sl < TS; sl += blockDim.x) {
        uint32_t v = tval[sl];
        if (v >= limit) continue;
        const uint32_t g = pgb_flush_id(whole, gbase, &rank, s, gt, out_key, tkey[sl]);
        if (g == GB_EMPTY) continue;
        for (int j = 0; j < s.n; j++) {
            uint64_t id = identity(s, j), acc = id;
            for (int r = 0; r < R; r++)
                acc = combine(s, j, acc, load_bits(aggs + soff[j] + ((uint64_t)v * R + r) * s.width[j], s.width[j]));
            if (whole) store_bits(elem(s.dst[j], s.width[j], g), s.width[j], acc);
            else if (acc != id) atomic_combine(s, j, elem(s.dst[j], s.width[j], g), acc);
        }
    }
}

/* ---- PGB, many groups a partition: one pass, no fences ----------------
 * A chunk's table holds the hashed keys themselves (ts slots, ts a power of
 * two, empty = all ones) and, at the same slot, one aggregate slot per
 * accumulator. A row finds or claims its key's slot with one shared load
 * and, for a new key, one CAS on the key, then combines its values there:
 * no slot state, no dense local ids, no fence, the keys read once. Slots
 * only go from empty to a key, so every thread agrees on a key's slot; a
 * key whose first PGB_MAXP probe slots hold other keys (they stay taken)
 * aggregates in the global table, consistently for all its rows, and so
 * does the one key equal to the empty pattern. Used when a partition holds
 * more groups than k_pgb_chunk's R copies could help (its R is then 1 and
 * its counting pass is pure cost). */
enum { PGB_MAXP = 32 };

/* The keys a k_pgb_many table holds (TK): the keys themselves (TK = K),
 * or for a direct plan's 8-byte keys the low 32 of their bits above the
 * partition's (TK = uint32_t), so that a slot with two 4-byte aggregates
 * takes 12 bytes, as 4-byte keys' do: 16384 slots in 200 KB where 8-byte
 * keys fit 8192, a partition bit less (2^24 groups: one pass, not two).
 * A key comes back (full) from its partition's bits and the base hb (the
 * input's first key above them): (hb + (int32_t)(t - hb)) << pb | part.
 * A key 2^31 or more values above the bits from hb (a span told far too
 * small) or whose low 32 are all ones (the empty pattern) aggregates in
 * the global table, as the all-ones key does with TK = K. */
template <typename K, typename TK>
struct PgbTk {
    uint64_t hb, part;
    int pb;
    static constexpr bool SAME = sizeof(TK) == sizeof(K);
    __device__ TK of(K k) const
    {
        if constexpr (SAME) return (TK)k;
        const uint64_t w = (uint64_t)k >> pb;
        const int64_t d = (int64_t)(w - hb);
        return d == (int32_t)d ? (TK)w : ~(TK)0;
    }
    __device__ K full(TK t) const
    {
        if constexpr (SAME) return (K)t;
        return (K)(((hb + (uint64_t)(int64_t)(int32_t)((uint32_t)t - (uint32_t)hb)) << pb) | part);
    }
    /* pgb_slot's partition bits: a direct table key is above them already */
    __device__ int slot_pb() const { return SAME ? pb : 0; }
};
/* A direct plan's base (PgbArgs.key0: the input's first key) above the
 * partition's pb bits, for residues and table keys; 0 for a hashed plan. */
template <typename K>
__device__ __forceinline__ uint64_t pgb_base(const PgbArgs &a, int pb)
{
    return a.key0 ? (uint64_t)(((const K *)a.key0)[0] >> pb) : 0;
}

/* The probe sequence is double hashing: from the home slot (gjh::hash_frac:
 * the bits of the key's Fibonacci product below its partition's, so that
 * dense keys find distinct homes) in steps of an odd stride drawn from the
 * 16 bits below them, so a probe crosses no runs of neighbours' keys. A warp waits
 * for its longest lane: 32 random keys' longest search at load 1/2 is 4.3
 * probes against linear probing's 6.0, at 1/4 2.7 against 3.0 (simulated,
 * model/time.c probe_longest_of). H100, PGB-TR, 2^28 rows: the aggregate
 * phase 0.25-0.30 ms shorter at 2^21..2^23 groups (bench/RESULTS.md
 * session 22). linear (GJ_PGB_PROBE=linear, A/B): steps of one slot, as
 * before. direct (a direct plan, operators/shapes.h gj_pgb_direct: the
 * keys unhashed, partitioned on their low bits): the home is the key's
 * bits above the partition's, so keys spanning at most ts such values
 * each have their own; steps of one past the rare neighbour. */
template <typename K>
__device__ __forceinline__ uint32_t pgb_slot(K *tkey, uint32_t tmask, int sh, K k, int pb, int probe)
{
    const K empty = ~(K)0;
    uint32_t sl, step, r = GB_EMPTY;
    if (probe == PGB_PROBE_DIRECT) { /* the key's bits above the partition's: its own slot */
        sl = (uint32_t)(k >> pb) & tmask;
        step = 1;
    } else {
        const uint64_t prod = gjh::hash_frac(k, pb);
        step = probe == PGB_PROBE_LINEAR ? 1u : ((uint32_t)(prod >> (sh - 16)) | 1u) & tmask;
        sl = (uint32_t)(prod >> sh);
    }
    if (k != empty)
        for (int p = 0; p < PGB_MAXP; p++) {
            K t = ((volatile K *)tkey)[sl];
            if (t == empty) t = cas_key(tkey + sl, empty, k);
            if (t == empty || t == k) { r = sl; break; }
            sl = (sl + step) & tmask;
        }
    return r;
}

/* pgb_slot for a thread's four keys at once (in[u]: key u is a row's):
 * each round probes every key still unplaced, so the four searches overlap
 * and the warp waits for its longest search of 128 keys rather than, one
 * key after another, for four longest searches of 32 (a table at load
 * 1/2: random keys' 4.2 probes each, session 33). Same slots and order of
 * probes as pgb_slot. */
template <typename K>
__device__ __forceinline__ void pgb_slot4(K *tkey, uint32_t tmask, int sh, const K k[4], const bool in[4], int pb,
                                          int probe, uint32_t sl[4])
{
    const K empty = ~(K)0;
    uint32_t at[4], step[4];
    unsigned todo = 0;
#pragma unroll
    for (int u = 0; u < 4; u++) {
        sl[u] = GB_EMPTY;
        if (probe == PGB_PROBE_DIRECT) {
            at[u] = (uint32_t)(k[u] >> pb) & tmask;
            step[u] = 1;
        } else {
            const uint64_t prod = gjh::hash_frac(k[u], pb);
            step[u] = probe == PGB_PROBE_LINEAR ? 1u : ((uint32_t)(prod >> (sh - 16)) | 1u) & tmask;
            at[u] = (uint32_t)(prod >> sh);
        }
        if (in[u] && k[u] != empty) todo |= 1u << u;
    }
    for (int p = 0; p < PGB_MAXP && todo; p++)
#pragma unroll
        for (int u = 0; u < 4; u++)
            if (todo >> u & 1) {
                K t = ((volatile K *)tkey)[at[u]];
                if (t == empty) t = cas_key(tkey + at[u], empty, k[u]);
                if (t == empty || t == k[u]) {
                    sl[u] = at[u];
                    todo &= ~(1u << u);
                } else {
                    at[u] = (at[u] + step[u]) & tmask;
                }
            }
}

/* Layout of a k_pgb_many table of ts slots: the keys, then each
 * accumulator's ts values (at s.soff[j], 8-byte aligned). Returns the
 * shared bytes: operators/shapes.h gj_pgb_many_bytes, which sizes the
 * tables for the plan and the model. */
inline size_t pgb_many_layout(uint32_t ts, int kw, GbSpec &s)
{
    size_t b = (size_t)ts * kw;
    for (int j = 0; j < s.n; j++) {
        s.soff[j] = (unsigned)b;
        b += ((size_t)ts * s.width[j] + 7) & ~(size_t)7;
    }
    return b;
}

/* A k_pgb_many table: every key empty, every aggregate its identity. K:
 * the table's key type (PgbTk's TK). */
template <typename K>
__device__ __forceinline__ void pgb_many_init(unsigned char *smem, const GbSpec &s, uint32_t ts)
{
    for (uint32_t i = threadIdx.x; i < ts; i += blockDim.x) ((K *)smem)[i] = ~(K)0;
    for (int j = 0; j < s.n; j++) {
        const uint64_t id = identity(s, j);
        for (uint32_t i = threadIdx.x; i < ts; i += blockDim.x) store_bits(smem + s.soff[j] + (uint64_t)i * s.width[j], s.width[j], id);
    }
}

/* A k_pgb_many table's flush (every thread of the block calls it, after a
 * barrier), as k_pgb_chunk's: a whole partition's groups to dense rows, a
 * cut one's through the global table. *nwhole and *rank start at 0. */
template <typename K, typename TK>
__device__ __forceinline__ void pgb_many_flush(const unsigned char *smem, const GbSpec &s, const GTable<K> &gt,
                                               K *out_key, uint32_t ts, bool whole, uint32_t *nwhole,
                                               uint32_t *gbase, uint32_t *rank, bool raw, const PgbTk<K, TK> &tkx)
{
    const TK *tkey = (const TK *)smem, empty = ~(TK)0;
    uint32_t mine = 0;
    if (whole)
        for (uint32_t sl = threadIdx.x; sl < ts; sl += blockDim.x) mine += tkey[sl] != empty;
    pgb_whole_base(whole, mine, nwhole, gbase, gt.count);
    for (uint32_t sl = threadIdx.x; sl < ts; sl += blockDim.x) {
        const TK k = tkey[sl];
        if (k == empty) continue;
        const uint32_t g = pgb_flush_id(whole, *gbase, rank, s, gt, out_key, tkx.full(k), raw);
        if (g == GB_EMPTY) continue;
        for (int j = 0; j < s.n; j++) {
            const uint64_t acc = load_bits(smem + s.soff[j] + (uint64_t)sl * s.width[j], s.width[j]);
            if (whole) store_bits(elem(s.dst[j], s.width[j], g), s.width[j], acc);
            else if (acc != identity(s, j)) atomic_combine(s, j, elem(s.dst[j], s.width[j], g), acc);
        }
    }
}

/* k_pgb_many's lean tile: PGB-TR's packed pair as its only two
 * accumulators, each a 4-byte max or min or a sum (pgb_lean_kind's 0..2),
 * the kinds fixed at compile time (pgb_lean_combine<A, B>, chosen a tile
 * by one uniform switch), a warp's 128 rows all inside the piece: no row
 * bound tests, one check of a slot per row for both combines, and the
 * global table only after a vote. ncu (H100, 2^28 rows, 2^20 groups,
 * bench/RESULTS.md session 21): the general tile issued 417 warp
 * instructions a 128 rows where pgbtable_probe's plain kernel issues 235,
 * at 12.8 cycles an issue, 1.45 against 1.11 ms. */
__device__ __forceinline__ int pgb_lean_kind(int kd)
{
    return kd == WK_ADDI ? 0 : kd == WK_MAXI4 ? 1 : kd == WK_MINI4 ? 2 : -1;
}
template <int L>
__device__ __forceinline__ void pgb_lean_one(unsigned char *base, uint32_t sl, uint32_t v)
{
    if constexpr (L == 0) add64_shared((unsigned long long *)base + sl, (uint64_t)(int64_t)(int32_t)v);
    else if constexpr (L == 1) atomicMax((int *)base + sl, (int)v);
    else atomicMin((int *)base + sl, (int)v);
}
/* Skew: a hot key's rows crowd one slot, and a warp's shared atomics on
 * one address conflict: ncu, H200, PGB-TR, 2^26 rows, 2^20 hashed groups,
 * max,max: k_pgb_many 0.31 ms with 12.6 M conflicts of its shared atomics
 * uniform, 1.08 ms with 124.7 M at Zipf 1.5 (bench/RESULTS.md session 34).
 * Where lane 0's slot holds at least GJ_GB_FOLD_MIN of a warp's 32 rows
 * (a row a lane), those rows reduce across the warp (__reduce_*_sync, the
 * others giving the identity) and lane 0 sends the one atomic; a 4-byte
 * sum's halves reduce apart, so no sum of 32 values overflows. Measured
 * and dropped (session 34): every distinct slot's lanes reduced apart
 * (__match_any_sync) cost Zipf 1 2.6x, uniform 2^16 groups 25%.
 * pgb_skewed picks the warps worth the test. */
template <int L>
__device__ __forceinline__ void pgb_lean_fold(unsigned char *base, uint32_t sl, bool in, uint32_t v)
{
    const bool lead = (threadIdx.x & 31) == 0;
    if constexpr (L == 0) {
        const int hi = __reduce_add_sync(~0u, in ? (int)v >> 16 : 0);
        const unsigned lo = __reduce_add_sync(~0u, in ? v & 0xFFFFu : 0u);
        if (lead) add64_shared((unsigned long long *)base + sl, (uint64_t)((int64_t)hi * 65536 + lo));
    } else if constexpr (L == 1) {
        const int m = __reduce_max_sync(~0u, in ? (int)v : INT_MIN);
        if (lead) atomicMax((int *)base + sl, m);
    } else {
        const int m = __reduce_min_sync(~0u, in ? (int)v : INT_MAX);
        if (lead) atomicMin((int *)base + sl, m);
    }
}
/* Does the warp's tile crowd slots: a thread's first and last row, or two
 * neighbouring lanes' last rows, in one slot? Uniform keys seldom (4096
 * groups a partition's table: 48 pairs a warp at 1/4096 each, about 1% of
 * warps, reckoned, not counted); a hot key's partition nearly always. off: never (GJ_GB_FOLD=0, A/B). */
__device__ __forceinline__ bool pgb_skewed(const uint32_t sl[4], bool off)
{
    const uint32_t o = __shfl_xor_sync(~0u, sl[3], 1);
    return !off && __any_sync(~0u, sl[3] != GB_EMPTY && (sl[3] == o || sl[3] == sl[0]));
}
/* One row a lane (slot sl, GB_EMPTY: none): does lane 0's slot c hold at
 * least GJ_GB_FOLD_MIN of the warp's rows? in: this lane's row is one of
 * them. Every lane calls it; both tiles' folds decide by it. */
__device__ __forceinline__ bool pgb_fold_lane0(uint32_t sl, uint32_t &c, bool &in)
{
    c = __shfl_sync(~0u, sl, 0);
    in = c != GB_EMPTY && sl == c;
    return __popc(__ballot_sync(~0u, in)) >= GJ_GB_FOLD_MIN;
}
/* The general tile's fold (k_pgb_many's other aggregate sets, and PGB-UR):
 * where pgb_skewed passes, each of a thread's four rows u whose lane-0 slot
 * c[u] holds at least GJ_GB_FOLD_MIN of the warp's rows folds, for the
 * accumulators one warp reduction combines (pgb_foldable: counts, and 4-byte
 * sums, maxima and minima, by pgb_lean_fold): lane 0 sends the one atomic,
 * and `rest`, sl with the folded rows emptied, takes the other rows' own.
 * Other kinds (floats, 8-byte sources) keep every row's atomic: a fold by
 * 64-bit shuffles and the accumulator's own combine (HGB's gb_fold) made
 * the aggregate slower, not faster (H200, PGB-TR, 2^26 rows, 2^20 hashed
 * groups, Zipf 1: sum,count,avg 1.37 -> 2.16 ms, max,sum,avg,count 1.42
 * -> 5.02). By one reduction: Zipf 1.5 1.79 -> 1.44, 1.95 -> 1.46, Zipf 2
 * 1.91 -> 1.42, 2.14 -> 1.48, Zipf 1 level; but built into every generic
 * build, uniform keys lost 11-15% at 2^28 rows (sum,count,avg, 2^16 and
 * 2^22 groups: 2.77-2.85 -> 3.16-3.18 ms; bench/RESULTS.md session 37), so it has
 * builds of its own (k_pgb_many's FOLD), taken for skewed workloads
 * (operators/shapes.h GJ_PGB_FOLD_ZIPF). NARROW builds (PGB-UR's 4-byte
 * pairs; PGB-TR's are the lean tile's) have none: PGB-UR max,max gained
 * nothing by it (Zipf 1.5 1.86 -> 1.86-1.90 ms). */
struct PgbFold {
    uint32_t c[4]; /* lane 0's slot of row u */
    unsigned f;    /* the rows u that fold (warp-uniform) */
    unsigned mine; /* this lane's rows among them */
};
__device__ __forceinline__ PgbFold pgb_fold_plan(const uint32_t sl[4], bool skewed, uint32_t rest[4])
{
    PgbFold p = {{GB_EMPTY, GB_EMPTY, GB_EMPTY, GB_EMPTY}, 0u, 0u};
#pragma unroll
    for (int u = 0; u < 4; u++) {
        rest[u] = sl[u];
        uint32_t c;
        bool in;
        if (!skewed || !pgb_fold_lane0(sl[u], c, in)) continue;
        p.c[u] = c;
        p.f |= 1u << u;
        if (in) p.mine |= 1u << u, rest[u] = GB_EMPTY;
    }
    return p;
}
__device__ __forceinline__ bool pgb_foldable(const GbSpec &s, int j, int kd)
{
    return kd == WK_CNT || kd == WK_MAXI4 || kd == WK_MINI4 || (kd == WK_ADDI && s.pw[j] == 4);
}
/* fold (warp-uniform): an accumulator of a foldable kind kd (shared array
 * base) folds p's rows over their raw 4-byte values v, and `use` gets the
 * slots the rows' own atomics take (agg4): rest; else sl, untouched */
template <typename V>
__device__ __forceinline__ void pgb_fold_acc(bool fold, int kd, unsigned char *base, const PgbFold &p,
                                             const uint32_t sl[4], const uint32_t rest[4], const V v[4],
                                             uint32_t use[4])
{
#pragma unroll
    for (int u = 0; u < 4; u++) use[u] = fold ? rest[u] : sl[u];
    if (!fold) return;
#pragma unroll
    for (int u = 0; u < 4; u++) {
        if (!(p.f >> u & 1)) continue;
        const bool in = p.mine >> u & 1;
        if (kd == WK_CNT) {
            const unsigned n = __popc(__ballot_sync(~0u, in));
            if ((threadIdx.x & 31) == 0) add64_shared((unsigned long long *)base + p.c[u], n);
        } else if (kd == WK_ADDI) {
            pgb_lean_fold<0>(base, p.c[u], in, (uint32_t)v[u]);
        } else if (kd == WK_MAXI4) {
            pgb_lean_fold<1>(base, p.c[u], in, (uint32_t)v[u]);
        } else {
            pgb_lean_fold<2>(base, p.c[u], in, (uint32_t)v[u]);
        }
    }
}
template <int A, int B>
__device__ __forceinline__ void pgb_lean_combine(unsigned char *b0, unsigned char *b1, const uint32_t sl[4],
                                                 const uint32_t va[4], const uint32_t vb[4], bool skewed)
{
#pragma unroll
    for (int u = 0; u < 4; u++) {
        bool rest = sl[u] != GB_EMPTY; /* the row's own atomics */
        uint32_t c;
        bool in;
        if (skewed && pgb_fold_lane0(sl[u], c, in)) {
            pgb_lean_fold<A>(b0, c, in, va[u]);
            pgb_lean_fold<B>(b1, c, in, vb[u]);
            rest = rest && !in;
        }
        if (rest) {
            pgb_lean_one<A>(b0, sl[u], va[u]);
            pgb_lean_one<B>(b1, sl[u], vb[u]);
        }
    }
}
template <typename K, typename TK>
__device__ __forceinline__ void pgb_lean_tile(const PgbKeys<K> &ks, const PgbTk<K, TK> &tkx, const uint64_t *pv,
                                              uint64_t r0, uint64_t hi, const GbSpec &s, const PgbArgs &a,
                                              const GTable<K> &gt, K *out_key, unsigned char *smem, uint32_t tmask,
                                              int sh, int lean)
{
    K k[4];
    uint64_t pr[4];
    uint32_t va[4], vb[4], sl[4];
    ks.load4(r0, hi, k);
    op_load(pv, 8, r0, hi, true, pr);
#pragma unroll
    for (int u = 0; u < 4; u++) {
        va[u] = (uint32_t)pr[u];
        vb[u] = (uint32_t)(pr[u] >> 32);
        sl[u] = pgb_slot((TK *)smem, tmask, sh, tkx.of(k[u]), tkx.slot_pb(), a.probe);
    }
    __syncwarp();
    unsigned char *b0 = smem + s.soff[0], *b1 = smem + s.soff[1];
    const bool sk = pgb_skewed(sl, a.nofold);
    switch (lean) {
    case 0: pgb_lean_combine<0, 0>(b0, b1, sl, va, vb, sk); break;
    case 1: pgb_lean_combine<0, 1>(b0, b1, sl, va, vb, sk); break;
    case 2: pgb_lean_combine<0, 2>(b0, b1, sl, va, vb, sk); break;
    case 3: pgb_lean_combine<1, 0>(b0, b1, sl, va, vb, sk); break;
    case 4: pgb_lean_combine<1, 1>(b0, b1, sl, va, vb, sk); break;
    case 5: pgb_lean_combine<1, 2>(b0, b1, sl, va, vb, sk); break;
    case 6: pgb_lean_combine<2, 0>(b0, b1, sl, va, vb, sk); break;
    case 7: pgb_lean_combine<2, 1>(b0, b1, sl, va, vb, sk); break;
    default: pgb_lean_combine<2, 2>(b0, b1, sl, va, vb, sk); break;
    }
    const bool miss = sl[0] == GB_EMPTY || sl[1] == GB_EMPTY || sl[2] == GB_EMPTY || sl[3] == GB_EMPTY;
    if (__any_sync(~0u, miss))
#pragma unroll
        for (int u = 0; u < 4; u++) /* case 3: the global table */
            if (sl[u] == GB_EMPTY) {
                pgb_row_global(s, gt, out_key, k[u], r0 + u, a.probe == PGB_PROBE_DIRECT);
                pgb_note_global(a);
            }
    __syncwarp();
}

/* NARROW: at most two accumulators over 4-byte sources; otherwise (the
 * generic build) any, the first two as NARROW's when they are PGB-TR's
 * packed pair. Combines by agg4, kinds chosen once a tile; PGB-TR's pair
 * alone, of lean kinds, by pgb_lean_tile wherever a warp's rows are all
 * inside the piece. MINB: blocks per SM the registers must allow (2: 64;
 * 3: 40, a few spilled). OV: the general tile searches a thread's four
 * hashed keys together (pgb_slot4); built for hashed plans only, not with
 * MINB 3, since the code costs the other builds registers (session 33,
 * calls 10-11: direct plans 2-6% slower when they shared it). */
template <typename K, typename TK, bool NARROW, int MINB, int THREADS = PolicyChunk::THREADS, bool OV = false,
          bool FOLD = false>
__global__ void __launch_bounds__(THREADS, MINB)
k_pgb_many(const K *h, GbSpec s, PgbArgs a, GTable<K> gt, K *out_key, uint32_t ts) /* s.soff: pgb_many_layout */
{
    static_assert(!OV || MINB < 3, "the 3-block builds keep one search at a time");
    static_assert(!FOLD || (!NARROW && MINB < 3), "the general tile's fold: generic builds of 1 or 2 blocks");
    extern __shared__ __align__(16) unsigned char smem[];
    TK *tkey = (TK *)smem;
    __shared__ uint32_t nwhole, rank, gbase;
    uint64_t lo, hi;
    bool whole;
    const uint32_t b = pgb_block(a);
    pgb_item(a, b, lo, hi, whole);
    if (lo >= hi) return;
    const uint32_t tmask = ts - 1;
    const int sh = 64 - (31 - __clz((int)ts)), pb = __popcll(a.pmask); /* pb: hash_frac's partition bits */
    const uint64_t part = a.key0 ? pgb_part(a, b) : 0, hb = pgb_base<K>(a, pb);
    const PgbKeys<K> ks = {a.res ? (const void *)a.res : (const void *)h, a.res ? (K)((hb << pb) | part) : (K)0,
                           a.res ? (K)((K)1 << pb) : (K)0};
    const PgbTk<K, TK> tkx = {hb, part, pb};
    pgb_many_init<TK>(smem, s, ts);
    if (threadIdx.x == 0) { nwhole = 0; rank = 0; }
    __syncthreads();
    const bool pair = s.n >= 2 && s.src[0] && s.src[1] && s.pw[0] == 4 && s.pw[1] == 4 && s.sshift[0] == 1 &&
                      s.sshift[1] == 1 && (const char *)s.src[1] == (const char *)s.src[0] + 4;
    /* PGB-TR's packed pair (accumulators 0 and 1) is loaded as one 8-byte
     * value, before the probes, as NARROW's two 4-byte sources are; further
     * accumulators (the generic build) load after the probes */
    const bool packed = pair && !a.rowid, early = packed || NARROW;
    const int kd0 = early && s.n > 0 ? agg_kind(s, 0) : 0, kd1 = early && s.n > 1 ? agg_kind(s, 1) : 0;
    const uint64_t *pv = packed ? (const uint64_t *)s.src[0] : NULL;
    const bool aligned = (((uintptr_t)h | (uintptr_t)a.rowid | (uintptr_t)pv) & 15) == 0;
    const int la = pgb_lean_kind(kd0), lb = pgb_lean_kind(kd1);
    const int lean = packed && aligned && s.n == 2 && la >= 0 && lb >= 0 && !a.nolean ? la * 3 + lb : -1;
    /* Four consecutive rows a thread, keys (row ids, a pair) in 16-byte
     * streaming loads where the four lie inside the piece (HGB's op_load).
     * Warp-uniform trip counts, and a __syncwarp after the probes: their
     * lengths differ by lane, and a warp left split there runs the
     * combines once per split (measured: 4.6 active lanes of 32, the
     * aggregate phase 5x slower). */
    for (uint64_t wb = pgb_tile_start(lo); wb < hi; wb += (uint64_t)blockDim.x * 4) {
        const PgbTile t = pgb_tile(wb, a.rowid, lo, hi);
        const bool in4 = t.full();
        if (lean >= 0 && __all_sync(~0u, in4)) {
            pgb_lean_tile<K, TK>(ks, tkx, pv, t.r0, hi, s, a, gt, out_key, smem, tmask, sh, lean);
            continue;
        }
        K k[4];
        uint64_t row[4];
        uint32_t va[4] = {0, 0, 0, 0}, vb[4] = {0, 0, 0, 0}, sl[4];
        pgb_tile_rows(ks, a.rowid, t, aligned && in4, k, row);
        if (packed) { /* st 1 */
            uint64_t pr[4];
            if (aligned && in4) op_load(pv, 8, t.r0, hi, true, pr);
            else
#pragma unroll
                for (int u = 0; u < 4; u++) pr[u] = t.in(u) ? pv[t.row(u)] : 0;
#pragma unroll
            for (int u = 0; u < 4; u++) {
                va[u] = (uint32_t)pr[u];
                vb[u] = (uint32_t)(pr[u] >> 32);
            }
        } else if (NARROW) /* separate 4-byte columns */
#pragma unroll
            for (int u = 0; u < 4; u++) {
                if (!t.in(u)) continue;
                if (s.n > 0 && s.src[0]) va[u] = ((const uint32_t *)s.src[0])[row[u] << s.sshift[0]];
                if (s.n > 1 && s.src[1]) vb[u] = ((const uint32_t *)s.src[1])[row[u] << s.sshift[1]];
            }
        if constexpr (OV) { /* hashed keys: the four searches overlapped (pgb_slot4) */
            const bool overlap = a.probe != PGB_PROBE_DIRECT;
            if (overlap) {
                TK tk[4];
                bool in[4];
#pragma unroll
                for (int u = 0; u < 4; u++) tk[u] = tkx.of(k[u]), in[u] = t.in(u);
                pgb_slot4(tkey, tmask, sh, tk, in, tkx.slot_pb(), a.probe, sl);
            }
            if (!overlap)
#pragma unroll
                for (int u = 0; u < 4; u++)
                    sl[u] = t.in(u) ? pgb_slot(tkey, tmask, sh, tkx.of(k[u]), tkx.slot_pb(), a.probe) : GB_EMPTY;
        } else {
#pragma unroll
            for (int u = 0; u < 4; u++)
                sl[u] = t.in(u) ? pgb_slot(tkey, tmask, sh, tkx.of(k[u]), tkx.slot_pb(), a.probe) : GB_EMPTY;
        }
        __syncwarp();
        /* FOLD: the general tile's fold, in builds of its own (the host's
         * pgb_many_build): its code cost uniform keys 11-15% where built in */
        uint32_t rest[4];
        const PgbFold fp = pgb_fold_plan(sl, FOLD && pgb_skewed(sl, a.nofold), rest);
        if (early && FOLD) { /* FOLD is constexpr: the other builds keep the code before it */
            const bool f0 = fp.f && pgb_foldable(s, 0, kd0), f1 = fp.f && pgb_foldable(s, 1, kd1);
            if (s.n > 0) {
                uint32_t use[4];
                pgb_fold_acc(f0, kd0, smem + s.soff[0], fp, sl, rest, va, use);
                agg4<false>(s, 0, kd0, smem + s.soff[0], use, va);
            }
            if (s.n > 1) {
                uint32_t use[4];
                pgb_fold_acc(f1, kd1, smem + s.soff[1], fp, sl, rest, vb, use);
                agg4<false>(s, 1, kd1, smem + s.soff[1], use, vb);
            }
        } else if (early) {
            if (s.n > 0) agg4<false>(s, 0, kd0, smem + s.soff[0], sl, va);
            if (s.n > 1) agg4<false>(s, 1, kd1, smem + s.soff[1], sl, vb);
        }
        if (!NARROW)
            for (int j = packed ? 2 : 0; j < s.n; j++) {
                uint64_t v[4];
                pgb_tile_vals(s, j, row, t.r0, hi, in4 && !a.rowid, sl, v);
                if constexpr (FOLD) {
                    uint32_t use[4];
                    const int kd = agg_kind(s, j);
                    pgb_fold_acc(fp.f && pgb_foldable(s, j, kd), kd, smem + s.soff[j], fp, sl, rest, v, use);
                    agg4<false>(s, j, kd, smem + s.soff[j], use, v);
                } else {
                    agg4<false>(s, j, agg_kind(s, j), smem + s.soff[j], sl, v);
                }
            }
#pragma unroll
        for (int u = 0; u < 4; u++) /* case 3: the global table */
            if (sl[u] == GB_EMPTY && t.in(u)) {
                pgb_row_global(s, gt, out_key, k[u], row[u], a.probe == PGB_PROBE_DIRECT);
                pgb_note_global(a);
            }
        __syncwarp();
    }
    unsigned char *spill_at = pgb_item(a, b, lo, hi, whole);
    if (spill_at) { /* a cut piece: its table for k_pgb_merge */
        __syncthreads();
        for (uint64_t i = threadIdx.x; i < a.spill_bytes / 16; i += blockDim.x)
            ((uint4 *)spill_at)[i] = ((const uint4 *)smem)[i];
        return;
    }
    __syncthreads();
    pgb_many_flush<K, TK>(smem, s, gt, out_key, ts, whole, &nwhole, &gbase, &rank, a.probe == PGB_PROBE_DIRECT, tkx);
}

/* The pieces of one cut partition (cut_list[blockIdx.x]) merged in one
 * shared table (pgb_many_layout, ts slots) from the tables they left in
 * a.spill, then flushed as a whole partition: dense output rows taken with
 * one counter update, where before every group of every piece went through
 * the global table (its claim, a counter shared by all SMs and a fence
 * each: 1.9 against 0.4 ms for the aggregate phase of 2^26 rows, 2^20
 * groups, bench/RESULTS.md). A key whose probe slots are taken, and every
 * key when a piece sent rows to the global table (a.spill_global),
 * goes through the global table as before. A block reads all its
 * partition's tables, and with loads in flight as its only overlap it is
 * bound by their latency, not by its atomics: 1024 threads (a 196 KB
 * table left room for one block of 512 an SM) took the merge at Zipf 1.5
 * (2^26 rows, 2^20 hashed groups, 17 cut partitions, 14.8 MB) from 329 to
 * 187 us against 512; splitting a partition's keys over 8 blocks, each
 * reading all of it, gained nothing, nor did prefetching a thread's next
 * quad to the L2 (ncu, H200, bench/RESULTS.md session 35). */
enum { PGB_MERGE_THREADS = 1024 };
template <typename K, typename TK>
__global__ void __launch_bounds__(PGB_MERGE_THREADS, 1)
k_pgb_merge(GbSpec s, PgbArgs a, const uint32_t *cut_list, GTable<K> gt, K *out_key, uint32_t ts)
{
    extern __shared__ __align__(16) unsigned char smem[];
    TK *tkey = (TK *)smem;
    __shared__ uint32_t nwhole, rank, gbase;
    const uint32_t p = cut_list[blockIdx.x];
    const uint64_t q0 = p ? a.cut_end[p - 1] : 0, q1 = a.cut_end[p];
    const TK empty = ~(TK)0;
    const uint32_t tmask = ts - 1;
    const int sh = 64 - (31 - __clz((int)ts)), pb = __popcll(a.pmask);
    const PgbTk<K, TK> tkx = {pgb_base<K>(a, pb), p, pb};
    __shared__ int went_global;
    pgb_many_init<TK>(smem, s, ts);
    if (threadIdx.x == 0) { nwhole = 0; rank = 0; went_global = 0; }
    __syncthreads();
    const uint64_t b0 = p ? a.item_end[p - 1] : 0; /* the partition's work items */
    if (b0 + threadIdx.x < a.item_end[p] && a.spill_global[b0 + threadIdx.x]) went_global = 1;
    __syncthreads();
    const bool whole = !went_global;
    /* Four consecutive slots a thread, read with 16-byte streaming loads
     * (op_load: every table is 16-byte aligned), keys and the first two
     * accumulators issued together, combined by kinds chosen once (agg4).
     * Warp-uniform trip counts (quads is a multiple of 64). */
    const uint64_t quads = (q1 - q0) * (ts / 4);
    for (uint64_t x = threadIdx.x; x < quads; x += blockDim.x) {
        const uint64_t q = q0 + x / (ts / 4), i0 = x % (ts / 4) * 4;
        const unsigned char *t = a.spill + q * a.spill_bytes;
        TK k[4];
        uint64_t v[2][4];
        uint32_t sl[4];
        op_loadk((const TK *)t, i0, ts, true, k);
        for (int j = 0; j < 2 && j < s.n; j++) op_load(t + s.soff[j], s.width[j], i0, ts, true, v[j]);
#pragma unroll
        for (int u = 0; u < 4; u++)
            sl[u] = k[u] != empty ? pgb_slot(tkey, tmask, sh, k[u], tkx.slot_pb(), a.probe) : GB_EMPTY;
        __syncwarp();
        if (s.n > 0) agg4<true>(s, 0, agg_kind(s, 0), smem + s.soff[0], sl, v[0]);
        if (s.n > 1) agg4<true>(s, 1, agg_kind(s, 1), smem + s.soff[1], sl, v[1]);
        for (int j = 2; j < s.n; j++) {
            uint64_t w[4];
            op_load(t + s.soff[j], s.width[j], i0, ts, true, w);
            agg4<true>(s, j, agg_kind(s, j), smem + s.soff[j], sl, w);
        }
#pragma unroll
        for (int u = 0; u < 4; u++) { /* probe slots taken: the global table */
            if (k[u] == empty || sl[u] != GB_EMPTY) continue;
            const uint32_t g = pgb_global_id(s, gt, out_key, tkx.full(k[u]), a.probe == PGB_PROBE_DIRECT);
            if (g == GB_EMPTY) continue; /* out of ids: the host retries larger */
            for (int j = 0; j < s.n; j++) {
                const uint64_t val = j < 2 ? v[j][u] : load_raw(t + s.soff[j], s.width[j], i0 + u);
                if (val != identity(s, j)) atomic_combine(s, j, elem(s.dst[j], s.width[j], g), val);
            }
        }
        __syncwarp();
    }
    __syncthreads();
    pgb_many_flush<K, TK>(smem, s, gt, out_key, ts, whole, &nwhole, &gbase, &rank, a.probe == PGB_PROBE_DIRECT, tkx);
}

} // namespace gjgb
#endif
