/* Group-by operators: extern "C" entry points and dispatch (the only code
 * here with <<<). Kernels: groupby_kernels.cuh; CUB sorts: groupby_sort.cu.
 *
 * Phases reported in gj_timing ("group", "aggregate"), per implementation:
 *   HGB          g fits a block's shared table, or two tables' worth
 *                (one pass per table's worth of keys, k_hgb_onepass):
 *                group: table init, the passes and the merges
 *                aggregate: AVG division and the output sort only
 *                else (Algorithm 1, or a one-pass overflow, then Algorithm 1):
 *                group: table init + Algorithm 1 stage 1 (group ids)
 *                aggregate: stage 2 (shared-memory or global atomics)
 *   HASH-GLOBAL  group: table + sparse-array init, insert-and-aggregate
 *                (cuDF aggregates while inserting)
 *                aggregate: extract (key, pos) pairs, gather the aggregates
 *   SGB-UR       group: sort (key, row id), heads, scan, group keys
 *                aggregate: gather payloads by row id + segmented reduce
 *   SGB-TR       group: sort (key, first payload), heads, scan, group keys
 *                aggregate: sort (key, other payloads), segmented reduce
 *   SGB-DE-TR    group: as SGB-TR, then dictionary-encode every key
 *                aggregate: sort (code, other payloads) on ceil(log2 g) bits,
 *                segmented reduce
 *   PGB-UR       group: hash keys, partition (hash, row id), bounds
 *                aggregate: per-chunk shared tables + aggregation (gather)
 *   PGB-TR       group: hash keys, partition (hash, first payload), bounds
 *                aggregate: partition other payloads, per-chunk aggregation
 * Count-distinct and median (sort-based only) and the output sort of the
 * hash-based ones count under "aggregate". */
extern "C" {
#include "common/internal.h" /* C linkage: internal.h has no extern "C" guard */
}
#include "operators/common.cuh"
#include "operators/groupby.h"
#include "operators/groupby_kernels.cuh"
#include "operators/groupby_sort.h"
#include "operators/join_partition.cuh" /* bounds_kernel, minmax_kernel */
#include "operators/join_partition.h"

#include <stdlib.h>
#include <string.h>

using namespace gjgb;

namespace {

struct Ctx {
    gj_arena ar;
    cudaStream_t st;
    gj_ctx *ctx;
    int sms;
    /* the output columns held now (out_alloc), outside the arena: the
     * caller frees them; their bytes count in ar's peak */
    void *op[GJ_MAX_AGGS + 2];
    size_t osz[GJ_MAX_AGGS + 2];
    int on;
};

/* A skewed warp's rows of one slot or group combined before the atomics
 * (groupby_kernels.cuh pgb_lean_fold, gb_fold); GJ_GB_FOLD=0 turns it off
 * (A/B runs). */
bool gb_fold_on()
{
    return !gj_env_is("GJ_GB_FOLD", "0");
}

/* An output column: allocated outside the arena (it outlives the run) but
 * counted in the run's peak, as the joins count theirs. */
cudaError_t out_alloc(Ctx &c, void **p, size_t bytes)
{
    *p = NULL;
    if (c.on == GJ_MAX_AGGS + 2) return cudaErrorMemoryAllocation;
    cudaError_t e = cudaMallocAsync(p, bytes ? bytes : 1, c.st);
    if (e != cudaSuccess) return e;
    c.op[c.on] = *p;
    c.osz[c.on++] = bytes;
    gj_arena_note(&c.ar, bytes);
    c.ar.now += bytes;
    return cudaSuccess;
}

/* an output column given up before the end (replaced or not needed) */
void out_free(Ctx &c, void *p)
{
    if (!p) return;
    for (int i = 0; i < c.on; i++)
        if (c.op[i] == p) {
            c.ar.now -= c.osz[i];
            c.op[i] = c.op[--c.on];
            c.osz[i] = c.osz[c.on];
            break;
        }
    cudaFreeAsync(p, c.st);
}

/* every output column, to allocate them again larger (a group hint too small) */
void out_release(Ctx &c, gj_groupby_out *out)
{
    out_free(c, out->key.data);
    for (int i = 0; i < GJ_MAX_AGGS; i++) out_free(c, out->agg[i].data);
    memset(out, 0, sizeof *out);
}

unsigned grid_for(const Ctx &c, uint64_t n, int threads)
{
    uint64_t b = (n + threads - 1) / threads;
    uint64_t cap = (uint64_t)c.sms * GJ_GB_GRID_PER_SM;
    if (b > cap) b = cap;
    return b ? (unsigned)b : 1u;
}

uint64_t next_pow2(uint64_t x)
{
    uint64_t p = 1;
    while (p < x) p <<= 1;
    return p;
}

/* Per-aggregate plan on the host. */
struct AggPlan {
    int acc;        /* accumulator index in the spec, -1 for CD/median     */
    int out_w;
    gj_dtype out_t;
};

/* Build the accumulator spec: one accumulator per SUM/MIN/MAX/COUNT/AVG
 * aggregate (its output column), plus a hidden COUNT when any AVG. */
int build_spec(const gj_dtable *in, const gj_workload *w, GbSpec *s, AggPlan *ap,
               int *hidden_cnt, gj_ctx *ctx)
{
    memset(s, 0, sizeof *s);
    *hidden_cnt = -1;
    int any_avg = 0;
    for (int i = 0; i < w->n_aggs; i++) {
        gj_agg a = w->aggs[i];
        int pw = 4;
        gj_dtype pt = GJ_DT_INT;
        if (a != GJ_AGG_COUNT) {
            if (i >= in->n_payloads)
                return gj_seterr(ctx, GJ_ERR_INVALID, "group-by: aggregate %d (%s) has no payload column (table has %d)",
                                 i, gj_agg_name(a), in->n_payloads);
            pw = in->payload[i].width;
            pt = in->payload[i].type;
            if ((pw != 4 && pw != 8) || !in->payload[i].data)
                return gj_seterr(ctx, GJ_ERR_INVALID, "group-by: payload %d: width=%d: allowed 4, 8", i, pw);
        }
        gj_groupby_out_type(a, pw, pt, &ap[i].out_w, &ap[i].out_t);
        ap[i].acc = -1;
        if (a == GJ_AGG_COUNT_DISTINCT || a == GJ_AGG_MEDIAN) continue;
        int j = s->n++;
        ap[i].acc = j;
        s->pw[j] = a == GJ_AGG_COUNT ? 0 : pw;
        s->src[j] = a == GJ_AGG_COUNT ? NULL : in->payload[i].data;
        s->isf[j] = pt == GJ_DT_FLOAT;
        switch (a) {
        case GJ_AGG_SUM:
        case GJ_AGG_AVG: s->op[j] = pt == GJ_DT_FLOAT ? OP_ADD_F : OP_ADD_I; s->width[j] = 8; break;
        case GJ_AGG_MIN: s->op[j] = OP_MIN; s->width[j] = pw; break;
        case GJ_AGG_MAX: s->op[j] = OP_MAX; s->width[j] = pw; break;
        default: s->op[j] = OP_CNT; s->width[j] = 8; break;
        }
        if (a == GJ_AGG_AVG) any_avg = 1;
    }
    if (any_avg) {
        int j = s->n++;
        s->op[j] = OP_CNT;
        s->width[j] = 8;
        *hidden_cnt = j;
    }
    return GJ_OK;
}

/* Allocate the output columns (capacity rows) and point the accumulators
 * of the spec at them; the hidden count goes to the arena. */
int alloc_out(Ctx &c, const gj_dtable *in, const gj_workload *w, GbSpec *s, const AggPlan *ap,
              int hidden, uint64_t cap, gj_groupby_out *out)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    out->key.width = in->key.width;
    out->key.type = GJ_DT_INT;
    GJ_CUDA(out_alloc(c, &out->key.data, (cap ? cap : 1) * in->key.width));
    out->n_aggs = w->n_aggs;
    for (int i = 0; i < w->n_aggs; i++) {
        out->agg[i].width = ap[i].out_w;
        out->agg[i].type = ap[i].out_t;
        GJ_CUDA(out_alloc(c, &out->agg[i].data, (cap ? cap : 1) * ap[i].out_w));
        if (ap[i].acc >= 0) s->dst[ap[i].acc] = out->agg[i].data;
    }
    if (hidden >= 0) GJ_CUDA(gj_arena_alloc(&c.ar, &s->dst[hidden], (cap ? cap : 1) * 8));
done:
    return rc;
}

int finish_avg(Ctx &c, const gj_workload *w, const GbSpec &s, const AggPlan *ap, int hidden,
               uint64_t groups)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    for (int i = 0; i < w->n_aggs; i++)
        if (w->aggs[i] == GJ_AGG_AVG && groups) {
            int j = ap[i].acc;
            k_finish_avg<<<grid_for(c, groups, 256), 256, 0, c.st>>>(s.dst[j], s.op[j] == OP_ADD_F,
                                                                     (const uint64_t *)s.dst[hidden], groups);
            GJ_LAUNCHED();
        }
done:
    return rc;
}

int init_acc(Ctx &c, const GbSpec &s, uint64_t groups)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    if (groups && s.n) {
        k_init_acc<<<grid_for(c, groups, 256), 256, 0, c.st>>>(s, groups);
        GJ_LAUNCHED();
    }
done:
    return rc;
}

/* Sort the output rows by key (hash-based paths with sorted_output). */
int sort_output(Ctx &c, gj_groupby_out *out)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    uint64_t m = out->groups;
    int kw = out->key.width;
    void *iota = NULL, *perm = NULL, *ks = NULL;
    if (m < 2) goto done;
    GJ_CUDA(gj_arena_alloc(&c.ar, &iota, m * 4));
    GJ_CUDA(gj_arena_alloc(&c.ar, &perm, m * 4));
    GJ_CUDA(out_alloc(c, &ks, m * kw));
    k_iota<<<grid_for(c, m, 256), 256, 0, c.st>>>((uint32_t *)iota, m);
    GJ_LAUNCHED();
    rc = gjgb_sort_pairs(out->key.data, ks, kw, iota, perm, 4, m, 0, 8 * kw, &c.ar, c.st, ctx);
    if (rc) goto done;
    out_free(c, out->key.data);
    out->key.data = ks;
    ks = NULL;
    for (int i = 0; i < out->n_aggs; i++) {
        void *d = NULL;
        GJ_CUDA(out_alloc(c, &d, m * out->agg[i].width));
        k_permute<<<grid_for(c, m, 256), 256, 0, c.st>>>(out->agg[i].data, out->agg[i].width,
                                                         (const uint32_t *)perm, m, d);
        GJ_LAUNCHED();
        out_free(c, out->agg[i].data);
        out->agg[i].data = d;
    }
done:
    out_free(c, ks);
    gj_arena_free(&c.ar, iota);
    gj_arena_free(&c.ar, perm);
    return rc;
}

/* ------------------------------------------------------------------ HGB */
template <typename K, typename G>
int hgb_stage1(Ctx &c, const gj_dtable *in, uint64_t cap, uint32_t limit, void *table_keys,
               uint32_t *table_vals, uint32_t *counters, void *gid, void *out_key, int *ovf)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    uint64_t n = in->rows;
    GTable<K> t = {(K *)table_keys, table_vals, cap - 1, counters, limit, (int *)(counters + 1)};
    uint32_t h[2];
    GJ_CUDA(cudaMemsetAsync(table_vals, 0xff, cap * 4, c.st));
    GJ_CUDA(cudaMemsetAsync(table_keys, 0xff, cap * sizeof(K), c.st));
    GJ_CUDA(cudaMemsetAsync(counters, 0, 8, c.st));
    if (n) {
        k_hgb_assign<K, G><<<grid_for(c, n, 256), 256, 0, c.st>>>((const K *)in->key.data, n, t, (G *)gid, (K *)out_key);
        GJ_LAUNCHED();
    }
    GJ_CUDA(cudaMemcpyAsync(h, counters, 8, cudaMemcpyDeviceToHost, c.st));
    GJ_CUDA(cudaStreamSynchronize(c.st));
    *ovf = (int)h[1];
done:
    return rc;
}

template <typename G>
int hgb_stage2(Ctx &c, GbSpec &s, const void *gid, uint64_t n, uint32_t groups)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    /* Shared-memory budget per block 96 KB: g <= 2^12 groups of two 4-byte
     * aggregates fit with R >= 2 copies, up to 12K groups with one. */
    const unsigned budget = 96 * 1024;
    unsigned slot = 0;
    for (int j = 0; j < s.n; j++) slot += s.width[j];
    /* Copies only while a block stays under 24 KB: on the H200 (run of
     * 2026-11-22) 64 KB blocks at g = 2^11 (R = 4) took 4.0 ms in stage 2
     * against 1.75 ms at g = 2 with tiny blocks: occupancy, not conflicts. */
    const unsigned copy_budget = 24 * 1024;
    int R = 0;
    if (groups && slot && (uint64_t)groups * slot <= budget) {
        R = 1;
        while (R < 32 && (uint64_t)2 * R * groups * slot <= copy_budget) R <<= 1;
    }
    unsigned off = 0;
    for (int j = 0; j < s.n; j++) {
        s.soff[j] = off;
        off += ((unsigned)(R * groups * s.width[j]) + 15) & ~15u;
    }
    unsigned grid;
    if (R > 0) {
        int per_sm = 0;
        GJ_CUDA(cudaFuncSetAttribute(k_agg_gid<G>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)budget + 1024));
        GJ_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_agg_gid<G>, 256, off));
        if (per_sm < 1) per_sm = 1;
        grid = (unsigned)(c.sms * per_sm);
        uint64_t need = (n + 255) / 256;
        if (need < grid) grid = need ? (unsigned)need : 1;
    } else {
        grid = grid_for(c, n, 256);
        off = 0;
    }
    if (n) {
        k_agg_gid<G><<<grid, 256, off, c.st>>>(s, (const G *)gid, n, groups, R, gb_fold_on());
        GJ_LAUNCHED();
    }
done:
    return rc;
}

/* HGB one pass (groupby_kernels.cuh, k_hgb_onepass): when the hint's
 * groups fit a block's shared table at load <= 1/2, or, up to a full
 * table, when the keys look dense (the range of a sample of them fits the
 * table: a key in it takes slot k - smallest, no probes; the others are
 * hashed and probe as usual; 8-byte keys may take a table of 4-byte key
 * offsets, twice the slots, when their range fits that: k_hgb_onepass's
 * KS). R copies of every
 * aggregate slot for few groups (R x hint <= 1024, R <= 32). Two blocks of
 * 512 threads per SM while the table fits half the SM's shared memory, else
 * one block of 1024 with all of it; the table takes every slot that fits, so
 * a hint somewhat too small still works. Up to 2^HGB_MAX_PBITS times the
 * groups of a full table: as many passes over the input, each for the keys
 * whose home falls in its part of a table that many times larger, each
 * merging into the same global table. Sets *ok = 0 (and frees the output)
 * when a block or the merged table overflowed: the caller runs Algorithm 1. */
template <typename K, bool NARROW, typename KS>
int hgb_onepass_launch(Ctx &c, unsigned grid, int threads, size_t smem, const gj_dtable *in, GbSpec &s,
                       const OnePassArgs &a, const GTable<K> &gt, void *out_key)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    GJ_CUDA(cudaFuncSetAttribute(k_hgb_onepass<K, NARROW, KS>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 (int)smem));
    k_hgb_onepass<K, NARROW, KS><<<grid, threads, smem, c.st>>>((const K *)in->key.data, s, a, gt, (K *)out_key);
    GJ_LAUNCHED();
done:
    return rc;
}

template <typename K>
int hgb_onepass(Ctx &c, const gj_dtable *in, const gj_workload *w, GbSpec &s, const AggPlan *ap, int hidden,
                gj_groupby_out *out, int *ok)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    uint64_t n = in->rows;
    uint64_t hint = w->groups ? w->groups : 1;
    int dev = 0, per_sm = 0, optin = 0;
    void *tkeys = NULL, *tvals = NULL, *cnt = NULL, *dmm = NULL;
    *ok = 0;
    GJ_CUDA(cudaGetDevice(&dev));
    GJ_CUDA(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
    GJ_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    {
        int rlog = 0;
        while (rlog < 5 && (hint << (rlog + 1)) <= 1024) rlog++;
        auto bytes_for = [&](uint64_t ts, uint64_t kbytes) {
            uint64_t b = ((ts + 1) * kbytes + 15) & ~15ull;
            for (int j = 0; j < s.n; j++) b += (((ts + 1) << rlog) * s.width[j] + 15) & ~15ull;
            return b;
        };
        auto fit = [&](uint64_t budget, uint64_t kbytes) {
            uint64_t ts = 64;
            if (bytes_for(ts, kbytes) > budget) return (uint64_t)0;
            while (bytes_for(2 * ts, kbytes) <= budget && ts < (1u << 20)) ts *= 2;
            return ts;
        };
        const uint64_t reserve = 1024 + 128; /* per-block system + static shared */
        uint64_t big = (uint64_t)(optin < per_sm - (int)reserve ? optin : per_sm - (int)reserve) - 128;
        uint64_t ts2 = fit((uint64_t)per_sm / 2 - reserve, sizeof(K)), ts1 = fit(big, sizeof(K));
        /* 8-byte keys: a table of 4-byte key offsets (k_hgb_onepass's KS)
         * holds twice the slots, for dense keys */
        uint64_t ts1o = 0;
        if constexpr (sizeof(K) == 8) ts1o = fit(big, 4);
        const uint64_t tsd = ts1o > ts1 ? ts1o : ts1;
        uint64_t ts;
        int threads, blocks_per_sm, pbits = 0, dense = 0, offs = 0;
        unsigned long long mm[2] = {~0ull, 0};
        if (tsd && hint > ts1 / 2 && hint <= tsd && n) {
            /* more groups than a table holds at load 1/2, but perhaps dense
             * keys: the range of a sample of them (every stride-th key),
             * where a second pass would read every column again. Keys
             * outside it are hashed as usual (k_hgb_onepass). */
            const uint64_t samples = n < HGB_RANGE_SAMPLES ? n : HGB_RANGE_SAMPLES, stride = n / samples;
            GJ_CUDA(gj_arena_alloc(&c.ar, &dmm, sizeof mm));
            GJ_CUDA(cudaMemcpyAsync(dmm, mm, sizeof mm, cudaMemcpyHostToDevice, c.st));
            gjj::minmax_kernel<K, 256><<<grid_for(c, samples, 256 * 8), 256, 0, c.st>>>(
                (const K *)in->key.data, samples, (unsigned long long *)dmm, stride);
            GJ_LAUNCHED();
            GJ_CUDA(cudaMemcpyAsync(mm, dmm, sizeof mm, cudaMemcpyDeviceToHost, c.st));
            GJ_CUDA(cudaStreamSynchronize(c.st));
            dense = mm[1] - mm[0] < ts1 && hint <= ts1;
            if constexpr (sizeof(K) == 8) offs = !dense && mm[1] - mm[0] < ts1o;
        }
        if (ts2 && hint <= ts2 / 2) { ts = ts2; threads = 512; blocks_per_sm = 2; }
        else if (ts1 && hint <= ts1 / 2) { ts = ts1; threads = 1024; blocks_per_sm = 1; }
        else if (dense) { ts = ts1; threads = 1024; blocks_per_sm = 1; }
        else if (offs) { ts = ts1o; threads = 1024; blocks_per_sm = 1; dense = 1; }
        else if (ts1 && hint <= (ts1 / 2) << HGB_MAX_PBITS) { /* a pass per part of the keys */
            ts = ts1; threads = 1024; blocks_per_sm = 1;
            while (hint > (ts1 / 2) << pbits) pbits++;
        }
        else goto done; /* not eligible: Algorithm 1 */
        uint64_t smem = bytes_for(ts, offs ? 4 : sizeof(K));
        /* global table: up to Lg groups over all blocks */
        uint64_t Lg = 65536;
        if (Lg > n) Lg = n;
        uint64_t cap = next_pow2(2 * (Lg > 512 ? Lg : 512));
        uint32_t h[2];
        GJ_CUDA(gj_arena_alloc(&c.ar, &tkeys, cap * sizeof(K)));
        GJ_CUDA(gj_arena_alloc(&c.ar, &tvals, cap * 4));
        GJ_CUDA(gj_arena_alloc(&c.ar, &cnt, 8));
        GJ_CUDA(cudaMemsetAsync(tvals, 0xff, cap * 4, c.st));
        GJ_CUDA(cudaMemsetAsync(tkeys, 0xff, cap * sizeof(K), c.st));
        GJ_CUDA(cudaMemsetAsync(cnt, 0, 8, c.st));
        if ((rc = alloc_out(c, in, w, &s, ap, hidden, Lg, out))) goto done;
        OnePassArgs a;
        memset(&a, 0, sizeof a);
        a.n = n;
        a.ts = (unsigned)ts;
        a.limit = dense ? (uint32_t)ts : (uint32_t)(ts / 2 + ts / 4);
        a.rlog = rlog;
        a.pbits = pbits;
        a.dense = dense;
        a.base = mm[0];
        a.vec = ((uintptr_t)in->key.data & 15) == 0;
        const bool narrow = narrow_spec(s);
        for (int j = 0; j < s.n; j++)
            if (s.src[j] && ((uintptr_t)s.src[j] & 15)) a.vec = 0;
        GTable<K> gt = {(K *)tkeys, (uint32_t *)tvals, cap - 1, (uint32_t *)cnt, (uint32_t)Lg, (int *)cnt + 1};
        uint64_t tiles = (n + (uint64_t)threads * PolicyOnePass::ITEMS - 1) / ((uint64_t)threads * PolicyOnePass::ITEMS);
        uint64_t grid = (uint64_t)c.sms * blocks_per_sm;
        if (grid > tiles) grid = tiles ? tiles : 1;
        /* GJ_HGB_PART_MERGE=on|off forces the dense merge's path (A/B runs) */
        const bool part_merge = dense && (gj_env_is("GJ_HGB_PART_MERGE", "on")    ? true
                                          : gj_env_is("GJ_HGB_PART_MERGE", "off") ? false
                                                                                  : ts >= GJ_HGB_PART_MERGE_TS);
        if (part_merge) { /* the blocks' rows of partials for k_hgb_dense_merge */
            GJ_CUDA(gj_arena_alloc(&c.ar, (void **)&a.pflag, grid * ts));
            for (int j = 0; j < s.n; j++) GJ_CUDA(gj_arena_alloc(&c.ar, &a.part[j], grid * ts * s.width[j]));
        }
        /* the table's key: K, or a 4-byte offset (offs: 8-byte keys only) */
        auto launch = [&](auto ks) {
            typedef decltype(ks) KS;
            return narrow ? hgb_onepass_launch<K, true, KS>(c, (unsigned)grid, threads, smem, in, s, a, gt,
                                                            out->key.data)
                          : hgb_onepass_launch<K, false, KS>(c, (unsigned)grid, threads, smem, in, s, a, gt,
                                                             out->key.data);
        };
        for (a.pass = 0; a.pass < (1u << pbits) && !rc; a.pass++) rc = offs ? launch(uint32_t()) : launch(K());
        if (rc) goto done;
        if (part_merge) {
            k_hgb_dense_merge<K><<<(unsigned)((ts + 31) / 32), 256, 0, c.st>>>(s, a, (unsigned)grid, gt,
                                                                              (K *)out->key.data);
            GJ_LAUNCHED();
            gj_arena_free(&c.ar, a.pflag);
            for (int j = 0; j < s.n; j++) gj_arena_free(&c.ar, a.part[j]);
        }
        GJ_CUDA(cudaMemcpyAsync(h, cnt, 8, cudaMemcpyDeviceToHost, c.st));
        GJ_CUDA(cudaStreamSynchronize(c.st));
        if (h[1]) {
            out_release(c, out); /* the hint was too small */
            goto done;
        }
        out->groups = h[0];
        *ok = 1;
    }
done:
    gj_arena_free(&c.ar, tkeys);
    gj_arena_free(&c.ar, tvals);
    gj_arena_free(&c.ar, cnt);
    gj_arena_free(&c.ar, dmm);
    return rc;
}

template <typename K>
int run_hgb(Ctx &c, const gj_dtable *in, const gj_workload *w, GbSpec &s, const AggPlan *ap, int hidden,
            gj_phase_timer *tm, gj_groupby_out *out)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    uint64_t n = in->rows;
    uint64_t hint = w->groups ? w->groups : 1;
    void *tkeys = NULL, *tvals = NULL, *cnt = NULL, *gid = NULL;
    int gw = 0, one = 0;
    uint32_t groups = 0;
    if ((rc = hgb_onepass<K>(c, in, w, s, ap, hidden, out, &one))) goto done;
    if (one) {
        GJ_CUDA(gj_timer_mark(tm, c.st)); /* end of "group": the whole pass */
        if ((rc = finish_avg(c, w, s, ap, hidden, out->groups))) goto done;
        if (w->sorted_output && (rc = sort_output(c, out))) goto done;
        goto done;
    }
    GJ_CUDA(gj_arena_alloc(&c.ar, &cnt, 8));
    GJ_CUDA(gj_arena_alloc(&c.ar, &gid, (n ? n : 1) * 4));
    for (;;) {
        uint64_t want = hint < n ? hint : (n ? n : 1);
        uint64_t cap = next_pow2(2 * (want > 512 ? want : 512));
        uint64_t lim64 = cap / 2;
        gw = want <= 255 ? 1 : want <= 65535 ? 2 : 4;
        uint64_t gmax = gw == 1 ? 256 : gw == 2 ? 65536 : 0xFFFFFFF0ull;
        if (lim64 > gmax) lim64 = gmax;
        GJ_CUDA(gj_arena_alloc(&c.ar, &tkeys, cap * sizeof(K)));
        GJ_CUDA(gj_arena_alloc(&c.ar, &tvals, cap * 4));
        GJ_CUDA(out_alloc(c, &out->key.data, lim64 * sizeof(K)));
        int ovf = 0;
        if (gw == 1) rc = hgb_stage1<K, uint8_t>(c, in, cap, (uint32_t)lim64, tkeys, (uint32_t *)tvals, (uint32_t *)cnt, gid, out->key.data, &ovf);
        else if (gw == 2) rc = hgb_stage1<K, uint16_t>(c, in, cap, (uint32_t)lim64, tkeys, (uint32_t *)tvals, (uint32_t *)cnt, gid, out->key.data, &ovf);
        else rc = hgb_stage1<K, uint32_t>(c, in, cap, (uint32_t)lim64, tkeys, (uint32_t *)tvals, (uint32_t *)cnt, gid, out->key.data, &ovf);
        if (rc) goto done;
        GJ_CUDA(cudaMemcpy(&groups, cnt, 4, cudaMemcpyDeviceToHost));
        gj_arena_free(&c.ar, tkeys);
        gj_arena_free(&c.ar, tvals);
        tkeys = tvals = NULL;
        if (!ovf) break;
        /* more groups than the hint: grow and repeat stage 1 */
        out_free(c, out->key.data);
        out->key.data = NULL;
        hint = lim64 * 8;
    }
    GJ_CUDA(gj_timer_mark(tm, c.st)); /* end of "group" */
    out->groups = groups;
    {
        void *keyd = out->key.data;
        out->key.data = NULL;
        rc = alloc_out(c, in, w, &s, ap, hidden, groups, out);
        if (rc) { out_free(c, keyd); goto done; }
        out_free(c, out->key.data);
        out->key.data = keyd;
    }
    if ((rc = init_acc(c, s, groups))) goto done;
    if (gw == 1) rc = hgb_stage2<uint8_t>(c, s, gid, n, groups);
    else if (gw == 2) rc = hgb_stage2<uint16_t>(c, s, gid, n, groups);
    else rc = hgb_stage2<uint32_t>(c, s, gid, n, groups);
    if (rc) goto done;
    if ((rc = finish_avg(c, w, s, ap, hidden, groups))) goto done;
    if (w->sorted_output && (rc = sort_output(c, out))) goto done;
done:
    return rc;
}

/* ---------------------------------------------------------- HASH-GLOBAL */
template <typename K>
int run_hash_global(Ctx &c, const gj_dtable *in, const gj_workload *w, GbSpec &s, const AggPlan *ap,
                    int hidden, gj_phase_timer *tm, gj_groupby_out *out)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    uint64_t n = in->rows;
    uint64_t cap = next_pow2(2 * (n > 512 ? n : 512));
    void *tkeys = NULL, *tvals = NULL, *cnt = NULL, *ekeys = NULL, *epos = NULL;
    GbSpec sparse = s;
    uint32_t h[2] = {0, 0};
    GJ_CUDA(gj_arena_alloc(&c.ar, &tkeys, cap * sizeof(K)));
    GJ_CUDA(gj_arena_alloc(&c.ar, &tvals, cap * 4));
    GJ_CUDA(gj_arena_alloc(&c.ar, &cnt, 8));
    for (int j = 0; j < s.n; j++) GJ_CUDA(gj_arena_alloc(&c.ar, &sparse.dst[j], (n ? n : 1) * s.width[j]));
    GJ_CUDA(cudaMemsetAsync(tvals, 0xff, cap * 4, c.st));
    GJ_CUDA(cudaMemsetAsync(tkeys, 0xff, cap * sizeof(K), c.st));
    GJ_CUDA(cudaMemsetAsync(cnt, 0, 8, c.st));
    if ((rc = init_acc(c, sparse, n))) goto done;
    if (n) {
        GTable<K> t = {(K *)tkeys, (uint32_t *)tvals, cap - 1, (uint32_t *)cnt, 0xFFFFFFF0u, (int *)cnt + 1};
        k_hg_insert<K><<<grid_for(c, n, 256), 256, 0, c.st>>>((const K *)in->key.data, n, t, sparse);
        GJ_LAUNCHED();
    }
    GJ_CUDA(gj_timer_mark(tm, c.st)); /* end of "group" */
    GJ_CUDA(gj_arena_alloc(&c.ar, &ekeys, (n ? n : 1) * sizeof(K)));
    GJ_CUDA(gj_arena_alloc(&c.ar, &epos, (n ? n : 1) * 4));
    {
        GTable<K> t = {(K *)tkeys, (uint32_t *)tvals, cap - 1, (uint32_t *)cnt, 0, (int *)cnt + 1};
        k_hg_extract<K><<<grid_for(c, cap, 256), 256, 0, c.st>>>(t, (K *)ekeys, (uint32_t *)epos, (uint32_t *)cnt);
        GJ_LAUNCHED();
    }
    GJ_CUDA(cudaMemcpyAsync(h, cnt, 8, cudaMemcpyDeviceToHost, c.st));
    GJ_CUDA(cudaStreamSynchronize(c.st));
    if (h[1]) { rc = gj_seterr(ctx, GJ_ERR_CUDA, "HASH-GLOBAL: table overflow (internal)"); goto done; }
    out->groups = h[0];
    if ((rc = alloc_out(c, in, w, &s, ap, hidden, out->groups, out))) goto done;
    GJ_CUDA(cudaMemcpyAsync(out->key.data, ekeys, out->groups * sizeof(K), cudaMemcpyDeviceToDevice, c.st));
    if (out->groups && s.n) {
        k_gather_acc<<<grid_for(c, out->groups, 256), 256, 0, c.st>>>(sparse, s, (const uint32_t *)epos, out->groups);
        GJ_LAUNCHED();
    }
    if ((rc = finish_avg(c, w, s, ap, hidden, out->groups))) goto done;
    if (w->sorted_output && (rc = sort_output(c, out))) goto done;
done:
    return rc;
}

/* ---------------------------------------------------------- sort-based */
/* Count-distinct and median of aggregate i: values sorted within groups by
 * two stable sorts (by value, then by key or code), then one pass. */
int sorted_special(Ctx &c, const gj_dtable *in, const gj_workload *w, int i, const void *keys_or_codes,
                   int kw, int end_bit, const uint32_t *gid1, const uint32_t *start, gj_groupby_out *out)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    uint64_t n = in->rows;
    int vw = in->payload[i].width, isf = in->payload[i].type == GJ_DT_FLOAT;
    void *ord = NULL, *ord_s = NULL, *k_by_v = NULL, *k_s = NULL, *v_s = NULL;
    GJ_CUDA(gj_arena_alloc(&c.ar, &ord, n * vw));
    GJ_CUDA(gj_arena_alloc(&c.ar, &ord_s, n * vw));
    GJ_CUDA(gj_arena_alloc(&c.ar, &k_by_v, n * kw));
    GJ_CUDA(gj_arena_alloc(&c.ar, &k_s, n * kw));
    GJ_CUDA(gj_arena_alloc(&c.ar, &v_s, n * vw));
    k_ord<<<grid_for(c, n, 256), 256, 0, c.st>>>(in->payload[i].data, vw, isf, n, ord);
    GJ_LAUNCHED();
    if ((rc = gjgb_sort_pairs(ord, ord_s, vw, keys_or_codes, k_by_v, kw, n, 0, 8 * vw, &c.ar, c.st, ctx))) goto done;
    if ((rc = gjgb_sort_pairs(k_by_v, k_s, kw, ord_s, v_s, vw, n, 0, end_bit, &c.ar, c.st, ctx))) goto done;
    if (w->aggs[i] == GJ_AGG_COUNT_DISTINCT) {
        GJ_CUDA(cudaMemsetAsync(out->agg[i].data, 0, out->groups * 8, c.st));
        k_distinct<<<grid_for(c, n, 256), 256, 0, c.st>>>(v_s, vw, gid1, n, (unsigned long long *)out->agg[i].data);
    } else {
        k_median<<<grid_for(c, out->groups, 256), 256, 0, c.st>>>(v_s, vw, isf, start, out->groups, n,
                                                                (double *)out->agg[i].data);
    }
    GJ_LAUNCHED();
done:
    gj_arena_free(&c.ar, ord);
    gj_arena_free(&c.ar, ord_s);
    gj_arena_free(&c.ar, k_by_v);
    gj_arena_free(&c.ar, k_s);
    gj_arena_free(&c.ar, v_s);
    return rc;
}

template <typename K>
int run_sgb(Ctx &c, gj_impl impl, const gj_dtable *in, const gj_workload *w, GbSpec &s, const AggPlan *ap,
            int hidden, gj_phase_timer *tm, gj_groupby_out *out)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    uint64_t n = in->rows;
    const int kw = sizeof(K);
    void *iota = NULL, *ks = NULL, *rowid = NULL, *gid1 = NULL, *start = NULL, *codes = NULL, *kjunk = NULL;
    void *sorted[GB_MAX_ACC] = {0};
    int first = -1; /* accumulator whose column rides with the key sort (TR) */
    bool special = false, in_order = false;
    uint32_t groups = 0;
    if (n > 0x7fffffffull) /* 32-bit group ids and positions, CUB's int counts */
        return gj_seterr(ctx, GJ_ERR_UNSUPPORTED, "%s: %llu rows > 2^31-1", gj_impl_name(impl), (unsigned long long)n);
    for (int i = 0; i < w->n_aggs; i++)
        if (w->aggs[i] == GJ_AGG_COUNT_DISTINCT || w->aggs[i] == GJ_AGG_MEDIAN) special = true;
    if (impl != GJ_IMPL_SGB_UR)
        for (int j = 0; j < s.n && first < 0; j++)
            if (s.src[j]) first = j;
    /* Keys said to be in order (workload sorted_keys: a table stored by
     * its key, the output of a sort or a merge join) need no sort: the
     * sorted positions are the rows. One pass over the keys checks it and
     * counts each tile's groups (stopping in its first wave when they are
     * not in order, and then they are sorted). Not told, no check: its
     * read-back stalls the queue, and the sort's host work then no longer
     * overlaps the GPU (0.22 ms at 2^26 unordered rows, H200).
     * GJ_SGB_IN_ORDER=off: sort anyway; =ids: in order, through the group
     * ids below (A/B runs). */
    uint32_t *tiles_at = NULL; /* tiles' head counts, their inclusive sum, the descent flag */
    const uint64_t tiles = (n + INORDER_TILE - 1) / INORDER_TILE;
    bool vec = ((uintptr_t)in->key.data & 15) == 0;
    for (int j = 0; j < s.n; j++)
        if (s.src[j] && ((uintptr_t)s.src[j] & 15)) vec = false;
    {
        uint32_t back[2] = {0, 1}; /* groups, unsorted */
        if (w->sorted_keys && !gj_env_is("GJ_SGB_IN_ORDER", "off")) {
            GJ_CUDA(gj_arena_alloc(&c.ar, (void **)&tiles_at, (2 * tiles + 1) * 4));
            GJ_CUDA(cudaMemsetAsync(tiles_at + 2 * tiles, 0, 4, c.st));
            k_inorder_heads<K><<<grid_for(c, tiles, PolicySorted::THREADS / 32), PolicySorted::THREADS, 0, c.st>>>(
                (const K *)in->key.data, n, vec, tiles_at, (int *)(tiles_at + 2 * tiles));
            GJ_LAUNCHED();
            if ((rc = gjgb_inclusive_sum(tiles_at, tiles_at + tiles, tiles, &c.ar, c.st, ctx))) goto done;
            GJ_CUDA(cudaMemcpyAsync(back, tiles_at + 2 * tiles - 1, sizeof back, cudaMemcpyDeviceToHost, c.st));
            GJ_CUDA(cudaStreamSynchronize(c.st));
        }
        in_order = !back[1];
        if (in_order && !special && !gj_env_is("GJ_SGB_IN_ORDER", "ids")) {
            groups = back[0];
            out->groups = groups;
            if ((rc = alloc_out(c, in, w, &s, ap, hidden, groups, out))) goto done;
            if ((rc = init_acc(c, s, groups))) goto done;
            GJ_CUDA(gj_timer_mark(tm, c.st)); /* end of "group" */
            k_inorder_reduce<K><<<grid_for(c, tiles, PolicySorted::THREADS / 32), PolicySorted::THREADS, 0, c.st>>>(
                s, (const K *)in->key.data, n, vec, tiles_at + tiles, (K *)out->key.data);
            GJ_LAUNCHED();
            rc = finish_avg(c, w, s, ap, hidden, groups);
            goto done;
        }
    }
    GJ_CUDA(gj_arena_alloc(&c.ar, &gid1, n * 4));
    if (in_order) {
        ks = (void *)in->key.data; /* read only; the columns are read in place */
    } else if (first < 0) {
        GJ_CUDA(gj_arena_alloc(&c.ar, &ks, n * kw));
        GJ_CUDA(gj_arena_alloc(&c.ar, &iota, n * 4));
        GJ_CUDA(gj_arena_alloc(&c.ar, &rowid, n * 4));
        k_iota<<<grid_for(c, n, 256), 256, 0, c.st>>>((uint32_t *)iota, n);
        GJ_LAUNCHED();
        if ((rc = gjgb_sort_pairs(in->key.data, ks, kw, iota, rowid, 4, n, 0, 8 * kw, &c.ar, c.st, ctx))) goto done;
        gj_arena_free(&c.ar, iota);
        iota = NULL;
    } else {
        GJ_CUDA(gj_arena_alloc(&c.ar, &ks, n * kw));
        GJ_CUDA(gj_arena_alloc(&c.ar, &sorted[first], n * s.pw[first]));
        if ((rc = gjgb_sort_pairs(in->key.data, ks, kw, s.src[first], sorted[first], s.pw[first], n, 0, 8 * kw,
                                  &c.ar, c.st, ctx))) goto done;
    }
    if ((rc = gjgb_group_ids(ks, kw, (uint32_t *)gid1, n, &c.ar, c.st, ctx))) goto done;
    GJ_CUDA(cudaMemcpy(&groups, (uint32_t *)gid1 + (n - 1), 4, cudaMemcpyDeviceToHost));
    out->groups = groups;
    if ((rc = alloc_out(c, in, w, &s, ap, hidden, groups, out))) goto done;
    if (special) GJ_CUDA(gj_arena_alloc(&c.ar, &start, (uint64_t)groups * 4));
    k_group_keys<K><<<grid_for(c, n, 256), 256, 0, c.st>>>((const K *)ks, (const uint32_t *)gid1, n, (K *)out->key.data,
                                                           (uint32_t *)start);
    GJ_LAUNCHED();
    if (impl == GJ_IMPL_SGB_DE_TR && (!in_order || special)) { /* the codes sort payloads, or the specials */
        GJ_CUDA(gj_arena_alloc(&c.ar, &codes, n * 4));
        if (gj_env_is("GJ_SGB_ENCODE", "search")) {
            k_encode_search<K><<<grid_for(c, n, 256), 256, 0, c.st>>>((const K *)in->key.data, n,
                                                                     (const K *)out->key.data, groups, (uint32_t *)codes);
            GJ_LAUNCHED();
        } else { /* the dictionary's table, held while it encodes; in shared memory when it fits */
            const uint64_t slots = dict_slots(groups);
            const size_t tb = slots * sizeof(DictSlot<K>);
            void *table = NULL;
            GJ_CUDA(gj_arena_alloc(&c.ar, &table, tb));
            GJ_CUDA(cudaMemsetAsync(table, 0, tb, c.st));
            k_dict_build<K><<<grid_for(c, groups, 256), 256, 0, c.st>>>((const K *)out->key.data, groups,
                                                                      (DictSlot<K> *)table, slots - 1);
            GJ_LAUNCHED();
            if (tb <= DICT_SMEM && !gj_env_is("GJ_SGB_ENCODE", "global")) { /* GJ_SGB_ENCODE=global: A/B runs */
                GJ_CUDA(cudaFuncSetAttribute(k_dict_encode_smem<K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)tb));
                const uint64_t blocks = (uint64_t)c.sms * 2, need = (n + 1023) / 1024;
                k_dict_encode_smem<K><<<(unsigned)(need < blocks ? need : blocks), 1024, tb, c.st>>>(
                    (const K *)in->key.data, n, (const DictSlot<K> *)table, slots - 1, (uint32_t *)codes);
            } else {
                k_dict_encode<K><<<grid_for(c, n, 256), 256, 0, c.st>>>((const K *)in->key.data, n,
                                                                        (const DictSlot<K> *)table, slots - 1,
                                                                        (uint32_t *)codes);
            }
            GJ_LAUNCHED();
            gj_arena_free(&c.ar, table);
        }
    }
    GJ_CUDA(gj_timer_mark(tm, c.st)); /* end of "group" */
    {
        int bits = 1;
        while (bits < 32 && (1ull << bits) < groups) bits++;
        GbSpec r = s;
        if (impl != GJ_IMPL_SGB_UR && !in_order) {
            GJ_CUDA(gj_arena_alloc(&c.ar, &kjunk, n * kw));
            for (int j = 0; j < s.n; j++) {
                if (!s.src[j]) continue;
                if (j != first) {
                    int dup = -1; /* same column already sorted */
                    for (int q = 0; q < j; q++) if (s.src[q] == s.src[j] && sorted[q]) dup = q;
                    if (dup >= 0) { r.src[j] = sorted[dup]; continue; }
                    GJ_CUDA(gj_arena_alloc(&c.ar, &sorted[j], n * s.pw[j]));
                    if (impl == GJ_IMPL_SGB_DE_TR)
                        rc = gjgb_sort_pairs(codes, kjunk, 4, s.src[j], sorted[j], s.pw[j], n, 0, bits, &c.ar, c.st, ctx);
                    else
                        rc = gjgb_sort_pairs(in->key.data, kjunk, kw, s.src[j], sorted[j], s.pw[j], n, 0, 8 * kw, &c.ar, c.st, ctx);
                    if (rc) goto done;
                }
                r.src[j] = sorted[j];
            }
        }
        if ((rc = init_acc(c, r, groups))) goto done;
        if (r.n) {
            uint64_t tiles = (n + PolicySorted::ITEMS - 1) / PolicySorted::ITEMS;
            const uint32_t *ids = impl == GJ_IMPL_SGB_UR || first < 0 ? (const uint32_t *)rowid : NULL;
            bool rvec = ((uintptr_t)gid1 & 15) == 0 && ((uintptr_t)ids & 15) == 0;
            for (int j = 0; j < r.n; j++)
                if (r.src[j] && ((uintptr_t)r.src[j] & 15)) rvec = false;
            k_sorted_reduce<<<grid_for(c, tiles, PolicySorted::THREADS), PolicySorted::THREADS, 0, c.st>>>(
                r, (const uint32_t *)gid1, ids, n, rvec);
            GJ_LAUNCHED();
        }
        for (int i = 0; i < w->n_aggs; i++)
            if (w->aggs[i] == GJ_AGG_COUNT_DISTINCT || w->aggs[i] == GJ_AGG_MEDIAN) {
                if (impl == GJ_IMPL_SGB_DE_TR)
                    rc = sorted_special(c, in, w, i, codes, 4, bits, (const uint32_t *)gid1, (const uint32_t *)start, out);
                else
                    rc = sorted_special(c, in, w, i, in->key.data, kw, 8 * kw, (const uint32_t *)gid1, (const uint32_t *)start, out);
                if (rc) goto done;
            }
        if ((rc = finish_avg(c, w, s, ap, hidden, groups))) goto done;
    }
done:
    return rc;
}

/* ------------------------------------------------------------------ PGB */
/* k_pgb_chunk's shared tables (few groups, PGB_FEW at most): PGB_TS slots
 * of (hashed key, local id) and PGB_AGG_BYTES of aggregate slots;
 * pgb_limit() says how many groups they hold. 4096 slots + 32 KB (4-byte
 * keys: 64 KB, 3 blocks of 512 threads per SM) hold 2560 groups of two
 * 4-byte aggregates. Measured against 8192 slots + 48 KB (112 KB, 2 blocks
 * per SM, 5120 groups, so 2^20 groups take one 8-bit pass instead of two):
 * the fuller SMs won, 9.9-13.6 ms against 12.3-17.5 for PGB-TR at
 * 2^14..2^26 groups (H200, bench/RESULTS.md). Values: operators/shapes.h. */
enum { PGB_TS = GJ_PGB_TS, PGB_AGG_BYTES = GJ_PGB_AGG_BYTES };

/* k_pgb_many's table: the most slots, up to GJ_PGB_MANY_TMAX, whose keys
 * and aggregate slots fit in `budget` bytes: PGB_MANY_SMEM (4-byte keys and
 * two 4-byte aggregates: 8192 slots, 96 KB, 2 blocks of 512 threads per
 * SM), so that 2^20 groups take one 8-bit partition pass. H200, PGB-TR at
 * 2^28 rows, max,max (bench/pgb_ab_device.sh): 7.09 ms at 2^20 groups
 * against 9.52 with 4096 slots (two passes), 6.37 against 6.22 at 2^16 (one
 * pass either way). Or GJ_PGB_MANY_SMEM_BIG (16384 slots, one block of 1024
 * threads an SM), where gj_pgb_big_wins says so (session 12).
 * GJ_PGB_TS=<power of two, 256..16384> overrides it (A/B runs). */
enum { PGB_FEW = GJ_PGB_FEW, PGB_MANY_SMEM = GJ_PGB_MANY_SMEM, PGB_MIN_PART = GJ_PGB_MIN_PART };
uint32_t pgb_many_ts(int kw, const GbSpec &s, size_t budget)
{
    const long v = gj_env_num("GJ_PGB_TS", 256, 16384, 0);
    if (v && !(v & (v - 1))) return (uint32_t)v;
    double w[GB_MAX_ACC]; /* operators/shapes.h, which the model runs too */
    for (int j = 0; j < s.n; j++) w[j] = s.width[j];
    return (uint32_t)gj_pgb_many_tmax((double)budget, kw, w, s.n);
}

/* k_pgb_many's partitions and table (operators/shapes.h gj_pgb_many_choose,
 * which the model runs too): tables for two blocks an SM, or one an SM (up
 * to GJ_PGB_MANY_SMEM_BIG, 1024 threads) where that saves a partition pass
 * or, with as many passes, fills its tables less; claims: the partition
 * would claim a pass of the most bits (pgb_claims). range: the keys' span
 * (workload key_range, 0: unknown); returns 1 where the plan is direct
 * (operators/shapes.h gj_pgb_many_pick). GJ_PGB_BITS=<0..16> forces the
 * bits (A/B runs). */
int pgb_many_plan(uint64_t n, uint64_t hint, uint64_t range, int kw, const GbSpec &s, uint64_t sms, bool rowids,
                  bool claims, int *bits_out, uint32_t *ts_out)
{
    const int force = (int)gj_env_num("GJ_PGB_BITS", 0, 16, -1);
    double ts = 0;
    const int direct = gj_pgb_many_pick((double)n, (double)hint, (double)range, pgb_many_ts(kw, s, PGB_MANY_SMEM),
                                        pgb_many_ts(kw, s, GJ_PGB_MANY_SMEM_BIG), pgb_many_ts(4, s, PGB_MANY_SMEM),
                                        pgb_many_ts(4, s, GJ_PGB_MANY_SMEM_BIG), (double)sms, rowids, claims,
                                        force, bits_out, &ts);
    *ts_out = (uint32_t)ts;
    return direct;
}

/* What gj_join_partition holds besides its output: its own partition's
 * (operators/shapes.h gj_pgb_part_scratch, as the model replays it); CUB's,
 * the hashed keys and values built first, and the sort's alternate
 * buffers. The claimed pass holds nothing of its own (its words are
 * run_pgb's). */
size_t pgb_part_tmp(uint64_t n, int kw, int vw, int bits, int cub, int claims)
{
    if (cub) return n * (size_t)(2 * kw + 2 * vw) + 1024; /* + the hashed keys */
    return (size_t)gj_pgb_part_scratch((double)n, kw, vw, bits, claims);
}

/* PGB-TR's partition calls: each payload column once, two 4-byte columns
 * packed into one call (job.b their second) */
struct PgbJob {
    const void *a, *b;
    int mode, vw;
};
static int pgb_jobs(const GbSpec &r, PgbJob *job)
{
    bool done[GB_MAX_ACC] = {false};
    int nj = 0;
    for (int j = 0; j < r.n; j++) {
        if (!r.src[j] || done[j]) continue;
        int mate = -1; /* another 4-byte column to travel with this one */
        if (r.pw[j] == 4)
            for (int q = j + 1; q < r.n && mate < 0; q++)
                if (r.src[q] && !done[q] && r.pw[q] == 4 && r.src[q] != r.src[j]) mate = q;
        const void *a = r.src[j], *b = mate >= 0 ? r.src[mate] : NULL;
        for (int q = j; q < r.n; q++) done[q] = done[q] || (r.src[q] && (r.src[q] == a || (b && r.src[q] == b)));
        job[nj++] = {a, b, mate >= 0 ? GJ_PART_PACK : r.pw[j] == 8 ? GJ_PART_COPY8 : GJ_PART_COPY4,
                     mate >= 0 ? 8 : r.pw[j]};
    }
    return nj;
}

/* Does PGB's partition of n rows on `bits` bits (its calls: row ids, or
 * pgb_jobs's nj) claim (operators/shapes.h gj_part_claims)? One call that
 * makes row ids or a packed pair, not CUB's sort (cub). GJ_PGB_CLAIM=0:
 * never (A/B); GJ_PART_CLAIM_MIN=R: from R rows (tests). */
static bool pgb_claims(bool rowids, const PgbJob *job, int nj, int cub, uint64_t n, int bits)
{
    const char *m = getenv("GJ_PART_CLAIM_MIN");
    if (cub || gj_env_is("GJ_PGB_CLAIM", "0")) return false;
    const bool one = rowids || (nj == 1 && job[0].mode == GJ_PART_PACK);
    return one && gj_part_claims((double)n, bits, 1, m ? strtod(m, NULL) : GJ_PART_CLAIM_MIN);
}

/* Partition (hashed key, values) on the low `bits` hashed bits: stable, so
 * every column partitioned with the same keys lands in the same order; hs
 * receives the hashed keys. The joins' radix partition (join_partition.cuh:
 * its first pass hashes the keys and builds the values as it reads them),
 * at every key width and bit count. H200, 2^28 rows, a packed pair, PGB-TR:
 * 4-byte keys 8.7 ms against CUB's 10.0 at 2^14 groups (one pass), 11.5
 * against 12.3 at 2^20..2^24 (two passes); 8-byte keys 10.59 / 9.69 / 12.54
 * ms against CUB's 12.09 / 11.58 / 12.69 at 2^21 / 2^23 / 2^25
 * (bench/RESULTS.md). cub (run_pgb: GJ_PGB_PARTITION=cub) selects CUB's
 * radix sort (hashed keys and values built first).
 * PGB-UR (rowids): the values are row ids. PGB-TR: pgb_jobs's nj calls, the
 * payload columns, two 4-byte columns packed into one pass (r.src[j] then
 * points at its half and r.sshift[j] = 1); every pass rewrites *hs with the
 * same keys. room (pgb_claims): the one call tries the claimed pass first
 * into outputs of room rows, its words at `words`; *claimed says whether it
 * held (else the exact pass ran after it). A direct plan's claim writes
 * the keys' 2-byte residues to *hs, a buffer of 2 bytes a row
 * (join_partition.h GJ_PART_RES16: 2 bytes a row less to write, then to
 * read, and to hold); its fallback replaces *hs with one of whole keys. */
template <typename K>
int pgb_partition(Ctx &c, bool rowids, const PgbJob *job, int nj, int cub, bool direct, const void *keys, void **hs,
                  uint64_t n, int bits, GbSpec &r, void **rowid, uint64_t room, uint32_t *words, int *claimed)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    const int kw = sizeof(K);
    const uint64_t rows = room ? room : n;
    /* a direct plan's keys go as they are: no wide exact pass for them (its
     * fallback after a failed claim takes two) */
    const int hash = direct ? 0 : GJ_PART_HASH, wide = direct ? 0 : GJ_PART_WIDE;
    *claimed = 0;
    for (int i = 0; i < (rowids ? 1 : nj); i++) {
        const int mode = rowids ? GJ_PART_IOTA : job[i].mode, vw = rowids ? 4 : job[i].vw;
        const void *a = rowids ? NULL : job[i].a, *b = rowids ? NULL : job[i].b;
        void *v = NULL;
        GJ_CUDA(gj_arena_alloc(&c.ar, &v, rows * vw));
        if (room && (rc = gj_join_partition_claim(kw, keys, *hs, mode | (direct ? GJ_PART_RES16 : hash), a, b, v, n,
                                                  bits, room, words, claimed, c.st, ctx)))
            goto done;
        if (room && direct && !*claimed) { /* residues declined: the exact pass writes whole keys */
            gj_arena_free(&c.ar, *hs);
            *hs = NULL;
            GJ_CUDA(gj_arena_alloc(&c.ar, hs, n * kw));
        }
        if (!*claimed &&
            (rc = gj_join_partition(kw, keys, *hs, mode | hash | wide, a, b, v, n, bits, cub, c.st, ctx)))
            goto done;
        gj_arena_note(&c.ar, pgb_part_tmp(n, kw, vw, bits, cub, *claimed));
        if (rowids) {
            *rowid = v;
            break;
        }
        for (int q = 0; q < r.n; q++) { /* every accumulator over a or b */
            if (!r.src[q]) continue;
            if (r.src[q] == a) {
                r.src[q] = v;
                r.sshift[q] = b != NULL;
            } else if (b && r.src[q] == b) {
                r.src[q] = (const char *)v + 4;
                r.sshift[q] = 1;
            }
        }
    }
done:
    return rc;
}

/* k_pgb_many's build for a table of `smem` bytes with TK keys
 * (groupby_kernels.cuh PgbTk), its threads and blocks an SM. Both builds
 * are held to 64 registers, 2 blocks of 512 threads per SM (8-byte keys'
 * narrow build took 70, 1 block, unbounded). Where three tables fit an
 * SM's shared memory, a narrow build capped at 3 blocks (40 registers, a
 * few spilled) runs them. H200, 2^28 rows, max,max, PGB-TR aggregate
 * phase: 2.10 -> 1.86 ms at 2^13 groups (4096-slot tables); with 8192-slot
 * tables, where only two fit, the cap cost 2.48 -> 2.97 ms at 2^19
 * (bench/RESULTS.md). fold: the generic builds that fold a skewed warp's
 * rows in the general tile (k_pgb_many's FOLD; shapes.h GJ_PGB_FOLD_ZIPF). */
template <typename K, typename TK, bool OV>
void pgb_many_build(bool narrow, bool three, bool big, bool fold,
                    void (**many)(const K *, GbSpec, PgbArgs, GTable<K>, K *, uint32_t))
{
    enum { T = PolicyChunk::THREADS, BIG = GJ_PGB_MANY_BIG_THREADS };
    if (big && narrow) *many = k_pgb_many<K, TK, true, 1, BIG, OV>;
    else if (big) *many = fold ? k_pgb_many<K, TK, false, 1, BIG, OV, true> : k_pgb_many<K, TK, false, 1, BIG, OV>;
    else if (!narrow) *many = fold ? k_pgb_many<K, TK, false, 2, T, OV, true> : k_pgb_many<K, TK, false, 2, T, OV>;
    else *many = three ? k_pgb_many<K, TK, true, 3> : k_pgb_many<K, TK, true, 2, T, OV>;
}

/* hashed: the plan hashes its keys (not direct), so the builds that
 * search a thread's keys together (k_pgb_many's OV) are taken: for 4-byte
 * keys, where they were measured (session 33, call 11: hashed PGB-TR 1-2.5%
 * faster at 2^28 rows, 8-18% at a table's load of 1/2); 8-byte keys keep
 * one search at a time: their OV builds gained 0-3%, inside the noise
 * (session 34, call 1; bench/RESULTS.md), not worth four instantiations. */
template <typename K, typename TK>
int pgb_many_kernel(Ctx &c, bool narrow, bool hashed, bool fold, size_t smem,
                    void (**many)(const K *, GbSpec, PgbArgs, GTable<K>, K *, uint32_t), int *threads, int *occ)
{
    int rc = GJ_OK, occ3 = 0;
    gj_ctx *ctx = c.ctx;
    const bool big = smem > PGB_MANY_SMEM; /* one table an SM: 1024 threads to fill it */
    if (narrow && !big) {
        GJ_CUDA(cudaFuncSetAttribute(k_pgb_many<K, TK, true, 3>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        GJ_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ3, k_pgb_many<K, TK, true, 3>, PolicyChunk::THREADS,
                                                              smem));
    }
    if constexpr (sizeof(K) == 8)
        pgb_many_build<K, TK, false>(narrow, occ3 >= 3, big, fold, many);
    else if (hashed)
        pgb_many_build<K, TK, true>(narrow, occ3 >= 3, big, fold, many);
    else
        pgb_many_build<K, TK, false>(narrow, occ3 >= 3, big, fold, many);
    *threads = big ? GJ_PGB_MANY_BIG_THREADS : PolicyChunk::THREADS;
    GJ_CUDA(cudaFuncSetAttribute(*many, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    GJ_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(occ, *many, *threads, smem));
done:
    return rc;
}

/* PGB-UR's work items by piece, then partition (PgbArgs.order), into a
 * new allocation *order of `items` entries: a stable sort of the items on
 * their piece (k_pgb_piece_keys). */
static int pgb_order(Ctx &c, const uint32_t *item_end, uint64_t P, uint32_t items, void **order)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    void *key = NULL, *item = NULL, *skey = NULL;
    const int bits = 32 - __builtin_clz(items); /* pieces <= items */
    GJ_CUDA(gj_arena_alloc(&c.ar, &key, (size_t)items * 4));
    GJ_CUDA(gj_arena_alloc(&c.ar, &item, (size_t)items * 4));
    GJ_CUDA(gj_arena_alloc(&c.ar, &skey, (size_t)items * 4));
    GJ_CUDA(gj_arena_alloc(&c.ar, order, (size_t)items * 4));
    k_pgb_piece_keys<<<(unsigned)((P + 255) / 256), 256, 0, c.st>>>(item_end, (uint32_t)P, (uint32_t *)key,
                                                                    (uint32_t *)item);
    GJ_LAUNCHED();
    rc = gjgb_sort_pairs(key, skey, 4, item, *order, 4, items, 0, bits, &c.ar, c.st, ctx);
done:
    gj_arena_free(&c.ar, key);
    gj_arena_free(&c.ar, item);
    gj_arena_free(&c.ar, skey);
    return rc;
}

/* The chunk kernel over every piece of every partition. Output ids come
 * from the global table's counter, capped at the output's capacity; when the
 * table or the output is too small (more groups than the hint said), both
 * grow 4x and the chunks run again. */
template <typename K, int TS>
int pgb_chunks(Ctx &c, const gj_dtable *in, const gj_workload *w, GbSpec &r, const AggPlan *ap, int hidden,
               const K *hs, PgbArgs a, uint64_t P, uint64_t hint, unsigned agg_bytes, uint32_t ts,
               gj_groupby_out *out)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    void *tkeys = NULL, *tvals = NULL, *cnt = NULL, *item_end = NULL, *cut_end = NULL, *cut_list = NULL;
    void *spill = NULL, *cut_global = NULL, *order = NULL;
    uint32_t ncut[2] = {0, 0}; /* cut partitions, their pieces */
    GbSpec rm = r; /* k_pgb_many's spec: its shared layout in soff */
    /* a direct plan's 8-byte keys: 4-byte table keys (groupby_kernels.cuh PgbTk) */
    const bool tk4 = sizeof(K) == 8 && a.probe == PGB_PROBE_DIRECT;
    const size_t smem = ts ? pgb_many_layout(ts, tk4 ? 4 : sizeof(K), rm) : (sizeof(K) + 4) * (size_t)TS + agg_bytes;
    int occ = 0, many_threads = PolicyChunk::THREADS;
    uint32_t items = 0;
    bool counted = false;
    const uint64_t n = a.n, ncap = next_pow2(2 * (n > 512 ? n : 512));
    uint64_t cap = next_pow2(2 * (hint > 1024 ? hint : 1024)); /* table slots, load <= 1/2 */
    if (cap > ncap) cap = ncap;
    const bool narrow = narrow_spec(r); /* k_pgb_many's 4-byte fast path, as HGB's */
    typedef void (*ManyKernel)(const K *, GbSpec, PgbArgs, GTable<K>, K *, uint32_t);
    ManyKernel many = NULL;
    void (*merge)(GbSpec, PgbArgs, const uint32_t *, GTable<K>, K *, uint32_t) =
        tk4 ? k_pgb_merge<K, uint32_t> : k_pgb_merge<K, K>;
    /* A/B: GJ_PGB_MERGE_THREADS=512 = k_pgb_merge's blocks before session 35 */
    const int merge_threads = gj_env_is("GJ_PGB_MERGE_THREADS", "512") ? 512 : PGB_MERGE_THREADS;
    /* the general tile's fold in builds of its own, for skewed workloads
     * (shapes.h GJ_PGB_FOLD_ZIPF; GJ_GB_FOLD=0: none) */
    const bool fold = w->zipf >= GJ_PGB_FOLD_ZIPF && gb_fold_on();
    if (ts && tk4) {
        if ((rc = pgb_many_kernel<K, uint32_t>(c, narrow, false, fold, smem, &many, &many_threads, &occ))) goto done;
    } else if (ts) {
        /* A/B: GJ_PGB_OVERLAP=0 = hashed keys searched one at a time */
        const bool hashed = a.probe != PGB_PROBE_DIRECT && !gj_env_is("GJ_PGB_OVERLAP", "0");
        if ((rc = pgb_many_kernel<K, K>(c, narrow, hashed, fold, smem, &many, &many_threads, &occ))) goto done;
    } else {
        GJ_CUDA(cudaFuncSetAttribute(k_pgb_chunk<K, TS>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        GJ_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k_pgb_chunk<K, TS>, PolicyChunk::THREADS, smem));
    }
    if (occ < 1) occ = 1;
    { /* pieces of T rows (operators/shapes.h); GJ_PGB_WHOLE=0: four waves, partitions cut as before sessions 20 and 31 (A/B) */
        a.T = (uint64_t)gj_pgb_piece_rows((double)n, (double)P, (double)c.sms, (double)occ,
                                          !gj_env_is("GJ_PGB_WHOLE", "0"));
        a.nolean = gj_env_is("GJ_PGB_LEAN", "0"); /* A/B: k_pgb_many's general tile throughout */
        a.nofold = !gb_fold_on();
        /* A/B: GJ_PGB_PROBE=linear = pgb_slot's old probe sequence */
        if (a.probe != PGB_PROBE_DIRECT && gj_env_is("GJ_PGB_PROBE", "linear")) a.probe = PGB_PROBE_LINEAR;
    }
    GJ_CUDA(gj_arena_alloc(&c.ar, &item_end, P * 4));
    GJ_CUDA(gj_arena_alloc(&c.ar, &cnt, 32)); /* groups, overflow; at 4: items, cut partitions, their pieces */
    if (ts) { /* k_pgb_many's cut partitions merge their pieces' tables (k_pgb_merge) */
        GJ_CUDA(gj_arena_alloc(&c.ar, &cut_end, P * 4));
        GJ_CUDA(gj_arena_alloc(&c.ar, &cut_list, P * 4));
    }
    { /* the most pieces k_pgb_merge takes (shapes.h gj_pgb_merge_max, typical:
       * a partition of average rows'); GJ_PGB_MERGE_MAX=<1..64> in its place
       * (A/B runs; 16: as before session 36, 1: none) */
        const double typical = ceil((double)n / (double)P / (double)a.T);
        const uint32_t merge_max = (uint32_t)gj_env_num(
            "GJ_PGB_MERGE_MAX", 1, 64, (long)gj_pgb_merge_max(typical, a.probe == PGB_PROBE_DIRECT));
        k_pgb_items<<<1, PGB_ITEMS_THREADS, 0, c.st>>>(a.start, a.end, (uint32_t)P, a.T, (uint32_t *)item_end,
                                                      (uint32_t *)cut_end, (uint32_t *)cut_list, (uint32_t *)cnt + 4,
                                                      merge_max);
    }
    GJ_LAUNCHED();
    a.item_end = (const uint32_t *)item_end;
    for (;;) {
        uint32_t hc[2];
        const uint64_t ocap = cap / 2 < n ? cap / 2 : n;
        if ((rc = alloc_out(c, in, w, &r, ap, hidden, ocap, out))) goto done;
        GJ_CUDA(gj_arena_alloc(&c.ar, &tkeys, cap * sizeof(K)));
        GJ_CUDA(gj_arena_alloc(&c.ar, &tvals, cap * 4));
        GJ_CUDA(cudaMemsetAsync(tvals, 0xff, cap * 4, c.st));
        GJ_CUDA(cudaMemsetAsync(tkeys, 0xff, cap * sizeof(K), c.st));
        GJ_CUDA(cudaMemsetAsync(cnt, 0, 8, c.st));
        if (!counted) { /* the items' totals, read back once the first round's output is set up: its
                         * allocations and memsets overlap k_pgb_items (call 3's GJ_TRACE: 0.028 ms) */
            uint32_t h[3];
            GJ_CUDA(cudaMemcpyAsync(h, (const uint32_t *)cnt + 4, 12, cudaMemcpyDeviceToHost, c.st));
            GJ_CUDA(cudaStreamSynchronize(c.st));
            items = h[0], ncut[0] = h[1], ncut[1] = h[2];
            counted = true;
            /* payloads gathered through row ids (PGB-UR; counts alone
             * gather none) from cut partitions: blocks by piece, then
             * partition (PgbArgs.order); GJ_PGB_ORDER=partition: in
             * partition order (A/B) */
            bool gathers = false;
            for (int j = 0; j < r.n; j++) gathers = gathers || (a.rowid && r.src[j]);
            if (gathers && P > 1 && items > P && !gj_env_is("GJ_PGB_ORDER", "partition")) {
                if ((rc = pgb_order(c, (const uint32_t *)item_end, P, items, &order))) goto done;
                a.order = (const uint32_t *)order;
            }
        }
        gj_trace(c.st, "output, table set, items read");
        if (ncut[0] && !spill) { /* the pieces' tables, once */
            GJ_CUDA(gj_arena_alloc(&c.ar, &spill, (size_t)ncut[1] * smem));
            GJ_CUDA(gj_arena_alloc(&c.ar, &cut_global, (size_t)items * 4));
            GJ_CUDA(cudaFuncSetAttribute(merge, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
            a.cut_end = (const uint32_t *)cut_end;
            a.spill = (unsigned char *)spill;
            a.spill_bytes = smem;
            a.spill_global = (int *)cut_global;
        }
        if (a.spill) GJ_CUDA(cudaMemsetAsync(cut_global, 0, (size_t)items * 4, c.st));
        {
            GTable<K> gt = {(K *)tkeys, (uint32_t *)tvals, cap - 1, (uint32_t *)cnt, (uint32_t)ocap, (int *)cnt + 1};
            if (items && ts) {
                for (int j = 0; j < r.n; j++) rm.dst[j] = r.dst[j]; /* this round's output */
                many<<<items, many_threads, smem, c.st>>>(hs, rm, a, gt, (K *)out->key.data, ts);
                GJ_LAUNCHED();
                if (ncut[0]) {
                    merge<<<ncut[0], merge_threads, smem, c.st>>>(rm, a, (const uint32_t *)cut_list, gt,
                                                                 (K *)out->key.data, ts);
                    GJ_LAUNCHED();
                }
            } else if (items) {
                k_pgb_chunk<K, TS><<<items, PolicyChunk::THREADS, smem, c.st>>>(hs, r, a, gt, (K *)out->key.data,
                                                                                agg_bytes);
                GJ_LAUNCHED();
            }
        }
        gj_trace(c.st, "aggregated");
        GJ_CUDA(cudaMemcpyAsync(hc, cnt, 8, cudaMemcpyDeviceToHost, c.st));
        GJ_CUDA(cudaStreamSynchronize(c.st));
        gj_trace(c.st, "groups read back");
        gj_arena_free(&c.ar, tkeys);
        gj_arena_free(&c.ar, tvals);
        tkeys = tvals = NULL;
        if (!hc[1]) { out->groups = hc[0]; break; }
        out_release(c, out); /* more groups than the hint: larger, again */
        if (hidden >= 0) gj_arena_free(&c.ar, r.dst[hidden]);
        if (cap >= ncap) { rc = gj_seterr(ctx, GJ_ERR_CUDA, "PGB: global table overflow at %llu slots", (unsigned long long)cap); goto done; }
        cap = cap * 4 < ncap ? cap * 4 : ncap;
    }
done:
    return rc;
}

template <typename K>
int run_pgb(Ctx &c, gj_impl impl, const gj_dtable *in, const gj_workload *w, GbSpec &s, const AggPlan *ap,
            int hidden, gj_phase_timer *tm, gj_groupby_out *out)
{
    int rc = GJ_OK;
    gj_ctx *ctx = c.ctx;
    const uint64_t n = in->rows;
    const int kw = sizeof(K);
    uint64_t hint = w->groups ? w->groups : 1;
    if (hint > n) hint = n;
    unsigned slot_bytes = 0;
    for (int j = 0; j < s.n; j++) slot_bytes += s.width[j];
    /* Few groups (at most PGB_FEW): k_pgb_chunk, which counts them and then
     * aggregates into R copies, over partitions of at most 7/8 of a chunk's
     * groups on average. More: k_pgb_many, see pgb_many_plan. At most 2^16
     * partitions (two 8-bit passes). */
    bool any_src = false; /* PGB-TR of counts only: the keys travel with row ids */
    for (int j = 0; j < s.n; j++) any_src = any_src || s.src[j];
    const bool rowids = impl == GJ_IMPL_PGB_UR || !any_src;
    /* the partition's calls (pgb_jobs; PGB-UR: one of row ids) and whether
     * they could claim a pass of the most bits (pgb_claims) */
    PgbJob job[GB_MAX_ACC];
    const int nj = rowids ? 0 : pgb_jobs(s, job);
    const int cub = gj_env_is("GJ_PGB_PARTITION", "cub");
    const bool claim_max = pgb_claims(rowids, job, nj, cub, n, GJ_PART_CLAIM_MAX_BITS);
    /* keys of a known span (w->key_range) may take the direct plan
     * (operators/shapes.h gj_pgb_many_pick): partitioned on their own low
     * bits, unhashed, each key its own slot. GJ_PGB_DIRECT=0: never (A/B). */
    const uint64_t range = cub || gj_env_is("GJ_PGB_DIRECT", "0") ? 0 : w->key_range;
    uint32_t ts = 0;
    int bits = 0;
    bool direct = false;
    if (hint > PGB_FEW && !gj_env_is("GJ_PGB_KERNEL", "chunk")) { /* A/B: chunk = k_pgb_chunk at every g */
        direct = pgb_many_plan(n, hint, range, kw, s, (uint64_t)c.sms, rowids, claim_max, &bits, &ts);
    } else {
        const uint64_t per = pgb_limit(PGB_TS, PGB_AGG_BYTES, slot_bytes) / 8 * 7;
        while (bits < 16 && (per << bits) < hint) bits++;
    }
    const uint64_t P = 1ull << bits;
    /* the claimed pass (pgb_claims): outputs of room rows, its words the
     * partitions' starts and ends */
    const bool claims = bits && pgb_claims(rowids, job, nj, cub, n, bits);
    const uint64_t room = claims ? (uint64_t)gj_part_claim_room((double)n, bits) : 0;
    int claimed = 0;
    void *hs = NULL, *rowid = NULL, *start = NULL;
    GbSpec r = s;
    gj_trace_begin();
    gj_trace(c.st, "start");
    GJ_CUDA(gj_arena_alloc(&c.ar, &start, (claims ? 4 * P + 2 : P + 1) * 4));
    if (direct && bits == 0) { /* one table holds the keys' span: they go as they are */
        hs = (void *)in->key.data;
    } else { /* a direct plan's claim writes 2-byte residues (GJ_PART_RES16) */
        GJ_CUDA(gj_arena_alloc(&c.ar, &hs, claims ? room * (direct ? 2 : kw) : n * kw));
    }
    if (bits == 0 && !direct) { /* no partition to hash the keys as it reads them */
        gjh::hash_keys_kernel<K><<<grid_for(c, n, 256), 256, 0, c.st>>>((const K *)in->key.data, (K *)hs, n);
        GJ_LAUNCHED();
    } else if (bits && (rc = pgb_partition<K>(c, rowids, job, nj, cub, direct, in->key.data, &hs, n, bits, r, &rowid,
                                              room, (uint32_t *)start, &claimed))) {
        goto done;
    }
    gj_trace(c.st, "partitioned");
    if (!claimed) {
        gjj::bounds_kernel<K><<<grid_for(c, P + 1, 256), 256, 0, c.st>>>((const K *)hs, n, (uint32_t)(P - 1),
                                                                         (uint32_t)P, (uint32_t *)start);
        GJ_LAUNCHED();
    }
    GJ_CUDA(gj_timer_mark(tm, c.st)); /* end of "group" */
    gj_trace(c.st, "bounds");
    {
        PgbArgs a = {n, P - 1, 0, (const uint32_t *)start, NULL, (const uint32_t *)rowid};
        a.probe = direct ? PGB_PROBE_DIRECT : PGB_PROBE_DOUBLE;
        a.end = claimed ? (const uint32_t *)start + 2 * P : (const uint32_t *)start + 1;
        if (direct) a.key0 = in->key.data; /* the base of residues and of 8-byte keys' table keys */
        if (direct && claimed) a.res = (const uint16_t *)hs; /* the claim wrote residues (GJ_PART_RES16) */
        rc = pgb_chunks<K, PGB_TS>(c, in, w, r, ap, hidden, (const K *)hs, a, P, hint, PGB_AGG_BYTES, ts, out);
        if (rc) goto done;
    }
    s = r; /* finish_avg reads dst */
    if ((rc = finish_avg(c, w, s, ap, hidden, out->groups))) goto done;
    if (w->sorted_output && (rc = sort_output(c, out))) goto done;
    gj_trace(c.st, "finished");
    gj_trace_dump();
done:
    return rc;
}

} // namespace

extern "C" int gj_groupby_supports(gj_impl impl, gj_agg a)
{
    if (gj_impl_op(impl) != GJ_OP_GROUPBY || impl >= GJ_IMPL_COUNT || (int)a < 0 || a >= GJ_AGG_KINDS) return 0;
    if (a == GJ_AGG_COUNT_DISTINCT || a == GJ_AGG_MEDIAN)
        return impl == GJ_IMPL_SGB_UR || impl == GJ_IMPL_SGB_TR || impl == GJ_IMPL_SGB_DE_TR;
    return 1;
}

extern "C" void gj_groupby_out_free(gj_groupby_out *out)
{
    if (!out) return;
    cudaFree(out->key.data);
    for (int i = 0; i < GJ_MAX_AGGS; i++) cudaFree(out->agg[i].data);
    memset(out, 0, sizeof *out);
}

extern "C" int gj_groupby_execute(gj_impl impl, const gj_dtable *in, const gj_workload *w, void *stream,
                                  gj_groupby_out *out, gj_timing *t, gj_ctx *ctx)
{
    int rc = GJ_OK;
    Ctx c;
    memset(&c, 0, sizeof c);
    c.st = (cudaStream_t)stream;
    c.ctx = ctx;
    c.sms = 0;
    gj_phase_timer tm;
    int timer_ok = 0, dev = 0, hidden = -1;
    GbSpec s;
    AggPlan ap[GJ_MAX_AGGS];
    if (out) memset(out, 0, sizeof *out);
    if (!in || !w || !out) { rc = gj_seterr(ctx, GJ_ERR_INVALID, "gj_groupby_execute: NULL argument"); goto done; }
    if (gj_impl_op(impl) != GJ_OP_GROUPBY || impl >= GJ_IMPL_COUNT) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "impl=%s: allowed HGB, SGB-UR, SGB-TR, SGB-DE-TR, PGB-UR, PGB-TR, HASH-GLOBAL",
                       gj_impl_name(impl) ? gj_impl_name(impl) : "?");
        goto done;
    }
    if (in->key.width != 4 && in->key.width != 8) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "key width=%d: allowed 4, 8", in->key.width);
        goto done;
    }
    if (in->rows > 0x7fffffffull) {
        rc = gj_seterr(ctx, GJ_ERR_UNSUPPORTED, "rows=%llu: group-by supports < 2^31 rows", (unsigned long long)in->rows);
        goto done;
    }
    if (w->n_aggs < 1 || w->n_aggs > GJ_MAX_AGGS) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "n_aggs=%d: allowed 1..%d", w->n_aggs, GJ_MAX_AGGS);
        goto done;
    }
    for (int i = 0; i < w->n_aggs; i++)
        if (!gj_groupby_supports(impl, w->aggs[i])) {
            rc = gj_seterr(ctx, GJ_ERR_UNSUPPORTED, "%s does not compute %s (sort-based implementations only)",
                           gj_impl_name(impl), gj_agg_name(w->aggs[i]));
            goto done;
        }
    if ((rc = build_spec(in, w, &s, ap, &hidden, ctx))) goto done;
    GJ_CUDA(cudaGetDevice(&dev));
    GJ_CUDA(cudaDeviceGetAttribute(&c.sms, cudaDevAttrMultiProcessorCount, dev));
    GJ_CUDA(gj_pool_retain()); /* every allocation below: stream-ordered, kept mapped */
    c.ar.pooled = 1;
    c.ar.st = c.st;
    GJ_CUDA(gj_timer_init(&tm));
    timer_ok = 1;
    GJ_CUDA(gj_timer_mark(&tm, c.st));
    if (in->rows == 0) {
        /* no rows, no groups: empty columns of the right types */
        if ((rc = alloc_out(c, in, w, &s, ap, hidden, 0, out))) goto done;
        out->groups = 0;
        GJ_CUDA(gj_timer_mark(&tm, c.st));
    } else {
        bool k8 = in->key.width == 8;
        switch (impl) {
        case GJ_IMPL_HGB: rc = k8 ? run_hgb<uint64_t>(c, in, w, s, ap, hidden, &tm, out) : run_hgb<uint32_t>(c, in, w, s, ap, hidden, &tm, out); break;
        case GJ_IMPL_HASH_GLOBAL: rc = k8 ? run_hash_global<uint64_t>(c, in, w, s, ap, hidden, &tm, out) : run_hash_global<uint32_t>(c, in, w, s, ap, hidden, &tm, out); break;
        case GJ_IMPL_SGB_UR:
        case GJ_IMPL_SGB_TR:
        case GJ_IMPL_SGB_DE_TR: rc = k8 ? run_sgb<uint64_t>(c, impl, in, w, s, ap, hidden, &tm, out) : run_sgb<uint32_t>(c, impl, in, w, s, ap, hidden, &tm, out); break;
        default: rc = k8 ? run_pgb<uint64_t>(c, impl, in, w, s, ap, hidden, &tm, out) : run_pgb<uint32_t>(c, impl, in, w, s, ap, hidden, &tm, out); break;
        }
        if (rc) goto done;
    }
    GJ_CUDA(gj_timer_mark(&tm, c.st));
    GJ_CUDA(cudaStreamSynchronize(c.st));
    if (t) {
        memset(t, 0, sizeof *t);
        GJ_CUDA(gj_timer_read(&tm, t));
        gj_strlcpy(t->name[0], "group", sizeof t->name[0]);
        gj_strlcpy(t->name[1], "aggregate", sizeof t->name[1]);
        t->peak_bytes = c.ar.peak;
    }
done:
    if (timer_ok) gj_timer_destroy(&tm);
    gj_arena_release(&c.ar);
    if (rc != GJ_OK && out) gj_groupby_out_free(out);
    return rc;
}
