/* `gjadvise run join|groupby --expect FILE` (and run groupby --file): the
 * GPU result checked against an expected one, as bench/tpch does against
 * DuckDB. Drives $GJ_BIN on fixtures written here, with hand-computed
 * expected results. Flag and file errors are checked everywhere; the parts
 * that run an operator skip without a GPU. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "clirun.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/gjexpect-XXXXXX";
static char path_buf[16][128];

/* Run $GJ_BIN (tests/clirun.c), output into out, scratch in tmpdir. */
#define RUN(out, ...) gj_test_run(out, sizeof out, tmpdir, (const char *const[]){__VA_ARGS__, NULL})

/* Write text to tmpdir/name; returns the path (slot i of path_buf). */
static const char *fixture(int slot, const char *name, const char *text)
{
    snprintf(path_buf[slot], sizeof path_buf[slot], "%s/%s", tmpdir, name);
    FILE *f = fopen(path_buf[slot], "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path_buf[slot];
}

static int setup(void **state)
{
    (void)state;
    return gj_test_scratch(tmpdir);
}

static int teardown(void **state)
{
    (void)state;
    return gj_test_scratch_free(tmpdir);
}

#define NEED_BIN() GJ_NEED_BIN()

/* Join fixture: R(key, r1), S(key, s1, s2). By hand: keys 1 (one R row, two
 * S rows) and 3 (one R, two S) match; 2, 5 of R and 4, 6 of S do not. */
static const char *R_CSV = "key,r1\n1,10\n2,20\n3,30\n5,50\n";
static const char *S_CSV = "key,s1,s2\n1,100,7\n1,101,8\n3,300,9\n4,400,1\n3,301,2\n6,600,3\n";
/* the 4 output rows (key, r1, s1, s2), deliberately not in key order */
static const char *J_OK = "3,30,301,2\n1,10,100,7\n3,30,300,9\n1,10,101,8\n";

/* Group-by fixture: key, p1 (sum), p2 (unused: count reads none), p3 (avg).
 * By hand: key 2 -> sum 100, count 1, avg 1; key 7 -> 1+2+4 = 7, 3, (2+3+4)/3
 * = 3; key 9 -> -5, 1, 10. */
static const char *G_CSV = "7,1,0,2\n7,2,0,3\n9,-5,0,10\n7,4,0,4\n2,100,0,1\n";
static const char *G_OK = "9,-5,1,10.0\n2,100,1,1.0\n7,7,3,3.0\n";

static void test_help_teaches(void **state)
{
    (void)state;
    NEED_BIN();
    char out[16384];
    assert_int_equal(RUN(out, "run", "join", "--help"), 0);
    assert_non_null(strstr(out, "--expect"));
    assert_non_null(strstr(out, "multiset"));
    assert_non_null(strstr(out, "bench/tpch"));
    assert_int_equal(RUN(out, "run", "groupby", "--help"), 0);
    assert_non_null(strstr(out, "--file"));
    assert_non_null(strstr(out, "--expect"));
    assert_non_null(strstr(out, "--rtol"));
    assert_non_null(strstr(out, "--key-range"));
    assert_non_null(strstr(out, "5 bad input file"));
}

/* Flag and file errors: caught before any GPU work, so everywhere. */
static void test_bad_input(void **state)
{
    (void)state;
    NEED_BIN();
    char out[4096];
    const char *g = fixture(0, "g.csv", G_CSV);
    assert_int_equal(RUN(out, "run", "groupby", "--expect", "x.gjc"), 2);
    assert_non_null(strstr(out, "--expect needs --file"));
    assert_int_equal(RUN(out, "run", "groupby", "--file", g, "--rtol", "1"), 2);
    assert_non_null(strstr(out, "--rtol=1: allowed 0 <= X < 1"));
    assert_int_equal(RUN(out, "run", "groupby", "--file", g, "--rtol", "-0.1"), 2);
    assert_int_equal(RUN(out, "run", "groupby", "--file", ""), 2);
    assert_int_equal(RUN(out, "run", "groupby", "--key-range", "0"), 2);
    assert_non_null(strstr(out, "auto, unknown or 1 to 2^62"));
    assert_int_equal(RUN(out, "bench", "groupby", "--key-range", "many"), 2);
    assert_int_equal(RUN(out, "bench", "groupby", "--file", g), 2);
    assert_non_null(strstr(out, "only with run groupby"));
    assert_int_equal(RUN(out, "bench", "join", "--expect", g), 2);
    assert_non_null(strstr(out, "--expect=")); /* names the flag */
    /* a missing file: exit 5, naming it */
    assert_int_equal(RUN(out, "run", "groupby", "--file", "/nonexistent/in.gjc"), 5);
    assert_non_null(strstr(out, "/nonexistent/in.gjc"));
    /* a truncated binary file: the header promises more than the file holds */
    const char *t = fixture(1, "trunc.gjc", "GJCOLS01\x05");
    assert_int_equal(RUN(out, "run", "groupby", "--file", t), 5);
    assert_non_null(strstr(out, "--file"));
    /* aggregates need their payload columns: sum,count,avg reads columns 1 and 3 */
    const char *g2 = fixture(2, "g2.csv", "7,1\n7,2\n");
    assert_int_equal(RUN(out, "run", "groupby", "--file", g2, "--aggs", "sum,count,avg"), 2);
    assert_non_null(strstr(out, "aggregate 3 (avg) reads payload column 3"));
    assert_non_null(strstr(out, "has 1 payload column;"));
    /* count alone reads none: not an error at this stage (GPU or exit 3 next) */
    int rc = RUN(out, "run", "groupby", "--file", g2, "--aggs", "count");
    assert_true(rc == 0 || rc == 3);
    /* a missing or malformed --expect file: exit 5 */
    assert_int_equal(RUN(out, "run", "groupby", "--file", g, "--aggs", "sum,count,avg", "--expect",
                         "/nonexistent/e.gjc"), 5);
    assert_non_null(strstr(out, "--expect: /nonexistent/e.gjc"));
    const char *bad = fixture(3, "bad.csv", "1,2\n3\n");
    assert_int_equal(RUN(out, "run", "groupby", "--file", g, "--aggs", "sum,count,avg", "--expect", bad), 5);
    /* an empty input file */
    const char *empty = fixture(4, "empty.csv", "# nothing\n");
    rc = RUN(out, "run", "groupby", "--file", empty, "--aggs", "count");
    assert_int_equal(rc, 5);
}

/* 1 when a GPU runs joins here, else skip the caller */
static int have_gpu(void)
{
    char out[4096];
    const char *r = fixture(5, "probe_r.csv", "1\n"), *s = fixture(6, "probe_s.csv", "1\n");
    int rc = RUN(out, "run", "join", "--r-file", r, "--s-file", s, "--repeat", "1", "--no-log");
    return rc != 3;
}

static void test_join_expect(void **state)
{
    (void)state;
    NEED_BIN();
    if (!have_gpu()) skip();
    char out[8192];
    const char *r = fixture(0, "r.csv", R_CSV), *s = fixture(1, "s.csv", S_CSV);
    const char *ok = fixture(2, "j_ok.csv", J_OK);
    static const char *impls[] = {"auto", "PHJ-UR", "PHJ-TR", "SMJ-UR", "SMJ-TR", "NPHJ"};
    for (size_t i = 0; i < sizeof impls / sizeof *impls; i++) {
        int rc = RUN(out, "run", "join", "--r-file", r, "--s-file", s, "--impl", impls[i], "--expect", ok,
                     "--repeat", "1", "--no-log", "--json");
        if (rc != 0 || !strstr(out, "\"expected\":true") || !strstr(out, "\"out_rows\":4"))
            fail_msg("%s: exit %d: %s", impls[i], rc, out);
    }
    assert_int_equal(RUN(out, "run", "join", "--r-file", r, "--s-file", s, "--expect", ok, "--repeat", "1",
                         "--no-log"), 0);
    assert_non_null(strstr(out, "expect "));
    assert_non_null(strstr(out, ": ok (same rows)"));
    /* one value off (s2 of key 3, 9 -> 19): exit 7, naming the sorted row */
    const char *val = fixture(3, "j_val.csv", "3,30,301,2\n1,10,100,7\n3,30,300,19\n1,10,101,8\n");
    assert_int_equal(RUN(out, "run", "join", "--r-file", r, "--s-file", s, "--expect", val, "--repeat", "1",
                         "--no-log"), 7);
    assert_non_null(strstr(out, "first difference at sorted row"));
    assert_non_null(strstr(out, "WRONG"));
    /* a row missing: exit 7, counts named */
    const char *miss = fixture(4, "j_miss.csv", "3,30,301,2\n1,10,100,7\n3,30,300,9\n");
    assert_int_equal(RUN(out, "run", "join", "--r-file", r, "--s-file", s, "--expect", miss, "--repeat", "1",
                         "--no-log"), 7);
    assert_non_null(strstr(out, "3 rows, the output has 4"));
    /* a duplicated row instead of another: same count, different multiset */
    const char *dup = fixture(5, "j_dup.csv", "3,30,301,2\n1,10,100,7\n3,30,300,9\n3,30,300,9\n");
    assert_int_equal(RUN(out, "run", "join", "--r-file", r, "--s-file", s, "--expect", dup, "--repeat", "1",
                         "--no-log"), 7);
    /* a column short: exit 7, the shapes named */
    const char *cols = fixture(6, "j_cols.csv", "3,30,301\n1,10,100\n3,30,300\n1,10,101\n");
    assert_int_equal(RUN(out, "run", "join", "--r-file", r, "--s-file", s, "--expect", cols, "--repeat", "1",
                         "--no-log"), 7);
    assert_non_null(strstr(out, "3 columns, the output has 4 (the key, 1 of R, 2 of S)"));
    /* a float where the output has integers: exit 7 */
    const char *fl = fixture(7, "j_fl.csv", "3,30,301,2.0\n1,10,100,7.0\n3,30,300,9.0\n1,10,101,8.0\n");
    assert_int_equal(RUN(out, "run", "join", "--r-file", r, "--s-file", s, "--expect", fl, "--repeat", "1",
                         "--no-log"), 7);
    assert_non_null(strstr(out, "float"));
    /* an empty join (no key in common) against an empty expectation: a
     * GJCOLS01 file of 0 rows and 4 integer columns of 4 bytes */
    const char *s0 = fixture(8, "s0.csv", "4,1,1\n");
    snprintf(path_buf[9], sizeof path_buf[9], "%s/j_none.gjc", tmpdir);
    FILE *f = fopen(path_buf[9], "wb");
    assert_non_null(f);
    unsigned char hdr[24 + 4 * 8] = "GJCOLS01";
    hdr[16] = 4; /* columns */
    for (int c = 0; c < 4; c++) hdr[24 + 8 * c] = 4;
    assert_int_equal(fwrite(hdr, 1, sizeof hdr, f), sizeof hdr);
    fclose(f);
    assert_int_equal(RUN(out, "run", "join", "--r-file", r, "--s-file", s0, "--expect", path_buf[9], "--repeat", "1",
                         "--no-log", "--json"), 0);
    assert_non_null(strstr(out, "\"out_rows\":0"));
    /* and the 4-row expectation against that empty output */
    assert_int_equal(RUN(out, "run", "join", "--r-file", r, "--s-file", s0, "--expect", ok, "--repeat", "1",
                         "--no-log"), 7);
    assert_non_null(strstr(out, "4 rows, the output has 0"));
    /* 8-byte keys with the high bit set compare unsigned */
    const char *r8 = fixture(10, "r8.csv", "0xFFFFFFFF00000001,5\n0x8000000000000000,6\n");
    const char *s8 = fixture(11, "s8.csv", "0x8000000000000000,60\n0xFFFFFFFF00000001,50\n0xFFFFFFFF00000001,51\n");
    const char *e8 = fixture(12, "e8.csv",
                             "0xFFFFFFFF00000001,5,51\n0x8000000000000000,6,60\n0xFFFFFFFF00000001,5,50\n");
    assert_int_equal(RUN(out, "run", "join", "--r-file", r8, "--s-file", s8, "--key-bytes", "8", "--expect", e8,
                         "--repeat", "1", "--no-log"), 0);
}

static void test_groupby_expect(void **state)
{
    (void)state;
    NEED_BIN();
    if (!have_gpu()) skip();
    char out[8192];
    const char *g = fixture(0, "g.csv", G_CSV), *ok = fixture(1, "g_ok.csv", G_OK);
    static const char *impls[] = {"auto", "HGB", "SGB-UR", "SGB-TR", "SGB-DE-TR", "PGB-UR", "PGB-TR", "HASH-GLOBAL"};
    for (size_t i = 0; i < sizeof impls / sizeof *impls; i++) {
        int rc = RUN(out, "run", "groupby", "--file", g, "--aggs", "sum,count,avg", "--impl", impls[i], "--expect",
                     ok, "--repeat", "1", "--no-log", "--json");
        /* groups counted from the file (3 distinct keys) when --groups is not given */
        if (rc != 0 || !strstr(out, "\"expected\":true") || !strstr(out, "\"groups\":3") ||
            !strstr(out, "\"groups_hint\":3") || !strstr(out, "\"rows\":5"))
            fail_msg("%s: exit %d: %s", impls[i], rc, out);
    }
    /* --groups is the optimizer's estimate: taken as given */
    assert_int_equal(RUN(out, "run", "groupby", "--file", g, "--aggs", "sum,count,avg", "--groups", "2", "--expect",
                         ok, "--repeat", "1", "--no-log", "--json"), 0);
    assert_non_null(strstr(out, "\"groups_hint\":2"));
    /* a sum off by one: exit 7, naming key and aggregate */
    const char *sum = fixture(2, "g_sum.csv", "9,-5,1,10.0\n2,100,1,1.0\n7,8,3,3.0\n");
    assert_int_equal(RUN(out, "run", "groupby", "--file", g, "--aggs", "sum,count,avg", "--expect", sum, "--repeat",
                         "1", "--no-log"), 7);
    assert_non_null(strstr(out, "group key 7, aggregate 1 (sum): 7, expected 8"));
    /* a count off */
    const char *cnt = fixture(3, "g_cnt.csv", "9,-5,1,10.0\n2,100,2,1.0\n7,7,3,3.0\n");
    assert_int_equal(RUN(out, "run", "groupby", "--file", g, "--aggs", "sum,count,avg", "--expect", cnt, "--repeat",
                         "1", "--no-log"), 7);
    assert_non_null(strstr(out, "group key 2, aggregate 2 (count): 1, expected 2"));
    /* an average within the relative tolerance passes, one outside fails */
    const char *near = fixture(4, "g_near.csv", "9,-5,1,10.0\n2,100,1,1.0\n7,7,3,3.000000000003\n");
    assert_int_equal(RUN(out, "run", "groupby", "--file", g, "--aggs", "sum,count,avg", "--expect", near, "--repeat",
                         "1", "--no-log"), 0);
    assert_int_equal(RUN(out, "run", "groupby", "--file", g, "--aggs", "sum,count,avg", "--expect", near, "--rtol",
                         "0", "--repeat", "1", "--no-log"), 7);
    assert_non_null(strstr(out, "group key 7, aggregate 3 (avg)"));
    const char *far = fixture(5, "g_far.csv", "9,-5,1,10.0\n2,100,1,1.0\n7,7,3,3.1\n");
    assert_int_equal(RUN(out, "run", "groupby", "--file", g, "--aggs", "sum,count,avg", "--expect", far, "--repeat",
                         "1", "--no-log"), 7);
    /* a group missing, a group extra, a wrong key */
    const char *miss = fixture(6, "g_miss.csv", "9,-5,1,10.0\n7,7,3,3.0\n");
    assert_int_equal(RUN(out, "run", "groupby", "--file", g, "--aggs", "sum,count,avg", "--expect", miss, "--repeat",
                         "1", "--no-log"), 7);
    assert_non_null(strstr(out, "2 groups, the result has 3"));
    const char *key = fixture(7, "g_key.csv", "9,-5,1,10.0\n3,100,1,1.0\n7,7,3,3.0\n");
    assert_int_equal(RUN(out, "run", "groupby", "--file", g, "--aggs", "sum,count,avg", "--expect", key, "--repeat",
                         "1", "--no-log"), 7);
    assert_non_null(strstr(out, "the result has key 2, expected 3"));
    /* a column short */
    const char *cols = fixture(8, "g_cols.csv", "9,-5,1\n2,100,1\n7,7,3\n");
    assert_int_equal(RUN(out, "run", "groupby", "--file", g, "--aggs", "sum,count,avg", "--expect", cols, "--repeat",
                         "1", "--no-log"), 7);
    assert_non_null(strstr(out, "3 columns, the result has 4"));
    /* min/max of negative 4-byte integers compare as signed values */
    const char *em = fixture(10, "em.csv", "1,-7,-3\n2,5,5\n");
    const char *gm2 = fixture(11, "gm2.csv", "1,-3,-3\n1,-7,-7\n2,5,5\n");
    assert_int_equal(RUN(out, "run", "groupby", "--file", gm2, "--aggs", "min,max", "--expect", em, "--repeat", "1",
                         "--no-log"), 0);
    const char *em2 = fixture(12, "em2.csv", "1,-7,3\n2,5,5\n"); /* max -3 written as 3 */
    assert_int_equal(RUN(out, "run", "groupby", "--file", gm2, "--aggs", "min,max", "--expect", em2, "--repeat", "1",
                         "--no-log"), 7);
    assert_non_null(strstr(out, "group key 1, aggregate 2 (max): -3, expected 3"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_teaches),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_join_expect),
        cmocka_unit_test(test_groupby_expect),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
