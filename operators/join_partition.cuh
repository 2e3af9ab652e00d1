/* Radix partition of (key, value) pairs on the low key bits, for PHJ's
 * transform (and any sort of at most 16 bits): LSD passes of at most 8 bits,
 * each pass
 *   1. part_hist_kernel: each tile of TILE rows counts its digits -> hist,
 *      bin-major (hist[bin * stride + tile], stride: tiles rounded up to
 *      8), so that
 *   2. one exclusive scan (CUB) gives each (bin, tile) its output offset;
 *   3. part_scatter_kernel: the tile ranks its keys (CUB's
 *      BlockRadixRankMatchEarlyCounts on a warp-striped tile: stable), stages
 *      keys then values in shared
 *      memory in digit order, and each thread writes consecutive staged rows,
 *      so a bin's rows leave the block as one coalesced run.
 * A hashed partition of 9 bits asked to be wide (PGB) takes one pass of 9
 * bits (RB, the digit bits of part_hist_kernel, PartSmem and
 * part_scatter_kernel; a thread a bin) instead of two (operators/shapes.h
 * gj_part_passes).
 * 8-bit passes over many unhashed 4-byte keys (join_api.cu part_pair,
 * partition_run) scatter two tiles at a time instead (part_scatter2_kernel:
 * bin runs twice as long).
 * Stable in every pass, so the result is exactly the stable sort on those
 * bits (the order CUB's radix sort gives): every column partitioned with the
 * same keys lands in the same order (GFTR relies on that).
 * The first pass reads its values from the source: a column (COPY), two
 * 4-byte columns packed into one 8-byte value (PACK, a in the low half) or
 * the row index (IOTA), so neither a packed copy nor a row-id array is
 * written and read again. No launches here: join_api.cu dispatches. */
#ifndef GJ_OPERATORS_JOIN_PARTITION_CUH
#define GJ_OPERATORS_JOIN_PARTITION_CUH

#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_rank.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <stdint.h>

#include "operators/hash.cuh"
#include "operators/shapes.h"

namespace gjj {

enum { PV_IOTA = 0, PV_COPY = 1, PV_PACK = 2 };

/* A pass's digit: key bits [lo, lo + log2(mask + 1)); TOP: and, above
 * them, the bit hs + log2(mask + 1) of the key (the first pass of a
 * partition in halves, join_api.cu partition_halves: the top bit of the
 * partition's bits, which splits the output in two). last: the largest
 * digit. */
template <typename K, bool TOP = false>
struct PartDigit {
    int lo;
    uint32_t mask;
    int hs;
    __device__ __forceinline__ uint32_t Digit(K k) const
    {
        const uint32_t d = (uint32_t)(k >> lo) & mask;
        return TOP ? d | ((uint32_t)(k >> hs) & (mask + 1)) : d;
    }
    __device__ __forceinline__ uint32_t last() const { return TOP ? 2 * mask + 1 : mask; }
};

/* per-tile digit counts of keys[0, n) on bits [lo, lo + log2(mask + 1)),
 * tiles of `tile` rows (the scatter's TILE; a multiple of 16 / sizeof(K)),
 * bin-major with a row of `stride` (tiles rounded up to HIST_GROUP) per
 * bin: hist[bin * stride + t]. A block counts HIST_GROUP consecutive tiles
 * and writes each bin's counts of them as one 32-byte sector (zeros past
 * the last tile), where a count a tile was a partial sector each (a
 * tile-major layout measured 0.146 against 0.186 ms a pass on the H200,
 * bench/join_part_notes.md). The order within a tile does not matter
 * here, so the keys are read as 16-byte vectors when keys is 16-byte
 * aligned; one shared histogram per warp (plain shared atomics:
 * __match_any_sync aggregation measured far slower); persistent grid.
 * HASH: the keys are hashed as they are read (gjh::hash_key; the first pass of
 * a partition on hashed keys). ctr (NULL: none): the scatter's tile counter
 * of this pass, zeroed here (part_scatter_kernel). */
enum { HIST_GROUP = 8 };
__host__ __device__ inline uint32_t hist_stride(uint32_t tiles) { return (tiles + HIST_GROUP - 1) / HIST_GROUP * HIST_GROUP; }

template <typename K, int THREADS, bool HASH = false, int RB = 8, bool TOP = false>
__global__ __launch_bounds__(THREADS) void part_hist_kernel(const K *__restrict__ keys, unsigned long long n,
                                                            int lo, uint32_t mask,
                                                            uint32_t *__restrict__ hist, uint32_t tiles,
                                                            uint32_t tile, uint32_t *__restrict__ ctr, int hs = 0)
{
    enum { WARPS = THREADS / 32, VK = 16 / sizeof(K), G = HIST_GROUP };
    static_assert(G == 8, "a bin's counts of a group are one 32-byte sector");
    __shared__ uint32_t h[WARPS][1 << RB];
    __shared__ __align__(16) uint32_t c[1 << RB][G];
    const int warp = threadIdx.x >> 5;
    const bool vec = ((unsigned long long)(uintptr_t)keys & 15) == 0;
    const uint32_t stride = hist_stride(tiles);
    const PartDigit<K, TOP> dig = {lo, mask, hs};
    if (ctr && blockIdx.x == 0 && threadIdx.x == 0) *ctr = 0;
    for (uint32_t g = blockIdx.x; g * G < tiles; g += gridDim.x)
    for (uint32_t t = g * G; t < g * G + G; t++) {
        for (int i = threadIdx.x; i < WARPS << RB; i += THREADS) (&h[0][0])[i] = 0;
        __syncthreads();
        if (t < tiles) { /* else a group's padding: zero counts */
            const unsigned long long b = (unsigned long long)t * tile;
            const unsigned long long e = n - b < tile ? n : b + tile;
            unsigned long long x = b + threadIdx.x;
            if (vec) {
                const uint4 *kv = (const uint4 *)(keys + b);
                const uint32_t nv = (uint32_t)((e - b) / VK);
#pragma unroll 4
                for (uint32_t i = threadIdx.x; i < nv; i += THREADS) {
                    union {
                        uint4 v;
                        K k[VK];
                    } u;
                    u.v = kv[i];
#pragma unroll
                    for (int j = 0; j < VK; j++) {
                        const K k = HASH ? gjh::hash_key(u.k[j]) : u.k[j];
                        atomicAdd(&h[warp][dig.Digit(k)], 1u);
                    }
                }
                x = b + (unsigned long long)nv * VK + threadIdx.x;
            }
            for (; x < e; x += THREADS) {
                const K k = HASH ? gjh::hash_key(keys[x]) : keys[x];
                atomicAdd(&h[warp][dig.Digit(k)], 1u);
            }
        }
        __syncthreads();
        for (uint32_t i = threadIdx.x; i <= dig.last(); i += THREADS) {
            uint32_t sum = 0;
#pragma unroll
            for (int w = 0; w < WARPS; w++) sum += h[w][i];
            c[i][t % G] = sum;
            if (t % G == G - 1) { /* the group's last tile: its counts leave, a sector a bin */
                uint4 *d = (uint4 *)(hist + (unsigned long long)i * stride + (t - (G - 1)));
                d[0] = *(const uint4 *)&c[i][0];
                d[1] = *(const uint4 *)&c[i][4];
            }
        }
        __syncthreads();
    }
}

/* a row's key as a scatter reads it (hashed when HASH); rows past n get
 * all ones, which rank last */
template <typename K, bool HASH>
__device__ __forceinline__ K part_key(const K *__restrict__ kin, unsigned long long x, unsigned long long n)
{
    return x < n ? (HASH ? gjh::hash_key(kin[x]) : kin[x]) : ~(K)0;
}

/* Where a pass's rows live besides vin / kout, vout (SEG, a kernel's
 * template argument):
 *   0 (SEG_NONE)   nowhere else: the fields are unused;
 *   1 (SEG_VOUT)   the values written in two pieces: rows [0, at) to
 *                  vout, rows [at, n) to v2 (SMJ-TR's scratch pair);
 *   2 (SEG_VIN)    the values read so: rows [at, n) from v2;
 *   3 (SEG_HALVES) keys and values written in two pieces, rows [at, n)
 *                  to k2 and v2 (split values: their low halves to v2 read
 *                  as a 4-byte column, their high halves to h2), and the
 *                  digit takes the partition's top bit (PartDigit's TOP,
 *                  hs): join_api.cu partition_halves' first pass. */
enum { SEG_NONE = 0, SEG_VOUT = 1, SEG_VIN = 2, SEG_HALVES = 3 };
template <typename K, typename V>
struct PartSeg {
    V *v2;
    unsigned long long at;
    K *k2;
    uint32_t *h2;
    int hs;
};

/* a row's value as a scatter reads it: the row index (PV_IOTA), a column
 * (PV_COPY; SEG_VIN: rows from seg.at on in seg.v2) or two 4-byte columns
 * packed (PV_PACK, va in the low half) */
template <typename V, int MODE, int SEG, typename K>
__device__ __forceinline__ V part_val(const V *__restrict__ vin, const uint32_t *__restrict__ va,
                                      const uint32_t *__restrict__ vb, const PartSeg<K, V> &seg,
                                      unsigned long long x, unsigned long long n)
{
    if (MODE == PV_IOTA) return (V)x;
    if (x >= n) return (V)0;
    if (MODE == PV_COPY) return SEG == SEG_VIN && x >= seg.at ? seg.v2[x - seg.at] : vin[x];
    return (V)((unsigned long long)va[x] | ((unsigned long long)vb[x] << 32));
}

/* SEG_HALVES' second piece as the stores address it: each pointer moved
 * back by `at` rows, so that a row dst >= at goes to k2[dst] (one 32-bit
 * compare a store; with a 64-bit compare and a subtraction a store the
 * first pass of W1's R side took 1.61 ms, with this 1.54, the plain pass
 * 1.45: H100, ncu, bench/RESULTS.md session 23) */
template <typename K, typename V>
struct PartSecond {
    K *k2;
    V *v2;
    uint32_t *lo2, *hi2;
    uint32_t at;
};
template <typename K, typename V>
__device__ __forceinline__ PartSecond<K, V> part_second(const PartSeg<K, V> &seg)
{
    const uint32_t at = (uint32_t)seg.at;
    return {seg.k2 - at, seg.v2 - at, (uint32_t *)seg.v2 - at, seg.h2 - at, at};
}

/* a key to its place dst: kout, or the second piece's from at on
 * (SEG_HALVES) */
template <int SEG, typename K, typename V>
__device__ __forceinline__ void part_kput(K *__restrict__ kout, const PartSecond<K, V> &sc, uint32_t dst, K k)
{
    if (SEG == SEG_HALVES && dst >= sc.at) sc.k2[dst] = k;
    else kout[dst] = k;
}

/* a value to its place dst: SPLIT (8-byte values), its low half to vout
 * read as a 4-byte column and its high half to vhi; else whole. From
 * seg.at on, SEG_HALVES writes to the second piece instead, and SEG_VOUT
 * whole values to seg.v2 (split ones go to vout and vhi: SMJ-TR's one-pass
 * case, whose v2 is vout + at). */
template <typename V, int SEG, bool SPLIT, typename K>
__device__ __forceinline__ void part_put(V *__restrict__ vout, uint32_t *__restrict__ vhi, const PartSeg<K, V> &seg,
                                         const PartSecond<K, V> &sc, uint32_t dst, V v)
{
    const uint32_t lo = (uint32_t)(unsigned long long)v, hi = (uint32_t)((unsigned long long)v >> 32);
    if (SEG == SEG_HALVES && dst >= sc.at) {
        if constexpr (SPLIT) {
            sc.lo2[dst] = lo;
            sc.hi2[dst] = hi;
        } else {
            sc.v2[dst] = v;
        }
    } else if constexpr (SPLIT) {
        ((uint32_t *)vout)[dst] = lo;
        vhi[dst] = hi;
    } else if (SEG == SEG_VOUT && dst >= seg.at) {
        seg.v2[dst - seg.at] = v;
    } else {
        vout[dst] = v;
    }
}

/* scatter one pass: offs = exclusive scan of part_hist_kernel's counts
 * (bin-major: offs[bin * hist_stride(tiles) + t]); HASH: kin is hashed as
 * it is read, and kout receives the hashed keys. Persistent: a block starts
 * at tile blockIdx.x and walks t + gridDim.x, ..., or with tile_ctr (a
 * zeroed counter) takes gridDim.x + the counter's next value, so that the
 * tiles leave in the order they began and the neighbours' partial sectors
 * of a bin meet in L2; the next tile's keys are loaded into the key registers
 * (free once this tile's keys are staged) before this tile's stores, so that
 * those loads overlap the stores. DYN: the staging buffer is dynamic shared
 * memory (tiles over 48 KB of values; the launch passes sizeof(PartSmem)).
 * vhi (8-byte values only; NULL otherwise): the values leave split, their
 * low 4 bytes to vout read as a 4-byte column, their high 4 bytes to vhi:
 * a packed pair comes out as its two columns again. */
template <typename K, typename V, int THREADS, int ITEMS, int RB = 8>
union PartSmem {
    typename cub::BlockRadixRankMatchEarlyCounts<THREADS, RB, false>::TempStorage rank;
    K k[THREADS * ITEMS];
    V v[THREADS * ITEMS];
};

/* SEG and seg: PartSeg above (SEG_VOUT, SEG_VIN: a scratch pair made of
 * two 4-byte columns, join_api.cu partition_run; SEG_HALVES: the first pass
 * of partition_halves).
 * CLAIM (PGB's claimed pass, operators/shapes.h gj_part_claims): no
 * histogram; offs is the claim's words (partition_claim: each bin's start,
 * its room's end, its cursor, then the overflow flag), and a tile takes
 * its run in each bin with one atomic add on the bin's cursor; a run past
 * the room sets the flag and is written at the bin's start instead
 * (inside the output; the caller discards the pass). CLAIM without HASH
 * (a direct plan's keys: join_partition.h GJ_PART_RES16) writes each key
 * as its 2-byte residue above the partition's bits, from kin[0]'s; one out
 * of int16's reach sets the flag too. */
template <typename K, typename V, int MODE, int THREADS, int ITEMS, int MINB, bool HASH = false, bool DYN = false,
          int SEG = 0, int RB = 8, bool CLAIM = false>
__global__ __launch_bounds__(THREADS, MINB) void part_scatter_kernel(
    const K *__restrict__ kin, const V *__restrict__ vin, const uint32_t *__restrict__ va,
    const uint32_t *__restrict__ vb, K *__restrict__ kout, V *__restrict__ vout, uint32_t *__restrict__ vhi,
    unsigned long long n, int lo, uint32_t mask, const uint32_t *__restrict__ offs, uint32_t tiles,
    uint32_t *__restrict__ tile_ctr, PartSeg<K, V> seg)
{
    enum { TILE = THREADS * ITEMS };
    /* CUB onesweep's ranker: per-warp counts first, then warp matches; no
     * per-item counter pointers, so fewer registers than BlockRadixRankMatch
     * (measured: bench/join_part_notes.md) */
    typedef cub::BlockRadixRankMatchEarlyCounts<THREADS, RB, false> Rank;
    typedef PartSmem<K, V, THREADS, ITEMS, RB> Smem;
    static_assert(Rank::BINS_TRACKED_PER_THREAD == 1, "one bin per thread");
    Smem *up;
    if constexpr (DYN) {
        extern __shared__ __align__(16) unsigned char part_dyn_smem[];
        up = reinterpret_cast<Smem *>(part_dyn_smem);
    } else {
        __shared__ Smem s;
        up = &s;
    }
    Smem &u = *up;
    __shared__ uint32_t off[1 << RB];
    __shared__ uint32_t excl[CLAIM ? (1 << RB) + 1 : 1];
    __shared__ uint32_t next_tile;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const uint32_t stride = hist_stride(tiles);
    static_assert(!CLAIM || ((RB == 8 || RB == GJ_PART_WIDE_BITS || RB == GJ_PART_CLAIM_MAX_BITS) &&
                             THREADS * ITEMS == GJ_PART_CLAIM_TILE_OF(RB)),
                  "the claimed pass: 8 bits, the wide pass's or the claim's most, its tile");
    const PartDigit<K, SEG == SEG_HALVES> dig = {lo, mask, seg.hs};
    const PartSecond<K, V> sc = part_second(seg);
    const unsigned long long wbase = warp * (ITEMS * 32) + lane;
    /* RES: residues (k >> rbits) - rbase, the claim's flag where one leaves int16 */
    constexpr bool RES = CLAIM && !HASH;
    const int rbits = RES ? __popc(mask) : 0;
    const long long rbase = RES && n ? (long long)(kin[0] >> rbits) : 0;
    K keys[ITEMS];
    if (blockIdx.x < tiles) {
#pragma unroll
        for (int i = 0; i < ITEMS; i++)
            keys[i] = part_key<K, HASH>(kin, (unsigned long long)blockIdx.x * TILE + wbase + i * 32, n);
    }
    for (uint32_t t = blockIdx.x, nt; t < tiles; t = nt) {
        const unsigned long long tbase = (unsigned long long)t * TILE;
        const unsigned long long base = tbase + wbase;
        V vals[ITEMS];
        int ranks[ITEMS];
        /* this tile's output offset of bin tid, fetched before the ranking */
        const uint32_t goff = !CLAIM && tid <= (int)dig.last() ? offs[(unsigned long long)tid * stride + t] : 0;
        if (tile_ctr && tid == 0) next_tile = gridDim.x + atomicAdd(tile_ctr, 1u);
        int prefix[1];
        Rank(u.rank).RankKeys(keys, ranks, dig, prefix);
        /* values loaded after the ranking (fewer live registers); they
         * arrive while the keys are staged and written */
#pragma unroll
        for (int i = 0; i < ITEMS; i++) vals[i] = part_val<V, MODE, SEG>(vin, va, vb, seg, base + i * 32, n);
        /* CLAIM: this tile's run in bin tid (padding rows rank last, past
         * the tile's rows), claimed once the ranking's prefixes are all in (the
         * barrier that frees the ranking storage), its atomic in flight
         * while the keys are staged and the next tile's loaded: at its
         * first use, where off[] is written (issued and waited on before
         * the staging, the claimed scatter took 3.59 ms against the exact
         * one's 3.13 with 4-byte keys: H100, ncu, bench/RESULTS.md session
         * 21) */
        uint32_t cl_b = 0, cl_c = 0, cl_at = 0;
        if constexpr (CLAIM) {
            if (tid <= (int)mask) excl[tid] = (uint32_t)prefix[0];
            if (tid == 0) excl[mask + 1] = TILE;
        } else if (tid <= (int)dig.last()) {
            off[tid] = goff - (uint32_t)prefix[0];
        }
        __syncthreads(); /* ranking storage -> staging; CLAIM: excl complete */
        if (CLAIM && tid <= (int)mask) {
            const uint32_t in = n - tbase < TILE ? (uint32_t)(n - tbase) : (uint32_t)TILE;
            cl_b = min(excl[tid], in);
            cl_c = min(excl[tid + 1], in) - cl_b;
            if (cl_c) cl_at = atomicAdd((uint32_t *)offs + 2 * (mask + 1) + tid, cl_c);
        }
        nt = tile_ctr ? next_tile : t + gridDim.x;
#pragma unroll
        for (int i = 0; i < ITEMS; i++) u.k[ranks[i]] = keys[i];
        if (nt < tiles) { /* the next tile's keys */
            const unsigned long long nb = (unsigned long long)nt * TILE + wbase;
#pragma unroll
            for (int i = 0; i < ITEMS; i++) keys[i] = part_key<K, HASH>(kin, nb + i * 32, n);
        }
        if (CLAIM && tid <= (int)mask) { /* past the bin's room: flagged, written at its start (discarded) */
            if (cl_c && cl_at + cl_c > offs[mask + 1 + tid]) {
                *((volatile uint32_t *)offs + 4 * (mask + 1)) = 1u;
                cl_at = offs[tid];
            }
            off[tid] = cl_at - cl_b;
        }
        __syncthreads();
        const unsigned long long left = n - tbase;
        const uint32_t valid = left < TILE ? (uint32_t)left : (uint32_t)TILE;
        uint32_t dst[ITEMS];
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            const uint32_t p = tid + i * THREADS;
            if (p < valid) {
                const K k = u.k[p];
                dst[i] = off[dig.Digit(k)] + p;
                if constexpr (RES) {
                    const long long d = (long long)(k >> rbits) - rbase;
                    if (d != (int16_t)d) *((volatile uint32_t *)offs + 4 * (mask + 1)) = 1u;
                    ((uint16_t *)kout)[dst[i]] = (uint16_t)d;
                } else {
                    part_kput<SEG>(kout, sc, dst[i], k);
                }
            }
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < ITEMS; i++) u.v[ranks[i]] = vals[i];
        __syncthreads();
        /* two loops, not a branch on vhi an item: with the branch inside,
         * PGB-TR's scatter (same instantiation, vhi NULL) ran its 64-bin
         * second pass at 2^24 groups in 2.95 ms against 2.45 before the
         * split existed, as two loops 2.63 against 2.46 (H100, ncu, static
         * tile order, bench/RESULTS.md session 16) */
        if (sizeof(V) == 8 && vhi) { /* split: low halves to vout as 4-byte values, high to vhi */
#pragma unroll
            for (int i = 0; i < ITEMS; i++) {
                const uint32_t p = tid + i * THREADS;
                if (p < valid) part_put<V, SEG, sizeof(V) == 8>(vout, vhi, seg, sc, dst[i], u.v[p]);
            }
        } else {
#pragma unroll
            for (int i = 0; i < ITEMS; i++) {
                const uint32_t p = tid + i * THREADS;
                if (p < valid) part_put<V, SEG, false>(vout, vhi, seg, sc, dst[i], u.v[p]);
            }
        }
        __syncthreads();
    }
}

/* part_scatter_kernel over two consecutive tiles at a time (A, B: a pair
 * of 2 THREADS x ITEMS rows; offs from part_hist_kernel over pair-sized
 * tiles, `tiles` the pairs): A is ranked and its keys staged by rank, then
 * B is ranked; every row's place in the pair is its rank plus the other
 * tile's rows before it in digit order (A's: B's rows of lower digits; B's:
 * A's rows of its digit and below), and keys, then values, are staged at
 * those places and stored, so a bin's run from a block is twice as long.
 * Same modes and arguments as part_scatter_kernel, but for hashing (PGB's
 * hashed pass lost with it); one block an SM (the
 * pair's staging: 157 KB for 4-byte keys and 8-byte values, dynamic shared
 * memory of sizeof(PairSmem)). H100, one 8-bit pass of 4-byte keys with
 * 8-byte values: 1.47 -> 1.43 ms at 2^27 rows, 2.92 -> 2.75 at 2^28; 7
 * bits 1.335 -> 1.37, so only 8-bit passes take it (bench/RESULTS.md,
 * session 19; bench/pairtile_probe.cu). */
template <typename K, typename V, int THREADS, int ITEMS>
struct PairSmem {
    typedef cub::BlockRadixRankMatchEarlyCounts<THREADS, 8, false> Rank;
    union {
        typename Rank::TempStorage rank;
        K k[2 * THREADS * ITEMS]; /* keys at their places in the pair */
        V v[2 * THREADS * ITEMS]; /* then the values */
    } x;
    union {
        K ka[THREADS * ITEMS];      /* A's keys by A's rank */
        uint8_t dg[2 * THREADS * ITEMS]; /* then each place's digit */
    } z;
    uint32_t exa[257], exb[257], off[256];
    uint32_t next;
};

template <typename K, typename V, int MODE, int THREADS, int ITEMS, int SEG = 0>
__global__ __launch_bounds__(THREADS, 1) void part_scatter2_kernel(
    const K *__restrict__ kin, const V *__restrict__ vin, const uint32_t *__restrict__ va,
    const uint32_t *__restrict__ vb, K *__restrict__ kout, V *__restrict__ vout, uint32_t *__restrict__ vhi,
    unsigned long long n, int lo, uint32_t mask, const uint32_t *__restrict__ offs, uint32_t tiles,
    uint32_t *__restrict__ tile_ctr, PartSeg<K, V> seg)
{
    typedef unsigned long long u64;
    enum { TILE = THREADS * ITEMS, PT = 2 * TILE };
    typedef PairSmem<K, V, THREADS, ITEMS> Smem;
    typedef typename Smem::Rank Rank;
    extern __shared__ __align__(16) unsigned char part_dyn_smem[];
    Smem &s = *reinterpret_cast<Smem *>(part_dyn_smem);
    const int tid = threadIdx.x;
    const uint32_t stride = hist_stride(tiles);
    const PartDigit<K, SEG == SEG_HALVES> dig = {lo, mask, seg.hs};
    const PartSecond<K, V> sc = part_second(seg);
    const u64 wbase = (tid >> 5) * (ITEMS * 32) + (tid & 31); /* warp-striped, as part_scatter_kernel */
    for (uint32_t q = blockIdx.x; q < tiles;) {
        const u64 base = (u64)q * PT + wbase, left = n - (u64)q * PT;
        const uint32_t valid = left < PT ? (uint32_t)left : (uint32_t)PT;
        if (tid == 0) s.next = tile_ctr ? gridDim.x + atomicAdd(tile_ctr, 1u) : q + gridDim.x;
        K keys[ITEMS];
        int ra[ITEMS], rb[ITEMS], pre[1];
#pragma unroll
        for (int i = 0; i < ITEMS; i++) keys[i] = part_key<K, false>(kin, base + i * 32, n);
        Rank(s.x.rank).RankKeys(keys, ra, dig, pre);
        if (tid < 256) s.exa[tid] = pre[0]; /* bins above mask: TILE, the whole tile */
        if (tid == 0) s.exa[256] = TILE;
#pragma unroll
        for (int i = 0; i < ITEMS; i++) s.z.ka[ra[i]] = keys[i];
        __syncthreads(); /* the ranking storage is B's now */
#pragma unroll
        for (int i = 0; i < ITEMS; i++) keys[i] = part_key<K, false>(kin, base + TILE + i * 32, n);
        Rank(s.x.rank).RankKeys(keys, rb, dig, pre);
        if (tid < 256) s.exb[tid] = pre[0];
        if (tid == 0) s.exb[256] = TILE;
        __syncthreads(); /* exa, exb complete; the ranking storage is free */
        if (tid <= (int)dig.last()) s.off[tid] = offs[(u64)tid * stride + q] - (s.exa[tid] + s.exb[tid]);
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            ra[i] += s.exb[dig.Digit(s.z.ka[ra[i]])];
            rb[i] += s.exa[dig.Digit(keys[i]) + 1];
            s.x.k[rb[i]] = keys[i];
        }
        for (uint32_t r = tid; r < TILE; r += THREADS) {
            const K k = s.z.ka[r];
            s.x.k[r + s.exb[dig.Digit(k)]] = k;
        }
        V vals_a[ITEMS], vals_b[ITEMS]; /* in flight while the keys are stored */
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            vals_a[i] = part_val<V, MODE, SEG>(vin, va, vb, seg, base + i * 32, n);
            vals_b[i] = part_val<V, MODE, SEG>(vin, va, vb, seg, base + TILE + i * 32, n);
        }
        __syncthreads(); /* the pair's keys staged; A's read */
#pragma unroll
        for (int i = 0; i < 2 * ITEMS; i++) {
            const uint32_t p = tid + i * THREADS;
            if (p < valid) {
                const K k = s.x.k[p];
                const uint32_t d = dig.Digit(k);
                s.z.dg[p] = (uint8_t)d;
                part_kput<SEG>(kout, sc, s.off[d] + p, k);
            }
        }
        __syncthreads(); /* the keys read: the values over them */
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            s.x.v[ra[i]] = vals_a[i];
            s.x.v[rb[i]] = vals_b[i];
        }
        __syncthreads();
        if (sizeof(V) == 8 && vhi) { /* two loops, as part_scatter_kernel's */
#pragma unroll
            for (int i = 0; i < 2 * ITEMS; i++) {
                const uint32_t p = tid + i * THREADS;
                if (p < valid) part_put<V, SEG, sizeof(V) == 8>(vout, vhi, seg, sc, s.off[s.z.dg[p]] + p, s.x.v[p]);
            }
        } else {
#pragma unroll
            for (int i = 0; i < 2 * ITEMS; i++) {
                const uint32_t p = tid + i * THREADS;
                if (p < valid) part_put<V, SEG, false>(vout, vhi, seg, sc, s.off[s.z.dg[p]] + p, s.x.v[p]);
            }
        }
        q = s.next;
        __syncthreads(); /* next read; the staging free for the next pair */
    }
}

/* Partition starts of keys partitioned on bits [lo, lo + log2(mask + 1))
 * (the stable radix order above): start[p] = first row whose
 * (key >> lo) & mask >= p, for p in [0, P], so start[P] = n. One binary
 * search per partition boundary (log2 n dependent loads, the top levels
 * shared in L2) instead of a pass over all n keys: on the H200 that pass
 * read the whole probe side again (2^26 keys: about 0.1 ms) even when there
 * is one partition, and PGB's 2^28 hashed keys in 0.47 ms (ncu). Used by
 * PHJ, PGB and SMJ's MSD sort. */
template <typename K>
__global__ void bounds_kernel(const K *k, unsigned long long n, uint32_t mask, uint32_t P, uint32_t *start,
                              int lo = 0)
{
    typedef unsigned long long u64;
    for (u64 p = blockIdx.x * (u64)blockDim.x + threadIdx.x; p <= P; p += (u64)gridDim.x * blockDim.x) {
        u64 a = 0, b = n;
        while (a < b) {
            const u64 mid = a + (b - a) / 2;
            if (((u64)__ldg(k + mid) >> lo & mask) < p) a = mid + 1;
            else b = mid;
        }
        start[p] = (uint32_t)a;
    }
}

struct MinOp {
    __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const
    {
        return a < b ? a : b;
    }
};
struct MaxOp {
    __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const
    {
        return a > b ? a : b;
    }
};

/* min and max of keys k[0], k[stride], ... (n of them), folded into mm[0]
 * (min) and mm[1] (max; the caller sets them to ~0 and 0): the key bits
 * SMJ sorts (every key), and HGB's guess of whether its keys are dense (a
 * sample; groupby_api.cu hgb_onepass). descent (set to 0 by the caller):
 * 1 if some key is below the one before it (unsigned), so that SMJ leaves
 * a side already in key order as it is; the key before is mostly in the
 * L1 already. */
template <typename K, int THREADS>
__global__ __launch_bounds__(THREADS) void minmax_kernel(const K *k, unsigned long long n, unsigned long long *mm,
                                                         unsigned long long stride = 1,
                                                         unsigned long long *descent = NULL)
{
    typedef unsigned long long u64;
    typedef cub::BlockReduce<u64, THREADS> BR;
    __shared__ typename BR::TempStorage tmp;
    u64 lo = ~0ULL, hi = 0;
    bool down = false; /* a key below the one before it (descent != NULL) */
    if (stride == 1) { /* four consecutive keys a thread, their loads in flight together */
        for (u64 i = 4 * (blockIdx.x * (u64)THREADS + threadIdx.x); i < n; i += 4 * (u64)gridDim.x * THREADS) {
            u64 v[4], before = descent && i > 0 ? (u64)k[i - 1] : 0;
#pragma unroll
            for (int q = 0; q < 4; q++) v[q] = q == 0 || i + q < n ? (u64)k[i + q] : v[q - 1]; /* past n: the last */
#pragma unroll
            for (int q = 0; q < 4; q++) {
                lo = v[q] < lo ? v[q] : lo;
                hi = v[q] > hi ? v[q] : hi;
                down |= (q ? v[q - 1] : before) > v[q];
            }
        }
    } else {
        for (u64 i = blockIdx.x * (u64)THREADS + threadIdx.x; i < n; i += (u64)gridDim.x * THREADS) {
            u64 v = (u64)k[i * stride];
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
            if (descent && i > 0 && v < (u64)k[(i - 1) * stride]) down = true;
        }
    }
    if (descent && down) *descent = 1;
    u64 blo = BR(tmp).Reduce(lo, MinOp());
    __syncthreads();
    u64 bhi = BR(tmp).Reduce(hi, MaxOp());
    if (threadIdx.x == 0) {
        atomicMin(mm, blo);
        atomicMax(mm + 1, bhi);
    }
}

/* ---- MSD sort: the partition above on the top key bits, then each
 * partition sorted on the bits below in one block (join_api.cu msd_sort) */

/* rows per partition, from a sample (hist: counts of the sampled keys) or
 * exact (start: bounds_kernel's starts). Partitions of more than `limit`
 * rows are over: their rows are summed into stat[0] and the largest is
 * stat[1]; end (exact only) is a partition's end if it is over, its start
 * otherwise: the segments left to a segmented sort. list (exact only)
 * receives the partitions of more than `small` and at most `limit` rows,
 * stat[2] of them, for the block sort's larger tile. */
static __global__ void msd_over_kernel(const uint32_t *__restrict__ hist, const uint32_t *__restrict__ start,
                                       uint32_t P, uint32_t small, uint32_t limit, uint32_t *__restrict__ end,
                                       uint32_t *__restrict__ list, unsigned long long *stat)
{
    for (uint32_t p = blockIdx.x * blockDim.x + threadIdx.x; p < P; p += gridDim.x * blockDim.x) {
        const uint32_t m = hist ? hist[p] : start[p + 1] - start[p];
        if (end) end[p] = m > limit ? start[p + 1] : start[p];
        if (m > limit) {
            atomicAdd(&stat[0], (unsigned long long)m);
            atomicMax(&stat[1], (unsigned long long)m);
        } else if (list && m > small) {
            list[atomicAdd(&stat[2], 1ULL)] = p;
        }
    }
}

template <typename K>
__global__ void msd_sample_kernel(const K *__restrict__ keys, unsigned long long samples,
                                  unsigned long long stride, int lo, uint32_t mask,
                                  uint32_t *__restrict__ hist)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < samples;
         i += (unsigned long long)gridDim.x * blockDim.x)
        atomicAdd(&hist[(uint32_t)(keys[i * stride] >> lo) & mask], 1u);
}

/* Sorts partitions of at most THREADS * ITEMS rows on key bits [0, bits):
 * partition blockIdx.x (list NULL: one block each, larger ones skipped), or
 * the nlist partitions in list (a persistent grid). A block loads its
 * partition's keys (warp-striped, transposed to blocked through shared
 * memory) and sorts them with CUB's block radix sort, 4 bits a pass
 * (stable; the padding keys are all ones and come after every real key),
 * moving each key's 16-bit position in the partition rather than its value
 * (fewer registers and smaller exchanges: more blocks an SM); then the
 * values are staged in shared memory and the sorted keys and their values
 * stored striped, so coalesced. vhi (not NULL): 8-byte values leave split,
 * their low halves in vout as 4-byte values and their high halves in vhi
 * (a packed pair as its two columns: SMJ-TR's S side); vin_hi (not NULL):
 * they arrive so, vin the low halves. In place (kin == kout, vin == vout,
 * vin_hi == vhi) too: a block reads all its partition's rows before it
 * writes any, and no other block reads or writes them, so the inputs'
 * loads may take the read-only path (__restrict__ on the sources only). */
template <typename K, typename V, int THREADS, int ITEMS, int MINB>
__global__ __launch_bounds__(THREADS, MINB) void msd_block_sort_kernel(
    const K *__restrict__ kin, const V *__restrict__ vin, const uint32_t *__restrict__ vin_hi, K *kout, V *vout,
    uint32_t *vhi,
    const uint32_t *__restrict__ start, int bits, const uint32_t *__restrict__ list,
    const unsigned long long *__restrict__ nlist)
{
    enum { TILE = THREADS * ITEMS };
    typedef cub::BlockLoad<K, THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
    typedef cub::BlockRadixSort<K, THREADS, ITEMS, uint16_t, 4> Sort;
    static_assert(TILE <= 65536, "16-bit positions");
    __shared__ union {
        typename Load::TempStorage load;
        typename Sort::TempStorage sort;
        V stage[TILE];
    } sm;
    const uint32_t items = list ? (uint32_t)*nlist : gridDim.x;
    for (uint32_t it = blockIdx.x; it < items; it += gridDim.x) {
        const uint32_t p = list ? list[it] : it;
        const uint32_t b = start[p], m = start[p + 1] - b;
        if (m == 0 || m > TILE) continue;
        K keys[ITEMS];
        uint16_t pos[ITEMS];
        Load(sm.load).Load(kin + b, keys, (int)m, ~(K)0);
#pragma unroll
        for (int i = 0; i < ITEMS; i++) pos[i] = (uint16_t)(threadIdx.x * ITEMS + i);
        __syncthreads();
        Sort(sm.sort).SortBlockedToStriped(keys, pos, 0, bits);
        __syncthreads();
        for (uint32_t r = threadIdx.x; r < m; r += THREADS)
            sm.stage[r] = vin_hi ? (V)(((const uint32_t *)vin)[b + r] | (unsigned long long)vin_hi[b + r] << 32)
                                 : vin[b + r];
        __syncthreads();
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            const uint32_t r = i * THREADS + threadIdx.x;
            if (r < m) {
                kout[b + r] = keys[i];
                if (vhi) { /* split: the low halves to vout as 4-byte values, the high ones to vhi */
                    const unsigned long long v = (unsigned long long)sm.stage[pos[i]];
                    ((uint32_t *)vout)[b + r] = (uint32_t)v;
                    vhi[b + r] = (uint32_t)(v >> 32);
                } else {
                    vout[b + r] = sm.stage[pos[i]];
                }
            }
        }
        __syncthreads();
    }
}

/* pk[i]'s low half to lo[i], its high half to hi[i]: for i in [0, n)
 * (start NULL), or in the segments [start[p], end[p]) (msd_over_kernel's
 * end), a block a segment p */
static __global__ void split_pairs_kernel(const unsigned long long *__restrict__ pk, uint32_t *__restrict__ lo,
                                          uint32_t *__restrict__ hi, unsigned long long n,
                                          const uint32_t *__restrict__ start, const uint32_t *__restrict__ end)
{
    typedef unsigned long long u64;
    const u64 e = start ? end[blockIdx.x] : n;
    const u64 step = start ? blockDim.x : (u64)gridDim.x * blockDim.x;
    for (u64 i = (start ? start[blockIdx.x] : blockIdx.x * (u64)blockDim.x) + threadIdx.x; i < e; i += step) {
        const unsigned long long v = pk[i];
        lo[i] = (uint32_t)v;
        hi[i] = (uint32_t)(v >> 32);
    }
}

/* ---- MSD sort's hot partitions (skew), in place (join_api.cu msd_hot):
 * each is partitioned stably around a pivot key into the rows below, equal
 * to and above it, through a scratch, without the host: a batch's ns
 * segments (sb: first rows, sm: rows; ns on the device, at most nsmax) are
 * planned by a scan of pt[s] = tiles << 32 | rows (a segment's first tile
 * and first scratch row), its tiles of HOT_TILE rows mapped to their
 * segments (tile), and the tiles' counts cnt[t] = below | equal << 32
 * scanned again, so that each tile finds where its rows go. */
enum { HOT_THREADS = 256, HOT_ITEMS = 8, HOT_TILE = HOT_THREADS * HOT_ITEMS };

/* f[p] = 1 for the partitions of more than `large` rows, p < P; f[P] = 0
 * (an exclusive scan then numbers them and counts them at f[P]) */
static __global__ void hot_flag_kernel(const uint32_t *__restrict__ start, uint32_t P, uint32_t large,
                                       uint32_t *__restrict__ f)
{
    for (uint32_t p = blockIdx.x * blockDim.x + threadIdx.x; p <= P; p += gridDim.x * blockDim.x)
        f[p] = p < P && start[p + 1] - start[p] > large;
}

/* the flagged partitions as segments, in their order (f scanned) */
static __global__ void hot_select_kernel(const uint32_t *__restrict__ start, uint32_t P, uint32_t large,
                                         const uint32_t *__restrict__ f, uint32_t *__restrict__ sb,
                                         uint32_t *__restrict__ sm)
{
    for (uint32_t p = blockIdx.x * blockDim.x + threadIdx.x; p < P; p += gridDim.x * blockDim.x) {
        const uint32_t m = start[p + 1] - start[p];
        if (m > large) {
            sb[f[p]] = start[p];
            sm[f[p]] = m;
        }
    }
}

/* pt[s] = tiles << 32 | rows for s < ns, 0 up to nsmax (scanned after) */
static __global__ void hot_plan_kernel(const uint32_t *__restrict__ sm, const uint32_t *__restrict__ ns,
                                       uint32_t nsmax, unsigned long long *__restrict__ pt)
{
    const uint32_t n = *ns;
    for (uint32_t s = blockIdx.x * blockDim.x + threadIdx.x; s <= nsmax; s += gridDim.x * blockDim.x)
        pt[s] = s < n ? (unsigned long long)(sm[s] / HOT_TILE + (sm[s] % HOT_TILE != 0)) << 32 | sm[s] : 0;
}

/* tile[t] = the segment of tile t, a warp a segment */
static __global__ void hot_tiles_kernel(const unsigned long long *__restrict__ pt, const uint32_t *__restrict__ ns,
                                        uint32_t *__restrict__ tile)
{
    const uint32_t s = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (s >= *ns) return;
    for (uint32_t t = (uint32_t)(pt[s] >> 32) + lane; t < (uint32_t)(pt[s + 1] >> 32); t += 32) tile[t] = s;
}

/* a segment's pivot: the most frequent of 32 keys spread over it (a hot
 * partition is mostly its hot key; ties to the lowest lane), a warp a
 * segment */
template <typename K>
__global__ void hot_pivot_kernel(const K *__restrict__ k, const uint32_t *__restrict__ sb,
                                 const uint32_t *__restrict__ sm, const uint32_t *__restrict__ ns,
                                 K *__restrict__ piv)
{
    const uint32_t s = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (s >= *ns) return; /* whole warps */
    const K key = k[sb[s] + (uint32_t)((unsigned long long)sm[s] * lane / 32)];
    int c = __popc(__match_any_sync(~0u, key)), l = (int)lane;
    for (int o = 16; o; o >>= 1) {
        const int oc = __shfl_xor_sync(~0u, c, o), ol = __shfl_xor_sync(~0u, l, o);
        if (oc > c || (oc == c && ol < l)) {
            c = oc;
            l = ol;
        }
    }
    if ((int)lane == l) piv[s] = key;
}

/* Where a hot tile lies: its segment s, its first row r0 in it, its rows */
struct HotTile {
    uint32_t s, r0, rows;
};
static __device__ __forceinline__ bool hot_tile(const uint32_t *__restrict__ tile,
                                                const unsigned long long *__restrict__ pt, uint32_t nsmax,
                                                const uint32_t *__restrict__ sm, HotTile *h)
{
    const uint32_t t = blockIdx.x;
    if (t >= (uint32_t)(pt[nsmax] >> 32)) return false; /* the grid is a bound */
    h->s = tile[t];
    h->r0 = (t - (uint32_t)(pt[h->s] >> 32)) * HOT_TILE;
    const uint32_t m = sm[h->s] - h->r0;
    h->rows = m < HOT_TILE ? m : HOT_TILE;
    return true;
}

/* a tile's rows copied to the scratch (keys, low and high value halves),
 * cnt[t] = rows below the pivot | rows equal to it << 32 */
template <typename K>
__global__ __launch_bounds__(HOT_THREADS) void hot_copy_kernel(
    const K *__restrict__ k, const uint32_t *__restrict__ lo, const uint32_t *__restrict__ hi,
    const uint32_t *__restrict__ sb, const uint32_t *__restrict__ sm, const unsigned long long *__restrict__ pt,
    uint32_t nsmax, const uint32_t *__restrict__ tile, const K *__restrict__ piv, K *__restrict__ xk,
    uint32_t *__restrict__ xlo, uint32_t *__restrict__ xhi, unsigned long long *__restrict__ cnt)
{
    typedef cub::BlockReduce<uint32_t, HOT_THREADS> BR;
    __shared__ typename BR::TempStorage tmp;
    HotTile h;
    if (!hot_tile(tile, pt, nsmax, sm, &h)) return;
    const uint32_t b = sb[h.s] + h.r0, x = (uint32_t)pt[h.s] + h.r0;
    const K p = piv[h.s];
    uint32_t c = 0;
    for (uint32_t r = threadIdx.x; r < h.rows; r += HOT_THREADS) {
        const K key = k[b + r];
        xk[x + r] = key;
        xlo[x + r] = lo[b + r];
        xhi[x + r] = hi[b + r];
        c += key < p ? 1u : key == p ? 1u << 16 : 0u; /* a tile's counts fit 16 bits */
    }
    c = BR(tmp).Sum(c);
    if (threadIdx.x == 0) cnt[blockIdx.x] = (c & 0xffff) | (unsigned long long)(c >> 16) << 32;
}

/* segment s's rows below and equal to its pivot before tile t (cnt
 * scanned), and in all its tiles */
static __device__ __forceinline__ void hot_counts(const unsigned long long *__restrict__ pt,
                                                  const unsigned long long *__restrict__ cnt, uint32_t s,
                                                  uint32_t t, uint32_t *lt_before, uint32_t *eq_before,
                                                  uint32_t *lt, uint32_t *eq)
{
    const unsigned long long c0 = cnt[pt[s] >> 32], before = cnt[t] - c0, all = cnt[pt[s + 1] >> 32] - c0;
    *lt_before = (uint32_t)before;
    *eq_before = (uint32_t)(before >> 32);
    *lt = (uint32_t)all;
    *eq = (uint32_t)(all >> 32);
}

/* a tile's rows from the scratch back in place, stably by class: below the
 * pivot, equal, above, each part of the segment in tile order; ranked in
 * blocked order, gathered by class in shared memory, then stored
 * coalesced */
template <typename K>
__global__ __launch_bounds__(HOT_THREADS) void hot_scatter_kernel(
    const K *__restrict__ xk, const uint32_t *__restrict__ xlo, const uint32_t *__restrict__ xhi,
    const uint32_t *__restrict__ sb, const uint32_t *__restrict__ sm, const unsigned long long *__restrict__ pt,
    uint32_t nsmax, const uint32_t *__restrict__ tile, const K *__restrict__ piv,
    const unsigned long long *__restrict__ cnt, K *__restrict__ k, uint32_t *__restrict__ lo,
    uint32_t *__restrict__ hi)
{
    typedef cub::BlockScan<uint32_t, HOT_THREADS> Scan;
    __shared__ typename Scan::TempStorage tmp;
    __shared__ K sk[HOT_TILE];
    __shared__ uint32_t slo[HOT_TILE], shi[HOT_TILE];
    HotTile h;
    if (!hot_tile(tile, pt, nsmax, sm, &h)) return;
    const uint32_t x = (uint32_t)pt[h.s] + h.r0, rows = h.rows, first = threadIdx.x * HOT_ITEMS;
    uint32_t ltb, eqb, LT, EQ;
    hot_counts(pt, cnt, h.s, blockIdx.x, &ltb, &eqb, &LT, &EQ);
    const uint32_t b = sb[h.s], base[3] = {b + ltb, b + LT + eqb, b + LT + EQ + h.r0 - ltb - eqb};
    const K p = piv[h.s];
    K key[HOT_ITEMS];
    uint32_t cls[HOT_ITEMS], c = 0, pre = 0, all = 0;
#pragma unroll
    for (int i = 0; i < HOT_ITEMS; i++) {
        cls[i] = 3; /* past the tile */
        if (first + i < rows) {
            key[i] = xk[x + first + i];
            cls[i] = key[i] < p ? 0 : key[i] == p ? 1 : 2;
            c += cls[i] == 0 ? 1u : cls[i] == 1 ? 1u << 16 : 0u;
        }
    }
    Scan(tmp).ExclusiveSum(c, pre, all);
    const uint32_t lt = all & 0xffff, eq = all >> 16;
    /* this thread's next slot of each class in the tile's class order */
    uint32_t at[3] = {pre & 0xffff, lt + (pre >> 16), 0};
    at[2] = lt + eq + (first < rows ? first : rows) - (pre & 0xffff) - (pre >> 16);
#pragma unroll
    for (int i = 0; i < HOT_ITEMS; i++) {
        if (cls[i] == 3) continue;
        const uint32_t d = at[cls[i]]++;
        sk[d] = key[i];
        slo[d] = xlo[x + first + i];
        shi[d] = xhi[x + first + i];
    }
    __syncthreads();
    for (uint32_t r = threadIdx.x; r < rows; r += HOT_THREADS) {
        const uint32_t d = r < lt ? base[0] + r : r < lt + eq ? base[1] + (r - lt) : base[2] + (r - lt - eq);
        k[d] = sk[r];
        lo[d] = slo[r];
        hi[d] = shi[r];
    }
}

/* each segment's parts below and above its pivot: within `large` rows, as
 * the block sort's items (pairs[4 s + 2 q], pairs[4 s + 2 q + 1]: first,
 * end; list[2 s + q] = 4 s + 2 q; *nlist = 2 ns; empty where the part went
 * on), else appended to the next round's segments (nb, nm, *nn) */
static __global__ void hot_parts_kernel(const uint32_t *__restrict__ sb, const uint32_t *__restrict__ sm,
                                        const uint32_t *__restrict__ ns, const unsigned long long *__restrict__ pt,
                                        const unsigned long long *__restrict__ cnt, uint32_t large,
                                        uint32_t *__restrict__ pairs, uint32_t *__restrict__ list,
                                        unsigned long long *__restrict__ nlist, uint32_t *__restrict__ nb,
                                        uint32_t *__restrict__ nm, uint32_t *__restrict__ nn)
{
    const uint32_t n = *ns;
    for (uint32_t s = blockIdx.x * blockDim.x + threadIdx.x; s < n; s += gridDim.x * blockDim.x) {
        uint32_t ltb, eqb, lt, eq;
        hot_counts(pt, cnt, s, (uint32_t)(pt[s] >> 32), &ltb, &eqb, &lt, &eq);
        const uint32_t part[2][2] = {{sb[s], lt}, {sb[s] + lt + eq, sm[s] - lt - eq}};
        for (int q = 0; q < 2; q++) {
            const bool on = part[q][1] > large;
            pairs[4 * s + 2 * q] = part[q][0];
            pairs[4 * s + 2 * q + 1] = on ? part[q][0] : part[q][0] + part[q][1];
            list[2 * s + q] = 4 * s + 2 * q;
            if (on) {
                const uint32_t i = atomicAdd(nn, 1u);
                nb[i] = part[q][0];
                nm[i] = part[q][1];
            }
        }
        if (s == 0) *nlist = 2ULL * n;
    }
}

} // namespace gjj

#endif
