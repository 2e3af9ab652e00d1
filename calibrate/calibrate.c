/* gj_calibrate_run: measure every gj_hw parameter on the local GPU.
 *
 * Orchestration and statistics only; the kernels are in kernels.cu and
 * sort.cu. Each parameter is one measurement: a function that runs its
 * benchmarks (warm-up, then `reps` timed repetitions) and turns repetition i
 * of each into one value of the parameter; the values are summarised with
 * GSL (median, interquartile spread); a spread above the limit is measured
 * again and flagged.
 *
 * Methods (also in bench/RESULTS.md, section Calibration):
 *  - B_G (bw_seq) is a device-to-device copy counting bytes read + written:
 *    every model term of paper 000 divides bytes read plus bytes written by
 *    one B_G, so the copy is the matching mix. Read and write alone are kept
 *    for terms that only read or only write.
 *  - B_R (Sec. 4.1.1): the same GATHER kernel of n = 2^27 4-byte items with
 *    a clustered map (identity) and an unclustered one (a random
 *    permutation). Both read the map and write the output sequentially; the
 *    difference is the random reads: t_unc - t_clu = 4n/B_R - 4n/B_G, so
 *    B_R = 4n / (t_unc - t_clu + 4n/B_G) with B_G = bw_seq. bw_rand_l2 and
 *    the u-curve bw_u1..bw_u32 use the same formula with their own map.
 *  - One RADIX-PARTITION pass = t(SortPairs over bits [0,16)) - t(bits
 *    [0,8)); bytes = 2 (k + v) n. Histogram = t(8 bits) - one pass; bytes =
 *    k n.
 */
#include "calibrate/calibrate.h"
#include "model/profile.h"
#include "operators/shapes.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_REPS 16

typedef struct cal_state {
    int quick;
    int reps, warmup;
    int inner;           /* kernel launches per timed repetition (seq, gather) */
    gj_device dev;
    size_t free_bytes;
    uint64_t n_gather;   /* items of the gathers (2^27 in a full run)        */
    uint64_t n_sort;     /* pairs of the sorts                               */
    uint64_t seq_bytes;  /* buffer of the sequential benchmarks              */
    uint64_t l2_half;    /* largest power of two <= half the L2, bytes       */
    double bg;           /* bw_seq once measured, bytes per ms               */
    gj_profile *p;
} cal_state;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Largest power of two <= want whose footprint (bytes_per_item each) fits
 * in budget; at least floor_items. */
static uint64_t fit_pow2(uint64_t want, double bytes_per_item, double budget, uint64_t floor_items)
{
    uint64_t n = want;
    while (n > floor_items && n * bytes_per_item > budget) n /= 2;
    return n;
}

static uint64_t pow2_below(uint64_t x)
{
    uint64_t p = 1;
    while (p * 2 <= x) p *= 2;
    return p;
}

/* ---- the measurements ---- */

enum kind {
    K_SEQ_READ, K_SEQ_WRITE, K_SEQ_COPY,
    K_RAND, K_RAND_L2, K_ULINES,
    K_L1, K_L1_RAND, K_L2, K_L2_RAND,
    K_HIST, K_PART, K_PART_OWN, K_PART_PACK1, K_PART_WIDE, K_SORT,
    K_ATOM_G, K_ATOM_S,
    K_HT_BUILD_L2, K_HT_PROBE_L2, K_HT_BUILD_HBM, K_HT_PROBE_HBM,
    K_LAUNCH, K_MALLOC, K_HOSTCOPY,
    K_STRUCT
};

typedef struct item_def {
    const char *key;
    enum kind kind;
    int a, b;    /* kind-specific: u, key/value bytes, targets, direction... */
} item_def;

static const item_def items[] = {
    {"bw_seq_read", K_SEQ_READ, 0, 0},
    {"bw_seq_write", K_SEQ_WRITE, 0, 0},
    {"bw_seq", K_SEQ_COPY, 0, 0},
    {"bw_rand", K_RAND, 0, 0},
    {"bw_rand_l2", K_RAND_L2, 0, 0},
    {"bw_u1", K_ULINES, 1, 0},
    {"bw_u2", K_ULINES, 2, 0},
    {"bw_u4", K_ULINES, 4, 0},
    {"bw_u8", K_ULINES, 8, 0},
    {"bw_u16", K_ULINES, 16, 0},
    {"bw_u32", K_ULINES, 32, 0},
    {"bw_l1", K_L1, 0, 0},
    {"bw_l1_rand", K_L1_RAND, 0, 0},
    {"bw_l2", K_L2, 0, 0},
    {"bw_l2_rand", K_L2_RAND, 0, 0},
    {"bw_hist", K_HIST, 4, 4},
    {"bw_part_k4v4", K_PART, 4, 4},
    {"bw_part_k4v8", K_PART, 4, 8},
    {"bw_part_k8v8", K_PART, 8, 8},
    {"bw_part_pair", K_PART_OWN, 4, 8},
    {"bw_part_pair1", K_PART_PACK1, 4, 8},
    {"bw_part_wide", K_PART_WIDE, 4, 8},
    {"sort_k32", K_SORT, 4, 4},
    {"sort_k64", K_SORT, 8, 4},
    {"atom_g_t1", K_ATOM_G, 1, 0},
    {"atom_g_t32", K_ATOM_G, 32, 0},
    {"atom_g_t1k", K_ATOM_G, 1024, 0},
    {"atom_g_t1m", K_ATOM_G, 1 << 20, 0},
    {"atom_s_t1", K_ATOM_S, 1, 0},
    {"atom_s_t32", K_ATOM_S, 32, 0},
    {"atom_s_t1k", K_ATOM_S, 1024, 0},
    {"ht_build_l2", K_HT_BUILD_L2, 0, 0},
    {"ht_probe_l2", K_HT_PROBE_L2, 0, 0},
    {"ht_build_hbm", K_HT_BUILD_HBM, 0, 0},
    {"ht_probe_hbm", K_HT_PROBE_HBM, 0, 0},
    {"ht_slot_build_l2", K_HT_BUILD_L2, 1, 0},
    {"ht_slot_probe_l2", K_HT_PROBE_L2, 1, 0},
    {"ht_slot_build_hbm", K_HT_BUILD_HBM, 1, 0},
    {"ht_slot_probe_hbm", K_HT_PROBE_HBM, 1, 0},
    {"launch_us", K_LAUNCH, 0, 0},
    {"malloc_us", K_MALLOC, 0, 0},
    {"h2d_pageable", K_HOSTCOPY, 0, 0},
    {"h2d_pinned", K_HOSTCOPY, 0, 1},
    {"d2h_pageable", K_HOSTCOPY, 1, 0},
    {"d2h_pinned", K_HOSTCOPY, 1, 1},
    {"sm_count", K_STRUCT, 0, 0},
    {"l1_bytes", K_STRUCT, 1, 0},
    {"smem_per_block", K_STRUCT, 2, 0},
    {"l2_bytes", K_STRUCT, 3, 0},
    {"mem_bytes", K_STRUCT, 4, 0},
};
#define NITEMS ((int)(sizeof items / sizeof items[0]))
_Static_assert(sizeof items / sizeof items[0] <= GJ_CALIB_MAX_ITEMS, "raise GJ_CALIB_MAX_ITEMS");

/* rate[i] = work / ms[i], in units per second scaled by `scale`
 * (1e-9 for GB/s or Gop/s). */
static void rates(const double *ms, int n, double work, double scale, double *out)
{
    for (int i = 0; i < n; i++) out[i] = ms[i] > 0 ? work / (ms[i] / 1e3) * scale : 0;
}

/* The random-read bandwidth of a gather from its time and the clustered
 * gather's (see the file comment), GB/s. */
static void gather_bw(const double *t_x, const double *t_clu, int n, double items, double bg_per_ms,
                      double *out)
{
    const double seq_ms = 4 * items / bg_per_ms; /* 4n / B_G */
    for (int i = 0; i < n; i++) {
        double d = t_x[i] - t_clu[i] + seq_ms;
        if (d < 0.5 * seq_ms) d = 0.5 * seq_ms; /* never report more than 2 B_G */
        out[i] = 4 * items / (d / 1e3) * 1e-9;
    }
}

static int measure(cal_state *s, const item_def *d, double *vals, gj_ctx *ctx)
{
    int rc = GJ_OK;
    double ms[MAX_REPS], ms2[MAX_REPS], work = 0, work2 = 0;
    const int R = s->reps, W = s->warmup;
    switch (d->kind) {
    case K_SEQ_READ:
    case K_SEQ_WRITE:
    case K_SEQ_COPY:
        rc = gj_calk_seq(d->kind == K_SEQ_READ ? 0 : d->kind == K_SEQ_WRITE ? 1 : 2,
                         d->kind == K_SEQ_COPY ? s->seq_bytes / 2 : s->seq_bytes, s->inner, W, R, ms,
                         &work, ctx);
        if (rc == GJ_OK) rates(ms, R, work, 1e-9, vals);
        break;
    case K_RAND:
    case K_RAND_L2:
    case K_ULINES: {
        int mode = d->kind == K_RAND ? GJ_CALK_GATHER_PERMUTED
                   : d->kind == K_RAND_L2 ? GJ_CALK_GATHER_SMALL : GJ_CALK_GATHER_LINES;
        if (!(s->bg > 0)) {
            rc = gj_seterr(ctx, GJ_ERR_INVALID, "%s needs bw_seq measured first", d->key);
            break;
        }
        rc = gj_calk_gather(GJ_CALK_GATHER_CLUSTERED, s->n_gather, 1, 0, s->inner, W, R, ms2, &work2, ctx);
        if (rc == GJ_OK)
            rc = gj_calk_gather(mode, s->n_gather, d->a ? d->a : 1, s->l2_half / 4, s->inner, W, R, ms,
                                &work, ctx);
        if (rc == GJ_OK) gather_bw(ms, ms2, R, work, s->bg, vals);
        break;
    }
    case K_L1:
    case K_L1_RAND:
        rc = gj_calk_smem(d->kind == K_L1_RAND, s->quick ? 4096 : 16384, W, R, ms, &work, ctx);
        if (rc == GJ_OK) rates(ms, R, work, 1e-9, vals);
        break;
    case K_L2:
    case K_L2_RAND:
        rc = gj_calk_l2(d->kind == K_L2_RAND, s->l2_half, s->quick ? 128 : 512, W, R, ms, &work, ctx);
        if (rc == GJ_OK) rates(ms, R, work, 1e-9, vals);
        break;
    case K_HIST:
    case K_PART:
    case K_PART_OWN: {
        /* 16 bits less 8: one pass (CUB's, or the operators' own with its
         * histogram); 8 bits less that pass: CUB's histogram */
        const int k = d->a, v = d->b, own = d->kind == K_PART_OWN;
        rc = gj_calk_sort(k, v, 8, s->n_sort, own, W, R, ms, &work, ctx);
        if (rc == GJ_OK) rc = gj_calk_sort(k, v, 16, s->n_sort, own, W, R, ms2, &work2, ctx);
        if (rc != GJ_OK) break;
        for (int i = 0; i < R; i++) {
            double pass = ms2[i] - ms[i], hist = ms[i] - pass;
            double t = d->kind == K_HIST ? hist : pass;
            double bytes = d->kind == K_HIST ? (double)k * work : 2.0 * (k + v) * work;
            vals[i] = t > 0 ? bytes / (t / 1e3) * 1e-9 : 0;
        }
        break;
    }
    case K_PART_PACK1: /* one 8-bit pass alone, pairs packed from two columns as it reads */
    case K_PART_WIDE:  /* the same on 9 hashed bits in one wide pass (PGB's first) */
        rc = gj_calk_sort(d->a, d->b, d->kind == K_PART_WIDE ? GJ_PART_WIDE_BITS : 8, s->n_sort,
                          d->kind == K_PART_WIDE ? 3 : 2, W, R, ms, &work, ctx);
        if (rc == GJ_OK) rates(ms, R, work * 2.0 * (d->a + d->b), 1e-9, vals);
        break;
    case K_SORT:
        rc = gj_calk_sort(d->a, d->b, 8 * d->a, s->n_sort, 0, W, R, ms, &work, ctx);
        if (rc == GJ_OK) rates(ms, R, work, 1e-9, vals);
        break;
    case K_ATOM_G:
        rc = gj_calk_atomic_global((uint64_t)d->a, s->quick ? 1u << 24 : 1u << 26, W, R, ms, &work, ctx);
        if (rc == GJ_OK) rates(ms, R, work, 1e-9, vals);
        break;
    case K_ATOM_S:
        rc = gj_calk_atomic_shared(d->a, s->quick ? 1024 : 4096, W, R, ms, &work, ctx);
        if (rc == GJ_OK) rates(ms, R, work, 1e-9, vals);
        break;
    case K_HT_BUILD_L2:
    case K_HT_PROBE_L2:
    case K_HT_BUILD_HBM:
    case K_HT_PROBE_HBM: {
        /* L2: keys + values at load 0.5 take 16 bytes per key: fill half the L2 */
        const int l2 = d->kind == K_HT_BUILD_L2 || d->kind == K_HT_PROBE_L2;
        const int probe = d->kind == K_HT_PROBE_L2 || d->kind == K_HT_PROBE_HBM;
        uint64_t keys = l2 ? pow2_below(s->l2_half / 16) : s->n_gather / 2;
        uint64_t probes = s->n_gather / 2;
        rc = gj_calk_hash(probe, d->a, keys, probes, W, R, ms, &work, ctx);
        if (rc == GJ_OK) rates(ms, R, work, 1e-9, vals);
        break;
    }
    case K_LAUNCH:
        rc = gj_calk_launch(s->quick ? 500 : 2000, W, R, ms, &work, ctx);
        for (int i = 0; rc == GJ_OK && i < R; i++) vals[i] = ms[i] * 1e3 / work;
        break;
    case K_MALLOC:
        rc = gj_calk_malloc(1 << 20, s->quick ? 20 : 50, W, R, ms, &work, ctx);
        for (int i = 0; rc == GJ_OK && i < R; i++) vals[i] = ms[i] * 1e3 / work;
        break;
    case K_HOSTCOPY:
        /* pageable copies go through the driver's staging buffers and the
         * host's page tables: warm up longer */
        rc = gj_calk_hostcopy(d->a, d->b, s->quick ? 64u << 20 : 256u << 20, W + 3, R, ms, &work, ctx);
        if (rc == GJ_OK) rates(ms, R, work, 1e-9, vals);
        break;
    case K_STRUCT:
        break;
    }
    return rc;
}

static double struct_value(const gj_device *dev, int which)
{
    switch (which) {
    case 0: return dev->sm_count;
    case 1: return (double)dev->smem_per_sm;
    case 2: return (double)dev->smem_per_block;
    case 3: return (double)dev->l2_bytes;
    default: return (double)dev->mem_bytes;
    }
}

static int add_samples(gj_calib_report *r, const char *key, const double *v, int n, int first_run)
{
    gj_sample *s = realloc(r->samples, (size_t)(r->n_samples + n) * sizeof *s);
    if (!s) return GJ_ERR_NOMEM;
    r->samples = s;
    for (int i = 0; i < n; i++) {
        s[r->n_samples].key = key;
        s[r->n_samples].run = first_run + i;
        s[r->n_samples].value = v[i];
        r->n_samples++;
    }
    return GJ_OK;
}

void gj_calibrate_report_free(gj_calib_report *r)
{
    if (!r) return;
    free(r->samples);
    free(r);
}

int gj_calibrate_run(const gj_calib_opts *o, gj_profile **out, gj_calib_report **report, gj_ctx *ctx)
{
    int rc = GJ_OK, ngpu = 0;
    cal_state s;
    gj_calib_report *r = NULL;
    gj_profile *p = NULL;
    size_t total = 0;
    char name[64], created[32], notes[256];
    double t_start = now_s();
    memset(&s, 0, sizeof s);
    if (out) *out = NULL;
    if (report) *report = NULL;
    if (!o || !out || !report || o->device < 0 || o->spread_limit < 0 || !isfinite(o->spread_limit) ||
        (o->name && !gj_profile_name_ok(o->name))) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "calibrate: opts, out and report are required; device >= 0; "
                       "spread_limit >= 0; name of 1..63 [A-Za-z0-9._-]");
        goto done;
    }
    const double limit = o->spread_limit > 0 ? o->spread_limit : 0.05;
    if ((rc = gj_gpu_count(&ngpu, ctx)) != GJ_OK) goto done;
    if ((rc = gj_gpu_identify(o->device, &s.dev, ctx)) != GJ_OK) goto done;
    cudaError_t e = cudaSetDevice(o->device);
    if (e == cudaSuccess) e = cudaFree(NULL); /* create the context now, outside any timing */
    if (e == cudaSuccess) e = cudaMemGetInfo(&s.free_bytes, &total);
    if (e != cudaSuccess) {
        cudaGetLastError();
        rc = gj_seterr(ctx, GJ_ERR_CUDA, "calibrate: device %d: %s", o->device, cudaGetErrorString(e));
        goto done;
    }
    if (!(r = calloc(1, sizeof *r))) {
        rc = gj_seterr(ctx, GJ_ERR_NOMEM, "calibrate: out of memory");
        goto done;
    }
    gj_cal_profile_name(s.dev.name, name, sizeof name);
    if ((rc = gj_profile_new(o->name ? o->name : name, &p)) != GJ_OK) {
        gj_seterr(ctx, rc, "calibrate: cannot create profile %s", o->name ? o->name : name);
        goto done;
    }
    /* Sizes from the device: the paper's 2^27 items where memory allows,
     * every benchmark's footprint within a third of free memory. */
    {
        const double budget = (double)s.free_bytes / 3;
        s.quick = o->quick;
        /* --quick keeps the sizes (a gather source far larger than the L2
         * matters more than time) and cuts repetitions */
        s.reps = o->quick ? 7 : 15;
        s.warmup = 1;
        s.inner = o->quick ? 4 : 8;
        s.n_gather = fit_pow2(1u << 27, 16, budget, 1u << 16);
        s.n_sort = fit_pow2(o->quick ? 1u << 26 : 1u << 27, 40, budget, 1u << 16);
        s.seq_bytes = fit_pow2(2048ull << 20, 1, budget, 1u << 22);
        s.l2_half = pow2_below(s.dev.l2_bytes > (1u << 17) ? s.dev.l2_bytes / 2 : 1u << 16);
        if (s.l2_half / 4 > s.n_gather) s.l2_half = s.n_gather * 4; /* L2 gather source <= n items */
    }
    r->quick = o->quick;
    /* Spin-up: an idle GPU sits at low clocks; stream reads until the clocks
     * have settled, so the first measurements are not the ramp. */
    {
        double t_spin = now_s(), spin_ms[MAX_REPS], spin_work;
        do {
            if ((rc = gj_calk_seq(0, s.seq_bytes, 4, 0, MAX_REPS, spin_ms, &spin_work, ctx)) != GJ_OK)
                goto done;
        } while (now_s() - t_spin < (o->quick ? 0.6 : 1.0));
    }
    for (int i = 0; i < NITEMS; i++) {
        const item_def *d = &items[i];
        gj_calib_item *it = &r->items[r->n_items];
        double t0 = now_s(), v1[MAX_REPS], v2[MAX_REPS];
        gj_cal_stat st1, st2;
        memset(it, 0, sizeof *it);
        it->key = d->key;
        if (d->kind == K_STRUCT) {
            it->value = struct_value(&s.dev, d->a);
        } else {
            if ((rc = measure(&s, d, v1, ctx)) != GJ_OK) goto done;
            if ((rc = gj_cal_summarize(v1, s.reps, &st1)) != GJ_OK ||
                (rc = add_samples(r, d->key, v1, s.reps, 0)) != GJ_OK) {
                gj_seterr(ctx, rc, "calibrate: %s: summarising failed", d->key);
                goto done;
            }
            const gj_cal_stat *keep = &st1;
            if (st1.spread > limit) {
                it->rerun = 1;
                if ((rc = measure(&s, d, v2, ctx)) != GJ_OK) goto done;
                if ((rc = gj_cal_summarize(v2, s.reps, &st2)) != GJ_OK ||
                    (rc = add_samples(r, d->key, v2, s.reps, s.reps)) != GJ_OK) {
                    gj_seterr(ctx, rc, "calibrate: %s: summarising failed", d->key);
                    goto done;
                }
                if (gj_cal_pick(&st1, &st2)) keep = &st2;
                it->wide = keep->spread > limit;
            }
            it->value = keep->median;
            it->spread = keep->spread;
            it->reps = s.reps;
            if (!(it->value > 0)) {
                rc = gj_seterr(ctx, GJ_ERR_CUDA, "calibrate: %s measured %g: the timings do not "
                               "support a positive value", d->key, it->value);
                goto done;
            }
        }
        if ((rc = gj_profile_set(p, d->key, it->value, it->spread, GJ_SRC_MEASURED)) != GJ_OK) {
            gj_seterr(ctx, rc, "calibrate: %s = %g rejected by the profile", d->key, it->value);
            goto done;
        }
        if (!strcmp(d->key, "bw_seq")) s.bg = it->value * 1e9 / 1e3; /* bytes per ms */
        it->seconds = now_s() - t0;
        r->n_items++;
        if (o->progress) o->progress(o->user, i, NITEMS, it);
    }
    gj_now_iso(created, sizeof created);
    snprintf(notes, sizeof notes,
             "%s run, %d reps, spread=IQR/median (re-run above %.0f%%); B_G=copy rd+wr; gather n=2^%d; "
             "B_R=4n/(t_unc-t_clu+4n/B_G); part pass=t16-t8 bits CUB (pair: own partition) n=2^%d",
             o->quick ? "quick" : "full", s.reps, limit * 100, (int)log2((double)s.n_gather),
             (int)log2((double)s.n_sort));
    if ((rc = gj_profile_set_device(p, &s.dev)) != GJ_OK ||
        (rc = gj_profile_set_meta(p, "calibrate", created, notes, 1, -1)) != GJ_OK) {
        gj_seterr(ctx, rc, "calibrate: setting the profile's device and metadata failed");
        goto done;
    }
    r->wall_s = now_s() - t_start;
    *out = p;
    *report = r;
    p = NULL;
    r = NULL;
done:
    gj_profile_free(p);
    gj_calibrate_report_free(r);
    return rc;
}

int gj_calibrate_report_json(const gj_calib_report *r, const gj_profile *p, char **json)
{
    int rc = GJ_OK;
    char *pj = NULL;
    gj_sbuf b = {0};
    if (!json) return GJ_ERR_INVALID;
    *json = NULL;
    if (!r || !p) return GJ_ERR_INVALID;
    if ((rc = gj_profile_to_json(p, &pj)) != GJ_OK) goto done;
    gj_sbuf_printf(&b, "{\"profile\":%s,\"quick\":%s,\"wall_s\":", pj, r->quick ? "true" : "false");
    gj_sbuf_json_num(&b, r->wall_s);
    gj_sbuf_printf(&b, ",\"n_samples\":%d,\"measurements\":[", r->n_samples);
    for (int i = 0; i < r->n_items; i++) {
        const gj_calib_item *it = &r->items[i];
        const gj_param_info *pi = gj_param_find(it->key, NULL);
        gj_sbuf_printf(&b, "%s{\"key\":", i ? "," : "");
        gj_sbuf_json_str(&b, it->key);
        gj_sbuf_printf(&b, ",\"value\":");
        gj_sbuf_json_num(&b, it->value);
        gj_sbuf_printf(&b, ",\"unit\":");
        gj_sbuf_json_str(&b, pi ? pi->unit : "");
        gj_sbuf_printf(&b, ",\"spread\":");
        gj_sbuf_json_num(&b, it->spread);
        gj_sbuf_printf(&b, ",\"reps\":%d,\"rerun\":%s,\"wide\":%s,\"seconds\":", it->reps,
                       it->rerun ? "true" : "false", it->wide ? "true" : "false");
        gj_sbuf_json_num(&b, it->seconds);
        gj_sbuf_printf(&b, "}");
    }
    gj_sbuf_printf(&b, "]}");
    rc = gj_sbuf_take(&b, json);
done:
    gj_free(pj);
    return rc;
}
