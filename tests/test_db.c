/* The store (db/), issue 2 part 4. Tests marked "ISSUE 2:" check a store
 * behaviour the issue names: round trips, versions, migration v1 -> v2,
 * newer / corrupt / locked / read-only stores, and all-or-nothing writes
 * under injected SQLite and allocation failures (-Wl,--wrap, test_db.wrap). */
#define _XOPEN_SOURCE 700   /* nftw */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "gjadvise.h"
#include <sqlite3.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- fault injection ---------------------------------------------------- */

int __real_sqlite3_open_v2(const char *, sqlite3 **, int, const char *);
int __real_sqlite3_step(sqlite3_stmt *);
void *__real_malloc(size_t);

static int open_mocked;     /* 1: next opens return mock() values           */
static long step_fail_at = -1, step_calls;     /* fail the step_fail_at-th  */
static int step_fail_code = SQLITE_IOERR;
static long malloc_fail_at = -1, malloc_calls;
static long malloc_failed;

int __wrap_sqlite3_open_v2(const char *path, sqlite3 **db, int flags, const char *vfs)
{
    if (open_mocked) {
        *db = NULL;
        return mock_type(int);
    }
    return __real_sqlite3_open_v2(path, db, flags, vfs);
}

int __wrap_sqlite3_step(sqlite3_stmt *st)
{
    if (step_fail_at >= 0 && step_calls++ == step_fail_at) return step_fail_code;
    return __real_sqlite3_step(st);
}

void *__wrap_malloc(size_t n)
{
    if (malloc_fail_at >= 0 && malloc_calls++ >= malloc_fail_at) {
        malloc_failed++;
        return NULL;   /* this and every later allocation until disarmed */
    }
    return __real_malloc(n);
}

static void arm_step(long at, int code) { step_fail_at = at; step_calls = 0; step_fail_code = code; }
static void disarm(void) { step_fail_at = -1; malloc_fail_at = -1; }

/* ---- helpers ------------------------------------------------------------ */

static char dir[256];

static int rm_cb(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb; (void)flag; (void)f;
    chmod(p, 0700);
    return remove(p);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gjdb-test-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    disarm();
    if (getuid() == 0 && geteuid() != 0 && seteuid(0) != 0) return -1;
    chmod(dir, 0700);
    return nftw(dir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

static void path_in(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", dir, name);
}

static unsigned char *file_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void assert_file_unchanged(const char *path, const unsigned char *before, size_t len)
{
    size_t n;
    unsigned char *now = file_bytes(path, &n);
    assert_int_equal(n, len);
    assert_memory_equal(now, before, len);
    free(now);
}

/* Run sql on a raw connection (no gjadvise code involved). */
static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *c = NULL;
    assert_int_equal(sqlite3_open_v2(path, &c, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL),
                     SQLITE_OK);
    char *err = NULL;
    if (sqlite3_exec(c, sql, NULL, NULL, &err) != SQLITE_OK) fail_msg("raw sql: %s", err);
    sqlite3_close(c);
}

static long raw_count(const char *path, const char *sql)
{
    sqlite3 *c = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open_v2(path, &c, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(c, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    long v = (long)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(c);
    return v;
}

static gj_profile *make_profile(const char *name, const char *uuid, double scale)
{
    gj_profile *p = NULL;
    assert_int_equal(gj_profile_new(name, &p), GJ_OK);
    for (int i = 0; i < gj_param_count(); i++) {
        /* awkward doubles: exact storage is checked bit for bit */
        double v = scale * (1.0 + i) / 3.0 + 1e-13 * i;
        assert_int_equal(gj_profile_set(p, gj_param_at(i)->key, v, v / 7.0,
                                        (gj_source)(1 + i % 5)), GJ_OK);
    }
    gj_device d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "NVIDIA H200 'quoted'");
    snprintf(d.uuid, sizeof d.uuid, "%s", uuid);
    d.cc_major = 9; d.cc_minor = 0; d.sm_count = 132;
    d.mem_bytes = UINT64_MAX - 1;   /* above int64: stored bit for bit */
    d.l2_bytes = 50ULL << 20; d.smem_per_block = 232448; d.smem_per_sm = 233472;
    d.clock_mhz = 1980; d.mem_clock_mhz = 2619; d.mem_bus_bits = 6144;
    d.driver_version = 13000; d.runtime_version = 12080;
    assert_int_equal(gj_profile_set_device(p, &d), GJ_OK);
    assert_int_equal(gj_profile_set_meta(p, "calibrate", "", "notes with 'quotes'", 1, 0.0375),
                     GJ_OK);
    return p;
}

static void assert_same_profile(const gj_profile *a, const gj_profile *b)
{
    assert_string_equal(gj_profile_name(a), gj_profile_name(b));
    assert_string_equal(gj_profile_origin(a), gj_profile_origin(b));
    assert_string_equal(gj_profile_created(a), gj_profile_created(b));
    assert_string_equal(gj_profile_notes(a), gj_profile_notes(b));
    assert_int_equal(gj_profile_version(a), gj_profile_version(b));
    assert_true(gj_profile_fit_error(a) == gj_profile_fit_error(b));
    for (int i = 0; i < gj_param_count(); i++) {
        const char *k = gj_param_at(i)->key;
        double va, sa, vb, sb;
        gj_source ra, rb;
        gj_profile_get(a, k, &va, &sa, &ra);
        gj_profile_get(b, k, &vb, &sb, &rb);
        assert_memory_equal(&va, &vb, sizeof va);
        assert_memory_equal(&sa, &sb, sizeof sa);
        assert_int_equal(ra, rb);
    }
    assert_memory_equal(gj_profile_device(a), gj_profile_device(b), sizeof(gj_device));
}

/* ---- tests -------------------------------------------------------------- */

static void test_default_path(void **state)
{
    (void)state;
    char buf[512], *old_db = getenv(GJ_DB_ENV), *old_x = getenv("XDG_DATA_HOME"),
                   *old_h = getenv("HOME");
    char sdb[512] = "", sx[512] = "", sh[512] = "";
    if (old_db) snprintf(sdb, sizeof sdb, "%s", old_db);
    if (old_x) snprintf(sx, sizeof sx, "%s", old_x);
    if (old_h) snprintf(sh, sizeof sh, "%s", old_h);
    setenv(GJ_DB_ENV, "/a/b.db", 1);
    setenv("XDG_DATA_HOME", "/xdg", 1);
    setenv("HOME", "/home/u", 1);
    assert_int_equal(gj_db_default_path(buf, sizeof buf), GJ_OK);
    assert_string_equal(buf, "/a/b.db");
    unsetenv(GJ_DB_ENV);
    assert_int_equal(gj_db_default_path(buf, sizeof buf), GJ_OK);
    assert_string_equal(buf, "/xdg/gjadvise/gjadvise.db");
    unsetenv("XDG_DATA_HOME");
    assert_int_equal(gj_db_default_path(buf, sizeof buf), GJ_OK);
    assert_string_equal(buf, "/home/u/.local/share/gjadvise/gjadvise.db");
    assert_int_equal(gj_db_default_path(buf, 10), GJ_ERR_INVALID);
    unsetenv("HOME");
    assert_int_equal(gj_db_default_path(buf, sizeof buf), GJ_ERR_INVALID);
    if (old_db) setenv(GJ_DB_ENV, sdb, 1);
    if (old_x) setenv("XDG_DATA_HOME", sx, 1);
    if (old_h) setenv("HOME", sh, 1);
}

/* ISSUE 2: EXISTING on a missing file creates nothing; CREATE makes the
 * folders (0700) and the file. */
static void test_open_create(void **state)
{
    (void)state;
    char path[512], sub[512];
    struct stat sb;
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    path_in(sub, sizeof sub, "x");
    path_in(path, sizeof path, "x/y/z/store.db");
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_EXISTING, &db, ctx), GJ_ERR_NOTFOUND);
    assert_null(db);
    assert_non_null(strstr(gj_ctx_errmsg(ctx), path));
    assert_int_equal(stat(sub, &sb), -1);
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_READONLY, &db, ctx), GJ_ERR_NOTFOUND);
    assert_int_equal(stat(sub, &sb), -1);
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_OK);
    int v = 0;
    assert_int_equal(gj_db_schema_version(db, &v), GJ_OK);
    assert_int_equal(v, 3);
    gj_db_close(db);
    assert_int_equal(stat(sub, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0700);
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_EXISTING, &db, ctx), GJ_OK);
    gj_db_close(db);
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_READONLY, &db, ctx), GJ_OK);
    gj_db_close(db);
    assert_int_equal(gj_db_open(NULL, 0, &db, ctx), GJ_ERR_INVALID);
    assert_int_equal(gj_db_open(path, 0x10, &db, ctx), GJ_ERR_INVALID);
    gj_db_close(NULL);
    gj_ctx_free(ctx);
}

/* ISSUE 2: profile round trip (every param, spread, source, device field),
 * versions n+1, load by version, newest by device, list. */
static void test_profile_round_trip(void **state)
{
    (void)state;
    char path[512];
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    gj_profile *p1 = make_profile("h200-cal", "GPU-aaaa", 1000), *p2 = make_profile("h200-cal",
                                                                                     "GPU-aaaa", 2000);
    gj_profile *q = NULL;
    gj_sample s[3] = {{"bw_seq", 0, 4012.5}, {"bw_seq", 1, 4020.25}, {"bw_rand", 0, 170.125}};
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    path_in(path, sizeof path, "rt.db");
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_OK);

    assert_int_equal(gj_db_profile_save(db, p1, s, 3, ctx), GJ_OK);
    assert_int_equal(gj_profile_version(p1), 1);
    assert_true(strlen(gj_profile_created(p1)) == 20);   /* filled: 2026-..T..Z */
    assert_int_equal(gj_profile_set_meta(p2, "tune", "2030-01-01T00:00:00Z", "second", 1, -1),
                     GJ_OK);
    assert_int_equal(gj_db_profile_save(db, p2, NULL, 0, ctx), GJ_OK);
    assert_int_equal(gj_profile_version(p2), 2);
    gj_db_close(db);

    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_READONLY, &db, ctx), GJ_OK);
    assert_int_equal(gj_db_profile_load(db, "h200-cal", 1, &q, ctx), GJ_OK);
    assert_same_profile(p1, q);
    gj_profile_free(q);
    assert_int_equal(gj_db_profile_load(db, "h200-cal", 0, &q, ctx), GJ_OK);
    assert_same_profile(p2, q);
    assert_true(gj_profile_fit_error(q) < 0);
    gj_profile_free(q);
    assert_int_equal(gj_db_profile_load(db, "h200-cal", 3, &q, ctx), GJ_ERR_NOTFOUND);
    assert_null(q);
    assert_non_null(strstr(gj_ctx_errmsg(ctx), "version"));
    assert_int_equal(gj_db_profile_load(db, "nope", 0, &q, ctx), GJ_ERR_NOTFOUND);
    assert_int_equal(gj_db_profile_load(db, "bad name", 0, &q, ctx), GJ_ERR_INVALID);
    /* Built-ins come from the library when the store lacks the name. */
    assert_int_equal(gj_db_profile_load(db, "a100-paper", 0, &q, ctx), GJ_OK);
    assert_string_equal(gj_profile_origin(q), "builtin");
    gj_profile_free(q);
    assert_int_equal(gj_db_profile_load(NULL, "a100-paper", 0, &q, ctx), GJ_OK);
    gj_profile_free(q);
    assert_int_equal(gj_db_profile_load(db, "a100-paper", 2, &q, ctx), GJ_ERR_NOTFOUND);

    assert_int_equal(gj_db_profile_for_device(db, "GPU-aaaa", &q, ctx), GJ_OK);
    assert_int_equal(gj_profile_version(q), 2);
    gj_profile_free(q);
    assert_int_equal(gj_db_profile_for_device(db, "GPU-none", &q, ctx), GJ_ERR_NOTFOUND);
    assert_null(q);

    gj_profile_row *rows = NULL;
    int n = 0;
    assert_int_equal(gj_db_profile_list(db, &rows, &n, ctx), GJ_OK);
    assert_int_equal(n, 2 + gj_profile_builtin_count());
    assert_string_equal(rows[0].name, "h200-cal");
    assert_int_equal(rows[0].version, 2);     /* newest first */
    assert_string_equal(rows[0].origin, "tune");
    assert_int_equal(rows[1].version, 1);
    assert_int_equal(rows[1].n_samples, 3);
    assert_string_equal(rows[1].uuid, "GPU-aaaa");
    assert_string_equal(rows[2].name, gj_profile_builtin_name(0));
    assert_string_equal(rows[2].origin, "builtin");
    gj_free(rows);
    assert_int_equal(gj_db_profile_list(NULL, &rows, &n, ctx), GJ_OK);
    assert_int_equal(n, gj_profile_builtin_count());
    gj_free(rows);
    gj_db_close(db);
    assert_int_equal(raw_count(path, "SELECT count(*) FROM sample"), 3);
    assert_int_equal(raw_count(path, "SELECT count(*) FROM device"), 1);  /* shared row */
    gj_profile_free(p1);
    gj_profile_free(p2);
    gj_ctx_free(ctx);
}

static void make_record(gj_exec_record *r, const char *uuid, int k)
{
    memset(r, 0, sizeof *r);
    gj_workload_default(&r->w, k % 2 ? GJ_OP_GROUPBY : GJ_OP_JOIN);
    r->w.zipf = 0.1 * k + 1e-15;
    if (k == 2) r->w.s_run = 4.25; /* written only when set */
    r->impl = k % 2 ? GJ_IMPL_SGB_TR : GJ_IMPL_PHJ_UR;
    snprintf(r->profile, sizeof r->profile, "h200-cal");
    r->profile_version = k;
    snprintf(r->device_uuid, sizeof r->device_uuid, "%s", uuid);
    r->predicted_ms = k ? 12.345678901234567 * k : NAN;
    r->measured_ms = 13.1 / 3 * (k + 1);
    r->n_phases = k % (GJ_MAX_PHASES + 1);
    for (int i = 0; i < r->n_phases; i++) {
        r->predicted_phase_ms[i] = 1.0 / (3 + i + k);
        r->measured_phase_ms[i] = 1.0 / (7 + i + k);
    }
    r->checked = (k % 3) - 1;
    r->repeats = 7 + k;
}

/* ISSUE 2: execution records round trip (workload JSON, per-phase times). */
static void test_exec_round_trip(void **state)
{
    (void)state;
    char path[512];
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    gj_exec_record in[6], *out = NULL;
    int n = 0;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    path_in(path, sizeof path, "exec.db");
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_OK);
    for (int k = 0; k < 6; k++) {
        make_record(&in[k], k < 4 ? "GPU-a" : "GPU-b", k);
        snprintf(in[k].tag, sizeof in[k].tag, k % 2 ? "validate:default" : "run");
        if (k == 5) snprintf(in[k].ts, sizeof in[k].ts, "2026-05-05T05:05:05Z");
        assert_int_equal(gj_db_exec_log(db, &in[k], ctx), GJ_OK);
        assert_true(in[k].id > (k ? in[k - 1].id : 0));
        assert_true(in[k].ts[0] != 0);
    }
    assert_string_equal(in[5].ts, "2026-05-05T05:05:05Z");
    assert_int_equal(gj_db_exec_list(db, NULL, &out, &n, ctx), GJ_OK);
    assert_int_equal(n, 6);
    for (int k = 0; k < 6; k++) {
        const gj_exec_record *a = &in[k], *b = &out[k];
        assert_true(a->id == b->id);
        assert_string_equal(a->ts, b->ts);
        assert_string_equal(a->profile, b->profile);
        assert_int_equal(a->profile_version, b->profile_version);
        assert_string_equal(a->device_uuid, b->device_uuid);
        assert_memory_equal(&a->w, &b->w, sizeof a->w);
        assert_int_equal(a->impl, b->impl);
        if (isnan(a->predicted_ms)) assert_true(isnan(b->predicted_ms));
        else assert_memory_equal(&a->predicted_ms, &b->predicted_ms, sizeof(double));
        assert_memory_equal(&a->measured_ms, &b->measured_ms, sizeof(double));
        assert_int_equal(a->n_phases, b->n_phases);
        for (int i = 0; i < a->n_phases; i++) {
            assert_memory_equal(&a->predicted_phase_ms[i], &b->predicted_phase_ms[i], 8);
            assert_memory_equal(&a->measured_phase_ms[i], &b->measured_phase_ms[i], 8);
        }
        assert_int_equal(a->checked, b->checked);
        assert_int_equal(a->repeats, b->repeats);
        assert_string_equal(a->tag, b->tag);
    }
    gj_free(out);
    assert_int_equal(gj_db_exec_list(db, "GPU-b", &out, &n, ctx), GJ_OK);
    assert_int_equal(n, 2);
    assert_true(out[0].id == in[4].id);
    gj_free(out);
    assert_int_equal(gj_db_exec_list(db, "GPU-zzz", &out, &n, ctx), GJ_OK);
    assert_int_equal(n, 0);
    gj_free(out);
    /* Invalid records are refused before anything is written. */
    gj_exec_record bad;
    make_record(&bad, "GPU-a", 1);
    bad.n_phases = GJ_MAX_PHASES + 1;
    assert_int_equal(gj_db_exec_log(db, &bad, ctx), GJ_ERR_INVALID);
    make_record(&bad, "GPU-a", 1);
    bad.impl = GJ_IMPL_PHJ_UR;   /* a join implementation on a group-by */
    assert_int_equal(gj_db_exec_log(db, &bad, ctx), GJ_ERR_INVALID);
    make_record(&bad, "GPU-a", 1);
    bad.w.groups = 0;
    assert_int_equal(gj_db_exec_log(db, &bad, ctx), GJ_ERR_INVALID);
    gj_db_close(db);
    assert_int_equal(raw_count(path, "SELECT count(*) FROM exec_log"), 6);
    assert_int_equal(raw_count(path, "SELECT count(*) FROM exec_phase"), 0 + 1 + 2 + 3 + 4 + 0);
    gj_ctx_free(ctx);
}

/* ISSUE 6: a validation workload's executions land together or not at all. */
static void test_exec_log_many_all_or_nothing(void **state)
{
    (void)state;
    char path[512];
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    gj_exec_record rec[3];
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    path_in(path, sizeof path, "many.db");
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_OK);
    for (int k = 0; k < 3; k++) make_record(&rec[k], "GPU-a", k + 1);
    /* A failure at any step, the third insert's included, rolls back the
     * first two. */
    int failed = 0;
    for (long at = 0; at < 40; at++) {
        arm_step(at, SQLITE_IOERR);
        int rc = gj_db_exec_log_many(db, rec, 3, ctx);
        disarm();
        if (rc == GJ_OK) break;
        failed++;
        assert_int_equal(raw_count(path, "SELECT count(*) FROM exec_log"), 0);
        assert_int_equal(raw_count(path, "SELECT count(*) FROM exec_phase"), 0);
    }
    /* 3 records of 1, 2 and 3 phases: at least their 9 inserts failed once */
    assert_true(failed >= 9);
    assert_int_equal(raw_count(path, "SELECT count(*) FROM exec_log"), 3);
    assert_true(rec[0].id > 0 && rec[1].id > rec[0].id && rec[2].id > rec[1].id);
    /* One invalid record refuses the whole batch before writing. */
    make_record(&rec[1], "GPU-a", 2);
    rec[1].checked = 5;
    assert_int_equal(gj_db_exec_log_many(db, rec, 3, ctx), GJ_ERR_INVALID);
    assert_int_equal(raw_count(path, "SELECT count(*) FROM exec_log"), 3);
    assert_int_equal(gj_db_exec_log_many(db, rec, 0, ctx), GJ_OK);
    assert_int_equal(gj_db_exec_log_many(db, NULL, 1, ctx), GJ_ERR_INVALID);
    gj_db_close(db);
    gj_ctx_free(ctx);
}

/* ISSUE 6: learned corrections travel with their profile version. */
static void test_fit_round_trip(void **state)
{
    (void)state;
    char path[512];
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    gj_profile *p = make_profile("tuned", "GPU-t", 1), *q = NULL;
    gj_fit f, g;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    path_in(path, sizeof path, "fit.db");
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_OK);
    memset(&f, 0, sizeof f);
    for (int k = 0; k < GJ_TERMS; k++) f.coef[k] = 0.5 + k * 0.125;
    f.intercept_ms = 0.03125;
    f.n_train = 40;
    f.err_train = 0.0625;
    f.err_holdout = 0.078125;
    assert_int_equal(gj_profile_set_fit(p, GJ_IMPL_SGB_TR, &f), GJ_OK);
    f.coef[2] = -1;
    assert_int_equal(gj_profile_set_fit(p, GJ_IMPL_HGB, &f), GJ_ERR_INVALID);
    f.coef[2] = 0.75;
    assert_int_equal(gj_db_profile_save(db, p, NULL, 0, ctx), GJ_OK);
    assert_int_equal(gj_db_profile_load(db, "tuned", 0, &q, ctx), GJ_OK);
    assert_int_equal(gj_profile_get_fit(q, GJ_IMPL_SGB_TR, &g), GJ_OK);
    assert_true(g.set);
    for (int k = 0; k < GJ_TERMS; k++) assert_true(g.coef[k] == f.coef[k]);
    assert_true(g.intercept_ms == f.intercept_ms && g.n_train == 40);
    assert_true(g.err_train == f.err_train && g.err_holdout == f.err_holdout);
    assert_int_equal(gj_profile_get_fit(q, GJ_IMPL_HGB, &g), GJ_OK);
    assert_false(g.set);
    assert_true(g.coef[0] == 1 && g.intercept_ms == 0);
    gj_profile_free(q);
    assert_int_equal(raw_count(path, "SELECT count(*) FROM fit"), GJ_TERMS + 4);
    /* A damaged correction is reported, never half-applied. */
    raw_exec(path, "DELETE FROM fit WHERE term = 'sort'");
    assert_int_equal(gj_db_profile_load(db, "tuned", 0, &q, ctx), GJ_ERR_DB_CORRUPT);
    assert_null(q);
    assert_non_null(strstr(gj_ctx_errmsg(ctx), "SGB-TR"));
    gj_db_close(db);
    gj_profile_free(p);
    gj_ctx_free(ctx);
}

/* The first schema, exactly as released (db/SCHEMA.md, version 1). */
static const char *v1_ddl =
    "PRAGMA application_id = 1735024996;"
    "CREATE TABLE device(id INTEGER PRIMARY KEY, uuid TEXT NOT NULL, name TEXT NOT NULL,"
    " cc_major INTEGER NOT NULL, cc_minor INTEGER NOT NULL, sm_count INTEGER NOT NULL,"
    " mem_bytes INTEGER NOT NULL, l2_bytes INTEGER NOT NULL, smem_per_block INTEGER NOT NULL,"
    " smem_per_sm INTEGER NOT NULL, clock_mhz INTEGER NOT NULL, mem_clock_mhz INTEGER NOT NULL,"
    " mem_bus_bits INTEGER NOT NULL, driver_version INTEGER NOT NULL,"
    " runtime_version INTEGER NOT NULL, UNIQUE(uuid, name, cc_major, cc_minor, sm_count,"
    " mem_bytes, l2_bytes, smem_per_block, smem_per_sm, clock_mhz, mem_clock_mhz, mem_bus_bits,"
    " driver_version, runtime_version));"
    "CREATE TABLE profile(id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
    " version INTEGER NOT NULL CHECK(version >= 1), origin TEXT NOT NULL, created TEXT NOT NULL,"
    " device_id INTEGER NOT NULL REFERENCES device(id), UNIQUE(name, version));"
    "CREATE INDEX profile_device ON profile(device_id);"
    "CREATE TABLE param(profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,"
    " key TEXT NOT NULL, value REAL NOT NULL, spread REAL NOT NULL, unit TEXT NOT NULL,"
    " source TEXT NOT NULL, PRIMARY KEY(profile_id, key));"
    "CREATE TABLE sample(profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,"
    " key TEXT NOT NULL, run INTEGER NOT NULL, value REAL NOT NULL,"
    " PRIMARY KEY(profile_id, key, run));"
    "CREATE TABLE exec_log(id INTEGER PRIMARY KEY, ts TEXT NOT NULL, profile TEXT NOT NULL,"
    " profile_version INTEGER NOT NULL, device_uuid TEXT NOT NULL, workload TEXT NOT NULL,"
    " impl TEXT NOT NULL, predicted_ms REAL, measured_ms REAL, checked INTEGER NOT NULL,"
    " repeats INTEGER NOT NULL);"
    "CREATE INDEX exec_log_device ON exec_log(device_uuid);"
    "PRAGMA user_version = 1;";

static const char *v1_rows =
    "INSERT INTO device VALUES(1,'GPU-old','Tesla Old',8,0,108,42949672960,41943040,166912,"
    " 196608,1410,1215,5120,12000,12000);"
    "INSERT INTO profile VALUES(1,'old-cal',1,'calibrate','2025-01-01T00:00:00Z',1);"
    "INSERT INTO profile VALUES(2,'old-cal',2,'tune','2025-02-01T00:00:00Z',1);"
    "INSERT INTO param VALUES(1,'bw_seq',1400.5,3.25,'GB/s','measured');"
    "INSERT INTO param VALUES(2,'bw_seq',1450.75,1.5,'GB/s','tuned');"
    "INSERT INTO param VALUES(2,'bw_rand',60.0625,0,'GB/s','measured');"
    "INSERT INTO sample VALUES(1,'bw_seq',0,1399.0);"
    "INSERT INTO exec_log VALUES(1,'2025-03-01T00:00:00Z','old-cal',2,'GPU-old',"
    " '{\"op\":\"join\",\"r_rows\":1000,\"s_rows\":5000,\"match_ratio\":0.5}','PHJ-TR',"
    " 1.5,1.75,1,7);";

/* ISSUE 2: a v1 store made with the v1 DDL is migrated to v3 on open,
 * inside a transaction; its rows survive in v2 form. */
static void test_migration_v1_to_v3(void **state)
{
    (void)state;
    char path[512];
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    gj_profile *q = NULL;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    path_in(path, sizeof path, "v1.db");
    raw_exec(path, v1_ddl);
    raw_exec(path, v1_rows);
    assert_int_equal(raw_count(path, "PRAGMA user_version"), 1);

    /* Read-only handles never migrate: refused, file untouched. */
    size_t len;
    unsigned char *before = file_bytes(path, &len);
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_READONLY, &db, ctx), GJ_ERR_DB_VERSION);
    assert_file_unchanged(path, before, len);
    free(before);

    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_EXISTING, &db, ctx), GJ_OK);
    int v = 0;
    assert_int_equal(gj_db_schema_version(db, &v), GJ_OK);
    assert_int_equal(v, 3);
    assert_int_equal(gj_db_profile_load(db, "old-cal", 0, &q, ctx), GJ_OK);
    assert_int_equal(gj_profile_version(q), 2);
    assert_string_equal(gj_profile_origin(q), "tune");
    assert_string_equal(gj_profile_notes(q), "");     /* v2 column, default */
    assert_true(gj_profile_fit_error(q) < 0);          /* v2 column, NULL    */
    assert_string_equal(gj_profile_device(q)->uuid, "GPU-old");
    assert_int_equal(gj_profile_device(q)->sm_count, 108);
    double val, sp;
    gj_source src;
    assert_int_equal(gj_profile_get(q, "bw_seq", &val, &sp, &src), GJ_OK);
    assert_true(val == 1450.75 && sp == 1.5 && src == GJ_SRC_TUNED);
    assert_int_equal(gj_profile_get(q, "bw_rand", &val, &sp, &src), GJ_OK);
    assert_true(val == 60.0625 && src == GJ_SRC_MEASURED);
    gj_profile_free(q);

    gj_exec_record *rows = NULL;
    int n = 0;
    assert_int_equal(gj_db_exec_list(db, NULL, &rows, &n, ctx), GJ_OK);
    assert_int_equal(n, 1);
    assert_int_equal(rows[0].impl, GJ_IMPL_PHJ_TR);
    assert_int_equal(rows[0].n_phases, 0);             /* v2 column, default */
    assert_string_equal(rows[0].tag, "");              /* v3 column, default */
    assert_true(rows[0].w.r_rows == 1000 && rows[0].w.s_rows == 5000);
    assert_true(rows[0].w.match_ratio == 0.5 && rows[0].w.key_bytes == 4);
    assert_true(rows[0].measured_ms == 1.75);
    gj_free(rows);

    /* The migrated store takes new versions and new v2 data. */
    q = make_profile("old-cal", "GPU-old", 1);
    assert_int_equal(gj_db_profile_save(db, q, NULL, 0, ctx), GJ_OK);
    assert_int_equal(gj_profile_version(q), 3);
    gj_profile_free(q);
    gj_db_close(db);
    assert_int_equal(raw_count(path, "PRAGMA user_version"), 3);
    assert_int_equal(raw_count(path, "SELECT count(*) FROM sample"), 1);
    gj_ctx_free(ctx);
}

/* ISSUE 2: a migration that fails leaves the store exactly as it was. */
static void test_migration_failure_rolls_back(void **state)
{
    (void)state;
    char path[512];
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    path_in(path, sizeof path, "v1-broken.db");
    raw_exec(path, v1_ddl);
    raw_exec(path, v1_rows);
    raw_exec(path, "CREATE TABLE exec_phase(x);");    /* the v2 step will collide */
    size_t len;
    unsigned char *before = file_bytes(path, &len);
    int rc = gj_db_open(path, GJ_DB_OPEN_EXISTING, &db, ctx);
    assert_int_equal(rc, GJ_ERR_DB);
    assert_null(db);
    assert_non_null(strstr(gj_ctx_errmsg(ctx), "migrating schema v1 to v2"));
    assert_non_null(strstr(gj_ctx_errmsg(ctx), path));
    assert_file_unchanged(path, before, len);
    assert_int_equal(raw_count(path, "PRAGMA user_version"), 1);
    free(before);
    gj_ctx_free(ctx);
}

/* ISSUE 2: a store from a newer gjadvise is refused and left untouched. */
static void test_newer_version_refused(void **state)
{
    (void)state;
    char path[512];
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    path_in(path, sizeof path, "new.db");
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_OK);
    gj_db_close(db);
    raw_exec(path, "PRAGMA user_version = 4; CREATE TABLE future(x);");
    size_t len;
    unsigned char *before = file_bytes(path, &len);
    const int flags[] = {GJ_DB_OPEN_EXISTING, GJ_DB_OPEN_CREATE, GJ_DB_OPEN_READONLY};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(gj_db_open(path, flags[i], &db, ctx), GJ_ERR_DB_VERSION);
        assert_null(db);
        assert_non_null(strstr(gj_ctx_errmsg(ctx), "newer"));
        assert_file_unchanged(path, before, len);
    }
    free(before);
    gj_ctx_free(ctx);
}

/* ISSUE 2: files that are not gjadvise stores are refused and untouched. */
static void test_corrupt_refused(void **state)
{
    (void)state;
    char path[512];
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    size_t len;
    unsigned char *before;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);

    /* random bytes */
    path_in(path, sizeof path, "garbage.db");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    srand(42);
    for (int i = 0; i < 16384; i++) fputc(rand() & 0xff, f);
    fclose(f);
    before = file_bytes(path, &len);
    for (int flags = 0; flags < 3; flags++) {
        assert_int_equal(gj_db_open(path, flags, &db, ctx), GJ_ERR_DB_CORRUPT);
        assert_null(db);
        assert_non_null(strstr(gj_ctx_errmsg(ctx), path));
        assert_file_unchanged(path, before, len);
    }
    free(before);

    /* another program's SQLite database */
    path_in(path, sizeof path, "other.db");
    raw_exec(path, "CREATE TABLE customers(id, name); INSERT INTO customers VALUES(1,'x');");
    before = file_bytes(path, &len);
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_ERR_DB_CORRUPT);
    assert_non_null(strstr(gj_ctx_errmsg(ctx), "not a gjadvise store"));
    assert_file_unchanged(path, before, len);
    free(before);

    /* a gjadvise store missing a table */
    path_in(path, sizeof path, "damaged.db");
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_OK);
    gj_db_close(db);
    raw_exec(path, "DROP TABLE sample;");
    assert_int_equal(gj_db_open(path, 0, &db, ctx), GJ_ERR_DB_CORRUPT);

    /* a folder */
    assert_int_equal(gj_db_open(dir, 0, &db, ctx), GJ_ERR_DB_CORRUPT);
    gj_ctx_free(ctx);
}

/* ISSUE 2: a store locked by another connection gives GJ_ERR_DB_LOCKED
 * after the busy timeout (about 2 s), for opening and for writing. */
static void test_locked(void **state)
{
    (void)state;
    char path[512];
    gj_db *db = NULL, *db2 = NULL;
    gj_ctx *ctx = NULL;
    sqlite3 *other = NULL;
    gj_profile *p = make_profile("lock", "GPU-l", 1);
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    path_in(path, sizeof path, "locked.db");
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_OK);
    assert_int_equal(sqlite3_open_v2(path, &other, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN EXCLUSIVE; INSERT INTO exec_phase VALUES(1,0,1,1)",
                                  NULL, NULL, NULL), SQLITE_OK);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(gj_db_profile_save(db, p, NULL, 0, ctx), GJ_ERR_DB_LOCKED);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_true(t1.tv_sec - t0.tv_sec >= 1);   /* waited for the busy timeout */
    assert_non_null(strstr(gj_ctx_errmsg(ctx), path));
    assert_int_equal(gj_db_open(path, 0, &db2, ctx), GJ_ERR_DB_LOCKED);
    assert_null(db2);
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    /* Released: the same save goes through. */
    assert_int_equal(gj_db_profile_save(db, p, NULL, 0, ctx), GJ_OK);
    gj_db_close(db);
    gj_profile_free(p);
    gj_ctx_free(ctx);
}

/* Root ignores file permissions: act as nobody while checking them. */
static int become_nobody(void)
{
    if (geteuid() != 0) return 1;
    chmod(dir, 0755);
    return seteuid(65534) == 0;
}

static void become_root_again(void)
{
    if (getuid() == 0) assert_int_equal(seteuid(0), 0);
}

/* ISSUE 2: read-only file -> writes give GJ_ERR_DB_READONLY, file unchanged;
 * reading works (also with GJ_DB_OPEN_READONLY); read-only folder. */
static void test_readonly(void **state)
{
    (void)state;
    char path[512], sub[400], path2[512];
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    gj_profile *p = make_profile("ro", "GPU-r", 1), *q = NULL;
    gj_exec_record r;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    path_in(path, sizeof path, "ro.db");
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_OK);
    assert_int_equal(gj_db_profile_save(db, p, NULL, 0, ctx), GJ_OK);
    gj_db_close(db);

    /* A handle opened read-only never writes, whatever the permissions. */
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_READONLY, &db, ctx), GJ_OK);
    assert_int_equal(gj_db_profile_save(db, p, NULL, 0, ctx), GJ_ERR_DB_READONLY);
    gj_db_close(db);

    path_in(sub, sizeof sub, "rodir");
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(path2, sizeof path2, "%s/in-ro-dir.db", sub);
    assert_int_equal(gj_db_open(path2, GJ_DB_OPEN_CREATE, &db, ctx), GJ_OK);
    assert_int_equal(gj_db_profile_save(db, p, NULL, 0, ctx), GJ_OK);
    gj_db_close(db);
    if (geteuid() == 0) {
        assert_int_equal(chown(path2, 65534, 65534), 0);   /* writable by nobody */
        assert_int_equal(chown(sub, 0, 0), 0);
    }
    assert_int_equal(chmod(path, 0444), 0);
    assert_int_equal(chmod(sub, 0555), 0);
    size_t len, len2;
    unsigned char *before = file_bytes(path, &len), *before2 = file_bytes(path2, &len2);
    if (!become_nobody()) {
        free(before);
        free(before2);
        gj_profile_free(p);
        gj_ctx_free(ctx);
        skip();
    }
    /* read-only file */
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_EXISTING, &db, ctx), GJ_OK);
    assert_int_equal(gj_db_profile_load(db, "ro", 0, &q, ctx), GJ_OK);
    gj_profile_free(q);
    assert_int_equal(gj_db_profile_save(db, p, NULL, 0, ctx), GJ_ERR_DB_READONLY);
    assert_non_null(strstr(gj_ctx_errmsg(ctx), path));
    make_record(&r, "GPU-r", 1);
    assert_int_equal(gj_db_exec_log(db, &r, ctx), GJ_ERR_DB_READONLY);
    gj_db_close(db);
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_READONLY, &db, ctx), GJ_OK);
    assert_int_equal(gj_db_profile_load(db, "ro", 1, &q, ctx), GJ_OK);
    gj_profile_free(q);
    gj_db_close(db);
    /* writable file in a read-only folder: no journal can be made */
    assert_int_equal(gj_db_open(path2, GJ_DB_OPEN_EXISTING, &db, ctx), GJ_OK);
    assert_int_equal(gj_db_profile_save(db, p, NULL, 0, ctx), GJ_ERR_DB_READONLY);
    gj_db_close(db);
    /* creating in a read-only folder */
    char path3[600];
    snprintf(path3, sizeof path3, "%s/new/x.db", sub);
    assert_int_equal(gj_db_open(path3, GJ_DB_OPEN_CREATE, &db, ctx), GJ_ERR_DB_READONLY);
    snprintf(path3, sizeof path3, "%s/x.db", sub);
    assert_int_equal(gj_db_open(path3, GJ_DB_OPEN_CREATE, &db, ctx), GJ_ERR_DB_READONLY);
    become_root_again();
    assert_file_unchanged(path, before, len);
    assert_file_unchanged(path2, before2, len2);
    assert_int_equal(access(path3, F_OK), -1);
    free(before);
    free(before2);
    gj_profile_free(p);
    gj_ctx_free(ctx);
}

/* ISSUE 2: sqlite3_open_v2 failing (mocked) is reported, creates nothing
 * and crashes nothing; also for the JSON reader's in-memory connection. */
static void test_fault_open(void **state)
{
    (void)state;
    char path[512];
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    gj_profile *p = NULL;
    gj_workload w;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    path_in(path, sizeof path, "never.db");
    open_mocked = 1;
    will_return(__wrap_sqlite3_open_v2, SQLITE_CANTOPEN);
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_ERR_DB);
    assert_null(db);
    assert_non_null(strstr(gj_ctx_errmsg(ctx), path));
    will_return(__wrap_sqlite3_open_v2, SQLITE_NOMEM);
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_ERR_NOMEM);
    will_return(__wrap_sqlite3_open_v2, SQLITE_NOMEM);
    assert_int_equal(gj_profile_from_json("{}", &p, ctx), GJ_ERR_NOMEM);
    assert_null(p);
    will_return(__wrap_sqlite3_open_v2, SQLITE_ERROR);
    assert_int_equal(gj_workload_from_json("{\"op\":\"join\"}", &w, ctx), GJ_ERR_DB);
    open_mocked = 0;
    assert_int_equal(access(path, F_OK), -1);
    gj_ctx_free(ctx);
}

/* Rows of every table, to prove a failed write left nothing behind. */
static long all_rows(const char *path)
{
    return raw_count(path, "SELECT (SELECT count(*) FROM device) + (SELECT count(*) FROM profile)"
                           " + (SELECT count(*) FROM param) + (SELECT count(*) FROM sample)"
                           " + (SELECT count(*) FROM exec_log) + (SELECT count(*) FROM exec_phase)");
}

/* ISSUE 2: sqlite3_step failing at every step of a save (and of a log
 * append) rolls the whole write back: no partial profile, no crash. */
static void test_fault_step_all_or_nothing(void **state)
{
    (void)state;
    char path[512];
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    gj_profile *keep = make_profile("keep", "GPU-k", 1);
    gj_sample s[4] = {{"bw_seq", 0, 1}, {"bw_seq", 1, 2}, {"bw_rand", 0, 3}, {"launch_us", 0, 4}};
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    path_in(path, sizeof path, "step.db");
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_OK);
    assert_int_equal(gj_db_profile_save(db, keep, s, 4, ctx), GJ_OK);
    long base = all_rows(path);
    const int codes[] = {SQLITE_IOERR, SQLITE_FULL, SQLITE_BUSY, SQLITE_CONSTRAINT};
    long k, failures = 0;
    for (k = 0;; k++) {
        gj_profile *v = make_profile("victim", "GPU-v", 2);
        arm_step(k, codes[k % 4]);
        int rc = gj_db_profile_save(db, v, s, 4, ctx);
        int hit = step_calls > k;
        disarm();
        if (!hit) {   /* k is past the last step: the save went through */
            assert_int_equal(rc, GJ_OK);
            gj_profile_free(v);
            break;
        }
        assert_true(rc == GJ_ERR_DB || rc == GJ_ERR_DB_LOCKED || rc == GJ_ERR_INVALID);
        assert_int_equal(gj_profile_version(v), 1);          /* not written back */
        if (all_rows(path) != base)
            fail_msg("step %ld failed with %d: rc %d (%s) but rows %ld -> %ld", k, codes[k % 4],
                     rc, gj_ctx_errmsg(ctx), base, all_rows(path));
        failures++;
        gj_profile_free(v);
    }
    assert_true(failures >= 3 + gj_param_count());   /* device, version, profile, params... */
    assert_int_equal(raw_count(path, "SELECT count(*) FROM profile WHERE name = 'victim'"), 1);
    base = all_rows(path);
    for (k = 0;; k++) {
        gj_exec_record r;
        make_record(&r, "GPU-v", 4);
        arm_step(k, SQLITE_IOERR);
        int rc = gj_db_exec_log(db, &r, ctx);
        int hit = step_calls > k;
        disarm();
        if (!hit) {
            assert_int_equal(rc, GJ_OK);
            break;
        }
        assert_int_equal(rc, GJ_ERR_DB);
        assert_int_equal(all_rows(path), base);
    }
    assert_true(k >= 5);   /* the log row and its 4 phases */
    gj_db_close(db);
    gj_profile_free(keep);
    gj_ctx_free(ctx);
}

/* ISSUE 2: every allocation failing in turn (malloc wrapped, SQLite's
 * included) during open + save + log: an error or success, never a crash,
 * a leak (ASan) or a partial profile. */
static void test_fault_malloc(void **state)
{
    (void)state;
    char path[512];
    gj_profile *p = make_profile("mem", "GPU-m", 3);
    long k;
    for (k = 0; k < 5000; k++) {
        gj_db *db = NULL;
        gj_exec_record r;
        gj_ctx *ctx = NULL;
        assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
        snprintf(path, sizeof path, "%s/mem-%ld.db", dir, k);
        make_record(&r, "GPU-m", 3);
        malloc_failed = 0;
        malloc_calls = 0;
        malloc_fail_at = k;
        int rc = gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx);
        int rc2 = -1, rc3 = -1;
        if (rc == GJ_OK) {
            rc2 = gj_db_profile_save(db, p, NULL, 0, ctx);
            rc3 = gj_db_exec_log(db, &r, ctx);
        }
        gj_db_close(db);
        disarm();
        assert_true(rc == GJ_OK || rc == GJ_ERR_NOMEM || rc == GJ_ERR_DB);
        if (!malloc_failed) {
            assert_int_equal(rc, GJ_OK);
            assert_int_equal(rc2, GJ_OK);
            assert_int_equal(rc3, GJ_OK);
            gj_ctx_free(ctx);
            break;
        }
        /* Whatever happened, the store holds the whole profile or none. */
        if (access(path, F_OK) == 0) {
            gj_db *chk = NULL;
            if (gj_db_open(path, GJ_DB_OPEN_EXISTING, &chk, NULL) == GJ_OK) {
                long np = raw_count(path, "SELECT count(*) FROM profile");
                long nparam = raw_count(path, "SELECT count(*) FROM param");
                assert_true((np == 0 && nparam == 0) || (np == 1 && nparam == gj_param_count()));
                assert_true(np == 1 || rc2 != GJ_OK);
                gj_db_close(chk);
            }
        }
        gj_ctx_free(ctx);
    }
    assert_true(k > 10 && k < 5000);
    print_message("malloc fault points exercised: %ld\n", k);
    gj_profile_free(p);
}

/* Bad arguments are refused before anything is written. */
static void test_save_invalid(void **state)
{
    (void)state;
    char path[512];
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    gj_profile *p = make_profile("inv", "GPU-i", 1);
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    path_in(path, sizeof path, "inv.db");
    assert_int_equal(gj_db_open(path, GJ_DB_OPEN_CREATE, &db, ctx), GJ_OK);
    gj_sample nan_s[1] = {{"bw_seq", 0, NAN}}, dup[2] = {{"bw_seq", 0, 1}, {"bw_seq", 0, 2}};
    assert_int_equal(gj_db_profile_save(db, NULL, NULL, 0, ctx), GJ_ERR_INVALID);
    assert_int_equal(gj_db_profile_save(NULL, p, NULL, 0, ctx), GJ_ERR_INVALID);
    assert_int_equal(gj_db_profile_save(db, p, NULL, 2, ctx), GJ_ERR_INVALID);
    assert_int_equal(gj_db_profile_save(db, p, nan_s, 1, ctx), GJ_ERR_INVALID);
    assert_int_equal(gj_db_profile_save(db, p, dup, 2, ctx), GJ_ERR_INVALID);
    assert_non_null(strstr(gj_ctx_errmsg(ctx), "twice"));
    gj_db_close(db);
    assert_int_equal(all_rows(path), 0);
    gj_profile_free(p);
    gj_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_path),
        cmocka_unit_test_setup_teardown(test_open_create, setup, teardown),
        cmocka_unit_test_setup_teardown(test_profile_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exec_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migration_v1_to_v3, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migration_failure_rolls_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_newer_version_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exec_log_many_all_or_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fit_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_locked, setup, teardown),
        cmocka_unit_test_setup_teardown(test_readonly, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fault_open, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fault_step_all_or_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fault_malloc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_invalid, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
