/* gjadvise validate: run a grid of join and group-by workloads on the local
 * GPU, every feasible implementation on each, log measured and predicted
 * times in the store (resumable), and summarise how good the predictions
 * and the advisor's choices are; --replay recomputes the summary for any
 * profile from the store without a GPU. Library side: validate/. */
#include "cli/cli.h"
#include "common/internal.h"
#include "validate/validate.h"

#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXIT_INTERRUPTED 130

static void help(void)
{
    printf("usage: gjadvise validate [--grid default|quick|FILE] [--quick] [--repeat N] [--profile NAME]\n"
           "                         [--db PATH] [--replay [--device UUID]] [--holdout] [--report DIR] [--json]\n"
           "\n"
           "Runs a grid of join and group-by workloads on the local GPU (sweeps of match ratio, payload\n"
           "columns, |R| and |S|, key and payload widths, Zipf skew, group count, aggregates), executes\n"
           "every implementation the model calls feasible on each (inputs generated on the GPU once per\n"
           "workload, one warm-up, median of --repeat runs by CUDA events), logs measured and predicted\n"
           "times in the store with tag validate:GRID, and prints:\n"
           "  - per implementation the median and largest |predicted/measured - 1|, on all points and on\n"
           "    the held-out ones (the split gjadvise tune leaves out of fitting);\n"
           "  - the advisor's regret: measured time of its choice / fastest measured - 1, mean and max;\n"
           "  - crossovers predicted vs measured: the match ratio where PHJ-TR overtakes PHJ-UR, the group\n"
           "    count where SGB-TR overtakes SGB-UR, where SGB-DE-TR overtakes SGB-TR.\n"
           "Workloads already in the store for this grid and GPU are not run again: an interrupted run\n"
           "(Ctrl-C) resumes where it stopped. Grid file format: validate/VALIDATE.md.\n"
           "\n"
           "flags:\n"
           "  --grid G      default (148 workloads, mostly 2^24-2^26-row joins and group-bys, some of\n"
           "                TPC-H's sizes; about a minute on an H200), quick (17 workloads at 2^22\n"
           "                rows), or a JSON grid file;\n"
           "                default: default\n"
           "  --quick       same as --grid quick\n"
           "  --repeat N    timed runs per implementation after the warm-up, 1..1000; default 7\n"
           "  --profile P   profile for predictions and the advisor; default: the newest profile of this\n"
           "                GPU in the store, else the first built-in (a100-paper)\n"
           "  --db PATH     store; default $%s, else $XDG_DATA_HOME/gjadvise/gjadvise.db\n"
           "  --replay      no GPU: summarise measurements already in the store for this grid, with\n"
           "                predictions and choices recomputed for --profile (compare profiles on the\n"
           "                same measurements)\n"
           "  --device UUID with --replay: which GPU's measurements (needed only when the store holds\n"
           "                this grid for several GPUs)\n"
           "  --holdout     errors and regret over held-out workloads only\n"
           "  --report DIR  write DIR/index.html (one SVG chart per sweep: measured solid, predicted\n"
           "                dashed; regret per workload) and DIR/points.csv\n"
           "  --json        one JSON object on stdout instead of tables\n"
           "\n"
           "A progress bar with the time left goes to stderr (one line per workload when stderr is not\n"
           "a terminal). SIGINT/SIGTERM abandon the workload in flight unwritten and exit 130.\n"
           "\n"
           "examples:\n"
           "  gjadvise validate --quick\n"
           "  gjadvise validate --profile h200-measured --report out/validate\n"
           "  gjadvise validate --replay --profile a100-paper --db validate.db\n"
           "  gjadvise validate --grid my-grid.json --repeat 9 --json\n"
           "\n"
           "exit codes: 0 ok, 1 failure, 2 bad flag or value, 3 no GPU, 4 store error,\n"
           "            5 bad grid file, 130 interrupted (run the same command again to resume)\n",
           GJ_DB_ENV);
}

static volatile sig_atomic_t g_stop;   /* set by SIGINT / SIGTERM */

static void on_signal(int sig)
{
    (void)sig;
    g_stop = 1;
}

static int should_stop(void *user)
{
    (void)user;
    return g_stop != 0;
}

typedef struct prog {
    int tty;
} prog;

static void fmt_dur(char *b, size_t n, double s)
{
    if (s < 0) snprintf(b, n, "?");
    else if (s < 60) snprintf(b, n, "%.0fs", s);
    else if (s < 3600) snprintf(b, n, "%dm%02ds", (int)s / 60, (int)s % 60);
    else snprintf(b, n, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

static void on_progress(void *user, const gj_vprogress *p)
{
    prog *pg = user;
    char el[32], left[32];
    fmt_dur(el, sizeof el, p->elapsed_s);
    fmt_dur(left, sizeof left, p->left_s);
    if (pg->tty) {
        int w = 30, fill = p->total ? (int)((double)p->done * w / p->total) : w;
        char bar[40];
        for (int i = 0; i < w; i++) bar[i] = i < fill ? '#' : '-';
        bar[w] = 0;
        fprintf(stderr, "\r\033[K[%s] %d/%d %-10s %s elapsed, ~%s left", bar, p->done, p->total,
                p->impl ? p->impl : "", el, left);
        if (p->line && p->done == p->total) fprintf(stderr, "\n");
    } else if (p->line) {
        fprintf(stderr, "validate: [%d/%d] %s (%s elapsed, ~%s left)\n", p->done, p->total, p->line, el, left);
    }
    fflush(stderr);
}

int gj_cli_validate(int argc, char **argv)
{
    const char *cmd = "validate";
    enum { O_GRID = 1, O_QUICK, O_REPEAT, O_PROFILE, O_DB, O_REPLAY, O_DEVICE, O_HOLDOUT, O_REPORT, O_JSON, O_HELP };
    static const struct option lo[] = {
        {"grid", 1, 0, O_GRID}, {"quick", 0, 0, O_QUICK}, {"repeat", 1, 0, O_REPEAT},
        {"profile", 1, 0, O_PROFILE}, {"db", 1, 0, O_DB}, {"replay", 0, 0, O_REPLAY},
        {"device", 1, 0, O_DEVICE}, {"holdout", 0, 0, O_HOLDOUT}, {"report", 1, 0, O_REPORT},
        {"json", 0, 0, O_JSON}, {"help", 0, 0, O_HELP}, {0, 0, 0, 0}};
    const char *grid_name = "default", *profile = NULL, *dbf = NULL, *device = NULL, *report = NULL;
    int quick = 0, replay = 0, holdout = 0, json = 0, c, ex = GJ_EXIT_OK, rc;
    long repeat = 7;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case O_GRID:
            if (!*v) return gj_cli_bad(cmd, "--grid", v, "allowed default, quick or a JSON grid file");
            grid_name = v;
            break;
        case O_QUICK: quick = 1; break;
        case O_REPEAT:
            if (gj_cli_parse_int(v, 1, 1000, &repeat)) return gj_cli_bad(cmd, "--repeat", v, "allowed 1 to 1000");
            break;
        case O_PROFILE: profile = v; break;
        case O_DB: dbf = v; break;
        case O_REPLAY: replay = 1; break;
        case O_DEVICE:
            if (!*v || strlen(v) >= 48) return gj_cli_bad(cmd, "--device", v, "allowed a GPU UUID as stored (GPU-...)");
            device = v;
            break;
        case O_HOLDOUT: holdout = 1; break;
        case O_REPORT:
            if (!*v) return gj_cli_bad(cmd, "--report", v, "allowed a directory");
            report = v;
            break;
        case O_JSON: json = 1; break;
        case O_HELP: case 'h': help(); return GJ_EXIT_OK;
        default:
            fprintf(stderr, "gjadvise %s: %s: unknown flag or missing value; see gjadvise validate --help\n", cmd,
                    argv[optind - 1]);
            return GJ_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gjadvise %s: %s: unexpected argument; see gjadvise validate --help\n", cmd, argv[optind]);
        return GJ_EXIT_USAGE;
    }
    if (quick) {
        if (strcmp(grid_name, "default") && strcmp(grid_name, "quick"))
            return gj_cli_bad(cmd, "--quick", grid_name, "--quick is --grid quick; give one of them");
        grid_name = "quick";
    }
    if (device && !replay) return gj_cli_bad(cmd, "--device", device, "allowed only with --replay (a run uses the local GPU)");

    gj_ctx *ctx = NULL;
    gj_grid *g = NULL;
    gj_profile *prof = NULL;
    gj_db *db = NULL;
    gj_exec_record *recs = NULL;
    gj_vresult *res = NULL;
    gj_vsummary *sum = NULL;
    gj_vrun *run = NULL;
    char note[256] = "", uuid[48] = "";
    int nrec = 0;
    if (gj_ctx_new(&ctx)) return GJ_EXIT_FAIL;
    if ((rc = gj_grid_load(grid_name, &g, ctx))) {
        ex = gj_cli_fail(cmd, rc, ctx, "--grid");
        if (rc == GJ_ERR_INVALID) ex = GJ_EXIT_INPUT;
        goto done;
    }
    res = calloc((size_t)g->n_points, sizeof *res);
    sum = calloc(1, sizeof *sum);
    run = calloc(1, sizeof *run);
    if (!res || !sum || !run) { ex = gj_cli_fail(cmd, GJ_ERR_NOMEM, NULL, "memory"); goto done; }

    if (replay) {
        rc = gj_cli_open_db(cmd, dbf, GJ_DB_OPEN_EXISTING, &db, &ex);
        if (rc == GJ_ERR_NOTFOUND) {
            fprintf(stderr, "gjadvise %s: --replay: no store%s%s (run gjadvise validate on a GPU first)\n", cmd,
                    dbf ? " at " : "", dbf ? dbf : "");
            ex = GJ_EXIT_STORE;
            goto done;
        }
        if (rc) goto done;
        if ((ex = gj_cli_pick_profile(cmd, dbf, profile, &prof, note, sizeof note))) goto done;
        if ((rc = gj_db_exec_list(db, device, &recs, &nrec, ctx))) { ex = gj_cli_fail(cmd, rc, ctx, "reading the store"); goto done; }
        int ndev = 0;
        for (int i = 0; i < nrec; i++) {
            if (strcmp(recs[i].tag, g->tag)) continue;
            if (!ndev || strcmp(uuid, recs[i].device_uuid)) {
                if (ndev && !device) {
                    fprintf(stderr, "gjadvise %s: --device: the store holds grid %s for several GPUs (%s, %s, ...); "
                                    "allowed: one of them with --device UUID\n", cmd, g->name, uuid, recs[i].device_uuid);
                    ex = GJ_EXIT_USAGE;
                    goto done;
                }
                gj_strlcpy(uuid, recs[i].device_uuid, sizeof uuid);
                ndev++;
            }
        }
        if (!ndev) {
            fprintf(stderr, "gjadvise %s: --replay: the store has no executions tagged %s%s%s (run gjadvise validate "
                            "--grid %s on that GPU first)\n", cmd, g->tag, device ? " for device " : "",
                    device ? device : "", grid_name);
            ex = GJ_EXIT_FAIL;
            goto done;
        }
    } else {
        if ((ex = gj_cli_exec_setup(cmd, dbf, profile, 0, &prof, &db, note, sizeof note))) goto done;
        if (!db) {
            fprintf(stderr, "gjadvise %s: validate keeps its measurements in the store; give a writable --db\n", cmd);
            ex = GJ_EXIT_STORE;
            goto done;
        }
        gj_device dev;
        if ((rc = gj_gpu_identify(0, &dev, ctx))) { ex = gj_cli_fail(cmd, rc, ctx, "GPU"); goto done; }
        gj_strlcpy(uuid, dev.uuid, sizeof uuid);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        prog pg = {isatty(2)};
        gj_validate_opts o = {0};
        o.repeat = (int)repeat;
        o.should_stop = should_stop;
        o.progress = on_progress;
        o.user = &pg;
        fprintf(stderr, "validate: grid %s, %d workloads, %s, %s (%s)\n", g->name, g->n_points, note, dev.name, uuid);
        rc = gj_validate_run(g, prof, db, &o, run, ctx);
        if (pg.tty) fprintf(stderr, "\n");
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        if (run->n_resumed)
            fprintf(stderr, "validate: resuming: %d of %d workloads already measured\n", run->n_resumed, g->n_points);
        if (rc) { ex = gj_cli_fail(cmd, rc, ctx, "validate"); goto done; }
        if (run->interrupted) {
            fprintf(stderr, "validate: interrupted; %d workloads measured this run, %d in all; nothing of the "
                            "workload in flight was written. Resume with:\n  gjadvise", run->n_measured,
                    run->n_resumed + run->n_measured);
            for (int i = 0; i < argc; i++) fprintf(stderr, " %s", argv[i]);
            fprintf(stderr, "\n");
            ex = EXIT_INTERRUPTED;
            goto done;
        }
        if ((rc = gj_db_exec_list(db, uuid, &recs, &nrec, ctx))) { ex = gj_cli_fail(cmd, rc, ctx, "reading the store"); goto done; }
    }
    if ((rc = gj_validate_collect(g, recs, nrec, uuid, prof, res, ctx)) ||
        (rc = gj_validate_summarize(g, res, holdout, sum, ctx))) {
        ex = gj_cli_fail(cmd, rc, ctx, "summary");
        goto done;
    }
    if (json) {
        char *js = NULL;
        if ((rc = gj_validate_summary_json(g, res, sum, prof, uuid, &js))) { ex = gj_cli_fail(cmd, rc, NULL, "JSON"); goto done; }
        printf("%s\n", js);
        gj_free(js);
    } else {
        printf("validate: grid %s (%d workloads, %d measured), %s, device %s\n\n", g->name, g->n_points, sum->n_used,
               note, uuid);
        gj_validate_summary_print(stdout, g, res, sum);
        if (!replay && run->n_skips) {
            printf("\nnot run this time (%d):\n", run->n_skips);
            int shown = run->n_skips < 24 ? run->n_skips : 24;
            for (int i = 0; i < shown; i++) printf("  %s\n", run->skips[i]);
            if (shown < run->n_skips) printf("  ... and %d more\n", run->n_skips - shown);
        }
    }
    if (report) {
        if ((rc = gj_validate_report(report, g, res, sum, prof, uuid, ctx))) { ex = gj_cli_fail(cmd, rc, ctx, "--report"); goto done; }
        fprintf(stderr, "validate: report written to %s/index.html and %s/points.csv\n", report, report);
    }
done:
    free(res);
    free(sum);
    free(run);
    gj_free(recs);
    gj_grid_free(g);
    gj_profile_free(prof);
    gj_db_close(db);
    gj_ctx_free(ctx);
    return ex;
}
