/* `gjadvise profiles` end to end (issue 2, part 4): export -> import ->
 * export is exact, import validates before writing, export -o is atomic,
 * exit codes. Runs the binary named by $GJ_BIN (tests/run.sh sets it);
 * skipped without it. */
#define _XOPEN_SOURCE 700   /* nftw */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "gjadvise.h"
#include <sqlite3.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256], db[512];
static const char *bin;

static int rm_cb(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb; (void)flag; (void)f;
    return remove(p);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gjcli-test-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(db, sizeof db, "%s/store.db", dir);
    /* Never touch the user's own store. */
    char def[600];
    snprintf(def, sizeof def, "%s/default/gjadvise.db", dir);
    return setenv(GJ_DB_ENV, def, 1);
}

static int teardown(void **state)
{
    (void)state;
    return nftw(dir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

/* Run `gjadvise ARGS` (a shell fragment) with stdout to out_file (or
 * /dev/null); returns the exit code. */
static int run(const char *out_file, const char *fmt, ...)
{
    char args[2048], cmdline[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmdline, sizeof cmdline, "'%s' %s > '%s' 2>>'%s/stderr.txt'", bin, args,
             out_file ? out_file : "/dev/null", dir);
    int st = system(cmdline);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    return s;
}

static int need_bin(void)
{
    bin = getenv("GJ_BIN");
    return bin && access(bin, X_OK) == 0;
}

/* ISSUE 2: export -> import --name -> export keeps every parameter, spread,
 * source and device field; the store gets origin "import", version n+1. */
static void test_export_import_round_trip(void **state)
{
    (void)state;
    if (!need_bin()) skip();
    char a[600], b[600];
    snprintf(a, sizeof a, "%s/a.json", dir);
    snprintf(b, sizeof b, "%s/b.json", dir);
    assert_int_equal(run(NULL, "profiles export a100-paper -o '%s' --db '%s'", a, db), 4);
    assert_int_equal(run(a, "profiles export a100-paper"), 0);   /* no store: built-in */
    assert_int_equal(run(NULL, "profiles import '%s' --name lab --db '%s'", a, db), 0);
    assert_int_equal(run(NULL, "profiles import '%s' --name lab --db '%s'", a, db), 0);
    assert_int_equal(run(NULL, "profiles export lab@2 -o '%s' --db '%s'", b, db), 0);
    char *ja = slurp(a), *jb = slurp(b);
    gj_profile *pa = NULL, *pb = NULL;
    assert_int_equal(gj_profile_from_json(ja, &pa, NULL), GJ_OK);
    assert_int_equal(gj_profile_from_json(jb, &pb, NULL), GJ_OK);
    assert_string_equal(gj_profile_name(pb), "lab");
    assert_string_equal(gj_profile_origin(pb), "import");
    assert_int_equal(gj_profile_version(pb), 2);
    assert_memory_equal(gj_profile_hw(pa), gj_profile_hw(pb), sizeof(gj_hw));
    assert_memory_equal(gj_profile_device(pa), gj_profile_device(pb), sizeof(gj_device));
    for (int i = 0; i < gj_param_count(); i++) {
        double sa, sb;
        gj_source ra, rb;
        gj_profile_get(pa, gj_param_at(i)->key, NULL, &sa, &ra);
        gj_profile_get(pb, gj_param_at(i)->key, NULL, &sb, &rb);
        assert_true(sa == sb && ra == rb);
    }
    /* show and list know it; --json list is valid JSON */
    char out[600];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    assert_int_equal(run(out, "profiles show lab --db '%s'", db), 0);
    char *s = slurp(out);
    assert_non_null(strstr(s, "lab v2 (origin import"));
    assert_non_null(strstr(s, "bw_seq"));
    free(s);
    assert_int_equal(run(out, "profiles list --all --json --db '%s'", db), 0);
    s = slurp(out);
    sqlite3 *c = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(":memory:", &c), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(c, "SELECT json_valid(?1), json_array_length(?1, "
                                           "'$.profiles')", -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_text(st, 1, s, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 1);
    assert_int_equal(sqlite3_column_int(st, 1), 2 + gj_profile_builtin_count());
    sqlite3_finalize(st);
    sqlite3_close(c);
    free(s);
    gj_profile_free(pa);
    gj_profile_free(pb);
    free(ja);
    free(jb);
}

/* ISSUE 2: import validates fully before writing: a bad file leaves no
 * store behind (or the store unchanged) and exits 5. */
static void test_import_validates_first(void **state)
{
    (void)state;
    if (!need_bin()) skip();
    char bad[600];
    struct stat sb;
    snprintf(bad, sizeof bad, "%s/bad.json", dir);
    FILE *f = fopen(bad, "w");
    assert_non_null(f);
    fputs("{\"format\":\"gjadvise-profile\",\"format_version\":1,\"name\":\"x\","
          "\"params\":{\"bw_seq\":{\"value\":-3}}}", f);
    fclose(f);
    assert_int_equal(run(NULL, "profiles import '%s' --db '%s'", bad, db), 5);
    assert_int_equal(stat(db, &sb), -1);     /* nothing created */
    assert_int_equal(run(NULL, "profiles import '%s/none.json' --db '%s'", dir, db), 5);
    assert_int_equal(run(NULL, "profiles import '%s' --name 'a b' --db '%s'", bad, db), 2);
    assert_int_equal(stat(db, &sb), -1);
    snprintf(bad, sizeof bad, "%s/stderr.txt", dir);
    char *err = slurp(bad);
    assert_non_null(err);
    assert_non_null(strstr(err, "bw_seq"));
    free(err);
}

/* ISSUE 2: export -o writes through a temporary file and a rename: when
 * the rename fails nothing half-written (and no temporary) is left. */
static void test_export_atomic(void **state)
{
    (void)state;
    if (!need_bin()) skip();
    char target[600];
    snprintf(target, sizeof target, "%s/taken", dir);
    assert_int_equal(mkdir(target, 0700), 0);   /* rename onto a folder fails */
    assert_int_equal(run(NULL, "profiles export a100-paper -o '%s'", target), 5);
    int entries = 0;
    char ls[700];
    snprintf(ls, sizeof ls, "ls -A '%s' | grep -c tmp- || true", dir);
    FILE *p = popen(ls, "r");
    assert_non_null(p);
    assert_int_equal(fscanf(p, "%d", &entries), 1);
    pclose(p);
    assert_int_equal(entries, 0);
}

static void test_exit_codes(void **state)
{
    (void)state;
    if (!need_bin()) skip();
    char garbage[600];
    snprintf(garbage, sizeof garbage, "%s/garbage.db", dir);
    FILE *f = fopen(garbage, "w");
    assert_non_null(f);
    for (int i = 0; i < 4096; i++) fputc((i * 7919) & 0xff, f);
    fclose(f);
    assert_int_equal(run(NULL, "profiles list --db '%s'", garbage), 4);
    assert_int_equal(run(NULL, "profiles list --db '%s/missing.db'", dir), 4);
    assert_int_equal(run(NULL, "profiles list"), 0);
    assert_int_equal(run(NULL, "profiles show no-such-profile"), 2);
    assert_int_equal(run(NULL, "profiles show a100-paper@2"), 2);
    assert_int_equal(run(NULL, "profiles show a100-paper@zero"), 2);
    assert_int_equal(run(NULL, "profiles list --frobnicate"), 2);
    assert_int_equal(run(NULL, "profiles nonsense"), 2);
    assert_int_equal(run(NULL, "profiles"), 2);
    assert_int_equal(run(NULL, "profiles --help"), 0);
    assert_int_equal(run(NULL, "profiles import --help"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_export_import_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_import_validates_first, setup, teardown),
        cmocka_unit_test_setup_teardown(test_export_atomic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exit_codes, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
