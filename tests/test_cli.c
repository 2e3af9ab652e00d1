/* The gjadvise command line as a user meets it: exit codes, one-line errors,
 * and a bounded fuzz of the flag parser (run under ASan/UBSan in CI). The
 * binary under test is $GJ_BIN (set by `make test`). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "clirun.h"
#include "gjadvise.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/gjcli-XXXXXX";

/* Run $GJ_BIN (tests/clirun.c), output into out, scratch in tmpdir. */
#define RUN(out, ...) gj_test_run(out, sizeof out, tmpdir, (const char *const[]){__VA_ARGS__, NULL})

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

static void test_recommend_default(void **state)
{
    (void)state;
    NEED_BIN();
    char out[8192];
    assert_int_equal(RUN(out, "recommend", "--match-ratio", "0.3"), 0);
    int gpus = 0;
    if (gj_gpu_count(&gpus, NULL) != GJ_OK) gpus = 0;
    if (gpus == 0) { /* the README's first command on a machine without a GPU */
        assert_non_null(strstr(out, "best: PHJ-TR"));
        assert_non_null(strstr(out, "crossover: at match_ratio"));
        assert_non_null(strstr(out, "profile a100-paper"));
    } else { /* with a GPU and no store: the built-in profile of its model */
        assert_non_null(strstr(out, "best: "));
        assert_null(strstr(out, "profile a100-paper"));
    }
    assert_int_equal(RUN(out, "recommend", "--op", "groupby", "--rows", "2^28", "--groups", "2^12",
                         "--aggs", "max,max", "--json"), 0);
    assert_non_null(strstr(out, "\"best\":\"HGB\""));
    /* rows in key order: the sort-based group-bys need no sort (TPC-H Q18's
     * group-by by order key) */
    assert_int_equal(RUN(out, "recommend", "--op", "groupby", "--rows", "59986052", "--groups", "15000000",
                         "--aggs", "sum", "--sorted-keys", "--profile", "h200-tuned", "--json"), 0);
    assert_non_null(strstr(out, "\"sorted_keys\":true"));
    assert_non_null(strstr(out, "\"best\":\"SGB-"));
    /* keys of a known span: PGB's direct plan, predicted faster than hashed
     * (h100-tuned, 2^22 groups) */
    assert_int_equal(RUN(out, "recommend", "--op", "groupby", "--groups", "2^22", "--key-range", "2^22", "--profile",
                         "h100-tuned"), 0);
    assert_non_null(strstr(out, "keys span 2^22 values"));
    assert_non_null(strstr(out, "best: PGB-TR"));
    assert_int_equal(RUN(out, "recommend", "--op", "groupby", "--key-range", "0"), 2);
    assert_non_null(strstr(out, "--key-range"));
    /* more groups than the span told can form: taken as told, with a note */
    assert_int_equal(RUN(out, "recommend", "--op", "groupby", "--groups", "100", "--key-range", "5"), 0);
    assert_non_null(strstr(out, "note: 100 groups, but keys spanning 5 values form at most 5"));
    assert_non_null(strstr(out, "best: "));
    assert_int_equal(RUN(out, "recommend", "--op", "groupby", "--groups", "5", "--key-range", "5"), 0);
    assert_null(strstr(out, "note:"));
    assert_int_equal(RUN(out, "model", "--profile", "a100-paper"), 0);
    assert_non_null(strstr(out, "0.39"));
    assert_non_null(strstr(out, "[2^0, 2^21]"));
    assert_non_null(strstr(out, "2^28               p >= 5"));
    assert_int_equal(RUN(out, "--version"), 0);
    assert_int_equal(RUN(out, "recommend", "--help"), 0);
    assert_non_null(strstr(out, "examples:"));
    assert_non_null(strstr(out, "--filter auto|on|off"));
    /* the filter as asked: the model's choice (auto; a100-paper at 0.3: with
     * it, the line says what the best takes without), off, on */
    const char *prof[] = {"--profile", "a100-paper", "--match-ratio", "0.3"};
    assert_int_equal(RUN(out, "recommend", prof[0], prof[1], prof[2], prof[3]), 0);
    assert_non_null(strstr(out, "  yes\n"));
    assert_non_null(strstr(out, "semi-join filter: S is first cut"));
    assert_int_equal(RUN(out, "recommend", prof[0], prof[1], prof[2], prof[3], "--filter", "off"), 0);
    assert_null(strstr(out, "  yes\n"));
    assert_null(strstr(out, "semi-join filter:"));
    assert_non_null(strstr(out, ", filter off"));
    assert_int_equal(RUN(out, "recommend", prof[0], prof[1], "--match-ratio", "0.75", "--filter", "on", "--json"), 0);
    assert_non_null(strstr(out, "\"filter\":\"on\""));
    assert_non_null(strstr(out, "\"filter\":{\"r_rows\""));
    /* weighed and left out (h100-tuned, 2^25 a side at 0.48: PHJ-TR faster without) */
    assert_int_equal(RUN(out, "recommend", "--profile", "h100-tuned", "--rows", "2^25", "--match-ratio", "0.48"), 0);
    assert_non_null(strstr(out, "best: PHJ-TR"));
    assert_non_null(strstr(out, "semi-join filter: weighed and left out: PHJ-TR with it would take"));
    assert_int_equal(RUN(out, "recommend", prof[0], prof[1], "--match-ratio", "0.75", "--json"), 0);
    assert_non_null(strstr(out, "\"filter\":null"));
    assert_null(strstr(out, "\"filter\":{"));
}

static void test_bad_flags(void **state)
{
    (void)state;
    NEED_BIN();
    char out[4096];
    struct {
        const char *flag, *value, *expect;
    } cases[] = {
        {"--match-ratio", "1.5", "--match-ratio=1.5: allowed a number from 0 to 1"},
        {"--match-ratio", "abc", "--match-ratio=abc"},
        {"--rows", "0", "--rows=0: allowed a size from 1 to 2^40"},
        {"--rows", "2^41", "--rows=2^41"},
        {"--rows", "-5", "--rows=-5"},
        {"--key-bytes", "6", "--key-bytes=6: allowed 4 or 8"},
        {"--payload-bytes", "16", "--payload-bytes=16: allowed 4 or 8"},
        {"--zipf", "-1", "--zipf=-1"},
        {"--s-run", "0.5", "--s-run=0.5: allowed a number from 1 (no runs) to 2^40"},
        {"--payloads", "9", "--payloads=9: allowed 0 to 8"},
        {"--aggs", "max,foo", "--aggs=max,foo"},
        {"--profile", "no-such", "--profile=no-such: allowed"},
        {"--op", "sort", "--op=sort: allowed join or groupby"},
        {"--filter", "maybe", "--filter=maybe: allowed auto, on or off"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = RUN(out, "recommend", cases[i].flag, cases[i].value);
        if (rc != 2 || !strstr(out, cases[i].expect))
            fail_msg("%s %s: exit %d, output: %s", cases[i].flag, cases[i].value, rc, out);
        /* one line */
        assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
    }
    assert_int_equal(RUN(out, "recommend", "--op", "groupby", "--rows", "100", "--groups", "101"), 2);
    assert_non_null(strstr(out, "--groups=101"));
    /* rows in key order: a group-by statistic */
    assert_int_equal(RUN(out, "recommend", "--sorted-keys"), 2);
    assert_non_null(strstr(out, "sorted-keys=1: a group-by statistic"));
    assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
    /* the semi-join filter: a join's */
    assert_int_equal(RUN(out, "recommend", "--op", "groupby", "--filter", "on"), 2);
    assert_non_null(strstr(out, "a join's semi-join filter"));
    assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
    /* run and bench: the shared width and --impls parsers (no GPU needed to refuse) */
    struct {
        const char *cmd, *op, *flag, *value, *expect;
    } runs[] = {
        {"bench", "join", "--impls", "PHJ-TR,HGB",
         "--impls=PHJ-TR,HGB: allowed all or a list of PHJ-UR, PHJ-TR, SMJ-UR, SMJ-TR, NPHJ"},
        {"bench", "groupby", "--impls", "NPHJ",
         "--impls=NPHJ: allowed all or a list of HGB, SGB-UR, SGB-TR, SGB-DE-TR, PGB-UR, PGB-TR, HASH-GLOBAL"},
        {"bench", "groupby", "--impls", ",", "--impls=,: allowed at least one implementation"},
        {"run", "join", "--key-bytes", "5", "--key-bytes=5: allowed 4 or 8"},
        {"run", "groupby", "--payload-bytes", "x", "--payload-bytes=x: allowed 4 or 8"},
        {"run", "groupby", "--repeat", "0", "--repeat=0: allowed 1 to 1000"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        int rc = RUN(out, runs[i].cmd, runs[i].op, runs[i].flag, runs[i].value);
        if (rc != 2 || !strstr(out, runs[i].expect))
            fail_msg("%s %s %s %s: exit %d, output: %s", runs[i].cmd, runs[i].op, runs[i].flag, runs[i].value, rc, out);
        assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
    }
    assert_int_equal(RUN(out, "recommend", "--bogus"), 2);
    assert_int_equal(RUN(out, "recommend", "--rows"), 2);
    assert_int_equal(RUN(out, "nosuch"), 2);
    assert_int_equal(RUN(out, "recommend", "--r-rows", "2^32", "--s-rows", "2^32"), 6);
    assert_non_null(strstr(out, "device memory"));
    /* an explicit store that does not exist: a clear error, nothing created */
    char db[96];
    snprintf(db, sizeof db, "%s/missing/x.db", tmpdir);
    assert_int_equal(RUN(out, "recommend", "--db", db), 4);
    assert_int_equal(access(db, F_OK), -1);
}

/* Bounded fuzz: random combinations of flags and hostile values never
 * crash the parser (exit codes stay in the documented set). */
static void test_fuzz_flags(void **state)
{
    (void)state;
    NEED_BIN();
    static const char *flags[] = {"--op", "--rows", "--r-rows", "--s-rows", "--match-ratio",
                                  "--payloads", "--groups", "--aggs", "--zipf", "--s-run", "--key-bytes",
                                  "--payload-bytes", "--out-rows", "--sorted-output", "--json",
                                  "--r-payloads", "--s-payloads", "--profile", "--", "-h"};
    static const char *values[] = {"0", "1", "-1", "2^27", "2^63", "2^", "1e308", "nan", "inf",
                                   "0.5", "128M", "16T", "9999999999999999999999", "", "join",
                                   "groupby", "max,max,max,max,max,max,max,max,max", "median",
                                   ",,,", "a100-paper", "%s%n%s", "\xff\xfe", "4", "8", "1.0x"};
    char out[16384];
    unsigned seed = 12345;
    for (int iter = 0; iter < 300; iter++) {
        const char *args[16];
        int n = 0;
        args[n++] = (iter % 3) ? "recommend" : "model";
        int k = 1 + (int)(rand_r(&seed) % 6);
        for (int j = 0; j < k && n < 14; j++) {
            args[n++] = flags[rand_r(&seed) % (sizeof flags / sizeof flags[0])];
            if (rand_r(&seed) % 4) args[n++] = values[rand_r(&seed) % (sizeof values / sizeof values[0])];
        }
        args[n] = NULL;
        int rc = gj_test_run(out, sizeof out, tmpdir, args);
        if (rc != 0 && rc != 2 && rc != 6) {
            char line[512] = "";
            for (int j = 0; j < n; j++) {
                strncat(line, args[j], sizeof line - strlen(line) - 2);
                strcat(line, " ");
            }
            fail_msg("exit %d for: %s\n%s", rc, line, out);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recommend_default),
        cmocka_unit_test(test_bad_flags),
        cmocka_unit_test(test_fuzz_flags),
    };
    return cmocka_run_group_tests_name("cli", tests, setup, teardown);
}
