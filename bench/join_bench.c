/* Join benchmark driver for the device machine (bench/join_device.sh runs it).
 * For each workload W1..W4 of issue 4 (and any given on the command line) it
 * generates R and S on the GPU, runs every join implementation once to warm
 * up, then `repeat` times, and prints the median of each phase (CUDA events,
 * inputs on the GPU, output materialised and freed between runs), the peak
 * device memory the operator held, the bytes that must move (inputs read
 * once + output written once), the floor = bytes / B_G and the ratio.
 * B_G is measured here by a device-to-device cudaMemcpy of 2 GiB (read +
 * write bytes counted). Each output is checked: row count against the
 * workload, and an order-independent checksum of the rows compared across
 * the five implementations (downloaded once per implementation).
 *
 * Small build sides (not in the issue; TPC-H Q18's shape, PHJ without
 * partitioning): T1 = |R| 624 x |S| 2^26, match ratio 0.0001 (no R key
 * matches: llround(0.0624) = 0), 3 + 1 payloads; T2 = 2^19 x 2^26, match
 * ratio 0.03, 1 + 3 payloads (as bench/probe_device.sh runs them).
 *
 * usage: join_bench [repeat] [W1|W2|W3|W4|W5|T1|T2 ...]    (default 7, W1-W4)
 * JOIN_BENCH_IMPLS=PHJ-UR,PHJ-TR (environment) runs only the implementations named.
 * Each run is given the workload as hints (gj_join_exec_w, as run, bench
 * and validate call it): W2's semi-join filter takes it by default since
 * session 26 (GJ_JOIN_FILTER=off: as before). */
#include "gjadvise.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static uint64_t colget(const gj_column *c, uint64_t i)
{
    return c->width == 4 ? ((const uint32_t *)c->data)[i] : ((const uint64_t *)c->data)[i];
}
/* order-independent checksum of a device table's rows */
static uint64_t checksum(const gj_join_out *d)
{
    gj_join_out h;
    uint64_t sum = 0;
    if (gj_join_out_download(d, &h, NULL) != GJ_OK) return 0;
    for (uint64_t i = 0; i < h.rows; i++) {
        uint64_t x = mix(colget(&h.key, i));
        for (int c = 0; c < h.r_payloads; c++) x = mix(x ^ colget(&h.r[c], i));
        for (int c = 0; c < h.s_payloads; c++) x = mix(x ^ colget(&h.s[c], i) ^ 0x5555);
        sum += x;
    }
    gj_join_out_free_host(&h);
    return sum;
}

static double measure_bg(void)
{
    size_t n = 1ULL << 31;
    void *a = NULL, *b = NULL;
    cudaEvent_t e0, e1;
    double v[9];
    if (cudaMalloc(&a, n) || cudaMalloc(&b, n)) return 0;
    cudaMemset(a, 1, n);
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaMemcpy(b, a, n, cudaMemcpyDeviceToDevice);
    for (int i = 0; i < 9; i++) {
        float ms;
        cudaEventRecord(e0, 0);
        cudaMemcpy(b, a, n, cudaMemcpyDeviceToDevice);
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1);
        v[i] = 2.0 * n / (ms * 1e-3) / 1e9;
    }
    cudaFree(a);
    cudaFree(b);
    return median(v, 9);
}

int main(int argc, char **argv)
{
    int repeat = argc > 1 ? atoi(argv[1]) : 7;
    const char *all[] = {"W1", "W2", "W3", "W4"};
    const char **names = argc > 2 ? (const char **)argv + 2 : all;
    int nw = argc > 2 ? argc - 2 : 4;
    const gj_impl impls[] = {GJ_IMPL_PHJ_UR, GJ_IMPL_PHJ_TR, GJ_IMPL_SMJ_UR, GJ_IMPL_SMJ_TR,
                             GJ_IMPL_NPHJ};
    gj_ctx *ctx = NULL;
    gj_device dev;
    if (repeat < 1) repeat = 7;
    gj_ctx_new(&ctx);
    if (gj_gpu_identify(0, &dev, ctx) != GJ_OK) {
        fprintf(stderr, "no GPU: %s\n", gj_ctx_errmsg(ctx));
        return 3;
    }
    double bg = measure_bg();
    printf("# device %s, B_G (2 GiB D2D copy, read+write) = %.0f GB/s, median of %d runs\n",
           dev.name, bg, repeat);
    printf("%-4s %-7s %9s %9s %9s %9s %9s %9s %7s %9s %10s %s\n", "W", "impl", "transf", "match",
           "mater", "total", "min", "floor", "ratio", "peak_GB", "out_rows", "check");
    for (int wi = 0; wi < nw; wi++) {
        gj_workload w;
        gj_workload_default(&w, GJ_OP_JOIN);
        uint64_t key_offset = 0;
        if (!strcmp(names[wi], "W2")) w.match_ratio = 0.25;
        else if (!strcmp(names[wi], "W3")) w.r_rows = 1ULL << 26;
        else if (!strcmp(names[wi], "W4")) w.zipf = 1.0;
        else if (!strcmp(names[wi], "W5")) { /* 8-byte keys and payloads, high bits */
            w.key_bytes = w.payload_bytes = 8;
            w.r_rows = w.s_rows = 1ULL << 26;
            key_offset = 0xF000000000000000ULL;
        } else if (!strcmp(names[wi], "T1") || !strcmp(names[wi], "T2")) {
            const int t1 = names[wi][1] == '1';
            w.r_rows = t1 ? 624 : 1ULL << 19;
            w.s_rows = 1ULL << 26;
            w.match_ratio = t1 ? 0.0001 : 0.03;
            w.r_payloads = t1 ? 3 : 1;
            w.s_payloads = t1 ? 1 : 3;
        } else if (strcmp(names[wi], "W1")) {
            fprintf(stderr, "unknown workload %s\n", names[wi]);
            continue;
        }
        gj_dtable r, s;
        if (gj_join_generate(&w, 1234, key_offset, &r, &s, ctx) != GJ_OK) {
            fprintf(stderr, "%s: generate: %s\n", names[wi], gj_ctx_errmsg(ctx));
            continue;
        }
        double in_bytes = (double)w.r_rows * (w.key_bytes + w.r_payloads * w.payload_bytes) +
                          (double)w.s_rows * (w.key_bytes + w.s_payloads * w.payload_bytes);
        uint64_t ref_sum = 0;
        int have_ref = 0;
        for (int ii = 0; ii < 5; ii++) {
            /* JOIN_BENCH_IMPLS=PHJ-UR,PHJ-TR runs only those (profiling) */
            const char *only = getenv("JOIN_BENCH_IMPLS");
            if (only && !strstr(only, gj_impl_name(impls[ii]))) continue;
            double ph[3][64], tot[64];
            gj_timing t;
            gj_join_out out;
            uint64_t rows = 0, peak = 0;
            int ok = 1;
            for (int k = -1; k < repeat && k < 64; k++) {
                if (gj_join_exec_w(impls[ii], &w, &r, &s, NULL, &out, &t, ctx) != GJ_OK) {
                    fprintf(stderr, "%s %s: %s\n", names[wi], gj_impl_name(impls[ii]),
                            gj_ctx_errmsg(ctx));
                    ok = 0;
                    break;
                }
                rows = out.rows;
                peak = t.peak_bytes;
                if (k >= 0) {
                    for (int p = 0; p < 3; p++) ph[p][k] = t.ms[p];
                    tot[k] = t.total_ms;
                }
                if (k == repeat - 1) {
                    uint64_t sum = checksum(&out);
                    if (!have_ref) { ref_sum = sum; have_ref = 1; }
                    ok = sum == ref_sum ? 2 : -1;
                }
                gj_join_out_free(&out);
            }
            if (!ok) continue;
            double out_bytes = (double)rows * (w.key_bytes + (w.r_payloads + w.s_payloads) * w.payload_bytes);
            double floor_ms = (in_bytes + out_bytes) / (bg * 1e9) * 1e3;
            double m[3], mt, mn;
            for (int p = 0; p < 3; p++) m[p] = median(ph[p], repeat);
            mt = median(tot, repeat);
            mn = tot[0];
            /* the generator keeps llround(match_ratio * |R|) R keys */
            double kept = (double)llround(w.match_ratio * (double)w.r_rows) / (double)w.r_rows;
            int expect_ok = kept == 1.0 ? rows == w.s_rows
                            : kept == 0 ? rows == 0
                                        : (rows > 0.9 * kept * w.s_rows && rows < 1.1 * kept * w.s_rows);
            printf("%-4s %-7s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %7.2f %9.3f %10llu %s%s\n",
                   names[wi], gj_impl_name(impls[ii]), m[0], m[1], m[2], mt, mn, floor_ms,
                   mt / floor_ms, peak / 1e9, (unsigned long long)rows,
                   ok == 2 ? "sum-ok" : "SUM-DIFFERS", expect_ok ? "" : " ROWS-UNEXPECTED");
            fflush(stdout);
        }
        printf("%-4s inputs %.3f GB on GPU\n", names[wi], in_bytes / 1e9);
        gj_dtable_free(&r);
        gj_dtable_free(&s);
    }
    gj_ctx_free(ctx);
    return 0;
}
