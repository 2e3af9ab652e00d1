/* GPU joins behind the C ABI: gj_join_exec dispatches PHJ-UR, PHJ-TR,
 * SMJ-UR, SMJ-TR and NPHJ (kernels in join_kernels.cuh). Design notes and
 * measured throughput of the policies: operators/JOIN.md. */
extern "C" {
#include "common/internal.h" /* C linkage: internal.h has no extern "C" guard */
}
#include "operators/common.cuh"
#include "operators/join_filter.cuh"
#include "operators/join_kernels.cuh"
#include "operators/join_partition.cuh"
#include "operators/join_partition.h"

#include <algorithm>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

namespace {
using namespace gjj;

/* ---- policies (tuning parameters; figures: H200, see operators/JOIN.md) -- */

/* PHJ: radix partitioning on the low bits of the key (CUB onesweep, 8 bits a
 * pass), at most MAX_BITS bits so 2 passes; partitions aim at TARGET R rows;
 * the match kernel builds a shared-memory table of up to RC R rows (>= 1.5x
 * slots) and probes SC S rows per block.
 * H200, W1 (2^27 x 2^27, 4-byte keys, 2+2 payloads), median of 7:
 *   (key, id) 16-bit partition of both sides 4.09 ms: 36 B/row, 2.36 TB/s = 0.60 B_G;
 *   (key, packed 2 x 4 B) both sides incl. packing 6.74 ms;
 *   COUNT incl. bounds/items/scans 1.61 ms = 2^28 keys at 167 Gkeys/s;
 *   WRITE (GFTR, unique) 2.66 ms = 5.8 GB at 2.2 TB/s. */
/* SC: S rows per work item. 16384 rather than 4096: a block's fixed cost
 * (table build, syncs, reduce) dominated when a small R met a large S in few
 * partitions (624 x 2^26 rows: match 1.20 -> 0.66 ms on the H200, W1-W4
 * unchanged, 2026-11-22, bench/probe_device.sh). */
/* MIN_TABLE_BITS: every shared-memory table has at least 2^12 slots (32 KB
 * with 4-byte keys, 48 KB with 8-byte keys; 4 blocks of 512 threads still fit
 * an SM), so a small R chunk is probed at a low load factor (see
 * phj_match_kernel). */
struct PhjPolicy {
    enum { MAX_BITS = 16, TARGET = 2048, THREADS = 512, RC = 4096, SC = 16384, MIN_TABLE_BITS = 12 };
    enum { SPARSE_DIV = GJ_PHJ_SPARSE_DIV, SPARSE_THREADS = GJ_PHJ_SPARSE_THREADS, SPARSE_BUF = GJ_PHJ_SPARSE_BUF };
};
/* Radix partition of (key, value) on <= 16 low bits (join_partition.cuh):
 * LSD passes of <= 8 bits, tiles of THREADS * ITEMS rows (CUB onesweep's
 * SM90 shape, ITEMS cut to fit 48 KB of static shared memory), persistent
 * grid, the next tile's keys loaded before this tile's stores. GFTR packed
 * pairs and PGB; the default since 2026-11-22 (session 3),
 * GJ_JOIN_PARTITION=cub selects CUB's radix sort instead.
 * H200, 2026-11-22 (session 4), W1's R side (2^27 rows, 16 bits, key + two
 * 4-byte payloads packed in the first pass), ncu kernel times: histogram
 * 0.19 ms x 2, scatter 1.48 + 1.24 ms (2.2-2.6 TB/s) = 3.10 ms, against
 * CUB's pack 0.56 + histogram 0.14 + onesweep 2 x 1.195 ms = 3.09 ms
 * (bench/join_part_notes.md: smaller tiles with 2 blocks per SM, a
 * tile-major histogram and joint staging measured slower). Since session
 * 12 (2026-11-23) the shape of GJ_JOIN_PART_SHAPE=384x15 only: every pair
 * runs 768 x 10 (partition_pairs). */
struct PartPolicy {
    enum { THREADS = 384, ITEMS = 15, MINB = 1, MAX_BITS = GJ_PART_MAX_BITS };
};
/* NPHJ: global table of 2^ceil(log2(2|R|)) slots; probe tiles of TILE rows.
 * H200, W1: build 18.4 ms (7.3 G inserts/s), COUNT probe 11.7 ms, WRITE 7.9 ms. */
struct NphjPolicy {
    enum { THREADS = 256, TILE = 4096 };
};
/* SMJ: a block merges THREADS * IPT sorted S rows against sorted R.
 * H200, W1: full 27-bit sort of (key, id) both sides 8.04 ms; co-rank + COUNT
 * 1.20 ms; WRITE (GFTR, unique) 1.60 ms. */
struct SmjPolicy {
    enum { THREADS = 256, IPT = 4 };
};

/* ---- stream-ordered allocations with a peak ----------------------------- */
/* An allocation marked kept (mem_keep: the semi-join filter's cut sides)
 * is to the operator what a caller's input column is: mem_owns denies it,
 * mem_free and mem_detach leave it, and only mem_release frees it. */
struct Mem {
    void *p[96];
    size_t sz[96];
    bool keep[96];
    int n;
    size_t now, peak;
    cudaStream_t s;
};

cudaError_t mem_alloc(Mem *m, void **p, size_t bytes)
{
    *p = NULL;
    if (m->n == 96) return cudaErrorMemoryAllocation;
    cudaError_t e = cudaMallocAsync(p, bytes ? bytes : 16, m->s);
    if (e != cudaSuccess) return e;
    m->p[m->n] = *p;
    m->keep[m->n] = false;
    m->sz[m->n++] = bytes;
    m->now += bytes;
    if (m->now > m->peak) m->peak = m->now;
    return cudaSuccess;
}

/* forget p without freeing it (output columns handed to the caller) */
void mem_detach(Mem *m, void *p, int do_free)
{
    if (!p) return;
    for (int i = 0; i < m->n; i++)
        if (m->p[i] == p) {
            if (m->keep[i]) return;
            if (do_free) cudaFreeAsync(p, m->s);
            m->now -= m->sz[i];
            m->p[i] = m->p[--m->n];
            m->sz[i] = m->sz[m->n];
            m->keep[i] = m->keep[m->n];
            return;
        }
}
void mem_free(Mem *m, void *p) { mem_detach(m, p, 1); }
bool mem_owns(const Mem *m, const void *p)
{
    for (int i = 0; i < m->n; i++)
        if (m->p[i] == p) return !m->keep[i];
    return false;
}
void mem_keep(Mem *m, const void *p)
{
    for (int i = 0; i < m->n; i++)
        if (m->p[i] == p) m->keep[i] = true;
}
void mem_release(Mem *m)
{
    for (int i = 0; i < m->n; i++) cudaFreeAsync(m->p[i], m->s);
    m->n = 0;
    m->now = 0;
}

int grid_for(u64 n, int threads)
{
    u64 b = (n + threads - 1) / threads;
    return (int)(b < 8192 ? (b ? b : 1) : 8192);
}

/* One call's state. */
struct Job {
    gj_impl impl;
    const gj_dtable *r, *s;
    gj_join_out *out;
    Mem mem;
    void *tmp;
    size_t tmp_bytes;
    gj_ctx *ctx;
    int hash_keys;         /* PHJ: partition and match on hashed keys          */
    void *hkey_r, *hkey_s; /* the hashed key columns, made when CUB needs them */
    double expect_rows;    /* output rows the workload expects; < 0: unknown   */
    int filter;            /* cut the sides by the semi-join filter first?     */
    gj_dtable cut_r, cut_s; /* ... its cut sides, which r and s then point to  */
};

#define JCUDA(call)                                                                     \
    do {                                                                                \
        cudaError_t gj_e_ = (call);                                                     \
        if (gj_e_ != cudaSuccess) {                                                     \
            cudaGetLastError();                                                         \
            rc = gj_seterr(j->ctx, gj_e_ == cudaErrorMemoryAllocation ? GJ_ERR_INFEASIBLE \
                                                                      : GJ_ERR_CUDA,    \
                           "%s:%d: %s: %s", __FILE__, __LINE__, #call,                  \
                           cudaGetErrorString(gj_e_));                                  \
            goto done;                                                                  \
        }                                                                               \
    } while (0)
#define JLAUNCHED() JCUDA(cudaPeekAtLastError())

/* grow the CUB scratch buffer to `need` bytes */
int tmp_ensure(Job *j, size_t need)
{
    int rc = GJ_OK;
    if (need <= j->tmp_bytes && j->tmp) goto done;
    mem_free(&j->mem, j->tmp);
    j->tmp = NULL;
    JCUDA(mem_alloc(&j->mem, &j->tmp, need));
    j->tmp_bytes = need;
done:
    return rc;
}

template <typename K, typename V>
int sort_pairs(Job *j, const K *kin, K *kout, const V *vin, V *vout, u64 n, int b0, int b1)
{
    int rc = GJ_OK;
    size_t need = 0;
    JCUDA(cub::DeviceRadixSort::SortPairs(NULL, need, kin, kout, vin, vout, (uint32_t)n, b0, b1,
                                          j->mem.s));
    rc = tmp_ensure(j, need);
    if (rc != GJ_OK) goto done;
    need = j->tmp_bytes;
    JCUDA(cub::DeviceRadixSort::SortPairs(j->tmp, need, kin, kout, vin, vout, (uint32_t)n, b0, b1,
                                          j->mem.s));
done:
    return rc;
}

/* out = exclusive prefix sum of in[0, n) (CUB; in == out allowed), on the
 * job's stream with its scratch */
template <typename T>
int exclusive_sum(Job *j, const T *in, T *out, u64 n)
{
    int rc = GJ_OK;
    size_t need = 0;
    JCUDA(cub::DeviceScan::ExclusiveSum(NULL, need, in, out, (int64_t)n, j->mem.s));
    rc = tmp_ensure(j, need);
    if (rc != GJ_OK) goto done;
    need = j->tmp_bytes;
    JCUDA(cub::DeviceScan::ExclusiveSum(j->tmp, need, in, out, (int64_t)n, j->mem.s));
done:
    return rc;
}

/* use the custom partition for a stable sort on bits [b0, b1)? Yes unless
 * GJ_JOIN_PARTITION=cub. Its kernels alone are not faster than CUB's pack +
 * radix sort (bench/join_part_notes.md), but with CUB's allocations (the
 * packed temporary, CUB's scratch) the output allocation of PHJ-TR stalled
 * the host for 0.55 ms after the count read-back on every run at W1 (the
 * GPU idle meanwhile; PHJ-UR's 0.01 ms; with the custom partition PHJ-TR's
 * match phase equals PHJ-UR's, so no stall). H200, 2026-11-22,
 * PHJ-TR total ms custom / CUB: W1 9.92 / 10.51, W2 9.21 / 9.02, W3 7.51 /
 * 7.46, W4 9.76 / 11.14 (bench/RESULTS.md, "Session 3"). Both are stable
 * sorts on the same bits, so columns partitioned by either land in the same
 * order (GFTR may mix them). */
bool use_partition(int b0, int b1)
{
    if (gj_env_is("GJ_JOIN_PARTITION", "cub")) return false;
    return b0 == 0 && b1 >= 1 && b1 <= PartPolicy::MAX_BITS;
}

/* The scatter's tile order: dynamic (a counter hands out the tiles, so
 * they run in the order they began however the blocks drift, and the two
 * tiles that share a bin's boundary sector write it close in time) or
 * static (block b takes b, b + grid, ...). H100, 2026-11-27 (session 16,
 * bench/RESULTS.md), join_bench, two rounds, static -> dynamic: W1 PHJ-TR
 * 10.48-10.57 -> 9.51-9.53 ms (transform 8.53 -> 7.55), W2 11.33-11.38 ->
 * 10.26-10.43, W4 10.13-10.16 -> 9.18-9.21, SMJ-TR W1 14.31-14.38 ->
 * 13.80-13.81; W1's R side alone (join_part_bench, pack) 3.97 -> 3.68 ms.
 * GJ_JOIN_PART_ORDER=static (A/B runs) selects the static order. */
bool part_tile_order()
{
    return !gj_env_is("GJ_JOIN_PART_ORDER", "static");
}

/* Does a pass of w bits over n rows scatter two tiles at a time
 * (part_scatter2_kernel)? From GJ_PART_PAIR_MIN_ROWS rows at 8 bits; its 7
 * bits were slower. H100, join_bench, GJ_JOIN_PART_PAIR=off -> default,
 * two rounds: PHJ-TR W1 9.20 / 9.31 -> 8.90 / 9.05 ms (transform 7.26 /
 * 7.33 -> 6.95 / 7.01), W2 9.68 / 9.70 -> 9.45 / 9.37, W3 6.94 / 6.84 ->
 * 6.74 / 6.74, W4 8.91 / 9.10 -> 8.70 / 8.71; SMJ-TR W1 12.85 / 12.64 ->
 * 12.55 / 12.49, W3 9.86 / 9.89 -> 9.73 / 9.72, W2 and W4 level
 * (bench/RESULTS.md, session 19). GJ_JOIN_PART_PAIR=off|force (A/B runs,
 * tests: force takes every 8-bit pass). */
bool part_pair(u64 n, int w)
{
    if (gj_env_is("GJ_JOIN_PART_PAIR", "off")) return false;
    return w == 8 && (n >= GJ_PART_PAIR_MIN_ROWS || gj_env_is("GJ_JOIN_PART_PAIR", "force"));
}

template <typename C, typename K, typename V, int MODE>
int partition_halves(Job *j, const K *kin, K *kout, const uint32_t *va, const uint32_t *vb, V *vout, uint32_t *vhi,
                     u64 n, int bits, int lo0);

/* Does a two-pass partition of n rows go through a scratch of half its
 * rows (partition_halves)? Where the caller asks (transform_cols: the side
 * transformed second, S, whose partition sets GFTR's peak beside R's
 * columns; R's, first, only adds to the time) and from
 * GJ_PART_HALF_MIN_ROWS rows (model/time.c charges the same).
 * GJ_JOIN_PART_HALF=off|force (A/B runs, tests: force takes every two-pass
 * partition of packed pairs, of any size). */
bool part_halves(u64 n, bool asked)
{
    if (gj_env_is("GJ_JOIN_PART_HALF", "off")) return false;
    return (asked && n >= GJ_PART_HALF_MIN_ROWS) || gj_env_is("GJ_JOIN_PART_HALF", "force");
}

/* Stable partition of (key, value) on key bits [lo0, lo0 + bits), 1 <= bits
 * <= 16: ceil(bits / 8) LSD passes (join_partition.cuh) with the tile shape
 * C (THREADS, ITEMS, MINB, DYN). Values of the first pass: vin (PV_COPY),
 * va | vb << 32 (PV_PACK) or the row index (PV_IOTA). Two passes go through
 * a scratch pair of n rows: xk, xv when given (the caller's), else
 * allocated here. vhi: the last pass writes 8-byte values split, the low
 * halves to vout as a column of n 4-byte values, the high halves to vhi
 * (part_scatter_kernel); vout is then never a pass's source (two passes at
 * most: the first writes the scratch). SEGX: the scratch's values are in
 * two pieces, rows [0, ceil(n / 2)) at xv and the rest at xv2 (two 4-byte
 * columns of n + 1 and n rows serve as a scratch of n 8-byte values:
 * SMJ-TR's S pair, msd_sort). wide: a hashed partition of
 * GJ_PART_WIDE_BITS bits in one pass (gj_part_passes), where the tile
 * shape has a thread a bin (not SEGX); otherwise two. pair_rows (0: n):
 * the rows part_pair decides by (partition_halves: the whole partition's,
 * not a half's). halves: two passes may go through a scratch of half the
 * rows (part_halves). */
template <typename C, typename K, typename V, int MODE, bool HASH, bool SEGX = false>
int partition_run(Job *j, const K *kin, K *kout, const V *vin, const uint32_t *va, const uint32_t *vb,
                  V *vout, u64 n, int bits, int lo0, K *xk, V *xv, uint32_t *vhi, V *xv2 = NULL, bool wide = false,
                  u64 pair_rows = 0, bool halves = false)
{
    enum { TILE = C::THREADS * C::ITEMS, HT = 384, WB = GJ_PART_WIDE_BITS };
    static_assert(TILE % (16 / sizeof(K)) == 0, "histogram vector loads need whole vectors per tile");
    constexpr bool WIDE = HASH && !SEGX && C::THREADS >= (1 << WB);
    const bool one_wide = WIDE && gj_part_passes(bits, wide) == 1 && bits > 8;
    const size_t dyn = C::DYN ? sizeof(PartSmem<K, V, C::THREADS, C::ITEMS>) : 0;
    int rc = GJ_OK, dev = 0, sms = 0, occ_h = 0, occ_s = 0, occ_c = 0;
    const int passes = one_wide ? 1 : (bits + 7) / 8;
    const uint32_t bins = one_wide ? 1u << WB : 256u; /* histogram rows a pass */
    static_assert(C::MAX_PASSES <= 2,
                  "vhi: vout is not read back; SEGX: the first pass writes the scratch, the second reads it");
    /* two tiles at a time: 4-byte keys (80 registers with 8-byte values;
     * 8-byte keys would spill), the 768 x 10 shape, not on hashed keys:
     * PGB's hashed 8-bit pass of 2^28 rows took 0.24 ms longer with it
     * (H100, PGB-TR's group phase at 2^18 and 2^20 groups 3.58-3.59 ->
     * 3.82-3.87 ms; not profiled), where the joins' passes gained
     * (bench/RESULTS.md, session 19) */
    constexpr bool PAIR = sizeof(K) == 4 && C::DYN && !HASH;
    const size_t dyn2 = PAIR ? sizeof(PairSmem<K, V, C::THREADS, C::ITEMS>) : 0;
    const uint32_t tiles = (uint32_t)((n + TILE - 1) / TILE);
    auto *ks1 = part_scatter_kernel<K, V, MODE, C::THREADS, C::ITEMS, C::MINB, HASH, C::DYN, SEGX ? 1 : 0>;
    auto *ks2 = part_scatter_kernel<K, V, PV_COPY, C::THREADS, C::ITEMS, C::MINB, false, C::DYN, SEGX ? 2 : 0>;
    auto *kh1 = part_hist_kernel<K, HT, HASH>;
    size_t dyn1 = dyn;
    if constexpr (WIDE) { /* the one wide pass: its own ranking, staging and histogram */
        if (one_wide) {
            ks1 = part_scatter_kernel<K, V, MODE, C::THREADS, C::ITEMS, C::MINB, HASH, C::DYN, 0, WB>;
            kh1 = part_hist_kernel<K, HT, HASH, WB>;
            dyn1 = C::DYN ? sizeof(PartSmem<K, V, C::THREADS, C::ITEMS, WB>) : 0;
        }
    }
    decltype(ks1) kp1 = NULL, kp2 = NULL;
    if constexpr (PAIR) {
        kp1 = part_scatter2_kernel<K, V, MODE, C::THREADS, C::ITEMS, SEGX ? 1 : 0>;
        kp2 = part_scatter2_kernel<K, V, PV_COPY, C::THREADS, C::ITEMS, SEGX ? 2 : 0>;
    }
    const u64 vsplit = SEGX ? (n + 1) / 2 : ~0ULL;
    K *tk = NULL, *tk_own = NULL;
    V *tv = NULL, *tv_own = NULL, *seg_tv = NULL, *seg_out = NULL;
    uint32_t *hist = NULL, *ctr = NULL;
    const bool dyn_order = part_tile_order();
    int lo = lo0;
    if (n == 0) goto done;
    if constexpr (MODE == PV_PACK && sizeof(V) == 8 && !HASH && !SEGX && C::DYN) /* GFTR's packed pairs */
        if (passes == 2 && !(xk && xv) && part_halves(n, halves))
            return partition_halves<C, K, V, MODE>(j, kin, kout, va, vb, vout, vhi, n, bits, lo0);
    JCUDA(cudaGetDevice(&dev));
    JCUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    if (C::DYN) {
        JCUDA(cudaFuncSetAttribute(ks1, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn1));
        JCUDA(cudaFuncSetAttribute(ks2, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
    }
    if (PAIR) {
        JCUDA(cudaFuncSetAttribute(kp1, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn2));
        JCUDA(cudaFuncSetAttribute(kp2, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn2));
    }
    JCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_h, kh1, HT, 0));
    JCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_s, ks1, C::THREADS, dyn1));
    JCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_c, ks2, C::THREADS, dyn));
    if (passes > 1 && xk && xv && (!SEGX || xv2)) {
        tk = xk;
        tv = xv;
    } else if (passes > 1) {
        JCUDA(mem_alloc(&j->mem, (void **)&tk_own, n * sizeof(K)));
        JCUDA(mem_alloc(&j->mem, (void **)&tv_own, n * sizeof(V)));
        tk = tk_own;
        tv = tv_own;
    }
    /* SEGX kernels address rows from vsplit on through v2: the caller's
     * second piece for the scratch it gave, else the same array's */
    if (SEGX && tv) seg_tv = tv == xv ? xv2 : tv + vsplit;
    if (SEGX) seg_out = vout + vsplit;
    /* the histograms, then a tile counter a pass (part_tile_order) */
    JCUDA(mem_alloc(&j->mem, (void **)&hist, ((size_t)bins * hist_stride(tiles) + 2) * 4));
    ctr = dyn_order ? hist + (size_t)bins * hist_stride(tiles) : NULL;
    for (int p = 0; p < passes; p++) {
        const int w = bits / passes + (p < bits % passes ? 1 : 0);
        const uint32_t mask = (1u << w) - 1;
        const bool pair = PAIR && part_pair(pair_rows ? pair_rows : n, w);
        const uint32_t tile = pair ? 2 * TILE : TILE, pt = pair ? (uint32_t)((n + tile - 1) / tile) : tiles;
        const K *ks = p == 0 ? kin : ((passes - p) % 2 ? tk : kout);
        const V *vs = p == 0 ? vin : ((passes - p) % 2 ? tv : vout);
        K *kd = (passes - 1 - p) % 2 ? tk : kout;
        V *vd = (passes - 1 - p) % 2 ? tv : vout;
        const u64 nh = (u64)(mask + 1) * hist_stride(pt);
        const unsigned gh = (unsigned)(pt < (uint32_t)(sms * occ_h) ? pt : sms * occ_h);
        if (p == 0)
            kh1<<<gh, HT, 0, j->mem.s>>>(ks, n, lo, mask, hist, pt, tile, ctr ? ctr + p : NULL, 0);
        else
            part_hist_kernel<K, HT><<<gh, HT, 0, j->mem.s>>>(ks, n, lo, mask, hist, pt, tile, ctr ? ctr + p : NULL);
        JLAUNCHED();
        if ((rc = exclusive_sum(j, hist, hist, nh)) != GJ_OK) goto done;
        /* the first pass builds the values (MODE); later ones copy them */
        const int occ = pair ? 1 : p == 0 ? occ_s : occ_c;
        const unsigned gs = (unsigned)(pt < (uint32_t)(sms * occ) ? pt : sms * occ);
        auto *kern = p == 0 ? (pair ? kp1 : ks1) : (pair ? kp2 : ks2);
        const PartSeg<K, V> seg = {p == 0 ? (vd == tv ? seg_tv : seg_out) : (vs == tv ? seg_tv : seg_out), vsplit};
        kern<<<gs, C::THREADS, pair ? dyn2 : p == 0 ? dyn1 : dyn, j->mem.s>>>(
            ks, vs, p == 0 ? va : NULL, p == 0 ? vb : NULL, kd, vd, p == passes - 1 ? vhi : NULL, n, lo, mask,
            hist, pt, ctr ? ctr + p : NULL, seg);
        JLAUNCHED();
        lo += w;
    }
done:
    mem_free(&j->mem, hist);
    mem_free(&j->mem, tv_own);
    mem_free(&j->mem, tk_own);
    return rc;
}

/* partition_run's two passes (PV_PACK: GFTR's packed pairs, 9..16 bits)
 * through a scratch of about half the rows instead of all of them, so that
 * a side's partition holds its output and half a copy (PHJ-TR's peak at
 * W1: the other side's columns, this side's and its scratch). The first
 * pass ranks on bits [lo0, lo0 + 7) and the top bit lo0 + bits - 1, so its
 * output falls in two halves, A (top bit 0, nA rows) and B (nB rows), each
 * in the stable order of those 8 bits; the second pass partitions each half
 * on the bits between, over its own rows. Their places: A's rows end at
 * [0, nA) of the output and B's at [nA, n); the larger half waits in the
 * scratch (max(nA, nB) rows) and the smaller in the output, where the
 * other's second pass does not write while it is read:
 *   nA <= nB: A at [nB, n) of the output, B in the scratch; A's second pass
 *             first ([nB, n) -> [0, nA), apart as nA <= nB), then B's;
 *   nA > nB:  B at [0, nB), A in the scratch; B's second pass first
 *             ([0, nB) -> [nA, n)), then A's.
 * The same order as partition_run's (a stable sort on the bits), the same
 * kernels (the first pass as part_scatter_kernel's or part_scatter2_kernel's
 * SEG_HALVES), one read-back (nA, before the scratch is sized) and a
 * histogram and scan more. Split values (vhi) wait split too, as two
 * 4-byte columns, and the second pass packs them again (PV_PACK). */
template <typename C, typename K, typename V, int MODE>
int partition_halves(Job *j, const K *kin, K *kout, const uint32_t *va, const uint32_t *vb, V *vout, uint32_t *vhi,
                     u64 n, int bits, int lo0)
{
    enum { TILE = C::THREADS * C::ITEMS, HT = 384 };
    constexpr bool PAIR = sizeof(K) == 4;
    auto *ks = part_scatter_kernel<K, V, MODE, C::THREADS, C::ITEMS, C::MINB, false, true, SEG_HALVES>;
    decltype(ks) kp = ks; /* two tiles at a time: 4-byte keys (partition_run's PAIR) */
    if constexpr (PAIR) kp = part_scatter2_kernel<K, V, MODE, C::THREADS, C::ITEMS, SEG_HALVES>;
    auto *kh = part_hist_kernel<K, HT, false, 8, true>;
    const bool pair = PAIR && part_pair(n, 8), split = vhi != NULL;
    const uint32_t tile = pair ? 2 * TILE : TILE, pt = (uint32_t)((n + tile - 1) / tile), stride = hist_stride(pt);
    const int top = lo0 + bits - 1, w2 = bits - 8;
    const size_t dyn = pair ? sizeof(PairSmem<K, V, C::THREADS, C::ITEMS>) : sizeof(PartSmem<K, V, C::THREADS, C::ITEMS>);
    int rc = GJ_OK, dev = 0, sms = 0, occ_h = 0, occ = 1;
    uint32_t *hist = NULL, h_na = 0;
    K *tk = NULL;
    V *tv = NULL;
    JCUDA(cudaGetDevice(&dev));
    JCUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    JCUDA(cudaFuncSetAttribute(pair ? kp : ks, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
    JCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_h, kh, HT, 0));
    if (!pair) JCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, ks, C::THREADS, dyn));
    /* the first pass's histograms, then its tile counter */
    JCUDA(mem_alloc(&j->mem, (void **)&hist, ((size_t)256 * stride + 2) * 4));
    kh<<<(unsigned)std::min<u64>(pt, (u64)sms * occ_h), HT, 0, j->mem.s>>>(kin, n, lo0, 0x7f, hist, pt, tile,
                                                                          hist + (size_t)256 * stride, top - 7);
    JLAUNCHED();
    if ((rc = exclusive_sum(j, hist, hist, (u64)256 * stride)) != GJ_OK) goto done;
    JCUDA(cudaMemcpyAsync(&h_na, hist + (size_t)128 * stride, 4, cudaMemcpyDeviceToHost, j->mem.s));
    JCUDA(cudaStreamSynchronize(j->mem.s));
    {
        const u64 na = h_na, nb = n - na, big = std::max(na, nb);
        JCUDA(mem_alloc(&j->mem, (void **)&tk, big * sizeof(K)));
        JCUDA(mem_alloc(&j->mem, (void **)&tv, big * sizeof(V)));
        /* the scratch's split values: the low halves, then the high ones */
        uint32_t *t_lo = (uint32_t *)tv, *t_hi = split ? t_lo + big : NULL;
        const bool a_out = na <= nb; /* A waits in the output's last nA rows, else B in its first nB */
        auto vat = [&](V *v, u64 r) { return split ? (V *)((uint32_t *)v + r) : v + r; };
        K *ka = a_out ? kout + nb : tk;
        V *va1 = a_out ? vat(vout, nb) : tv;
        uint32_t *ha = split ? (a_out ? vhi + nb : t_hi) : NULL;
        K *kb2 = a_out ? tk : kout;
        V *vb2 = a_out ? tv : vout;
        uint32_t *hb = split ? (a_out ? t_hi : vhi) : NULL;
        const PartSeg<K, V> seg = {vb2, na, kb2, hb, top - 7};
        const unsigned gs = (unsigned)std::min<u64>(pt, (u64)sms * (occ > 0 ? occ : 1));
        (pair ? kp : ks)<<<gs, C::THREADS, dyn, j->mem.s>>>(kin, NULL, va, vb, ka, va1, ha, n, lo0, 0x7f, hist, pt,
                                                            hist + (size_t)256 * stride, seg);
        JLAUNCHED();
        mem_free(&j->mem, hist);
        hist = NULL;
        /* the second pass, a half at a time: bits [lo0 + 7, top), two
         * tiles at a time as for the whole partition (H100, W1's S side: a
         * half just under GJ_PART_PAIR_MIN_ROWS took 0.94 ms one tile at a
         * time, the other 0.80 two at a time; bench/RESULTS.md session 23) */
        auto second = [&](K *ks2, V *vs2, uint32_t *hs2, u64 rows, u64 at) {
            return split ? partition_run<C, K, V, PV_PACK, false>(j, ks2, kout + at, NULL, (const uint32_t *)vs2, hs2,
                                                                  vat(vout, at), rows, w2, lo0 + 7, NULL, NULL,
                                                                  vhi + at, NULL, false, n)
                         : partition_run<C, K, V, PV_COPY, false>(j, ks2, kout + at, vs2, NULL, NULL, vout + at,
                                                                  rows, w2, lo0 + 7, NULL, NULL, NULL, NULL, false, n);
        };
        if (a_out) {
            if ((rc = second(ka, va1, ha, na, 0)) == GJ_OK) rc = second(kb2, vb2, hb, nb, na);
        } else {
            if ((rc = second(kb2, vb2, hb, nb, na)) == GJ_OK) rc = second(ka, va1, ha, na, 0);
        }
    }
done:
    mem_free(&j->mem, hist);
    mem_free(&j->mem, tv);
    mem_free(&j->mem, tk);
    return rc;
}

template <int T, int I, int M, bool D>
struct PartCfg {
    enum { THREADS = T, ITEMS = I, MINB = M, MAX_PASSES = (PartPolicy::MAX_BITS + 7) / 8 };
    static constexpr bool DYN = D;
};

template <typename K, typename V, int MODE, bool HASH = false, bool SEGX = false>
int partition_pairs(Job *j, const K *kin, K *kout, const V *vin, const uint32_t *va,
                    const uint32_t *vb, V *vout, u64 n, int bits, int lo0 = 0, K *xk = NULL, V *xv = NULL,
                    uint32_t *vhi = NULL, V *xv2 = NULL, bool wide = false, bool halves = false)
{
    typedef PartCfg<PartPolicy::THREADS, PartPolicy::ITEMS, PartPolicy::MINB, false> P;
    /* 24 warps on a 7680-row tile staged in dynamic shared memory (80
     * registers), for every key and value width. H200, 2026-11-22, W1's R
     * side, pack, 16 bits: 2.833 ms against 3.145 for 384 x 15 (scatter
     * passes 1.262 + 1.182 ms against 1.479 + 1.241; bench/
     * join_part_notes.md). Then (2026-11-23, session 12) for the other
     * pairs too, after a scatter with its input in flight by bulk copies
     * (TMA) at 16 warps had lost to this one at 24: the warps were what
     * counted. PGB's group phase (hashed keys), 2^28 rows, 384 x 15 -> 768 x
     * 10: PGB-TR sum (4-byte values) at 2^17 groups 3.48 -> 2.79 ms, at 2^21
     * 5.35 -> 4.49; 8-byte keys 4.58 -> 3.54; PGB-UR (row ids) 2.77 ->
     * 2.26; 8-byte keys with a packed pair 4.27 -> 4.11; joins level (W5's
     * 8-byte pairs). 1024 x 8 (32 warps, 64 registers) and two blocks of
     * 512 x 10 an SM measured slower on W1 (bench/RESULTS.md, Group-by,
     * session 12).
     * GJ_JOIN_PART_SHAPE=384x15 selects the other shape (A/B runs; not
     * for a scratch in two pieces, SEGX: fewer instantiations). */
    if constexpr (!SEGX) {
        if (gj_env_is("GJ_JOIN_PART_SHAPE", "384x15"))
            return partition_run<P, K, V, MODE, HASH>(j, kin, kout, vin, va, vb, vout, n, bits, lo0, xk, xv, vhi,
                                                      NULL, wide);
    }
    return partition_run<PartCfg<768, 10, 1, true>, K, V, MODE, HASH, SEGX>(j, kin, kout, vin, va, vb, vout, n,
                                                                            bits, lo0, xk, xv, vhi, xv2, wide, 0,
                                                                            halves);
}

/* MSD sort, for SMJ's keys of more than 16 bits with 8-byte values (a
 * packed payload pair or an 8-byte column; GFTR): a stable sort of (key,
 * value) on key bits [0, end_bit) as
 *   1. the partition above on the top t <= 16 key bits [hb, end_bit), t the
 *      fewest for partitions of at most GJ_MSD_AVG rows on average (2^27
 *      rows: 16 bits), into a scratch pair, or into the output through a
 *      scratch of half the rows (msd_in_place: S's split pair, whose sort
 *      sets SMJ-TR's peak beside R's columns, as PHJ-TR's partition);
 *   2. each partition sorted on bits [0, hb) by one block in shared memory
 *      (msd_block_sort_kernel) into the output, or in place there:
 *      SMALL-row tiles, one block a partition, then LARGE-row tiles for
 *      the larger ones (a list, so no empty blocks: 2^16 of them took 0.14
 *      ms; 2 blocks of 512 threads an SM);
 *   3. partitions of more than LARGE rows (skew): in place, msd_hot;
 *      else (and what msd_hot leaves) CUB's segmented sort, a block each.
 * That is one read and write more than the two partition passes, where
 * CUB's radix sort makes ceil(end_bit / 8) passes of a read and a write
 * (27 bits: 4). H200, 2026-11-22, W1 (2^27 rows a side, 27 bits), SMJ-TR's
 * transform 11.70 -> 8.99 ms; a side's partition 3.26 ms, block sort 1.76
 * ms (bench/RESULTS.md, Joins, session 7). With (key, 4-byte row id) pairs
 * CUB's sort stayed faster (SMJ-UR 8.09 -> 8.36-8.50 ms), so those keep it.
 * Stable throughout, so the order is CUB's, and GFTR's columns may take
 * either path. Declines (*done = false, nothing written) below
 * GJ_MSD_MIN_ROWS rows, above 2^16 GJ_MSD_MAX_AVG, with more than
 * GJ_MSD_MAX_LOW bits left to the block sort, or when a sample of SAMPLES
 * keys predicts a partition of more than GJ_MSD_MAX_OVER rows (one block
 * would sort it alone: hot keys) or a quarter of the rows in partitions
 * over 2 LARGE (not LARGE: the sample's noise put 37% of W2's R rows, in
 * partitions of exactly LARGE rows, over it), except in place, where
 * msd_hot takes hot partitions (msd_hot_on). If the exact sizes still hold
 * a partition over 2 GJ_MSD_MAX_OVER, CUB's radix sort sorts the
 * partitioned pairs. The first pass makes the values (MODE), so no packed
 * copy is written first. vhi (not NULL): the values leave split, their
 * low halves in vout as 4-byte values, their high halves in vhi (S's
 * packed pair as its two columns, as the partition leaves it); where
 * CUB's sorts must finish the job they write a packed copy (n 8-byte
 * values more, held until it is split: skew only). GJ_JOIN_MSD=off turns
 * it off (A/B runs); =force takes inputs below GJ_MSD_MIN_ROWS too
 * (tests). */
struct MsdPolicy {
    enum { SMALL = 256 * 10, LARGE = GJ_MSD_LARGE, SAMPLES = 1 << 18 };
    static_assert(LARGE % 512 == 0, "the larger tile: 512 threads");
};

/* the MSD partition's bits: the fewest (at most GJ_PART_MAX_BITS) that
 * leave at most GJ_MSD_AVG rows a partition on average */
static int msd_top_bits(u64 n)
{
    int t = 1;
    while (t < GJ_PART_MAX_BITS && (n >> t) > GJ_MSD_AVG) t++;
    return t;
}

/* msd_sort's checks that need nothing from the GPU: false where it would
 * decline at once, so that a caller can lay out its output for the path
 * that will run (transform_cols: S's pair split or packed) */
static bool msd_may_take(const Job *j, u64 n, int end_bit)
{
    const bool force = gj_env_is("GJ_JOIN_MSD", "force");
    if (gj_env_is("GJ_JOIN_MSD", "off") || j->hash_keys || (n < GJ_MSD_MIN_ROWS && !force) ||
        end_bit <= GJ_PART_MAX_BITS || (n >> GJ_PART_MAX_BITS) > GJ_MSD_MAX_AVG)
        return false;
    return end_bit - msd_top_bits(n) <= GJ_MSD_MAX_LOW;
}

/* Does the MSD sort of n rows on t top bits partition into its output
 * through a scratch of half its rows (part_halves: S's split pair, two
 * passes) and sort each partition there, in place, rather than partition
 * into a scratch pair of n rows and sort out of it into the output? Only
 * where the halves save memory: in place without them the sort was no
 * smaller and measured 0.1-0.2 ms slower (H100, W5's 8-byte columns,
 * bench/RESULTS.md session 24). GJ_JOIN_MSD_INPLACE=off: the scratch pair
 * always (A/B runs). */
static bool msd_in_place(u64 n, int t, const uint32_t *vhi, bool halves)
{
    return !gj_env_is("GJ_JOIN_MSD_INPLACE", "off") && vhi && t > 8 && part_halves(n, halves);
}

/* Does the MSD sort in place take hot partitions (skew) through msd_hot
 * rather than decline for CUB's sort of the whole side (a packed copy and
 * CUB's double buffer: W4's SMJ-TR peak 5.93 GB)? GJ_JOIN_MSD_HOT=off:
 * CUB's, as before (A/B runs). */
static bool msd_hot_on(void)
{
    return !gj_env_is("GJ_JOIN_MSD_HOT", "off");
}

/* msd_hot's device arrays for one batch of at most nsmax segments and
 * ntmax tiles (gjj::hot_plan_kernel and on) */
template <typename K>
struct HotWork {
    unsigned long long *pt, *cnt, *nlist;
    uint32_t *tile, *pairs, *list;
    K *piv;
};

/* One batch of msd_hot: segments sb, sm (*ns of them on the device, at most
 * nsmax, of at most `rows` rows in all) copied out to the scratch (xk, xlo,
 * xhi) and back around their pivots, all on the device; their parts within
 * `large` rows then block-sorted in place, the others appended to the next
 * round's segments (nb, nm; *nn of them). */
template <typename K>
int hot_batch(Job *j, K *k, uint32_t *lo, uint32_t *hi, int hb, uint32_t large, const uint32_t *sb,
              const uint32_t *sm, const uint32_t *ns, uint32_t nsmax, u64 rows, K *xk, uint32_t *xlo, uint32_t *xhi,
              const HotWork<K> *w, uint32_t *nb, uint32_t *nm, uint32_t *nn, int sms)
{
    int rc = GJ_OK;
    const u64 ntmax = rows / gjj::HOT_TILE + nsmax; /* the tiles' bound: the kernels' grids */
    const unsigned warp_grid = (unsigned)(((u64)nsmax * 32 + 255) / 256); /* a warp a segment */
    cudaStream_t st = j->mem.s;
    gjj::hot_plan_kernel<<<grid_for(nsmax + 1, 256), 256, 0, st>>>(sm, ns, nsmax, w->pt);
    JLAUNCHED();
    if ((rc = exclusive_sum<u64>(j, w->pt, w->pt, nsmax + 1)) != GJ_OK) goto done;
    gjj::hot_tiles_kernel<<<warp_grid, 256, 0, st>>>(w->pt, ns, w->tile);
    JLAUNCHED();
    gjj::hot_pivot_kernel<K><<<warp_grid, 256, 0, st>>>(k, sb, sm, ns, w->piv);
    JLAUNCHED();
    JCUDA(cudaMemsetAsync(w->cnt, 0, (ntmax + 1) * 8, st));
    gjj::hot_copy_kernel<K><<<(unsigned)ntmax, gjj::HOT_THREADS, 0, st>>>(k, lo, hi, sb, sm, w->pt, nsmax, w->tile,
                                                                        w->piv, xk, xlo, xhi, w->cnt);
    JLAUNCHED();
    gj_trace(st, "hot: copied out, counted");
    if ((rc = exclusive_sum<u64>(j, w->cnt, w->cnt, ntmax + 1)) != GJ_OK) goto done;
    gjj::hot_scatter_kernel<K><<<(unsigned)ntmax, gjj::HOT_THREADS, 0, st>>>(
        xk, xlo, xhi, sb, sm, w->pt, nsmax, w->tile, w->piv, w->cnt, k, lo, hi);
    JLAUNCHED();
    gj_trace(st, "hot: scattered back");
    JCUDA(cudaMemsetAsync(w->nlist, 0, 8, st));
    gjj::hot_parts_kernel<<<grid_for(nsmax, 256), 256, 0, st>>>(sb, sm, ns, w->pt, w->cnt, large, w->pairs,
                                                                 w->list, w->nlist, nb, nm, nn);
    JLAUNCHED();
    gjj::msd_block_sort_kernel<K, u64, 512, MsdPolicy::LARGE / 512, 2><<<2 * sms, 512, 0, st>>>(
        k, (const u64 *)lo, hi, k, (u64 *)lo, hi, w->pairs, hb, w->list, w->nlist);
    JLAUNCHED();
    gj_trace(st, "hot: block sorts");
done:
    return rc;
}

/* msd_sort's hot partitions, in place (skew: partitions of more than
 * `large` rows, which no block sorts; S's split pair, so the values are two
 * 4-byte columns lo and hi; `hot` rows in them, the largest maxm): each is
 * partitioned stably around a pivot, the most frequent of 32 keys spread
 * over it (gjj::hot_pivot_kernel), into its rows below, equal to and above
 * the pivot: copied out to a scratch tile by tile, counted, and scattered
 * back in place from the tiles' prefix sums, on the device (hot_batch). The
 * equal rows need no sort. A hot partition is mostly one key (a
 * partition's GJ_MSD_AVG background rows against a hot key's thousands),
 * so what is left below and above it is mostly within `large` rows, and a
 * block sort in place takes those; larger ones go round again, at most
 * ROUNDS rounds, and what is still over `large` then comes back in *left
 * (nleft first rows, then nleft ends: device memory, the caller's) for
 * CUB's segmented sort. The scratch holds at most half the rows (or the
 * largest partition), no more than the partition's halves held before;
 * where the hot rows are more, the host reads the segments back and
 * groups them into batches that fit, as it does for every round after the
 * first. Zipf 1.0 over 2^27 rows (W4): one round moves the hot half of S's
 * rows twice (H100: bench/RESULTS.md, session 25). */
template <typename K>
int msd_hot(Job *j, K *k, uint32_t *lo, uint32_t *hi, const uint32_t *dstart, uint32_t P, u64 n, int hb,
            uint32_t large, u64 hot, u64 maxm, uint32_t **left, uint32_t *nleft)
{
    enum { ROUNDS = 4 };
    int rc = GJ_OK, dev = 0, sms = 0;
    /* segments in a round are disjoint and over `large` rows */
    const uint32_t nsmax = (uint32_t)(hot / (large + 1) + 1);
    const u64 cap = std::max(std::min(hot, n / 2), maxm), ntmax = cap / gjj::HOT_TILE + nsmax;
    cudaStream_t st = j->mem.s;
    /* device: sb, sm (this batch's segments), nb, nm (the next round's),
     * f (P + 1: the hot partitions numbered), nn (the next round's count),
     * bns (a host batch's count) */
    uint32_t *seg = NULL, *sb, *sm, *nb, *nm, *f, *nn, *bns;
    uint32_t *hb_ = NULL, *hm = NULL, ncur = 0; /* host: a round's segments */
    K *xk = NULL;
    uint32_t *xlo = NULL, *xhi = NULL;
    HotWork<K> w = {};
    *left = NULL;
    *nleft = 0;
    JCUDA(cudaGetDevice(&dev));
    JCUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    JCUDA(mem_alloc(&j->mem, (void **)&seg, ((u64)4 * nsmax + P + 3) * 4));
    sb = seg;
    sm = sb + nsmax;
    nb = sm + nsmax;
    nm = nb + nsmax;
    f = nm + nsmax;
    nn = f + P + 1;
    bns = nn + 1;
    JCUDA(mem_alloc(&j->mem, (void **)&w.pt, ((u64)nsmax + 1) * 8));
    JCUDA(mem_alloc(&j->mem, (void **)&w.cnt, (ntmax + 1) * 8));
    JCUDA(mem_alloc(&j->mem, (void **)&w.nlist, 8));
    JCUDA(mem_alloc(&j->mem, (void **)&w.tile, ntmax * 4));
    JCUDA(mem_alloc(&j->mem, (void **)&w.pairs, (u64)nsmax * 24));
    w.list = w.pairs + 4 * (u64)nsmax;
    JCUDA(mem_alloc(&j->mem, (void **)&w.piv, (u64)nsmax * sizeof(K)));
    JCUDA(mem_alloc(&j->mem, (void **)&xk, cap * sizeof(K)));
    JCUDA(mem_alloc(&j->mem, (void **)&xlo, cap * 4));
    JCUDA(mem_alloc(&j->mem, (void **)&xhi, cap * 4));
    hb_ = (uint32_t *)malloc((u64)nsmax * 8);
    if (!hb_) {
        rc = gj_seterr(j->ctx, GJ_ERR_INFEASIBLE, "msd_hot: host memory for %u segments", nsmax);
        goto done;
    }
    hm = hb_ + nsmax;
    /* the first round's segments: the hot partitions, numbered on the device */
    gjj::hot_flag_kernel<<<grid_for((u64)P + 1, 256), 256, 0, st>>>(dstart, P, large, f);
    JLAUNCHED();
    if ((rc = exclusive_sum<uint32_t>(j, f, f, (u64)P + 1)) != GJ_OK) goto done;
    gjj::hot_select_kernel<<<grid_for(P, 256), 256, 0, st>>>(dstart, P, large, f, sb, sm);
    JLAUNCHED();
    JCUDA(cudaMemsetAsync(nn, 0, 4, st));
    gj_trace(st, "hot: segments numbered");
    if (hot <= cap) { /* one batch, nothing read back */
        if ((rc = hot_batch<K>(j, k, lo, hi, hb, large, sb, sm, f + P, nsmax, hot, xk, xlo, xhi, &w, nb, nm, nn,
                               sms)) != GJ_OK)
            goto done;
    } else { /* the first round in batches, as the later ones */
        JCUDA(cudaMemcpyAsync(&ncur, f + P, 4, cudaMemcpyDeviceToHost, st));
        JCUDA(cudaMemcpyAsync(nb, sb, (u64)nsmax * 4, cudaMemcpyDeviceToDevice, st));
        JCUDA(cudaMemcpyAsync(nm, sm, (u64)nsmax * 4, cudaMemcpyDeviceToDevice, st));
        JCUDA(cudaStreamSynchronize(st));
        JCUDA(cudaMemcpyAsync(nn, &ncur, 4, cudaMemcpyHostToDevice, st));
    }
    for (int round = hot <= cap; round <= ROUNDS; round++) {
        /* the segments still over `large`: the next round's, read back */
        JCUDA(cudaMemcpyAsync(&ncur, nn, 4, cudaMemcpyDeviceToHost, st));
        JCUDA(cudaStreamSynchronize(st));
        if (!ncur) break;
        JCUDA(cudaMemcpyAsync(hb_, nb, (u64)ncur * 4, cudaMemcpyDeviceToHost, st));
        JCUDA(cudaMemcpyAsync(hm, nm, (u64)ncur * 4, cudaMemcpyDeviceToHost, st));
        JCUDA(cudaStreamSynchronize(st));
        if (round == ROUNDS) break; /* left to CUB */
        JCUDA(cudaMemsetAsync(nn, 0, 4, st));
        for (uint32_t s0 = 0, s1 = 0; s0 < ncur; s0 = s1) { /* batches within the scratch */
            u64 rows = 0;
            while (s1 < ncur && (s1 == s0 || rows + hm[s1] <= cap)) rows += hm[s1++];
            const uint32_t cnt = s1 - s0;
            JCUDA(cudaMemcpyAsync(sb, hb_ + s0, (u64)cnt * 4, cudaMemcpyHostToDevice, st));
            JCUDA(cudaMemcpyAsync(sm, hm + s0, (u64)cnt * 4, cudaMemcpyHostToDevice, st));
            JCUDA(cudaMemcpyAsync(bns, &cnt, 4, cudaMemcpyHostToDevice, st));
            if ((rc = hot_batch<K>(j, k, lo, hi, hb, large, sb, sm, bns, cnt, rows, xk, xlo, xhi, &w, nb, nm, nn,
                                   sms)) != GJ_OK)
                goto done;
        }
        ncur = 0;
    }
    if (ncur) { /* still over `large` after the rounds: CUB's */
        for (uint32_t s = 0; s < ncur; s++) hm[s] += hb_[s]; /* ends */
        JCUDA(mem_alloc(&j->mem, (void **)left, (u64)ncur * 8));
        JCUDA(cudaMemcpyAsync(*left, hb_, (u64)ncur * 4, cudaMemcpyHostToDevice, st));
        JCUDA(cudaMemcpyAsync(*left + ncur, hm, (u64)ncur * 4, cudaMemcpyHostToDevice, st));
        *nleft = ncur;
    }
done:
    mem_free(&j->mem, xhi);
    mem_free(&j->mem, xlo);
    mem_free(&j->mem, xk);
    mem_free(&j->mem, w.piv);
    mem_free(&j->mem, w.pairs);
    mem_free(&j->mem, w.tile);
    mem_free(&j->mem, w.nlist);
    mem_free(&j->mem, w.cnt);
    mem_free(&j->mem, w.pt);
    mem_free(&j->mem, seg);
    free(hb_);
    return rc;
}

template <typename K, typename V, int MODE>
int msd_sort(Job *j, const K *kin, K *kout, const V *vin, const uint32_t *va, const uint32_t *vb, V *vout,
             u64 n, int end_bit, bool *done, uint32_t *vhi = NULL, bool halves = false)
{
    typedef MsdPolicy M;
    static_assert(sizeof(V) == 8, "measured faster than CUB's sort with 8-byte values only");
    int rc = GJ_OK, t = 0, hb = 0, dev = 0, sms = 0;
    uint32_t P = 0, *hist = NULL, *start = NULL, *end = NULL, *list = NULL, *left = NULL, nseg = 0;
    u64 *stat = NULL, hs[3] = {0, 0, 0}, samples = 0, stride = 1;
    K *tk = NULL;
    V *tv = NULL, *pk = NULL, *dst = vout;
    /* the block sorts' source: the scratch pair, or the output in place */
    const K *sk = NULL;
    const V *sv = NULL;
    const uint32_t *sh = NULL, *sb = NULL, *se = NULL; /* the segments CUB sorts: nseg firsts and ends */
    bool in_place = false, hot = false;
    size_t need = 0;
    *done = false;
    if (!msd_may_take(j, n, end_bit)) goto done;
    gj_trace_begin(); /* GJ_TRACE=1: where the sort's time goes */
    gj_trace(j->mem.s, "msd: start");
    t = msd_top_bits(n);
    hb = end_bit - t;
    P = 1u << t;
    in_place = msd_in_place(n, t, vhi, halves);
    hot = in_place && msd_hot_on();
    samples = n < (u64)M::SAMPLES ? n : (u64)M::SAMPLES;
    stride = n / samples;
    JCUDA(mem_alloc(&j->mem, (void **)&stat, sizeof hs));
    JCUDA(mem_alloc(&j->mem, (void **)&hist, (size_t)P * 4));
    JCUDA(cudaMemsetAsync(stat, 0, sizeof hs, j->mem.s));
    JCUDA(cudaMemsetAsync(hist, 0, (size_t)P * 4, j->mem.s));
    msd_sample_kernel<K><<<grid_for(samples, 256), 256, 0, j->mem.s>>>(kin, samples, stride, hb, P - 1, hist);
    JLAUNCHED();
    msd_over_kernel<<<grid_for(P, 256), 256, 0, j->mem.s>>>(hist, NULL, P, 0,
                                                             (uint32_t)(2 * M::LARGE / stride), NULL, NULL, stat);
    JLAUNCHED();
    JCUDA(cudaMemcpyAsync(hs, stat, sizeof hs, cudaMemcpyDeviceToHost, j->mem.s));
    JCUDA(cudaStreamSynchronize(j->mem.s));
    if (!hot && (hs[1] * stride > (u64)GJ_MSD_MAX_OVER || hs[0] * 4 > samples)) goto done;
    gj_trace(j->mem.s, "msd: sampled");

    JCUDA(cudaGetDevice(&dev));
    JCUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    mem_free(&j->mem, j->tmp); /* the other side's CUB scratch: not held beside ours */
    j->tmp = NULL;
    j->tmp_bytes = 0;
    JCUDA(mem_alloc(&j->mem, (void **)&start, ((size_t)P + 1) * 4));
    JCUDA(mem_alloc(&j->mem, (void **)&end, (size_t)P * 4));
    JCUDA(mem_alloc(&j->mem, (void **)&list, (size_t)P * 4));
    /* GJ_JOIN_MSD_INPLACE=off: the partition into a scratch pair of n
     * rows, which the block sorts read into the output (the same bytes
     * moved, a larger scratch; A/B runs) */
    if (in_place) { /* into the output (split: as its two columns), through the partition's own scratch */
        rc = partition_pairs<K, V, MODE>(j, kin, kout, vin, va, vb, vout, n, t, hb, NULL, NULL, vhi, NULL, false,
                                         halves);
        sk = kout;
        sv = vout;
        sh = vhi;
    } else {
        JCUDA(mem_alloc(&j->mem, (void **)&tk, n * sizeof(K)));
        JCUDA(mem_alloc(&j->mem, (void **)&tv, n * sizeof(V)));
        /* kout, vout: the partition's scratch; split, vout and vhi are two
         * 4-byte columns (n + 1 and n rows: transform_cols), a scratch of
         * n 8-byte values in two pieces (SEGX) */
        if (vhi)
            rc = partition_pairs<K, V, MODE, false, true>(j, kin, tk, vin, va, vb, tv, n, t, hb, kout, vout, NULL,
                                                          (V *)vhi);
        else
            rc = partition_pairs<K, V, MODE>(j, kin, tk, vin, va, vb, tv, n, t, hb, kout, vout);
        sk = tk;
        sv = tv;
    }
    if (rc != GJ_OK) goto done;
    gj_trace(j->mem.s, "msd: partitioned");
    bounds_kernel<K><<<grid_for(P + 1, 256), 256, 0, j->mem.s>>>(sk, n, P - 1, P, start, hb);
    JLAUNCHED();
    JCUDA(cudaMemsetAsync(stat, 0, sizeof hs, j->mem.s));
    msd_over_kernel<<<grid_for(P, 256), 256, 0, j->mem.s>>>(NULL, start, P, M::SMALL, M::LARGE, end, list,
                                                             stat);
    JLAUNCHED();
    /* 64 registers: 4 blocks an SM */
    msd_block_sort_kernel<K, V, 256, M::SMALL / 256, 4><<<P, 256, 0, j->mem.s>>>(sk, sv, sh, kout, vout, vhi,
                                                                                 start, hb, NULL, NULL);
    JLAUNCHED();
    msd_block_sort_kernel<K, V, 512, M::LARGE / 512, 2><<<2 * sms, 512, 0, j->mem.s>>>(
        sk, sv, sh, kout, vout, vhi, start, hb, list, stat + 2);
    JLAUNCHED();
    JCUDA(cudaMemcpyAsync(hs, stat, sizeof hs, cudaMemcpyDeviceToHost, j->mem.s));
    JCUDA(cudaStreamSynchronize(j->mem.s));
    gj_trace(j->mem.s, "msd: block sorts");
    sb = start;
    se = end;
    nseg = P;
    if (hot && (hs[0] || hs[1] > 2 * (u64)GJ_MSD_MAX_OVER)) { /* CUB's sort only where msd_hot leaves it */
        if ((rc = msd_hot<K>(j, kout, (uint32_t *)vout, vhi, start, P, n, hb, M::LARGE, hs[0], hs[1], &left,
                             &nseg)) != GJ_OK)
            goto done;
        sb = left;
        se = left + nseg;
        hs[0] = nseg;
        hs[1] = 0;
        gj_trace(j->mem.s, "msd: hot partitions");
    }
    if (in_place && (hs[0] || hs[1] > 2 * (u64)GJ_MSD_MAX_OVER)) {
        /* partitions left to CUB (skew: over LARGE rows, those msd_hot
         * could not finish), which sorts out of a copy: the output's rows
         * packed into a scratch pair */
        JCUDA(mem_alloc(&j->mem, (void **)&tk, n * sizeof(K)));
        JCUDA(mem_alloc(&j->mem, (void **)&tv, n * sizeof(V)));
        JCUDA(cudaMemcpyAsync(tk, kout, n * sizeof(K), cudaMemcpyDeviceToDevice, j->mem.s));
        if (vhi) {
            pack_kernel<<<grid_for(n, 256), 256, 0, j->mem.s>>>((const uint32_t *)vout, vhi, (u64 *)tv, n);
            JLAUNCHED();
        } else {
            JCUDA(cudaMemcpyAsync(tv, vout, n * sizeof(V), cudaMemcpyDeviceToDevice, j->mem.s));
        }
    }
    /* split values: CUB's sorts below write packed, into a packed copy
     * whose rows they wrote are then split (skew only) */
    if (vhi && (hs[0] || hs[1] > 2 * (u64)GJ_MSD_MAX_OVER)) {
        JCUDA(mem_alloc(&j->mem, (void **)&pk, n * sizeof(V)));
        dst = pk;
    }
    if (hs[1] > 2 * (u64)GJ_MSD_MAX_OVER) { /* the sample missed a hot partition */
        rc = sort_pairs<K, V>(j, tk, kout, tv, dst, n, 0, end_bit);
    } else if (hs[0]) {
        JCUDA(cub::DeviceSegmentedRadixSort::SortPairs(NULL, need, tk, kout, tv, dst, (int)n, (int)nseg, sb,
                                                       se, 0, hb, j->mem.s));
        if ((rc = tmp_ensure(j, need)) != GJ_OK) goto done;
        need = j->tmp_bytes;
        JCUDA(cub::DeviceSegmentedRadixSort::SortPairs(j->tmp, need, tk, kout, tv, dst, (int)n, (int)nseg, sb,
                                                       se, 0, hb, j->mem.s));
    }
    if (rc == GJ_OK && pk) { /* all rows after CUB's whole sort, else the segments it sorted */
        const bool all = hs[1] > 2 * (u64)GJ_MSD_MAX_OVER;
        split_pairs_kernel<<<all ? grid_for(n, 256) : nseg, 256, 0, j->mem.s>>>(
            (const unsigned long long *)pk, (uint32_t *)vout, vhi, n, all ? NULL : sb, all ? NULL : se);
        JLAUNCHED();
    }
    if (rc == GJ_OK) *done = true;
    gj_trace(j->mem.s, "msd: end");
    gj_trace_dump();
done:
    mem_free(&j->mem, pk);
    mem_free(&j->mem, left);
    mem_free(&j->mem, list);
    mem_free(&j->mem, end);
    mem_free(&j->mem, start);
    mem_free(&j->mem, tv);
    mem_free(&j->mem, tk);
    mem_free(&j->mem, hist);
    mem_free(&j->mem, stat);
    return rc;
}

/* When PHJ partitions and matches on hashed keys (j->hash_keys; see
 * phj_skewed), the custom partition hashes as it reads, and CUB's sort
 * needs the hashed keys written once per side, made here on first use.
 * (operators/hash.cuh: the hash is bijective, so the matches are the same;
 * emit_row unhashes the output keys.) */
template <typename K>
int side_keys(Job *j, const gj_dtable *x, const K **keys)
{
    int rc = GJ_OK;
    void **h = x == j->r ? &j->hkey_r : &j->hkey_s;
    *keys = (const K *)x->key.data;
    if (!j->hash_keys) goto done;
    if (!*h) {
        JCUDA(mem_alloc(&j->mem, h, x->rows * sizeof(K)));
        gjh::hash_keys_kernel<K><<<grid_for(x->rows, 256), 256, 0, j->mem.s>>>((const K *)x->key.data, (K *)*h,
                                                                           x->rows);
        JLAUNCHED();
    }
    *keys = (const K *)*h;
done:
    return rc;
}

/* A side after its transformation: keys in probe order, the map back to
 * original rows (GFUR) or payloads in the same order (GFTR). */
struct Side {
    const void *key;
    const uint32_t *ids;
    const void *pay[GJ_MAX_PAYLOADS];
    int stride[GJ_MAX_PAYLOADS]; /* 2: a 4-byte column inside a packed pair */
    int next_col;                /* GFTR: first payload column not yet partitioned */
};

/* (key, one column) sorted on key bits [b0, b1): the MSD sort when it takes
 * it (8-byte columns), else CUB's on ks (the keys, hashed when PHJ hashes) */
template <typename K, typename V>
int sort_col(Job *j, const gj_dtable *x, const K *ks, K *kout, const V *vin, V *vout, int b0, int b1)
{
    bool sorted = false;
    int rc = GJ_OK;
    if constexpr (sizeof(V) == 8)
        if (b0 == 0)
            rc = msd_sort<K, V, PV_COPY>(j, (const K *)x->key.data, kout, vin, NULL, NULL, vout, x->rows, b1,
                                         &sorted);
    if (rc == GJ_OK && !sorted) rc = sort_pairs<K, V>(j, ks, kout, vin, vout, x->rows, b0, b1);
    return rc;
}

/* Payload columns c and c + 1 of x travel as one packed 8-byte value
 * (GFTR's groups in transform_cols, GFUR's packed gathers in gfur_pack):
 * two adjacent 4-byte columns, grouped from the first column on. */
bool payload_pair(const gj_dtable *x, int c)
{
    return c + 1 < x->n_payloads && x->payload[c].width == 4 && x->payload[c + 1].width == 4;
}

/* GFTR: partition payload columns with the key, from out->next_col on, at
 * most max_groups groups. A group is two adjacent 4-byte columns packed into
 * one 8-byte value (one sort moves both: measured in operators/JOIN.md) or a
 * single column. out->key receives the sorted keys (identical bytes each
 * time, as the sort is stable). */
template <typename K>
int transform_cols(Job *j, const gj_dtable *x, int b0, int b1, int max_groups, Side *out)
{
    int rc = GJ_OK;
    const u64 n = x->rows;
    void *packed = NULL;
    const K *ks = (const K *)x->key.data; /* CUB's sort: hashed first when PHJ hashes */
    for (int g = 0; g < max_groups && out->next_col < x->n_payloads; g++) {
        const int c = out->next_col;
        void *pt = NULL;
        const bool pair = payload_pair(x, c);
        const uint32_t *va = (const uint32_t *)x->payload[c].data, *vb = NULL;
        bool sorted = false;
        if (pair) {
            /* S's pair leaves the own partition or the MSD sort as its two
             * columns (split): when every S row matches once they are the
             * output's columns as they are (write_dense), so nothing
             * unpacks them */
            const bool part = use_partition(b0, b1);
            /* GJ_JOIN_MSD_SPLIT=off: the MSD sort packs (A/B runs) */
            bool split = x == j->s && (part || (b0 == 0 && !gj_env_is("GJ_JOIN_MSD_SPLIT", "off") &&
                                                msd_may_take(j, n, b1)));
            void *pb = NULL;
            vb = (const uint32_t *)x->payload[c + 1].data;
            /* the MSD sort's split pt has a row more: with pb the scratch of its partition (msd_sort) */
            JCUDA(mem_alloc(&j->mem, &pt, split ? (n + (part ? 0 : 1)) * 4 : n * 8));
            if (split) JCUDA(mem_alloc(&j->mem, &pb, n * 4));
            /* packing fused into the first pass: the MSD sort (more than
             * 16 bits) or the partition (at most 16; hashing too) */
            if (b0 == 0 && !part)
                rc = msd_sort<K, u64, PV_PACK>(j, (const K *)x->key.data, (K *)out->key, NULL, va, vb, (u64 *)pt,
                                               n, b1, &sorted, (uint32_t *)pb, x == j->s);
            if (rc == GJ_OK && !sorted && split && !part) { /* the MSD sort's sample declined: CUB's sort packs */
                mem_free(&j->mem, pb);
                mem_free(&j->mem, pt);
                pb = NULL;
                split = false;
                JCUDA(mem_alloc(&j->mem, &pt, n * 8));
            }
            if (rc == GJ_OK && !sorted && part) {
                rc = j->hash_keys ? partition_pairs<K, u64, PV_PACK, true>(j, (const K *)x->key.data,
                                                                           (K *)out->key, NULL, va, vb, (u64 *)pt,
                                                                           n, b1, 0, NULL, NULL, (uint32_t *)pb)
                                  : partition_pairs<K, u64, PV_PACK>(j, (const K *)x->key.data, (K *)out->key,
                                                                     NULL, va, vb, (u64 *)pt, n, b1, 0, NULL, NULL,
                                                                     (uint32_t *)pb, NULL, false, x == j->s);
                sorted = true;
            }
            if (rc == GJ_OK && !sorted) {
                if ((rc = side_keys<K>(j, x, &ks)) != GJ_OK) goto done;
                JCUDA(mem_alloc(&j->mem, &packed, n * 8));
                pack_kernel<<<grid_for(n, 256), 256, 0, j->mem.s>>>(va, vb, (u64 *)packed, n);
                JLAUNCHED();
                rc = sort_pairs<K, u64>(j, ks, (K *)out->key, (const u64 *)packed, (u64 *)pt, n, b0, b1);
                mem_free(&j->mem, packed);
                packed = NULL;
            }
            out->pay[c] = pt;
            out->pay[c + 1] = split ? pb : (const char *)pt + 4;
            out->stride[c] = out->stride[c + 1] = split ? 1 : 2;
            out->next_col = c + 2;
            if (rc != GJ_OK) goto done;
            continue;
        }
        if ((rc = side_keys<K>(j, x, &ks)) != GJ_OK) goto done;
        JCUDA(mem_alloc(&j->mem, &pt, n * x->payload[c].width));
        out->pay[c] = pt;
        out->stride[c] = 1;
        out->next_col = c + 1;
        rc = x->payload[c].width == 4
                 ? sort_col<K, uint32_t>(j, x, ks, (K *)out->key, va, (uint32_t *)pt, b0, b1)
                 : sort_col<K, u64>(j, x, ks, (K *)out->key, (const u64 *)x->payload[c].data, (u64 *)pt, b0, b1);
        if (rc != GJ_OK) goto done;
    }
done:
    return rc;
}

/* Sort / partition one side on key bits [b0, b1). GFUR: (key, row id) pairs;
 * GFTR: (key, payload c) pairs for every payload column (a stable sort of the
 * same keys gives the same order each time, so the columns stay aligned).
 * GFTR in two steps, as paper 000 Sec. 5.1.2 accounts for them: the key with
 * the first payload column (transform, cols = 1), then the other payload
 * columns (materialize, transform_rest). */
template <typename K>
int transform_side(Job *j, const gj_dtable *x, int gftr, int b0, int b1, Side *out)
{
    int rc = GJ_OK;
    const u64 n = x->rows;
    void *kt = NULL, *ids = NULL, *iota = NULL;
    const K *ks = NULL;
    memset(out, 0, sizeof *out);
    JCUDA(mem_alloc(&j->mem, &kt, n * sizeof(K)));
    out->key = kt;
    for (int c = 0; c < x->n_payloads; c++) {
        out->pay[c] = x->payload[c].data;
        out->stride[c] = 1;
    }
    if (!gftr || x->n_payloads == 0) {
        JCUDA(mem_alloc(&j->mem, &iota, n * 4));
        JCUDA(mem_alloc(&j->mem, &ids, n * 4));
        iota_kernel<<<grid_for(n, 256), 256, 0, j->mem.s>>>((uint32_t *)iota, n);
        JLAUNCHED();
        if ((rc = side_keys<K>(j, x, &ks)) != GJ_OK) goto done;
        rc = sort_pairs<K, uint32_t>(j, ks, (K *)kt, (const uint32_t *)iota, (uint32_t *)ids, n, b0, b1);
        if (rc != GJ_OK) goto done;
        mem_free(&j->mem, iota);
        iota = NULL;
        if (!gftr) out->ids = (const uint32_t *)ids;
        else mem_free(&j->mem, ids);
    } else {
        rc = transform_cols<K>(j, x, b0, b1, 1, out);
    }
done:
    return rc;
}

/* untransformed side (partition bits 0, or NPHJ's probe side) */
void identity_side(const gj_dtable *x, Side *out)
{
    memset(out, 0, sizeof *out);
    out->key = x->key.data;
    for (int c = 0; c < x->n_payloads; c++) {
        out->pay[c] = x->payload[c].data;
        out->stride[c] = 1;
    }
}

/* the output table's shape: `rows` rows, the key, R's then S's payload
 * columns (widths and types of the inputs'), no data yet */
template <typename K>
void out_describe(Job *j, u64 rows)
{
    gj_join_out *o = j->out;
    o->rows = rows;
    o->key.width = (int)sizeof(K);
    o->key.type = GJ_DT_INT;
    o->key.data = NULL;
    o->r_payloads = j->r->n_payloads;
    o->s_payloads = j->s->n_payloads;
    for (int c = 0; c < o->r_payloads; c++) {
        o->r[c] = j->r->payload[c];
        o->r[c].data = NULL;
    }
    for (int c = 0; c < o->s_payloads; c++) {
        o->s[c] = j->s->payload[c];
        o->s[c].data = NULL;
    }
}

/* allocate the output table of `rows` rows and describe it to the kernels */
template <typename K>
int alloc_output(Job *j, u64 rows, const Side *r, const Side *s, Emit *e)
{
    int rc = GJ_OK;
    gj_join_out *o = j->out;
    memset(e, 0, sizeof *e);
    out_describe<K>(j, rows);
    JCUDA(mem_alloc(&j->mem, &o->key.data, rows * sizeof(K)));
    e->key_out = o->key.data;
    e->r_ids = r->ids;
    e->s_ids = s->ids;
    e->pr = j->r->n_payloads;
    e->ps = j->s->n_payloads;
    e->unhash = j->hash_keys;
    for (int c = 0; c < e->pr; c++) {
        JCUDA(mem_alloc(&j->mem, &o->r[c].data, rows * o->r[c].width));
        e->rsrc[c] = r->pay[c];
        e->rstr[c] = r->stride[c];
        e->rdst[c] = o->r[c].data;
        e->rw[c] = o->r[c].width;
    }
    for (int c = 0; c < e->ps; c++) {
        JCUDA(mem_alloc(&j->mem, &o->s[c].data, rows * o->s[c].width));
        e->ssrc[c] = s->pay[c];
        e->sstr[c] = s->stride[c];
        e->sdst[c] = o->s[c].data;
        e->sw[c] = o->s[c].width;
    }
done:
    return rc;
}

/* GFTR: partition a side's remaining payload columns (materialize phase;
 * bits 0: the side is untransformed) */
template <typename K>
int transform_rest(Job *j, int gftr, const gj_dtable *x, int bits, Side *xs)
{
    return gftr && bits > 0 ? transform_cols<K>(j, x, 0, bits, GJ_MAX_PAYLOADS, xs) : GJ_OK;
}

/* The match's COUNT pass left cnt[0, items) the output rows of each work
 * item, cnt[items] = 0, cnt[items + 1] = 1 if some item has an S row with
 * several matches and cnt[items + 2] the items with output: exclusive
 * scan, then hv = {output rows, that flag, those items} in one read-back. */
int scan_counts(Job *j, u64 *cnt, u64 items, u64 hv[3])
{
    int rc = exclusive_sum(j, cnt, cnt, items + 1);
    if (rc != GJ_OK) goto done;
    JCUDA(cudaMemcpyAsync(hv, cnt + items, 3 * sizeof *hv, cudaMemcpyDeviceToHost, j->mem.s));
    JCUDA(cudaStreamSynchronize(j->mem.s));
done:
    return rc;
}

/* PHJ partitions on the low bits of the raw keys: for dense keys (the
 * paper's workloads) a partition's keys are consecutive above those bits,
 * and its shared-memory table fills without collisions. Keys with
 * structure in their low bits fill the partitions unevenly: TPC-H's order
 * keys use 8 of every 32 values, so a quarter of the partitions took 4x
 * their rows, more than a work item's R chunk, and q5j2's shape ran 3x
 * slower (bench/RESULTS.md). So R is partitioned on raw bits first, and if
 * its largest partition exceeds an R chunk (RC rows, twice the planned
 * TARGET) both sides are partitioned on hashed keys instead. Hashing
 * always cost W1 PHJ-TR's match 1.04 -> 2.84 ms (collisions in the tables),
 * which is why it is not the default. The skew costs the probe side (each
 * S row meets several R chunks), the remedy the build side (R partitioned
 * twice): the caller checks only when |S| >= |R| (TPC-H q7j2, 15 M skewed R
 * rows against 1.5 M S rows, ran 0.68 ms raw and 1.15 hashed). *skew: 1
 * when R must be hashed. */
template <typename K>
int phj_skewed(Job *j, const Side *rs, u64 rows, int bits, int *skew)
{
    int rc = GJ_OK;
    const uint32_t parts = 1u << bits;
    uint32_t *start = NULL;
    unsigned *mx = NULL, h_mx = 0;
    *skew = 0;
    JCUDA(mem_alloc(&j->mem, (void **)&start, (parts + 1) * 4));
    JCUDA(mem_alloc(&j->mem, (void **)&mx, 4));
    JCUDA(cudaMemsetAsync(mx, 0, 4, j->mem.s));
    bounds_kernel<K><<<grid_for(parts + 1, 256), 256, 0, j->mem.s>>>((const K *)rs->key, rows, parts - 1,
                                                                     parts, start);
    JLAUNCHED();
    part_max_kernel<<<grid_for(parts, 256), 256, 0, j->mem.s>>>(start, parts, mx);
    JLAUNCHED();
    JCUDA(cudaMemcpyAsync(&h_mx, mx, 4, cudaMemcpyDeviceToHost, j->mem.s));
    JCUDA(cudaStreamSynchronize(j->mem.s));
    *skew = h_mx > (unsigned)PhjPolicy::RC;
done:
    mem_free(&j->mem, mx);
    mem_free(&j->mem, start);
    return rc;
}

/* free what transform_side allocated for a side (untracked pointers, such
 * as the second half of a packed pair or an input column, are ignored) */
void side_free(Job *j, Side *x)
{
    mem_free(&j->mem, (void *)x->key);
    mem_free(&j->mem, (void *)x->ids);
    for (int c = 0; c < GJ_MAX_PAYLOADS; c++) mem_free(&j->mem, (void *)x->pay[c]);
    memset(x, 0, sizeof *x);
}

/* Materialize when every S row matched exactly one R row (primary-foreign-
 * key with every foreign key found: W1, W3, W4, most TPC-H joins). Output
 * row i is then S's probe-order row i, first[i] its R row, and nothing is
 * compacted, so buffers whose contents are an output column become it:
 *   - S's probe-order keys are the output keys (PHJ's hashed keys are
 *     unhashed in place);
 *   - GFTR's S payload columns are output columns (packed pairs are
 *     unpacked);
 *   - first[] (4 bytes a row) is overwritten by the first 4-byte R payload
 *     column, GFUR's S row ids by the first 4-byte S payload column.
 * The launches as dense_split says. H200, 2026-11-23, materialize ms on W1 / W3 / W5, the
 * compacting WRITE -> this (bench/RESULTS.md, Joins, session 8):
 * PHJ-TR 2.54 / 2.29 / 5.84 -> 1.36 / 1.28 / 3.95, SMJ-TR 1.82 / 1.70 /
 * 7.33 -> 1.31 / 1.25 / 5.92; peak on W1 (the output included) GFTR 6.44
 * -> 4.85 GB (now the transform's), GFUR 5.37 -> 3.77, NPHJ 5.37 -> 2.69.
 * GJ_JOIN_DENSE (A/B runs): off = the compacting WRITE always; split or
 * fused = that shape for every implementation. */
enum { DENSE_OFF, DENSE_SPLIT, DENSE_FUSED, DENSE_AUTO };
int dense_mode()
{
    if (gj_env_is("GJ_JOIN_DENSE", "off")) return DENSE_OFF;
    if (gj_env_is("GJ_JOIN_DENSE", "split")) return DENSE_SPLIT;
    if (gj_env_is("GJ_JOIN_DENSE", "fused")) return DENSE_FUSED;
    return DENSE_AUTO;
}

/* The dense WRITE's shape: 512 threads, 2 blocks an SM, 4 rows a thread
 * per round. H200, 2026-11-23, W1 / W3 materialize ms with one launch a
 * side (bench/dense_shape_device.sh): PHJ-UR 11.93 / 10.75 against 12.86 /
 * 11.83 with 256 threads (5 blocks an SM), 11.91 / 11.07 with 4 consecutive
 * rows a thread, 12.26 / 11.09 with 8 rows a thread; the compacting WRITE
 * took 11.75 / 12.43. Fewer threads in flight gather faster. */
struct DensePolicy {
    enum { THREADS = 512, MINB = 2, V = 4 };
};

/* Write the dense kernel's columns a side at a time (R's sources released
 * before S's) when S was transformed; both in one launch when S's columns
 * are copied from the input (NPHJ), as the copy streams while R's gathers
 * wait. GJ_JOIN_DENSE=split or fused forces one. */
bool dense_split(Job *j, const Side *ss)
{
    const int mode = dense_mode();
    return mode == DENSE_SPLIT || (mode != DENSE_FUSED && mem_owns(&j->mem, ss->key));
}

/* one more output column for dense_write_kernel: side 0 (R) or 1 (S), its
 * source with stride str, w bytes a value. The upper half of the packed
 * pair the column before came from marks that one a pair, so that the
 * kernel loads both halves as one 8-byte value (two 4-byte loads of one
 * row cost GFUR's random gathers 60% of a second access: H100, session 16,
 * W1 PHJ-UR materialize 14.65 ms with packed pairs loaded by halves). */
void dense_add(DenseCols *d, int side, const void *src, int str, int w, void *dst)
{
    const int c = d->n - 1; /* the column before: is this one its packed pair's upper half? */
    if (c >= 0 && str == 2 && w == 4 && d->str[c] == 2 && d->w[c] == 4 && d->side[c] == side && !d->pair[c] &&
        (c == 0 || !d->pair[c - 1]) && (const char *)src == (const char *)d->src[c] + 4 &&
        ((uintptr_t)d->src[c] & 7) == 0)
        d->pair[c] = 1;
    d->pair[d->n] = 0; /* a launch's columns may be reset by n = 0 alone (write_rows) */
    d->side[d->n] = (unsigned char)side;
    d->src[d->n] = src;
    d->str[d->n] = str;
    d->w[d->n] = w;
    d->dst[d->n++] = dst;
}

/* every output column of one side (0: R, 1: S) gathered from sd's columns */
void dense_add_side(DenseCols *d, int side, const Side *sd, const gj_join_out *o)
{
    const int n = side ? o->s_payloads : o->r_payloads;
    const gj_column *out = side ? o->s : o->r;
    for (int c = 0; c < n; c++) dense_add(d, side, sd->pay[c], sd->stride[c], out[c].width, out[c].data);
}

template <typename K>
void launch_dense(const DenseCols &d, const K *ksrc, K *kdst, int unhash, u64 n, cudaStream_t st)
{
    typedef DensePolicy P;
    dense_write_kernel<K, P::V, P::THREADS, P::MINB><<<grid_for(n, P::THREADS * P::V), P::THREADS, 0, st>>>(
        d, ksrc, kdst, unhash, n);
}

/* GFUR's dense write gathers each output row's payloads at random rows of
 * the untransformed side, a 32-byte sector for a 4-byte value. Two
 * adjacent 4-byte columns packed into one 8-byte value first (one
 * sequential pass: 16 bytes a row) are then gathered with one sector
 * access a row instead of two (dense_add marks the pair: one 8-byte load).
 * H100, W1 PHJ-UR materialize 16.38 -> 10.15 ms (bench/RESULTS.md, session
 * 16). Worth it where the pass costs less than the gathers it
 * saves (a random access about 5x a packed row at B_G / B_R = 22): for R
 * when the output has at least a quarter of its rows, for S always (every
 * S row is an output row). The pairs are payload_pair's. A side with row
 * ids only (GFUR: x's rows are gathered through xs->ids; GFTR's sides have
 * none); out: the pair buffers in xs->pay (tracked, freed by side_free). */
bool gfur_packs(const gj_dtable *x, const Side *xs, u64 out_rows)
{
    return xs->ids && out_rows * 4 >= x->rows && x->n_payloads >= 2;
}

int gfur_pack(Job *j, const gj_dtable *x, Side *xs)
{
    int rc = GJ_OK;
    for (int c = 0; c < x->n_payloads; c++) {
        if (!payload_pair(x, c)) continue;
        void *pt = NULL;
        JCUDA(mem_alloc(&j->mem, &pt, x->rows * 8));
        pack_kernel<<<grid_for(x->rows, 256), 256, 0, j->mem.s>>>((const uint32_t *)x->payload[c].data,
                                                                 (const uint32_t *)x->payload[c + 1].data,
                                                                 (u64 *)pt, x->rows);
        JLAUNCHED();
        xs->pay[c] = pt;
        xs->pay[c + 1] = (const char *)pt + 4;
        xs->stride[c] = xs->stride[c + 1] = 2;
        c++;
    }
done:
    return rc;
}

template <typename K>
int write_dense(Job *j, int gftr, int br, int bs, Side *rs, Side *ss, uint32_t *first)
{
    static_assert(2 * GJ_MAX_PAYLOADS <= 16, "DenseCols holds 16 columns");
    int rc = GJ_OK;
    gj_join_out *o = j->out;
    const u64 n = j->s->rows;
    DenseCols d;
    bool r_in_place = false, s_in_place = false;
    const bool split = dense_split(j, ss);
    const K *ksrc = NULL;
    K *kdst = NULL;
    memset(&d, 0, sizeof d);
    out_describe<K>(j, n);
    /* R: payloads through first[] (and GFUR's row ids); its keys are done */
    if ((rc = transform_rest<K>(j, gftr, j->r, br, rs)) != GJ_OK) goto done;
    mem_free(&j->mem, (void *)rs->key);
    mem_free(&j->mem, j->hkey_r);
    rs->key = NULL;
    j->hkey_r = NULL;
    if (gfur_packs(j->r, rs, n) && (rc = gfur_pack(j, j->r, rs)) != GJ_OK) goto done;
    if (o->r_payloads) {
        d.first = first;
        d.r_ids = rs->ids;
    }
    for (int c = 0; c < o->r_payloads; c++) {
        if (c == 0 && o->r[c].width == 4) {
            o->r[c].data = first;
            r_in_place = true;
        } else {
            JCUDA(mem_alloc(&j->mem, &o->r[c].data, n * o->r[c].width));
        }
        dense_add(&d, 0, rs->pay[c], rs->stride[c], o->r[c].width, o->r[c].data);
    }
    if (split) { /* R's columns now, their sources released before S's columns are made */
        if (d.n) {
            launch_dense<K>(d, NULL, NULL, 0, n, j->mem.s);
            JLAUNCHED();
        }
        if (!r_in_place) mem_free(&j->mem, first);
        side_free(j, rs);
        memset(&d, 0, sizeof d);
    }
    /* S: the key and the payload columns not already in their final form */
    if ((rc = transform_rest<K>(j, gftr, j->s, bs, ss)) != GJ_OK) goto done;
    mem_free(&j->mem, j->hkey_s);
    j->hkey_s = NULL;
    ksrc = (const K *)ss->key;
    if (mem_owns(&j->mem, ss->key)) {
        o->key.data = (void *)ss->key;
        ss->key = NULL;
        if (j->hash_keys) kdst = (K *)o->key.data;
    } else {
        JCUDA(mem_alloc(&j->mem, &o->key.data, n * sizeof(K)));
        kdst = (K *)o->key.data;
    }
    if (gfur_packs(j->s, ss, n) && (rc = gfur_pack(j, j->s, ss)) != GJ_OK) goto done;
    d.s_ids = ss->ids;
    for (int c = 0; c < o->s_payloads; c++) {
        const int w = o->s[c].width;
        if (!ss->ids && ss->stride[c] == 1 && mem_owns(&j->mem, ss->pay[c])) {
            o->s[c].data = (void *)ss->pay[c]; /* GFTR: already the output column */
            ss->pay[c] = NULL;
            continue;
        }
        if (ss->ids && !s_in_place && w == 4) {
            o->s[c].data = (void *)ss->ids;
            s_in_place = true;
        } else {
            JCUDA(mem_alloc(&j->mem, &o->s[c].data, n * w));
        }
        dense_add(&d, 1, ss->pay[c], ss->stride[c], w, o->s[c].data);
    }
    if (d.n || kdst) {
        launch_dense<K>(d, ksrc, kdst, j->hash_keys, n, j->mem.s);
        JLAUNCHED();
    }
    if (!split) {
        if (!r_in_place) mem_free(&j->mem, first);
        side_free(j, rs);
    }
    if (s_in_place) ss->ids = NULL;
    side_free(j, ss);
done:
    return rc;
}

/* an S row that matched (once: the caller knows no row matched twice) */
struct MatchedRow {
    const uint32_t *first;
    __device__ bool operator()(uint32_t i) const { return first[i] != EMPTY; }
};

/* When the compacting WRITE runs as a select and gathers (write_selected):
 *   - for PHJ-TR, whose gathers are partition-local, and for any join
 *     where at most a sixteenth of S matched, where the WRITE kernels' pass
 *     over every S row's first[] (block scans of 2048 rows) outweighs the
 *     few gathers. H200, 2026-11-23, materialize ms write -> select, |R| =
 *     |S| / 64, 1+1 columns (bench/select_threshold_device.sh, MATCH=1):
 *     at 2^26 S rows NPHJ 0.305 -> 0.222 (match ratio 0.01), 0.364 ->
 *     0.326 (0.06), 0.386 -> 0.393 (0.12); PHJ-UR 0.394 -> 0.237, 0.505 ->
 *     0.430, 0.569 -> 0.585; at 2^24 alike, NPHJ even at 0.06 (it was an
 *     eighth before: 0.1-0.12 lost 0.01-0.02 ms);
 *   - if most work items have output: PHJ's WRITE kernel skips the
 *     others, the select reads every S row (TPC-H q18j2, 4368 of 60 M S
 *     rows matched in 17% of the items: PHJ 0.24 -> 0.35 ms with the
 *     select); SMJ's and NPHJ's scan every tile, so the rule is cautious
 *     there (not measured apart);
 *   - from 2^24 S rows: the select's launches and scratch cost about 20 us
 *     (q19j, q5j3, q7j3, 1.3-1.8 M S rows: NPHJ 0.071 -> 0.088, 0.079 ->
 *     0.092, 0.099 -> 0.121 ms with it); PHJ-TR at match ratio 0.1, |R| =
 *     |S| / 8: 0.037 -> 0.043 ms at 2^21 S rows, even at 2^23, 0.134 ->
 *     0.119-0.132 at 2^24, 0.242 -> 0.205 at 2^25 (same script).
 * H200, 2026-11-23 (bench/RESULTS.md, Joins, session 8), WRITE kernels ->
 * select: W2 (match ratio 0.25) PHJ-TR 8.36-8.40 -> 7.90-7.93 ms, but
 * PHJ-UR 8.84 -> 9.09, SMJ-TR 10.67 -> 10.80, NPHJ 27.56 -> 27.92 (their
 * random gathers ran faster in the WRITE kernels); q5j2's shape (456771 x
 * 59986052, 3% matched) 0.04-0.1 ms faster for every implementation.
 * PHJ does the select's work in one pass (write_compact, session 17).
 * GJ_JOIN_COMPACT=write|select forces one, =fused PHJ's one pass (A/B
 * runs; select then gives PHJ the select and its gathers; fused:N, N
 * items a block: tests/test_join.c). */
const char *compact_env(const char *v) /* GJ_JOIN_COMPACT is v or v:ARG: "" or ":ARG"; else NULL */
{
    const char *e = getenv("GJ_JOIN_COMPACT");
    const size_t n = strlen(v);
    return e && strncmp(e, v, n) == 0 && (e[n] == 0 || e[n] == ':') ? e + n : NULL;
}
bool compact_by_select(const Job *j, u64 total, u64 items, u64 busy_items)
{
    if (compact_env("write")) return false;
    if (compact_env("select") || compact_env("fused")) return true;
    return (j->impl == GJ_IMPL_PHJ_TR || total * 16 <= j->s->rows) && busy_items * 2 > items &&
           j->s->rows >= (1ULL << 24);
}

/* Output row i from S's row sel[i] and its R row first[sel[i]] (by_row:
 * first[i]), for i < total, into the output alloc_output made: the dense
 * write's gathers. */
template <typename K>
int write_rows(Job *j, u64 total, const Side *rs, const Side *ss, const uint32_t *first, const uint32_t *sel,
               bool by_row)
{
    int rc = GJ_OK;
    gj_join_out *o = j->out;
    DenseCols d;
    /* one launch for both sides unless GJ_JOIN_DENSE=split: the output is
     * allocated and nothing is freed in between, so a side at a time saves
     * no memory, and one launch reads sel[] once. H100, 2026-11-27 (session
     * 16, bench/s16_call9.sh), W2 PHJ-TR materialize 1.69-1.72 -> 1.64-1.67
     * ms, three rounds */
    const bool split = dense_mode() == DENSE_SPLIT;
    memset(&d, 0, sizeof d);
    d.sel = sel;
    d.first = first;
    d.first_by_row = by_row;
    d.r_ids = rs->ids;
    dense_add_side(&d, 0, rs, o);
    if (split && d.n) {
        launch_dense<K>(d, NULL, NULL, 0, total, j->mem.s);
        JLAUNCHED();
        d.n = 0;
        d.first = d.r_ids = NULL;
    }
    d.s_ids = ss->ids;
    dense_add_side(&d, 1, ss, o);
    launch_dense<K>(d, (const K *)ss->key, (K *)o->key.data, j->hash_keys, total, j->mem.s);
    JLAUNCHED();
done:
    return rc;
}

/* The compacting WRITE when no S row matched several R rows, as a select
 * and the dense write's gathers: the S rows that matched, in order (CUB's
 * DeviceSelect over first[]), then write_rows. */
template <typename K>
int write_selected(Job *j, u64 total, const Side *rs, const Side *ss, const uint32_t *first)
{
    int rc = GJ_OK;
    uint32_t *sel = NULL;
    u64 *nsel = NULL;
    size_t need = 0;
    const thrust::counting_iterator<uint32_t> rows(0);
    JCUDA(mem_alloc(&j->mem, (void **)&sel, total * 4));
    JCUDA(mem_alloc(&j->mem, (void **)&nsel, 8)); /* CUB's count: `total` already, not read back */
    JCUDA(cub::DeviceSelect::If(NULL, need, rows, sel, nsel, (int64_t)j->s->rows, MatchedRow{first}, j->mem.s));
    if ((rc = tmp_ensure(j, need)) != GJ_OK) goto done;
    need = j->tmp_bytes;
    JCUDA(cub::DeviceSelect::If(j->tmp, need, rows, sel, nsel, (int64_t)j->s->rows, MatchedRow{first},
                                j->mem.s));
    rc = write_rows<K>(j, total, rs, ss, first, sel, false);
done:
    mem_free(&j->mem, nsel);
    mem_free(&j->mem, sel);
    return rc;
}

/* PHJ's work items, for its compacting write (write_compact) */
struct PhjItems {
    const uint32_t *sstart, *item_map;
    const u64 *item_start, *cnt_off;
    u64 n;
};

/* The compacting WRITE of a PHJ when no S row matched several R rows, in
 * one pass (phj_compact_write_kernel): what write_selected does through a
 * select, without sel[]. Blocks of consecutive items, about 8 a block
 * slot, so that each stages several rounds of matches. */
template <typename K>
int write_compact(Job *j, const Side *rs, const Side *ss, const uint32_t *first, const PhjItems &it)
{
    typedef DensePolicy P;
    typedef PhjPolicy Q;
    int rc = GJ_OK;
    gj_join_out *o = j->out;
    DenseCols d;
    memset(&d, 0, sizeof d);
    d.r_ids = rs->ids;
    d.s_ids = ss->ids;
    dense_add_side(&d, 0, rs, o);
    dense_add_side(&d, 1, ss, o);
    int dev = 0, sms = 0;
    u64 per = 1;
    const char *fused = compact_env("fused");
    JCUDA(cudaGetDevice(&dev));
    JCUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    per = (it.n + (u64)sms * P::MINB * 8 - 1) / ((u64)sms * P::MINB * 8); /* items a block: 8 blocks a slot */
    if (fused && *fused == ':') per = strtoull(fused + 1, NULL, 10);
    if (per < 1) per = 1;
    phj_compact_write_kernel<K, P::V, P::THREADS, P::MINB><<<(unsigned)((it.n + per - 1) / per), P::THREADS, 0,
                                                              j->mem.s>>>(
        d, (const K *)ss->key, (K *)o->key.data, j->hash_keys, first, it.sstart, it.item_start, it.item_map,
        it.cnt_off, it.n, per, (int)Q::SC);
    JLAUNCHED();
done:
    return rc;
}

/* After the COUNT pass (hv: the output's rows, whether some S row matched
 * several R rows, the work items with output of `items`): the dense write;
 * or the remaining GFTR columns and the output, R's keys released first
 * when no second probe reads them, then the select (write_selected) when
 * compact_by_select says so. Both finish the job (*finished); otherwise
 * the caller launches its WRITE kernels. Marks where the materialize phase
 * starts (and, when finished, ends). */
template <typename K>
int materialize_begin(Job *j, gj_phase_timer *tm, int gftr, int br, int bs, Side *rs, Side *ss,
                      uint32_t *first, u64 items, const u64 hv[3], Emit *e, bool *finished,
                      const PhjItems *it = NULL)
{
    int rc = GJ_OK;
    *finished = false;
    JCUDA(gj_timer_mark(tm, j->mem.s));
    if (hv[0] == j->s->rows && !hv[1] && dense_mode() != DENSE_OFF) {
        rc = write_dense<K>(j, gftr, br, bs, rs, ss, first);
        if (rc == GJ_OK) JCUDA(gj_timer_mark(tm, j->mem.s));
        *finished = true;
        goto done;
    }
    if (hv[0] && ((rc = transform_rest<K>(j, gftr, j->r, br, rs)) != GJ_OK ||
                  (rc = transform_rest<K>(j, gftr, j->s, bs, ss)) != GJ_OK))
        goto done;
    if (!hv[1]) { /* no second probe or merge: R's keys are not read again */
        mem_free(&j->mem, (void *)rs->key);
        rs->key = NULL;
    }
    if ((rc = alloc_output<K>(j, hv[0], rs, ss, e)) != GJ_OK) goto done;
    if (hv[0] && !hv[1] && compact_by_select(j, hv[0], items, hv[2])) {
        rc = it && !compact_env("select") ? write_compact<K>(j, rs, ss, first, *it)
                                          : write_selected<K>(j, hv[0], rs, ss, first);
        if (rc == GJ_OK) JCUDA(gj_timer_mark(tm, j->mem.s));
        *finished = true;
    }
done:
    return rc;
}

/* ---- PHJ ----------------------------------------------------------------- */

/* Use the sparse probe (phj_sparse)? GJ_JOIN_SPARSE=off: never (A/B runs). */
bool sparse_on(const gj_dtable *R, const gj_dtable *S)
{
    if (gj_env_is("GJ_JOIN_SPARSE", "off")) return false;
    return gj_phj_sparse_takes((double)R->rows, (double)S->rows, 0, 1, 1) && /* its sizes; matches unknown yet */
           S->rows < (1ULL << 32) && ((uintptr_t)S->key.data & 15) == 0; /* the kernel's 16-byte loads */
}

/* PHJ of a build side of at most GJ_PHJ_SPARSE_R rows with few matches:
 * no partition (one table, every block its own copy), one pass over S's
 * keys collecting the matches (phj_sparse_kernel), then the output
 * allocated at its size and gathered (write_rows), the matches' S rows in
 * sel and their R rows beside them in first[] (room for S / SPARSE_DIV
 * each). The COUNT pass writes first[] for every S row and a second pass
 * compacts it: 8 bytes an S row more, and two launches more. Declines
 * (*done = false, nothing written to the output) when a block finds more
 * than SPARSE_BUF matches, all more than S / SPARSE_DIV, or some S row
 * matches several R rows; the pass, cut short once a block declines, is
 * then lost (0.03-0.05 ms on the H200). So it declines before the pass
 * when the workload (gj_join_exec_w) expects more matches than it takes
 * (gj_phj_sparse_takes): the dimension joins of a star schema (a few
 * hundred R rows, every S row matching). */
template <typename K>
int phj_sparse(Job *j, gj_phase_timer *tm, Emit *e, bool *done)
{
    typedef PhjPolicy P;
    int rc = GJ_OK, dev = 0, sms = 0, occ = 0;
    const gj_dtable *R = j->r, *S = j->s;
    const u64 cap = S->rows / P::SPARSE_DIV;
    const int tbits = table_bits((uint32_t)R->rows) > P::MIN_TABLE_BITS ? table_bits((uint32_t)R->rows)
                                                                         : P::MIN_TABLE_BITS;
    const size_t smem = ((size_t)1 << tbits) * (sizeof(K) + 4);
    auto *kern = phj_sparse_kernel<K, P::SPARSE_THREADS, P::SPARSE_BUF>;
    u64 *cnt = NULL, hv[2] = {0, 0};
    uint32_t *first = NULL, *sel = NULL;
    Side rs, ss;
    *done = false;
    identity_side(R, &rs);
    identity_side(S, &ss);
    JCUDA(cudaGetDevice(&dev));
    JCUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    JCUDA(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    JCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, P::SPARSE_THREADS, smem));
    if (occ < 1) occ = 1;
    /* the workload expects more matches than it would take: decline
     * before the pass (a try that declines costs 0.03-0.05 ms on the H200) */
    if (!gj_phj_sparse_takes((double)R->rows, (double)S->rows, j->expect_rows, sms, occ)) goto done;
    JCUDA(mem_alloc(&j->mem, (void **)&cnt, 16));
    JCUDA(mem_alloc(&j->mem, (void **)&first, (cap ? cap : 1) * 4));
    JCUDA(mem_alloc(&j->mem, (void **)&sel, (cap ? cap : 1) * 4));
    JCUDA(cudaMemsetAsync(cnt, 0, 16, j->mem.s));
    JCUDA(gj_timer_mark(tm, j->mem.s)); /* no transform */
    kern<<<(unsigned)(sms * occ), P::SPARSE_THREADS, smem, j->mem.s>>>(
        (const K *)R->key.data, (uint32_t)R->rows, (const K *)S->key.data, S->rows, tbits, first, sel, cap, cnt);
    JLAUNCHED();
    JCUDA(cudaMemcpyAsync(hv, cnt, sizeof hv, cudaMemcpyDeviceToHost, j->mem.s));
    JCUDA(cudaStreamSynchronize(j->mem.s));
    if (hv[1] || hv[0] > cap) { /* the COUNT/WRITE passes instead, after the transform's mark */
        gj_timer_unmark(tm);
        goto done;
    }
    JCUDA(gj_timer_mark(tm, j->mem.s));
    if ((rc = alloc_output<K>(j, hv[0], &rs, &ss, e)) != GJ_OK) goto done;
    if (hv[0] && (rc = write_rows<K>(j, hv[0], &rs, &ss, first, sel, true)) != GJ_OK) goto done;
    JCUDA(gj_timer_mark(tm, j->mem.s));
    *done = true;
done:
    mem_free(&j->mem, sel);
    mem_free(&j->mem, first);
    mem_free(&j->mem, cnt);
    return rc;
}

template <typename K>
int run_phj(Job *j, gj_phase_timer *tm, Emit *e)
{
    typedef PhjPolicy P;
    int rc = GJ_OK;
    const gj_dtable *R = j->r, *S = j->s;
    const int gftr = j->impl == GJ_IMPL_PHJ_TR;
    int bits = 0;
    while (bits < P::MAX_BITS && (R->rows >> bits) > P::TARGET) bits++;
    const uint32_t parts = 1u << bits;
    Side rs, ss;
    uint32_t *rstart = NULL, *sstart = NULL;
    u64 *items = NULL, *cnt = NULL, n_items = 0, total = 0;
    uint32_t *first = NULL, *item_map = NULL;
    unsigned char *multi = NULL;
    u64 h_max = 0, hv[3] = {0, 0, 0};
    bool finished = false;
    size_t smem = 0;
    int tbits = 0;
    j->hash_keys = 0;
    if (sparse_on(R, S)) {
        if ((rc = phj_sparse<K>(j, tm, e, &finished)) != GJ_OK || finished) goto done;
        /* declined: its time counts to the transform phase */
    }
    if (bits == 0) {
        identity_side(R, &rs);
        identity_side(S, &ss);
    } else {
        int skew = 0;
        rc = transform_side<K>(j, R, gftr, 0, bits, &rs);
        if (rc == GJ_OK && S->rows >= R->rows) rc = phj_skewed<K>(j, &rs, R->rows, bits, &skew);
        if (rc == GJ_OK && skew) { /* raw key bits: uneven partitions; hash both sides */
            side_free(j, &rs);
            j->hash_keys = 1;
            rc = transform_side<K>(j, R, gftr, 0, bits, &rs);
        }
        if (rc == GJ_OK) rc = transform_side<K>(j, S, gftr, 0, bits, &ss);
        if (rc != GJ_OK) goto done;
        if (!gftr) { /* GFUR is done with the keys' hashed copies */
            mem_free(&j->mem, j->hkey_r);
            mem_free(&j->mem, j->hkey_s);
            j->hkey_r = j->hkey_s = NULL;
        }
    }
    mem_free(&j->mem, j->tmp); /* transform_rest allocates again if it needs */
    j->tmp = NULL;
    j->tmp_bytes = 0;
    JCUDA(gj_timer_mark(tm, j->mem.s));
    /* match: partition bounds (a binary search per boundary), work items
     * and their largest R chunk (items[parts + 1]), count */
    JCUDA(mem_alloc(&j->mem, (void **)&rstart, (parts + 1) * 4));
    JCUDA(mem_alloc(&j->mem, (void **)&sstart, (parts + 1) * 4));
    JCUDA(mem_alloc(&j->mem, (void **)&items, (parts + 2) * 8));
    if (bits == 0) {
        /* one partition: bounds, item count and table size are known here
         * (R and S both have rows: run_typed returned otherwise), so one
         * small kernel and no read-back */
        n_items = ((R->rows + P::RC - 1) / P::RC) * ((S->rows + P::SC - 1) / P::SC);
        h_max = R->rows < (u64)P::RC ? R->rows : (u64)P::RC;
        phj_one_part_kernel<<<1, 32, 0, j->mem.s>>>(R->rows, S->rows, n_items, rstart, sstart,
                                                     items);
        JLAUNCHED();
    } else {
        JCUDA(cudaMemsetAsync(items + parts + 1, 0, 8, j->mem.s));
        bounds_kernel<K><<<grid_for(parts + 1, 256), 256, 0, j->mem.s>>>(
            (const K *)rs.key, R->rows, parts - 1, parts, rstart);
        JLAUNCHED();
        bounds_kernel<K><<<grid_for(parts + 1, 256), 256, 0, j->mem.s>>>(
            (const K *)ss.key, S->rows, parts - 1, parts, sstart);
        JLAUNCHED();
        phj_items_kernel<P::RC, P::SC><<<grid_for(parts + 1, 256), 256, 0, j->mem.s>>>(
            rstart, sstart, parts, items);
        JLAUNCHED();
        if ((rc = exclusive_sum(j, items, items, parts + 1)) != GJ_OK) goto done;
        /* item count and largest R chunk in one read-back */
        JCUDA(cudaMemcpyAsync(hv, items + parts, 2 * sizeof *hv, cudaMemcpyDeviceToHost, j->mem.s));
        JCUDA(cudaStreamSynchronize(j->mem.s));
        n_items = hv[0];
        h_max = hv[1];
    }
    tbits = table_bits((uint32_t)h_max);
    if (tbits < P::MIN_TABLE_BITS) tbits = P::MIN_TABLE_BITS;
    smem = ((size_t)1 << tbits) * (sizeof(K) + 4);
    /* cnt: n_items counts, then 0 for the scan (-> total), the flag "some
     * item has an S row with several matches" and the items with output
     * (scan_counts) */
    JCUDA(mem_alloc(&j->mem, (void **)&cnt, (n_items + 3) * 8));
    JCUDA(cudaMemsetAsync(cnt + n_items, 0, 24, j->mem.s));
    JCUDA(mem_alloc(&j->mem, (void **)&multi, n_items + 1));
    JCUDA(mem_alloc(&j->mem, (void **)&first, S->rows * 4));
    if (bits && n_items) {
        JCUDA(mem_alloc(&j->mem, (void **)&item_map, n_items * 4));
        phj_item_map_kernel<<<grid_for(n_items, 256), 256, 0, j->mem.s>>>(items, parts, n_items,
                                                                           item_map);
        JLAUNCHED();
    }
    JCUDA(cudaFuncSetAttribute(phj_match_kernel<K, false, P::THREADS, P::RC, P::SC>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    JCUDA(cudaFuncSetAttribute(phj_match_kernel<K, true, P::THREADS, P::RC, P::SC>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    if (n_items) {
        phj_match_kernel<K, false, P::THREADS, P::RC, P::SC><<<(unsigned)n_items, P::THREADS, smem,
                                                              j->mem.s>>>(
            (const K *)rs.key, (const K *)ss.key, rstart, sstart, items, item_map, bits, tbits, cnt,
            first, multi, *e);
        JLAUNCHED();
    }
    if ((rc = scan_counts(j, cnt, n_items, hv)) != GJ_OK) goto done;
    total = hv[0];
    if (bits && total < S->rows && !hv[1]) { /* write_selected reads every S row's first[] */
        phj_unvisited_kernel<<<grid_for(parts, 256), 256, 0, j->mem.s>>>(rstart, sstart, parts, first);
        JLAUNCHED();
    }
    {
        const PhjItems it = {sstart, item_map, items, cnt, n_items};
        rc = materialize_begin<K>(j, tm, gftr, bits, bits, &rs, &ss, first, n_items, hv, e, &finished, &it);
    }
    if (rc != GJ_OK || finished)
        goto done;
    if (n_items && total) {
        /* items whose S rows matched at most once: compaction of first[] */
        phj_write_unique_kernel<K, P::THREADS, P::SC><<<(unsigned)n_items, P::THREADS, 0, j->mem.s>>>(
            (const K *)ss.key, sstart, items, item_map, cnt, first, multi, *e);
        JLAUNCHED();
    }
    if (n_items && total && hv[1]) { /* the others: build the table, probe again */
        phj_match_kernel<K, true, P::THREADS, P::RC, P::SC><<<(unsigned)n_items, P::THREADS, smem,
                                                             j->mem.s>>>(
            (const K *)rs.key, (const K *)ss.key, rstart, sstart, items, item_map, bits, tbits, cnt,
            first, multi, *e);
        JLAUNCHED();
    }
    JCUDA(gj_timer_mark(tm, j->mem.s));
done:
    return rc;
}

/* ---- NPHJ ---------------------------------------------------------------- */
template <typename K>
int run_nphj(Job *j, gj_phase_timer *tm, Emit *e)
{
    typedef NphjPolicy P;
    int rc = GJ_OK;
    const gj_dtable *R = j->r, *S = j->s;
    int bits = 1;
    while ((1ULL << bits) < 2 * R->rows) bits++;
    Side rs, ss;
    NphjSlot<K> *tab = NULL;
    u64 *cnt = NULL, hv[3] = {0, 0, 0}, total = 0, tiles = (S->rows + P::TILE - 1) / P::TILE;
    bool finished = false;
    uint32_t *first = NULL;
    unsigned char *multi = NULL;
    identity_side(R, &rs);
    identity_side(S, &ss);
    JCUDA(mem_alloc(&j->mem, (void **)&tab, (1ULL << bits) * sizeof(NphjSlot<K>)));
    JCUDA(cudaMemsetAsync(tab, 0xff, (1ULL << bits) * sizeof(NphjSlot<K>), j->mem.s));
    nphj_build_kernel<K><<<grid_for(R->rows, 256), 256, 0, j->mem.s>>>((const K *)R->key.data, R->rows, tab, bits);
    JLAUNCHED();
    JCUDA(gj_timer_mark(tm, j->mem.s));
    JCUDA(mem_alloc(&j->mem, (void **)&cnt, (tiles + 3) * 8));
    JCUDA(cudaMemsetAsync(cnt + tiles, 0, 24, j->mem.s));
    JCUDA(mem_alloc(&j->mem, (void **)&multi, tiles + 1));
    JCUDA(mem_alloc(&j->mem, (void **)&first, S->rows * 4));
    nphj_match_kernel<K, false, P::THREADS, P::TILE><<<(unsigned)tiles, P::THREADS, 0, j->mem.s>>>(
        tab, bits, (const K *)S->key.data, S->rows, cnt, first, multi, *e);
    JLAUNCHED();
    if ((rc = scan_counts(j, cnt, tiles, hv)) != GJ_OK) goto done;
    total = hv[0];
    if (!hv[1]) { /* no second probe: first[] holds every match, the table goes */
        mem_free(&j->mem, tab);
        tab = NULL;
    }
    rc = materialize_begin<K>(j, tm, 0, 0, 0, &rs, &ss, first, tiles, hv, e, &finished);
    if (rc != GJ_OK || finished)
        goto done;
    if (total) {
        nphj_match_kernel<K, true, P::THREADS, P::TILE><<<(unsigned)tiles, P::THREADS, 0, j->mem.s>>>(
            tab, bits, (const K *)S->key.data, S->rows, cnt, first, multi, *e);
        JLAUNCHED();
    }
    JCUDA(gj_timer_mark(tm, j->mem.s));
done:
    return rc;
}

/* ---- SMJ ----------------------------------------------------------------- */
template <typename K>
int run_smj(Job *j, gj_phase_timer *tm, Emit *e)
{
    typedef SmjPolicy P;
    int rc = GJ_OK;
    const gj_dtable *R = j->r, *S = j->s;
    const int gftr = j->impl == GJ_IMPL_SMJ_TR;
    const u64 tile = (u64)P::THREADS * P::IPT, tiles = (S->rows + tile - 1) / tile;
    u64 *mm = NULL, *cnt = NULL, hmm[6] = {~0ULL, 0, ~0ULL, 0, 0, 0}, hv[3] = {0, 0, 0}, total = 0, *win = NULL;
    bool finished = false;
    uint32_t *first = NULL;
    unsigned char *multi = NULL;
    int br = 0, bs = 0;
    Side rs, ss;
    /* sort each side only on the bits where its keys differ: they share the
     * bits above the highest bit in which its min and max differ (W2's S
     * keys span half of R's range: 27 bits against 28, so the MSD sort's
     * partitions are as full as R's). The same pass sees whether a side is
     * already in key order (a table stored by its key: TPC-H's lineitem
     * and orders by order key; the workload's r_sorted, s_sorted): then it
     * is not sorted, and the merge reads it in place, as NPHJ reads S.
     * GJ_SMJ_IN_ORDER=off sorts anyway (A/B runs). */
    const bool look = !gj_env_is("GJ_SMJ_IN_ORDER", "off");
    JCUDA(mem_alloc(&j->mem, (void **)&mm, sizeof hmm));
    JCUDA(cudaMemcpyAsync(mm, hmm, sizeof hmm, cudaMemcpyHostToDevice, j->mem.s));
    minmax_kernel<K, 256><<<grid_for(R->rows, 256 * 8), 256, 0, j->mem.s>>>(
        (const K *)R->key.data, R->rows, mm, 1, look ? mm + 4 : NULL);
    JLAUNCHED();
    minmax_kernel<K, 256><<<grid_for(S->rows, 256 * 8), 256, 0, j->mem.s>>>(
        (const K *)S->key.data, S->rows, mm + 2, 1, look ? mm + 5 : NULL);
    JLAUNCHED();
    JCUDA(cudaMemcpyAsync(hmm, mm, sizeof hmm, cudaMemcpyDeviceToHost, j->mem.s));
    JCUDA(cudaStreamSynchronize(j->mem.s));
    for (u64 d = hmm[0] ^ hmm[1]; d; d >>= 1) br++;
    for (u64 d = hmm[2] ^ hmm[3]; d; d >>= 1) bs++;
    /* a side in key order (its keys all equal, or no descent) is sorted:
     * bits 0 tell the materialization it is untransformed */
    if (look && !hmm[4]) br = 0;
    if (look && !hmm[5]) bs = 0;
    if (br == 0) identity_side(R, &rs);
    else if ((rc = transform_side<K>(j, R, gftr, 0, br, &rs)) != GJ_OK) goto done;
    if (bs == 0) identity_side(S, &ss);
    else if ((rc = transform_side<K>(j, S, gftr, 0, bs, &ss)) != GJ_OK) goto done;
    mem_free(&j->mem, j->tmp);
    j->tmp = NULL;
    j->tmp_bytes = 0;
    JCUDA(gj_timer_mark(tm, j->mem.s));
    JCUDA(mem_alloc(&j->mem, (void **)&cnt, (tiles + 3) * 8));
    JCUDA(cudaMemsetAsync(cnt + tiles, 0, 24, j->mem.s));
    JCUDA(mem_alloc(&j->mem, (void **)&multi, tiles + 1));
    JCUDA(mem_alloc(&j->mem, (void **)&first, S->rows * 4));
    JCUDA(mem_alloc(&j->mem, (void **)&win, tiles * 16));
    smj_corank_kernel<K, P::THREADS * P::IPT><<<grid_for(tiles, 128), 128, 0, j->mem.s>>>(
        (const K *)rs.key, R->rows, (const K *)ss.key, S->rows, tiles, win);
    JLAUNCHED();
    smj_match_kernel<K, false, P::THREADS, P::IPT><<<(unsigned)tiles, P::THREADS, 0, j->mem.s>>>(
        (const K *)rs.key, win, (const K *)ss.key, S->rows, cnt, first, multi, *e);
    JLAUNCHED();
    if ((rc = scan_counts(j, cnt, tiles, hv)) != GJ_OK) goto done;
    total = hv[0];
    rc = materialize_begin<K>(j, tm, gftr, br, bs, &rs, &ss, first, tiles, hv, e, &finished);
    if (rc != GJ_OK || finished)
        goto done;
    if (total) {
        smj_match_kernel<K, true, P::THREADS, P::IPT><<<(unsigned)tiles, P::THREADS, 0, j->mem.s>>>(
            (const K *)rs.key, win, (const K *)ss.key, S->rows, cnt, first, multi, *e);
        JLAUNCHED();
    }
    JCUDA(gj_timer_mark(tm, j->mem.s));
done:
    return rc;
}

/* ---- the semi-join filter (operators/JOIN.md, "The semi-join filter") --- */

/* the semi-join filter for these sides (operators/shapes.h
 * gj_join_filter_takes: the workload's hint w->filter, for AUTO the rule
 * over its statistics, and GJ_JOIN_FILTER) */
bool filter_wanted(gj_impl impl, const gj_workload *w, const gj_dtable *r, const gj_dtable *s)
{
    const bool smj = impl == GJ_IMPL_SMJ_UR || impl == GJ_IMPL_SMJ_TR;
    return gj_join_filter_takes((double)r->rows, (double)s->rows, w ? w->match_ratio : 1, w && !w->out_rows,
                                smj && w && w->r_sorted && w->s_sorted, w ? w->filter : GJ_FILTER_AUTO);
}

/* A side's flags against a bitmap (filter_flag), then its cut (filter_cut) */
struct FiltSide {
    uint32_t *mask; /* a bit a row: its key in the bitmap          */
    u64 *cnt;       /* flagged rows a tile, then their exclusive sum */
    u64 tiles;
};

/* x's mask and counts (filter_flag) from the job's memory */
int filter_alloc(Job *j, const gj_dtable *x, FiltSide *f)
{
    int rc = GJ_OK;
    f->tiles = (x->rows + FILT_TILE - 1) / FILT_TILE;
    JCUDA(mem_alloc(&j->mem, (void **)&f->mask, f->tiles * FILT_WORDS * 4));
    JCUDA(mem_alloc(&j->mem, (void **)&f->cnt, (f->tiles + 1) * 8));
    JCUDA(cudaMemsetAsync(f->cnt + f->tiles, 0, 8, j->mem.s));
done:
    return rc;
}

/* The bitmaps' sets combine a warp's bits of one word into one atomic
 * (filt_or_bit); GJ_JOIN_FILTER_COMBINE=off: an atomic a key (A/B runs) */
int filter_combine()
{
    return !gj_env_is("GJ_JOIN_FILTER_COMBINE", "off");
}

/* flag x's rows whose key has its bit in bm (R's range [lo, lo + span)),
 * setting their keys in bm2 (NULL: none) */
template <typename K>
int filter_flag(Job *j, const gj_dtable *x, u64 lo, u64 span, const uint32_t *bm, uint32_t *bm2, FiltSide *f)
{
    int rc = filter_alloc(j, x, f);
    if (rc != GJ_OK) return rc;
    filt_flag_kernel<K><<<(unsigned)f->tiles, FILT_THREADS, 0, j->mem.s>>>(
        (const K *)x->key.data, x->rows, lo, span, bm, f->mask, f->cnt, bm2, filter_combine());
    JLAUNCHED();
done:
    return rc;
}

/* The start of x's cut (filter_flag done): the counts scanned, the total
 * read back, the cut's columns allocated in *cut (kept: inputs to the
 * implementation) and described in *c for filt_write_tile */
int filter_cut_alloc(Job *j, const gj_dtable *x, FiltSide *f, gj_dtable *cut, FiltCols *c)
{
    int rc = GJ_OK;
    u64 total = 0;
    memset(c, 0, sizeof *c);
    if ((rc = exclusive_sum(j, f->cnt, f->cnt, f->tiles + 1)) != GJ_OK) goto done;
    JCUDA(cudaMemcpyAsync(&total, f->cnt + f->tiles, 8, cudaMemcpyDeviceToHost, j->mem.s));
    JCUDA(cudaStreamSynchronize(j->mem.s));
    *cut = *x;
    cut->rows = total;
    c->n = 1 + x->n_payloads;
    for (int i = 0; i < c->n; i++) {
        const gj_column *col = i ? &x->payload[i - 1] : &x->key;
        gj_column *to = i ? &cut->payload[i - 1] : &cut->key;
        JCUDA(mem_alloc(&j->mem, &to->data, total * col->width));
        mem_keep(&j->mem, to->data); /* an input to the implementation */
        c->src[i] = col->data;
        c->dst[i] = to->data;
        c->w[i] = col->width;
    }
done:
    return rc;
}

/* a side's mask and counts, once its cut is written */
void filter_release(Job *j, FiltSide *f)
{
    mem_free(&j->mem, f->mask);
    mem_free(&j->mem, f->cnt);
    f->mask = NULL;
    f->cnt = NULL;
}

/* x's flagged rows (filter_flag) into a new table *cut, in x's row order */
int filter_cut(Job *j, const gj_dtable *x, FiltSide *f, gj_dtable *cut)
{
    FiltCols c;
    int rc = filter_cut_alloc(j, x, f, cut, &c);
    if (rc == GJ_OK && cut->rows) {
        filt_write_kernel<<<(unsigned)f->tiles, FILT_THREADS, 0, j->mem.s>>>(f->mask, f->cnt, c);
        JLAUNCHED();
    }
done:
    filter_release(j, f);
    return rc;
}

/* Cut S to the rows whose key R holds, then R to the keys S's cut holds,
 * each by a bitmap of the other side's keys over R's key range (S's flags
 * set its matching keys in the second bitmap as they find them); j->r and
 * j->s then point to the cut sides, which the implementation joins as it
 * would the inputs (same output: only rows without a partner are gone).
 * S's cut and R's flags share one grid (filt_write_flag_kernel: the one
 * DRAM-bound, the other L2-bound). Declines, leaving j->r and j->s as they
 * were, where R's keys span more than GJ_JOIN_FILTER_MAX_SPAN values.
 * Timed within the transform phase. */
template <typename K>
int key_filter(Job *j)
{
    int rc = GJ_OK;
    u64 *mm = NULL, hmm[2] = {~0ULL, 0}, span = 0;
    uint32_t *bm = NULL;
    size_t bm_bytes = 0;
    const gj_dtable *R = j->r, *S = j->s;
    FiltSide fs = {NULL, NULL, 0}, fr = {NULL, NULL, 0};
    FiltCols cs;
    gj_trace_begin(); /* GJ_TRACE=1: where the filter's time goes */
    gj_trace(j->mem.s, "filter: start");
    JCUDA(mem_alloc(&j->mem, (void **)&mm, sizeof hmm));
    JCUDA(cudaMemcpyAsync(mm, hmm, sizeof hmm, cudaMemcpyHostToDevice, j->mem.s));
    minmax_kernel<K, 256><<<grid_for(R->rows, 256 * 8), 256, 0, j->mem.s>>>((const K *)R->key.data, R->rows, mm);
    JLAUNCHED();
    JCUDA(cudaMemcpyAsync(hmm, mm, sizeof hmm, cudaMemcpyDeviceToHost, j->mem.s));
    JCUDA(cudaStreamSynchronize(j->mem.s));
    gj_trace(j->mem.s, "filter: R's min and max");
    if (hmm[1] - hmm[0] >= GJ_JOIN_FILTER_MAX_SPAN) goto done; /* the bitmap would outgrow the L2 */
    span = hmm[1] - hmm[0] + 1;
    bm_bytes = (span + 31) / 32 * 4;
    /* two bitmaps: R's keys, then S's matching keys */
    JCUDA(mem_alloc(&j->mem, (void **)&bm, 2 * bm_bytes));
    JCUDA(cudaMemsetAsync(bm, 0, 2 * bm_bytes, j->mem.s));
    filt_set_kernel<K><<<grid_for(R->rows, FILT_THREADS * 4), FILT_THREADS, 0, j->mem.s>>>(
        (const K *)R->key.data, R->rows, hmm[0], span, bm, filter_combine());
    JLAUNCHED();
    gj_trace(j->mem.s, "filter: R's keys set");
    if ((rc = filter_flag<K>(j, S, hmm[0], span, bm, bm + bm_bytes / 4, &fs)) != GJ_OK) goto done;
    gj_trace(j->mem.s, "filter: S flagged");
    if ((rc = filter_cut_alloc(j, S, &fs, &j->cut_s, &cs)) != GJ_OK || (rc = filter_alloc(j, R, &fr)) != GJ_OK)
        goto done;
    { /* S's cut beside R's flags */
        const u64 wt = j->cut_s.rows ? fs.tiles : 0;
        filt_write_flag_kernel<K><<<(unsigned)(wt + fr.tiles), FILT_THREADS, 0, j->mem.s>>>(
            fs.mask, fs.cnt, cs, wt, (const K *)R->key.data, R->rows, hmm[0], span, bm + bm_bytes / 4, fr.mask,
            fr.cnt, fr.tiles);
        JLAUNCHED();
    }
    filter_release(j, &fs);
    gj_trace(j->mem.s, "filter: S cut, R flagged");
    if ((rc = filter_cut(j, R, &fr, &j->cut_r)) != GJ_OK) goto done;
    gj_trace(j->mem.s, "filter: R cut");
    j->r = &j->cut_r;
    j->s = &j->cut_s;
done:
    mem_free(&j->mem, mm);
    mem_free(&j->mem, bm);
    filter_release(j, &fs);
    filter_release(j, &fr);
    mem_free(&j->mem, j->tmp);
    j->tmp = NULL;
    j->tmp_bytes = 0;
    gj_trace_dump();
    return rc;
}

template <typename K>
int run_typed(Job *j, gj_phase_timer *tm)
{
    Emit e;
    memset(&e, 0, sizeof e);
    if (j->filter) {
        int rc = key_filter<K>(j);
        if (rc != GJ_OK) return rc;
    }
    if (j->r->rows == 0 || j->s->rows == 0) { /* empty output, three empty phases */
        Side rs, ss;
        int rc = GJ_OK;
        identity_side(j->r, &rs);
        identity_side(j->s, &ss);
        rc = alloc_output<K>(j, 0, &rs, &ss, &e);
        for (int i = 0; i < 3 && rc == GJ_OK; i++)
            if (gj_timer_mark(tm, j->mem.s) != cudaSuccess)
                rc = gj_seterr(j->ctx, GJ_ERR_CUDA, "cudaEventRecord failed");
        return rc;
    }
    switch (j->impl) {
    case GJ_IMPL_PHJ_UR: case GJ_IMPL_PHJ_TR: return run_phj<K>(j, tm, &e);
    case GJ_IMPL_SMJ_UR: case GJ_IMPL_SMJ_TR: return run_smj<K>(j, tm, &e);
    default: return run_nphj<K>(j, tm, &e);
    }
}

int check_table(const gj_dtable *t, const char *name, gj_ctx *ctx)
{
    if (!t) return gj_seterr(ctx, GJ_ERR_INVALID, "%s is NULL", name);
    if (t->rows >= (1ULL << 32))
        return gj_seterr(ctx, GJ_ERR_INVALID, "%s rows=%llu: allowed at most 2^32-1", name,
                         (unsigned long long)t->rows);
    if (t->key.width != 4 && t->key.width != 8)
        return gj_seterr(ctx, GJ_ERR_INVALID, "%s key width=%d: allowed 4 or 8", name, t->key.width);
    if (t->n_payloads < 0 || t->n_payloads > GJ_MAX_PAYLOADS)
        return gj_seterr(ctx, GJ_ERR_INVALID, "%s payloads=%d: allowed 0 to %d", name,
                         t->n_payloads, GJ_MAX_PAYLOADS);
    if (t->rows && !t->key.data) return gj_seterr(ctx, GJ_ERR_INVALID, "%s key data is NULL", name);
    for (int c = 0; c < t->n_payloads; c++) {
        if (t->payload[c].width != 4 && t->payload[c].width != 8)
            return gj_seterr(ctx, GJ_ERR_INVALID, "%s payload %d width=%d: allowed 4 or 8", name, c,
                             t->payload[c].width);
        if (t->rows && !t->payload[c].data)
            return gj_seterr(ctx, GJ_ERR_INVALID, "%s payload %d data is NULL", name, c);
    }
    return GJ_OK;
}

/* the custom partition in each value mode; HASH: keys hashed as read;
 * split: 8-byte values as two 4-byte halves (GJ_PART_SPLIT); wide:
 * GJ_PART_WIDE */
template <typename K, bool HASH>
int part_custom(Job *j, const K *kin, K *kout, int mode, const void *va, const void *vb, void *vout,
                u64 n, int bits, bool split, bool wide)
{
    uint32_t *vhi = split ? (uint32_t *)vout + n : NULL;
    if (mode == GJ_PART_IOTA)
        return partition_pairs<K, uint32_t, PV_IOTA, HASH>(j, kin, kout, NULL, NULL, NULL, (uint32_t *)vout,
                                                           n, bits, 0, NULL, NULL, NULL, NULL, wide);
    if (mode == GJ_PART_COPY4)
        return partition_pairs<K, uint32_t, PV_COPY, HASH>(j, kin, kout, (const uint32_t *)va, NULL, NULL,
                                                           (uint32_t *)vout, n, bits, 0, NULL, NULL, NULL, NULL,
                                                           wide);
    if (mode == GJ_PART_COPY8)
        return partition_pairs<K, u64, PV_COPY, HASH>(j, kin, kout, (const u64 *)va, NULL, NULL, (u64 *)vout,
                                                      n, bits, 0, NULL, NULL, vhi, NULL, wide);
    return partition_pairs<K, u64, PV_PACK, HASH>(j, kin, kout, NULL, (const uint32_t *)va,
                                                  (const uint32_t *)vb, (u64 *)vout, n, bits, 0, NULL, NULL, vhi,
                                                  NULL, wide);
}

/* PGB's claimed pass (operators/shapes.h gj_part_claims): the sample's
 * rows (runs of GJ_PART_CLAIM_RUN adjacent rows, gj_part_claim_run; a
 * thread a row, a run's threads adjacent: a sector a run of 4-byte keys)
 * hashed (HASH; a direct plan's keys as they are) and their digits counted
 * into w[3B + digit] */
template <typename K, bool HASH>
__global__ void __launch_bounds__(256) claim_sample_kernel(const K *keys, u64 n, uint32_t mask, uint32_t *w)
{
    __shared__ uint32_t h[1 << GJ_PART_CLAIM_MAX_BITS];
    const uint32_t nb = mask + 1;
    for (uint32_t i = threadIdx.x; i < nb; i += blockDim.x) h[i] = 0;
    __syncthreads();
    const u64 C = GJ_PART_CLAIM_RUN, m = (n + GJ_PART_CLAIM_SAMPLE * C - 1) / (GJ_PART_CLAIM_SAMPLE * C) * C;
    for (u64 t = blockIdx.x * (u64)blockDim.x + threadIdx.x; t < m; t += (u64)gridDim.x * blockDim.x) {
        const u64 r = gj_part_claim_run(t / C, n) + t % C;
        if (r < n) atomicAdd(&h[(uint32_t)(HASH ? gjh::hash_key(keys[r]) : keys[r]) & mask], 1u);
    }
    __syncthreads();
    for (uint32_t i = threadIdx.x; i < nb; i += blockDim.x)
        if (h[i]) atomicAdd(&w[3 * nb + i], h[i]);
}

/* each bin's room from its sampled rows (shapes.h; tile: the scatter's),
 * laid one after another: w[b] its start, w[B + b] its room's end,
 * w[2B + b] its cursor (the scatter's claims advance it from the start);
 * the overflow flag set where they pass `room` rows (the sample cannot make
 * them: a check). One block of a thread a bin (up to 1024). */
__global__ void __launch_bounds__(1 << GJ_PART_CLAIM_MAX_BITS)
    claim_size_kernel(uint32_t *w, uint32_t mask, u64 room, uint32_t tile)
{
    typedef cub::BlockScan<u64, 1 << GJ_PART_CLAIM_MAX_BITS> Scan;
    __shared__ typename Scan::TempStorage tmp;
    const uint32_t nb = mask + 1, b = threadIdx.x;
    const u64 est = b < nb ? w[3 * nb + b] : 0, S = GJ_PART_CLAIM_SAMPLE;
    const u64 cap = b < nb ? S * est +
                                 (u64)ceil(GJ_PART_CLAIM_SIGMA * (double)S * sqrt((double)GJ_PART_CLAIM_RUN * est)) +
                                 tile
                           : 0;
    u64 at = 0, total = 0;
    Scan(tmp).ExclusiveSum(cap, at, total);
    if (b < nb) {
        w[b] = w[2 * nb + b] = (uint32_t)at;
        w[nb + b] = (uint32_t)(at + cap);
    }
    if (b == 0 && total > room) w[4 * nb] = 1u;
}

/* The claimed pass's scatter in tiles of THREADS x ITEMS on RB digit bits
 * (the bits asked; RB 8 serves 1..8). */
template <typename K, typename V, int MODE, bool HASH, int THREADS, int ITEMS, int RB>
int claim_scatter(Job *j, const K *kin, K *kout, const uint32_t *va, const uint32_t *vb, V *vout, u64 n,
                  uint32_t mask, uint32_t *w, int sms)
{
    auto *kern = part_scatter_kernel<K, V, MODE, THREADS, ITEMS, 1, HASH, true, 0, RB, true>;
    const size_t dyn = sizeof(PartSmem<K, V, THREADS, ITEMS, RB>);
    const uint32_t tiles = (uint32_t)((n + THREADS * ITEMS - 1) / (THREADS * ITEMS));
    int rc = GJ_OK, occ = 0;
    JCUDA(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
    JCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, THREADS, dyn));
    {
        const unsigned gs = (unsigned)std::min<u64>(tiles, (u64)sms * (occ > 0 ? occ : 1));
        kern<<<gs, THREADS, dyn, j->mem.s>>>(kin, NULL, va, vb, kout, vout, NULL, n, 0, mask, w, tiles,
                                             w + 4 * (mask + 1) + 1, PartSeg<K, V>{});
        JLAUNCHED();
    }
done:
    return rc;
}

/* The claimed pass (shapes.h gj_part_claims): sample, rooms, one scatter
 * (part_scatter_kernel's CLAIM mode, dynamic tile order: the 768 x 10 tile
 * up to the wide pass's 9 bits, 1024 x 8 at 10, a thread a bin) whose
 * claims leave each bin's end in its cursor. kout and vout hold `room`
 * rows. w: 4 B + 2 words (zeroed here). *claimed = 0 where a bin passed
 * its room: the output is then garbage and the caller runs the exact
 * pass. */
template <typename K, typename V, int MODE, bool HASH>
int partition_claim(Job *j, const K *kin, K *kout, const uint32_t *va, const uint32_t *vb, V *vout, u64 n,
                    int bits, u64 room, uint32_t *w, int *claimed)
{
    enum { WB = GJ_PART_WIDE_BITS, MB = GJ_PART_CLAIM_MAX_BITS };
    static_assert(MB == WB + 1, "the claimed pass's shapes: 8 bits, the wide pass's, one more");
    const uint32_t mask = (1u << bits) - 1, nb = mask + 1;
    int rc = GJ_OK, dev = 0, sms = 0;
    uint32_t flag = 0;
    *claimed = 0;
    JCUDA(cudaGetDevice(&dev));
    JCUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    JCUDA(cudaMemsetAsync(w, 0, (4 * nb + 2) * 4, j->mem.s));
    {
        const u64 m = (n + GJ_PART_CLAIM_SAMPLE - 1) / GJ_PART_CLAIM_SAMPLE;
        const unsigned g = (unsigned)std::min<u64>((m + 255) / 256, (u64)sms * 8);
        claim_sample_kernel<K, HASH><<<g, 256, 0, j->mem.s>>>(kin, n, mask, w);
        JLAUNCHED();
    }
    claim_size_kernel<<<1, 1 << MB, 0, j->mem.s>>>(w, mask, room, GJ_PART_CLAIM_TILE_OF(bits));
    JLAUNCHED();
    rc = bits <= 8    ? claim_scatter<K, V, MODE, HASH, 768, 10, 8>(j, kin, kout, va, vb, vout, n, mask, w, sms)
         : bits == WB ? claim_scatter<K, V, MODE, HASH, 768, 10, WB>(j, kin, kout, va, vb, vout, n, mask, w, sms)
                      : claim_scatter<K, V, MODE, HASH, 1024, 8, MB>(j, kin, kout, va, vb, vout, n, mask, w, sms);
    if (rc) goto done;
    JCUDA(cudaMemcpyAsync(&flag, w + 4 * nb, 4, cudaMemcpyDeviceToHost, j->mem.s));
    JCUDA(cudaStreamSynchronize(j->mem.s));
    *claimed = !flag;
done:
    return rc;
}

/* gj_join_partition's body: the custom partition, or CUB's sort (values
 * built first, as the joins did before the custom partition; hashed keys
 * too, when asked) */
/* gj_join_partition_claim's body for hashed keys (HASH) or a direct
 * plan's (their residues: part_scatter_kernel's CLAIM without HASH) */
template <bool HASH>
int claim_dispatch(Job *j, int key_width, int mode, const void *kin, void *kout, const void *va, const void *vb,
                   void *vout, u64 n, int bits, u64 room, uint32_t *words, int *claimed)
{
    if (key_width == 4)
        return mode == GJ_PART_IOTA
                   ? partition_claim<uint32_t, uint32_t, PV_IOTA, HASH>(j, (const uint32_t *)kin, (uint32_t *)kout,
                                                                        NULL, NULL, (uint32_t *)vout, n, bits,
                                                                        room, words, claimed)
                   : partition_claim<uint32_t, u64, PV_PACK, HASH>(j, (const uint32_t *)kin, (uint32_t *)kout,
                                                                   (const uint32_t *)va, (const uint32_t *)vb,
                                                                   (u64 *)vout, n, bits, room, words, claimed);
    return mode == GJ_PART_IOTA
               ? partition_claim<u64, uint32_t, PV_IOTA, HASH>(j, (const u64 *)kin, (u64 *)kout, NULL, NULL,
                                                               (uint32_t *)vout, n, bits, room, words, claimed)
               : partition_claim<u64, u64, PV_PACK, HASH>(j, (const u64 *)kin, (u64 *)kout, (const uint32_t *)va,
                                                          (const uint32_t *)vb, (u64 *)vout, n, bits, room, words,
                                                          claimed);
}

template <typename K>
int part_hook(Job *j, const K *kin, K *kout, int mode, bool hash, bool split, bool wide, const void *va,
              const void *vb, void *vout, u64 n, int bits, int use_cub)
{
    int rc = GJ_OK;
    void *tv = NULL, *hk = NULL;
    if (!use_cub) {
        rc = hash ? part_custom<K, true>(j, kin, kout, mode, va, vb, vout, n, bits, split, wide)
                  : part_custom<K, false>(j, kin, kout, mode, va, vb, vout, n, bits, split, false);
        goto done;
    }
    if (hash) {
        JCUDA(mem_alloc(&j->mem, &hk, n * sizeof(K)));
        gjh::hash_keys_kernel<K><<<grid_for(n, 256), 256, 0, j->mem.s>>>(kin, (K *)hk, n);
        JLAUNCHED();
        kin = (const K *)hk;
    }
    if (mode == GJ_PART_IOTA) {
        JCUDA(mem_alloc(&j->mem, &tv, n * 4));
        iota_kernel<<<grid_for(n, 256), 256, 0, j->mem.s>>>((uint32_t *)tv, n);
        JLAUNCHED();
        rc = sort_pairs<K, uint32_t>(j, kin, kout, (const uint32_t *)tv, (uint32_t *)vout, n, 0, bits);
    } else if (mode == GJ_PART_COPY4) {
        rc = sort_pairs<K, uint32_t>(j, kin, kout, (const uint32_t *)va, (uint32_t *)vout, n, 0, bits);
    } else if (mode == GJ_PART_COPY8) {
        rc = sort_pairs<K, u64>(j, kin, kout, (const u64 *)va, (u64 *)vout, n, 0, bits);
    } else {
        JCUDA(mem_alloc(&j->mem, &tv, n * 8));
        pack_kernel<<<grid_for(n, 256), 256, 0, j->mem.s>>>((const uint32_t *)va,
                                                            (const uint32_t *)vb, (u64 *)tv, n);
        JLAUNCHED();
        rc = sort_pairs<K, u64>(j, kin, kout, (const u64 *)tv, (u64 *)vout, n, 0, bits);
    }
done:
    return rc;
}

} // namespace

extern "C" int gj_join_partition(int key_width, const void *kin, void *kout, int mode,
                                 const void *va, const void *vb, void *vout, uint64_t n, int bits,
                                 int use_cub, void *stream, gj_ctx *ctx)
{
    int rc = GJ_OK;
    Job job, *j = &job;
    memset(j, 0, sizeof *j);
    j->ctx = ctx;
    j->mem.s = (cudaStream_t)stream;
    const bool hash = mode & GJ_PART_HASH, split = mode & GJ_PART_SPLIT, wide = mode & GJ_PART_WIDE;
    mode &= ~(GJ_PART_HASH | GJ_PART_SPLIT | GJ_PART_WIDE);
    if ((key_width != 4 && key_width != 8) || mode < GJ_PART_IOTA || mode > GJ_PART_PACK ||
        bits < 1 || bits > PartPolicy::MAX_BITS || n >= (1ULL << 32) ||
        (split && (use_cub || (mode != GJ_PART_COPY8 && mode != GJ_PART_PACK))) || (wide && !hash)) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID,
                       "gj_join_partition: key_width=%d mode=%d bits=%d split=%d wide=%d hash=%d use_cub=%d "
                       "(split: COPY8 or PACK, own partition only; wide: hashed keys only)",
                       key_width, mode, bits, (int)split, (int)wide, (int)hash, use_cub);
        goto done;
    }
    if (n == 0) goto done;
    GJ_CUDA(gj_pool_retain()); /* as every join run: calibrate times this call */
    rc = key_width == 4 ? part_hook<uint32_t>(j, (const uint32_t *)kin, (uint32_t *)kout, mode, hash, split, wide,
                                              va, vb, vout, n, bits, use_cub)
                        : part_hook<u64>(j, (const u64 *)kin, (u64 *)kout, mode, hash, split, wide, va, vb, vout,
                                         n, bits, use_cub);
    mem_release(&j->mem);
    GJ_CUDA(cudaStreamSynchronize(j->mem.s));
    GJ_CUDA(cudaGetLastError());
done:
    return rc;
}

extern "C" int gj_join_partition_claim(int key_width, const void *kin, void *kout, int mode, const void *va,
                                       const void *vb, void *vout, uint64_t n, int bits, uint64_t room,
                                       uint32_t *words, int *claimed, void *stream, gj_ctx *ctx)
{
    int rc = GJ_OK;
    Job job, *j = &job;
    memset(j, 0, sizeof *j);
    j->ctx = ctx;
    j->mem.s = (cudaStream_t)stream;
    const bool hash = mode & GJ_PART_HASH, res = mode & GJ_PART_RES16;
    mode &= ~(GJ_PART_HASH | GJ_PART_RES16);
    if (claimed) *claimed = 0;
    if ((key_width != 4 && key_width != 8) || (mode != GJ_PART_IOTA && mode != GJ_PART_PACK) || hash == res ||
        bits < 1 ||
        bits > GJ_PART_CLAIM_MAX_BITS || !claimed || !words || n == 0 || room < (uint64_t)gj_part_claim_room((double)n, bits) ||
        room + n >= (1ULL << 32)) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID,
                       "gj_join_partition_claim: key_width=%d mode=%d hash=%d res16=%d bits=%d n=%llu room=%llu "
                       "(4 or 8; IOTA or PACK; hashed keys or a direct plan's residues, one of the two; 1..10 "
                       "bits; n > 0; room >= gj_part_claim_room(n, bits) = %.0f, room + n under 2^32: the bins' "
                       "cursors)",
                       key_width, mode, (int)hash, (int)res, bits, (unsigned long long)n, (unsigned long long)room,
                       gj_part_claim_room((double)n, bits));
        goto done;
    }
    GJ_CUDA(gj_pool_retain());
    rc = hash ? claim_dispatch<true>(j, key_width, mode, kin, kout, va, vb, vout, n, bits, room, words, claimed)
              : claim_dispatch<false>(j, key_width, mode, kin, kout, va, vb, vout, n, bits, room, words, claimed);
    mem_release(&j->mem);
    GJ_CUDA(cudaGetLastError());
done:
    return rc;
}

extern "C" int gj_join_exec(gj_impl impl, const gj_dtable *r, const gj_dtable *s, void *stream,
                            gj_join_out *out, gj_timing *timing, gj_ctx *ctx)
{
    return gj_join_exec_w(impl, NULL, r, s, stream, out, timing, ctx);
}

extern "C" int gj_join_exec_w(gj_impl impl, const gj_workload *w, const gj_dtable *r, const gj_dtable *s,
                              void *stream, gj_join_out *out, gj_timing *timing, gj_ctx *ctx)
{
    int rc = GJ_OK, ngpu = 0, timer_ok = 0;
    gj_phase_timer tm;
    Job job, *j = &job;
    memset(j, 0, sizeof *j);
    j->expect_rows = w ? (double)gj_workload_out_rows(w) : -1;
    j->impl = impl;
    j->r = r;
    j->s = s;
    j->out = out;
    j->ctx = ctx;
    j->mem.s = (cudaStream_t)stream;
    if (timing) memset(timing, 0, sizeof *timing);
    if (!out) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "out is NULL");
        goto done;
    }
    memset(out, 0, sizeof *out);
    if (impl != GJ_IMPL_PHJ_UR && impl != GJ_IMPL_PHJ_TR && impl != GJ_IMPL_SMJ_UR &&
        impl != GJ_IMPL_SMJ_TR && impl != GJ_IMPL_NPHJ) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "impl=%s: allowed PHJ-UR, PHJ-TR, SMJ-UR, SMJ-TR, NPHJ",
                       gj_impl_name(impl) ? gj_impl_name(impl) : "?");
        goto done;
    }
    if ((rc = check_table(r, "R", ctx)) != GJ_OK || (rc = check_table(s, "S", ctx)) != GJ_OK)
        goto done;
    if (r->key.width != s->key.width) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "key widths differ: R %d, S %d", r->key.width,
                       s->key.width);
        goto done;
    }
    j->filter = filter_wanted(impl, w, r, s);
    if ((rc = gj_gpu_count(&ngpu, ctx)) != GJ_OK) goto done;
    GJ_CUDA(gj_pool_retain()); /* repeated runs do not pay cudaMalloc again */
    GJ_CUDA(gj_timer_init(&tm));
    timer_ok = 1;
    GJ_CUDA(gj_timer_mark(&tm, j->mem.s));
    rc = r->key.width == 4 ? run_typed<uint32_t>(j, &tm) : run_typed<u64>(j, &tm);
    if (rc != GJ_OK) goto done;
    /* hand the output over, free the rest, then read the clocks */
    mem_detach(&j->mem, out->key.data, 0);
    for (int c = 0; c < out->r_payloads; c++) mem_detach(&j->mem, out->r[c].data, 0);
    for (int c = 0; c < out->s_payloads; c++) mem_detach(&j->mem, out->s[c].data, 0);
    mem_release(&j->mem);
    if (timing) {
        GJ_CUDA(gj_timer_read(&tm, timing));
        static const char *names[3] = {"transform", "match", "materialize"};
        for (int i = 0; i < timing->n_phases && i < 3; i++)
            gj_strlcpy(timing->name[i], names[i], sizeof timing->name[i]);
        timing->peak_bytes = j->mem.peak;
        if (j->r == &j->cut_r) {
            timing->filtered = 1;
            timing->cut_r_rows = j->cut_r.rows;
            timing->cut_s_rows = j->cut_s.rows;
        }
    }
    GJ_CUDA(cudaStreamSynchronize(j->mem.s));
done:
    if (rc != GJ_OK) {
        if (out) {
            mem_release(&j->mem);
            cudaStreamSynchronize(j->mem.s);
            cudaGetLastError();
            memset(out, 0, sizeof *out);
        }
    }
    if (timer_ok) gj_timer_destroy(&tm);
    return rc;
}
