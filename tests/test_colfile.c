/* Column files (operators/colfile.h): binary round trip, CSV with header,
 * comments, floats and hex, and every malformed case naming line and field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gjadvise.h"
#include "operators/colfile.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/gjcolXXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}
static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *write_text(const char *name, const char *text)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_binary_round_trip(void **state)
{
    (void)state;
    uint64_t keys[5] = {1, 0xF000000000000001ULL, 3, 4, 5};
    uint32_t p0[5] = {10, 20, 30, 40, 50};
    double p1[5] = {1.5, -2.5, 3.25, 0, 1e300};
    gj_dtable h = {0}, back;
    h.rows = 5;
    h.key = (gj_column){keys, 8, GJ_DT_INT};
    h.n_payloads = 2;
    h.payload[0] = (gj_column){p0, 4, GJ_DT_INT};
    h.payload[1] = (gj_column){p1, 8, GJ_DT_FLOAT};
    char path[128];
    snprintf(path, sizeof path, "%s/t.gjc", dir);
    assert_int_equal(gj_colfile_write(path, &h, NULL), GJ_OK);
    assert_int_equal(gj_colfile_read(path, 4, 4, &back, NULL), GJ_OK); /* widths from the file */
    assert_int_equal(back.rows, 5);
    assert_int_equal(back.key.width, 8);
    assert_int_equal(back.n_payloads, 2);
    assert_int_equal(back.payload[1].type, GJ_DT_FLOAT);
    assert_memory_equal(back.key.data, keys, sizeof keys);
    assert_memory_equal(back.payload[0].data, p0, sizeof p0);
    assert_memory_equal(back.payload[1].data, p1, sizeof p1);
    gj_htable_free(&back);
    /* truncated file: size does not match the header */
    assert_int_equal(truncate(path, 24 + 3 * 8 + 5 * 8 + 7), 0);
    gj_ctx *ctx;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    assert_int_equal(gj_colfile_read(path, 4, 4, &back, ctx), GJ_ERR_PARSE);
    assert_non_null(strstr(gj_ctx_errmsg(ctx), "header says"));
    gj_ctx_free(ctx);
}

static void test_csv(void **state)
{
    (void)state;
    const char *p = write_text("r.csv", "key,price,qty\n# a comment\n1,10,1.5\n\n2, -20,2.5\n0x10,30,-3e2\n");
    gj_dtable h;
    assert_int_equal(gj_colfile_read(p, 4, 8, &h, NULL), GJ_OK);
    assert_int_equal(h.rows, 3);
    assert_int_equal(h.n_payloads, 2);
    assert_int_equal(((uint32_t *)h.key.data)[2], 16);
    assert_int_equal((int64_t)((uint64_t *)h.payload[0].data)[1], -20);
    assert_int_equal(h.payload[1].type, GJ_DT_FLOAT);
    assert_true(((double *)h.payload[1].data)[2] == -300.0);
    gj_htable_free(&h);
    /* empty file: zero rows */
    p = write_text("e.csv", "");
    assert_int_equal(gj_colfile_read(p, 4, 4, &h, NULL), GJ_OK);
    assert_int_equal(h.rows, 0);
    gj_htable_free(&h);
}

static void test_csv_malformed(void **state)
{
    (void)state;
    static const struct { const char *text, *needle; } bad[] = {
        {"1,2\n3\n", ":2: 1 fields"},
        {"1,2\n-3,4\n", "field 1"},          /* negative key */
        {"1,x\n", "field 2"},
        {"4294967296\n", "field 1"},         /* above a 4-byte key */
        {"1,1\n2,2.5\n", "float after integer"},
        {"1,1,2,3,4,5,6,7,8,9\n", "more than 9 fields"},
    };
    gj_ctx *ctx;
    assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gj_dtable h;
        const char *p = write_text("b.csv", bad[i].text);
        assert_int_equal(gj_colfile_read(p, 4, 4, &h, ctx), GJ_ERR_PARSE);
        if (!strstr(gj_ctx_errmsg(ctx), bad[i].needle))
            fail_msg("case %zu: '%s' lacks '%s'", i, gj_ctx_errmsg(ctx), bad[i].needle);
    }
    gj_dtable h;
    assert_int_equal(gj_colfile_read("/nonexistent/x.csv", 4, 4, &h, ctx), GJ_ERR_IO);
    assert_int_equal(gj_colfile_read("/dev/null", 3, 4, &h, ctx), GJ_ERR_INVALID);
    gj_ctx_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary_round_trip),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_csv_malformed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
