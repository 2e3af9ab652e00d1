/* gjadvise recommend: rank the implementations of a join or group-by. */
#include "cli/cli.h"
#include "common/internal.h"
#include "model/model.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void help(void)
{
    printf(
        "usage: gjadvise recommend [--op join|groupby] [workload flags] [--profile NAME] [--json]\n"
        "\n"
        "Ranks every implementation of the operator by the time the cost models of paper 000\n"
        "predict for this workload on a GPU profile, explains the winner, and says at which\n"
        "value of the most decisive parameter the choice would flip.\n"
        "\n"
        "join (R is the primary-key side, S the foreign-key side):\n"
        "  --r-rows N, --s-rows N   rows of R and S (default 2^27 each)\n"
        "  --rows N                 both at once\n"
        "  --match-ratio X          share of S rows with a partner, 0..1 (default 1)\n"
        "  --payloads P             payload columns on each side, 0..8 (default 2)\n"
        "  --r-payloads P, --s-payloads P\n"
        "  --out-rows N             many-to-many: the output size (default: PK-FK)\n"
        "  --s-run L                S's rows come in runs of L equal keys on average (S sorted\n"
        "                           or clustered by the key: |S| / distinct keys; TPC-H's\n"
        "                           lineitem by order key: 4); default 1, no runs\n"
        "  --r-sorted, --s-sorted   that side's rows come ordered by key (a table stored by\n"
        "                           it: TPC-H's orders, lineitem by order key): SMJ-* need\n"
        "                           not sort it\n"
        "  --filter auto|on|off     the semi-join filter before the join (default auto): a\n"
        "                           primary-foreign-key join with at most half of S matching\n"
        "                           may first cut both sides to their matches (bitmaps of\n"
        "                           the keys); auto predicts each implementation with and\n"
        "                           without it and keeps the faster (column filter), which\n"
        "                           is what run join and the library's auto join then run\n"
        "group-by:\n"
        "  --rows N                 input rows (default 2^28)\n"
        "  --groups G               distinct keys, 1..rows (default 2^12)\n"
        "  --aggs LIST              sum,min,max,count,avg,count-distinct,median (default max,max)\n"
        "  --sorted-output          the output must be ordered by key\n"
        "  --sorted-keys            the rows come ordered by key (a table stored by it, the\n"
        "                           output of a sort or a merge join): SGB-* need no sort\n"
        "  --key-range N            the keys span N values (max - min + 1, from the column's\n"
        "                           statistics; default unknown): PGB-* may give every key its\n"
        "                           own slot (operators/GROUPBY.md); more --groups than N\n"
        "                           are taken as told, with a note\n"
        "both:\n"
        "  --key-bytes 4|8, --payload-bytes 4|8   (default 4)\n"
        "  --zipf Z                 skew of foreign keys or group keys, >= 0 (default 0)\n"
        "  --profile NAME           a stored or built-in profile (default: this GPU's newest,\n"
        "                           else a100-paper)\n"
        "  --db PATH                the store (default $%s or the XDG data folder)\n"
        "  --json                   machine-readable plan\n"
        "\n"
        "Sizes: 134217728, 2^27, 128M (K, M, G, T are powers of 1024).\n"
        "\n"
        "examples:\n"
        "  gjadvise recommend --match-ratio 0.3\n"
        "  gjadvise recommend --op groupby --rows 2^28 --groups 2^12 --aggs max,max\n"
        "  gjadvise recommend --op groupby --groups 2^20 --aggs sum,median --json\n"
        "\n"
        "exit codes: 0 ok, 2 bad flag or value, 4 store error, 6 nothing fits\n",
        GJ_DB_ENV);
}

static const char *fmt_rows(uint64_t n, char *buf, size_t len)
{
    if (n && !(n & (n - 1))) snprintf(buf, len, "2^%d", __builtin_ctzll(n));
    else snprintf(buf, len, "%llu", (unsigned long long)n);
    return buf;
}

static void describe(const gj_workload *w, char *buf, size_t n)
{
    char a[32], b[32];
    if (w->op == GJ_OP_JOIN) {
        int l = snprintf(buf, n, "join %s x %s rows, %d+%d payload columns of %d B, %d-byte keys, ",
                         fmt_rows(w->r_rows, a, sizeof a), fmt_rows(w->s_rows, b, sizeof b),
                         w->r_payloads, w->s_payloads, w->payload_bytes, w->key_bytes);
        if (w->out_rows)
            l += snprintf(buf + l, n - (size_t)l, "%s output rows (many-to-many), zipf %.2g",
                          fmt_rows(w->out_rows, a, sizeof a), w->zipf);
        else
            l += snprintf(buf + l, n - (size_t)l, "match ratio %.3g, zipf %.2g", w->match_ratio, w->zipf);
        if (w->s_run > 1 && l < (int)n) l += snprintf(buf + l, n - (size_t)l, ", S in runs of %.3g keys", w->s_run);
        if (gj_cli_sorted_sides(w) && l < (int)n)
            l += snprintf(buf + l, n - (size_t)l, ", %s in key order", gj_cli_sorted_sides(w));
        if (w->filter && l < (int)n) snprintf(buf + l, n - (size_t)l, ", filter %s", gj_filter_name(w->filter));
    } else {
        int l = snprintf(buf, n, "group-by %s rows, %s groups, %d-byte keys, aggregates",
                         fmt_rows(w->rows, a, sizeof a), fmt_rows(w->groups, b, sizeof b),
                         w->key_bytes);
        for (int i = 0; i < w->n_aggs && l < (int)n; i++)
            l += snprintf(buf + l, n - (size_t)l, "%s%s", i ? "," : " ", gj_agg_name(w->aggs[i]));
        if (l < (int)n)
            snprintf(buf + l, n - (size_t)l, " of %d B, zipf %.2g%s%s", w->payload_bytes, w->zipf,
                     w->sorted_keys ? ", rows in key order" : "", w->sorted_output ? ", sorted output" : "");
        if (w->key_range && l < (int)n) {
            l = (int)strlen(buf);
            snprintf(buf + l, n - (size_t)l, ", keys span %s values", fmt_rows(w->key_range, a, sizeof a));
        }
    }
}

static void print_table(const gj_plan *plan, const gj_workload *w, const gj_profile *p, const char *note)
{
    char d[256];
    describe(w, d, sizeof d);
    printf("%s\n%s\n\n", d, note);
    const char *ph[3] = {"transform", "match", "materialize"};
    int nph = w->op == GJ_OP_JOIN ? 3 : 2;
    if (w->op == GJ_OP_GROUPBY) {
        ph[0] = "group";
        ph[1] = "aggregate";
    }
    printf("  %-4s %-12s %10s", "rank", "impl", "predicted");
    for (int i = 0; i < nph; i++) printf(" %12s", ph[i]);
    printf(" %9s %9s%s\n", "vs floor", "memory", w->op == GJ_OP_JOIN ? "  filter" : "");
    for (int i = 0; i < plan->n; i++) {
        const gj_estimate *e = &plan->est[i];
        if (!e->feasible) continue;
        printf("  %-4d %-12s %7.2f ms", i + 1, gj_impl_name(e->impl), e->ms);
        for (int k = 0; k < nph; k++) printf(" %9.2f ms", k < e->n_phases ? e->phase[k].ms : 0.0);
        printf(" %8.1fx %6.1f GB%s\n", e->floor_ms > 0 ? e->ms / e->floor_ms : 0, e->peak_bytes / 1e9,
               w->op != GJ_OP_JOIN ? "" : e->filtered ? "  yes" : "  -");
    }
    for (int i = 0; i < plan->n; i++)
        if (!plan->est[i].feasible)
            printf("  --   %-12s infeasible: %s\n", gj_impl_name(plan->est[i].impl), plan->est[i].why);
    /* the filter: where the best runs after it, what it would take without;
     * where the model weighed it and left it out, what it would take with */
    const int with = plan->est[0].filtered;
    gj_workload other = *w;
    gj_estimate o;
    other.filter = with ? GJ_FILTER_OFF : GJ_FILTER_ON;
    if ((with || gj_join_filter_weighed(w)) && gj_profile_estimate(plan->best, &other, p, &o, NULL) == GJ_OK) {
        if (with) {
            uint64_t cr = 0, cs = 0;
            gj_join_cut_rows(w, &cr, &cs);
            printf("\nsemi-join filter: S is first cut to its matching rows (%.1f M of %.1f M) and R to their "
                   "keys (%.1f M of %.1f M), by bitmaps of the keys in the L2; its time is in transform. "
                   "%s without it: %.2f ms%s\n",
                   cs / 1e6, w->s_rows / 1e6, cr / 1e6, w->r_rows / 1e6, gj_impl_name(plan->best), o.ms,
                   w->filter == GJ_FILTER_ON ? " (--filter off predicts without)" : "");
        } else {
            printf("\nsemi-join filter: weighed and left out: %s with it would take %.2f ms (--filter on "
                   "predicts with it)\n", gj_impl_name(plan->best), o.ms);
        }
    }
    printf("\nbest: %s\nwhy: %s.\n", gj_impl_name(plan->best), plan->reason);
    const gj_crossover *c = &plan->crossover;
    if (c->found) {
        if (!strcmp(c->param, "groups"))
            printf("crossover: at groups = %.0f (2^%.1f) %s overtakes %s (now %.0f)\n", c->at,
                   log2(c->at), gj_impl_name(c->to), gj_impl_name(c->from), c->current);
        else
            printf("crossover: at %s = %.3g %s overtakes %s (now %.3g)\n", c->param, c->at,
                   gj_impl_name(c->to), gj_impl_name(c->from), c->current);
    } else {
        printf("crossover: none: %s stays best over the whole range of match ratio / groups, "
               "payload columns and skew\n", gj_impl_name(plan->best));
    }
    printf("paper's rule: %s (%s)%s\n", gj_impl_name(plan->heuristic), plan->heuristic_rule,
           plan->heuristic == plan->best ? ": agrees" : ": differs from the model");
}

enum {
    O_OP = 1000, O_R_ROWS, O_S_ROWS, O_ROWS, O_MR, O_PAYLOADS, O_RP, O_SP, O_OUT, O_GROUPS, O_AGGS,
    O_SORTED, O_SKEYS, O_KRANGE, O_RSORT, O_SSORT, O_KB, O_PB, O_ZIPF, O_SRUN, O_FILTER, O_PROFILE, O_DB, O_JSON,
    O_HELP
};

static const struct option opts[] = {
    {"op", required_argument, 0, O_OP},
    {"r-rows", required_argument, 0, O_R_ROWS},
    {"s-rows", required_argument, 0, O_S_ROWS},
    {"rows", required_argument, 0, O_ROWS},
    {"match-ratio", required_argument, 0, O_MR},
    {"payloads", required_argument, 0, O_PAYLOADS},
    {"r-payloads", required_argument, 0, O_RP},
    {"s-payloads", required_argument, 0, O_SP},
    {"out-rows", required_argument, 0, O_OUT},
    {"groups", required_argument, 0, O_GROUPS},
    {"aggs", required_argument, 0, O_AGGS},
    {"sorted-output", no_argument, 0, O_SORTED},
    {"sorted-keys", no_argument, 0, O_SKEYS},
    {"key-range", required_argument, 0, O_KRANGE},
    {"r-sorted", no_argument, 0, O_RSORT},
    {"s-sorted", no_argument, 0, O_SSORT},
    {"key-bytes", required_argument, 0, O_KB},
    {"payload-bytes", required_argument, 0, O_PB},
    {"zipf", required_argument, 0, O_ZIPF},
    {"s-run", required_argument, 0, O_SRUN},
    {"filter", required_argument, 0, O_FILTER},
    {"profile", required_argument, 0, O_PROFILE},
    {"db", required_argument, 0, O_DB},
    {"json", no_argument, 0, O_JSON},
    {"help", no_argument, 0, O_HELP},
    {0, 0, 0, 0},
};

int gj_cli_parse_aggs(const char *cmd, const char *list, gj_workload *w)
{
    char buf[256];
    if (strlen(list) >= sizeof buf) return gj_cli_bad(cmd, "--aggs", list, "at most 8 names");
    strcpy(buf, list);
    w->n_aggs = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (w->n_aggs == GJ_MAX_AGGS)
            return gj_cli_bad(cmd, "--aggs", list, "allowed at most 8 aggregates");
        if (gj_agg_parse(t, &w->aggs[w->n_aggs]) != GJ_OK)
            return gj_cli_bad(cmd, "--aggs", list,
                              "allowed a comma-separated list of sum, min, max, count, avg, "
                              "count-distinct, median");
        w->n_aggs++;
    }
    if (!w->n_aggs) return gj_cli_bad(cmd, "--aggs", list, "allowed at least one aggregate");
    return 0;
}

/* Parse the workload flags shared by recommend, run and bench. Unknown
 * options are left to the caller through `extra` (NULL: rejected). */
int gj_cli_parse_workload(const char *cmd, int argc, char **argv, gj_workload *w,
                          const char **profile, const char **db, int *json)
{
    static const char *size_msg = "allowed a size from 1 to 2^40 (e.g. 134217728, 2^27, 128M)";
    uint64_t v;
    long l;
    double d;
    int op_given = 0, c;
    /* first pass: the operator decides the defaults */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--op") && i + 1 < argc) {
            if (!strcmp(argv[i + 1], "groupby") || !strcmp(argv[i + 1], "group-by")) op_given = 2;
            else if (!strcmp(argv[i + 1], "join")) op_given = 1;
            else return gj_cli_bad(cmd, "--op", argv[i + 1], "allowed join or groupby");
        } else if (!strncmp(argv[i], "--op=", 5)) {
            op_given = !strcmp(argv[i] + 5, "join") ? 1 : 2;
            if (strcmp(argv[i] + 5, "join") && strcmp(argv[i] + 5, "groupby"))
                return gj_cli_bad(cmd, "--op", argv[i] + 5, "allowed join or groupby");
        }
    gj_workload_default(w, op_given == 2 ? GJ_OP_GROUPBY : GJ_OP_JOIN);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        const char *a = optarg;
        switch (c) {
        case O_OP: break;
        case O_R_ROWS:
            if (gj_cli_parse_size(a, GJ_MAX_ROWS, &v) || !v) return gj_cli_bad(cmd, "--r-rows", a, size_msg);
            w->r_rows = v;
            break;
        case O_S_ROWS:
            if (gj_cli_parse_size(a, GJ_MAX_ROWS, &v) || !v) return gj_cli_bad(cmd, "--s-rows", a, size_msg);
            w->s_rows = v;
            break;
        case O_ROWS:
            if (gj_cli_parse_size(a, GJ_MAX_ROWS, &v) || !v) return gj_cli_bad(cmd, "--rows", a, size_msg);
            w->rows = w->r_rows = w->s_rows = v;
            break;
        case O_OUT:
            if (gj_cli_parse_size(a, GJ_MAX_ROWS << 4, &v) || !v)
                return gj_cli_bad(cmd, "--out-rows", a, "allowed a size from 1 to 2^44");
            w->out_rows = v;
            break;
        case O_GROUPS:
            if (gj_cli_parse_size(a, GJ_MAX_ROWS, &v) || !v)
                return gj_cli_bad(cmd, "--groups", a, "allowed 1 to the number of rows");
            w->groups = v;
            break;
        case O_MR:
            if (gj_cli_parse_double(a, &d) || d < 0 || d > 1)
                return gj_cli_bad(cmd, "--match-ratio", a, "allowed a number from 0 to 1");
            w->match_ratio = d;
            break;
        case O_ZIPF:
            if (gj_cli_parse_double(a, &d) || d < 0 || d > 10)
                return gj_cli_bad(cmd, "--zipf", a, "allowed a number from 0 (uniform) to 10");
            w->zipf = d;
            break;
        case O_SRUN:
            if (gj_cli_parse_double(a, &d) || d < 1 || d > (double)GJ_MAX_ROWS)
                return gj_cli_bad(cmd, "--s-run", a, "allowed a number from 1 (no runs) to 2^40");
            w->s_run = d;
            break;
        case O_PAYLOADS:
        case O_RP:
        case O_SP:
            if (gj_cli_parse_int(a, 0, GJ_MAX_PAYLOADS, &l))
                return gj_cli_bad(cmd, c == O_PAYLOADS ? "--payloads" : c == O_RP ? "--r-payloads" : "--s-payloads",
                                  a, "allowed 0 to 8");
            if (c != O_SP) w->r_payloads = (int)l;
            if (c != O_RP) w->s_payloads = (int)l;
            break;
        case O_AGGS:
            if (gj_cli_parse_aggs(cmd, a, w)) return GJ_EXIT_USAGE;
            break;
        case O_SORTED: w->sorted_output = 1; break;
        case O_SKEYS: w->sorted_keys = 1; break;
        case O_KRANGE:
            if (gj_cli_parse_size(a, 1ull << 62, &w->key_range) || !w->key_range)
                return gj_cli_bad(cmd, "--key-range", a, "allowed 1 to 2^62 (max - min + 1 of the keys)");
            break;
        case O_RSORT: w->r_sorted = 1; break;
        case O_SSORT: w->s_sorted = 1; break;
        case O_FILTER:
            if (gj_filter_parse(a, &w->filter)) return gj_cli_bad(cmd, "--filter", a, "allowed auto, on or off");
            break;
        case O_KB:
            if (gj_cli_parse_width(cmd, "--key-bytes", a, &w->key_bytes)) return GJ_EXIT_USAGE;
            break;
        case O_PB:
            if (gj_cli_parse_width(cmd, "--payload-bytes", a, &w->payload_bytes)) return GJ_EXIT_USAGE;
            break;
        case O_PROFILE:
            if (!profile) goto unknown;
            *profile = a;
            break;
        case O_DB:
            if (!db) goto unknown;
            *db = a;
            break;
        case O_JSON:
            if (!json) goto unknown;
            *json = 1;
            break;
        case O_HELP:
        case 'h': return -1;
        case ':':
            fprintf(stderr, "gjadvise %s: %s needs a value (gjadvise %s --help)\n", cmd,
                    argv[optind - 1], cmd);
            return GJ_EXIT_USAGE;
        default:
        unknown:
            fprintf(stderr, "gjadvise %s: unknown flag '%s' (gjadvise %s --help)\n", cmd,
                    argv[optind - 1], cmd);
            return GJ_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gjadvise %s: unexpected argument '%s' (gjadvise %s --help)\n", cmd,
                argv[optind], cmd);
        return GJ_EXIT_USAGE;
    }
    if (w->op == GJ_OP_GROUPBY && w->groups > w->rows) {
        char buf[32];
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)w->groups);
        return gj_cli_bad(cmd, "--groups", buf, "allowed 1 to the number of rows (--rows)");
    }
    gj_cli_note_span(cmd, w);
    return 0;
}

int gj_cli_recommend(int argc, char **argv)
{
    const char *cmd = "recommend", *profile_name = NULL, *db = NULL;
    int json = 0, code;
    gj_workload w;
    gj_profile *p = NULL;
    gj_ctx ctx = {0};
    char note[320] = "";
    char *out = NULL;
    gj_plan plan;

    code = gj_cli_parse_workload(cmd, argc, argv, &w, &profile_name, &db, &json);
    if (code < 0) {
        help();
        return GJ_EXIT_OK;
    }
    if (code) return code;
    code = gj_cli_pick_profile(cmd, db, profile_name, &p, note, sizeof note);
    if (code) goto done;
    int rc = gj_advise(&w, p, &plan, &ctx);
    if (rc != GJ_OK && rc != GJ_ERR_INFEASIBLE) {
        code = gj_cli_fail(cmd, rc, &ctx, "advising");
        goto done;
    }
    if (json) {
        if (gj_plan_to_json(&plan, &w, &out) != GJ_OK) {
            code = gj_cli_fail(cmd, GJ_ERR_NOMEM, NULL, "writing JSON");
            goto done;
        }
        printf("%s\n", out);
    } else if (rc == GJ_OK) {
        print_table(&plan, &w, p, note);
    }
    if (rc == GJ_ERR_INFEASIBLE) {
        fprintf(stderr, "gjadvise %s: %s\n", cmd, plan.reason);
        code = GJ_EXIT_INFEASIBLE;
    }
done:
    free(out);
    gj_profile_free(p);
    return code;
}
