/* gjadvise explain: a DuckDB plan annotated with the GPU implementation to
 * run for every hash join and hash group-by (mapping: explain/explain.h). */
#include "cli/cli.h"
#include "common/internal.h"
#include "explain/explain.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLAN_BYTES (256u << 20)

static void help(void)
{
    printf(
        "usage: gjadvise explain PLAN.json|- [--profile NAME] [--db PATH] [--uncertainty F]\n"
        "                        [--payload-bytes 4|8] [--json]\n"
        "\n"
        "Reads the JSON that DuckDB prints for EXPLAIN (FORMAT JSON) ... (DuckDB >= 1.1; the\n"
        "JSON is the second column of the EXPLAIN result) and prints the plan as an indented\n"
        "tree in which every hash join and hash group-by carries the workload read from\n"
        "DuckDB's estimates, the GPU implementation the cost models recommend, its predicted\n"
        "time and the runner-up, and, over a box of estimates off by a factor F either way,\n"
        "the time range, the implementation with the least worst-case regret and FLIPS when\n"
        "the fastest implementation changes inside the box.\n"
        "\n"
        "How nodes are read:\n"
        "  HASH_JOIN              build side = DuckDB's right child, probe side = the left;\n"
        "                         match ratio = output estimate / probe rows (many-to-many\n"
        "                         above 1); 4-byte key, 8 for a composite key; payloads = the\n"
        "                         columns each side carries minus its keys (at most 8)\n"
        "  HASH_GROUP_BY, PERFECT_HASH_GROUP_BY\n"
        "                         rows = the child's estimate, groups = the node's (a perfect\n"
        "                         hash group-by: at most 2^12); sum, min, max, count, avg,\n"
        "                         count(DISTINCT), median/quantile; others noted, as sum\n"
        "  *_DELIM_JOIN           its duplicate elimination, as a group-by of the first child\n"
        "  anything else          shown, not annotated\n"
        "\n"
        "flags:\n"
        "  PLAN.json | -          the plan file, or - for standard input\n"
        "  --profile NAME         a stored or built-in profile (default: this GPU's newest,\n"
        "                         else a100-paper)\n"
        "  --db PATH              the store (default $%s or the XDG data folder)\n"
        "  --uncertainty F        estimates may be off by F either way, F >= 1 (default 4;\n"
        "                         1: no ranges)\n"
        "  --payload-bytes 4|8    width of every payload column (default 8)\n"
        "  --json                 the annotated tree as JSON\n"
        "\n"
        "examples:\n"
        "  python3 -c \"import duckdb; c = duckdb.connect(); c.sql('load tpch');\n"
        "      c.sql('call dbgen(sf=1)'); q = c.sql('select query from tpch_queries() where\n"
        "      query_nr = 5').fetchone()[0];\n"
        "      print(c.sql('EXPLAIN (FORMAT JSON) ' + q).fetchall()[0][1])\" > q05.json\n"
        "  gjadvise explain q05.json\n"
        "  gjadvise explain --uncertainty 10 --json - < q05.json\n"
        "\n"
        "exit codes: 0 ok, 2 bad flag or value, 4 store error, 5 plan file missing or\n"
        "            malformed (the message names the node)\n",
        GJ_DB_ENV);
}

/* Whole file (or stdin) as a NUL-terminated string. */
static int read_all(FILE *f, char **out)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) return GJ_ERR_NOMEM;
    for (;;) {
        if (len + 1 >= cap) {
            if (cap >= MAX_PLAN_BYTES) {
                free(buf);
                return GJ_ERR_INVALID;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return GJ_ERR_NOMEM;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        free(buf);
        return GJ_ERR_IO;
    }
    buf[len] = 0;
    if (strlen(buf) != len) {
        free(buf);
        return GJ_ERR_PARSE;
    }
    *out = buf;
    return GJ_OK;
}

enum { O_PROFILE = 1000, O_DB, O_UNC, O_PB, O_JSON, O_HELP };

static const struct option opts[] = {
    {"profile", required_argument, 0, O_PROFILE},
    {"db", required_argument, 0, O_DB},
    {"uncertainty", required_argument, 0, O_UNC},
    {"payload-bytes", required_argument, 0, O_PB},
    {"json", no_argument, 0, O_JSON},
    {"help", no_argument, 0, O_HELP},
    {0, 0, 0, 0},
};

int gj_cli_explain(int argc, char **argv)
{
    const char *cmd = "explain", *profile = NULL, *db = NULL, *file = NULL;
    gj_explain_opts o = {.uncertainty = GJ_EXPLAIN_DEFAULT_UNCERTAINTY, .payload_bytes = 8};
    int json = 0, c, code = GJ_EXIT_OK, rc;
    char *text = NULL, *res = NULL;
    gj_profile *p = NULL;
    gj_explain *e = NULL;
    gj_ctx ctx = {0};
    char note[320] = "";

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case O_PROFILE: profile = optarg; break;
        case O_DB: db = optarg; break;
        case O_UNC:
            if (gj_cli_parse_double(optarg, &o.uncertainty) || o.uncertainty < 1 ||
                o.uncertainty > 1e6)
                return gj_cli_bad(cmd, "--uncertainty", optarg,
                                  "allowed a factor from 1 (no ranges) to 1e6");
            break;
        case O_PB:
            if (gj_cli_parse_width(cmd, "--payload-bytes", optarg, &o.payload_bytes)) return GJ_EXIT_USAGE;
            break;
        case O_JSON: json = 1; break;
        case O_HELP:
        case 'h': help(); return GJ_EXIT_OK;
        case ':':
            fprintf(stderr, "gjadvise %s: %s needs a value (gjadvise %s --help)\n", cmd,
                    argv[optind - 1], cmd);
            return GJ_EXIT_USAGE;
        default:
            fprintf(stderr, "gjadvise %s: unknown flag '%s' (gjadvise %s --help)\n", cmd,
                    argv[optind - 1], cmd);
            return GJ_EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "gjadvise %s: PLAN.json missing: give a file or - for standard input "
                        "(gjadvise %s --help)\n", cmd, cmd);
        return GJ_EXIT_USAGE;
    }
    if (optind + 1 < argc) {
        fprintf(stderr, "gjadvise %s: unexpected argument '%s': one plan file at a time\n", cmd,
                argv[optind + 1]);
        return GJ_EXIT_USAGE;
    }
    file = argv[optind];

    FILE *f = strcmp(file, "-") ? fopen(file, "rb") : stdin;
    if (!f) {
        fprintf(stderr, "gjadvise %s: %s: cannot open: %s\n", cmd, file, strerror(errno));
        return GJ_EXIT_INPUT;
    }
    rc = read_all(f, &text);
    if (f != stdin) fclose(f);
    if (rc != GJ_OK) {
        fprintf(stderr, "gjadvise %s: %s: %s\n", cmd, file,
                rc == GJ_ERR_INVALID  ? "larger than 256 MiB: not an EXPLAIN output"
                : rc == GJ_ERR_PARSE ? "holds a NUL byte: not JSON text"
                : rc == GJ_ERR_NOMEM ? "out of memory"
                                     : "read error");
        return rc == GJ_ERR_NOMEM ? GJ_EXIT_FAIL : GJ_EXIT_INPUT;
    }
    code = gj_cli_pick_profile(cmd, db, profile, &p, note, sizeof note);
    if (code) goto done;
    rc = gj_explain_plan(text, p, &o, &e, &ctx);
    if (rc != GJ_OK) {
        fprintf(stderr, "gjadvise %s: %s: %s\n", cmd, file, *ctx.msg ? ctx.msg : gj_errstr(rc));
        code = rc == GJ_ERR_PARSE ? GJ_EXIT_INPUT : gj_cli_exit_for(rc);
        goto done;
    }
    rc = json ? gj_explain_json(e, &res) : gj_explain_text(e, &res);
    if (rc != GJ_OK) {
        code = gj_cli_fail(cmd, rc, NULL, "writing the result");
        goto done;
    }
    if (!json) printf("%s\n", note);
    fputs(res, stdout);
    if (json) fputc('\n', stdout);
done:
    free(text);
    free(res);
    gj_explain_free(e);
    gj_profile_free(p);
    return code;
}
