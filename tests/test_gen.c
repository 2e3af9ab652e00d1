/* GPU workload generators (operators/gen.h): permutation, ranges, Zipf
 * frequencies against the exact pmf, determinism, offsets, mismatches.
 * Argument checks run anywhere; the rest skip() without a device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "gjadvise.h"
#include "operators/gen.h"

static int have_gpu(void)
{
    int n = 0;
    return gj_gpu_count(&n, NULL) == GJ_OK && n > 0;
}
#define NEED_GPU() do { if (!have_gpu()) skip(); } while (0)

static uint64_t *fetch(void *d, int width, uint64_t n)
{
    uint64_t *h = malloc((n ? n : 1) * 8);
    void *t = malloc((n ? n : 1) * width);
    assert_non_null(h);
    assert_non_null(t);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(cudaMemcpy(t, d, n * width, cudaMemcpyDeviceToHost), cudaSuccess);
    for (uint64_t i = 0; i < n; i++)
        h[i] = width == 4 ? ((uint32_t *)t)[i] : ((uint64_t *)t)[i];
    free(t);
    return h;
}

static void test_rejects_bad_arguments(void **state)
{
    (void)state;
    char buf[8];
    assert_int_equal(gj_gen_shuffled_keys(buf, 2, 1, 0, 0, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_gen_uniform_keys(buf, 4, 1, 0, 0, 0, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_gen_zipf_keys(buf, 4, 1, 10, -1.0, 0, 0, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_gen_shuffled_keys(NULL, 4, 5, 0, 0, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_gen_shuffled_keys(NULL, 4, 0, 0, 0, NULL), GJ_OK); /* n = 0: nothing */
    assert_int_equal(gj_gen_shuffled_keys(buf, 4, 1ULL << 33, 0, 0, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_gen_runs(buf, 4, 1, 0, 0, NULL), GJ_ERR_INVALID); /* run 0 */
}

/* runs of equal keys (a clustered probe side): every row takes its run's
 * first key; a join generated with s_run has them in S */
static void test_runs(void **state)
{
    (void)state;
    NEED_GPU();
    const uint64_t n = 100003;
    void *d;
    assert_int_equal(cudaMalloc(&d, n * 4), cudaSuccess);
    assert_int_equal(gj_gen_uniform_keys(d, 4, n, 1u << 30, 5, 0, NULL), GJ_OK);
    uint64_t *before = fetch(d, 4, n);
    assert_int_equal(gj_gen_runs(d, 4, n, 7, 0, NULL), GJ_OK);
    uint64_t *h = fetch(d, 4, n);
    for (uint64_t i = 0; i < n; i++) assert_int_equal(h[i], before[i - i % 7]);
    free(before);
    free(h);
    cudaFree(d);
    gj_workload w;
    gj_dtable r, s;
    gj_workload_default(&w, GJ_OP_JOIN);
    w.r_rows = 1000;
    w.s_rows = 4001;
    w.s_run = 4;
    assert_int_equal(gj_join_generate(&w, 9, 0, &r, &s, NULL), GJ_OK);
    uint64_t *k = fetch(s.key.data, 4, s.rows);
    uint64_t changes = 0;
    for (uint64_t i = 1; i < s.rows; i++) {
        if (i % 4) assert_int_equal(k[i], k[i - 1]);
        changes += k[i] != k[i - 1];
    }
    assert_true(changes > 900); /* 1000 runs, a few draws repeat their neighbour */
    free(k);
    gj_dtable_free(&r);
    gj_dtable_free(&s);
}

static void test_shuffled_is_permutation(void **state)
{
    (void)state;
    NEED_GPU();
    const uint64_t sizes[] = {1, 2, 3, 1000, 4097, (1ULL << 20) + 3};
    for (int w = 4; w <= 8; w += 4)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            uint64_t n = sizes[k];
            void *d;
            assert_int_equal(cudaMalloc(&d, n * w), cudaSuccess);
            assert_int_equal(gj_gen_shuffled_keys(d, w, n, 99, 0, NULL), GJ_OK);
            uint64_t *h = fetch(d, w, n);
            unsigned char *seen = calloc(n, 1);
            uint64_t fixed = 0;
            for (uint64_t i = 0; i < n; i++) {
                assert_true(h[i] < n);
                assert_false(seen[h[i]]);
                seen[h[i]] = 1;
                fixed += h[i] == i;
            }
            if (n >= 1000) assert_true(fixed < n / 100); /* not the identity */
            free(seen);
            free(h);
            cudaFree(d);
        }
}

static void test_uniform_range_and_determinism(void **state)
{
    (void)state;
    NEED_GPU();
    uint64_t n = 1 << 20, dom = 1000;
    void *a, *b;
    assert_int_equal(cudaMalloc(&a, n * 8), cudaSuccess);
    assert_int_equal(cudaMalloc(&b, n * 8), cudaSuccess);
    assert_int_equal(gj_gen_uniform_keys(a, 8, n, dom, 5, 0, NULL), GJ_OK);
    assert_int_equal(gj_gen_uniform_keys(b, 8, n, dom, 5, 0, NULL), GJ_OK);
    uint64_t *x = fetch(a, 8, n), *y = fetch(b, 8, n);
    uint64_t cnt[1000] = {0};
    for (uint64_t i = 0; i < n; i++) {
        assert_true(x[i] < dom);
        assert_true(x[i] == y[i]);
        cnt[x[i]]++;
    }
    for (int i = 0; i < 1000; i++) /* mean 1048.6, sd ~32: 8 sd */
        assert_true(cnt[i] > 790 && cnt[i] < 1310);
    free(x);
    free(y);
    cudaFree(a);
    cudaFree(b);
}

static void test_zipf_matches_pmf(void **state)
{
    (void)state;
    NEED_GPU();
    const uint64_t n = 1 << 22, dom = 1 << 16;
    const double zs[] = {0.5, 1.0, 1.5};
    for (int zi = 0; zi < 3; zi++) {
        double z = zs[zi];
        void *d;
        assert_int_equal(cudaMalloc(&d, n * 4), cudaSuccess);
        assert_int_equal(gj_gen_zipf_keys(d, 4, n, dom, z, 11, 0, NULL), GJ_OK);
        uint64_t *h = fetch(d, 4, n);
        uint64_t *cnt = calloc(dom, sizeof *cnt);
        for (uint64_t i = 0; i < n; i++) {
            assert_true(h[i] < dom);
            cnt[h[i]]++;
        }
        /* the most frequent keys, sorted, against the pmf of ranks 1..8 */
        double hsum = 0;
        for (uint64_t r = 1; r <= dom; r++) hsum += pow((double)r, -z);
        for (int r = 1; r <= 8; r++) {
            uint64_t best = 0, bi = 0;
            for (uint64_t k = 0; k < dom; k++)
                if (cnt[k] > best) { best = cnt[k]; bi = k; }
            double expect = n * pow((double)r, -z) / hsum;
            assert_true(fabs((double)best - expect) < 6 * sqrt(expect) + 0.01 * expect);
            cnt[bi] = 0;
        }
        free(cnt);
        free(h);
        cudaFree(d);
    }
}

static void test_offset_and_mismatch(void **state)
{
    (void)state;
    NEED_GPU();
    uint64_t n = 10000, keep = 2500;
    void *d;
    assert_int_equal(cudaMalloc(&d, n * 8), cudaSuccess);
    assert_int_equal(gj_gen_shuffled_keys(d, 8, n, 3, 0, NULL), GJ_OK);
    assert_int_equal(gj_gen_mismatch_keys(d, 8, n, keep, 0, NULL), GJ_OK);
    assert_int_equal(gj_gen_offset_keys(d, 8, n, 0xF000000000000000ULL, 0, 0, NULL), GJ_OK);
    uint64_t *h = fetch(d, 8, n), below = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = h[i] - 0xF000000000000000ULL;
        assert_true(h[i] >= 0xF000000000000000ULL);
        assert_true(k < 2 * n);
        assert_true(k < keep || k >= n + keep);
        below += k < keep;
    }
    assert_int_equal(below, keep);
    free(h);
    cudaFree(d);
}

static void test_values(void **state)
{
    (void)state;
    NEED_GPU();
    uint64_t n = 100000;
    void *d;
    assert_int_equal(cudaMalloc(&d, n * 8), cudaSuccess);
    assert_int_equal(gj_gen_values(d, 8, GJ_DT_FLOAT, n, 1, 0, NULL), GJ_OK);
    double *v = malloc(n * 8);
    assert_int_equal(cudaMemcpy(v, d, n * 8, cudaMemcpyDeviceToHost), cudaSuccess);
    double lo = 1e9, hi = -1e9;
    for (uint64_t i = 0; i < n; i++) {
        assert_true(isfinite(v[i]) && v[i] >= -1000 && v[i] <= 1000);
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    assert_true(lo < -990 && hi > 990);
    free(v);
    cudaFree(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rejects_bad_arguments),
        cmocka_unit_test(test_shuffled_is_permutation),
        cmocka_unit_test(test_uniform_range_and_determinism),
        cmocka_unit_test(test_zipf_matches_pmf),
        cmocka_unit_test(test_offset_and_mismatch),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
