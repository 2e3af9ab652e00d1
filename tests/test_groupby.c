/* Group-by operators against the CPU reference (operators/groupby_ref.c) on
 * seeded random inputs: 0 and 1 rows, g = 1, g = |R|, uniform and Zipf 1.5
 * keys, 8-byte keys with high bits set, int/float 4/8-byte payloads, every
 * aggregate, a wrong group-count hint (tables must grow), odd sizes around
 * the PGB chunk size. Float sums: |gpu - ref| <= 1e-9 (|ref| + rows * 1e3)
 * (both sum in double; only the order differs). GPU tests skip() without a
 * device. The reference itself is checked by hand on a tiny table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gjadvise.h"
#include "testutil.h"
#include "model/model.h"
#include "operators/groupby.h"
#include "operators/shapes.h"

static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int have_gpu(void)
{
    int n = 0;
    return gj_gpu_count(&n, NULL) == GJ_OK && n > 0;
}

/* ---- the reference on a table small enough to check by hand ---- */
static void test_ref_by_hand(void **state)
{
    (void)state;
    uint32_t k[] = {7, 3, 7, 3, 9, 7, 0};
    int32_t v[] = {5, -2, 1, -2, 4, 3};
    gj_htable t = {.rows = 6, .key_width = 4, .key = k, .n_payloads = 2};
    t.payload_width[0] = t.payload_width[1] = 4;
    t.payload[0] = t.payload[1] = v;
    gj_agg aggs[] = {GJ_AGG_SUM, GJ_AGG_MAX};
    gj_href r;
    assert_int_equal(gj_groupby_ref(&t, 2, aggs, &r, NULL), GJ_OK);
    assert_int_equal(r.groups, 3);
    assert_int_equal(r.key[0], 3);
    assert_int_equal(r.key[1], 7);
    assert_int_equal(r.key[2], 9);
    assert_int_equal(((int64_t *)r.agg[0])[0], -4);
    assert_int_equal(((int64_t *)r.agg[0])[1], 9);
    assert_int_equal(((int32_t *)r.agg[1])[1], 5);
    gj_groupby_ref_free(&r);
    gj_agg med[] = {GJ_AGG_MEDIAN, GJ_AGG_COUNT_DISTINCT};
    assert_int_equal(gj_groupby_ref(&t, 2, med, &r, NULL), GJ_OK);
    assert_true(((double *)r.agg[0])[0] == -2.0);
    assert_true(((double *)r.agg[0])[1] == 3.0);
    assert_int_equal(((uint64_t *)r.agg[1])[0], 1);
    assert_int_equal(((uint64_t *)r.agg[1])[1], 3);
    gj_groupby_ref_free(&r);
}

static void test_supports(void **state)
{
    (void)state;
    assert_true(gj_groupby_supports(GJ_IMPL_HGB, GJ_AGG_MAX));
    assert_false(gj_groupby_supports(GJ_IMPL_HGB, GJ_AGG_MEDIAN));
    assert_false(gj_groupby_supports(GJ_IMPL_PGB_TR, GJ_AGG_COUNT_DISTINCT));
    assert_true(gj_groupby_supports(GJ_IMPL_SGB_DE_TR, GJ_AGG_MEDIAN));
    assert_false(gj_groupby_supports(GJ_IMPL_PHJ_UR, GJ_AGG_SUM));
}

/* ---- one case ---- */
typedef struct gcase {
    const char *name;
    uint64_t n, g;        /* rows, key domain                          */
    uint64_t hint;        /* workload.groups given to the operator     */
    int kw;               /* key width                                 */
    uint64_t key_offset;  /* added to every key (8-byte high bits)     */
    double zipf;          /* 0: uniform                                */
    int perm;             /* keys are a permutation of 0..n-1 (g = n)  */
    int n_aggs;
    gj_agg aggs[GJ_MAX_AGGS];
    int pw[GJ_MAX_AGGS];
    gj_dtype pt[GJ_MAX_AGGS];
    int sorted;
    int sparse;           /* 1: keys then through murmur3's finaliser:
                             no dense range for a hash to spread;
                             2: only rows i = 7 mod 16, far from the
                             dense range, where HGB's strided sample
                             (every 16th row at 2^20 rows) never looks */
    int in_order;         /* 1: the rows sorted by key (unsigned), as a
                             table stored by its key; 2: the same with the
                             smallest key moved last (one descent); 3:
                             rows 2047 and 2048 swapped (a descent where
                             the operator's tiles and blocks meet); the
                             operator is told sorted_keys for all three */
    int misalign;         /* columns start one element past an allocation
                             (not 16-byte aligned: no vector loads) */
    uint64_t krange;      /* workload.key_range told to the operator
                             (0: unknown) */
} gcase;

static int cmp_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}
static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t mix_key(uint64_t k, int kw)
{
    return kw == 4 ? test_fmix32((uint32_t)k) : test_fmix64(k);
}

static void make_keys(const gcase *c, void *keys)
{
    double *cdf = NULL;
    if (c->zipf > 0) {
        cdf = malloc(c->g * sizeof *cdf);
        double s = 0;
        for (uint64_t r = 0; r < c->g; r++) cdf[r] = (s += pow((double)(r + 1), -c->zipf));
        for (uint64_t r = 0; r < c->g; r++) cdf[r] /= s;
    }
    for (uint64_t i = 0; i < c->n; i++) {
        uint64_t k;
        if (c->perm) k = i;
        else if (cdf) {
            double u = (double)(rnd() >> 11) / 9007199254740992.0;
            uint64_t lo = 0, hi = c->g - 1;
            while (lo < hi) { uint64_t m = (lo + hi) / 2; if (cdf[m] < u) lo = m + 1; else hi = m; }
            k = (lo * 2654435761ull) % c->g; /* hot ranks spread over the key range */
        } else k = rnd() % c->g;
        k += c->key_offset;
        if (c->sparse == 1 || (c->sparse == 2 && i % 16 == 7)) k = mix_key(c->kw == 4 ? (uint32_t)k : k, c->kw);
        if (c->kw == 4) ((uint32_t *)keys)[i] = (uint32_t)k; else ((uint64_t *)keys)[i] = k;
    }
    if (c->perm) /* shuffle */
        for (uint64_t i = c->n; i > 1; i--) {
            uint64_t j = rnd() % i;
            if (c->kw == 4) { uint32_t *a = keys, x = a[i - 1]; a[i - 1] = a[j]; a[j] = x; }
            else { uint64_t *a = keys, x = a[i - 1]; a[i - 1] = a[j]; a[j] = x; }
        }
    if (c->in_order) {
        qsort(keys, c->n, (size_t)c->kw, c->kw == 4 ? cmp_u32 : cmp_u64);
        if (c->in_order == 2 && c->n > 1) { /* the smallest key last */
            if (c->kw == 4) { uint32_t *a = keys, x = a[0]; memmove(a, a + 1, (c->n - 1) * 4); a[c->n - 1] = x; }
            else { uint64_t *a = keys, x = a[0]; memmove(a, a + 1, (c->n - 1) * 8); a[c->n - 1] = x; }
        }
        if (c->in_order == 3 && c->n > 2048) {
            if (c->kw == 4) { uint32_t *a = keys, x = a[2047]; a[2047] = a[2048]; a[2048] = x; }
            else { uint64_t *a = keys, x = a[2047]; a[2047] = a[2048]; a[2048] = x; }
        }
    }
    free(cdf);
}

static void make_vals(int w, gj_dtype t, uint64_t n, void *v)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = rnd();
        if (t == GJ_DT_FLOAT) {
            double d = ((double)(r >> 11) / 9007199254740992.0) * 2000.0 - 1000.0;
            if (w == 4) ((float *)v)[i] = (float)d; else ((double *)v)[i] = d;
        } else if (w == 4) ((int32_t *)v)[i] = (int32_t)(r % 2001) - 1000; /* duplicates for count-distinct */
        else ((int64_t *)v)[i] = (int64_t)r;
    }
}

typedef struct hres { uint64_t key; uint64_t idx; } hres;
static int cmp_hres(const void *a, const void *b)
{
    uint64_t x = ((const hres *)a)->key, y = ((const hres *)b)->key;
    return x < y ? -1 : x > y;
}

static int run_case(gj_impl impl, const gcase *c)
{
    int bad = 0;
    uint64_t n = c->n;
    size_t nb = (n ? n : 1);
    void *hkey = malloc(nb * c->kw), *hval[GJ_MAX_AGGS] = {0};
    gj_dtable dt = {.rows = n, .key = {.width = c->kw}, .n_payloads = c->n_aggs};
    gj_htable ht = {.rows = n, .key_width = c->kw, .key = hkey, .n_payloads = c->n_aggs};
    void *dkey = NULL, *dval[GJ_MAX_AGGS] = {0}; /* the allocations (columns may start past them) */
    const size_t mis = c->misalign ? 1 : 0;
    make_keys(c, hkey);
    assert_int_equal(cudaMalloc(&dkey, (nb + mis) * c->kw), cudaSuccess);
    dt.key.data = (char *)dkey + mis * c->kw;
    assert_int_equal(cudaMemcpy(dt.key.data, hkey, n * c->kw, cudaMemcpyHostToDevice), cudaSuccess);
    for (int i = 0; i < c->n_aggs; i++) {
        hval[i] = malloc(nb * c->pw[i]);
        make_vals(c->pw[i], c->pt[i], n, hval[i]);
        ht.payload_width[i] = dt.payload[i].width = c->pw[i];
        ht.payload_type[i] = dt.payload[i].type = c->pt[i];
        ht.payload[i] = hval[i];
        assert_int_equal(cudaMalloc(&dval[i], (nb + mis) * c->pw[i]), cudaSuccess);
        dt.payload[i].data = (char *)dval[i] + mis * c->pw[i];
        assert_int_equal(cudaMemcpy(dt.payload[i].data, hval[i], n * c->pw[i], cudaMemcpyHostToDevice), cudaSuccess);
    }
    gj_workload w;
    gj_workload_default(&w, GJ_OP_GROUPBY);
    w.key_bytes = c->kw;
    w.rows = n;
    w.groups = c->hint;
    w.n_aggs = c->n_aggs;
    memcpy(w.aggs, c->aggs, sizeof w.aggs);
    w.sorted_output = c->sorted;
    w.sorted_keys = c->in_order != 0; /* 2: told so, wrongly */
    w.key_range = c->krange;
    w.zipf = c->zipf; /* the skew statistic: PGB's folding builds (shapes.h GJ_PGB_FOLD_ZIPF) */
    gj_href ref;
    assert_int_equal(gj_groupby_ref(&ht, c->n_aggs, c->aggs, &ref, NULL), GJ_OK);

    gj_ctx *ctx;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    gj_groupby_out out;
    gj_timing t;
    int rc = gj_groupby_execute(impl, &dt, &w, NULL, &out, &t, ctx);
    if (rc != GJ_OK) {
        print_error("%s %s: rc=%d %s\n", gj_impl_name(impl), c->name, rc, gj_ctx_errmsg(ctx));
        bad = 1;
        goto done;
    }
    if (t.n_phases != 2 || strcmp(t.name[0], "group") || strcmp(t.name[1], "aggregate")) bad = 1;
    if (out.groups != ref.groups) {
        print_error("%s %s: groups %llu, reference %llu\n", gj_impl_name(impl), c->name,
                    (unsigned long long)out.groups, (unsigned long long)ref.groups);
        bad = 1;
        goto done;
    }
    {
        uint64_t g = out.groups;
        size_t gb = g ? g : 1;
        void *ok = malloc(gb * c->kw), *oa[GJ_MAX_AGGS];
        hres *ord = malloc(gb * sizeof *ord);
        assert_int_equal(cudaMemcpy(ok, out.key.data, g * c->kw, cudaMemcpyDeviceToHost), cudaSuccess);
        for (int i = 0; i < c->n_aggs; i++) {
            if (out.agg[i].width != ref.width[i] || out.agg[i].type != ref.type[i]) bad = 1;
            oa[i] = malloc(gb * 8);
            assert_int_equal(cudaMemcpy(oa[i], out.agg[i].data, g * out.agg[i].width, cudaMemcpyDeviceToHost), cudaSuccess);
        }
        for (uint64_t r = 0; r < g; r++) {
            ord[r].key = c->kw == 4 ? ((uint32_t *)ok)[r] : ((uint64_t *)ok)[r];
            ord[r].idx = r;
        }
        if (c->sorted)
            for (uint64_t r = 1; r < g; r++)
                if (ord[r - 1].key >= ord[r].key) { bad = 1; print_error("%s %s: output not sorted\n", gj_impl_name(impl), c->name); break; }
        qsort(ord, g, sizeof *ord, cmp_hres);
        for (uint64_t r = 0; r < g && bad < 5; r++) {
            if (ord[r].key != ref.key[r]) {
                print_error("%s %s: row %llu key %llx, reference %llx\n", gj_impl_name(impl), c->name,
                            (unsigned long long)r, (unsigned long long)ord[r].key, (unsigned long long)ref.key[r]);
                bad++;
                continue;
            }
            for (int i = 0; i < c->n_aggs; i++) {
                int wdt = ref.width[i];
                const uint8_t *gp = (const uint8_t *)oa[i] + ord[r].idx * wdt, *rp = (const uint8_t *)ref.agg[i] + r * wdt;
                int same;
                if (ref.type[i] == GJ_DT_FLOAT && (c->aggs[i] == GJ_AGG_SUM || c->aggs[i] == GJ_AGG_AVG)) {
                    double a, b;
                    memcpy(&a, gp, 8);
                    memcpy(&b, rp, 8);
                    same = fabs(a - b) <= 1e-9 * (fabs(b) + (double)n * 1e3);
                } else if (c->aggs[i] == GJ_AGG_AVG) { /* integer avg: sums exact, one division */
                    double a, b;
                    memcpy(&a, gp, 8);
                    memcpy(&b, rp, 8);
                    same = fabs(a - b) <= 1e-12 * fabs(b) + 1e-12;
                } else same = !memcmp(gp, rp, wdt);
                if (!same) {
                    print_error("%s %s: key %llx agg %d (%s) differs\n", gj_impl_name(impl), c->name,
                                (unsigned long long)ref.key[r], i, gj_agg_name(c->aggs[i]));
                    bad++;
                }
            }
        }
        free(ok);
        free(ord);
        for (int i = 0; i < c->n_aggs; i++) free(oa[i]);
    }
done:
    gj_groupby_out_free(&out);
    gj_groupby_ref_free(&ref);
    gj_ctx_free(ctx);
    cudaFree(dkey);
    for (int i = 0; i < c->n_aggs; i++) { cudaFree(dval[i]); free(hval[i]); }
    free(hkey);
    return bad;
}

static const gj_impl IMPLS[] = {GJ_IMPL_HGB, GJ_IMPL_SGB_UR, GJ_IMPL_SGB_TR, GJ_IMPL_SGB_DE_TR,
                                GJ_IMPL_PGB_UR, GJ_IMPL_PGB_TR, GJ_IMPL_HASH_GLOBAL};
#define NIMPL ((int)(sizeof IMPLS / sizeof IMPLS[0]))

#define MAXMAX {GJ_AGG_MAX, GJ_AGG_MAX}, {4, 4}, {GJ_DT_INT, GJ_DT_INT}
#define ALL5 {GJ_AGG_SUM, GJ_AGG_MIN, GJ_AGG_MAX, GJ_AGG_COUNT, GJ_AGG_AVG}, {4, 4, 8, 4, 8, 0}, \
    {GJ_DT_INT, GJ_DT_FLOAT, GJ_DT_INT, GJ_DT_INT, GJ_DT_FLOAT}
#define SUMCNT {GJ_AGG_SUM, GJ_AGG_COUNT}, {4, 4}, {GJ_DT_INT, GJ_DT_INT}
/* PGB-TR's packed pairs of other lean kinds (k_pgb_many's pgb_lean_tile) */
#define SUMMIN {GJ_AGG_SUM, GJ_AGG_MIN}, {4, 4}, {GJ_DT_INT, GJ_DT_INT}
#define MINSUM {GJ_AGG_MIN, GJ_AGG_SUM}, {4, 4}, {GJ_DT_INT, GJ_DT_INT}
#define FLT5 {GJ_AGG_SUM, GJ_AGG_MIN, GJ_AGG_MAX, GJ_AGG_AVG, GJ_AGG_SUM}, {4, 8, 4, 4, 8, 0}, \
    {GJ_DT_FLOAT, GJ_DT_FLOAT, GJ_DT_FLOAT, GJ_DT_INT, GJ_DT_FLOAT}

/* the generic path's integer combines (wide_agg): 8-byte sums that wrap,
 * 4-byte sums of negative values, 4- and 8-byte mins */
#define INTMIX {GJ_AGG_SUM, GJ_AGG_MIN, GJ_AGG_MIN, GJ_AGG_SUM, GJ_AGG_COUNT}, {8, 4, 8, 4, 4, 0}, \
    {GJ_DT_INT, GJ_DT_INT, GJ_DT_INT, GJ_DT_INT, GJ_DT_INT}

static const gcase CASES[] = {
    {"rows=0", 0, 1, 1, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"rows=1", 1, 1, 1, 4, 0, 0, 0, 5, ALL5, 0, 0, 0, 0, 0},
    {"g=1", 100000, 1, 1, 4, 0, 0, 0, 5, ALL5, 0, 0, 0, 0, 0},
    {"g=|R| perm", 70001, 70001, 70001, 4, 0, 0, 1, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"uniform g=100 all aggs", 200003, 100, 100, 4, 0, 0, 0, 5, ALL5, 0, 0, 0, 0, 0},
    {"int sums and mins g=3000", 300000, 3000, 3000, 4, 0, 0, 0, 5, INTMIX, 0, 0, 0, 0, 0},
    {"uniform g=5000 floats sorted", 300000, 5000, 5000, 4, 0, 0, 0, 5, FLT5, 1, 0, 0, 0, 0},
    {"uniform g=150000 (PGB partitions)", 400000, 150000, 150000, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"zipf 1.5 g=4096", 250000, 4096, 4096, 4, 0, 1.5, 0, 5, ALL5, 0, 0, 0, 0, 0},
    /* HGB's global aggregate (groups past shared memory) under skew: a
     * warp's rows of a hot group combined before the atomic (gb_fold) */
    {"zipf 1.5 g=60000 all aggs", 600000, 60000, 60000, 4, 0, 1.5, 0, 5, ALL5, 0, 0, 0, 0, 0},
    {"8-byte keys high bits g=3000", 120000, 3000, 3000, 8, 0xFFFF000000000000ull, 0, 0, 5, ALL5, 1, 0, 0, 0, 0},
    {"8-byte keys g=|R|", 50000, 50000, 50000, 8, 0xABCD000000000000ull, 0, 1, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"hint 1, real 60000", 200000, 60000, 1, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"odd size 3*4096+1 g=700", 3 * 4096 + 1, 700, 700, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"sparse keys g=5000 all aggs", 300000, 5000, 5000, 4, 0, 0, 0, 5, ALL5, 0, 1, 0, 0, 0},
    {"sparse 8-byte keys g=150000", 400000, 150000, 150000, 8, 0, 0, 0, 2, MAXMAX, 1, 1, 0, 0, 0},
};
#define NCASE ((int)(sizeof CASES / sizeof CASES[0]))

static void test_all_impls(void **state)
{
    (void)state;
    if (!have_gpu()) skip();
    int bad = 0;
    for (int c = 0; c < NCASE; c++)
        for (int i = 0; i < NIMPL; i++) {
            rng_state = 1000 + (uint64_t)c; /* same data for every implementation */
            int b = run_case(IMPLS[i], &CASES[c]);
            if (b) print_error("FAIL %s %s\n", gj_impl_name(IMPLS[i]), CASES[c].name);
            bad += b;
        }
    assert_int_equal(bad, 0);
}

/* HGB's one-pass path (g fits a block's shared-memory table; see
 * operators/groupby_kernels.cuh, k_hgb_onepass) at and around its
 * thresholds on the H200 (4-byte keys, max,max: 2 blocks/SM up to a hint
 * of 4096 groups, 1 block/SM up to 8192, dense keys or two passes up to
 * 16384, Algorithm 1 above; 8-byte keys: 2048, 4096 and 8192), warps of
 * one key (redux and shuffle paths), keys equal to
 * the table's empty marker, hints too small (a block's table overflows, or
 * the merged table does: both fall back to Algorithm 1), tails. */
static const gcase ONEPASS[] = {
    {"one key, max,max (redux)", 100000, 1, 1, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"3 keys, all aggs (shuffles)", 100003, 3, 3, 4, 0, 0, 0, 5, ALL5, 0, 0, 0, 0, 0},
    {"20 keys, floats, sorted", 100000, 20, 20, 4, 0, 0, 0, 5, FLT5, 1, 0, 0, 0, 0},
    {"200 keys, all aggs (per-lane)", 150001, 200, 200, 4, 0, 0, 0, 5, ALL5, 0, 0, 0, 0, 0},
    {"g=4096 (2 blocks/SM)", 400000, 4096, 4096, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"g=4097 (1 block/SM)", 400000, 4097, 4097, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"g=8192 (1 block/SM, last)", 600000, 8192, 8192, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"g=8193 (dense: one pass)", 600000, 8193, 8193, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"g=16384 sum,count (dense, a full table)", 900000, 16384, 16384, 4, 0, 0, 0, 2, SUMCNT, 0, 0, 0, 0, 0},
    {"g=16384 max,max (dense, a full table)", 2000000, 16384, 16384, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"g=16385 (Algorithm 1)", 900000, 16385, 16385, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"sparse g=15000 all aggs (not dense: two passes)", 900000, 15000, 15000, 4, 0, 0, 0, 5, ALL5, 0, 1, 0, 0, 0},
    {"keys up to 2^32-1, g=10000 (dense)", 500000, 10000, 10000, 4, 0xFFFFFFFFull - 9999, 0, 0, 2, MAXMAX, 1, 0, 0, 0, 0},
    {"zipf 1.5 g=12000 (dense)", 600000, 12000, 12000, 4, 0, 1.5, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"hint 9000, real 200000 (passes overflow)", 900000, 200000, 9000, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"dense 8000 + 8000 unsampled far keys (hashed in the dense pass)", 1 << 20, 8000, 16000, 4, 0, 0, 0, 2,
     MAXMAX, 0, 2, 0, 0, 0},
    {"8-byte g=4096", 400000, 4096, 4096, 8, 0x8000000000000000ull, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"8-byte g=4097 (dense)", 400000, 4097, 4097, 8, 0x8000000000000000ull, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"8-byte g=8192 sparse (two passes, last)", 1000000, 8192, 8192, 8, 0, 0, 0, 2, MAXMAX, 0, 1, 0, 0, 0},
    /* 8-byte dense keys beyond a table of keys: a table of 4-byte key
     * offsets (k_hgb_onepass's KS), twice the slots; keys with no offset
     * overflow it, and Algorithm 1 runs */
    {"8-byte g=16384 (a table of key offsets)", 2000000, 16384, 16384, 8, 0x8000000000000000ull, 0, 0, 2, MAXMAX,
     0, 0, 0, 0, 0},
    {"8-byte zipf 1.5 g=12000 (key offsets, keys near 2^64)", 900000, 12000, 12000, 8, 0xFFFFFFFFFFFF0000ull, 1.5,
     0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"8-byte dense 8000 + 8000 far keys (no offsets: Algorithm 1)", 1 << 20, 8000, 16000, 8, 0, 0, 0, 2, MAXMAX,
     0, 2, 0, 0, 0},
    {"keys up to 2^32-1", 100000, 5, 5, 4, 0xFFFFFFFBull, 0, 0, 5, ALL5, 0, 0, 0, 0, 0},
    {"8-byte keys up to 2^64-1", 100000, 16, 16, 8, 0xFFFFFFFFFFFFFFF0ull, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"zipf 1.5 g=64", 200000, 64, 64, 4, 0, 1.5, 0, 5, ALL5, 0, 0, 0, 0, 0},
    {"hint 1, real 5000 (fits)", 300000, 5000, 1, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"hint 1, real 150000 (merge overflows)", 400000, 150000, 1, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"hint 1, real 50000 (block overflows)", 2000000, 50000, 1, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"rows=4095", 4095, 7, 7, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"rows=4097 8-byte", 4097, 7, 7, 8, 0, 0, 0, 5, ALL5, 0, 0, 0, 0, 0},
    /* keys spread over the width: the home slots collide as for random keys */
    {"sparse g=4096", 400000, 4096, 4096, 4, 0, 0, 0, 2, MAXMAX, 0, 1, 0, 0, 0},
    {"sparse g=8192, all aggs", 600000, 8192, 8192, 4, 0, 0, 0, 5, ALL5, 0, 1, 0, 0, 0},
    {"sparse 8-byte g=4096", 400000, 4096, 4096, 8, 0, 0, 0, 2, MAXMAX, 0, 1, 0, 0, 0},
    {"sparse zipf 1.5 g=3000", 300000, 3000, 3000, 4, 0, 1.5, 0, 2, MAXMAX, 0, 1, 0, 0, 0},
};
#define NONEPASS ((int)(sizeof ONEPASS / sizeof ONEPASS[0]))

/* EVIDENCE: T-GB-HGB-1P */
static void test_hgb_onepass(void **state)
{
    (void)state;
    if (!have_gpu()) skip();
    int bad = 0;
    for (int c = 0; c < NONEPASS; c++) {
        rng_state = 5000 + (uint64_t)c;
        int b = run_case(GJ_IMPL_HGB, &ONEPASS[c]);
        if (b) print_error("FAIL HGB %s\n", ONEPASS[c].name);
        bad += b;
    }
    assert_int_equal(bad, 0);
}

/* PGB's partition (operators/groupby_api.cu, pgb_partition): the joins'
 * radix partition of the hashed key with row ids (PGB-UR) or with the
 * payloads, 4-byte columns packed in pairs (PGB-TR), one pass up to 8 bits,
 * two above, the keys hashed as they are
 * partitioned; each case under the default (the joins' partition at every
 * bit count), CUB's sort at every bit count, and k_pgb_many with tables of
 * at most 256 slots (GJ_PGB_TS: up to 2^16 partitions, two passes). */
static const gcase PGB[] = {
    {"g=|R|=2^21 max,max", 1 << 21, 1 << 21, 1 << 21, 4, 0, 0, 1, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"g=2^20 all aggs (pairs, 8-byte, 11 bits)", 1 << 21, 1 << 20, 1 << 20, 4, 0, 0, 0, 5, ALL5, 0, 0, 0, 0, 0},
    {"g=300000 floats, lone 4-byte column, sorted", 1500000, 300000, 300000, 4, 0, 0, 0, 5, FLT5, 1, 0, 0, 0, 0},
    {"8-byte keys high bits g=2^20", 1 << 21, 1 << 20, 1 << 20, 8, 0xF0F0000000000000ull, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    {"zipf 1.5 g=2^20 (hot partitions)", 1 << 21, 1 << 20, 1 << 20, 4, 0, 1.5, 0, 5, ALL5, 0, 0, 0, 0, 0},
    {"g=4500 (1 or 2 bits)", 700000, 4500, 4500, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    /* partitions of 2^16 rows cut into pieces: k_pgb_merge combines their
     * tables (sum, min, max, count, avg) */
    {"g=20000 all aggs, cut partitions", 1 << 21, 20000, 20000, 4, 0, 0, 0, 5, ALL5, 0, 0, 0, 0, 0},
    {"g=200000 int sums and mins", 1 << 21, 200000, 200000, 4, 0, 0, 0, 5, INTMIX, 0, 0, 0, 0, 0},
    /* k_pgb_many: the key whose hash is its empty pattern (operators/hash.cuh
     * hash_key: 0x6b49d223 * 0xC8199275 = 2^32-1, 0x0e217c1e66c88cc3 *
     * 0x9E3779B97F4A7C15 = 2^64-1, all ones reversed) aggregates globally */
    {"key hashing to all ones, g=5000", 700000, 5000, 5000, 4, 0x6b49d223ull - 2000, 0, 0, 5, ALL5, 0, 0, 0, 0, 0},
    {"8-byte key hashing to all ones, g=3000", 500000, 3000, 3000, 8, 0x0e217c1e66c88cc3ull - 1000, 0, 0, 2, MAXMAX, 1, 0, 0, 0, 0},
    /* a hint 60x too small: tables fill, keys past the probe bound go global */
    {"hint 3000, real 200000", 1500000, 200000, 3000, 4, 0, 0, 0, 5, ALL5, 0, 0, 0, 0, 0},
    /* 8-byte keys, skewed, a few bits: the claimed pass's bins sized from
     * a sample of hot keys (with GJ_PART_CLAIM_MIN=0 below) */
    {"8-byte zipf 1.5 g=40000", 1 << 21, 40000, 40000, 8, 0xF0F0000000000000ull, 1.5, 0, 2, MAXMAX, 0, 0, 0, 0, 0},
    /* hot keys crowd a slot: every integer kind of the general tile
     * (pgb_fold_acc) with negative values and 8-byte sums that wrap;
     * PGB-TR's lean tile where
     * most warps hold one key (Zipf 2), whose rows of lane 0's slot reduce
     * across the warp first (groupby_kernels.cuh pgb_lean_fold) */
    {"zipf 1.2 g=2^16 int sums and mins (folded)", 1 << 21, 1 << 16, 1 << 16, 4, 0, 1.2, 0, 5, INTMIX, 0, 0, 0, 0, 0},
    {"zipf 2 g=3000 sum,min (lean tile folded)", 1 << 21, 3000, 3000, 4, 0, 2.0, 0, 2, SUMMIN, 0, 0, 0, 0, 0},
    /* the general tile's fold beside kinds it leaves alone: an integer
     * average's sum and count fold (pgb_fold_acc) in the tiles where float
     * sums (added in doubles), 8-byte mins and 4-byte maxima of both signs
     * keep every row's own atomic */
    {"zipf 1.5 g=2^16 floats (general tile folded)", 1 << 21, 1 << 16, 1 << 16, 4, 0, 1.5, 0, 5, FLT5, 0, 0, 0, 0, 0},
    /* the same two through PGB-TR's lean tile (a pair of 4-byte sources) */
    {"sum,min: key hashing to all ones, g=5000", 700000, 5000, 5000, 4, 0x6b49d223ull - 2000, 0, 0, 2, SUMMIN, 0, 0, 0, 0, 0},
    {"min,sum: hint 3000, real 200000", 1500000, 200000, 3000, 4, 0, 0, 0, 2, MINSUM, 0, 0, 0, 0, 0},
};
#define NPGB ((int)(sizeof PGB / sizeof PGB[0]))

/* The PGB cases above that aim at the key whose hash is the tables' empty
 * pattern take it from operators/hash.cuh's multipliers (testutil's
 * test_hash_key mirrors hash_key): a change of multiplier must move them
 * too, or they would pass without reaching that key. */
static void test_sentinel_keys(void **state)
{
    (void)state;
    assert_true(test_hash_key(4, 0x6b49d223ull) == 0xFFFFFFFFull);
    assert_true(test_hash_key(8, 0x0e217c1e66c88cc3ull) == ~0ull);
}

/* Every case of cases[] through PGB-UR and PGB-TR under each environment
 * of env (up to two variables each; NULL ends a row's list), the random
 * inputs seeded by the case's index. Returns the failures. */
static int pgb_grid(const gcase *cases, int ncases, const char *const (*env)[4], int nenv, uint64_t seed)
{
    int bad = 0;
    for (int e = 0; e < nenv; e++) {
        for (int v = 0; v < 4 && env[e][v]; v += 2) setenv(env[e][v], env[e][v + 1], 1);
        for (int c = 0; c < ncases; c++)
            for (int impl = GJ_IMPL_PGB_UR; impl <= GJ_IMPL_PGB_TR; impl++) {
                rng_state = seed + (uint64_t)c;
                int b = run_case((gj_impl)impl, &cases[c]);
                if (b)
                    print_error("FAIL %s %s %s=%s %s=%s\n", gj_impl_name((gj_impl)impl), cases[c].name,
                                env[e][0] ? env[e][0] : "", env[e][1] ? env[e][1] : "", env[e][2] ? env[e][2] : "",
                                env[e][3] ? env[e][3] : "");
                bad += b;
            }
        for (int v = 0; v < 4 && env[e][v]; v += 2) unsetenv(env[e][v]);
    }
    return bad;
}

static void test_pgb_partitions(void **state)
{
    (void)state;
    if (!have_gpu()) skip();
    /* GJ_PGB_BITS=9: every case through the one wide pass (operators/
     * shapes.h gj_part_passes), every value mode, both key widths;
     * GJ_PGB_LEAN=0: PGB-TR's pairs through k_pgb_many's general tile;
     * GJ_PART_CLAIM_MIN=0: the claimed pass at every size (shapes.h
     * gj_part_claims; PGB-UR, and PGB-TR's pairs); GJ_PGB_BITS=10: two
     * exact passes, or with GJ_PART_CLAIM_MIN=0 the claim's one 10-bit pass
     * (the exact two where a pair and a lone column make two calls);
     * GJ_PGB_PROBE=linear: pgb_slot's linear probes; GJ_GB_FOLD=0: no
     * fold, so skewed cases take the builds a workload without its skew
     * statistic takes (shapes.h GJ_PGB_FOLD_ZIPF) */
    static const char *const env[][4] = {{NULL, NULL, NULL, NULL},
                                         {"GJ_PGB_PARTITION", "cub", NULL, NULL},
                                         {"GJ_PGB_TS", "256", NULL, NULL},
                                         {"GJ_PGB_BITS", "9", NULL, NULL},
                                         {"GJ_PGB_LEAN", "0", NULL, NULL},
                                         {"GJ_PART_CLAIM_MIN", "0", NULL, NULL},
                                         {"GJ_PGB_BITS", "10", NULL, NULL},
                                         {"GJ_PGB_BITS", "10", "GJ_PART_CLAIM_MIN", "0"},
                                         {"GJ_PGB_PROBE", "linear", NULL, NULL},
                                         {"GJ_GB_FOLD", "0", NULL, NULL}};
    assert_int_equal(pgb_grid(PGB, NPGB, env, (int)(sizeof env / sizeof env[0]), 7000), 0);
}

/* PGB's direct plan (operators/shapes.h gj_pgb_direct): keys told to span
 * key_range values are partitioned unhashed on their own low bits, each
 * its own slot. Dense spans, with and without partitions (one table of
 * the input's own keys), every aggregate, 8-byte keys, skew, a span that
 * does not start on a partition boundary (a neighbour's slot taken), the
 * all-ones key (the tables' empty pattern: global, written as it is), and
 * a span told too small (keys collide and go global: slower, still right;
 * 8-byte keys spread over all 64 bits, most out of reach of the 4-byte
 * table keys, groupby_kernels.cuh PgbTk).
 * Under: the default plan, the claimed pass at every size
 * (GJ_PART_CLAIM_MIN=0), 9 bits without a claim (two unhashed passes: no
 * wide pass for unhashed keys), the claim's one 10-bit pass, and tables
 * of 256 slots (up to 2^16 partitions). */
static const gcase DIRECT[] = {
    {"span g=2^20 max,max", 1 << 21, 1 << 20, 1 << 20, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 1 << 20},
    {"span g=2^18 all aggs", 1 << 21, 1 << 18, 1 << 18, 4, 0, 0, 0, 5, ALL5, 0, 0, 0, 0, 1 << 18},
    {"8-byte keys high bits g=2^19", 1 << 21, 1 << 19, 1 << 19, 8, 0xF0F0000000000000ull, 0, 0, 2, MAXMAX, 0, 0, 0,
     0, 1 << 19},
    {"zipf 1.5 g=2^19 sum,min", 1 << 21, 1 << 19, 1 << 19, 4, 0, 1.5, 0, 2, SUMMIN, 0, 0, 0, 0, 1 << 19},
    {"span starting at 12345, g=300000 floats sorted", 1500000, 300000, 300000, 4, 12345, 0, 0, 5, FLT5, 1, 0, 0, 0,
     300000},
    {"g=5000, one table of the input's keys", 700000, 5000, 5000, 4, 0, 0, 0, 5, ALL5, 0, 0, 0, 0, 5000},
    {"span ending at the all-ones key, g=5000", 700000, 5000, 5000, 4, 0xFFFFFFFFull - 4999, 0, 0, 2, SUMMIN, 0, 0, 0,
     0, 5000},
    {"8-byte span ending at all ones, g=3000", 500000, 3000, 3000, 8, ~0ull - 2999, 0, 0, 2, MAXMAX, 1, 0, 0, 0, 3000},
    {"span told 3000, real 200000", 1500000, 200000, 200000, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 0, 0, 3000},
    {"8-byte sparse keys told a span of 3000", 400000, 20000, 20000, 8, 0, 0, 0, 2, MAXMAX, 0, 1, 0, 0, 3000},
};

/* The cases above meant for the direct plan take it (operators/shapes.h
 * gj_pgb_many_pick, as run_pgb asks it on an H100's 132 SMs; too few rows
 * to claim): else test_pgb_direct would pass on the hashed plan. The cases
 * of two accumulators of MIN, MAX (the payload's width) or SUM (8 bytes). */
static void test_direct_cases_plan(void **state)
{
    (void)state;
    int checked = 0;
    for (int c = 0; c < (int)(sizeof DIRECT / sizeof DIRECT[0]); c++) {
        const gcase *d = &DIRECT[c];
        int two = d->n_aggs == 2;
        double accw[2];
        for (int j = 0; two && j < 2; j++) {
            two = d->aggs[j] == GJ_AGG_MIN || d->aggs[j] == GJ_AGG_MAX || d->aggs[j] == GJ_AGG_SUM;
            accw[j] = d->aggs[j] == GJ_AGG_SUM ? 8 : d->pw[j];
        }
        if (!two) continue;
        assert_false(gj_part_claims((double)d->n, GJ_PART_CLAIM_MAX_BITS, 1, GJ_PART_CLAIM_MIN));
        for (int rowids = 0; rowids <= 1; rowids++) {
            int bits;
            double ts;
            const int direct = gj_pgb_many_pick((double)d->n, (double)d->hint, (double)d->krange,
                                                gj_pgb_many_tmax(GJ_PGB_MANY_SMEM, d->kw, accw, 2),
                                                gj_pgb_many_tmax(GJ_PGB_MANY_SMEM_BIG, d->kw, accw, 2),
                                                gj_pgb_many_tmax(GJ_PGB_MANY_SMEM, 4, accw, 2),
                                                gj_pgb_many_tmax(GJ_PGB_MANY_SMEM_BIG, 4, accw, 2), 132, rowids, 0,
                                                -1, &bits, &ts);
            if (!direct) print_error("%s (%s): not the direct plan\n", d->name, rowids ? "PGB-UR" : "PGB-TR");
            assert_true(direct);
        }
        checked++;
    }
    assert_true(checked >= 5);
}

static void test_pgb_direct(void **state)
{
    (void)state;
    if (!have_gpu()) skip();
    static const char *const env[][4] = {{NULL, NULL, NULL, NULL},
                                         {"GJ_PART_CLAIM_MIN", "0", NULL, NULL},
                                         {"GJ_PGB_BITS", "9", NULL, NULL},
                                         {"GJ_PGB_BITS", "10", "GJ_PART_CLAIM_MIN", "0"},
                                         {"GJ_PGB_TS", "256", NULL, NULL}};
    assert_int_equal(pgb_grid(DIRECT, (int)(sizeof DIRECT / sizeof DIRECT[0]), env, (int)(sizeof env / sizeof env[0]),
                              9000),
                     0);
}

/* The sort-based group-bys told that the rows come ordered by key
 * (workload sorted_keys) check it and skip their sorts (operators/
 * groupby_api.cu run_sgb, k_inorder_heads, k_inorder_reduce): every
 * aggregate, 4- and 8-byte keys, skew, one row a group, the specials,
 * partial tiles, columns not 16-byte aligned, and rows in order but for
 * the last or for two where the kernels' tiles meet (told so wrongly: the
 * check must see it and sort). The other
 * implementations on the same rows too (a warp's rows mostly share a key). */
static const gcase IN_ORDER[] = {
    {"in order, g=1000, all aggs", 300000, 1000, 1000, 4, 0, 0, 0, 5, ALL5, 0, 0, 1, 0, 0},
    {"in order, 8-byte keys high bits, g=5000", 300000, 5000, 5000, 8, 0xF000000000000000ull, 0, 0, 2, MAXMAX, 0, 0, 1, 0, 0},
    {"in order, zipf 1.5, floats, sorted output", 400000, 2000, 2000, 4, 0, 1.5, 0, 5, FLT5, 1, 0, 1, 0, 0},
    {"in order, g=|R|", 200000, 200000, 200000, 4, 0, 0, 1, 5, INTMIX, 0, 0, 1, 0, 0},
    {"in order, keys up to 2^32-1", 100000, 7, 7, 4, 0xFFFFFFF8ull, 0, 0, 5, ALL5, 0, 0, 1, 0, 0},
    {"in order but the last row, g=1000", 300000, 1000, 1000, 4, 0, 0, 0, 5, ALL5, 0, 0, 2, 0, 0},
    {"in order but the last row, 8-byte", 300000, 3000, 3000, 8, 0, 0, 0, 2, SUMCNT, 0, 0, 2, 0, 0},
    {"in order, median+countd", 100000, 777, 777, 4, 0, 0, 0, 4,
     {GJ_AGG_MEDIAN, GJ_AGG_COUNT_DISTINCT, GJ_AGG_MEDIAN, GJ_AGG_SUM}, {4, 4, 8, 4},
     {GJ_DT_INT, GJ_DT_INT, GJ_DT_FLOAT, GJ_DT_INT}, 0, 0, 1, 0, 0},
    {"in order, 2 rows", 2, 2, 2, 4, 0, 0, 0, 2, MAXMAX, 0, 0, 1, 0, 0},
    {"2 rows, the second smaller", 2, 2, 2, 4, 0, 0, 1, 2, MAXMAX, 0, 0, 2, 0, 0},
    {"in order, 1 row", 1, 1, 1, 4, 0, 0, 0, 5, ALL5, 0, 0, 1, 0, 0},
    {"in order, 2049 rows, g=|R|", 2049, 2049, 2049, 8, 0, 0, 1, 5, ALL5, 0, 0, 1, 0, 0},
    {"in order, 300001 rows, g=3, unaligned", 300001, 3, 3, 4, 0, 0, 0, 5, INTMIX, 0, 0, 1, 1, 0},
    {"in order, 8-byte, unaligned, g=70000", 300001, 70000, 70000, 8, 0, 0, 0, 5, FLT5, 1, 0, 1, 1, 0},
    {"in order but where tiles meet, g=|R|", 10000, 10000, 10000, 4, 0, 0, 1, 2, SUMCNT, 0, 0, 3, 0, 0},
    {"in order but where tiles meet, 8-byte", 10000, 10000, 10000, 8, 0, 0, 1, 5, ALL5, 0, 0, 3, 0, 0},
};
#define NIN_ORDER ((int)(sizeof IN_ORDER / sizeof IN_ORDER[0]))

static void test_sgb_in_order(void **state)
{
    (void)state;
    if (!have_gpu()) skip();
    int bad = 0;
    for (int c = 0; c < NIN_ORDER; c++)
        for (int i = 0; i < NIMPL; i++) {
            gj_workload w;
            gj_workload_default(&w, GJ_OP_GROUPBY);
            w.n_aggs = IN_ORDER[c].n_aggs;
            memcpy(w.aggs, IN_ORDER[c].aggs, sizeof w.aggs);
            if (!gj_impl_supports_aggs(IMPLS[i], &w)) continue; /* the specials: SGB-* only */
            rng_state = 9000 + (uint64_t)c;
            int b = run_case(IMPLS[i], &IN_ORDER[c]);
            if (b) print_error("FAIL %s %s\n", gj_impl_name(IMPLS[i]), IN_ORDER[c].name);
            bad += b;
        }
    assert_int_equal(bad, 0);
}

/* count-distinct and median: sort-based only */
static void test_sort_only_aggs(void **state)
{
    (void)state;
    if (!have_gpu()) skip();
    gcase c = {"median+countd", 100000, 777, 777, 4, 0, 0, 0, 4,
               {GJ_AGG_MEDIAN, GJ_AGG_COUNT_DISTINCT, GJ_AGG_MEDIAN, GJ_AGG_SUM},
               {4, 4, 8, 4}, {GJ_DT_INT, GJ_DT_INT, GJ_DT_FLOAT, GJ_DT_INT}, 0, 0, 0, 0, 0};
    gcase c8 = c;
    c8.kw = 8;
    c8.key_offset = 0xFFFFFFFF00000000ull;
    c8.name = "median+countd 8-byte";
    int bad = 0;
    const gj_impl sorts[] = {GJ_IMPL_SGB_UR, GJ_IMPL_SGB_TR, GJ_IMPL_SGB_DE_TR};
    for (int i = 0; i < 3; i++) {
        rng_state = 77;
        bad += run_case(sorts[i], &c);
        rng_state = 78;
        bad += run_case(sorts[i], &c8);
    }
    assert_int_equal(bad, 0);
    /* the hash-based ones refuse */
    gj_dtable dt = {.rows = 10, .key = {.width = 4}, .n_payloads = 1};
    gj_workload w;
    gj_workload_default(&w, GJ_OP_GROUPBY);
    w.n_aggs = 1;
    w.aggs[0] = GJ_AGG_MEDIAN;
    gj_groupby_out out;
    assert_int_equal(gj_groupby_execute(GJ_IMPL_HGB, &dt, &w, NULL, &out, NULL, NULL), GJ_ERR_UNSUPPORTED);
}

static void test_bad_args(void **state)
{
    (void)state;
    gj_workload w;
    gj_workload_default(&w, GJ_OP_GROUPBY);
    gj_dtable dt = {.rows = 10, .key = {.width = 3}};
    gj_groupby_out out;
    assert_int_equal(gj_groupby_execute(GJ_IMPL_HGB, NULL, &w, NULL, &out, NULL, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_groupby_execute(GJ_IMPL_PHJ_UR, &dt, &w, NULL, &out, NULL, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_groupby_execute(GJ_IMPL_HGB, &dt, &w, NULL, &out, NULL, NULL), GJ_ERR_INVALID);
    dt.key.width = 4; /* max,max but no payload columns */
    assert_int_equal(gj_groupby_execute(GJ_IMPL_HGB, &dt, &w, NULL, &out, NULL, NULL), GJ_ERR_INVALID);
    gj_groupby_out_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_by_hand),
        cmocka_unit_test(test_supports),
        cmocka_unit_test(test_sentinel_keys),
        cmocka_unit_test(test_bad_args),
        cmocka_unit_test(test_all_impls),
        cmocka_unit_test(test_hgb_onepass),
        cmocka_unit_test(test_pgb_partitions),
        cmocka_unit_test(test_direct_cases_plan),
        cmocka_unit_test(test_pgb_direct),
        cmocka_unit_test(test_sort_only_aggs),
        cmocka_unit_test(test_sgb_in_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
