/* gjadvise run groupby / gjadvise bench groupby: generate R(k, r1..rp) on
 * the GPU as paper 000 Sec. 5.2.1 (keys uniform over 0..g-1 or Zipf), run a
 * group-by implementation (or the advisor's choice), time it with CUDA events
 * (median of --repeat runs after one warm-up, inputs on the GPU), show the
 * model's prediction beside it, optionally check against the CPU reference,
 * and log each run in the store. */
#include "cli/cli.h"
#include "common/internal.h"
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
    int check, repeat, json, no_log, isfloat;
    uint64_t seed, key_offset;
    const char *profile, *db;
    /* bench */
    uint64_t g_lo, g_hi, g_mul;
    int impls[GJ_IMPL_COUNT], n_impls;
    double bg;           /* GB/s for the floor; 0: profile's bw_seq */
} gb_opts;

static void help_run(void)
{
    printf("usage: gjadvise run groupby [--rows N] [--groups G] [--aggs LIST] [--impl auto|NAME]\n"
           "                            [--key-bytes 4|8] [--payload-bytes 4|8] [--float] [--zipf Z]\n"
           "                            [--key-offset X] [--sorted-output] [--check] [--repeat N]\n"
           "                            [--seed S] [--profile NAME] [--db PATH] [--no-log] [--json]\n"
           "\n"
           "Generates R(k, r1..rp) on the GPU (keys uniform over 0..g-1, or Zipf with --zipf; one\n"
           "payload column per aggregate), runs the implementation (auto: the advisor's choice),\n"
           "reports the median of --repeat runs (CUDA events, after one warm-up, inputs on the GPU)\n"
           "by phase beside the model's prediction, and logs the run in the store.\n"
           "  --impl     auto, HGB, SGB-UR, SGB-TR, SGB-DE-TR, PGB-UR, PGB-TR, HASH-GLOBAL (default auto)\n"
           "  --aggs     sum,min,max,count,avg,count-distinct,median (default max,max)\n"
           "  --check    compare with the CPU reference (exit 7 on a difference)\n"
           "  --repeat   timed runs, 1..1000 (default 7)\n"
           "\n"
           "examples:\n"
           "  gjadvise run groupby --rows 2^28 --groups 2^12 --aggs max,max\n"
           "  gjadvise run groupby --rows 2^24 --groups 2^20 --impl PGB-TR --check\n"
           "  gjadvise run groupby --rows 2^26 --groups 2^10 --aggs sum,median --key-bytes 8 --json\n"
           "\n"
           "exit codes: 0 ok, 1 failure, 2 bad flag or value, 3 no GPU, 6 infeasible, 7 check failed\n");
}

static void help_bench(void)
{
    printf("usage: gjadvise bench groupby [--sweep groups=LO:HI[:MUL]] [--impls LIST|all] [run flags]\n"
           "                              [--bg GBPS]\n"
           "\n"
           "CSV, one row per (implementation, g): median ms by phase, predicted ms, throughput,\n"
           "bytes that must move (keys and payloads read once) and the ratio to that floor at\n"
           "B_G = --bg GB/s (default: the profile's bw_seq).\n"
           "\n"
           "examples:\n"
           "  gjadvise bench groupby --sweep groups=2^1:2^26\n"
           "  gjadvise bench groupby --sweep groups=2^4:2^14:4 --impls HGB,PGB-TR --key-bytes 8\n");
}

static int parse_pow(const char *s, uint64_t *out) { return gj_cli_parse_size(s, 1ull << 40, out); }

static int parse_common(const char *cmd, int argc, char **argv, gb_opts *o, int bench)
{
    enum { O_ROWS = 1, O_GROUPS, O_AGGS, O_IMPL, O_KB, O_PB, O_FLOAT, O_ZIPF, O_KOFF, O_SORTED, O_CHECK,
           O_REPEAT, O_SEED, O_PROFILE, O_DB, O_NOLOG, O_JSON, O_SWEEP, O_IMPLS, O_BG, O_HELP };
    static const struct option lo[] = {
        {"rows", 1, 0, O_ROWS}, {"groups", 1, 0, O_GROUPS}, {"aggs", 1, 0, O_AGGS}, {"impl", 1, 0, O_IMPL},
        {"key-bytes", 1, 0, O_KB}, {"payload-bytes", 1, 0, O_PB}, {"float", 0, 0, O_FLOAT},
        {"zipf", 1, 0, O_ZIPF}, {"key-offset", 1, 0, O_KOFF}, {"sorted-output", 0, 0, O_SORTED},
        {"check", 0, 0, O_CHECK}, {"repeat", 1, 0, O_REPEAT}, {"seed", 1, 0, O_SEED},
        {"profile", 1, 0, O_PROFILE}, {"db", 1, 0, O_DB}, {"no-log", 0, 0, O_NOLOG}, {"json", 0, 0, O_JSON},
        {"sweep", 1, 0, O_SWEEP}, {"impls", 1, 0, O_IMPLS}, {"bg", 1, 0, O_BG}, {"help", 0, 0, O_HELP},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    gj_workload_default(&o->w, GJ_OP_GROUPBY);
    o->impl = -1;
    o->repeat = 7;
    o->seed = 42;
    o->g_lo = 2;
    o->g_hi = 1ull << 26;
    o->g_mul = 4;
    for (int i = GJ_IMPL_HGB; i <= GJ_IMPL_HASH_GLOBAL; i++) o->impls[o->n_impls++] = i;
    opterr = 0;
    optind = 1;
    int c;
    long l;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case O_ROWS: if (gj_cli_parse_size(v, 0x7fffffffull, &o->w.rows) || !o->w.rows) return gj_cli_bad(cmd, "--rows", v, "1..2^31-1"); break;
        case O_GROUPS: if (gj_cli_parse_size(v, 0x7fffffffull, &o->w.groups) || !o->w.groups) return gj_cli_bad(cmd, "--groups", v, "1..2^31-1"); break;
        case O_AGGS: if (gj_cli_parse_aggs(cmd, v, &o->w)) return GJ_EXIT_USAGE; break;
        case O_IMPL: {
            gj_impl im;
            if (!strcmp(v, "auto")) o->impl = -1;
            else if (gj_impl_parse(v, &im) || gj_impl_op(im) != GJ_OP_GROUPBY)
                return gj_cli_bad(cmd, "--impl", v, "auto, HGB, SGB-UR, SGB-TR, SGB-DE-TR, PGB-UR, PGB-TR, HASH-GLOBAL");
            else o->impl = im;
            break;
        }
        case O_KB: if (gj_cli_parse_int(v, 4, 8, &l) || (l != 4 && l != 8)) return gj_cli_bad(cmd, "--key-bytes", v, "4, 8"); o->w.key_bytes = (int)l; break;
        case O_PB: if (gj_cli_parse_int(v, 4, 8, &l) || (l != 4 && l != 8)) return gj_cli_bad(cmd, "--payload-bytes", v, "4, 8"); o->w.payload_bytes = (int)l; break;
        case O_FLOAT: o->isfloat = 1; break;
        case O_ZIPF: if (gj_cli_parse_double(v, &o->w.zipf) || o->w.zipf < 0 || o->w.zipf > 10) return gj_cli_bad(cmd, "--zipf", v, "0..10"); break;
        case O_KOFF: if (gj_cli_parse_size(v, UINT64_MAX, &o->key_offset)) return gj_cli_bad(cmd, "--key-offset", v, "an unsigned integer"); break;
        case O_SORTED: o->w.sorted_output = 1; break;
        case O_CHECK: o->check = 1; break;
        case O_REPEAT: if (gj_cli_parse_int(v, 1, 1000, &l)) return gj_cli_bad(cmd, "--repeat", v, "1..1000"); o->repeat = (int)l; break;
        case O_SEED: if (gj_cli_parse_size(v, UINT64_MAX, &o->seed)) return gj_cli_bad(cmd, "--seed", v, "an unsigned integer"); break;
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
                return gj_cli_bad(cmd, "--sweep", v, "groups=LO:HI[:MUL], 1 <= LO <= HI, MUL >= 2 (bench only)");
            if (!m[0]) o->g_mul = 4;
            break;
        }
        case O_IMPLS: {
            char buf[256];
            gj_strlcpy(buf, v, sizeof buf);
            o->n_impls = 0;
            if (strcmp(v, "all")) {
                for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                    gj_impl im;
                    if (gj_impl_parse(t, &im) || gj_impl_op(im) != GJ_OP_GROUPBY || o->n_impls == GJ_IMPL_COUNT)
                        return gj_cli_bad(cmd, "--impls", v, "all or a list of HGB, SGB-UR, SGB-TR, SGB-DE-TR, PGB-UR, PGB-TR, HASH-GLOBAL");
                    o->impls[o->n_impls++] = im;
                }
            } else
                for (int i = GJ_IMPL_HGB; i <= GJ_IMPL_HASH_GLOBAL; i++) o->impls[o->n_impls++] = i;
            if (!o->n_impls) return gj_cli_bad(cmd, "--impls", v, "at least one implementation");
            break;
        }
        case O_BG: if (gj_cli_parse_double(v, &o->bg) || o->bg <= 0) return gj_cli_bad(cmd, "--bg", v, "GB/s > 0"); break;
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
    if (o->w.groups > o->w.rows) o->w.groups = o->w.rows;
    o->w.payload_bytes = o->w.payload_bytes ? o->w.payload_bytes : 4;
    return 0;
}

/* Device input of one workload. */
typedef struct gb_input {
    gj_dtable t;
} gb_input;

static void input_free(gb_input *in)
{
    cudaFree(in->t.key.data);
    for (int i = 0; i < GJ_MAX_PAYLOADS; i++) cudaFree(in->t.payload[i].data);
    memset(in, 0, sizeof *in);
}

static int input_make(const gb_opts *o, const gj_workload *w, gb_input *in, gj_ctx *ctx)
{
    int rc = GJ_OK;
    memset(in, 0, sizeof *in);
    uint64_t n = w->rows;
    in->t.rows = n;
    in->t.key.width = w->key_bytes;
    if (cudaMalloc(&in->t.key.data, n * w->key_bytes) != cudaSuccess) { rc = gj_seterr(ctx, GJ_ERR_INFEASIBLE, "cudaMalloc keys"); goto done; }
    rc = w->zipf > 0 ? gj_gen_zipf_keys(in->t.key.data, w->key_bytes, n, w->groups, w->zipf, o->seed, NULL, ctx)
                     : gj_gen_uniform_keys(in->t.key.data, w->key_bytes, n, w->groups, o->seed, NULL, ctx);
    if (rc) goto done;
    if (o->key_offset && (rc = gj_gen_offset_keys(in->t.key.data, w->key_bytes, n, o->key_offset, NULL, ctx))) goto done;
    in->t.n_payloads = w->n_aggs;
    for (int i = 0; i < w->n_aggs; i++) {
        gj_column *c = &in->t.payload[i];
        c->width = w->payload_bytes;
        c->type = o->isfloat ? GJ_DT_FLOAT : GJ_DT_INT;
        if (cudaMalloc(&c->data, n * c->width) != cudaSuccess) { rc = gj_seterr(ctx, GJ_ERR_INFEASIBLE, "cudaMalloc payload"); goto done; }
        if ((rc = gj_gen_values(c->data, c->width, c->type, n, o->seed + 1 + i, NULL, ctx))) goto done;
    }
    if (cudaDeviceSynchronize() != cudaSuccess) rc = gj_seterr(ctx, GJ_ERR_CUDA, "generation failed");
done:
    if (rc) input_free(in);
    return rc;
}

typedef struct gb_meas {
    double ms, phase[2];
    uint64_t groups, peak;
    int checked; /* -1 not, 0 wrong, 1 ok */
} gb_meas;

typedef struct { uint64_t key, idx; } kv;
static int cmp_kv(const void *a, const void *b)
{
    uint64_t x = ((const kv *)a)->key, y = ((const kv *)b)->key;
    return x < y ? -1 : x > y;
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
static int measure(gj_impl impl, const gb_input *in, const gj_workload *w, int repeat, int check, gb_meas *m,
                   gj_ctx *ctx)
{
    int rc = GJ_OK;
    double *tot = calloc(repeat, sizeof *tot), *p0 = calloc(repeat, sizeof *p0), *p1 = calloc(repeat, sizeof *p1);
    gj_groupby_out out;
    gj_timing t;
    memset(m, 0, sizeof *m);
    m->checked = -1;
    if (!tot || !p0 || !p1) { rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory"); goto done; }
    if ((rc = gj_groupby_execute(impl, &in->t, w, NULL, &out, &t, ctx))) goto done;
    if (check) m->checked = check_result(in, w, &out, ctx);
    m->groups = out.groups;
    gj_groupby_out_free(&out);
    for (int r = 0; r < repeat; r++) {
        if ((rc = gj_groupby_execute(impl, &in->t, w, NULL, &out, &t, ctx))) goto done;
        gj_groupby_out_free(&out);
        tot[r] = t.total_ms;
        p0[r] = t.ms[0];
        p1[r] = t.ms[1];
        if (t.peak_bytes > m->peak) m->peak = t.peak_bytes;
    }
    qsort(tot, repeat, sizeof *tot, gj_cli_cmp_double);
    qsort(p0, repeat, sizeof *p0, gj_cli_cmp_double);
    qsort(p1, repeat, sizeof *p1, gj_cli_cmp_double);
    m->ms = tot[repeat / 2];
    m->phase[0] = p0[repeat / 2];
    m->phase[1] = p1[repeat / 2];
done:
    free(tot);
    free(p0);
    free(p1);
    return rc;
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
    char note[256] = "";
    gj_plan plan;
    gj_estimate est;
    gb_meas m;
    gj_impl impl;
    if (gj_ctx_new(&ctx)) return GJ_EXIT_FAIL;
    if ((ex = gj_cli_exec_setup(cmd, o.db, o.profile, o.no_log, &prof, &db, note, sizeof note))) goto done;
    int rc;
    if ((rc = gj_workload_check(&o.w, ctx))) { ex = gj_cli_fail(cmd, rc, ctx, "workload"); goto done; }
    if (o.impl < 0) {
        rc = gj_advise(&o.w, prof, &plan, ctx);
        if (rc) { ex = gj_cli_fail(cmd, rc, ctx, "advise"); goto done; }
        impl = plan.best;
    } else impl = (gj_impl)o.impl;
    memset(&est, 0, sizeof est);
    gj_profile_estimate(impl, &o.w, prof, &est, NULL);
    if ((rc = input_make(&o, &o.w, &in, ctx))) { ex = gj_cli_fail(cmd, rc, ctx, "generate input"); goto done; }
    if ((rc = measure(impl, &in, &o.w, o.repeat, o.check, &m, ctx))) { ex = gj_cli_fail(cmd, rc, ctx, gj_impl_name(impl)); goto done; }
    gj_cli_log_exec(db, prof, &o.w, impl, &est, m.ms, m.phase, 2, m.checked, o.repeat, "run");
    if (o.json) {
        printf("{\"impl\":\"%s\",\"auto\":%s,\"rows\":%llu,\"groups_hint\":%llu,\"groups\":%llu,\"key_bytes\":%d,"
               "\"measured_ms\":%.4f,\"measured_group_ms\":%.4f,\"measured_aggregate_ms\":%.4f,"
               "\"predicted_ms\":%.4f,\"predicted_group_ms\":%.4f,\"predicted_aggregate_ms\":%.4f,"
               "\"repeat\":%d,\"peak_bytes\":%llu,\"checked\":%s,\"profile\":\"%s\"}\n",
               gj_impl_name(impl), o.impl < 0 ? "true" : "false", (unsigned long long)o.w.rows,
               (unsigned long long)o.w.groups, (unsigned long long)m.groups, o.w.key_bytes, m.ms, m.phase[0],
               m.phase[1], est.ms, est.n_phases > 0 ? est.phase[0].ms : 0, est.n_phases > 1 ? est.phase[1].ms : 0,
               o.repeat, (unsigned long long)m.peak, m.checked < 0 ? "null" : m.checked ? "true" : "false",
               gj_profile_name(prof));
    } else {
        printf("group-by %llu rows, %llu groups found (asked %llu), %d-byte keys, %s%s, profile %s\n",
               (unsigned long long)o.w.rows, (unsigned long long)m.groups, (unsigned long long)o.w.groups,
               o.w.key_bytes, gj_impl_name(impl), o.impl < 0 ? " (advisor's choice)" : "", gj_profile_name(prof));
        printf("%-10s %12s %12s\n", "phase", "measured_ms", "predicted_ms");
        printf("%-10s %12.3f %12.3f\n", "group", m.phase[0], est.n_phases > 0 ? est.phase[0].ms : NAN);
        printf("%-10s %12.3f %12.3f\n", "aggregate", m.phase[1], est.n_phases > 1 ? est.phase[1].ms : NAN);
        printf("%-10s %12.3f %12.3f\n", "total", m.ms, est.ms);
        printf("median of %d runs (CUDA events, inputs on the GPU); %.2f G rows/s; peak %.1f MiB; check: %s\n",
               o.repeat, o.w.rows / m.ms / 1e6, m.peak / 1048576.0,
               m.checked < 0 ? "not run (--check)" : m.checked ? "ok" : "WRONG");
    }
    ex = m.checked == 0 ? GJ_EXIT_CHECK : GJ_EXIT_OK;
done:
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
           "grows_per_s,bytes,floor_ms,ratio,check\n");
    for (uint64_t g = o.g_lo; g <= o.g_hi && g <= o.w.rows; g *= o.g_mul) {
        gb_input in;
        gj_workload w = o.w;
        w.groups = g;
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
            rc = measure(impl, &in, &w, o.repeat, o.check, &m, ctx);
            if (rc) {
                printf("%s,%d,%llu,%llu,,,,,,,,,,error: %s\n", gj_impl_name(impl), w.key_bytes, (unsigned long long)w.rows,
                       (unsigned long long)g, gj_ctx_errmsg(ctx));
                continue;
            }
            gj_cli_log_exec(db, prof, &w, impl, &est, m.ms, m.phase, 2, m.checked, o.repeat, "bench");
            printf("%s,%d,%llu,%llu,%llu,%.4f,%.4f,%.4f,%.4f,%.4g,%.0f,%.4f,%.3f,%s\n", gj_impl_name(impl), w.key_bytes,
                   (unsigned long long)w.rows, (unsigned long long)g, (unsigned long long)m.groups, m.ms, m.phase[0],
                   m.phase[1], est.ms, w.rows / m.ms * 1e3, bytes, floor_ms, m.ms / floor_ms,
                   m.checked < 0 ? "" : m.checked ? "ok" : "WRONG");
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
