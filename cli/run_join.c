/* gjadvise run join / gjadvise bench join: generate R and S on the GPU as
 * paper 000 Sec. 5.1.1 and 5.1.6 do (or read them from column files), run a
 * join implementation (or the advisor's choice), time it with CUDA events
 * (median of --repeat runs after one warm-up, inputs on the GPU, output
 * materialised), print the measured phases beside the model's prediction,
 * optionally check against the CPU reference, and log each run. */
#include "cli/cli.h"
#include "common/internal.h"
#include "model/model.h"
#include "operators/colfile.h"
#include "operators/timing.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALLOWED_IMPLS "auto, PHJ-UR, PHJ-TR, SMJ-UR, SMJ-TR, NPHJ"

typedef struct jn_opts {
    gj_workload w;
    int impl; /* -1 auto */
    int check, repeat, json, no_log;
    uint64_t seed, key_offset;
    const char *profile, *db, *r_file, *s_file, *expect;
    /* bench */
    char sweep[24];
    double lo, hi, step;
    int impls[GJ_IMPL_COUNT], n_impls;
    double bg;
} jn_opts;

static void help_run(void)
{
    printf("usage: gjadvise run join [--r-rows N] [--s-rows N] [--r-payloads P] [--s-payloads P]\n"
           "                         [--key-bytes 4|8] [--payload-bytes 4|8] [--match-ratio X]\n"
           "                         [--zipf Z] [--s-run L] [--r-sorted] [--s-sorted] [--out-rows N]\n"
           "                         [--key-offset X] [--filter auto|on|off]\n"
           "                         [--r-file F --s-file F]\n"
           "                         [--impl auto|NAME] [--check] [--expect FILE] [--repeat N] [--seed S]\n"
           "                         [--profile NAME] [--db PATH] [--no-log] [--json]\n"
           "\n"
           "Generates R (keys 0..|R|-1 shuffled, a fraction 1-match-ratio replaced by non-matching\n"
           "keys) and S (foreign keys uniform over 0..|R|-1, or Zipf with --zipf) on the GPU, or reads\n"
           "them from column files (operators/COLUMNS.md: binary GJCOLS01 or CSV), runs the join\n"
           "(auto: the advisor's choice), and prints the median of --repeat runs by phase beside the\n"
           "model's prediction (CUDA events, after one warm-up, inputs on the GPU, output written).\n"
           "  --impl       " ALLOWED_IMPLS " (default auto)\n"
           "  --out-rows   many-to-many: both sides uniform over |R||S|/N keys (about N output rows)\n"
           "  --s-run      S's keys in runs of L equal keys, as a probe side clustered by its key\n"
           "               (TPC-H's lineitem by order key: 4); the advisor takes it into account.\n"
           "               Default 1, no runs\n"
           "  --r-sorted, --s-sorted\n"
           "               that side's keys in ascending order, as a table stored by its key\n"
           "               (TPC-H's orders and lineitem by order key); the advisor takes it into\n"
           "               account (SMJ-* need not sort it). SMJ-* see a side in order themselves\n"
           "               and leave it unsorted, told or not\n"
           "  --key-offset added to every key (8-byte keys with high bits set)\n"
           "  --check      compare with the CPU reference join (exit 7 on a difference); the\n"
           "               reference sorts on the CPU: seconds at 2^20, minutes and ~20 GB at 2^27\n"
           "  --expect     compare the output with an expected result, a column file (GJCOLS01 or\n"
           "               CSV) of the key, R's payload columns and S's, in that order, e.g. another\n"
           "               engine's answer; rows as a multiset (any order), values bit for bit, widths\n"
           "               as the output's. Exit 7 on a difference, naming where; 5 if unreadable\n"
           "  --repeat     timed runs, 1..1000 (default 7)\n"
           "  --filter     the semi-join filter, which first cuts S to its matching rows and R to\n"
           "               their keys (bitmaps of the keys; primary-foreign-key joins with at most\n"
           "               half of S matching): auto (default) runs it where the model predicts it\n"
           "               pays for the implementation run (recommend's filter column), on, off.\n"
           "               Its time counts in transform, and the output says whether it ran\n"
           "defaults: 2^27 x 2^27, 4-byte keys and payloads, 2+2 payload columns, match ratio 1\n"
           "\n"
           "examples:\n"
           "  gjadvise run join\n"
           "  gjadvise run join --match-ratio 0.25 --impl PHJ-UR\n"
           "  gjadvise run join --r-rows 2^20 --s-rows 2^21 --zipf 1.0 --check --json\n"
           "  gjadvise run join --r-file r.csv --s-file s.csv --impl SMJ-TR --check\n"
           "  gjadvise run join --r-file q3j2.r.gjc --s-file q3j2.s.gjc --expect q3j2.expect.gjc \\\n"
           "                    --match-ratio 0.0102 --json    (bench/tpch: TPC-H against DuckDB)\n"
           "with --r-file/--s-file the advisor still takes --match-ratio, --out-rows, --zipf, --s-run,\n"
           "--r-sorted and --s-sorted from the flags (what an optimizer would estimate); sizes and\n"
           "widths come from the files\n"
           "\n"
           "exit codes: 0 ok, 1 failure, 2 bad flag or value, 3 no GPU, 5 bad input file,\n"
           "            6 infeasible, 7 check failed\n");
}

static void help_bench(void)
{
    printf("usage: gjadvise bench join [--sweep PARAM=LO:HI:STEP] [--impls LIST|all] [run flags] [--bg GBPS]\n"
           "\n"
           "CSV, one row per (implementation, parameter value): measured median ms by phase, the\n"
           "model's prediction by phase, output rows, peak device bytes, the bytes that must move\n"
           "(inputs read once, output written once) and the ratio to that floor at B_G = --bg GB/s\n"
           "(default: the profile's bw_seq), and whether the semi-join filter ran (--filter).\n"
           "PARAM: match-ratio, zipf (LO:HI:STEP added), r-rows, s-rows (LO:HI:FACTOR\n"
           "multiplied), payloads (both sides, added).\n"
           "\n"
           "examples:\n"
           "  gjadvise bench join --sweep match-ratio=0.05:1:0.05\n"
           "  gjadvise bench join --sweep zipf=0:1.5:0.25 --impls PHJ-UR,PHJ-TR\n"
           "  gjadvise bench join --sweep r-rows=2^20:2^27:2 --repeat 9\n"
           "  gjadvise bench join --sweep payloads=0:8:1 --r-rows 2^25 --s-rows 2^25\n");
}

static int parse_impl(const char *v, int *out)
{
    gj_impl im;
    if (!strcmp(v, "auto")) { *out = -1; return 0; }
    if (gj_impl_parse(v, &im) || gj_impl_op(im) != GJ_OP_JOIN) return -1;
    *out = (int)im;
    return 0;
}

static int parse_num(const char *sweep, const char *s, double *out)
{
    uint64_t u;
    if (!strcmp(sweep, "r-rows") || !strcmp(sweep, "s-rows")) {
        if (gj_cli_parse_size(s, 0xffffffffULL, &u)) return -1;
        *out = (double)u;
        return 0;
    }
    return gj_cli_parse_double(s, out);
}

static int parse_opts(const char *cmd, int argc, char **argv, jn_opts *o, int bench)
{
    enum { O_RR = 1, O_SR, O_RP, O_SP, O_KB, O_PB, O_MR, O_ZIPF, O_SRUN, O_RSORT, O_SSORT, O_OUT, O_KOFF, O_RF, O_SF, O_IMPL,
           O_CHECK, O_REPEAT, O_SEED, O_PROFILE, O_DB, O_NOLOG, O_JSON, O_SWEEP, O_IMPLS, O_BG, O_EXPECT,
           O_FILTER, O_HELP };
    static const struct option lo[] = {
        {"r-rows", 1, 0, O_RR}, {"s-rows", 1, 0, O_SR}, {"r-payloads", 1, 0, O_RP},
        {"s-payloads", 1, 0, O_SP}, {"key-bytes", 1, 0, O_KB}, {"payload-bytes", 1, 0, O_PB},
        {"match-ratio", 1, 0, O_MR}, {"zipf", 1, 0, O_ZIPF}, {"s-run", 1, 0, O_SRUN}, {"out-rows", 1, 0, O_OUT},
        {"r-sorted", 0, 0, O_RSORT}, {"s-sorted", 0, 0, O_SSORT},
        {"key-offset", 1, 0, O_KOFF}, {"r-file", 1, 0, O_RF}, {"s-file", 1, 0, O_SF},
        {"impl", 1, 0, O_IMPL}, {"check", 0, 0, O_CHECK}, {"repeat", 1, 0, O_REPEAT},
        {"seed", 1, 0, O_SEED}, {"profile", 1, 0, O_PROFILE}, {"db", 1, 0, O_DB},
        {"no-log", 0, 0, O_NOLOG}, {"json", 0, 0, O_JSON}, {"sweep", 1, 0, O_SWEEP},
        {"impls", 1, 0, O_IMPLS}, {"bg", 1, 0, O_BG}, {"expect", 1, 0, O_EXPECT}, {"filter", 1, 0, O_FILTER},
        {"help", 0, 0, O_HELP}, {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    gj_workload_default(&o->w, GJ_OP_JOIN);
    o->impl = -1;
    o->repeat = 7;
    o->seed = 42;
    for (int i = GJ_IMPL_PHJ_UR; i <= GJ_IMPL_NPHJ; i++) o->impls[o->n_impls++] = i;
    opterr = 0;
    optind = 1;
    int c;
    long l;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case O_RR: if (gj_cli_parse_size(v, 0xffffffffULL, &o->w.r_rows) || !o->w.r_rows) return gj_cli_bad(cmd, "--r-rows", v, "allowed 1 to 2^32-1"); break;
        case O_SR: if (gj_cli_parse_size(v, 0xffffffffULL, &o->w.s_rows) || !o->w.s_rows) return gj_cli_bad(cmd, "--s-rows", v, "allowed 1 to 2^32-1"); break;
        case O_RP: if (gj_cli_parse_int(v, 0, GJ_MAX_PAYLOADS, &l)) return gj_cli_bad(cmd, "--r-payloads", v, "allowed 0 to 8"); o->w.r_payloads = (int)l; break;
        case O_SP: if (gj_cli_parse_int(v, 0, GJ_MAX_PAYLOADS, &l)) return gj_cli_bad(cmd, "--s-payloads", v, "allowed 0 to 8"); o->w.s_payloads = (int)l; break;
        case O_KB: if (gj_cli_parse_width(cmd, "--key-bytes", v, &o->w.key_bytes)) return GJ_EXIT_USAGE; break;
        case O_PB: if (gj_cli_parse_width(cmd, "--payload-bytes", v, &o->w.payload_bytes)) return GJ_EXIT_USAGE; break;
        case O_MR: if (gj_cli_parse_double(v, &o->w.match_ratio) || o->w.match_ratio < 0 || o->w.match_ratio > 1) return gj_cli_bad(cmd, "--match-ratio", v, "allowed 0 to 1"); break;
        case O_ZIPF: if (gj_cli_parse_double(v, &o->w.zipf) || o->w.zipf < 0 || o->w.zipf > 10) return gj_cli_bad(cmd, "--zipf", v, "allowed 0 to 10"); break;
        case O_SRUN: if (gj_cli_parse_double(v, &o->w.s_run) || o->w.s_run < 1 || o->w.s_run > (double)GJ_MAX_ROWS) return gj_cli_bad(cmd, "--s-run", v, "allowed a number from 1 (no runs) to 2^40"); break;
        case O_RSORT: o->w.r_sorted = 1; break;
        case O_SSORT: o->w.s_sorted = 1; break;
        case O_FILTER: if (gj_filter_parse(v, &o->w.filter)) return gj_cli_bad(cmd, "--filter", v, "allowed auto, on or off"); break;
        case O_OUT: if (gj_cli_parse_size(v, 1ULL << 40, &o->w.out_rows)) return gj_cli_bad(cmd, "--out-rows", v, "allowed 0 (primary-foreign-key) to 2^40"); break;
        case O_KOFF: if (gj_cli_parse_size(v, UINT64_MAX, &o->key_offset)) return gj_cli_bad(cmd, "--key-offset", v, "allowed an unsigned integer"); break;
        case O_RF: o->r_file = v; break;
        case O_SF: o->s_file = v; break;
        case O_IMPL: if (parse_impl(v, &o->impl)) return gj_cli_bad(cmd, "--impl", v, "allowed " ALLOWED_IMPLS); break;
        case O_CHECK: o->check = 1; break;
        case O_EXPECT:
            if (bench) return gj_cli_bad(cmd, "--expect", v, "allowed only with run join");
            o->expect = v;
            break;
        case O_REPEAT: if (gj_cli_parse_int(v, 1, 1000, &l)) return gj_cli_bad(cmd, "--repeat", v, "allowed 1 to 1000"); o->repeat = (int)l; break;
        case O_SEED: if (gj_cli_parse_size(v, UINT64_MAX, &o->seed)) return gj_cli_bad(cmd, "--seed", v, "allowed an unsigned integer"); break;
        case O_PROFILE: o->profile = v; break;
        case O_DB: o->db = v; break;
        case O_NOLOG: o->no_log = 1; break;
        case O_JSON: o->json = 1; break;
        case O_SWEEP: {
            char a[32] = "", b[32] = "", st[32] = "", name[24] = "";
            const char *eq = strchr(v, '=');
            int ok = bench && eq && (size_t)(eq - v) < sizeof name;
            if (ok) {
                memcpy(name, v, eq - v);
                ok = (!strcmp(name, "match-ratio") || !strcmp(name, "zipf") || !strcmp(name, "r-rows") ||
                      !strcmp(name, "s-rows") || !strcmp(name, "payloads")) &&
                     sscanf(eq + 1, "%31[^:]:%31[^:]:%31s", a, b, st) == 3 &&
                     !parse_num(name, a, &o->lo) && !parse_num(name, b, &o->hi) &&
                     !gj_cli_parse_double(st, &o->step) && o->lo <= o->hi;
                int mul = !strcmp(name, "r-rows") || !strcmp(name, "s-rows");
                ok = ok && (mul ? o->step > 1 && o->lo >= 1 : o->step > 0);
                if (ok && !strcmp(name, "match-ratio")) ok = o->lo >= 0 && o->hi <= 1;
                if (ok && !strcmp(name, "zipf")) ok = o->lo >= 0 && o->hi <= 10;
                if (ok && !strcmp(name, "payloads")) ok = o->lo >= 0 && o->hi <= GJ_MAX_PAYLOADS;
            }
            if (!ok)
                return gj_cli_bad(cmd, "--sweep", v, "allowed match-ratio|zipf|payloads=LO:HI:STEP or "
                                  "r-rows|s-rows=LO:HI:FACTOR (bench only)");
            gj_strlcpy(o->sweep, name, sizeof o->sweep);
            break;
        }
        case O_IMPLS: if (gj_cli_parse_impls(cmd, v, GJ_OP_JOIN, o->impls, &o->n_impls)) return GJ_EXIT_USAGE; break;
        case O_BG: if (gj_cli_parse_double(v, &o->bg) || o->bg <= 0) return gj_cli_bad(cmd, "--bg", v, "allowed GB/s > 0"); break;
        case O_HELP:
        case 'h': if (bench) help_bench(); else help_run(); return -1;
        default:
            fprintf(stderr, "gjadvise %s: %s: unknown flag; see gjadvise %s --help\n", cmd,
                    argv[optind - 1], cmd);
            return GJ_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gjadvise %s: %s: unexpected argument\n", cmd, argv[optind]);
        return GJ_EXIT_USAGE;
    }
    if (!o->r_file != !o->s_file) {
        fprintf(stderr, "gjadvise %s: --r-file and --s-file go together\n", cmd);
        return GJ_EXIT_USAGE;
    }
    if (o->key_offset && o->w.key_bytes == 4 && o->key_offset >= (1ULL << 32))
        return gj_cli_bad(cmd, "--key-offset", "(value)", "allowed below 2^32 with 4-byte keys");
    return 0;
}

typedef struct jn_input {
    gj_dtable r, s;
} jn_input;

static void input_free(jn_input *in)
{
    gj_dtable_free(&in->r);
    gj_dtable_free(&in->s);
}

/* from files (the workload then describes them) or generated */
static int input_make(const jn_opts *o, gj_workload *w, jn_input *in, gj_ctx *ctx, int *exit_code)
{
    int rc = GJ_OK;
    gj_dtable hr = {0}, hs = {0};
    memset(in, 0, sizeof *in);
    *exit_code = GJ_EXIT_OK;
    if (!o->r_file) {
        rc = gj_join_generate(w, o->seed, o->key_offset, &in->r, &in->s, ctx);
        goto done;
    }
    if ((rc = gj_colfile_read(o->r_file, w->key_bytes, w->payload_bytes, &hr, ctx)) ||
        (rc = gj_colfile_read(o->s_file, w->key_bytes, w->payload_bytes, &hs, ctx)))
        goto done;
    if (hr.key.width != hs.key.width) {
        rc = gj_seterr(ctx, GJ_ERR_PARSE, "key widths differ: %s %d bytes, %s %d bytes", o->r_file,
                       hr.key.width, o->s_file, hs.key.width);
        goto done;
    }
    w->r_rows = hr.rows ? hr.rows : 1;
    w->s_rows = hs.rows ? hs.rows : 1;
    w->r_payloads = hr.n_payloads;
    w->s_payloads = hs.n_payloads;
    w->key_bytes = hr.key.width;
    if (hr.n_payloads) w->payload_bytes = hr.payload[0].width;
    if ((rc = gj_dtable_upload(&hr, &in->r, ctx)) || (rc = gj_dtable_upload(&hs, &in->s, ctx))) goto done;
done:
    if (rc && (rc == GJ_ERR_IO || rc == GJ_ERR_PARSE)) *exit_code = GJ_EXIT_INPUT;
    gj_htable_free(&hr);
    gj_htable_free(&hs);
    if (rc) input_free(in);
    return rc;
}

typedef struct jn_meas {
    double ms, phase[3];
    uint64_t rows, peak;
    int filtered;                 /* the semi-join filter cut the sides ... */
    uint64_t cut_r, cut_s;        /* ... to these rows                      */
    int checked;  /* --check: -1 not run or could not run, 0 wrong, 1 ok  */
    int expected; /* --expect: the same                                  */
} jn_meas;

/* Read the --expect file (its widths for CSV: the inputs' key and first
 * payload width). GJ_OK, or GJ_ERR_IO / GJ_ERR_PARSE / ... with the reason
 * in ctx. */
static int expect_load(const char *path, const jn_input *in, gj_dtable *h, gj_ctx *ctx)
{
    int pb = in->r.n_payloads ? in->r.payload[0].width : in->s.n_payloads ? in->s.payload[0].width : 4;
    return gj_colfile_read(path, in->r.key.width, pb, h, ctx);
}

/* Compare a device join output with the expected table e (key, R payloads,
 * S payloads) as multisets of rows, bit for bit. 1 equal, 0 different
 * (where in ctx), -1 could not compare (reason in ctx). */
static int expect_compare(const gj_dtable *e, const gj_join_out *out, gj_ctx *ctx)
{
    gj_join_out ho, ev;
    int eq = -1;
    memset(&ho, 0, sizeof ho);
    memset(&ev, 0, sizeof ev);
    if (gj_join_out_download(out, &ho, ctx)) return -1;
    int rp = ho.r_payloads, sp = ho.s_payloads;
    if (e->n_payloads != rp + sp) {
        gj_seterr(ctx, GJ_OK, "%d columns, the output has %d (the key, %d of R, %d of S)", 1 + e->n_payloads,
                  1 + rp + sp, rp, sp);
        eq = 0;
        goto done;
    }
    ev.rows = e->rows;
    ev.key = e->key;
    ev.r_payloads = rp;
    ev.s_payloads = sp;
    for (int i = 0; i < rp; i++) ev.r[i] = e->payload[i];
    for (int i = 0; i < sp; i++) ev.s[i] = e->payload[rp + i];
    for (int c = 0; c <= rp + sp; c++) {
        const gj_column *a = c == 0 ? &ho.key : c <= rp ? &ho.r[c - 1] : &ho.s[c - 1 - rp];
        const gj_column *b = c == 0 ? &ev.key : c <= rp ? &ev.r[c - 1] : &ev.s[c - 1 - rp];
        if (a->width != b->width || a->type != b->type) {
            gj_seterr(ctx, GJ_OK, "column %d (%s): %d-byte %s, the output's is %d-byte %s", c,
                      c == 0 ? "key" : c <= rp ? "an R payload" : "an S payload", b->width,
                      b->type == GJ_DT_FLOAT ? "float" : "integer", a->width,
                      a->type == GJ_DT_FLOAT ? "float" : "integer");
            eq = 0;
            goto done;
        }
    }
    if (gj_join_compare(&ho, &ev, &eq, ctx)) eq = -1;
    else if (!eq && ho.rows != ev.rows)
        gj_seterr(ctx, GJ_OK, "%llu rows, the output has %llu", (unsigned long long)ev.rows,
                  (unsigned long long)ho.rows);
    else if (!eq) {
        char msg[256];
        gj_strlcpy(msg, gj_ctx_errmsg(ctx), sizeof msg);
        gj_seterr(ctx, GJ_OK, "rows sorted by (key, payloads), output vs expected: %s", msg);
    }
done:
    gj_join_out_free_host(&ho);
    return eq;
}

/* 1 equal, 0 different, -1 could not check */
static int check_result(const jn_input *in, const gj_join_out *out, gj_ctx *ctx)
{
    gj_dtable hr, hs;
    gj_join_out ref, ho;
    int eq = -1;
    memset(&ref, 0, sizeof ref);
    memset(&ho, 0, sizeof ho);
    if (gj_dtable_download(&in->r, &hr, ctx)) return -1;
    if (gj_dtable_download(&in->s, &hs, ctx)) { gj_htable_free(&hr); return -1; }
    if (!gj_join_reference(&hr, &hs, &ref, ctx) && !gj_join_out_download(out, &ho, ctx) &&
        !gj_join_compare(&ho, &ref, &eq, ctx) && !eq)
        fprintf(stderr, "check: %s\n", gj_ctx_errmsg(ctx));
    gj_join_out_free_host(&ho);
    gj_join_out_free_host(&ref);
    gj_htable_free(&hr);
    gj_htable_free(&hs);
    return eq;
}

/* w: the workload, the operators' hints (gj_join_exec_w); expect/expect_path:
 * the --expect table and its name (NULL: none). */
static int measure(gj_impl impl, const jn_input *in, const gj_workload *wl, const gj_estimate *est, int repeat,
                   int check, const gj_dtable *expect, const char *expect_path, jn_meas *m, gj_ctx *ctx)
{
    int rc;
    gj_join_out out;
    gj_timing t;
    gj_workload hint = *wl, *w = &hint;
    gj_workload_pin_filter(w, est); /* run what the model predicted */
    memset(m, 0, sizeof *m);
    m->checked = m->expected = -1;
    /* the warm-up, whose output is the one checked */
    if ((rc = gj_join_exec_w(impl, w, &in->r, &in->s, NULL, &out, &t, ctx))) return rc;
    if (check) m->checked = check_result(in, &out, ctx);
    if (expect) {
        m->expected = expect_compare(expect, &out, ctx);
        if (m->expected <= 0)
            fprintf(stderr, "expect: %s: %s%s\n", expect_path, m->expected ? "" : "could not compare: ",
                    gj_ctx_errmsg(ctx));
    }
    m->rows = out.rows;
    gj_join_out_free(&out);
    if ((rc = gj_time_runs(impl, w, &in->r, &in->s, repeat, &t, ctx))) return rc;
    m->ms = t.total_ms;
    for (int p = 0; p < 3; p++) m->phase[p] = t.ms[p];
    m->peak = t.peak_bytes;
    m->filtered = t.filtered;
    m->cut_r = t.cut_r_rows;
    m->cut_s = t.cut_s_rows;
    return GJ_OK;
}

/* Bytes that must move: both inputs read once, `rows` output rows (the
 * key, R's payloads and S's) written once; each column at its own width. */
static double row_width(const gj_dtable *t)
{
    double b = t->key.width;
    for (int i = 0; i < t->n_payloads; i++) b += t->payload[i].width;
    return b;
}
static double floor_bytes(const jn_input *in, uint64_t rows)
{
    return (double)in->r.rows * row_width(&in->r) + (double)in->s.rows * row_width(&in->s) +
           (double)rows * (row_width(&in->r) + row_width(&in->s) - in->s.key.width);
}

int gj_cli_run_join(int argc, char **argv)
{
    const char *cmd = "run join";
    jn_opts o;
    int ex = parse_opts(cmd, argc, argv, &o, 0), rc;
    if (ex) return ex < 0 ? GJ_EXIT_OK : ex;
    gj_profile *prof = NULL;
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    jn_input in = {0};
    gj_dtable expect = {0};
    char note[256] = "";
    gj_plan plan;
    gj_estimate est;
    jn_meas m;
    gj_impl impl;
    if (gj_ctx_new(&ctx)) return GJ_EXIT_FAIL;
    if ((ex = gj_cli_exec_setup(cmd, o.db, o.profile, o.no_log, &prof, &db, note, sizeof note))) goto done;
    if ((rc = gj_workload_check(&o.w, ctx))) { ex = gj_cli_fail(cmd, rc, ctx, "workload"); goto done; }
    if ((rc = input_make(&o, &o.w, &in, ctx, &ex))) {
        ex = ex ? ex : gj_cli_exit_for(rc);
        gj_cli_fail(cmd, rc, ctx, "input");
        goto done;
    }
    if (o.expect && (rc = expect_load(o.expect, &in, &expect, ctx))) {
        ex = rc == GJ_ERR_IO || rc == GJ_ERR_PARSE ? GJ_EXIT_INPUT : gj_cli_exit_for(rc);
        gj_cli_fail(cmd, rc, ctx, "--expect");
        goto done;
    }
    if (o.impl < 0) {
        if ((rc = gj_advise(&o.w, prof, &plan, ctx))) { ex = gj_cli_fail(cmd, rc, ctx, "advise"); goto done; }
        impl = plan.best;
    } else impl = (gj_impl)o.impl;
    memset(&est, 0, sizeof est);
    gj_profile_estimate(impl, &o.w, prof, &est, NULL);
    if ((rc = measure(impl, &in, &o.w, &est, o.repeat, o.check, o.expect ? &expect : NULL, o.expect, &m, ctx))) {
        ex = gj_cli_fail(cmd, rc, ctx, gj_impl_name(impl));
        goto done;
    }
    gj_cli_log_exec(db, prof, &o.w, impl, &est, m.ms, m.phase, 3, m.checked, o.repeat, "run");
    double bg = gj_profile_hw(prof)->bw_seq;
    double floor_ms = bg > 0 ? floor_bytes(&in, m.rows) / (bg * 1e9) * 1e3 : NAN;
    static const char *ph[3] = {"transform", "match", "materialize"};
    if (o.json) {
        printf("{\"impl\":\"%s\",\"auto\":%s,\"r_rows\":%llu,\"s_rows\":%llu,\"key_bytes\":%d,"
               "\"payload_bytes\":%d,\"r_payloads\":%d,\"s_payloads\":%d,\"match_ratio\":%g,\"zipf\":%g,"
               "\"s_run\":%g,\"r_sorted\":%s,\"s_sorted\":%s,\"out_rows\":%llu,\"measured_ms\":%.4f,"
               "\"predicted_ms\":%.4f,\"phases\":[",
               gj_impl_name(impl), o.impl < 0 ? "true" : "false", (unsigned long long)o.w.r_rows,
               (unsigned long long)o.w.s_rows, o.w.key_bytes, o.w.payload_bytes, o.w.r_payloads,
               o.w.s_payloads, o.w.match_ratio, o.w.zipf, o.w.s_run > 1 ? o.w.s_run : 1,
               o.w.r_sorted ? "true" : "false", o.w.s_sorted ? "true" : "false", (unsigned long long)m.rows,
               m.ms, est.ms);
        for (int i = 0; i < 3; i++)
            printf("%s{\"name\":\"%s\",\"measured_ms\":%.4f,\"predicted_ms\":%.4f}", i ? "," : "", ph[i],
                   m.phase[i], i < est.n_phases ? est.phase[i].ms : 0.0);
        if (m.filtered)
            printf("],\"filter\":{\"r_rows\":%llu,\"s_rows\":%llu}", (unsigned long long)m.cut_r,
                   (unsigned long long)m.cut_s);
        else
            printf("],\"filter\":null");
        printf(",\"repeat\":%d,\"peak_bytes\":%llu,\"bytes\":%.0f,\"floor_ms\":%.4f,\"checked\":%s,"
               "\"expected\":%s,\"profile\":\"%s\"}\n",
               o.repeat, (unsigned long long)m.peak, floor_bytes(&in, m.rows), isfinite(floor_ms) ? floor_ms : 0.0,
               m.checked < 0 ? "null" : m.checked ? "true" : "false",
               m.expected < 0 ? "null" : m.expected ? "true" : "false", gj_profile_name(prof));
    } else {
        printf("join |R|=%llu |S|=%llu, %d-byte keys, %d+%d payloads of %d bytes, match ratio %g, zipf %g",
               (unsigned long long)o.w.r_rows, (unsigned long long)o.w.s_rows, o.w.key_bytes,
               o.w.r_payloads, o.w.s_payloads, o.w.payload_bytes, o.w.match_ratio, o.w.zipf);
        if (o.w.s_run > 1) printf(", S in runs of %g keys", o.w.s_run);
        if (gj_cli_sorted_sides(&o.w)) printf(", %s in key order", gj_cli_sorted_sides(&o.w));
        printf("\n");
        printf("%s%s; %s\n", gj_impl_name(impl), o.impl < 0 ? " (the advisor's choice)" : "", note);
        printf("%-12s %12s %12s\n", "phase", "measured_ms", "predicted_ms");
        for (int i = 0; i < 3; i++)
            printf("%-12s %12.3f %12.3f\n", ph[i], m.phase[i], i < est.n_phases ? est.phase[i].ms : NAN);
        printf("%-12s %12.3f %12.3f\n", "total", m.ms, est.ms);
        if (m.filtered)
            printf("semi-join filter: S cut to %llu rows, R to %llu, before the join (in transform; "
                   "--filter off runs without)\n",
                   (unsigned long long)m.cut_s, (unsigned long long)m.cut_r);
        else if (gj_join_filter_weighed(&o.w)) { /* the model chose to run without it */
            gj_workload on = o.w;
            gj_estimate eon;
            on.filter = GJ_FILTER_ON;
            if (gj_profile_estimate(impl, &on, prof, &eon, NULL) == GJ_OK)
                printf("semi-join filter: not run, the model predicts %s at %.3f ms with it (--filter on "
                       "runs it)\n", gj_impl_name(impl), eon.ms);
        }
        printf("median of %d runs (CUDA events, inputs on the GPU, output written); %llu output rows;\n"
               "peak %.1f MiB; floor %.3f ms at B_G %.0f GB/s (ratio %.2f); check: %s\n",
               o.repeat, (unsigned long long)m.rows, m.peak / 1048576.0, floor_ms, bg, m.ms / floor_ms,
               m.checked < 0 ? (o.check ? "could not run" : "not run (--check)") : m.checked ? "ok" : "WRONG");
        if (o.expect)
            printf("expect %s: %s\n", o.expect,
                   m.expected < 0 ? "could not compare" : m.expected ? "ok (same rows)" : "WRONG");
    }
    ex = m.checked == 0 || m.expected == 0 ? GJ_EXIT_CHECK
         : o.expect && m.expected < 0 ? GJ_EXIT_FAIL : GJ_EXIT_OK;
done:
    gj_htable_free(&expect);
    input_free(&in);
    gj_profile_free(prof);
    gj_db_close(db);
    gj_ctx_free(ctx);
    return ex;
}

/* the workload at sweep value v */
static void sweep_apply(const jn_opts *o, gj_workload *w, double v)
{
    if (!strcmp(o->sweep, "match-ratio")) w->match_ratio = v > 1 ? 1 : v;
    else if (!strcmp(o->sweep, "zipf")) w->zipf = v;
    else if (!strcmp(o->sweep, "r-rows")) w->r_rows = (uint64_t)llround(v);
    else if (!strcmp(o->sweep, "s-rows")) w->s_rows = (uint64_t)llround(v);
    else if (!strcmp(o->sweep, "payloads")) w->r_payloads = w->s_payloads = (int)llround(v);
}

int gj_cli_bench_join(int argc, char **argv)
{
    const char *cmd = "bench join";
    jn_opts o;
    int ex = parse_opts(cmd, argc, argv, &o, 1);
    if (ex) return ex < 0 ? GJ_EXIT_OK : ex;
    gj_profile *prof = NULL;
    gj_db *db = NULL;
    gj_ctx *ctx = NULL;
    char note[256] = "";
    if (!o.sweep[0]) { /* a single point: the workload as given */
        gj_strlcpy(o.sweep, "match-ratio", sizeof o.sweep);
        o.lo = o.hi = o.w.match_ratio;
        o.step = 1;
    }
    if (o.r_file) {
        fprintf(stderr, "gjadvise %s: --r-file/--s-file: bench generates its inputs; use run join\n", cmd);
        return GJ_EXIT_USAGE;
    }
    if (gj_ctx_new(&ctx)) return GJ_EXIT_FAIL;
    if ((ex = gj_cli_exec_setup(cmd, o.db, o.profile, o.no_log, &prof, &db, note, sizeof note))) goto done;
    double bg = o.bg > 0 ? o.bg : gj_profile_hw(prof)->bw_seq;
    int mul = !strcmp(o.sweep, "r-rows") || !strcmp(o.sweep, "s-rows");
    printf("impl,param,value,r_rows,s_rows,key_bytes,payload_bytes,r_payloads,s_payloads,match_ratio,zipf,"
           "out_rows,median_ms,transform_ms,match_ms,materialize_ms,predicted_ms,pred_transform_ms,"
           "pred_match_ms,pred_materialize_ms,peak_bytes,bytes,floor_ms,ratio,check,filter\n");
    for (int k = 0;; k++) {
        double v = mul ? o.lo * pow(o.step, k) : o.lo + k * o.step;
        if (v > o.hi * (1 + 1e-9)) break;
        gj_workload w = o.w;
        jn_input in;
        int rc, iex;
        sweep_apply(&o, &w, v);
        if ((rc = gj_workload_check(&w, ctx))) { ex = gj_cli_fail(cmd, rc, ctx, "workload"); goto done; }
        if ((rc = input_make(&o, &w, &in, ctx, &iex))) { ex = gj_cli_fail(cmd, rc, ctx, "generate input"); goto done; }
        for (int i = 0; i < o.n_impls; i++) {
            gj_impl impl = (gj_impl)o.impls[i];
            jn_meas m;
            gj_estimate est;
            memset(&est, 0, sizeof est);
            gj_profile_estimate(impl, &w, prof, &est, NULL);
            rc = measure(impl, &in, &w, &est, o.repeat, o.check, NULL, NULL, &m, ctx);
            if (rc) {
                printf("%s,%s,%g,,,,,,,,,,,,,,,,,,,,,,error: %s,\n", gj_impl_name(impl), o.sweep, v,
                       gj_ctx_errmsg(ctx));
                continue;
            }
            gj_cli_log_exec(db, prof, &w, impl, &est, m.ms, m.phase, 3, m.checked, o.repeat, "bench");
            double bytes = floor_bytes(&in, m.rows);
            double floor_ms = bg > 0 ? bytes / (bg * 1e9) * 1e3 : NAN;
            printf("%s,%s,%g,%llu,%llu,%d,%d,%d,%d,%g,%g,%llu,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,"
                   "%llu,%.0f,%.4f,%.3f,%s,%s\n",
                   gj_impl_name(impl), o.sweep, v, (unsigned long long)w.r_rows,
                   (unsigned long long)w.s_rows, w.key_bytes, w.payload_bytes, w.r_payloads,
                   w.s_payloads, w.match_ratio, w.zipf, (unsigned long long)m.rows, m.ms, m.phase[0],
                   m.phase[1], m.phase[2], est.ms, est.n_phases > 0 ? est.phase[0].ms : 0,
                   est.n_phases > 1 ? est.phase[1].ms : 0, est.n_phases > 2 ? est.phase[2].ms : 0,
                   (unsigned long long)m.peak, bytes, floor_ms, m.ms / floor_ms,
                   m.checked < 0 ? "" : m.checked ? "ok" : "WRONG", m.filtered ? "yes" : "no");
            fflush(stdout);
        }
        input_free(&in);
    }
done:
    gj_profile_free(prof);
    gj_db_close(db);
    gj_ctx_free(ctx);
    return ex;
}
