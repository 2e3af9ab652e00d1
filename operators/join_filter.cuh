/* Kernels of the joins' semi-join filter (operators/join_api.cu key_filter,
 * operators/JOIN.md "The semi-join filter"). A bitmap holds one side's keys
 * over R's key range (bit k - lo), small enough to stay in the L2; the
 * other side's rows are flagged against it a tile at a time (a mask word
 * of 32 rows, a count a tile), and after a scan of the counts each tile
 * copies its flagged rows, in order, to its place in the cut side's
 * columns. No launches here. */
#ifndef GJ_OPERATORS_JOIN_FILTER_CUH
#define GJ_OPERATORS_JOIN_FILTER_CUH

#include <stdint.h>

#include "operators/common.cuh" /* GJ_MAX_PAYLOADS */

namespace gjj {

typedef unsigned long long u64;

/* a tile: FILT_THREADS threads, FILT_ITEMS rows each, FILT_WORDS mask words */
enum { FILT_THREADS = 256, FILT_ITEMS = 16, FILT_TILE = FILT_THREADS * FILT_ITEMS, FILT_WORDS = FILT_TILE / 32 };

/* Set bit d of bm for each active lane of the warp (all 32 lanes call it).
 * Where neighbouring lanes' bits fall in one word (a side in key order, or
 * in runs of a key) their bits are ORed together first, by a segmented
 * scan over the runs of equal words, and one atomic a run is issued: the
 * L2 serialises atomics on one address, which a warp of sorted keys would
 * otherwise send it 32 of. Where no two neighbours share a word (random
 * keys) one vote costs the check. Non-neighbours that share a word may OR
 * each other's bits in as well: the same bits, harmless. comb = 0: one
 * atomic a key (GJ_JOIN_FILTER_COMBINE=off, A/B). */
__device__ __forceinline__ void filt_or_bit(uint32_t *bm, u64 d, bool active, int comb)
{
    const unsigned full = 0xffffffffu, lane = threadIdx.x & 31;
    const u64 w = active ? d >> 5 : ~(u64)lane; /* inactive lanes: words of their own */
    uint32_t bits = active ? 1u << (d & 31) : 0;
    const u64 wp = __shfl_up_sync(full, w, 1); /* every lane: not behind a && */
    const bool same = lane > 0 && wp == w;
    if (!comb || !__any_sync(full, same)) {
        if (active) atomicOr(bm + w, bits);
        return;
    }
#pragma unroll
    for (unsigned s = 1; s < 32; s <<= 1) {
        const uint32_t b = __shfl_up_sync(full, bits, s);
        const u64 ws = __shfl_up_sync(full, w, s);
        if (lane >= s && ws == w) bits |= b;
    }
    const u64 wn = __shfl_down_sync(full, w, 1);
    if (active && (lane == 31 || wn != w)) atomicOr(bm + w, bits); /* a run's last lane */
}

/* bit k - lo of bm for every key k in [lo, lo + span) (the caller's R keys
 * all are): a warp sets 128 consecutive keys at a time, 4 a lane in flight,
 * neighbouring lanes on neighbouring keys (filt_or_bit) */
template <typename K>
__global__ __launch_bounds__(FILT_THREADS) void filt_set_kernel(const K *__restrict__ k, u64 n, u64 lo, u64 span,
                                                                uint32_t *bm, int comb)
{
    const unsigned lane = threadIdx.x & 31;
    const u64 warps = (u64)gridDim.x * (FILT_THREADS / 32);
    for (u64 base = 128 * (blockIdx.x * (u64)(FILT_THREADS / 32) + (threadIdx.x >> 5)); base < n;
         base += 128 * warps) {
        u64 d[4];
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const u64 i = base + 32 * q + lane;
            d[q] = i < n ? (u64)k[i] - lo : span;
        }
#pragma unroll
        for (int q = 0; q < 4; q++) filt_or_bit(bm, d[q], d[q] < span, comb);
    }
}

/* Tile t: mask[w] = which of rows 32 w .. 32 w + 31 have their key in the
 * bitmap (keys outside [lo, lo + span) never are), cnt[t] = how many; each
 * such key is also set in bm2 (NULL: none), the bitmap of the cut side's
 * keys that the other side is then cut by (filt_or_bit). Row r of the tile is thread r %
 * FILT_THREADS's item r / FILT_THREADS, so a warp's ballot is one mask
 * word; CH items in flight a thread. Rows past n: none. wc: FILT_THREADS /
 * 32 words of shared memory. */
template <typename K, int CH>
__device__ __forceinline__ void filt_flag_tile(u64 t, const K *__restrict__ k, u64 n, u64 lo, u64 span,
                                               const uint32_t *__restrict__ bm, uint32_t *mask, u64 *cnt,
                                               uint32_t *bm2, int comb, uint32_t *wc)
{
    const u64 base = t * FILT_TILE;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    uint32_t c = 0;
#pragma unroll
    for (int h = 0; h < FILT_ITEMS; h += CH) {
        u64 d[CH];
        uint32_t bits[CH];
#pragma unroll
        for (int i = 0; i < CH; i++) {
            const u64 r = base + (u64)(h + i) * FILT_THREADS + threadIdx.x;
            d[i] = r < n ? (u64)k[r] - lo : span;
        }
#pragma unroll
        for (int i = 0; i < CH; i++) bits[i] = d[i] < span ? __ldg(bm + (d[i] >> 5)) : 0;
#pragma unroll
        for (int i = 0; i < CH; i++) {
            const bool hit = (bits[i] >> (d[i] & 31)) & 1;
            if (bm2) filt_or_bit(bm2, d[i], hit, comb);
            const uint32_t b = __ballot_sync(0xffffffffu, hit);
            if (lane == 0) mask[t * FILT_WORDS + (h + i) * (FILT_THREADS / 32) + warp] = b;
            c += __popc(b);
        }
    }
    if (lane == 0) wc[warp] = c;
    __syncthreads();
    if (threadIdx.x == 0) {
        u64 sum = 0;
        for (int w = 0; w < FILT_THREADS / 32; w++) sum += wc[w];
        cnt[t] = sum;
    }
}

/* A side's flags, a tile a block (filt_flag_tile) */
template <typename K>
__global__ __launch_bounds__(FILT_THREADS) void filt_flag_kernel(const K *__restrict__ k, u64 n, u64 lo, u64 span,
                                                                 const uint32_t *__restrict__ bm, uint32_t *mask,
                                                                 u64 *cnt, uint32_t *bm2, int comb)
{
    __shared__ uint32_t wc[FILT_THREADS / 32];
    filt_flag_tile<K, FILT_ITEMS>(blockIdx.x, k, n, lo, span, bm, mask, cnt, bm2, comb, wc);
}

/* the columns a cut copies: the key, then the payloads */
struct FiltCols {
    const void *src[1 + GJ_MAX_PAYLOADS];
    void *dst[1 + GJ_MAX_PAYLOADS];
    int w[1 + GJ_MAX_PAYLOADS];
    int n;
};

/* one column of a tile: the flagged rows' values, loaded first (half the
 * tile's rows at a time, all in flight), then stored at o + their rank in
 * the tile */
template <typename T>
__device__ __forceinline__ void filt_copy(const T *__restrict__ src, T *dst, u64 base, u64 o, const uint32_t *sm,
                                          const uint32_t *pre)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    enum { HALF = FILT_ITEMS / 2 };
#pragma unroll
    for (int h = 0; h < FILT_ITEMS; h += HALF) {
        T v[HALF];
#pragma unroll
        for (int i = 0; i < HALF; i++)
            if ((sm[(h + i) * (FILT_THREADS / 32) + warp] >> lane) & 1)
                v[i] = src[base + (u64)(h + i) * FILT_THREADS + threadIdx.x];
#pragma unroll
        for (int i = 0; i < HALF; i++) {
            const int wd = (h + i) * (FILT_THREADS / 32) + warp;
            const uint32_t m = sm[wd];
            if ((m >> lane) & 1) dst[o + pre[wd] + __popc(m & ((1u << lane) - 1))] = v[i];
        }
    }
}

/* Tile t copies its flagged rows of every column to off[t] on, in row
 * order (the cut is stable: a side in key order stays so). sm, pre:
 * FILT_WORDS words of shared memory each, ws FILT_WORDS / 32. */
__device__ __forceinline__ void filt_write_tile(u64 t, const uint32_t *__restrict__ mask,
                                                const u64 *__restrict__ off, const FiltCols &c, uint32_t *sm,
                                                uint32_t *pre, uint32_t *ws)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    uint32_t incl = 0, p = 0;
    if (threadIdx.x < FILT_WORDS) { /* the words' exclusive prefix of counts, warp by warp */
        const uint32_t m = mask[t * FILT_WORDS + threadIdx.x];
        sm[threadIdx.x] = m;
        p = incl = __popc(m);
#pragma unroll
        for (int s = 1; s < 32; s *= 2) {
            const uint32_t x = __shfl_up_sync(0xffffffffu, incl, s);
            if (lane >= s) incl += x;
        }
        if (lane == 31) ws[warp] = incl;
    }
    __syncthreads();
    if (threadIdx.x < FILT_WORDS) {
        uint32_t before = 0;
        for (int w = 0; w < warp; w++) before += ws[w];
        pre[threadIdx.x] = before + incl - p;
    }
    __syncthreads();
    const u64 base = t * FILT_TILE, o = off[t];
    for (int col = 0; col < c.n; col++) {
        if (c.w[col] == 4) filt_copy((const uint32_t *)c.src[col], (uint32_t *)c.dst[col], base, o, sm, pre);
        else filt_copy((const u64 *)c.src[col], (u64 *)c.dst[col], base, o, sm, pre);
    }
}

/* A side's cut, a tile a block (filt_write_tile). Four blocks an SM (64
 * registers; 87 and two blocks ran at 70% of the DRAM's bandwidth, H100,
 * W2's S, ncu). */
__global__ __launch_bounds__(FILT_THREADS, 4) void filt_write_kernel(const uint32_t *__restrict__ mask,
                                                                  const u64 *__restrict__ off, FiltCols c)
{
    __shared__ uint32_t sm[FILT_WORDS], pre[FILT_WORDS], ws[FILT_WORDS / 32];
    filt_write_tile(blockIdx.x, mask, off, c, sm, pre, ws);
}

/* S's cut (DRAM-bound: its columns read and written) and R's flags against
 * the second bitmap (L2-bound: a probe a row) in one grid, their tiles
 * interleaved in proportion (block b is a cut tile where floor((b + 1) wt
 * / (wt + ft)) steps), so that the two share every SM instead of one
 * grid's blocks holding them until it drains (a second stream did not
 * overlap them, session 26). Eight items a thread in flight for the flags:
 * the cut's 64 registers. */
template <typename K>
__global__ __launch_bounds__(FILT_THREADS, 4) void filt_write_flag_kernel(
    const uint32_t *__restrict__ wmask, const u64 *__restrict__ woff, FiltCols c, u64 wt, const K *__restrict__ k,
    u64 n, u64 lo, u64 span, const uint32_t *__restrict__ bm, uint32_t *mask, u64 *cnt, u64 ft)
{
    __shared__ uint32_t sm[FILT_WORDS], pre[FILT_WORDS], ws[FILT_WORDS / 32];
    const u64 b = blockIdx.x, all = wt + ft, w0 = b * wt / all, w1 = (b + 1) * wt / all;
    if (w1 > w0) filt_write_tile(w0, wmask, woff, c, sm, pre, ws);
    else filt_flag_tile<K, FILT_ITEMS / 2>(b - w0, k, n, lo, span, bm, mask, cnt, NULL, 0, sm);
}

} // namespace gjj

#endif
