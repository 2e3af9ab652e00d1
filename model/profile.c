/* Hardware parameters, profiles and the built-in profiles.
 *
 * The parameter table is the single place that names every gj_hw field:
 * the store, JSON and the CLI all go through it. */
#include "model/profile.h"
#include "model/model.h"
#include "common/internal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define P(field, unit, what) { #field, unit, what, offsetof(gj_hw, field) }
static const gj_param_info params[] = {
    P(bw_seq, "GB/s", "B_G: sequential device-memory copy bandwidth (read + write)"),
    P(bw_seq_read, "GB/s", "sequential read bandwidth"),
    P(bw_seq_write, "GB/s", "sequential write bandwidth"),
    P(bw_rand, "GB/s", "B_R: unclustered 4-byte GATHER bandwidth from HBM (Sec. 4.1.1)"),
    P(bw_rand_l2, "GB/s", "unclustered GATHER bandwidth, source resident in L2"),
    P(bw_u1, "GB/s", "GATHER bandwidth, a warp touching 1 cache line"),
    P(bw_u2, "GB/s", "GATHER bandwidth, a warp touching 2 cache lines"),
    P(bw_u4, "GB/s", "GATHER bandwidth, a warp touching 4 cache lines"),
    P(bw_u8, "GB/s", "GATHER bandwidth, a warp touching 8 cache lines"),
    P(bw_u16, "GB/s", "GATHER bandwidth, a warp touching 16 cache lines"),
    P(bw_u32, "GB/s", "GATHER bandwidth, a warp touching 32 cache lines"),
    P(bw_l1, "GB/s", "B_M of L1/shared memory, sequential, whole device"),
    P(bw_l1_rand, "GB/s", "shared memory, random 4-byte accesses, whole device"),
    P(bw_l2, "GB/s", "B_M of L2, sequential"),
    P(bw_l2_rand, "GB/s", "L2, random 4-byte accesses"),
    P(bw_hist, "GB/s", "radix histogram pass, key bytes read"),
    P(bw_part_k4v4, "GB/s", "one 8-bit RADIX-PARTITION pass, 4-byte keys/4-byte values, bytes read + written"),
    P(bw_part_k4v8, "GB/s", "one 8-bit RADIX-PARTITION pass, 4-byte keys/8-byte values"),
    P(bw_part_k8v8, "GB/s", "one 8-bit RADIX-PARTITION pass, 8-byte keys/8-byte values"),
    P(bw_part_pair, "GB/s", "one 8-bit pass of the operators' own partition, histogram included, 4-byte keys/packed 8-byte pairs"),
    P(bw_part_pair1, "GB/s", "the own partition's first pass alone, packing pairs from two 4-byte columns as it reads"),
    P(bw_part_wide, "GB/s", "the same first pass on 9 hashed key bits in one wide pass (PGB)"),
    P(sort_k32, "Gpair/s", "full radix sort, 4-byte keys with 4-byte values"),
    P(sort_k64, "Gpair/s", "full radix sort, 8-byte keys with 4-byte values"),
    P(atom_g_t1, "Gop/s", "global atomics, all threads on 1 target"),
    P(atom_g_t32, "Gop/s", "global atomics over 32 targets"),
    P(atom_g_t1k, "Gop/s", "global atomics over 1024 targets"),
    P(atom_g_t1m, "Gop/s", "global atomics over 2^20 targets"),
    P(atom_s_t1, "Gop/s", "shared-memory atomics, 1 target per block, whole device"),
    P(atom_s_t32, "Gop/s", "shared-memory atomics, 32 targets per block"),
    P(atom_s_t1k, "Gop/s", "shared-memory atomics, 1024 targets per block"),
    P(ht_build_l2, "Gop/s", "hash-table inserts, table resident in L2"),
    P(ht_probe_l2, "Gop/s", "hash-table probes, table resident in L2"),
    P(ht_build_hbm, "Gop/s", "hash-table inserts, table in HBM"),
    P(ht_probe_hbm, "Gop/s", "hash-table probes, table in HBM"),
    P(ht_slot_build_l2, "Gop/s", "hash-table inserts, key and value in one 8-byte slot, table in L2"),
    P(ht_slot_probe_l2, "Gop/s", "hash-table probes, key and value in one 8-byte slot, table in L2"),
    P(ht_slot_build_hbm, "Gop/s", "hash-table inserts, key and value in one 8-byte slot, table in HBM"),
    P(ht_slot_probe_hbm, "Gop/s", "hash-table probes, key and value in one 8-byte slot, table in HBM"),
    P(launch_us, "us", "kernel launch, back to back"),
    P(malloc_us, "us", "cudaMalloc + cudaFree pair"),
    P(h2d_pageable, "GB/s", "host to device copy, pageable memory"),
    P(h2d_pinned, "GB/s", "host to device copy, pinned memory"),
    P(d2h_pageable, "GB/s", "device to host copy, pageable memory"),
    P(d2h_pinned, "GB/s", "device to host copy, pinned memory"),
    P(sm_count, "count", "streaming multiprocessors"),
    P(l1_bytes, "bytes", "L1 + shared memory per SM"),
    P(smem_per_block, "bytes", "largest shared memory one block may use"),
    P(l2_bytes, "bytes", "L2 cache size"),
    P(mem_bytes, "bytes", "device memory"),
};
#undef P
#define NPARAMS ((int)(sizeof params / sizeof params[0]))
_Static_assert(sizeof params / sizeof params[0] <= GJ_MAX_PARAMS, "raise GJ_MAX_PARAMS");
_Static_assert(sizeof params / sizeof params[0] == sizeof(gj_hw) / sizeof(double),
               "every gj_hw field must have a row in params[]");

int gj_param_count(void) { return NPARAMS; }

const gj_param_info *gj_param_at(int i)
{
    return (i >= 0 && i < NPARAMS) ? &params[i] : &params[0];
}

const gj_param_info *gj_param_find(const char *key, int *index)
{
    if (!key) return NULL;
    for (int i = 0; i < NPARAMS; i++)
        if (!strcmp(params[i].key, key)) {
            if (index) *index = i;
            return &params[i];
        }
    return NULL;
}

double *gj_param_ptr(gj_hw *hw, int i) { return (double *)((char *)hw + params[i].offset); }

static double param_get(const gj_hw *hw, int i)
{
    return *(const double *)((const char *)hw + params[i].offset);
}

const char *gj_source_name(gj_source s)
{
    static const char *names[] = {"unset", "paper", "derived", "assumed", "measured", "tuned"};
    return (s >= GJ_SRC_UNSET && s <= GJ_SRC_TUNED) ? names[s] : "unset";
}

int gj_profile_name_ok(const char *name)
{
    if (!name) return 0;
    size_t n = strlen(name);
    if (n == 0 || n > 63) return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && !strchr("._-", name[i])) return 0;
    return 1;
}

int gj_profile_new(const char *name, gj_profile **out)
{
    if (!out) return GJ_ERR_INVALID;
    *out = NULL;
    if (!gj_profile_name_ok(name)) return GJ_ERR_INVALID;
    gj_profile *p = calloc(1, sizeof *p);
    if (!p) return GJ_ERR_NOMEM;
    gj_strlcpy(p->name, name, sizeof p->name);
    gj_strlcpy(p->origin, "import", sizeof p->origin);
    p->version = 1;
    p->fit_error = -1;
    *out = p;
    return GJ_OK;
}

int gj_profile_clone(const gj_profile *p, gj_profile **out)
{
    if (!p || !out) return GJ_ERR_INVALID;
    *out = malloc(sizeof **out);
    if (!*out) return GJ_ERR_NOMEM;
    **out = *p;
    return GJ_OK;
}

void gj_profile_free(gj_profile *p) { free(p); }

/* ---- learned corrections (T-FIT) ----------------------------------------- */

static const char *const term_names[GJ_TERMS] = {"seq",  "partition", "sort", "gather",
                                                 "hash", "atomic",    "fixed"};

const char *gj_term_name(gj_term t) { return t >= 0 && t < GJ_TERMS ? term_names[t] : NULL; }

int gj_term_parse(const char *s, gj_term *out)
{
    for (int i = 0; s && i < GJ_TERMS; i++)
        if (!strcmp(s, term_names[i])) {
            if (out) *out = (gj_term)i;
            return GJ_OK;
        }
    return GJ_ERR_NOTFOUND;
}

static int fit_ok(const gj_fit *f)
{
    for (int k = 0; k < GJ_TERMS; k++)
        if (!isfinite(f->coef[k]) || f->coef[k] < 0) return 0;
    return isfinite(f->intercept_ms) && f->intercept_ms >= 0 && f->n_train >= 0 &&
           isfinite(f->err_train) && isfinite(f->err_holdout);
}

int gj_profile_set_fit(gj_profile *p, gj_impl impl, const gj_fit *f)
{
    if (!p || impl < 0 || impl >= GJ_IMPL_COUNT) return GJ_ERR_INVALID;
    if (!f) {
        memset(&p->fit[impl], 0, sizeof p->fit[impl]);
        return GJ_OK;
    }
    if (!fit_ok(f)) return GJ_ERR_INVALID;
    p->fit[impl] = *f;
    p->fit[impl].set = 1;
    return GJ_OK;
}

int gj_profile_get_fit(const gj_profile *p, gj_impl impl, gj_fit *out)
{
    if (!p || !out || impl < 0 || impl >= GJ_IMPL_COUNT) return GJ_ERR_INVALID;
    *out = p->fit[impl];
    if (!out->set) {
        memset(out, 0, sizeof *out);
        for (int k = 0; k < GJ_TERMS; k++) out->coef[k] = 1;
        out->err_holdout = -1;
    }
    return GJ_OK;
}

int gj_profile_estimate(gj_impl impl, const gj_workload *w, const gj_profile *p,
                        gj_estimate *out, gj_ctx *ctx)
{
    if (!p) return gj_seterr(ctx, GJ_ERR_INVALID, "profile must not be NULL");
    const gj_fit *f = impl >= 0 && impl < GJ_IMPL_COUNT ? &p->fit[impl] : NULL;
    return gj_model_estimate_fit(impl, w, &p->hw, f, out, ctx);
}

const char *gj_profile_name(const gj_profile *p) { return p ? p->name : ""; }
const gj_hw *gj_profile_hw(const gj_profile *p) { return p ? &p->hw : NULL; }
const gj_device *gj_profile_device(const gj_profile *p) { return p ? &p->dev : NULL; }
const char *gj_profile_origin(const gj_profile *p) { return p ? p->origin : ""; }
const char *gj_profile_created(const gj_profile *p) { return p ? p->created : ""; }
const char *gj_profile_notes(const gj_profile *p) { return p ? p->notes : ""; }
int gj_profile_version(const gj_profile *p) { return p ? p->version : 0; }
double gj_profile_fit_error(const gj_profile *p) { return p ? p->fit_error : -1; }

int gj_profile_set_name(gj_profile *p, const char *name)
{
    if (!p || !gj_profile_name_ok(name)) return GJ_ERR_INVALID;
    gj_strlcpy(p->name, name, sizeof p->name);
    return GJ_OK;
}

int gj_profile_set(gj_profile *p, const char *key, double value, double spread, gj_source src)
{
    int i;
    if (!p || !gj_param_find(key, &i)) return GJ_ERR_INVALID;
    if (!isfinite(value) || value < 0 || !isfinite(spread) || spread < 0) return GJ_ERR_INVALID;
    if (src < GJ_SRC_UNSET || src > GJ_SRC_TUNED) return GJ_ERR_INVALID;
    *gj_param_ptr(&p->hw, i) = value;
    p->spread[i] = spread;
    p->src[i] = value > 0 ? src : GJ_SRC_UNSET;
    return GJ_OK;
}

int gj_profile_get(const gj_profile *p, const char *key, double *value, double *spread,
                   gj_source *src)
{
    int i;
    if (!p || !gj_param_find(key, &i)) return GJ_ERR_NOTFOUND;
    if (value) *value = param_get(&p->hw, i);
    if (spread) *spread = p->spread[i];
    if (src) *src = p->src[i];
    return GJ_OK;
}

int gj_profile_set_device(gj_profile *p, const gj_device *dev)
{
    if (!p || !dev) return GJ_ERR_INVALID;
    p->dev = *dev;
    p->dev.name[sizeof p->dev.name - 1] = 0;
    p->dev.uuid[sizeof p->dev.uuid - 1] = 0;
    return GJ_OK;
}

int gj_profile_set_meta(gj_profile *p, const char *origin, const char *created, const char *notes,
                        int version, double fit_error)
{
    if (!p || version < 1) return GJ_ERR_INVALID;
    if (origin) gj_strlcpy(p->origin, origin, sizeof p->origin);
    if (created) gj_strlcpy(p->created, created, sizeof p->created);
    if (notes) gj_strlcpy(p->notes, notes, sizeof p->notes);
    p->version = version;
    p->fit_error = fit_error;
    return GJ_OK;
}

/* Fill an unset parameter with `value`, marked DERIVED. */
static void derive(gj_profile *p, const char *key, double value)
{
    int i;
    gj_param_find(key, &i);
    if (p->src[i] == GJ_SRC_UNSET && value > 0) {
        *gj_param_ptr(&p->hw, i) = value;
        p->src[i] = GJ_SRC_DERIVED;
        p->spread[i] = 0;
    }
}

int gj_profile_complete(gj_profile *p)
{
    if (!p || !(p->hw.bw_seq > 0)) return GJ_ERR_INVALID;
    gj_hw *h = &p->hw;
    double bg = h->bw_seq;
    /* Sec. 4.1.1: B_G ~ 24 B_R; Sec. 4.4: L1 ~ 12 B_G, L2 ~ 4.5 B_G (A100),
     * random accesses to a memory level at a 24th of its bandwidth. */
    derive(p, "bw_seq_read", bg);
    derive(p, "bw_seq_write", bg);
    derive(p, "bw_rand", bg / 24);
    derive(p, "bw_l1", 12 * bg);
    derive(p, "bw_l2", 4.5 * bg);
    derive(p, "bw_l1_rand", h->bw_l1 / 24);
    derive(p, "bw_l2_rand", h->bw_l2 / 24);
    derive(p, "bw_rand_l2", h->bw_l2_rand);
    /* Sec. 4.1.3: a warp touching u lines gathers at max(B_G/u, B_R). */
    static const char *u_keys[] = {"bw_u1", "bw_u2", "bw_u4", "bw_u8", "bw_u16", "bw_u32"};
    for (int k = 0; k < 6; k++) derive(p, u_keys[k], fmax(bg / (1 << k), h->bw_rand));
    /* Sec. 2.3 / 4.1.3: transformation passes are sequential at B_G. */
    derive(p, "bw_hist", bg);
    derive(p, "bw_part_k4v4", bg);
    derive(p, "bw_part_k4v8", bg);
    derive(p, "bw_part_k8v8", bg);
    derive(p, "bw_part_pair", gj_part_pair_default(h));
    derive(p, "bw_part_pair1", h->bw_part_pair); /* no first-pass cost beyond a pass */
    /* a 9-bit pass at the cost bench/bits_probe measured on an H100 */
    derive(p, "bw_part_wide", h->bw_part_pair1 / GJ_PART_WIDE_COST);
    /* M-413-CS: a 4/4 sort moves 17 x 4 bytes per pair; an 8/4 sort moves
     * 8 (histogram) + 8 passes x 2 x 12 bytes = 200 bytes per pair. */
    derive(p, "sort_k32", bg / 68);
    derive(p, "sort_k64", bg / 200);
    /* Assumed until calibrated. Global atomics resolve in L2: spread over
     * many targets they run at L2's random rate; on one address they
     * serialise to about one per clock. Shared-memory atomics: about half a
     * warp's worth per clock per SM without conflicts, one per clock per SM
     * on a single address. */
    double ghz = p->dev.clock_mhz > 0 ? p->dev.clock_mhz / 1e3 : 1.4;
    double sms = h->sm_count > 0 ? h->sm_count : (p->dev.sm_count > 0 ? p->dev.sm_count : 100);
    derive(p, "atom_g_t1", ghz);
    derive(p, "atom_g_t32", fmin(32 * ghz, h->bw_l2_rand / 4));
    derive(p, "atom_g_t1k", h->bw_l2_rand / 4);
    derive(p, "atom_g_t1m", h->bw_l2_rand / 4);
    derive(p, "atom_s_t1", sms * ghz);
    derive(p, "atom_s_t32", sms * ghz * 16);
    derive(p, "atom_s_t1k", sms * ghz * 16);
    derive(p, "ht_build_l2", h->bw_l2_rand / 8);
    derive(p, "ht_probe_l2", h->bw_l2_rand / 8);
    derive(p, "ht_build_hbm", h->bw_rand / 8);
    derive(p, "ht_probe_hbm", h->bw_rand / 8);
    /* not measured (profiles from before they were): no faster than two arrays */
    derive(p, "ht_slot_build_l2", h->ht_build_l2);
    derive(p, "ht_slot_probe_l2", h->ht_probe_l2);
    derive(p, "ht_slot_build_hbm", h->ht_build_hbm);
    derive(p, "ht_slot_probe_hbm", h->ht_probe_hbm);
    derive(p, "launch_us", 5);
    derive(p, "malloc_us", 20);
    derive(p, "h2d_pageable", 12);
    derive(p, "h2d_pinned", 25);
    derive(p, "d2h_pageable", 12);
    derive(p, "d2h_pinned", 25);
    derive(p, "sm_count", p->dev.sm_count);
    derive(p, "l2_bytes", (double)p->dev.l2_bytes);
    derive(p, "mem_bytes", (double)p->dev.mem_bytes);
    derive(p, "smem_per_block", (double)p->dev.smem_per_block);
    derive(p, "l1_bytes", (double)p->dev.smem_per_sm);
    return GJ_OK;
}

/* The paper's A100 (Sec. 4.1.1, 4.4 and 5): B_G = 1555 GB/s, B_R = B_G/24,
 * L1 = 12 B_G, L2 = 4.5 B_G, 108 SMs, 192 KB L1/shared, 40 MB L2, 40 GB. */
static int builtin_a100(gj_profile *p)
{
    static const gj_device dev = {
        .name = "NVIDIA A100-SXM4-40GB (paper 000 parameters)",
        .uuid = "",
        .cc_major = 8, .cc_minor = 0, .sm_count = 108,
        .mem_bytes = 40ULL << 30, .l2_bytes = 40ULL << 20,
        .smem_per_block = 163 * 1024, .smem_per_sm = 192 * 1024,
        .clock_mhz = 1410, .mem_clock_mhz = 1215, .mem_bus_bits = 5120,
    };
    const double bg = 1555;
    int rc = GJ_OK;
    rc |= gj_profile_set(p, "bw_seq", bg, 0, GJ_SRC_PAPER);
    rc |= gj_profile_set(p, "bw_rand", bg / 24, 0, GJ_SRC_PAPER);
    rc |= gj_profile_set(p, "bw_l1", 12 * bg, 0, GJ_SRC_PAPER);
    rc |= gj_profile_set(p, "bw_l2", 4.5 * bg, 0, GJ_SRC_PAPER);
    rc |= gj_profile_set(p, "sm_count", 108, 0, GJ_SRC_PAPER);
    rc |= gj_profile_set(p, "l1_bytes", 192 * 1024, 0, GJ_SRC_PAPER);
    rc |= gj_profile_set(p, "l2_bytes", 40.0 * (1 << 20), 0, GJ_SRC_PAPER);
    rc |= gj_profile_set(p, "mem_bytes", 40.0 * (1 << 30), 0, GJ_SRC_PAPER);
    rc |= gj_profile_set(p, "smem_per_block", 163 * 1024, 0, GJ_SRC_ASSUMED);
    rc |= gj_profile_set_device(p, &dev);
    rc |= gj_profile_set_meta(p, "builtin", "2025-02-01T00:00:00Z",
                              "A100 as described in paper 000 (SIGMOD 2025); unmeasured "
                              "parameters derived by the paper's rules or assumed",
                              1, -1);
    return rc ? GJ_ERR_INVALID : gj_profile_complete(p);
}

/* Built-ins measured by `gjadvise calibrate` are kept as JSON in
 * model/builtin_json.c; the paper's A100 is built from its printed values. */
typedef struct gj_builtin_entry {
    const char *name;
    const char *json;
    const char *base; /* NULL, or the built-in whose parameters and device it
                         shares: json then carries only its own identity and
                         learned corrections (fits) */
} gj_builtin_entry;
extern const gj_builtin_entry gj_builtin_profiles[];
extern const int gj_builtin_profiles_count;

int gj_profile_builtin_count(void) { return 1 + gj_builtin_profiles_count; }

const char *gj_profile_builtin_name(int i)
{
    if (i == 0) return "a100-paper";
    if (i < 0 || i > gj_builtin_profiles_count) return NULL;
    return gj_builtin_profiles[i - 1].name;
}

int gj_profile_builtin(const char *name, gj_profile **out)
{
    if (!name || !out) return GJ_ERR_INVALID;
    *out = NULL;
    if (!strcmp(name, "a100-paper")) {
        int rc = gj_profile_new(name, out);
        if (rc == GJ_OK && (rc = builtin_a100(*out)) != GJ_OK) {
            gj_profile_free(*out);
            *out = NULL;
        }
        return rc;
    }
    for (int i = 0; i < gj_builtin_profiles_count; i++) {
        const gj_builtin_entry *e = &gj_builtin_profiles[i];
        if (strcmp(e->name, name)) continue;
        if (!e->base) return gj_profile_from_json(e->json, out, NULL);
        /* an overlay: the base's parameters and device, its own name,
         * metadata and corrections */
        gj_profile *base = NULL, *over = NULL;
        int rc = gj_profile_builtin(e->base, &base);
        if (rc == GJ_OK) rc = gj_profile_from_json(e->json, &over, NULL);
        if (rc == GJ_OK) {
            gj_strlcpy(base->name, over->name, sizeof base->name);
            gj_strlcpy(base->origin, over->origin, sizeof base->origin);
            gj_strlcpy(base->created, over->created, sizeof base->created);
            gj_strlcpy(base->notes, over->notes, sizeof base->notes);
            base->version = over->version;
            base->fit_error = over->fit_error;
            memcpy(base->fit, over->fit, sizeof base->fit);
            *out = base;
            base = NULL;
        }
        gj_profile_free(base);
        gj_profile_free(over);
        return rc;
    }
    return GJ_ERR_NOTFOUND;
}
