/* gjadvise run groupby / gjadvise bench groupby: generate R(k, r1..rp) on
 * the GPU as paper 000 Sec. 5.2.1 (keys uniform over 0..g-1 or Zipf), run a
 * group-by implementation (or the advisor's choice), time it with CUDA events
 * (median of --repeat runs after one warm-up, inputs on the GPU), show the
 * model's prediction beside it, optionally check against the CPU reference,
 * and log each run in the store. */
#include "cli/cli.h"
#include "common/internal.h"
#include "operators/timing.h"
#include "operators/colfile.h"
#include "operators/gen.h"
#include "operators/groupby.h"

#include <cuda_runtime_api.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gb_opts {
    gj_workload w;
    int impl;            /* -1 auto */
    int check, repeat, json, no_log, isfloat, groups_set, sparse;
    int krange_auto;     /* --key-range auto (the default): the input's span */
    uint64_t seed, key_offset, krange;
    const char *profile, *db, *file, *expect;
    double rtol;         /* --expect: relative tolerance of float aggregates */
    /* bench */
    uint64_t g_lo, g_hi, g_mul;
    int impls[GJ_IMPL_COUNT], n_impls;
    double bg;           /* GB/s for the floor; 0: profile's bw_seq */
} gb_opts;

static void help_run(void)
{
    printf("usage: gjadvise run groupby [--rows N] [--groups G] [--aggs LIST] [--impl auto|NAME]\n"
           "                            [--key-bytes 4|8] [--payload-bytes 4|8] [--float] [--zipf Z]\n"
           "                            [--key-offset X] [--sparse-keys] [--sorted-keys] [--sorted-output]\n"
           "                            [--key-range auto|unknown|N]\n"
           "                            [--check] [--repeat N]\n"
           "                            [--seed S] [--profile NAME] [--db PATH] [--no-log] [--json]\n"
           "                            [--file F [--expect FILE [--rtol X]]]\n"
           "\n"
           "Generates R(k, r1..rp) on the GPU (keys uniform over 0..g-1, or Zipf with --zipf; one\n"
           "payload column per aggregate), or reads it from a column file (--file), runs the\n"
           "implementation (auto: the advisor's choice), reports the median of --repeat runs (CUDA\n"
           "events, after one warm-up, inputs on the GPU) by phase beside the model's prediction,\n"
           "and logs the run in the store.\n"
           "  --impl     auto, HGB, SGB-UR, SGB-TR, SGB-DE-TR, PGB-UR, PGB-TR, HASH-GLOBAL (default auto)\n"
           "  --aggs     sum,min,max,count,avg,count-distinct,median (default max,max)\n"
           "  --check    compare with the CPU reference (exit 7 on a difference)\n"
           "  --file     the input, a column file (operators/COLUMNS.md: GJCOLS01 or CSV): column 0\n"
           "             the key, aggregate i reads column i+1 (count reads none); rows, widths and\n"
           "             types come from the file (--payload-bytes, --key-bytes: CSV widths), and the\n"
           "             generator's flags (--rows, --float, --key-offset, --sparse-keys, --seed) are ignored.\n"
           "             --groups is then the optimizer's estimate the advisor plans with (default:\n"
           "             the file's distinct keys, counted on the CPU)\n"
           "  --expect   compare the result with an expected one, a column file of the key and one\n"
           "             column per aggregate (e.g. another engine's answer), matched by key: integer\n"
           "             columns exactly, float ones within --rtol (default 1e-9) relative, as the\n"
           "             order of float additions differs. Exit 7 on a difference, naming the group\n"
           "  --zipf     keys Zipf(Z) over the g groups (0, the default: uniform; at most 10), told\n"
           "             the advisor and the operator as the workload's skew statistic: from 1,\n"
           "             PGB's general tile folds a skewed warp's rows of one group into one atomic\n"
           "             (operators/GROUPBY.md). With --file, the statistic alone\n"
           "  --key-offset  added to every key (8-byte keys with high bits set)\n"
           "  --sparse-keys then every key through a bijective mixer (murmur3's finaliser): as many\n"
           "             groups, spread over the key's whole width instead of 0..g-1\n"
           "  --sorted-keys  the rows come ordered by key (generated: sorted after the flags above; a\n"
           "             file: the advisor and the operator are told), as a table stored by its key or\n"
           "             the output of a sort or a merge join: SGB-* then check the order in one pass\n"
           "             and skip their sorts (they sort when it is wrong)\n"
           "  --key-range  how many values the keys span (max - min + 1), an optimizer's statistic:\n"
           "             PGB-* may then partition on the keys' own bits and give every key its own\n"
           "             slot, full tables without collisions (operators/GROUPBY.md). auto (default):\n"
           "             the generator's g (unknown with --sparse-keys), a file's max - min + 1;\n"
           "             unknown: hash the keys as without a statistic; N: as given (keys outside it\n"
           "             are still grouped right, only slower)\n"
           "  --repeat   timed runs, 1..1000 (default 7)\n"
           "\n"
           "examples:\n"
           "  gjadvise run groupby --rows 2^28 --groups 2^12 --aggs max,max\n"
           "  gjadvise run groupby --rows 2^24 --groups 2^20 --impl PGB-TR --check\n"
           "  gjadvise run groupby --rows 2^26 --groups 2^10 --aggs sum,median --key-bytes 8 --json\n"
           "  gjadvise run groupby --file q18gb.in.gjc --aggs sum --expect q18gb.expect.gjc\n"
           "                       (bench/tpch: a TPC-H group-by checked against DuckDB)\n"
           "\n"
           "exit codes: 0 ok, 1 failure, 2 bad flag or value, 3 no GPU, 5 bad input file,\n"
           "            6 infeasible, 7 check failed\n");
}

static void help_bench(void)
{
    printf("usage: gjadvise bench groupby [--sweep groups=LO:HI[:MUL]] [--impls LIST|all] [run flags]\n"
           "                              [--bg GBPS]\n"
           "\n"
           "CSV, one row per (implementation, g): median ms by phase, predicted ms, throughput,\n"
           "bytes that must move (keys and payloads read once) and the ratio to that floor at\n"
           "B_G = --bg GB/s (default: the profile's bw_seq), and the keys' span told to the\n"
           "operators (--key-range; 0: unknown).\n"
           "\n"
           "examples:\n"
           "  gjadvise bench groupby --sweep groups=2^1:2^26\n"
           "  gjadvise bench groupby --sweep groups=2^4:2^14:4 --impls HGB,PGB-TR --key-bytes 8\n"
           "  gjadvise bench groupby --sweep groups=2^8:2^14:2 --impls HGB --sparse-keys\n"
           "                         (keys that are not a range: what hashing costs)\n");
}

static int parse_pow(const char *s, uint64_t *out) { return gj_cli_parse_size(s, 1ull << 40, out); }

static int parse_common(const char *cmd, int argc, char **argv, gb_opts *o, int bench)
{
    enum { O_ROWS = 1, O_GROUPS, O_AGGS, O_IMPL, O_KB, O_PB, O_FLOAT, O_ZIPF, O_KOFF, O_SPARSE, O_SORTED, O_SKEYS, O_CHECK,
           O_REPEAT, O_SEED, O_PROFILE, O_DB, O_NOLOG, O_JSON, O_SWEEP, O_IMPLS, O_BG, O_FILE, O_EXPECT,
           O_RTOL, O_KRANGE, O_HELP };
    static const struct option lo[] = {
        {"rows", 1, 0, O_ROWS}, {"groups", 1, 0, O_GROUPS}, {"aggs", 1, 0, O_AGGS}, {"impl", 1, 0, O_IMPL},
        {"key-bytes", 1, 0, O_KB}, {"payload-bytes", 1, 0, O_PB}, {"float", 0, 0, O_FLOAT},
        {"zipf", 1, 0, O_ZIPF}, {"key-offset", 1, 0, O_KOFF}, {"sparse-keys", 0, 0, O_SPARSE}, {"sorted-output", 0, 0, O_SORTED},
        {"sorted-keys", 0, 0, O_SKEYS},
        {"check", 0, 0, O_CHECK}, {"repeat", 1, 0, O_REPEAT}, {"seed", 1, 0, O_SEED},
        {"profile", 1, 0, O_PROFILE}, {"db", 1, 0, O_DB}, {"no-log", 0, 0, O_NOLOG}, {"json", 0, 0, O_JSON},
        {"sweep", 1, 0, O_SWEEP}, {"impls", 1, 0, O_IMPLS}, {"bg", 1, 0, O_BG}, {"file", 1, 0, O_FILE},
        {"expect", 1, 0, O_EXPECT}, {"rtol", 1, 0, O_RTOL}, {"key-range", 1, 0, O_KRANGE},
        {"help", 0, 0, O_HELP}, {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    gj_workload_default(&o->w, GJ_OP_GROUPBY);
    o->impl = -1;
    o->repeat = 7;
    o->seed = 42;
    o->g_lo = 2;
    o->g_hi = 1ull << 26;
    o->g_mul = 4;
    o->rtol = 1e-9;
    o->krange_auto = 1;
    for (int i = GJ_IMPL_HGB; i <= GJ_IMPL_HASH_GLOBAL; i++) o->impls[o->n_impls++] = i;
    opterr = 0;
    optind = 1;
    int c;
    long l;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case O_ROWS: if (gj_cli_parse_size(v, 0x7fffffffull, &o->w.rows) || !o->w.rows) return gj_cli_bad(cmd, "--rows", v, "allowed 1 to 2^31-1"); break;
        case O_GROUPS: if (gj_cli_parse_size(v, 0x7fffffffull, &o->w.groups) || !o->w.groups) return gj_cli_bad(cmd, "--groups", v, "allowed 1 to 2^31-1"); o->groups_set = 1; break;
        case O_AGGS: if (gj_cli_parse_aggs(cmd, v, &o->w)) return GJ_EXIT_USAGE; break;
        case O_IMPL: {
            gj_impl im;
            if (!strcmp(v, "auto")) o->impl = -1;
            else if (gj_impl_parse(v, &im) || gj_impl_op(im) != GJ_OP_GROUPBY)
                return gj_cli_bad(cmd, "--impl", v, "allowed auto, HGB, SGB-UR, SGB-TR, SGB-DE-TR, PGB-UR, PGB-TR, HASH-GLOBAL");
            else o->impl = im;
            break;
        }
        case O_KB: if (gj_cli_parse_width(cmd, "--key-bytes", v, &o->w.key_bytes)) return GJ_EXIT_USAGE; break;
        case O_PB: if (gj_cli_parse_width(cmd, "--payload-bytes", v, &o->w.payload_bytes)) return GJ_EXIT_USAGE; break;
        case O_FLOAT: o->isfloat = 1; break;
        case O_ZIPF: if (gj_cli_parse_double(v, &o->w.zipf) || o->w.zipf < 0 || o->w.zipf > 10) return gj_cli_bad(cmd, "--zipf", v, "allowed 0 to 10"); break;
        case O_KOFF: if (gj_cli_parse_size(v, UINT64_MAX, &o->key_offset)) return gj_cli_bad(cmd, "--key-offset", v, "allowed an unsigned integer"); break;
        case O_SPARSE: o->sparse = 1; break;
        case O_SORTED: o->w.sorted_output = 1; break;
        case O_SKEYS: o->w.sorted_keys = 1; break;
        case O_KRANGE:
            o->krange_auto = !strcmp(v, "auto");
            o->krange = 0;
            if (!o->krange_auto && strcmp(v, "unknown") &&
                (gj_cli_parse_size(v, 1ull << 62, &o->krange) || !o->krange))
                return gj_cli_bad(cmd, "--key-range", v, "allowed auto, unknown or 1 to 2^62 (max - min + 1 of the keys)");
            break;
        case O_CHECK: o->check = 1; break;
        case O_REPEAT: if (gj_cli_parse_int(v, 1, 1000, &l)) return gj_cli_bad(cmd, "--repeat", v, "allowed 1 to 1000"); o->repeat = (int)l; break;
        case O_SEED: if (gj_cli_parse_size(v, UINT64_MAX, &o->seed)) return gj_cli_bad(cmd, "--seed", v, "allowed an unsigned integer"); break;
        case O_PROFILE: o->profile = v; break;
        case O_DB: o->db = v; break;
        case O_NOLOG: o->no_log = 1; break;
        case O_JSON: o->json = 1; break;
        case O_SWEEP: {
            char a[64] = "", b[64] = "", m[64] = "";
            const char *p = !strncmp(v, "groups=", 7) ? v + 7 : NULL;
            if (!bench || !p || sscanf(p, "%63[^:]:%63[^:]:%63s", a, b, m) < 2 || parse_pow(a, &o->g_lo) ||
                parse_pow(b, &o->g_hi) || (m[0] && parse_pow(m, &o->g_mul)) || o->g_lo < 1 || o->g_hi < o->g_lo ||
                o->g_mul < 2)
                return gj_cli_bad(cmd, "--sweep", v, "allowed groups=LO:HI[:MUL], 1 <= LO <= HI, MUL >= 2 (bench only)");
            if (!m[0]) o->g_mul = 4;
            break;
        }
        case O_IMPLS: if (gj_cli_parse_impls(cmd, v, GJ_OP_GROUPBY, o->impls, &o->n_impls)) return GJ_EXIT_USAGE; break;
        case O_BG: if (gj_cli_parse_double(v, &o->bg) || o->bg <= 0) return gj_cli_bad(cmd, "--bg", v, "allowed GB/s > 0"); break;
        case O_FILE:
        case O_EXPECT:
            if (bench) return gj_cli_bad(cmd, c == O_FILE ? "--file" : "--expect", v, "allowed only with run groupby");
            if (!*v) return gj_cli_bad(cmd, c == O_FILE ? "--file" : "--expect", v, "allowed a file name");
            if (c == O_FILE) o->file = v; else o->expect = v;
            break;
        case O_RTOL:
            if (gj_cli_parse_double(v, &o->rtol) || o->rtol < 0 || o->rtol >= 1)
                return gj_cli_bad(cmd, "--rtol", v, "allowed 0 <= X < 1");
            break;
        case O_HELP:
        case 'h': if (bench) help_bench(); else help_run(); return -1;
        default:
            fprintf(stderr, "gjadvise %s: %s: unknown flag; see gjadvise %s groupby --help\n", cmd, argv[optind - 1], cmd);
            return GJ_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gjadvise %s: %s: unexpected argument\n", cmd, argv[optind]);
        return GJ_EXIT_USAGE;
    }
    if (o->expect && !o->file) {
        fprintf(stderr, "gjadvise %s: --expect needs --file (a generated input has no expected result)\n", cmd);
        return GJ_EXIT_USAGE;
    }
    if (o->w.groups > o->w.rows && !o->file) o->w.groups = o->w.rows;
    o->w.payload_bytes = o->w.payload_bytes ? o->w.payload_bytes : 4;
    return 0;
}

/* The workload's key_range for a generated input of `groups` keys:
 * --key-range's, or with auto the generator's span (0..g-1, shifted by
 * --key-offset; unknown when --sparse-keys mixes them) */
static uint64_t gen_key_range(const gb_opts *o, uint64_t groups)
{
    return !o->krange_auto ? o->krange : o->sparse ? 0 : groups;
}

/* Device input of one workload. */
typedef struct gb_input {
    gj_dtable t;
} gb_input;

static void input_free(gb_input *in) { gj_dtable_free(&in->t); }

/* Paper 000 Sec. 5.2.1's input (gj_groupby_generate: the one validate and
 * bench use too), keys shifted by --key-offset and mixed by --sparse-keys. */
static int input_make(const gb_opts *o, const gj_workload *w, gb_input *in, gj_ctx *ctx)
{
    /* keys shifted or mixed: generated unordered, sorted once after */
    const int shift = o->key_offset || o->sparse;
    gj_workload g = *w;
    if (shift) g.sorted_keys = 0;
    int rc = gj_groupby_generate(&g, o->seed, o->isfloat, &in->t, ctx);
    if (rc == GJ_OK && shift &&
        (rc = gj_gen_offset_keys(in->t.key.data, w->key_bytes, w->rows, o->key_offset, o->sparse, NULL, ctx)) == GJ_OK &&
        cudaDeviceSynchronize() != cudaSuccess)
        rc = gj_seterr(ctx, GJ_ERR_CUDA, "shifting the keys failed");
    if (rc == GJ_OK && shift && w->sorted_keys) rc = gj_gen_sort_keys(in->t.key.data, w->key_bytes, w->rows, NULL, ctx);
    if (rc) input_free(in);
    return rc;
}

/* Distinct values of a host key column (open addressing, grown at half
 * load; 0 tracked apart since it marks an empty slot). 0 when out of memory. */
static uint64_t count_distinct(const gj_column *k, uint64_t n)
{
    uint64_t cap = 1024, used = 0, *slot = calloc(cap, sizeof *slot);
    int zero = 0;
    for (uint64_t i = 0; slot && i < n; i++) {
        uint64_t v = k->width == 4 ? ((const uint32_t *)k->data)[i] : ((const uint64_t *)k->data)[i];
        if (!v) { zero = 1; continue; }
        if (2 * (used + 1) > cap) { /* grow: rehash into twice the slots */
            uint64_t nc = 2 * cap, *ns = calloc(nc, sizeof *ns);
            if (ns)
                for (uint64_t j = 0; j < cap; j++)
                    if (slot[j])
                        for (uint64_t h = (slot[j] * 0x9E3779B97F4A7C15ull) & (nc - 1);; h = (h + 1) & (nc - 1))
                            if (!ns[h]) { ns[h] = slot[j]; break; }
            free(slot);
            slot = ns;
            cap = nc;
            if (!slot) break;
        }
        for (uint64_t h = (v * 0x9E3779B97F4A7C15ull) & (cap - 1);; h = (h + 1) & (cap - 1)) {
            if (slot[h] == v) break;
            if (!slot[h]) { slot[h] = v; used++; break; }
        }
    }
    if (!slot) return 0;
    free(slot);
    return used + zero;
}

/* --file: read the table into host memory (*hp, freed by the caller; the
 * GPU is not touched), fit the workload to it (rows, widths, groups counted
 * unless --groups) and check that every aggregate has its column. Returns an
 * exit code (0 ok), after printing why. */
static int file_input(const char *cmd, gb_opts *o, gj_dtable *hp, gj_ctx *ctx)
{
    gj_dtable h = {0};
    int ex = GJ_EXIT_OK, rc;
    if ((rc = gj_colfile_read(o->file, o->w.key_bytes, o->w.payload_bytes, &h, ctx))) {
        gj_cli_fail(cmd, rc, ctx, "--file");
        ex = rc == GJ_ERR_IO || rc == GJ_ERR_PARSE ? GJ_EXIT_INPUT : gj_cli_exit_for(rc);
        goto done;
    }
    if (!h.rows || h.rows > 0x7fffffffull) {
        fprintf(stderr, "gjadvise %s: --file %s: %llu rows: allowed 1 to 2^31-1\n", cmd, o->file,
                (unsigned long long)h.rows);
        ex = GJ_EXIT_INPUT;
        goto done;
    }
    for (int i = 0; i < o->w.n_aggs; i++)
        if (o->w.aggs[i] != GJ_AGG_COUNT && i >= h.n_payloads) {
            fprintf(stderr, "gjadvise %s: --aggs: aggregate %d (%s) reads payload column %d, but %s has %d "
                    "payload column%s; allowed: one payload column per aggregate, in order (count reads none)\n",
                    cmd, i + 1, gj_agg_name(o->w.aggs[i]), i + 1, o->file, h.n_payloads, h.n_payloads == 1 ? "" : "s");
            ex = GJ_EXIT_USAGE;
            goto done;
        }
    o->w.rows = h.rows;
    o->w.key_bytes = h.key.width;
    if (h.n_payloads) o->w.payload_bytes = h.payload[0].width;
    if (!o->groups_set) {
        uint64_t g = count_distinct(&h.key, h.rows);
        o->w.groups = g ? g : h.rows;
    }
    o->w.key_range = o->krange;
    if (o->krange_auto) { /* the file's span, as a column's statistics would give it */
        uint64_t lo = UINT64_MAX, hi = 0;
        for (uint64_t i = 0; i < h.rows; i++) {
            const uint64_t k = h.key.width == 4 ? ((const uint32_t *)h.key.data)[i] : ((const uint64_t *)h.key.data)[i];
            lo = k < lo ? k : lo;
            hi = k > hi ? k : hi;
        }
        o->w.key_range = hi - lo < (1ull << 62) ? hi - lo + 1 : 0;
    }
    if (o->w.groups > o->w.rows) o->w.groups = o->w.rows;
    *hp = h;
    memset(&h, 0, sizeof h);
done:
    gj_htable_free(&h);
    return ex;
}

typedef struct gb_meas {
    double ms, phase[2];
    uint64_t groups, peak;
    int checked;  /* -1 not, 0 wrong, 1 ok */
    int expected; /* --expect: the same     */
} gb_meas;

typedef struct { uint64_t key, idx; } kv;
static int cmp_kv(const void *a, const void *b)
{
    uint64_t x = ((const kv *)a)->key, y = ((const kv *)b)->key;
    return x < y ? -1 : x > y;
}

static uint64_t get_u(const gj_column *c, uint64_t i)
{
    return c->width == 4 ? ((const uint32_t *)c->data)[i] : ((const uint64_t *)c->data)[i];
}
/* one aggregate value: as a double (*isf = 1) or a signed integer */
static void get_v(const gj_column *c, uint64_t i, int *isf, double *d, int64_t *l)
{
    *isf = c->type == GJ_DT_FLOAT;
    if (c->width == 4) {
        if (*isf) { float f; memcpy(&f, (const char *)c->data + 4 * i, 4); *d = f; }
        else *l = ((const int32_t *)c->data)[i];
    } else {
        if (*isf) memcpy(d, (const char *)c->data + 8 * i, 8);
        else *l = ((const int64_t *)c->data)[i];
    }
}

/* Compare a device result with the expected table e (key, one column per
 * aggregate), matched by key: integers exactly, floats within rtol relative.
 * 1 equal, 0 different (where in ctx), -1 could not compare (ctx). */
static int expect_compare(const gj_dtable *e, const gj_workload *w, const gj_groupby_out *out, double rtol,
                          gj_ctx *ctx)
{
    int eq = -1;
    uint64_t g = out->groups;
    gj_groupby_out h = {.groups = g, .n_aggs = out->n_aggs};
    kv *oa = NULL, *ob = NULL;
    if (e->n_payloads != w->n_aggs) {
        gj_seterr(ctx, GJ_OK, "%d columns, the result has %d (the key and one per aggregate)", 1 + e->n_payloads,
                  1 + w->n_aggs);
        return 0;
    }
    if (e->rows != g) {
        gj_seterr(ctx, GJ_OK, "%llu groups, the result has %llu", (unsigned long long)e->rows, (unsigned long long)g);
        return 0;
    }
    h.key = out->key;
    h.key.data = malloc((g ? g : 1) * out->key.width);
    oa = malloc((g ? g : 1) * sizeof *oa);
    ob = malloc((g ? g : 1) * sizeof *ob);
    int okm = h.key.data && oa && ob;
    for (int i = 0; i < w->n_aggs && okm; i++) {
        h.agg[i] = out->agg[i];
        okm = (h.agg[i].data = malloc((g ? g : 1) * out->agg[i].width)) != NULL;
    }
    if (!okm) { gj_seterr(ctx, GJ_ERR_NOMEM, "out of host memory for %llu groups", (unsigned long long)g); goto done; }
    if (cudaMemcpy(h.key.data, out->key.data, g * out->key.width, cudaMemcpyDeviceToHost) != cudaSuccess) goto cuda;
    for (int i = 0; i < w->n_aggs; i++)
        if (cudaMemcpy(h.agg[i].data, out->agg[i].data, g * out->agg[i].width, cudaMemcpyDeviceToHost) != cudaSuccess)
            goto cuda;
    for (uint64_t r = 0; r < g; r++) {
        oa[r] = (kv){get_u(&h.key, r), r};
        ob[r] = (kv){get_u(&e->key, r), r};
    }
    qsort(oa, g, sizeof *oa, cmp_kv);
    qsort(ob, g, sizeof *ob, cmp_kv);
    eq = 0;
    for (uint64_t r = 0; r < g; r++) {
        if (oa[r].key != ob[r].key) {
            gj_seterr(ctx, GJ_OK, "keys sorted, position %llu: the result has key %llu, expected %llu",
                      (unsigned long long)r, (unsigned long long)oa[r].key, (unsigned long long)ob[r].key);
            goto done;
        }
        for (int i = 0; i < w->n_aggs; i++) {
            int fa, fb;
            double da = 0, db = 0;
            int64_t la = 0, lb = 0;
            get_v(&h.agg[i], oa[r].idx, &fa, &da, &la);
            get_v(&e->payload[i], ob[r].idx, &fb, &db, &lb);
            if (fa || fb) {
                if (!fa) da = (double)la;
                if (!fb) db = (double)lb;
                double m = fmax(fabs(da), fabs(db));
                if (!(da == db || fabs(da - db) <= rtol * m || (isnan(da) && isnan(db)))) {
                    gj_seterr(ctx, GJ_OK, "group key %llu, aggregate %d (%s): %.17g, expected %.17g (--rtol %g)",
                              (unsigned long long)oa[r].key, i + 1, gj_agg_name(w->aggs[i]), da, db, rtol);
                    goto done;
                }
            } else if (la != lb) {
                gj_seterr(ctx, GJ_OK, "group key %llu, aggregate %d (%s): %lld, expected %lld",
                          (unsigned long long)oa[r].key, i + 1, gj_agg_name(w->aggs[i]), (long long)la, (long long)lb);
                goto done;
            }
        }
    }
    eq = 1;
    goto done;
cuda:
    gj_seterr(ctx, GJ_ERR_CUDA, "copying the result to the host failed");
    cudaGetLastError();
done:
    free(h.key.data);
    for (int i = 0; i < GJ_MAX_AGGS; i++) free(h.agg[i].data);
    free(oa);
    free(ob);
    return eq;
}

/* Compare a device result with the CPU reference. 1 equal, 0 different. */
static int check_result(const gb_input *in, const gj_workload *w, const gj_groupby_out *out, gj_ctx *ctx)
{
    int ok = 0;
    uint64_t n = in->t.rows, g = out->groups;
    gj_htable ht = {.rows = n, .key_width = in->t.key.width, .n_payloads = in->t.n_payloads};
    gj_href ref = {0};
    void *hk = malloc((n ? n : 1) * 8), *hp[GJ_MAX_PAYLOADS] = {0}, *ok_ = malloc((g ? g : 1) * 8), *oa[GJ_MAX_AGGS] = {0};
    kv *ord = malloc((g ? g : 1) * sizeof *ord);
    if (!hk || !ok_ || !ord) goto done;
    cudaMemcpy(hk, in->t.key.data, n * in->t.key.width, cudaMemcpyDeviceToHost);
    ht.key = hk;
    for (int i = 0; i < in->t.n_payloads; i++) {
        hp[i] = malloc((n ? n : 1) * 8);
        if (!hp[i]) goto done;
        cudaMemcpy(hp[i], in->t.payload[i].data, n * in->t.payload[i].width, cudaMemcpyDeviceToHost);
        ht.payload[i] = hp[i];
        ht.payload_width[i] = in->t.payload[i].width;
        ht.payload_type[i] = in->t.payload[i].type;
    }
    if (gj_groupby_ref(&ht, w->n_aggs, w->aggs, &ref, ctx)) goto done;
    if (ref.groups != g) goto done;
    cudaMemcpy(ok_, out->key.data, g * out->key.width, cudaMemcpyDeviceToHost);
    for (uint64_t r = 0; r < g; r++) {
        ord[r].key = out->key.width == 4 ? ((uint32_t *)ok_)[r] : ((uint64_t *)ok_)[r];
        ord[r].idx = r;
    }
    qsort(ord, g, sizeof *ord, cmp_kv);
    for (int i = 0; i < w->n_aggs; i++) {
        oa[i] = malloc((g ? g : 1) * 8);
        if (!oa[i]) goto done;
        cudaMemcpy(oa[i], out->agg[i].data, g * out->agg[i].width, cudaMemcpyDeviceToHost);
    }
    for (uint64_t r = 0; r < g; r++) {
        if (ord[r].key != ref.key[r]) goto done;
        for (int i = 0; i < w->n_aggs; i++) {
            int wd = ref.width[i];
            const char *a = (const char *)oa[i] + ord[r].idx * wd, *b = (const char *)ref.agg[i] + r * wd;
            if (ref.type[i] == GJ_DT_FLOAT && wd == 8 && w->aggs[i] != GJ_AGG_MEDIAN) {
                double x, y;
                memcpy(&x, a, 8);
                memcpy(&y, b, 8);
                /* float sums and averages: both sum in double, order differs */
                if (fabs(x - y) > 1e-9 * (fabs(y) + (double)n * 1e3)) goto done;
            } else if (memcmp(a, b, wd)) goto done;
        }
    }
    ok = 1;
done:
    gj_groupby_ref_free(&ref);
    free(hk);
    free(ok_);
    free(ord);
    for (int i = 0; i < GJ_MAX_PAYLOADS; i++) free(hp[i]);
    for (int i = 0; i < GJ_MAX_AGGS; i++) free(oa[i]);
    return ok;
}

/* Warm-up, then `repeat` timed runs; medians. */
static int measure(gj_impl impl, const gb_input *in, const gj_workload *w, int repeat, int check,
                   const gj_dtable *expect, const char *expect_path, double rtol, gb_meas *m, gj_ctx *ctx)
{
    int rc;
    gj_groupby_out out;
    gj_timing t;
    memset(m, 0, sizeof *m);
    m->checked = m->expected = -1;
    /* the warm-up, whose output is the one checked */
    if ((rc = gj_groupby_execute(impl, &in->t, w, NULL, &out, &t, ctx))) return rc;
    if (check) m->checked = check_result(in, w, &out, ctx);
    if (expect) {
        m->expected = expect_compare(expect, w, &out, rtol, ctx);
        if (m->expected <= 0)
            fprintf(stderr, "expect: %s: %s%s\n", expect_path, m->expected ? "" : "could not compare: ",
                    gj_ctx_errmsg(ctx));
    }
    m->groups = out.groups;
    gj_groupby_out_free(&out);
    if ((rc = gj_time_runs(impl, w, &in->t, NULL, repeat, &t, ctx))) return rc;
    m->ms = t.total_ms;
    m->phase[0] = t.ms[0];
    m->phase[1] = t.ms[1];
    m->peak = t.peak_bytes;
    return GJ_OK;
}

int gj_cli_run_groupby(int argc, char **argv)
{
    const char *cmd = "run groupby";
    gb_opts o;
    int ex = parse_common(cmd, argc, argv, &o, 0);
    if (ex) return ex < 0 ? GJ_EXIT_OK : ex;
    gj_profile *prof = NULL;
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    gb_input in = {0};
    gj_dtable expect = {0}, hf = {0};
    char note[256] = "";
    gj_plan plan;
    gj_estimate est;
    gb_meas m;
    gj_impl impl;
    int rc;
    if (gj_ctx_new(&ctx)) return GJ_EXIT_FAIL;
    /* input files first: a bad one is reported with or without a GPU */
    if (o.file && (ex = file_input(cmd, &o, &hf, ctx))) goto done;
    if (!o.file) o.w.key_range = gen_key_range(&o, o.w.groups);
    gj_cli_note_span(cmd, &o.w);
    if (o.expect && (rc = gj_colfile_read(o.expect, o.w.key_bytes, 8, &expect, ctx))) {
        ex = rc == GJ_ERR_IO || rc == GJ_ERR_PARSE ? GJ_EXIT_INPUT : gj_cli_exit_for(rc);
        gj_cli_fail(cmd, rc, ctx, "--expect");
        goto done;
    }
    if ((ex = gj_cli_exec_setup(cmd, o.db, o.profile, o.no_log, &prof, &db, note, sizeof note))) goto done;
    if (o.file && (rc = gj_dtable_upload(&hf, &in.t, ctx))) { ex = gj_cli_fail(cmd, rc, ctx, "upload --file"); goto done; }
    gj_htable_free(&hf);
    if ((rc = gj_workload_check(&o.w, ctx))) { ex = gj_cli_fail(cmd, rc, ctx, "workload"); goto done; }
    if (o.impl < 0) {
        rc = gj_advise(&o.w, prof, &plan, ctx);
        if (rc) { ex = gj_cli_fail(cmd, rc, ctx, "advise"); goto done; }
        impl = plan.best;
    } else impl = (gj_impl)o.impl;
    memset(&est, 0, sizeof est);
    gj_profile_estimate(impl, &o.w, prof, &est, NULL);
    if (!o.file && (rc = input_make(&o, &o.w, &in, ctx))) { ex = gj_cli_fail(cmd, rc, ctx, "generate input"); goto done; }
    if ((rc = measure(impl, &in, &o.w, o.repeat, o.check, o.expect ? &expect : NULL, o.expect, o.rtol, &m, ctx))) {
        ex = gj_cli_fail(cmd, rc, ctx, gj_impl_name(impl));
        goto done;
    }
    gj_cli_log_exec(db, prof, &o.w, impl, &est, m.ms, m.phase, 2, m.checked, o.repeat, "run");
    if (o.json) {
        printf("{\"impl\":\"%s\",\"auto\":%s,\"rows\":%llu,\"groups_hint\":%llu,\"groups\":%llu,\"key_bytes\":%d,"
               "\"key_range\":%llu,\"sorted_keys\":%s,\"measured_ms\":%.4f,\"measured_group_ms\":%.4f,\"measured_aggregate_ms\":%.4f,"
               "\"predicted_ms\":%.4f,\"predicted_group_ms\":%.4f,\"predicted_aggregate_ms\":%.4f,"
               "\"repeat\":%d,\"peak_bytes\":%llu,\"checked\":%s,\"expected\":%s,\"profile\":\"%s\"}\n",
               gj_impl_name(impl), o.impl < 0 ? "true" : "false", (unsigned long long)o.w.rows,
               (unsigned long long)o.w.groups, (unsigned long long)m.groups, o.w.key_bytes,
               (unsigned long long)o.w.key_range, o.w.sorted_keys ? "true" : "false", m.ms, m.phase[0],
               m.phase[1], est.ms, est.n_phases > 0 ? est.phase[0].ms : 0, est.n_phases > 1 ? est.phase[1].ms : 0,
               o.repeat, (unsigned long long)m.peak, m.checked < 0 ? "null" : m.checked ? "true" : "false",
               m.expected < 0 ? "null" : m.expected ? "true" : "false", gj_profile_name(prof));
    } else {
        char span[48] = "";
        if (o.w.key_range) snprintf(span, sizeof span, " spanning %llu values", (unsigned long long)o.w.key_range);
        printf("group-by %llu rows%s, %llu groups found (asked %llu), %d-byte keys%s, %s%s, profile %s\n",
               (unsigned long long)o.w.rows, o.w.sorted_keys ? " in key order" : "", (unsigned long long)m.groups,
               (unsigned long long)o.w.groups, o.w.key_bytes, span, gj_impl_name(impl),
               o.impl < 0 ? " (advisor's choice)" : "", gj_profile_name(prof));
        printf("%-10s %12s %12s\n", "phase", "measured_ms", "predicted_ms");
        printf("%-10s %12.3f %12.3f\n", "group", m.phase[0], est.n_phases > 0 ? est.phase[0].ms : NAN);
        printf("%-10s %12.3f %12.3f\n", "aggregate", m.phase[1], est.n_phases > 1 ? est.phase[1].ms : NAN);
        printf("%-10s %12.3f %12.3f\n", "total", m.ms, est.ms);
        printf("median of %d runs (CUDA events, inputs on the GPU); %.2f G rows/s; peak %.1f MiB; check: %s\n",
               o.repeat, o.w.rows / m.ms / 1e6, m.peak / 1048576.0,
               m.checked < 0 ? "not run (--check)" : m.checked ? "ok" : "WRONG");
        if (o.expect)
            printf("expect %s: %s\n", o.expect,
                   m.expected < 0 ? "could not compare" : m.expected ? "ok (every group)" : "WRONG");
    }
    ex = m.checked == 0 || m.expected == 0 ? GJ_EXIT_CHECK : o.expect && m.expected < 0 ? GJ_EXIT_FAIL : GJ_EXIT_OK;
done:
    gj_htable_free(&hf);
    gj_htable_free(&expect);
    input_free(&in);
    gj_profile_free(prof);
    gj_db_close(db);
    gj_ctx_free(ctx);
    return ex;
}

int gj_cli_bench_groupby(int argc, char **argv)
{
    const char *cmd = "bench groupby";
    gb_opts o;
    int ex = parse_common(cmd, argc, argv, &o, 1);
    if (ex) return ex < 0 ? GJ_EXIT_OK : ex;
    gj_profile *prof = NULL;
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    char note[256] = "";
    if (gj_ctx_new(&ctx)) return GJ_EXIT_FAIL;
    if ((ex = gj_cli_exec_setup(cmd, o.db, o.profile, o.no_log, &prof, &db, note, sizeof note))) goto done;
    double bg = o.bg > 0 ? o.bg : gj_profile_hw(prof)->bw_seq;
    printf("impl,key_bytes,rows,groups_param,groups,median_ms,group_ms,aggregate_ms,predicted_ms,"
           "grows_per_s,bytes,floor_ms,ratio,check,key_range\n");
    for (uint64_t g = o.g_lo; g <= o.g_hi && g <= o.w.rows; g *= o.g_mul) {
        gb_input in;
        gj_workload w = o.w;
        w.groups = g;
        w.key_range = gen_key_range(&o, g);
        int rc = input_make(&o, &w, &in, ctx);
        if (rc) { ex = gj_cli_fail(cmd, rc, ctx, "generate input"); goto done; }
        double bytes = (double)w.rows * (w.key_bytes + w.n_aggs * w.payload_bytes);
        double floor_ms = bg > 0 ? bytes / (bg * 1e9) * 1e3 : NAN;
        for (int i = 0; i < o.n_impls; i++) {
            gj_impl impl = (gj_impl)o.impls[i];
            gb_meas m;
            gj_estimate est;
            memset(&est, 0, sizeof est);
            gj_profile_estimate(impl, &w, prof, &est, NULL);
            rc = measure(impl, &in, &w, o.repeat, o.check, NULL, NULL, 0, &m, ctx);
            if (rc) {
                printf("%s,%d,%llu,%llu,,,,,,,,,,error: %s,%llu\n", gj_impl_name(impl), w.key_bytes,
                       (unsigned long long)w.rows, (unsigned long long)g, gj_ctx_errmsg(ctx),
                       (unsigned long long)w.key_range);
                continue;
            }
            gj_cli_log_exec(db, prof, &w, impl, &est, m.ms, m.phase, 2, m.checked, o.repeat, "bench");
            printf("%s,%d,%llu,%llu,%llu,%.4f,%.4f,%.4f,%.4f,%.4g,%.0f,%.4f,%.3f,%s,%llu\n", gj_impl_name(impl),
                   w.key_bytes, (unsigned long long)w.rows, (unsigned long long)g, (unsigned long long)m.groups, m.ms,
                   m.phase[0], m.phase[1], est.ms, w.rows / m.ms * 1e3, bytes, floor_ms, m.ms / floor_ms,
                   m.checked < 0 ? "" : m.checked ? "ok" : "WRONG", (unsigned long long)w.key_range);
            fflush(stdout);
        }
        input_free(&in);
        if (g > UINT64_MAX / o.g_mul) break;
    }
done:
    gj_profile_free(prof);
    gj_db_close(db);
    gj_ctx_free(ctx);
    return ex;
}
