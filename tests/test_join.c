/* Joins: CPU reference on hand-made inputs (no GPU needed), then every GPU
 * implementation against the reference on seeded random inputs: empty and
 * one-row sides, odd sizes, a tile and a partition chunk plus one, 2^20 rows,
 * Zipf-skewed foreign keys, duplicates in R (many-to-many, including one key
 * repeated past a shared-memory chunk), 8-byte keys with high bits set,
 * mixed payload widths, 0 and 8 payload columns, match ratio 0, every S
 * row matching exactly once (the output written without compaction), a build
 * side too small to partition against several probe chunks (PHJ-TR with
 * the custom partition, the default, and with CUB's sort); the radix
 * partition under PHJ against a CPU stable partition (every bit count 1..16,
 * every value mode, 4- and 8-byte keys, sizes around the 4096-row tile, all
 * keys in one partition, and CUB's order equal to it).
 * GPU tests skip() when gj_gpu_count reports no device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "gjadvise.h"
#include "testutil.h"
#include "operators/join_partition.h"

static const gj_impl IMPLS[] = {GJ_IMPL_PHJ_UR, GJ_IMPL_PHJ_TR, GJ_IMPL_SMJ_UR, GJ_IMPL_SMJ_TR,
                                 GJ_IMPL_NPHJ};
#define N_IMPLS 5

static int have_gpu(void)
{
    int n = 0;
    return gj_gpu_count(&n, NULL) == GJ_OK && n > 0;
}

static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    assert_non_null(p);
    return p;
}

static void hset(gj_column *c, uint64_t i, uint64_t v)
{
    if (c->width == 4) ((uint32_t *)c->data)[i] = (uint32_t)v;
    else ((uint64_t *)c->data)[i] = v;
}
static uint64_t hget(const gj_column *c, uint64_t i)
{
    return c->width == 4 ? ((const uint32_t *)c->data)[i] : ((const uint64_t *)c->data)[i];
}

/* host table with random payloads; keys filled by the caller */
static void host_table(gj_dtable *t, uint64_t rows, int kw, int np, const int *pw)
{
    memset(t, 0, sizeof *t);
    t->rows = rows;
    t->key.width = kw;
    t->key.data = xmalloc(rows * kw);
    t->n_payloads = np;
    for (int c = 0; c < np; c++) {
        t->payload[c].width = pw[c];
        t->payload[c].data = xmalloc(rows * pw[c]);
        for (uint64_t i = 0; i < rows; i++) hset(&t->payload[c], i, rnd());
    }
}

static void upload(const gj_dtable *h, gj_dtable *d)
{
    *d = *h;
    assert_int_equal(cudaMalloc(&d->key.data, h->rows * h->key.width + 1), cudaSuccess);
    assert_int_equal(cudaMemcpy(d->key.data, h->key.data, h->rows * h->key.width,
                                cudaMemcpyHostToDevice), cudaSuccess);
    for (int c = 0; c < h->n_payloads; c++) {
        size_t b = h->rows * h->payload[c].width;
        assert_int_equal(cudaMalloc(&d->payload[c].data, b + 1), cudaSuccess);
        assert_int_equal(cudaMemcpy(d->payload[c].data, h->payload[c].data, b,
                                    cudaMemcpyHostToDevice), cudaSuccess);
    }
}

/* run every implementation on host tables hr, hs; compare with the reference */
static void check_all(const gj_dtable *hr, const gj_dtable *hs, uint64_t expect_rows)
{
    gj_ctx *ctx = NULL;
    gj_dtable dr, ds;
    gj_join_out ref;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    upload(hr, &dr);
    upload(hs, &ds);
    assert_int_equal(gj_join_reference(hr, hs, &ref, ctx), GJ_OK);
    if (expect_rows != UINT64_MAX) assert_int_equal(ref.rows, expect_rows);
    /* every implementation, then PHJ-TR again with CUB's radix sort instead
     * of the custom partition (GJ_JOIN_PARTITION=cub; custom is the default),
     * SMJ-TR with its MSD sort on inputs of any size (GJ_JOIN_MSD=force:
     * by default only from GJ_MSD_MIN_ROWS rows), and PHJ-TR and PHJ-UR
     * with the select-and-gather compaction (GJ_JOIN_COMPACT=select: by
     * default only from 2^24 S rows; its columns reuse one DenseCols a
     * side at a time) and with the one-pass compaction that replaced it
     * for PHJ (=fused:N, N items a block: 5, rounds of matches staged
     * across items; all of them in one block), and PHJ-TR with its 8-bit
     * passes scattering two tiles at a time (GJ_JOIN_PART_PAIR=force: by
     * default from 2^26 rows), and PHJ-TR and SMJ-TR with their two-pass
     * partitions through a scratch of half the rows (GJ_JOIN_PART_HALF=force:
     * by default from 2^25 rows), and PHJ-UR, SMJ-TR and NPHJ after the
     * semi-join filter (GJ_JOIN_FILTER=on: by default only where the
     * workload's hints ask for it) */
    enum { EXTRA = 12 };
    static const char *const extra_env[EXTRA] = {"GJ_JOIN_PARTITION", "GJ_JOIN_MSD", "GJ_JOIN_COMPACT",
                                                 "GJ_JOIN_COMPACT", "GJ_JOIN_COMPACT", "GJ_JOIN_COMPACT",
                                                 "GJ_JOIN_PART_PAIR", "GJ_JOIN_PART_HALF", "GJ_JOIN_PART_HALF",
                                                 "GJ_JOIN_FILTER", "GJ_JOIN_FILTER", "GJ_JOIN_FILTER"};
    static const char *const extra_val[EXTRA] = {"cub", "force", "select", "select", "fused:5",
                                                 "fused:1000000000", "force", "force", "force",
                                                 "on", "on", "on"};
    static const gj_impl extra_impl[EXTRA] = {GJ_IMPL_PHJ_TR, GJ_IMPL_SMJ_TR, GJ_IMPL_PHJ_TR,
                                              GJ_IMPL_PHJ_UR, GJ_IMPL_PHJ_TR, GJ_IMPL_PHJ_UR,
                                              GJ_IMPL_PHJ_TR, GJ_IMPL_PHJ_TR, GJ_IMPL_SMJ_TR,
                                              GJ_IMPL_PHJ_UR, GJ_IMPL_SMJ_TR, GJ_IMPL_NPHJ};
    for (int i = 0; i < N_IMPLS + EXTRA; i++) {
        gj_join_out out, hout;
        gj_timing t;
        int eq = 0;
        const int x = i - N_IMPLS; /* >= 0: an extra run */
        const gj_impl impl = x < 0 ? IMPLS[i] : extra_impl[x];
        const char *env = x < 0 ? NULL : getenv(extra_env[x]);
        char saved[32] = "";
        if (env) snprintf(saved, sizeof saved, "%s", env);
        if (x >= 0) assert_int_equal(setenv(extra_env[x], extra_val[x], 1), 0);
        int rc = gj_join_exec(impl, &dr, &ds, NULL, &out, &t, ctx);
        if (x >= 0) {
            if (env) setenv(extra_env[x], saved, 1);
            else unsetenv(extra_env[x]);
        }
        if (rc != GJ_OK) fprintf(stderr, "%s: %s\n", gj_impl_name(impl), gj_ctx_errmsg(ctx));
        assert_int_equal(rc, GJ_OK);
        assert_int_equal(t.n_phases, 3);
        assert_string_equal(t.name[0], "transform");
        assert_string_equal(t.name[2], "materialize");
        assert_true(t.total_ms >= 0);
        assert_int_equal(out.r_payloads, hr->n_payloads);
        assert_int_equal(out.s_payloads, hs->n_payloads);
        assert_int_equal(gj_join_out_download(&out, &hout, ctx), GJ_OK);
        assert_int_equal(gj_join_compare(&hout, &ref, &eq, ctx), GJ_OK);
        if (!eq)
            fprintf(stderr, "%s%s%s: |R|=%llu |S|=%llu: %llu rows vs reference %llu: %s\n",
                    gj_impl_name(impl), x >= 0 ? " with " : "", x >= 0 ? extra_env[x] : "",
                    (unsigned long long)hr->rows, (unsigned long long)hs->rows,
                    (unsigned long long)hout.rows, (unsigned long long)ref.rows, gj_ctx_errmsg(ctx));
        assert_true(eq);
        gj_join_out_free_host(&hout);
        gj_join_out_free(&out);
    }
    { /* PHJ-UR told the output's size (gj_join_exec_w: paths it would
       * decline are skipped, operators/join_api.cu phj_sparse) */
        gj_workload w;
        gj_join_out out, hout;
        gj_timing t;
        int eq = 0;
        gj_workload_default(&w, GJ_OP_JOIN);
        w.r_rows = hr->rows ? hr->rows : 1;
        w.s_rows = hs->rows ? hs->rows : 1;
        w.match_ratio = (double)ref.rows / (double)w.s_rows;
        if (w.match_ratio > 1) { /* many-to-many: out_rows says it */
            w.match_ratio = 1;
            w.out_rows = ref.rows;
        }
        assert_int_equal(gj_join_exec_w(GJ_IMPL_PHJ_UR, &w, &dr, &ds, NULL, &out, &t, ctx), GJ_OK);
        assert_int_equal(t.n_phases, 3);
        assert_int_equal(gj_join_out_download(&out, &hout, ctx), GJ_OK);
        assert_int_equal(gj_join_compare(&hout, &ref, &eq, ctx), GJ_OK);
        if (!eq) fprintf(stderr, "PHJ-UR told %llu output rows: wrong\n", (unsigned long long)ref.rows);
        assert_true(eq);
        gj_join_out_free_host(&hout);
        gj_join_out_free(&out);
    }
    gj_join_out_free_host(&ref);
    gj_dtable_free(&dr);
    gj_dtable_free(&ds);
    gj_ctx_free(ctx);
}

/* PK-FK: R keys a shuffled 0..nr-1 plus offset, S keys uniform over
 * [0, nr / match) (so about `match` of S matches), all shifted by off */
static void pkfk_tables(gj_dtable *r, gj_dtable *s, uint64_t nr, uint64_t ns, double match, int kw, int npr,
                        int nps, const int *pw, uint64_t off)
{
    gj_dtable hr, hs;
    host_table(&hr, nr, kw, npr, pw);
    host_table(&hs, ns, kw, nps, pw);
    uint64_t *perm = xmalloc(nr * sizeof *perm);
    for (uint64_t i = 0; i < nr; i++) perm[i] = i;
    for (uint64_t i = nr; i > 1; i--) {
        uint64_t j = rnd() % i, t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    for (uint64_t i = 0; i < nr; i++) hset(&hr.key, i, perm[i] + off);
    uint64_t dom = match > 0 ? (uint64_t)(nr / match) + 1 : 0;
    for (uint64_t i = 0; i < ns; i++)
        hset(&hs.key, i, (match > 0 ? rnd() % dom : nr + rnd() % (nr + 7)) + off);
    free(perm);
    *r = hr;
    *s = hs;
}

static void pkfk_case(uint64_t nr, uint64_t ns, double match, int kw, int npr, int nps,
                      const int *pw, uint64_t off)
{
    gj_dtable hr, hs;
    pkfk_tables(&hr, &hs, nr, ns, match, kw, npr, nps, pw, off);
    check_all(&hr, &hs, match == 0 ? 0 : UINT64_MAX);
    gj_htable_free(&hr);
    gj_htable_free(&hs);
}

static const int W4[8] = {4, 4, 4, 4, 4, 4, 4, 4};
static const int WMIX[8] = {8, 4, 8, 4, 4, 8, 4, 8};
static const int W8[8] = {8, 8, 8, 8, 8, 8, 8, 8};

/* ---- CPU only ----------------------------------------------------------- */

static void test_reference_by_hand(void **state)
{
    (void)state;
    uint32_t rk[] = {2, 1, 3, 2}, rp[] = {20, 10, 30, 21};
    uint32_t sk[] = {4, 3, 2, 3}, sp[] = {400, 300, 200, 301};
    gj_dtable r = {0}, s = {0};
    gj_join_out out;
    r.rows = 4; r.key = (gj_column){rk, 4, GJ_DT_INT}; r.n_payloads = 1;
    r.payload[0] = (gj_column){rp, 4, GJ_DT_INT};
    s.rows = 4; s.key = (gj_column){sk, 4, GJ_DT_INT}; s.n_payloads = 1;
    s.payload[0] = (gj_column){sp, 4, GJ_DT_INT};
    assert_int_equal(gj_join_reference(&r, &s, &out, NULL), GJ_OK);
    /* key 2: R rows 20, 21 x S row 200; key 3: R 30 x S 300, 301 */
    assert_int_equal(out.rows, 4);
    uint32_t ek[] = {2, 2, 3, 3}, er[] = {20, 21, 30, 30}, es[] = {200, 200, 300, 301};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(((uint32_t *)out.key.data)[i], ek[i]);
        assert_int_equal(((uint32_t *)out.r[0].data)[i], er[i]);
        assert_int_equal(((uint32_t *)out.s[0].data)[i], es[i]);
    }
    /* compare: equal to itself, unequal after changing one payload */
    int eq = 0;
    assert_int_equal(gj_join_compare(&out, &out, &eq, NULL), GJ_OK);
    assert_true(eq);
    gj_join_out ref2;
    assert_int_equal(gj_join_reference(&r, &s, &ref2, NULL), GJ_OK);
    ((uint32_t *)ref2.s[0].data)[3] = 999;
    assert_int_equal(gj_join_compare(&out, &ref2, &eq, NULL), GJ_OK);
    assert_false(eq);
    gj_join_out_free_host(&ref2);
    gj_join_out_free_host(&out);
}

static void test_reference_empty_and_widths(void **state)
{
    (void)state;
    uint64_t rk[] = {0xF000000000000001ULL}, sk[] = {0xF000000000000001ULL, 1};
    gj_dtable r = {0}, s = {0};
    gj_join_out out;
    r.rows = 1; r.key = (gj_column){rk, 8, GJ_DT_INT};
    s.rows = 2; s.key = (gj_column){sk, 8, GJ_DT_INT};
    assert_int_equal(gj_join_reference(&r, &s, &out, NULL), GJ_OK);
    assert_int_equal(out.rows, 1);
    assert_true(((uint64_t *)out.key.data)[0] == 0xF000000000000001ULL);
    gj_join_out_free_host(&out);
    r.rows = 0;
    assert_int_equal(gj_join_reference(&r, &s, &out, NULL), GJ_OK);
    assert_int_equal(out.rows, 0);
    gj_join_out_free_host(&out);
    s.key.width = 4;
    assert_int_equal(gj_join_reference(&r, &s, &out, NULL), GJ_ERR_INVALID);
}

static void test_exec_rejects_bad_arguments(void **state)
{
    (void)state;
    gj_dtable r = {0}, s = {0};
    gj_join_out out;
    r.key.width = 4;
    s.key.width = 4;
    assert_int_equal(gj_join_exec(GJ_IMPL_HGB, &r, &s, NULL, &out, NULL, NULL), GJ_ERR_INVALID);
    s.key.width = 8;
    assert_int_equal(gj_join_exec(GJ_IMPL_PHJ_UR, &r, &s, NULL, &out, NULL, NULL), GJ_ERR_INVALID);
    s.key.width = 4;
    r.n_payloads = 9;
    assert_int_equal(gj_join_exec(GJ_IMPL_SMJ_TR, &r, &s, NULL, &out, NULL, NULL), GJ_ERR_INVALID);
    r.n_payloads = 1;
    r.payload[0].width = 2;
    assert_int_equal(gj_join_exec(GJ_IMPL_NPHJ, &r, &s, NULL, &out, NULL, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_join_exec(GJ_IMPL_NPHJ, &r, &s, NULL, NULL, NULL, NULL), GJ_ERR_INVALID);
}

/* ---- GPU ---------------------------------------------------------------- */
#define NEED_GPU() do { if (!have_gpu()) skip(); } while (0)

static void test_gpu_empty_and_one(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 1;
    pkfk_case(0, 0, 1, 4, 2, 2, W4, 0);
    pkfk_case(0, 7, 1, 4, 1, 1, W4, 0);
    pkfk_case(7, 0, 1, 8, 1, 1, W8, 0);
    pkfk_case(1, 1, 1, 4, 2, 2, W4, 0); /* key 0 vs uniform [0, 2): may or may not match */
    pkfk_case(1, 1, 0, 4, 2, 2, W4, 0);
}

static void test_gpu_odd_sizes(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 2;
    const uint64_t sz[][2] = {{3, 5}, {1023, 1025}, {2047, 4097}, {4097, 4095},
                              {4096 + 1, 8191}, {9001, 77777}, {100003, 50001}};
    for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++)
        pkfk_case(sz[i][0], sz[i][1], 1, 4, 2, 2, W4, 0);
}

/* R keys all even: the odd partitions of PHJ have S rows but no R rows */
static void test_gpu_empty_partitions(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 6;
    gj_dtable hr, hs;
    host_table(&hr, 20000, 4, 2, W4);
    host_table(&hs, 30001, 4, 2, W4);
    for (uint64_t i = 0; i < hr.rows; i++) hset(&hr.key, i, 2 * ((i * 7919) % hr.rows));
    for (uint64_t i = 0; i < hs.rows; i++) hset(&hs.key, i, rnd() % 40000);
    check_all(&hr, &hs, UINT64_MAX);
    gj_htable_free(&hr);
    gj_htable_free(&hs);
}

/* Key domains with structure in their low bits, which PHJ's partitions must
 * not follow (it partitions hashed keys, operators/join_api.cu side_keys):
 * TPC-H's sparse order keys (8 of every 32 values) and 8-byte keys whose low
 * 32 bits are all zero (on raw bits: every row in partition 0). */
static void test_gpu_structured_keys(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 31;
    for (int kind = 0; kind < 2; kind++) {
        const int kw = kind ? 8 : 4;
        const uint64_t nr = kind ? 30001 : 200000, ns = kind ? 70001 : 600000;
        gj_dtable hr, hs;
        host_table(&hr, nr, kw, 2, kind ? W8 : W4);
        host_table(&hs, ns, kw, 1, kind ? W8 : W4);
        for (uint64_t i = 0; i < nr; i++) {
            uint64_t o = (i * 7919) % nr; /* a permutation of the orders */
            hset(&hr.key, i, kind ? (o + 1) << 32 : (o / 8) * 32 + o % 8 + 1);
        }
        for (uint64_t i = 0; i < ns; i++) { /* 3/4 of S matches */
            uint64_t o = rnd() % (nr + nr / 3);
            hset(&hs.key, i, kind ? (o + 1) << 32 : (o / 8) * 32 + o % 8 + 1);
        }
        check_all(&hr, &hs, UINT64_MAX);
        gj_htable_free(&hr);
        gj_htable_free(&hs);
    }
}

/* generated as `gjadvise run join` does; then S in runs of 4 equal keys
 * (a clustered probe side, workload s_run) */
static void test_gpu_2p20_generated(void **state)
{
    (void)state;
    NEED_GPU();
    for (int runs = 0; runs < 2; runs++) {
        gj_workload w;
        gj_dtable dr, ds, hr, hs;
        gj_workload_default(&w, GJ_OP_JOIN);
        w.r_rows = w.s_rows = 1ULL << 20;
        w.match_ratio = runs ? 0.3 : 0.75;
        w.s_run = runs ? 4 : 0;
        assert_int_equal(gj_join_generate(&w, 42, 0, &dr, &ds, NULL), GJ_OK);
        assert_int_equal(gj_dtable_download(&dr, &hr, NULL), GJ_OK);
        assert_int_equal(gj_dtable_download(&ds, &hs, NULL), GJ_OK);
        check_all(&hr, &hs, UINT64_MAX);
        gj_htable_free(&hr);
        gj_htable_free(&hs);
        gj_dtable_free(&dr);
        gj_dtable_free(&ds);
    }
}

/* Sides already in key order (workload r_sorted, s_sorted: a table stored
 * by its key): SMJ sees it in its min/max pass and merges that side in
 * place (operators/join_api.cu run_smj). R only, S only, both; the dense
 * write (match ratio 1), the compacting one, Zipf runs, 8-byte keys with
 * high bits, many-to-many; then keys in order but for the last two rows
 * (one descent: the side must be sorted after all). */
static void test_gpu_sides_in_order(void **state)
{
    (void)state;
    NEED_GPU();
    const struct { int rs, ss, kb; double match, zipf; uint64_t out, off; } c[] = {
        {1, 0, 4, 1, 0, 0, 0}, {0, 1, 4, 1, 0, 0, 0}, {1, 1, 4, 1, 0, 0, 0}, {0, 1, 4, 0.3, 0, 0, 0},
        {1, 1, 4, 0.3, 1.2, 0, 0}, {1, 1, 8, 0.6, 0, 0, 0xF000000000000000ULL}, {1, 1, 4, 1, 0, 3000000, 0},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        gj_workload w;
        gj_dtable dr, ds, hr, hs;
        gj_workload_default(&w, GJ_OP_JOIN);
        w.r_rows = 100003;
        w.s_rows = 300007;
        w.key_bytes = c[i].kb;
        w.payload_bytes = c[i].kb;
        w.match_ratio = c[i].match;
        w.zipf = c[i].zipf;
        w.out_rows = c[i].out;
        w.r_sorted = c[i].rs;
        w.s_sorted = c[i].ss;
        assert_int_equal(gj_join_generate(&w, 60 + i, c[i].off, &dr, &ds, NULL), GJ_OK);
        assert_int_equal(gj_dtable_download(&dr, &hr, NULL), GJ_OK);
        assert_int_equal(gj_dtable_download(&ds, &hs, NULL), GJ_OK);
        for (uint64_t k = 1; k < hr.rows && c[i].rs; k++) /* the generator sorted them */
            assert_true(hget(&hr.key, k - 1) <= hget(&hr.key, k));
        check_all(&hr, &hs, c[i].out || c[i].match < 1 ? UINT64_MAX : w.s_rows);
        if (i == 2) { /* both in order but for their last two rows */
            for (int side = 0; side < 2; side++) {
                gj_dtable *t = side ? &hs : &hr;
                uint64_t a = hget(&t->key, t->rows - 2), b = hget(&t->key, t->rows - 1);
                hset(&t->key, t->rows - 2, b);
                hset(&t->key, t->rows - 1, a);
            }
            check_all(&hr, &hs, w.s_rows);
        }
        gj_htable_free(&hr);
        gj_htable_free(&hs);
        gj_dtable_free(&dr);
        gj_dtable_free(&ds);
    }
}

static void test_gpu_zipf(void **state)
{
    (void)state;
    NEED_GPU();
    const double z[] = {0.5, 1.0, 1.5};
    for (int i = 0; i < 3; i++) {
        gj_workload w;
        gj_dtable dr, ds, hr, hs;
        gj_workload_default(&w, GJ_OP_JOIN);
        w.r_rows = 1ULL << 17;
        w.s_rows = (1ULL << 18) + 3;
        w.zipf = z[i];
        assert_int_equal(gj_join_generate(&w, 7 + i, 0, &dr, &ds, NULL), GJ_OK);
        assert_int_equal(gj_dtable_download(&dr, &hr, NULL), GJ_OK);
        assert_int_equal(gj_dtable_download(&ds, &hs, NULL), GJ_OK);
        check_all(&hr, &hs, w.s_rows); /* match ratio 1: every S row matches once */
        gj_htable_free(&hr);
        gj_htable_free(&hs);
        gj_dtable_free(&dr);
        gj_dtable_free(&ds);
    }
}

static void test_gpu_many_to_many(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 3;
    gj_dtable hr, hs;
    /* duplicates on both sides over a small domain */
    host_table(&hr, 30001, 4, 2, W4);
    host_table(&hs, 20011, 4, 1, W4);
    for (uint64_t i = 0; i < hr.rows; i++) hset(&hr.key, i, rnd() % 5003);
    for (uint64_t i = 0; i < hs.rows; i++) hset(&hs.key, i, rnd() % 6007);
    check_all(&hr, &hs, UINT64_MAX);
    gj_htable_free(&hr);
    gj_htable_free(&hs);
    /* one key repeated 9000 times in R (more than a shared-memory chunk) */
    host_table(&hr, 9100, 8, 1, W8);
    host_table(&hs, 300, 8, 1, W4);
    for (uint64_t i = 0; i < hr.rows; i++) hset(&hr.key, i, i < 9000 ? 77 : 100 + i);
    for (uint64_t i = 0; i < hs.rows; i++) hset(&hs.key, i, i % 3 ? 77 : 100 + 9000 + i % 100);
    check_all(&hr, &hs, 200ULL * 9000 + 100);
    gj_htable_free(&hr);
    gj_htable_free(&hs);
}

static void test_gpu_wide_keys_and_payloads(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 4;
    pkfk_case(5000, 12345, 0.6, 8, 2, 3, WMIX, 0xF00000000000000FULL);
    pkfk_case(70001, 70001, 1, 8, 1, 1, W8, 0xFFFFFFFF00000000ULL);
    pkfk_case(3001, 6007, 1, 4, 8, 8, WMIX, 0);
    pkfk_case(3001, 6007, 1, 4, 0, 0, W4, 0);
    pkfk_case(3001, 6007, 1, 8, 0, 8, W8, 1ULL << 40);
}

static void test_gpu_match_ratio_zero(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 5;
    pkfk_case(40000, 50000, 0, 4, 2, 2, W4, 0);
    gj_workload w;
    gj_dtable dr, ds, hr, hs;
    gj_workload_default(&w, GJ_OP_JOIN);
    w.r_rows = w.s_rows = 1ULL << 16;
    w.match_ratio = 0;
    assert_int_equal(gj_join_generate(&w, 9, 0, &dr, &ds, NULL), GJ_OK);
    assert_int_equal(gj_dtable_download(&dr, &hr, NULL), GJ_OK);
    assert_int_equal(gj_dtable_download(&ds, &hs, NULL), GJ_OK);
    check_all(&hr, &hs, 0);
    gj_htable_free(&hr);
    gj_htable_free(&hs);
    gj_dtable_free(&dr);
    gj_dtable_free(&ds);
}

/* Every S row matches exactly one R row: the joins write such outputs
 * without compaction, one side at a time, reusing their buffers as output
 * columns (operators/join_api.cu write_dense: S's sorted keys, GFTR's S
 * columns, first[] as the first 4-byte R column, GFUR's S row ids as the
 * first 4-byte S column). R keys a permutation of 0..nr-1 (structured 1:
 * TPC-H's sparse order keys; 2: 8-byte keys whose low 32 bits are zero;
 * PHJ partitions both hashed, so the output keys are unhashed in place),
 * plus off; S keys drawn from R's. Shapes:
 * one row; 4- and 8-byte keys; 2+2, 8+8 mixed, 0+0, 0+3 8-byte and 1 8-byte
 * + 1 4-byte columns (no in-place R column); R larger than S; 2^20 rows. */
static void all_match_case(uint64_t nr, uint64_t ns, int kw, int npr, int nps, const int *pwr,
                           const int *pws, int structured, uint64_t off)
{
    gj_dtable hr, hs;
    host_table(&hr, nr, kw, npr, pwr);
    host_table(&hs, ns, kw, nps, pws);
    uint64_t *keys = xmalloc(nr * sizeof *keys);
    for (uint64_t i = 0; i < nr; i++) {
        const uint64_t o = (i * 7919) % nr; /* a permutation: 7919 is a prime no nr below has */
        keys[i] = (structured == 1 ? (o / 8) * 32 + o % 8 : structured == 2 ? (o + 1) << 32 : o) + off;
        hset(&hr.key, i, keys[i]);
    }
    for (uint64_t i = 0; i < ns; i++) hset(&hs.key, i, keys[rnd() % nr]);
    free(keys);
    check_all(&hr, &hs, ns);
    gj_htable_free(&hr);
    gj_htable_free(&hs);
}

static void test_gpu_every_row_matches(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 51;
    static const int W8_4[2] = {8, 4};
    all_match_case(1, 1, 4, 2, 2, W4, W4, 0, 5);
    all_match_case(3001, 6007, 4, 2, 2, W4, W4, 0, 0);
    all_match_case(3001, 6007, 8, 8, 8, WMIX, WMIX, 0, 0xFFFFFFFF00000000ULL);
    all_match_case(3001, 6007, 4, 0, 0, W4, W4, 0, 0);
    all_match_case(3001, 6007, 8, 0, 3, W8, W8, 0, 1ULL << 40);
    all_match_case(5003, 9001, 4, 2, 1, W8_4, W4, 0, 0);
    all_match_case(70001, 5000, 4, 2, 2, W4, W4, 0, 0);
    all_match_case(200000, 600000, 4, 2, 1, W4, W4, 1, 1);
    all_match_case(30001, 70001, 8, 2, 3, W8, WMIX, 2, 0);
    all_match_case(1ULL << 20, 1ULL << 20, 4, 2, 2, W4, W4, 0, 0);
}

/* 2^20 x 2^20, S's keys skewed for msd_sort's paths (kind 0: 25 hot and 25
 * warm keys; 1: a hot key its sample misses), against every implementation */
static void msd_skew_case(int kind)
{
    const uint64_t nr = 1ULL << 20, ns = 1ULL << 20;
    gj_dtable hr, hs;
    host_table(&hr, nr, 4, 2, W4);
    host_table(&hs, ns, 4, 2, W4);
    for (uint64_t i = 0; i < nr; i++) hset(&hr.key, i, (i * 7919) % nr);
    for (uint64_t i = 0; i < ns; i++) {
        uint64_t k = rnd() % nr;
        if (kind == 0 && rnd() % 8 == 0) k = 1000 + 40000 * (rnd() % 25);        /* 25 hot keys */
        else if (kind == 0 && rnd() % 40 == 0) k = 20000 + 40000 * (rnd() % 25); /* 25 warm keys */
        if (kind == 1 && i % 4 && rnd() % 4 != 0) k = 12345;                      /* unsampled hot key */
        hset(&hs.key, i, k);
    }
    check_all(&hr, &hs, ns);
    gj_htable_free(&hr);
    gj_htable_free(&hs);
}

/* SMJ's MSD sort (operators/join_api.cu msd_sort) on keys of 20 bits, as
 * check_all forces it (GJ_JOIN_MSD=force: these sizes are below its
 * default threshold): the block sort of every partition (2048 rows on
 * average); warm keys that make partitions of about 3000 rows (the larger
 * tile); hot keys that make partitions too large for one block (CUB's
 * segmented sort); and a hot key that the strided sample does not see
 * (every 4th row sampled, the hot key never there), so that the exact sizes
 * send the partitioned pairs to CUB's full sort. Then 8-byte keys and
 * payloads (the 8-byte kernels). */
static void test_gpu_smj_msd_paths(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 41;
    msd_skew_case(0);
    msd_skew_case(1);
    pkfk_case(300007, 300001, 1, 8, 1, 2, W8, 1ULL << 40);
    /* odd sizes, S's 4-byte pair split: the MSD partition's two passes go
     * through S's two columns as a scratch in two pieces of ceil(n / 2)
     * and floor(n / 2) 8-byte values; then again with every 8-bit pass
     * scattering two tiles at a time (the pieces in part_scatter2_kernel) */
    pkfk_case((1ULL << 20) + 3, (1ULL << 20) + 7, 1, 4, 2, 2, W4, 0);
    assert_int_equal(setenv("GJ_JOIN_PART_PAIR", "force", 1), 0);
    pkfk_case((1ULL << 20) + 5, (1ULL << 20) + 3, 1, 4, 2, 2, W4, 0);
    unsetenv("GJ_JOIN_PART_PAIR");
    /* S's MSD partition through a scratch of half its rows (by default from
     * 2^25 rows), into the output where each partition is then sorted in
     * place: S's pair split, odd sizes, 4- and 8-byte keys (high bits
     * set); and hot keys, whose partitions msd_hot takes there (more in
     * test_gpu_msd_hot) */
    assert_int_equal(setenv("GJ_JOIN_PART_HALF", "force", 1), 0);
    pkfk_case((1ULL << 20) + 3, (1ULL << 20) + 7, 1, 4, 2, 2, W4, 0);
    pkfk_case((1ULL << 20) + 9, (1ULL << 20) + 1, 1, 8, 2, 2, W4, 1ULL << 40);
    msd_skew_case(0);
    unsetenv("GJ_JOIN_PART_HALF");
}

/* SMJ-TR's peak (gj_timing.peak_bytes) on hr, hs with the MSD sort and the
 * halves forced (GJ_JOIN_MSD=force, GJ_JOIN_PART_HALF=force): peak[0] with
 * the switch env=off, peak[1] without it; both outputs must equal the
 * reference's. Frees hr and hs. */
static void smj_tr_peaks(gj_dtable *hr, gj_dtable *hs, const char *env, uint64_t peak[2])
{
    gj_dtable dr, ds;
    gj_join_out ref;
    gj_ctx *ctx = NULL;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    upload(hr, &dr);
    upload(hs, &ds);
    assert_int_equal(gj_join_reference(hr, hs, &ref, ctx), GJ_OK);
    assert_int_equal(setenv("GJ_JOIN_MSD", "force", 1), 0);
    assert_int_equal(setenv("GJ_JOIN_PART_HALF", "force", 1), 0);
    for (int on = 0; on < 2; on++) {
        gj_join_out out, hout;
        gj_timing t;
        int eq = 0;
        if (on) unsetenv(env);
        else assert_int_equal(setenv(env, "off", 1), 0);
        assert_int_equal(gj_join_exec(GJ_IMPL_SMJ_TR, &dr, &ds, NULL, &out, &t, ctx), GJ_OK);
        assert_int_equal(gj_join_out_download(&out, &hout, ctx), GJ_OK);
        assert_int_equal(gj_join_compare(&hout, &ref, &eq, ctx), GJ_OK);
        assert_true(eq);
        peak[on] = t.peak_bytes;
        gj_join_out_free_host(&hout);
        gj_join_out_free(&out);
    }
    unsetenv("GJ_JOIN_MSD");
    unsetenv("GJ_JOIN_PART_HALF");
    unsetenv(env);
    gj_join_out_free_host(&ref);
    gj_dtable_free(&dr);
    gj_dtable_free(&ds);
    gj_htable_free(hr);
    gj_htable_free(hs);
    gj_ctx_free(ctx);
}

/* That the MSD sort of S's pair ran in place through halves, not only that
 * its output is right: SMJ-TR's peak (gj_timing.peak_bytes) with the sort
 * forced through halves (GJ_JOIN_MSD=force, GJ_JOIN_PART_HALF=force) falls
 * by about 6 bytes an S row against GJ_JOIN_MSD_INPLACE=off (a scratch of
 * half the rows of a 4-byte key and a packed pair, instead of all of them;
 * W1 on an H100: 4.851 -> 4.037 GB, 6.07 bytes a row), both outputs equal
 * to the reference's. Every S row matches once (R's keys 0..2^20 - 1, S's
 * drawn from them), so the output is written densely and the peak is S's
 * sort's, as at W1; with an unmatched S row the output was allocated
 * beside both sides and set both peaks, 44 bytes a row (H100, session 24,
 * bench/RESULTS.md). Keys of 20 bits: partitions of about 2048 rows on the
 * top 9, none over LARGE. */
static void test_gpu_msd_in_place_peak(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 61;
    const uint64_t n = (1ULL << 20) + 5; /* S's rows */
    gj_dtable hr, hs;
    uint64_t peak[2] = {0, 0};
    pkfk_tables(&hr, &hs, 1ULL << 20, n, 1, 4, 2, 2, W4, 0);
    for (uint64_t i = 0; i < n; i++) hset(&hs.key, i, rnd() % (1ULL << 20));
    smj_tr_peaks(&hr, &hs, "GJ_JOIN_MSD_INPLACE", peak);
    if (!(peak[1] + 5 * n <= peak[0] && peak[1] + 7 * n >= peak[0]))
        fail_msg("SMJ-TR's peak %llu bytes in place, %llu with the scratch pair: not about 6 bytes a row less",
                 (unsigned long long)peak[1], (unsigned long long)peak[0]);
}

/* S's keys for the MSD sort's hot partitions (operators/join_api.cu
 * msd_hot), every S row matching one of R's 2^20 keys (R: a shuffled
 * 0..2^20 - 1 plus off; keys of 20 bits, so partitions of 2048 keys on the
 * top 9 bits, about 2048 rows each): kind 0 a Zipf-like skew, half the rows
 * on 40 hot keys drawn towards the first, the keys in pairs of neighbours
 * (two hot keys in one partition: the one left beside the pivot goes round
 * again); kind 1 three keys of a quarter of the rows each (more hot rows
 * than the scratch's half: two batches); kind 2 forty keys of about 3000
 * rows in one partition (each under LARGE, any two over it: a round takes
 * one key a part, so four rounds leave at least 25, and CUB's segmented
 * sort sorts what is left). */
static void msd_hot_tables(gj_dtable *r, gj_dtable *s, int kind, int kw, int nps, uint64_t off)
{
    const uint64_t nr = 1ULL << 20, ns = (1ULL << 20) + 3;
    pkfk_tables(r, s, nr, ns, 1, kw, 2, nps, W4, off);
    for (uint64_t i = 0; i < ns; i++) {
        uint64_t k = rnd() % nr;
        if (kind == 0 && rnd() % 2) {
            const uint64_t rank = rnd() % (rnd() % 40 + 1);
            k = 1000 + 40000 * (rank / 2) + rank % 2;
        }
        if (kind == 1 && rnd() % 4 != 0) k = 300000 * (1 + rnd() % 3);
        if (kind == 2 && rnd() % 1024 < 117) k = 524288 + 7 + 50 * (rnd() % 40);
        hset(&s->key, i, k + off);
    }
}

/* SMJ-TR's MSD sort through halves with hot partitions (GJ_JOIN_MSD=force,
 * GJ_JOIN_PART_HALF=force; check_all's SMJ-TR run with the MSD sort): each
 * kind of msd_hot_tables against the reference, 4-byte keys, and 8-byte
 * keys with high bits set and four S payload columns (two pairs, each
 * sorted by itself: their pivots and rounds must give the same order) */
static void test_gpu_msd_hot(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 67;
    assert_int_equal(setenv("GJ_JOIN_PART_HALF", "force", 1), 0);
    for (int kind = 0; kind < 4; kind++) {
        gj_dtable hr, hs;
        msd_hot_tables(&hr, &hs, kind % 3, kind == 3 ? 8 : 4, kind == 3 ? 4 : 2, kind == 3 ? 1ULL << 40 : 0);
        check_all(&hr, &hs, hs.rows);
        gj_htable_free(&hr);
        gj_htable_free(&hs);
    }
    unsetenv("GJ_JOIN_PART_HALF");
}

/* That hot partitions keep the MSD sort's memory: SMJ-TR's peak on kind 0
 * (half of S's rows in hot partitions; the sample sees them, so with
 * GJ_JOIN_MSD_HOT=off the MSD sort declines and CUB's sort takes S with a
 * packed copy and its double buffer) must fall by at least 10 bytes an S
 * row (about 14: 8 for the packed copy and 12 for CUB's, against msd_hot's
 * scratch of at most half the rows, 6), both outputs equal to the
 * reference's. */
static void test_gpu_msd_hot_peak(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 71;
    gj_dtable hr, hs;
    uint64_t peak[2] = {0, 0};
    msd_hot_tables(&hr, &hs, 0, 4, 2, 0);
    const uint64_t n = hs.rows;
    smj_tr_peaks(&hr, &hs, "GJ_JOIN_MSD_HOT", peak);
    if (!(peak[1] + 10 * n <= peak[0]))
        fail_msg("SMJ-TR's peak %llu bytes through msd_hot, %llu with CUB's sort: not 10 bytes an S row less",
                 (unsigned long long)peak[1], (unsigned long long)peak[0]);
}

/* A probe side spread thinly over a large build side, where SMJ's threads
 * gallop between their S rows (operators/join_kernels.cuh gallop): gaps of
 * about 256 R rows (2^20 x 4096, as the validation grid's join-small-probe),
 * gaps that double from row to row with runs of 3 equal R keys (each S row
 * matches 3 times; the last steps overshoot the R window), and S keys past
 * R's largest, 8-byte keys. */
/* The semi-join filter (operators/join_api.cu key_filter). A generated
 * join at match ratio 0.25 (2^21 rows a side, 4-byte keys, 2+2 columns;
 * W2's shape), every implementation given the workload's hints (so the
 * filter takes it by default) against the CPU reference, its peak below
 * the same run's with GJ_JOIN_FILTER=off (the cut sides are a fraction of
 * the inputs). Then 8-byte keys spread over more than
 * GJ_JOIN_FILTER_MAX_SPAN values (multiplied by an odd constant): the
 * filter declines after R's min and max, the output still right and the
 * peak that of =off (but for its 16-byte buffer). gj_timing says whether
 * it cut the sides (S to the output's rows: primary-foreign-key). The hint
 * off runs without; gj_join_auto runs the model's choice. */
static uint64_t exec_peak(gj_impl impl, const gj_workload *w, const gj_dtable *dr, const gj_dtable *ds,
                          const gj_join_out *ref, const char *filter, int filtered)
{
    gj_ctx *ctx = NULL;
    gj_join_out out, hout;
    gj_timing t;
    int eq = 0;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    assert_int_equal(setenv("GJ_JOIN_FILTER", filter, 1), 0);
    int rc = gj_join_exec_w(impl, w, dr, ds, NULL, &out, &t, ctx);
    unsetenv("GJ_JOIN_FILTER");
    if (rc != GJ_OK) fprintf(stderr, "%s: %s\n", gj_impl_name(impl), gj_ctx_errmsg(ctx));
    assert_int_equal(rc, GJ_OK);
    assert_int_equal(gj_join_out_download(&out, &hout, ctx), GJ_OK);
    assert_int_equal(gj_join_compare(&hout, ref, &eq, ctx), GJ_OK);
    if (!eq)
        fprintf(stderr, "%s, GJ_JOIN_FILTER=%s: %llu rows vs reference %llu\n", gj_impl_name(impl), filter,
                (unsigned long long)hout.rows, (unsigned long long)ref->rows);
    assert_true(eq);
    assert_int_equal(t.filtered, filtered);
    if (filtered) { /* the cut sides: S's matching rows, R's rows with their keys */
        assert_int_equal(t.cut_s_rows, ref->rows);
        assert_true(t.cut_r_rows > 0 && t.cut_r_rows <= t.cut_s_rows);
    }
    gj_join_out_free_host(&hout);
    gj_join_out_free(&out);
    gj_ctx_free(ctx);
    return t.peak_bytes;
}

static void test_gpu_key_filter(void **state)
{
    (void)state;
    NEED_GPU();
    for (int spread = 0; spread < 2; spread++) {
        gj_workload w;
        gj_dtable dr, ds, hr, hs;
        gj_join_out ref;
        gj_workload_default(&w, GJ_OP_JOIN);
        w.r_rows = w.s_rows = 1ULL << 21;
        w.match_ratio = 0.25;
        w.key_bytes = spread ? 8 : 4;
        assert_int_equal(gj_join_generate(&w, 26 + spread, 0, &dr, &ds, NULL), GJ_OK);
        assert_int_equal(gj_dtable_download(&dr, &hr, NULL), GJ_OK);
        assert_int_equal(gj_dtable_download(&ds, &hs, NULL), GJ_OK);
        if (spread) { /* k -> k * odd: a bijection, the same matches, keys over 2^63 values */
            for (uint64_t i = 0; i < hr.rows; i++) hset(&hr.key, i, hget(&hr.key, i) * 0x9E3779B97F4A7C15ULL);
            for (uint64_t i = 0; i < hs.rows; i++) hset(&hs.key, i, hget(&hs.key, i) * 0x9E3779B97F4A7C15ULL);
            gj_dtable_free(&dr);
            gj_dtable_free(&ds);
            upload(&hr, &dr);
            upload(&hs, &ds);
        }
        assert_int_equal(gj_join_reference(&hr, &hs, &ref, NULL), GJ_OK);
        assert_true(ref.rows > 0 && ref.rows < hs.rows / 2);
        for (int i = 0; i < N_IMPLS; i++) {
            const uint64_t off = exec_peak(IMPLS[i], &w, &dr, &ds, &ref, "off", 0);
            const uint64_t on = exec_peak(IMPLS[i], &w, &dr, &ds, &ref, spread ? "on" : "auto", !spread);
            if (spread ? on > off + 256 : on >= off)
                fprintf(stderr, "%s%s: peak %llu with the filter, %llu without\n", gj_impl_name(IMPLS[i]),
                        spread ? " (spread keys)" : "", (unsigned long long)on, (unsigned long long)off);
            if (spread) assert_true(on <= off + 256);
            else assert_true(on < off);
        }
        if (!spread) {
            /* the hint decides before the rule: off runs without */
            gj_workload wo = w;
            wo.filter = GJ_FILTER_OFF;
            exec_peak(GJ_IMPL_PHJ_TR, &wo, &dr, &ds, &ref, "auto", 0);
            /* gj_join_auto runs what the model predicted, with or without */
            gj_profile *p = NULL;
            gj_plan plan;
            gj_join_out out, hout;
            gj_timing t;
            int eq = 0;
            assert_int_equal(gj_profile_builtin("h100-tuned", &p), GJ_OK);
            assert_int_equal(gj_join_auto(&w, p, &dr, &ds, NULL, &plan, &out, &t, NULL), GJ_OK);
            assert_int_equal(t.filtered, plan.est[0].filtered);
            assert_int_equal(gj_join_out_download(&out, &hout, NULL), GJ_OK);
            assert_int_equal(gj_join_compare(&hout, &ref, &eq, NULL), GJ_OK);
            assert_true(eq);
            gj_join_out_free_host(&hout);
            gj_join_out_free(&out);
            gj_profile_free(p);
        }
        gj_join_out_free_host(&ref);
        gj_htable_free(&hr);
        gj_htable_free(&hs);
        gj_dtable_free(&dr);
        gj_dtable_free(&ds);
    }
}

static void test_gpu_sparse_probe_side(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 53;
    pkfk_case(1ULL << 20, 4096, 1, 4, 2, 2, W4, 0);
    pkfk_case(1ULL << 20, 4099, 0.3, 8, 1, 1, W8, 1ULL << 33);
    gj_dtable hr, hs;
    const uint64_t nr = 3 * (1ULL << 18);
    host_table(&hr, nr, 8, 1, W8);
    host_table(&hs, 64, 8, 2, W8);
    for (uint64_t i = 0; i < nr; i++) hset(&hr.key, i, ((i * 7919) % nr) / 3); /* keys 0..2^18-1, 3 each */
    for (uint64_t i = 0; i < hs.rows; i++) /* 0, 1, 3, 7, ... 2^18 - 1 match; the rest are past R */
        hset(&hs.key, i, i < 19 ? (1ULL << i) - 1 : (1ULL << 18) + i * 1000);
    check_all(&hr, &hs, 3 * 19);
    gj_htable_free(&hr);
    gj_htable_free(&hs);
}

/* A build side small enough for PHJ to skip partitioning (|R| <= 2048: one
 * partition, the item map and the read-back skipped) against a probe side of
 * several S chunks (16384 rows a work item), with and without matches, with
 * duplicates in R (the WRITE pass probes again), 8-byte keys; and |R| = 2049,
 * the smallest that partitions, with S rows in few partitions. */
static void test_gpu_small_build_side(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 8;
    pkfk_case(624, 5 * 16384 + 77, 0.5, 4, 3, 1, W4, 0);
    pkfk_case(624, 3 * 16384, 0, 4, 3, 1, W4, 0);
    pkfk_case(2048, 2 * 16384 + 1, 1, 8, 1, 2, WMIX, 0xF000000000000000ULL);
    pkfk_case(2049, 3 * 16384 + 5, 0.9, 4, 2, 2, W4, 0);
    pkfk_case(1, 16384 + 1, 1, 4, 1, 1, W4, 0);
    gj_dtable hr, hs;
    host_table(&hr, 600, 4, 1, W4);
    host_table(&hs, 2 * 16384 + 999, 4, 2, W4);
    for (uint64_t i = 0; i < hr.rows; i++) hset(&hr.key, i, i % 200); /* each key 3 times */
    for (uint64_t i = 0; i < hs.rows; i++) hset(&hs.key, i, rnd() % 4000);
    check_all(&hr, &hs, UINT64_MAX);
    gj_htable_free(&hr);
    gj_htable_free(&hs);
}

/* PHJ's sparse probe (operators/join_api.cu phj_sparse: |R| <= 4096, |S| >=
 * 2^20, at most |S|/16 matches, appended in no order): few matches with 4-
 * and 8-byte keys (high bits set), one R row, no match at all; and the
 * cases it declines after its pass, for the COUNT/WRITE passes to answer:
 * half of S matching (the pass stops early), R keys repeated (an S row
 * with 3 matches). */
static void test_gpu_small_build_few_matches(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 61;
    pkfk_case(624, (1ULL << 20) + 5, 0.0005, 4, 1, 3, W4, 0);
    pkfk_case(4096, (1ULL << 20) + 3, 0.002, 8, 2, 2, WMIX, 0xF000000000000000ULL);
    pkfk_case(1, 1ULL << 21, 0.00001, 4, 0, 1, W4, 0);
    pkfk_case(700, 1ULL << 20, 0, 4, 2, 2, W4, 0);
    pkfk_case(3000, 1ULL << 20, 0.5, 4, 2, 2, W4, 0);
    gj_dtable hr, hs;
    host_table(&hr, 600, 4, 1, W4);
    host_table(&hs, (1ULL << 20) + 1, 4, 2, W4);
    for (uint64_t i = 0; i < hr.rows; i++) hset(&hr.key, i, i % 200); /* each key 3 times */
    for (uint64_t i = 0; i < hs.rows; i++) hset(&hs.key, i, rnd() % 100000);
    check_all(&hr, &hs, UINT64_MAX);
    gj_htable_free(&hr);
    gj_htable_free(&hs);
}

/* ---- the radix partition (operators/join_partition.h) ------------------ */

/* one case: n keys (shape 0: random; 1: all with the same low `bits`
 * bits; 2..4, the top one of them, bits - 1, which splits a partition in
 * halves (operators/join_api.cu partition_halves), set in every row, in
 * 7 of 8, in 1 of 8), values per mode; GPU result against a CPU stable partition,
 * then CUB's sort (use_cub) against the same. shift: the input columns
 * start one row into their allocations (not 16-byte aligned: the
 * histogram's scalar loads). mode may carry GJ_PART_SPLIT (COPY8, PACK):
 * the values are then expected as their low halves, then their high
 * halves, and CUB's sort (which has no split) is not run. */
static void part_case_at(int kw, int mode, uint64_t n, int bits, int shape, int shift)
{
    const int split = mode & GJ_PART_SPLIT;
    mode &= ~GJ_PART_SPLIT;
    const int vw = mode == GJ_PART_IOTA || mode == GJ_PART_COPY4 ? 4 : 8;
    const int aw = mode == GJ_PART_COPY8 ? 8 : 4;
    const uint64_t lowmask = (1ULL << bits) - 1;
    unsigned char *k = xmalloc(n * kw), *a = xmalloc(n * aw), *b = xmalloc(n * 4);
    unsigned char *ek = xmalloc(n * kw), *ev = xmalloc(n * vw), *gk = xmalloc(n * kw),
                  *gv = xmalloc(n * vw);
    uint64_t *cnt = calloc(lowmask + 2, sizeof *cnt);
    void *dk, *da, *db, *dko, *dvo;
    gj_ctx *ctx = NULL;
    assert_non_null(cnt);
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t key = rnd();
        const uint64_t top = 1ULL << (bits - 1);
        if (shape == 1) key = (key & ~lowmask) | (5 & lowmask);
        else if (shape == 2 || (shape == 3 && rnd() % 8) || (shape == 4 && rnd() % 8 == 0)) key |= top;
        else if (shape >= 3) key &= ~top;
        if (kw == 4) ((uint32_t *)k)[i] = (uint32_t)key;
        else ((uint64_t *)k)[i] = key;
        if (aw == 4) ((uint32_t *)a)[i] = (uint32_t)rnd();
        else ((uint64_t *)a)[i] = rnd();
        ((uint32_t *)b)[i] = (uint32_t)rnd();
        cnt[(key & lowmask) + 1]++;
    }
    for (uint64_t d = 1; d <= lowmask + 1; d++) cnt[d] += cnt[d - 1];
    for (uint64_t i = 0; i < n; i++) { /* stable counting sort */
        uint64_t key = kw == 4 ? ((uint32_t *)k)[i] : ((uint64_t *)k)[i];
        uint64_t o = cnt[key & lowmask]++, v;
        memcpy(ek + o * kw, k + i * kw, kw);
        if (mode == GJ_PART_IOTA) v = i;
        else if (mode == GJ_PART_COPY4) v = ((uint32_t *)a)[i];
        else if (mode == GJ_PART_COPY8) v = ((uint64_t *)a)[i];
        else v = (uint64_t)((uint32_t *)a)[i] | ((uint64_t)((uint32_t *)b)[i] << 32);
        if (vw == 4) {
            ((uint32_t *)ev)[o] = (uint32_t)v;
        } else if (split) {
            ((uint32_t *)ev)[o] = (uint32_t)v;
            ((uint32_t *)ev)[n + o] = (uint32_t)(v >> 32);
        } else {
            ((uint64_t *)ev)[o] = v;
        }
    }
    assert_int_equal(cudaMalloc(&dk, (n + 1) * kw), cudaSuccess);
    assert_int_equal(cudaMalloc(&da, (n + 1) * aw), cudaSuccess);
    assert_int_equal(cudaMalloc(&db, (n + 1) * 4), cudaSuccess);
    unsigned char *ik = (unsigned char *)dk + shift * kw, *ia = (unsigned char *)da + shift * aw,
                  *ib = (unsigned char *)db + shift * 4;
    assert_int_equal(cudaMalloc(&dko, n * kw + 1), cudaSuccess);
    assert_int_equal(cudaMalloc(&dvo, n * vw + 1), cudaSuccess);
    assert_int_equal(cudaMemcpy(ik, k, n * kw, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(ia, a, n * aw, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(ib, b, n * 4, cudaMemcpyHostToDevice), cudaSuccess);
    for (int use_cub = 0; use_cub < (split ? 1 : 2); use_cub++) {
        /* poison: every output row must be written */
        assert_int_equal(cudaMemset(dko, 0xa5, n * kw), cudaSuccess);
        assert_int_equal(cudaMemset(dvo, 0xa5, n * vw), cudaSuccess);
        int rc = gj_join_partition(kw, ik, dko, mode | split, ia, ib, dvo, n, bits, use_cub, NULL, ctx);
        if (rc != GJ_OK) fprintf(stderr, "gj_join_partition: %s\n", gj_ctx_errmsg(ctx));
        assert_int_equal(rc, GJ_OK);
        assert_int_equal(cudaMemcpy(gk, dko, n * kw, cudaMemcpyDeviceToHost), cudaSuccess);
        assert_int_equal(cudaMemcpy(gv, dvo, n * vw, cudaMemcpyDeviceToHost), cudaSuccess);
        int ok = memcmp(gk, ek, n * kw) == 0 && memcmp(gv, ev, n * vw) == 0;
        if (!ok)
            fprintf(stderr, "partition %s kw=%d mode=%d split=%d n=%llu bits=%d shape=%d shift=%d: wrong\n",
                    use_cub ? "CUB" : "custom", kw, mode, split != 0, (unsigned long long)n, bits, shape, shift);
        assert_true(ok);
    }
    cudaFree(dk);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dko);
    cudaFree(dvo);
    gj_ctx_free(ctx);
    free(k);
    free(a);
    free(b);
    free(ek);
    free(ev);
    free(gk);
    free(gv);
    free(cnt);
}

static void part_case(int kw, int mode, uint64_t n, int bits, int shape)
{
    part_case_at(kw, mode, n, bits, shape, 0);
}

static void test_gpu_partition(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 77;
    static const uint64_t sizes[] = {1, 4095, 4096, 4097, 3 * 4096 + 17, 70001};
    for (int kw = 4; kw <= 8; kw += 4)
        for (int mode = GJ_PART_IOTA; mode <= GJ_PART_PACK; mode++)
            for (int bits = 1; bits <= 16; bits++) {
                /* every bit count at two sizes; the tile edges at 1, 8, 9, 16 bits */
                int edge = bits == 1 || bits == 8 || bits == 9 || bits == 16;
                for (size_t si = edge ? 0 : 3; si < sizeof sizes / sizeof *sizes; si += edge ? 1 : 2)
                    part_case(kw, mode, sizes[si], bits, 0);
                part_case(kw, mode, 9000, bits, 1); /* all keys in one partition */
            }
    part_case(4, GJ_PART_PACK, (1ULL << 20) + 3, 16, 0);
    part_case(8, GJ_PART_COPY8, (1ULL << 20) + 3, 11, 0);
    /* several tiles a block of the persistent scatter (the next tile's
     * keys loaded ahead), and columns that are not 16-byte aligned */
    part_case(4, GJ_PART_PACK, 5000003, 9, 0);
    part_case(4, GJ_PART_IOTA, 4000000, 16, 0);
    part_case(8, GJ_PART_COPY8, 3000017, 16, 0);
    for (int mode = GJ_PART_IOTA; mode <= GJ_PART_PACK; mode++) part_case_at(4, mode, 1500001, 12, 0, 1);
    part_case_at(8, GJ_PART_COPY4, 1500001, 7, 0, 1);
    /* split values (PHJ's S pairs): one pass and two, several tiles a block */
    static const int split_bits[] = {1, 8, 9, 16};
    for (size_t bi = 0; bi < sizeof split_bits / sizeof *split_bits; bi++) {
        part_case(4, GJ_PART_PACK | GJ_PART_SPLIT, 70001, split_bits[bi], 0);
        part_case(8, GJ_PART_COPY8 | GJ_PART_SPLIT, 4097, split_bits[bi], 0);
        part_case(8, GJ_PART_PACK | GJ_PART_SPLIT, 3 * 4096 + 17, split_bits[bi], 1);
    }
    part_case(4, GJ_PART_PACK | GJ_PART_SPLIT, 5000003, 16, 0);
    part_case_at(4, GJ_PART_PACK | GJ_PART_SPLIT, 1500001, 12, 0, 1);
    /* bad arguments */
    assert_int_equal(gj_join_partition(4, NULL, NULL, 0, NULL, NULL, NULL, 5, 17, 0, NULL, NULL),
                     GJ_ERR_INVALID);
    assert_int_equal(gj_join_partition(2, NULL, NULL, 0, NULL, NULL, NULL, 5, 8, 0, NULL, NULL),
                     GJ_ERR_INVALID);
    assert_int_equal(gj_join_partition(4, NULL, NULL, 0, NULL, NULL, NULL, 0, 8, 0, NULL, NULL), GJ_OK);
    assert_int_equal(gj_join_partition(4, NULL, NULL, GJ_PART_COPY4 | GJ_PART_SPLIT, NULL, NULL, NULL, 5, 8, 0,
                                       NULL, NULL),
                     GJ_ERR_INVALID);
    assert_int_equal(gj_join_partition(4, NULL, NULL, GJ_PART_PACK | GJ_PART_SPLIT, NULL, NULL, NULL, 5, 8, 1,
                                       NULL, NULL),
                     GJ_ERR_INVALID);
    /* the wide pass is for hashed keys only */
    assert_int_equal(gj_join_partition(4, NULL, NULL, GJ_PART_COPY4 | GJ_PART_WIDE, NULL, NULL, NULL, 5, 9, 0,
                                       NULL, NULL),
                     GJ_ERR_INVALID);
}

/* Two-pass partitions of packed pairs through a scratch of half the rows
 * (operators/join_api.cu partition_halves; GJ_JOIN_PART_HALF=force takes it
 * at any size, by default from GJ_PART_HALF_MIN_ROWS rows): against the CPU
 * stable partition, with the halves of every shape (random, the top bit
 * set everywhere or nowhere: a half empty, in 7 of 8 rows or 1 of 8: the
 * larger half in the scratch or in the output), split values and packed,
 * 9 to 16 bits, both key widths, one tile at a time and two, and over 2^25 + 1 rows (many tiles a block, both halves
 * past a pair's threshold). The partition call itself never asks for
 * halves (only transform_cols' S side does), so the force takes them here;
 * check_all forces them in PHJ-TR and SMJ-TR end to end. */
static void test_gpu_partition_halves(void **state)
{
    (void)state;
    NEED_GPU();
    rng_state = 91;
    static const uint64_t sizes[] = {1, 4097, 70001, (1ULL << 20) + 3};
    static const int bits[] = {9, 12, 16};
    assert_int_equal(setenv("GJ_JOIN_PART_HALF", "force", 1), 0);
    for (int pair = 0; pair < 2; pair++) {
        if (pair) assert_int_equal(setenv("GJ_JOIN_PART_PAIR", "force", 1), 0);
        for (int kw = 4; kw <= 8; kw += 4)
            for (size_t bi = 0; bi < sizeof bits / sizeof *bits; bi++)
                for (int shape = 0; shape <= 4; shape++)
                    for (size_t si = shape ? 2 : 0; si < sizeof sizes / sizeof *sizes; si++) {
                        part_case(kw, GJ_PART_PACK | GJ_PART_SPLIT, sizes[si], bits[bi], shape);
                        if (shape == 0 || shape == 3) part_case(kw, GJ_PART_PACK, sizes[si], bits[bi], shape);
                    }
        unsetenv("GJ_JOIN_PART_PAIR");
    }
    part_case_at(4, GJ_PART_PACK | GJ_PART_SPLIT, 1500001, 14, 4, 1);
    part_case(4, GJ_PART_PACK | GJ_PART_SPLIT, (1ULL << 25) + 1, 16, 0);
    part_case(8, GJ_PART_PACK, (1ULL << 25) + 1, 10, 3);
    unsetenv("GJ_JOIN_PART_HALF");
}

/* ---- PGB's claimed pass (gj_join_partition_claim) ---------------------- */

static int cmp_row(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] != b[1] ? (a[1] < b[1] ? -1 : 1) : 0;
}

/* n rows of random keys (or, adversarial, 4-byte keys where the sampled
 * rows all hash to one bin and the others to another; runs: random keys
 * each repeated over an aligned run of GJ_PART_CLAIM_RUN rows, the sample's
 * worst case that its margin still covers), IOTA or PACK values, `bits`
 * bits: the claimed pass against the exact one, bin by bin as multisets of
 * (hashed key, value); the adversarial sample must make the pass decline
 * (claimed 0). CLAIM_SPAN: a direct plan's keys (GJ_PART_RES16, unhashed),
 * spanning 2^14 values a partition from a base with the high bits set,
 * whose residues decode to the exact pass's keys; CLAIM_SPAN_WIDE: a span
 * past int16's reach from any first key (a workload's span told too
 * small), declined. */
enum { CLAIM_RANDOM, CLAIM_ADVERSARIAL, CLAIM_RUNS, CLAIM_SPAN, CLAIM_SPAN_WIDE };
static void claim_case(int kw, int mode, uint64_t n, int bits, int shape)
{
    const int adversarial = shape == CLAIM_ADVERSARIAL || shape == CLAIM_SPAN_WIDE;
    const int res = shape == CLAIM_SPAN || shape == CLAIM_SPAN_WIDE;
    const int hash = res ? GJ_PART_RES16 : GJ_PART_HASH;
    const uint64_t span = (shape == CLAIM_SPAN ? 16384ull : 140000ull) << bits; /* wide: some key 70000 from any */
    const uint64_t base = kw == 4 ? 0xf0000000ull - 12345 : 0xfff0000000000000ull + 987654321;
    const int vw = mode == GJ_PART_IOTA ? 4 : 8;
    const uint32_t nb = 1u << bits, mask = nb - 1;
    const uint64_t room = (uint64_t)gj_part_claim_room((double)n, bits);
    unsigned char *k = xmalloc(n * kw), *ek = xmalloc(n * kw), *ev = xmalloc(n * vw);
    unsigned char *gk = xmalloc(room * kw), *gv = xmalloc(room * vw);
    uint32_t *a = xmalloc(n * 4), *b = xmalloc(n * 4), *wh = xmalloc((4 * nb + 2) * 4);
    uint64_t *ra = xmalloc(n * 16), *rb = xmalloc(n * 16);
    uint32_t k0 = 1, k1 = 2;
    while ((test_hash_key(kw, k1) & mask) == (test_hash_key(kw, k0) & mask)) k1++;
    uint64_t key = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (res) key = base + rnd() % span;
        else if (shape != CLAIM_RUNS || i % GJ_PART_CLAIM_RUN == 0) key = adversarial ? k1 : rnd();
        if (kw == 4) ((uint32_t *)k)[i] = (uint32_t)key;
        else ((uint64_t *)k)[i] = key;
        a[i] = (uint32_t)rnd();
        b[i] = (uint32_t)rnd();
    }
    if (shape == CLAIM_ADVERSARIAL) /* the rows the sample reads (operators/join_api.cu claim_sample_kernel) */
        for (uint64_t j = 0; j * GJ_PART_CLAIM_SAMPLE * GJ_PART_CLAIM_RUN < n; j++)
            for (uint64_t r = gj_part_claim_run(j, n), i = 0; i < GJ_PART_CLAIM_RUN && r + i < n; i++)
                ((uint32_t *)k)[r + i] = k0;
    void *dk, *da, *db, *dko, *dvo, *dw;
    gj_ctx *ctx = NULL;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    assert_int_equal(cudaMalloc(&dk, n * kw), cudaSuccess);
    assert_int_equal(cudaMalloc(&da, n * 4), cudaSuccess);
    assert_int_equal(cudaMalloc(&db, n * 4), cudaSuccess);
    assert_int_equal(cudaMalloc(&dko, room * kw), cudaSuccess);
    assert_int_equal(cudaMalloc(&dvo, room * vw), cudaSuccess);
    assert_int_equal(cudaMalloc(&dw, (4 * nb + 2) * 4), cudaSuccess);
    assert_int_equal(cudaMemcpy(dk, k, n * kw, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice), cudaSuccess);
    /* the exact pass: the reference */
    assert_int_equal(gj_join_partition(kw, dk, dko, mode | (res ? 0 : GJ_PART_HASH), da, db, dvo, n, bits, 0, NULL, ctx),
                     GJ_OK);
    assert_int_equal(cudaMemcpy(ek, dko, n * kw, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(cudaMemcpy(ev, dvo, n * vw, cudaMemcpyDeviceToHost), cudaSuccess);
    int claimed = -1;
    int rc = gj_join_partition_claim(kw, dk, dko, mode | hash, da, db, dvo, n, bits, room, dw, &claimed, NULL, ctx);
    if (rc != GJ_OK) fprintf(stderr, "gj_join_partition_claim: %s\n", gj_ctx_errmsg(ctx));
    assert_int_equal(rc, GJ_OK);
    if (adversarial) {
        if (claimed) fprintf(stderr, "claim kw=%d n=%llu bits=%d: the adversarial %s was not declined\n", kw,
                             (unsigned long long)n, bits, res ? "span" : "sample");
        assert_int_equal(claimed, 0);
    } else {
        assert_int_equal(claimed, 1);
        assert_int_equal(cudaMemcpy(gk, dko, room * kw, cudaMemcpyDeviceToHost), cudaSuccess);
        /* residues: the keys back from their bins (k0 the first input key) */
        const uint64_t k0 = kw == 4 ? ((uint32_t *)k)[0] : ((uint64_t *)k)[0];
        assert_int_equal(cudaMemcpy(gv, dvo, room * vw, cudaMemcpyDeviceToHost), cudaSuccess);
        assert_int_equal(cudaMemcpy(wh, dw, (4 * nb + 2) * 4, cudaMemcpyDeviceToHost), cudaSuccess);
        uint64_t at = 0, bad = 0;
        for (uint32_t d = 0; d < nb; d++) { /* the exact pass's bin d is [at, at + c) */
            const uint64_t s0 = wh[d], e0 = wh[2 * nb + d]; /* its rows; its room ends at wh[nb + d] */
            uint64_t c = 0;
            while (at + c < n && ((kw == 4 ? ((uint32_t *)ek)[at + c] : ((uint64_t *)ek)[at + c]) & mask) == d) c++;
            if (e0 < s0 || e0 - s0 != c || e0 > wh[nb + d] || wh[nb + d] > room || (d && s0 < wh[nb + d - 1])) {
                fprintf(stderr, "claim kw=%d n=%llu bits=%d: bin %u at [%llu, %llu), %llu rows expected\n", kw,
                        (unsigned long long)n, bits, d, (unsigned long long)s0, (unsigned long long)e0,
                        (unsigned long long)c);
                bad++;
                break;
            }
            for (uint64_t i = 0; i < c; i++) {
                const uint64_t x = at + i, y = s0 + i;
                ra[2 * i] = kw == 4 ? ((uint32_t *)ek)[x] : ((uint64_t *)ek)[x];
                ra[2 * i + 1] = vw == 4 ? ((uint32_t *)ev)[x] : ((uint64_t *)ev)[x];
                rb[2 * i] = res ? ((k0 >> bits) + (uint64_t)(int64_t)((int16_t *)gk)[y]) << bits | d
                            : kw == 4 ? ((uint32_t *)gk)[y] : ((uint64_t *)gk)[y];
                if (res && kw == 4) rb[2 * i] &= 0xffffffffull;
                rb[2 * i + 1] = vw == 4 ? ((uint32_t *)gv)[y] : ((uint64_t *)gv)[y];
            }
            qsort(ra, c, 16, cmp_row);
            qsort(rb, c, 16, cmp_row);
            if (memcmp(ra, rb, c * 16)) {
                fprintf(stderr, "claim kw=%d n=%llu bits=%d: bin %u's rows differ\n", kw, (unsigned long long)n,
                        bits, d);
                bad++;
                break;
            }
            at += c;
        }
        assert_true(bad == 0 && at == n);
    }
    cudaFree(dk);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dko);
    cudaFree(dvo);
    cudaFree(dw);
    gj_ctx_free(ctx);
    free(k);
    free(ek);
    free(ev);
    free(gk);
    free(gv);
    free(a);
    free(b);
    free(wh);
    free(ra);
    free(rb);
}

static void test_gpu_partition_claim(void **state)
{
    (void)state;
    /* bad arguments first: they need no device */
    int claimed = 1;
    uint32_t w[4];
    assert_int_equal(gj_join_partition_claim(4, NULL, NULL, GJ_PART_COPY4 | GJ_PART_HASH, NULL, NULL, NULL, 100, 8,
                                             1 << 20, w, &claimed, NULL, NULL),
                     GJ_ERR_INVALID);
    assert_int_equal(claimed, 0);
    const uint64_t room100 = (uint64_t)gj_part_claim_room(100.0, 8);
    assert_int_equal(gj_join_partition_claim(4, NULL, NULL, GJ_PART_PACK, NULL, NULL, NULL, 100, 8, room100, w,
                                             &claimed, NULL, NULL),
                     GJ_ERR_INVALID); /* neither hashed nor residues */
    assert_int_equal(gj_join_partition_claim(4, NULL, NULL, GJ_PART_PACK | GJ_PART_HASH | GJ_PART_RES16, NULL, NULL,
                                             NULL, 100, 8, room100, w, &claimed, NULL, NULL),
                     GJ_ERR_INVALID); /* both */
    assert_int_equal(gj_join_partition_claim(4, NULL, NULL, GJ_PART_IOTA | GJ_PART_HASH, NULL, NULL, NULL, 100, 11,
                                             1 << 24, w, &claimed, NULL, NULL),
                     GJ_ERR_INVALID); /* 11 bits: two passes */
    assert_int_equal(gj_join_partition_claim(4, NULL, NULL, GJ_PART_IOTA | GJ_PART_HASH, NULL, NULL, NULL, 100000, 8,
                                             100000, w, &claimed, NULL, NULL),
                     GJ_ERR_INVALID); /* room too small */
    assert_int_equal(gj_join_partition_claim(4, NULL, NULL, GJ_PART_IOTA | GJ_PART_HASH, NULL, NULL, NULL, 1ULL << 31,
                                             8, (uint64_t)gj_part_claim_room(2147483648.0, 8), w, &claimed, NULL,
                                             NULL),
                     GJ_ERR_INVALID); /* room + n past 2^32: the bins' cursors would wrap */
    NEED_GPU();
    rng_state = 91;
    static const uint64_t sizes[] = {1, 7679, 7681, 100003, 3000017};
    for (int kw = 4; kw <= 8; kw += 4)
        for (int mode = GJ_PART_IOTA; mode <= GJ_PART_PACK; mode += GJ_PART_PACK)
            for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
                claim_case(kw, mode, sizes[si], si % 2 ? 8 : 5, CLAIM_RANDOM);
    claim_case(4, GJ_PART_PACK, 1 << 20, 1, CLAIM_RANDOM);
    /* the wide pass's 9 bits (512 bins, a thread a bin), and the claim's
     * own 10 (1024 bins in 1024 x 8 tiles) */
    for (int kw = 4; kw <= 8; kw += 4) {
        claim_case(kw, GJ_PART_PACK, 3000017, 9, CLAIM_RANDOM);
        claim_case(kw, GJ_PART_IOTA, 7681, 9, CLAIM_RANDOM);
        claim_case(kw, GJ_PART_PACK, 4000037, 8, CLAIM_RUNS);
        claim_case(kw, GJ_PART_IOTA, 3000017, 9, CLAIM_RUNS);
        claim_case(kw, GJ_PART_PACK, 5000011, 10, CLAIM_RANDOM);
        claim_case(kw, GJ_PART_IOTA, 8193, 10, CLAIM_RANDOM);
        claim_case(kw, GJ_PART_IOTA, 1, 10, CLAIM_RANDOM);
        claim_case(kw, GJ_PART_PACK, 3000017, 10, CLAIM_RUNS);
    }
    claim_case(4, GJ_PART_PACK, 2000000, 10, CLAIM_ADVERSARIAL);
    claim_case(4, GJ_PART_PACK, 2000000, 9, CLAIM_ADVERSARIAL);
    claim_case(4, GJ_PART_PACK, 2000000, 8, CLAIM_ADVERSARIAL);
    claim_case(4, GJ_PART_IOTA, 300000, 3, CLAIM_ADVERSARIAL);
    /* a direct plan's residues at the three tile shapes, and a span too wide */
    for (int kw = 4; kw <= 8; kw += 4) {
        claim_case(kw, GJ_PART_PACK, 3000017, 8, CLAIM_SPAN);
        claim_case(kw, GJ_PART_IOTA, 1000003, 9, CLAIM_SPAN);
        claim_case(kw, GJ_PART_PACK, 5000011, 10, CLAIM_SPAN);
        claim_case(kw, GJ_PART_IOTA, 1, 3, CLAIM_SPAN);
        claim_case(kw, GJ_PART_PACK, 2000000, 8, CLAIM_SPAN_WIDE);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_by_hand),
        cmocka_unit_test(test_reference_empty_and_widths),
        cmocka_unit_test(test_exec_rejects_bad_arguments),
        cmocka_unit_test(test_gpu_empty_and_one),
        cmocka_unit_test(test_gpu_odd_sizes),
        cmocka_unit_test(test_gpu_empty_partitions),
        cmocka_unit_test(test_gpu_structured_keys),
        cmocka_unit_test(test_gpu_2p20_generated),
        cmocka_unit_test(test_gpu_zipf),
        cmocka_unit_test(test_gpu_sides_in_order),
        cmocka_unit_test(test_gpu_smj_msd_paths),
        cmocka_unit_test(test_gpu_msd_in_place_peak),
        cmocka_unit_test(test_gpu_msd_hot),
        cmocka_unit_test(test_gpu_msd_hot_peak),
        cmocka_unit_test(test_gpu_many_to_many),
        cmocka_unit_test(test_gpu_wide_keys_and_payloads),
        cmocka_unit_test(test_gpu_match_ratio_zero),
        cmocka_unit_test(test_gpu_every_row_matches),
        cmocka_unit_test(test_gpu_small_build_side),
        cmocka_unit_test(test_gpu_small_build_few_matches),
        cmocka_unit_test(test_gpu_sparse_probe_side),
        cmocka_unit_test(test_gpu_key_filter),
        cmocka_unit_test(test_gpu_partition),
        cmocka_unit_test(test_gpu_partition_halves),
        cmocka_unit_test(test_gpu_partition_claim),
    };
    /* GJ_TEST_FILTER=test_gpu_key_filter (a cmocka pattern, * and ?): run
     * only those, when device time is short */
    if (getenv("GJ_TEST_FILTER")) cmocka_set_test_filter(getenv("GJ_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
