/* calibrate/: statistics, naming, argument checks, JSON, storage and the
 * command line on the CPU; a quick calibration on the GPU when one is
 * present (skipped otherwise). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "calibrate/calibrate.h"
#include "gjadvise.h"
#include "testutil.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int have_gpu(void)
{
    int n = 0;
    return gj_gpu_count(&n, NULL) == GJ_OK && n > 0;
}

/* ---- statistics ---- */

static void test_summary_odd(void **state)
{
    (void)state;
    double x[] = {5, 1, 3, 2, 4};
    const double copy[] = {5, 1, 3, 2, 4};
    gj_cal_stat s;
    assert_int_equal(gj_cal_summarize(x, 5, &s), GJ_OK);
    assert_int_equal(s.n, 5);
    assert_double_equal(s.median, 3, 1e-12);
    assert_double_equal(s.q1, 2, 1e-12);
    assert_double_equal(s.q3, 4, 1e-12);
    assert_double_equal(s.min, 1, 0);
    assert_double_equal(s.max, 5, 0);
    assert_double_equal(s.spread, 2.0 / 3, 1e-12);
    assert_memory_equal(x, copy, sizeof copy); /* input untouched */
}

static void test_summary_even_and_one(void **state)
{
    (void)state;
    double x[] = {10, 40, 20, 30};
    gj_cal_stat s;
    assert_int_equal(gj_cal_summarize(x, 4, &s), GJ_OK);
    assert_double_equal(s.median, 25, 1e-12);
    /* GSL linear interpolation: q1 at 0.75 between 10 and 20, q3 at 2.25 */
    assert_double_equal(s.q1, 17.5, 1e-12);
    assert_double_equal(s.q3, 32.5, 1e-12);
    assert_double_equal(s.spread, 15.0 / 25, 1e-12);
    double one = 7;
    assert_int_equal(gj_cal_summarize(&one, 1, &s), GJ_OK);
    assert_double_equal(s.median, 7, 0);
    assert_double_equal(s.spread, 0, 0);
    double zeros[] = {0, 0, 0};
    assert_int_equal(gj_cal_summarize(zeros, 3, &s), GJ_OK);
    assert_double_equal(s.spread, 0, 0);
}

static void test_summary_rejects(void **state)
{
    (void)state;
    double x[] = {1, NAN, 3};
    double y[] = {1, INFINITY};
    gj_cal_stat s;
    assert_int_equal(gj_cal_summarize(x, 3, &s), GJ_ERR_INVALID);
    assert_int_equal(gj_cal_summarize(y, 2, &s), GJ_ERR_INVALID);
    assert_int_equal(gj_cal_summarize(x, 0, &s), GJ_ERR_INVALID);
    assert_int_equal(gj_cal_summarize(NULL, 3, &s), GJ_ERR_INVALID);
    assert_int_equal(gj_cal_summarize(x, 1, NULL), GJ_ERR_INVALID);
}

/* A tight set is kept; an outlier-heavy set has a wide spread and the
 * re-run with the smaller spread wins. */
static void test_spread_and_pick(void **state)
{
    (void)state;
    double tight[] = {100, 101, 99, 100, 100, 102, 98};
    double wide[] = {100, 130, 70, 100, 90, 120, 80};
    gj_cal_stat a, b;
    assert_int_equal(gj_cal_summarize(tight, 7, &a), GJ_OK);
    assert_int_equal(gj_cal_summarize(wide, 7, &b), GJ_OK);
    assert_true(a.spread < 0.05);
    assert_true(b.spread > 0.05);
    assert_int_equal(gj_cal_pick(&b, &a), 1);
    assert_int_equal(gj_cal_pick(&a, &b), 0);
    assert_int_equal(gj_cal_pick(&a, NULL), 0);
    assert_int_equal(gj_cal_pick(&a, &a), 0);
}

static void test_profile_name(void **state)
{
    (void)state;
    char n[64];
    gj_profile *p = NULL;
    gj_cal_profile_name("NVIDIA H200", n, sizeof n);
    assert_string_equal(n, "h200");
    gj_cal_profile_name("NVIDIA H100 80GB HBM3", n, sizeof n);
    assert_string_equal(n, "h100-80gb-hbm3");
    gj_cal_profile_name("  NVIDIA A100-SXM4-40GB  ", n, sizeof n);
    assert_string_equal(n, "a100-sxm4-40gb");
    gj_cal_profile_name("", n, sizeof n);
    assert_string_equal(n, "gpu");
    gj_cal_profile_name(NULL, n, sizeof n);
    assert_string_equal(n, "gpu");
    gj_cal_profile_name("NVIDIA", n, sizeof n);
    assert_string_equal(n, "nvidia");
    char longname[200];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    gj_cal_profile_name(longname, n, sizeof n);
    assert_int_equal(strlen(n), 63);
    assert_int_equal(gj_profile_new(n, &p), GJ_OK); /* always a valid name */
    gj_profile_free(p);
    char small[5];
    gj_cal_profile_name("NVIDIA H200 NVL", small, sizeof small);
    assert_string_equal(small, "h200");
}

/* ---- argument checks (no GPU needed: validated before any CUDA call) ---- */

static void test_run_rejects_opts(void **state)
{
    (void)state;
    gj_ctx *ctx = NULL;
    gj_profile *p = (gj_profile *)&p;
    gj_calib_report *r = (gj_calib_report *)&r;
    gj_calib_opts o = {0};
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    assert_int_equal(gj_calibrate_run(NULL, &p, &r, ctx), GJ_ERR_INVALID);
    assert_null(p);
    assert_null(r);
    o.device = -1;
    assert_int_equal(gj_calibrate_run(&o, &p, &r, ctx), GJ_ERR_INVALID);
    o.device = 0;
    o.name = "bad name";
    assert_int_equal(gj_calibrate_run(&o, &p, &r, ctx), GJ_ERR_INVALID);
    assert_non_null(strstr(gj_ctx_errmsg(ctx), "name"));
    o.name = NULL;
    o.spread_limit = -1;
    assert_int_equal(gj_calibrate_run(&o, &p, &r, ctx), GJ_ERR_INVALID);
    o.spread_limit = NAN;
    assert_int_equal(gj_calibrate_run(&o, &p, &r, ctx), GJ_ERR_INVALID);
    assert_int_equal(gj_calibrate_run(&(gj_calib_opts){0}, NULL, &r, ctx), GJ_ERR_INVALID);
    gj_ctx_free(ctx);
}

static void test_launchers_reject_args(void **state)
{
    (void)state;
    double ms[4], work;
    assert_int_equal(gj_calk_seq(3, 1 << 20, 1, 1, 4, ms, &work, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_calk_seq(0, 1 << 20, 1, 1, 0, ms, &work, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_calk_seq(0, 1 << 20, 0, 1, 4, ms, &work, NULL), GJ_ERR_INVALID); /* inner 0 */
    assert_int_equal(gj_calk_gather(GJ_CALK_GATHER_CLUSTERED, 1 << 20, 1, 0, 0, 1, 4, ms, &work, NULL),
                     GJ_ERR_INVALID); /* inner 0 */
    assert_int_equal(gj_calk_gather(GJ_CALK_GATHER_CLUSTERED, 1000, 1, 0, 1, 1, 4, ms, &work, NULL),
                     GJ_ERR_INVALID); /* not a power of two */
    assert_int_equal(gj_calk_gather(GJ_CALK_GATHER_LINES, 1 << 20, 3, 0, 1, 1, 4, ms, &work, NULL),
                     GJ_ERR_INVALID); /* u = 3 */
    assert_int_equal(gj_calk_gather(GJ_CALK_GATHER_SMALL, 1 << 20, 1, 1 << 21, 1, 1, 4, ms, &work, NULL),
                     GJ_ERR_INVALID); /* source larger than n */
    assert_int_equal(gj_calk_atomic_global(3, 100, 1, 4, ms, &work, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_calk_atomic_shared(8192, 10, 1, 4, ms, &work, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_calk_hash(0, 0, 100, 0, 1, 4, ms, &work, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_calk_hash(1, 1, 1 << 10, 0, 1, 4, ms, &work, NULL), GJ_ERR_INVALID); /* no probes */
    assert_int_equal(gj_calk_sort(2, 4, 8, 1 << 20, 0, 1, 4, ms, &work, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_calk_sort(4, 4, 33, 1 << 20, 0, 1, 4, ms, &work, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_calk_sort(4, 8, 17, 1 << 20, 1, 1, 4, ms, &work, NULL), GJ_ERR_INVALID); /* own: 16 bits */
    assert_int_equal(gj_calk_launch(0, 1, 4, ms, &work, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_calk_hostcopy(0, 0, 100, 1, 4, ms, &work, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_calk_l2(0, 1000, 1, 1, 4, ms, &work, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_calk_smem(0, 0, 1, 4, ms, &work, NULL), GJ_ERR_INVALID);
    assert_int_equal(gj_calk_malloc(1024, 0, 1, 4, ms, &work, NULL), GJ_ERR_INVALID);
}

/* No GPU: NODEVICE, nothing returned. */
static void test_run_nodevice(void **state)
{
    (void)state;
    if (have_gpu()) skip();
    gj_ctx *ctx = NULL;
    gj_profile *p = NULL;
    gj_calib_report *r = NULL;
    gj_calib_opts o = {.quick = 1};
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    assert_int_equal(gj_calibrate_run(&o, &p, &r, ctx), GJ_ERR_NODEVICE);
    assert_null(p);
    assert_null(r);
    assert_true(strlen(gj_ctx_errmsg(ctx)) > 0);
    gj_ctx_free(ctx);
}

/* ---- JSON and storage of a report (built by hand: CPU only) ---- */

static void fake_report(gj_profile **pp, gj_calib_report **rr)
{
    gj_profile *p = NULL;
    gj_calib_report *r = calloc(1, sizeof *r);
    assert_non_null(r);
    assert_int_equal(gj_profile_new("testgpu", &p), GJ_OK);
    static const char *keys[] = {"bw_seq", "bw_rand", "launch_us"};
    static const double vals[] = {3900.5, 180.25, 2.5};
    r->samples = calloc(9, sizeof *r->samples);
    assert_non_null(r->samples);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(gj_profile_set(p, keys[i], vals[i], 0.01 * (i + 1), GJ_SRC_MEASURED), GJ_OK);
        r->items[i] = (gj_calib_item){keys[i], vals[i], 0.01 * (i + 1), 3, i == 2, 0, 0.5};
        for (int k = 0; k < 3; k++)
            r->samples[r->n_samples++] = (gj_sample){keys[i], k, vals[i] * (1 + 0.01 * (k - 1))};
    }
    r->n_items = 3;
    r->wall_s = 12.5;
    gj_device d = {.name = "Test GPU", .uuid = "GPU-00000000-1111-2222-3333-444444444444",
                   .cc_major = 9, .sm_count = 132, .mem_bytes = 1ull << 37, .l2_bytes = 50ull << 20};
    assert_int_equal(gj_profile_set_device(p, &d), GJ_OK);
    assert_int_equal(gj_profile_set_meta(p, "calibrate", "2026-11-22T00:00:00Z", "test", 1, -1), GJ_OK);
    *pp = p;
    *rr = r;
}

static char *json_get(sqlite3 *db, const char *json, const char *path)
{
    sqlite3_stmt *st = NULL;
    char *out = NULL;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT json_valid(?1), json_extract(?1, ?2)", -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 1);
    const unsigned char *t = sqlite3_column_text(st, 1);
    out = strdup(t ? (const char *)t : "(null)");
    sqlite3_finalize(st);
    return out;
}

static void test_report_json(void **state)
{
    (void)state;
    gj_profile *p = NULL, *back = NULL;
    gj_calib_report *r = NULL;
    char *js = NULL, *v;
    sqlite3 *db = NULL;
    fake_report(&p, &r);
    assert_int_equal(gj_calibrate_report_json(NULL, p, &js), GJ_ERR_INVALID);
    assert_null(js);
    assert_int_equal(gj_calibrate_report_json(r, p, &js), GJ_OK);
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    v = json_get(db, js, "$.measurements[1].key");
    assert_string_equal(v, "bw_rand");
    free(v);
    v = json_get(db, js, "$.measurements[1].value");
    assert_double_equal(atof(v), 180.25, 1e-9);
    free(v);
    v = json_get(db, js, "$.measurements[0].unit");
    assert_string_equal(v, "GB/s");
    free(v);
    v = json_get(db, js, "$.measurements[2].rerun");
    assert_string_equal(v, "1");
    free(v);
    v = json_get(db, js, "$.n_samples");
    assert_string_equal(v, "9");
    free(v);
    v = json_get(db, js, "$.profile");
    assert_int_equal(gj_profile_from_json(v, &back, NULL), GJ_OK); /* the profile round-trips */
    free(v);
    const gj_hw *h = gj_profile_hw(back);
    assert_double_equal(h->bw_seq, 3900.5, 1e-9);
    assert_double_equal(h->launch_us, 2.5, 1e-12);
    assert_string_equal(gj_profile_device(back)->uuid, "GPU-00000000-1111-2222-3333-444444444444");
    gj_profile_free(back);
    sqlite3_close(db);
    gj_free(js);
    gj_profile_free(p);
    gj_calibrate_report_free(r);
}

/* Saved with its samples; a second calibration is the next version; the
 * newest profile of the device is the second. */
static void test_storage(void **state)
{
    (void)state;
    char dir[] = "/tmp/gjcalXXXXXX", path[128];
    gj_db *db = NULL;
    gj_profile *p = NULL, *got = NULL;
    gj_calib_report *r = NULL;
    gj_profile_row *rows = NULL;
    int n = 0;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/gj.db", dir);
    fake_report(&p, &r);
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, NULL), GJ_OK);
    assert_int_equal(gj_db_profile_save(db, p, r->samples, r->n_samples, NULL), GJ_OK);
    assert_int_equal(gj_profile_version(p), 1);
    assert_int_equal(gj_profile_set(p, "bw_seq", 4000, 0.02, GJ_SRC_MEASURED), GJ_OK);
    assert_int_equal(gj_db_profile_save(db, p, r->samples, r->n_samples, NULL), GJ_OK);
    assert_int_equal(gj_profile_version(p), 2);
    assert_int_equal(gj_db_profile_for_device(db, "GPU-00000000-1111-2222-3333-444444444444", &got, NULL),
                     GJ_OK);
    assert_int_equal(gj_profile_version(got), 2);
    assert_double_equal(gj_profile_hw(got)->bw_seq, 4000, 1e-9);
    gj_source src;
    double spread;
    assert_int_equal(gj_profile_get(got, "bw_rand", NULL, &spread, &src), GJ_OK);
    assert_int_equal(src, GJ_SRC_MEASURED);
    assert_double_equal(spread, 0.02, 1e-12);
    gj_profile_free(got);
    got = NULL;
    assert_int_equal(gj_db_profile_load(db, "testgpu", 1, &got, NULL), GJ_OK);
    assert_double_equal(gj_profile_hw(got)->bw_seq, 3900.5, 1e-9); /* v1 intact */
    assert_int_equal(gj_db_profile_list(db, &rows, &n, NULL), GJ_OK);
    int found = 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].name, "testgpu") && rows[i].version == 2) {
            found = 1;
            assert_int_equal(rows[i].n_samples, 9);
        }
    assert_true(found);
    gj_free(rows);
    gj_profile_free(got);
    gj_db_close(db);
    unlink(path);
    rmdir(dir);
    gj_profile_free(p);
    gj_calibrate_report_free(r);
}

/* ---- the command line ---- */

static int run_cli(const char *args, char *err, size_t n)
{
    const char *bin = getenv("GJ_BIN");
    char cmd[1024], errf[] = "/tmp/gjcalerrXXXXXX";
    int fd = mkstemp(errf);
    assert_true(fd >= 0);
    close(fd);
    snprintf(cmd, sizeof cmd, "%s calibrate %s >/dev/null 2>%s", bin, args, errf);
    int st = system(cmd);
    FILE *f = fopen(errf, "r");
    size_t got = f ? fread(err, 1, n - 1, f) : 0;
    err[got] = 0;
    if (f) fclose(f);
    unlink(errf);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define NEED_BIN()                                                   \
    do {                                                             \
        const char *b_ = getenv("GJ_BIN");                           \
        if (!b_ || access(b_, X_OK)) skip();                         \
    } while (0)

static void test_cli_bad_flags(void **state)
{
    (void)state;
    NEED_BIN();
    char err[2048];
    assert_int_equal(run_cli("--device=abc", err, sizeof err), 2);
    assert_non_null(strstr(err, "gjadvise calibrate: --device=abc: allowed"));
    assert_int_equal(run_cli("--name='bad name'", err, sizeof err), 2);
    assert_non_null(strstr(err, "--name=bad name: allowed"));
    assert_int_equal(run_cli("--bogus", err, sizeof err), 2);
    assert_int_equal(run_cli("extra", err, sizeof err), 2);
    assert_int_equal(run_cli("--help", err, sizeof err), 0);
}

/* No GPU: one line, exit 3, and no store created. */
static void test_cli_nodevice(void **state)
{
    (void)state;
    NEED_BIN();
    if (have_gpu()) skip();
    char dir[] = "/tmp/gjcalXXXXXX", args[256], path[128], err[2048];
    struct stat sb;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/sub/gj.db", dir);
    snprintf(args, sizeof args, "--quick --db %s", path);
    assert_int_equal(run_cli(args, err, sizeof err), 3);
    assert_non_null(strstr(err, "gjadvise calibrate: no GPU"));
    assert_non_null(strchr(err, '\n'));
    assert_null(strchr(strchr(err, '\n') + 1, '\n')); /* exactly one line */
    assert_int_not_equal(stat(path, &sb), 0);
    snprintf(path, sizeof path, "%s/sub", dir);
    assert_int_not_equal(stat(path, &sb), 0);
    rmdir(dir);
}

/* ---- on the GPU ---- */

static void test_gpu_quick(void **state)
{
    (void)state;
    if (!have_gpu()) skip();
    gj_ctx *ctx = NULL;
    gj_profile *p = NULL;
    gj_calib_report *r = NULL;
    gj_calib_opts o = {.quick = 1, .name = "gpu-test"};
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    int rc = gj_calibrate_run(&o, &p, &r, ctx);
    if (rc != GJ_OK) fail_msg("calibrate: %s", gj_ctx_errmsg(ctx));
    assert_int_equal(r->n_items, gj_param_count()); /* every parameter measured */
    int timed = 0;
    for (int i = 0; i < r->n_items; i++) {
        double v;
        gj_source src;
        assert_int_equal(gj_profile_get(p, r->items[i].key, &v, NULL, &src), GJ_OK);
        assert_true(v > 0);
        assert_int_equal(src, GJ_SRC_MEASURED);
        timed += r->items[i].reps * (1 + r->items[i].rerun);
        print_message("  %-14s %12.5g spread %.3f%s\n", r->items[i].key, v, r->items[i].spread,
                      r->items[i].wide ? " WIDE" : "");
    }
    assert_int_equal(r->n_samples, timed);
    const gj_hw *h = gj_profile_hw(p);
    /* sanity against any current datacenter GPU (HBM 1-10 TB/s) */
    assert_true(h->bw_seq > 500 && h->bw_seq < 12000);
    assert_true(h->bw_seq_read > 500 && h->bw_seq_read < 12000);
    assert_true(h->bw_rand < h->bw_seq);
    assert_true(h->bw_u32 < h->bw_u1);
    assert_true(h->bw_l1 > h->bw_seq);
    assert_true(h->bw_l2 > h->bw_seq_read);
    assert_true(h->sort_k64 < h->sort_k32);
    assert_true(h->ht_probe_l2 > h->ht_probe_hbm * 0.5);
    assert_true(h->launch_us > 0.1 && h->launch_us < 100);
    assert_true(h->h2d_pinned > 1 && h->h2d_pinned < 1000);
    assert_double_equal(h->sm_count, gj_profile_device(p)->sm_count, 0);
    assert_string_equal(gj_profile_origin(p), "calibrate");
    gj_calibrate_report_free(r);
    gj_profile_free(p);
    gj_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_odd),
        cmocka_unit_test(test_summary_even_and_one),
        cmocka_unit_test(test_summary_rejects),
        cmocka_unit_test(test_spread_and_pick),
        cmocka_unit_test(test_profile_name),
        cmocka_unit_test(test_run_rejects_opts),
        cmocka_unit_test(test_launchers_reject_args),
        cmocka_unit_test(test_run_nodevice),
        cmocka_unit_test(test_report_json),
        cmocka_unit_test(test_storage),
        cmocka_unit_test(test_cli_bad_flags),
        cmocka_unit_test(test_cli_nodevice),
        cmocka_unit_test(test_gpu_quick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
