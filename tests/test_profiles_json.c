/* Profile and workload JSON (issue 2, part 4): exact round trips, every
 * malformed case named in the issue, and a bounded fuzz test (random
 * mutations and truncations must give OK or an error code, never a crash or
 * a leak under ASan). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "gjadvise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

/* A finite, non-negative double with random bits (any exponent). */
static double rnd_double(void)
{
    for (;;) {
        uint64_t b = rnd() & ~(1ULL << 63);
        double d;
        memcpy(&d, &b, sizeof d);
        if (isfinite(d)) return d;
    }
}

/* A profile with every parameter, spread, source and device field set to
 * awkward values. */
static gj_profile *full_profile(void)
{
    gj_profile *p = NULL;
    assert_int_equal(gj_profile_new("rt-test_1.x", &p), GJ_OK);
    for (int i = 0; i < gj_param_count(); i++) {
        double v = (i % 3 == 0) ? rnd_double() : (double)(rnd() % 100000) / 7.0 + 0.1;
        double sp = (i % 2) ? rnd_double() : 0.1 * i;
        gj_source src = (gj_source)(1 + i % 5);
        assert_int_equal(gj_profile_set(p, gj_param_at(i)->key, v, sp, src), GJ_OK);
    }
    gj_device d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "NVIDIA H200 \"quoted\" \\ back\tslash \xc3\xa9");
    snprintf(d.uuid, sizeof d.uuid, "GPU-0c0ffee0-1234-5678-9abc-def012345678");
    d.cc_major = 9; d.cc_minor = 0; d.sm_count = 132;
    d.mem_bytes = UINT64_MAX - 5;     /* beyond int64: must survive */
    d.l2_bytes = 50ULL << 20; d.smem_per_block = 232448; d.smem_per_sm = 233472;
    d.clock_mhz = 1980; d.mem_clock_mhz = 2619; d.mem_bus_bits = 6144;
    d.driver_version = 13000; d.runtime_version = 13000;
    assert_int_equal(gj_profile_set_device(p, &d), GJ_OK);
    assert_int_equal(gj_profile_set_meta(p, "calibrate", "2026-01-02T03:04:05Z",
                                         "line1\nline2 \"q\" \x01 ctrl", 7, 0.0412345678901234),
                     GJ_OK);
    return p;
}

static void assert_profiles_equal(const gj_profile *a, const gj_profile *b)
{
    assert_string_equal(gj_profile_name(a), gj_profile_name(b));
    assert_string_equal(gj_profile_origin(a), gj_profile_origin(b));
    assert_string_equal(gj_profile_created(a), gj_profile_created(b));
    assert_string_equal(gj_profile_notes(a), gj_profile_notes(b));
    assert_int_equal(gj_profile_version(a), gj_profile_version(b));
    assert_memory_equal(&(double){gj_profile_fit_error(a)}, &(double){gj_profile_fit_error(b)},
                        sizeof(double));
    for (int i = 0; i < gj_param_count(); i++) {
        const char *k = gj_param_at(i)->key;
        double va, sa, vb, sb;
        gj_source ra, rb;
        assert_int_equal(gj_profile_get(a, k, &va, &sa, &ra), GJ_OK);
        assert_int_equal(gj_profile_get(b, k, &vb, &sb, &rb), GJ_OK);
        assert_memory_equal(&va, &vb, sizeof va);   /* bit for bit */
        assert_memory_equal(&sa, &sb, sizeof sa);
        assert_int_equal(ra, rb);
    }
    const gj_device *da = gj_profile_device(a), *db = gj_profile_device(b);
    assert_string_equal(da->name, db->name);
    assert_string_equal(da->uuid, db->uuid);
    assert_int_equal(da->cc_major, db->cc_major);
    assert_int_equal(da->cc_minor, db->cc_minor);
    assert_int_equal(da->sm_count, db->sm_count);
    assert_true(da->mem_bytes == db->mem_bytes);
    assert_true(da->l2_bytes == db->l2_bytes);
    assert_true(da->smem_per_block == db->smem_per_block);
    assert_true(da->smem_per_sm == db->smem_per_sm);
    assert_int_equal(da->clock_mhz, db->clock_mhz);
    assert_int_equal(da->mem_clock_mhz, db->mem_clock_mhz);
    assert_int_equal(da->mem_bus_bits, db->mem_bus_bits);
    assert_int_equal(da->driver_version, db->driver_version);
    assert_int_equal(da->runtime_version, db->runtime_version);
}

/* Issue 2: export -> import is exact (every param, spread, source, device
 * field), and exporting again gives the same text. */
static void test_profile_round_trip_exact(void **state)
{
    (void)state;
    for (int rep = 0; rep < 50; rep++) {
        gj_profile *p = full_profile(), *q = NULL;
        char *j1 = NULL, *j2 = NULL;
        gj_ctx *ctx = NULL;
        assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
        assert_int_equal(gj_profile_to_json(p, &j1), GJ_OK);
        int rc = gj_profile_from_json(j1, &q, ctx);
        if (rc != GJ_OK) fail_msg("import: %s\n%s", gj_ctx_errmsg(ctx), j1);
        assert_profiles_equal(p, q);
        assert_int_equal(gj_profile_to_json(q, &j2), GJ_OK);
        assert_string_equal(j1, j2);
        gj_free(j1);
        gj_free(j2);
        gj_profile_free(p);
        gj_profile_free(q);
        gj_ctx_free(ctx);
    }
}

static void test_profile_round_trip_builtins(void **state)
{
    (void)state;
    for (int i = 0; i < gj_profile_builtin_count(); i++) {
        gj_profile *p = NULL, *q = NULL;
        char *j = NULL;
        assert_int_equal(gj_profile_builtin(gj_profile_builtin_name(i), &p), GJ_OK);
        assert_int_equal(gj_profile_to_json(p, &j), GJ_OK);
        assert_int_equal(gj_profile_from_json(j, &q, NULL), GJ_OK);
        assert_profiles_equal(p, q);
        assert_string_equal(gj_profile_origin(q), "builtin");
        gj_free(j);
        gj_profile_free(p);
        gj_profile_free(q);
    }
}

/* Unset parameters may be absent; defaults fill the rest. */
static void test_profile_minimal(void **state)
{
    (void)state;
    gj_profile *p = NULL;
    const char *j = "{\"format\":\"gjadvise-profile\",\"format_version\":1,\"name\":\"mini\","
                    "\"params\":{\"bw_seq\":{\"value\":3000}}}";
    assert_int_equal(gj_profile_from_json(j, &p, NULL), GJ_OK);
    double v, sp;
    gj_source src;
    assert_int_equal(gj_profile_get(p, "bw_seq", &v, &sp, &src), GJ_OK);
    assert_true(v == 3000 && sp == 0 && src == GJ_SRC_ASSUMED);
    assert_int_equal(gj_profile_get(p, "bw_rand", &v, &sp, &src), GJ_OK);
    assert_true(v == 0 && src == GJ_SRC_UNSET);
    assert_int_equal(gj_profile_version(p), 1);
    assert_string_equal(gj_profile_origin(p), "import");
    assert_true(gj_profile_fit_error(p) < 0);
    gj_profile_free(p);
}

#define HEAD "{\"format\":\"gjadvise-profile\",\"format_version\":1,\"name\":\"t\""
#define PARAM(x) HEAD ",\"params\":{\"bw_seq\":" x "}}"

/* Issue 2: strict import. Each case: JSON, expected status, a word the
 * message must contain (the field it names). */
static void test_profile_malformed(void **state)
{
    (void)state;
    static const struct { const char *json; int rc; const char *word; } cases[] = {
        {"", GJ_ERR_PARSE, "JSON"},
        {"{", GJ_ERR_PARSE, "JSON"},
        {"not json", GJ_ERR_PARSE, "JSON"},
        {"[1,2]", GJ_ERR_PARSE, "array"},
        {"\"str\"", GJ_ERR_PARSE, "object"},
        {"{}", GJ_ERR_PARSE, "format"},
        {"{\"format\":\"gjadvise-profile\",\"format_version\":1}", GJ_ERR_PARSE, "name"},
        {"{\"format\":\"other\",\"format_version\":1,\"name\":\"t\"}", GJ_ERR_PARSE, "format"},
        {"{\"format\":\"gjadvise-profile\",\"format_version\":2,\"name\":\"t\"}", GJ_ERR_PARSE,
         "format_version"},
        {"{\"format\":\"gjadvise-profile\",\"format_version\":\"1\",\"name\":\"t\"}",
         GJ_ERR_PARSE, "format_version"},
        {HEAD ",\"colour\":1}", GJ_ERR_PARSE, "colour"},
        {HEAD ",\"name\":\"u\"}", GJ_ERR_PARSE, "twice"},
        {"{\"format\":\"gjadvise-profile\",\"format_version\":1,\"name\":\"a b\"}",
         GJ_ERR_INVALID, "name"},
        {"{\"format\":\"gjadvise-profile\",\"format_version\":1,\"name\":\"\"}", GJ_ERR_INVALID,
         "name"},
        {"{\"format\":\"gjadvise-profile\",\"format_version\":1,\"name\":"
         "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}",
         GJ_ERR_INVALID, "name"},
        {"{\"format\":\"gjadvise-profile\",\"format_version\":1,\"name\":7}", GJ_ERR_PARSE, "name"},
        {"{\"format\":\"gjadvise-profile\",\"format_version\":1,\"name\":\"a\\u0000b\"}",
         GJ_ERR_PARSE, "NUL"},
        {HEAD ",\"version\":0}", GJ_ERR_INVALID, "version"},
        {HEAD ",\"version\":1.5}", GJ_ERR_PARSE, "version"},
        {HEAD ",\"version\":99999999999999999999}", GJ_ERR_INVALID, "version"},
        {HEAD ",\"origin\":\"martian\"}", GJ_ERR_PARSE, "origin"},
        {HEAD ",\"origin\":3}", GJ_ERR_PARSE, "origin"},
        {HEAD ",\"created\":[]}", GJ_ERR_PARSE, "created"},
        {HEAD ",\"notes\":false}", GJ_ERR_PARSE, "notes"},
        {HEAD ",\"fit_error\":-0.5}", GJ_ERR_INVALID, "fit_error"},
        {HEAD ",\"fit_error\":\"x\"}", GJ_ERR_PARSE, "fit_error"},
        {HEAD ",\"device\":[]}", GJ_ERR_PARSE, "device"},
        {HEAD ",\"device\":{\"colour\":1}}", GJ_ERR_PARSE, "colour"},
        {HEAD ",\"device\":{\"sm_count\":-1}}", GJ_ERR_INVALID, "sm_count"},
        {HEAD ",\"device\":{\"sm_count\":1.5}}", GJ_ERR_PARSE, "sm_count"},
        {HEAD ",\"device\":{\"mem_bytes\":\"80G\"}}", GJ_ERR_PARSE, "mem_bytes"},
        {HEAD ",\"device\":{\"mem_bytes\":-1}}", GJ_ERR_INVALID, "mem_bytes"},
        {HEAD ",\"device\":{\"mem_bytes\":18446744073709551616}}", GJ_ERR_INVALID, "mem_bytes"},
        {HEAD ",\"device\":{\"uuid\":\"GPU-0123456789012345678901234567890123456789012345\"}}",
         GJ_ERR_INVALID, "uuid"},
        {HEAD ",\"params\":[]}", GJ_ERR_PARSE, "params"},
        {HEAD ",\"params\":{\"bw_bogus\":{\"value\":1}}}", GJ_ERR_PARSE, "bw_bogus"},
        {HEAD ",\"params\":{\"bw_seq\":{\"value\":1},\"bw_seq\":{\"value\":2}}}", GJ_ERR_PARSE,
         "twice"},
        {PARAM("1555"), GJ_ERR_PARSE, "bw_seq"},
        {PARAM("{}"), GJ_ERR_PARSE, "value"},
        {PARAM("{\"valeu\":1}"), GJ_ERR_PARSE, "valeu"},
        {PARAM("{\"value\":\"1555\"}"), GJ_ERR_PARSE, "bw_seq"},
        {PARAM("{\"value\":null}"), GJ_ERR_PARSE, "bw_seq"},
        {PARAM("{\"value\":-1}"), GJ_ERR_INVALID, "bw_seq"},
        {PARAM("{\"value\":1e400}"), GJ_ERR_INVALID, "finite"},
        {PARAM("{\"value\":-1e400}"), GJ_ERR_INVALID, "bw_seq"},
        {PARAM("{\"value\":1,\"spread\":-0.1}"), GJ_ERR_INVALID, "spread"},
        {PARAM("{\"value\":1,\"spread\":true}"), GJ_ERR_PARSE, "spread"},
        {PARAM("{\"value\":1,\"unit\":\"MB/s\"}"), GJ_ERR_PARSE, "unit"},
        {PARAM("{\"value\":1,\"source\":\"guessed\"}"), GJ_ERR_PARSE, "source"},
        {PARAM("{\"value\":1,\"value\":2}"), GJ_ERR_PARSE, "twice"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gj_ctx *ctx = NULL;
        gj_profile *p = (gj_profile *)&cases;   /* must be reset to NULL */
        assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
        int rc = gj_profile_from_json(cases[i].json, &p, ctx);
        if (rc != cases[i].rc || !strstr(gj_ctx_errmsg(ctx), cases[i].word))
            fail_msg("case %zu %s: got %d \"%s\", want %d naming \"%s\"", i, cases[i].json, rc,
                     gj_ctx_errmsg(ctx), cases[i].rc, cases[i].word);
        assert_null(p);
        gj_ctx_free(ctx);
    }
    assert_int_equal(gj_profile_from_json(NULL, &(gj_profile *){NULL}, NULL), GJ_ERR_INVALID);
}

static void rnd_workload(gj_workload *w)
{
    gj_workload_default(w, rnd() % 2 ? GJ_OP_GROUPBY : GJ_OP_JOIN);
    w->key_bytes = rnd() % 2 ? 4 : 8;
    w->payload_bytes = rnd() % 2 ? 4 : 8;
    w->zipf = (double)(rnd() % 1000000) / 100003.0; /* < 10, the largest allowed */
    w->r_rows = 1 + rnd() % GJ_MAX_ROWS;
    w->s_rows = 1 + rnd() % GJ_MAX_ROWS;
    w->r_payloads = (int)(rnd() % (GJ_MAX_PAYLOADS + 1));
    w->s_payloads = (int)(rnd() % (GJ_MAX_PAYLOADS + 1));
    w->match_ratio = (double)(rnd() >> 11) / 9007199254740992.0;
    w->out_rows = rnd() % 3 ? 0 : rnd() % (GJ_MAX_ROWS << 4);
    w->rows = 1 + rnd() % GJ_MAX_ROWS;
    w->groups = 1 + rnd() % w->rows;
    w->n_aggs = 1 + (int)(rnd() % GJ_MAX_AGGS);
    for (int i = 0; i < w->n_aggs; i++) w->aggs[i] = (gj_agg)(rnd() % GJ_AGG_KINDS);
    w->sorted_output = (int)(rnd() % 2);
    if (w->op == GJ_OP_JOIN) {
        w->s_run = rnd() % 2 ? 0 : 1 + (double)(rnd() % 100000) / 7.0;
        w->r_sorted = (int)(rnd() % 2);
        w->s_sorted = (int)(rnd() % 2);
        w->filter = (int)(rnd() % 3);
    } else {
        w->sorted_keys = (int)(rnd() % 2);
        w->key_range = rnd() % 2 ? 0 : 1 + rnd() % (1ULL << 62);
    }
}

static void assert_workloads_equal(const gj_workload *a, const gj_workload *b)
{
    assert_int_equal(a->op, b->op);
    assert_int_equal(a->key_bytes, b->key_bytes);
    assert_int_equal(a->payload_bytes, b->payload_bytes);
    assert_memory_equal(&a->zipf, &b->zipf, sizeof a->zipf);
    assert_true(a->r_rows == b->r_rows && a->s_rows == b->s_rows);
    assert_int_equal(a->r_payloads, b->r_payloads);
    assert_int_equal(a->s_payloads, b->s_payloads);
    assert_memory_equal(&a->match_ratio, &b->match_ratio, sizeof a->match_ratio);
    assert_true(a->out_rows == b->out_rows && a->rows == b->rows && a->groups == b->groups);
    assert_int_equal(a->n_aggs, b->n_aggs);
    for (int i = 0; i < a->n_aggs; i++) assert_int_equal(a->aggs[i], b->aggs[i]);
    assert_int_equal(a->sorted_output, b->sorted_output);
    assert_memory_equal(&a->s_run, &b->s_run, sizeof a->s_run);
    assert_int_equal(a->sorted_keys, b->sorted_keys);
    assert_int_equal(a->r_sorted, b->r_sorted);
    assert_int_equal(a->s_sorted, b->s_sorted);
    assert_int_equal(a->filter, b->filter);
    assert_true(a->key_range == b->key_range);
}

static void test_workload_round_trip_exact(void **state)
{
    (void)state;
    for (int rep = 0; rep < 500; rep++) {
        gj_workload w, v;
        char *j = NULL;
        gj_ctx *ctx = NULL;
        assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
        rnd_workload(&w);
        if (gj_workload_check(&w, ctx) != GJ_OK) fail_msg("check: %s", gj_ctx_errmsg(ctx));
        assert_int_equal(gj_workload_to_json(&w, &j), GJ_OK);
        int rc = gj_workload_from_json(j, &v, ctx);
        if (rc != GJ_OK) fail_msg("%s: %s", j, gj_ctx_errmsg(ctx));
        assert_workloads_equal(&w, &v);
        gj_free(j);
        gj_ctx_free(ctx);
    }
    /* Absent fields take the paper's defaults for the operator. */
    gj_workload w, d;
    assert_int_equal(gj_workload_from_json("{\"op\":\"groupby\",\"aggs\":[\"sum\",\"median\"]}",
                                           &w, NULL), GJ_OK);
    gj_workload_default(&d, GJ_OP_GROUPBY);
    d.aggs[0] = GJ_AGG_SUM;
    d.aggs[1] = GJ_AGG_MEDIAN;
    assert_workloads_equal(&w, &d);
}

static void test_workload_malformed(void **state)
{
    (void)state;
    static const struct { const char *json; int rc; const char *word; } cases[] = {
        {"{", GJ_ERR_PARSE, "JSON"},
        {"[]", GJ_ERR_PARSE, "object"},
        {"{}", GJ_ERR_PARSE, "op"},
        {"{\"op\":\"sort\"}", GJ_ERR_PARSE, "op"},
        {"{\"op\":1}", GJ_ERR_PARSE, "op"},
        {"{\"op\":\"join\",\"colour\":1}", GJ_ERR_PARSE, "colour"},
        {"{\"op\":\"join\",\"op\":\"join\"}", GJ_ERR_PARSE, "twice"},
        {"{\"op\":\"join\",\"key_bytes\":\"4\"}", GJ_ERR_PARSE, "key_bytes"},
        {"{\"op\":\"join\",\"key_bytes\":6}", GJ_ERR_INVALID, "key-bytes"},
        {"{\"op\":\"join\",\"r_rows\":-5}", GJ_ERR_INVALID, "r_rows"},
        {"{\"op\":\"join\",\"r_rows\":1e9}", GJ_ERR_PARSE, "r_rows"},
        {"{\"op\":\"join\",\"zipf\":-1}", GJ_ERR_INVALID, "zipf"},
        {"{\"op\":\"join\",\"zipf\":1e999}", GJ_ERR_INVALID, "zipf"},
        {"{\"op\":\"join\",\"match_ratio\":2}", GJ_ERR_INVALID, "match-ratio"},
        {"{\"op\":\"join\",\"sorted_output\":1}", GJ_ERR_PARSE, "sorted_output"},
        {"{\"op\":\"groupby\",\"aggs\":\"max\"}", GJ_ERR_PARSE, "aggs"},
        {"{\"op\":\"groupby\",\"aggs\":[\"maxx\"]}", GJ_ERR_PARSE, "maxx"},
        {"{\"op\":\"groupby\",\"aggs\":[1]}", GJ_ERR_PARSE, "aggs"},
        {"{\"op\":\"groupby\",\"aggs\":[]}", GJ_ERR_INVALID, "aggs"},
        {"{\"op\":\"groupby\",\"aggs\":[\"max\",\"max\",\"max\",\"max\",\"max\",\"max\","
         "\"max\",\"max\",\"max\"]}", GJ_ERR_INVALID, "aggregates"},
        {"{\"op\":\"groupby\",\"rows\":10,\"groups\":11}", GJ_ERR_INVALID, "groups"},
        {"{\"op\":\"join\",\"filter\":\"maybe\"}", GJ_ERR_PARSE, "filter"},
        {"{\"op\":\"join\",\"filter\":1}", GJ_ERR_PARSE, "filter"},
        {"{\"op\":\"groupby\",\"filter\":\"on\"}", GJ_ERR_INVALID, "filter"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gj_ctx *ctx = NULL;
        gj_workload w;
        assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
        int rc = gj_workload_from_json(cases[i].json, &w, ctx);
        if (rc != cases[i].rc || !strstr(gj_ctx_errmsg(ctx), cases[i].word))
            fail_msg("case %zu %s: got %d \"%s\", want %d naming \"%s\"", i, cases[i].json, rc,
                     gj_ctx_errmsg(ctx), cases[i].rc, cases[i].word);
        gj_ctx_free(ctx);
    }
}

/* Random edits of a valid document: overwrite, delete, insert, duplicate
 * a span, truncate. */
static char *mutate(const char *src)
{
    static const char alphabet[] = "{}[]\":,.-+0123456789eE \\tnulrfasx\x01\xff";
    size_t n = strlen(src), cap = n * 2 + 64;
    char *s = malloc(cap + 1);
    assert_non_null(s);
    memcpy(s, src, n + 1);
    int edits = 1 + (int)(rnd() % 4);
    for (int e = 0; e < edits && n > 0; e++) {
        size_t at = rnd() % n;
        switch (rnd() % 5) {
        case 0: s[at] = alphabet[rnd() % (sizeof alphabet - 1)]; break;
        case 1: {
            size_t len = 1 + rnd() % 8;
            if (at + len > n) len = n - at;
            memmove(s + at, s + at + len, n - at - len + 1);
            n -= len;
            break;
        }
        case 2:
            if (n + 1 < cap) {
                memmove(s + at + 1, s + at, n - at + 1);
                s[at] = alphabet[rnd() % (sizeof alphabet - 1)];
                n++;
            }
            break;
        case 3: {
            size_t len = 1 + rnd() % 16;
            if (at + len > n) len = n - at;
            if (n + len < cap) {
                memmove(s + at + len, s + at, n - at + 1);
                n += len;
            }
            break;
        }
        default: s[at] = 0; n = at; break;
        }
    }
    return s;
}

/* Issue 2: bounded fuzz, 20000 mutations each of a profile and a workload. */
static void test_fuzz(void **state)
{
    (void)state;
    gj_profile *p = full_profile();
    char *pj = NULL, *wj = NULL;
    gj_workload w;
    assert_int_equal(gj_profile_to_json(p, &pj), GJ_OK);
    gj_workload_default(&w, GJ_OP_GROUPBY);
    assert_int_equal(gj_workload_to_json(&w, &wj), GJ_OK);
    int ok_p = 0, ok_w = 0;
    for (int i = 0; i < 20000; i++) {
        char *m = mutate(pj);
        gj_profile *q = NULL;
        gj_ctx *ctx = NULL;
        assert_int_equal(gj_ctx_new(&ctx), GJ_OK);
        int rc = gj_profile_from_json(m, &q, ctx);
        if (rc != GJ_OK && rc != GJ_ERR_PARSE && rc != GJ_ERR_INVALID)
            fail_msg("profile mutation %d: rc %d (%s)", i, rc, gj_ctx_errmsg(ctx));
        if (rc == GJ_OK) {
            /* Whatever was accepted exports and imports again identically. */
            char *j2 = NULL;
            gj_profile *r = NULL;
            assert_non_null(q);
            assert_int_equal(gj_profile_to_json(q, &j2), GJ_OK);
            assert_int_equal(gj_profile_from_json(j2, &r, NULL), GJ_OK);
            assert_profiles_equal(q, r);
            gj_free(j2);
            gj_profile_free(r);
            ok_p++;
        } else {
            assert_null(q);
            assert_true(gj_ctx_errmsg(ctx)[0] != 0);
        }
        gj_profile_free(q);
        free(m);

        m = mutate(wj);
        gj_workload v;
        rc = gj_workload_from_json(m, &v, ctx);
        if (rc != GJ_OK && rc != GJ_ERR_PARSE && rc != GJ_ERR_INVALID)
            fail_msg("workload mutation %d: rc %d (%s)", i, rc, gj_ctx_errmsg(ctx));
        if (rc == GJ_OK) {
            assert_int_equal(gj_workload_check(&v, NULL), GJ_OK);
            ok_w++;
        }
        free(m);
        gj_ctx_free(ctx);
    }
    print_message("fuzz: %d of 20000 profile and %d of 20000 workload mutations accepted\n",
                  ok_p, ok_w);
    gj_free(pj);
    gj_free(wj);
    gj_profile_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_round_trip_exact),
        cmocka_unit_test(test_profile_round_trip_builtins),
        cmocka_unit_test(test_profile_minimal),
        cmocka_unit_test(test_profile_malformed),
        cmocka_unit_test(test_workload_round_trip_exact),
        cmocka_unit_test(test_workload_malformed),
        cmocka_unit_test(test_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
