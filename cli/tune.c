/* gjadvise tune: refit a profile's model corrections from the execution log
 * and store the result as the profile's next version, only when it predicts
 * the held-out executions better. */
#include "cli/cli.h"
#include "common/internal.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void help(void)
{
    printf("usage: gjadvise tune [--profile NAME] [--db PATH] [--device UUID|any] [--tag PREFIX]\n"
           "                     [--ridge X] [--min-train N] [--dry-run] [--json]\n"
           "\n"
           "Learns how this GPU really runs each implementation from the execution log\n"
           "(every `gjadvise run`, `bench` and `validate` is logged) and stores what it\n"
           "learned as the profile's next version. For each implementation the model's\n"
           "time is a sum of terms by kind (sequential traffic, partition passes, sorts,\n"
           "random gathers, hashing, atomics, fixed costs); tune scales each kind and\n"
           "adds a fixed cost, by least squares on relative errors (GSL), coefficients\n"
           "kept >= 0 and pulled towards 1 (the calibrated physics) by the ridge.\n"
           "\n"
           "Half of the workloads (a fixed hash of each workload) are held out: the fit\n"
           "sees only the other half, and the held-out half judges it. An implementation\n"
           "keeps its old model if the new one predicts its held-out runs worse, and the\n"
           "profile is saved only if the held-out median error goes down: tuning never\n"
           "replaces a profile with a worse one. `recommend`, `run` and `validate` use\n"
           "the newest version of a profile; `gjadvise profiles diff NAME@1 NAME@2`\n"
           "shows what changed.\n"
           "\n"
           "  --profile NAME  profile to start from (default: the newest for the local GPU;\n"
           "                  required on a machine without one)\n"
           "  --db PATH       store (default $%s, else the XDG data folder)\n"
           "  --device UUID   learn only from this GPU's executions (default: the profile's\n"
           "                  GPU if the log has runs of it, else the one GPU the log\n"
           "                  holds); `any` uses every row\n"
           "  --tag PREFIX    only executions whose tag starts with PREFIX (run, bench,\n"
           "                  validate:default, ...)\n"
           "  --ridge X       pull towards the untuned model, >= 0 (default 0.05)\n"
           "  --min-train N   implementations with fewer training runs stay as they are\n"
           "                  (default 6)\n"
           "  --dry-run       fit and report, save nothing\n"
           "  --json          the report as JSON\n"
           "\n"
           "examples:\n"
           "  gjadvise validate && gjadvise tune\n"
           "  gjadvise tune --profile h200-measured --db ./lab.db --tag validate:\n"
           "  gjadvise tune --dry-run --json\n"
           "\n"
           "exit codes: 0 saved or kept (the output says which), 1 nothing to learn from,\n"
           "            2 bad flag, 4 store error\n",
           GJ_DB_ENV);
}

/* Default device filter: the profile's GPU if the log has rows of it, else
 * the only GPU in the log. Returns 0 and sets *uuid (NULL = every row), or
 * prints why and returns an exit code. */
static int pick_device(const char *cmd, const gj_profile *p, const gj_exec_record *rows, int n,
                       const char **uuid)
{
    enum { MAX_GPUS = 64 };
    const char *mine = gj_profile_device(p)->uuid, *seen[MAX_GPUS];
    int count[MAX_GPUS], distinct = 0;
    *uuid = NULL;
    for (int i = 0; i < n; i++) {
        const char *u = rows[i].device_uuid;
        if (*mine && !strcmp(u, mine)) {
            *uuid = mine;
            return 0;
        }
        int k = 0;
        while (k < distinct && strcmp(seen[k], u)) k++;
        if (k == distinct && distinct < MAX_GPUS) seen[distinct] = u, count[distinct++] = 0;
        if (k < distinct) count[k]++;
    }
    if (distinct <= 1) {
        *uuid = distinct ? seen[0] : NULL;
        return 0;
    }
    fprintf(stderr, "gjadvise %s: the log holds runs of %d%s GPUs and none is %s's; choose one with "
                    "--device UUID (or --device any):\n", cmd, distinct,
            distinct == MAX_GPUS ? " or more" : "", gj_profile_name(p));
    for (int k = 0; k < distinct; k++)
        fprintf(stderr, "  %s  %d executions\n", seen[k][0] ? seen[k] : "(none)", count[k]);
    return GJ_EXIT_USAGE;
}

static void pct(char *buf, size_t n, double v)
{
    if (isnan(v)) snprintf(buf, n, "-");
    else snprintf(buf, n, "%.1f%%", 100 * v);
}

static void print_json(const gj_tune_report *r, const gj_profile *base, const gj_profile *p,
                       const char *saved)
{
    gj_sbuf b = {0};
    gj_sbuf_printf(&b, "{\"profile\":");
    gj_sbuf_json_str(&b, gj_profile_name(base));
    gj_sbuf_printf(&b, ",\"base_version\":%d,\"saved\":%s", gj_profile_version(base),
                   saved ? "true" : "false");
    gj_sbuf_printf(&b, ",\"version\":%d,\"rows\":%d,\"used\":%d", saved ? gj_profile_version(p) : 0,
                   r->n_rows, r->n_used);
    const char *keys[] = {"holdout_before", "holdout_after", "train_before", "train_after"};
    const double vals[] = {r->holdout_before, r->holdout_after, r->train_before, r->train_after};
    for (int i = 0; i < 4; i++) {
        gj_sbuf_printf(&b, ",\"%s\":", keys[i]);
        if (isnan(vals[i])) gj_sbuf_printf(&b, "null");
        else gj_sbuf_json_num(&b, vals[i]);
    }
    gj_sbuf_printf(&b, ",\"improved\":%s,\"impls\":[", r->improved ? "true" : "false");
    for (int i = 0; i < r->n_impls; i++) {
        const gj_tune_impl *t = &r->impls[i];
        gj_sbuf_printf(&b, "%s{\"impl\":\"%s\",\"n_train\":%d,\"n_holdout\":%d,\"accepted\":%s",
                       i ? "," : "", gj_impl_name(t->impl), t->n_train, t->n_holdout,
                       t->accepted ? "true" : "false");
        const char *k2[] = {"train_before", "train_after", "holdout_before", "holdout_after"};
        const double v2[] = {t->train_before, t->train_after, t->holdout_before, t->holdout_after};
        for (int j = 0; j < 4; j++) {
            gj_sbuf_printf(&b, ",\"%s\":", k2[j]);
            if (isnan(v2[j])) gj_sbuf_printf(&b, "null");
            else gj_sbuf_json_num(&b, v2[j]);
        }
        if (t->fit.set) {
            gj_sbuf_printf(&b, ",\"fit\":{");
            for (int k = 0; k < GJ_TERMS; k++) {
                gj_sbuf_printf(&b, "%s\"%s\":", k ? "," : "", gj_term_name((gj_term)k));
                gj_sbuf_json_num(&b, t->fit.coef[k]);
            }
            gj_sbuf_printf(&b, ",\"intercept_ms\":");
            gj_sbuf_json_num(&b, t->fit.intercept_ms);
            gj_sbuf_printf(&b, "}");
        }
        gj_sbuf_printf(&b, ",\"why\":");
        gj_sbuf_json_str(&b, t->why);
        gj_sbuf_printf(&b, "}");
    }
    gj_sbuf_printf(&b, "]}");
    char *s = NULL;
    if (gj_sbuf_take(&b, &s) == GJ_OK) printf("%s\n", s);
    free(s);
}

static void print_table(const gj_tune_report *r)
{
    printf("%-11s %7s %8s  %-17s %-17s %s\n", "impl", "train", "held-out", "train |err|",
           "held-out |err|", "result");
    for (int i = 0; i < r->n_impls; i++) {
        const gj_tune_impl *t = &r->impls[i];
        char a[16], b[16], c[16], d[16], tr[40], ho[40];
        pct(a, sizeof a, t->train_before), pct(b, sizeof b, t->train_after);
        pct(c, sizeof c, t->holdout_before), pct(d, sizeof d, t->holdout_after);
        snprintf(tr, sizeof tr, "%s -> %s", a, b);
        snprintf(ho, sizeof ho, "%s -> %s", c, d);
        printf("%-11s %7d %8d  %-17s %-17s %s\n", gj_impl_name(t->impl), t->n_train, t->n_holdout,
               tr, ho, t->accepted ? "refitted" : "kept");
        if (t->fit.set && t->accepted) {
            printf("            ");
            for (int k = 0; k < GJ_TERMS; k++)
                if (t->fit.coef[k] != 1) printf(" %s x%.3g", gj_term_name((gj_term)k), t->fit.coef[k]);
            printf(" + %.3g ms\n", t->fit.intercept_ms);
        } else if (!t->accepted) {
            printf("             %s\n", t->why);
        }
    }
    char a[16], b[16], c[16], d[16];
    pct(a, sizeof a, r->holdout_before), pct(b, sizeof b, r->holdout_after);
    pct(c, sizeof c, r->train_before), pct(d, sizeof d, r->train_after);
    printf("\nall: median |predicted/measured - 1| held-out %s -> %s, training %s -> %s "
           "(%d of %d executions usable)\n", a, b, c, d, r->n_used, r->n_rows);
}

int gj_cli_tune(int argc, char **argv)
{
    const char *cmd = "tune", *db_flag = NULL, *name = NULL, *device = NULL, *tag = NULL;
    const char *ridge_s = NULL, *min_s = NULL;
    int json = 0, dry = 0, c, code = GJ_EXIT_OK, rc, n = 0;
    gj_ctx ctx = {0};
    gj_db *db = NULL;
    gj_profile *base = NULL, *tuned = NULL;
    gj_exec_record *rows = NULL;
    gj_tune_report rep;
    gj_tune_opts o = {0};
    char note[256] = "";
    static const struct option opts[] = {{"profile", required_argument, 0, 'p'},
                                         {"db", required_argument, 0, 'd'},
                                         {"device", required_argument, 0, 'D'},
                                         {"tag", required_argument, 0, 't'},
                                         {"ridge", required_argument, 0, 'r'},
                                         {"min-train", required_argument, 0, 'm'},
                                         {"dry-run", no_argument, 0, 'n'},
                                         {"json", no_argument, 0, 'j'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'p': name = optarg; break;
        case 'd': db_flag = optarg; break;
        case 'D': device = optarg; break;
        case 't': tag = optarg; break;
        case 'r': ridge_s = optarg; break;
        case 'm': min_s = optarg; break;
        case 'n': dry = 1; break;
        case 'j': json = 1; break;
        case 'h': help(); return GJ_EXIT_OK;
        default:
            fprintf(stderr, "gjadvise %s: unknown flag or missing value '%s' (gjadvise tune --help)\n",
                    cmd, argv[optind - 1]);
            return GJ_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gjadvise %s: unexpected argument '%s'\n", cmd, argv[optind]);
        return GJ_EXIT_USAGE;
    }
    if (ridge_s && (gj_cli_parse_double(ridge_s, &o.ridge) || o.ridge < 0))
        return gj_cli_bad(cmd, "--ridge", ridge_s, "allowed: a number >= 0");
    long mt = 0;
    if (min_s && gj_cli_parse_int(min_s, 1, 1000000, &mt))
        return gj_cli_bad(cmd, "--min-train", min_s, "allowed: an integer 1 to 1000000");
    o.min_train = (int)mt;
    o.tag_prefix = tag;

    /* The log lives in the store: it must exist. */
    if (gj_cli_open_db(cmd, db_flag, GJ_DB_OPEN_EXISTING, &db, &code) != GJ_OK) {
        if (!db && code == GJ_EXIT_OK) {
            fprintf(stderr, "gjadvise %s: no store yet, so no executions to learn from (run "
                            "`gjadvise validate` or `gjadvise run` first)\n", cmd);
            code = GJ_EXIT_FAIL;
        }
        goto done;
    }
    int ngpu = 0;
    if (!name && (gj_gpu_count(&ngpu, NULL) != GJ_OK || ngpu < 1)) {
        fprintf(stderr, "gjadvise %s: no GPU here to pick its profile: name the profile to tune "
                        "with --profile NAME (gjadvise profiles list)\n", cmd);
        code = GJ_EXIT_USAGE;
        goto done;
    }
    if ((code = gj_cli_pick_profile(cmd, db_flag, name, &base, note, sizeof note)) != GJ_EXIT_OK)
        goto done;
    if ((rc = gj_db_exec_list(db, NULL, &rows, &n, &ctx)) != GJ_OK) {
        code = gj_cli_fail(cmd, rc, &ctx, "reading the execution log");
        goto done;
    }
    if (device && strcmp(device, "any")) o.device_uuid = device;
    else if (!device && (code = pick_device(cmd, base, rows, n, &o.device_uuid)) != GJ_EXIT_OK)
        goto done;

    rc = gj_tune(base, rows, n, &o, &tuned, &rep, &ctx);
    if (rc == GJ_ERR_NOTFOUND) {
        fprintf(stderr, "gjadvise %s: %s\n", cmd, ctx.msg);
        code = GJ_EXIT_FAIL;
        goto done;
    }
    if (rc != GJ_OK) {
        code = gj_cli_fail(cmd, rc, &ctx, "fitting");
        goto done;
    }
    /* The tuned profile describes the GPU whose runs taught it. */
    if (o.device_uuid && strcmp(o.device_uuid, gj_profile_device(base)->uuid)) {
        gj_device d = *gj_profile_device(base);
        gj_strlcpy(d.uuid, o.device_uuid, sizeof d.uuid);
        gj_profile_set_device(tuned, &d);
    }
    const char *saved = NULL;
    char msg[256];
    if (!rep.improved) {
        snprintf(msg, sizeof msg, "kept %s v%d: the refit does not predict the held-out "
                 "executions better", gj_profile_name(base), gj_profile_version(base));
    } else if (dry) {
        snprintf(msg, sizeof msg, "--dry-run: would save %s as a new version", gj_profile_name(base));
    } else {
        /* A built-in is copied into the store first, so the history reads
         * v1 = what calibration gave, v2 = what tuning learned. */
        if (!strcmp(gj_profile_origin(base), "builtin")) {
            gj_profile *probe = NULL;
            if (gj_db_profile_load(db, gj_profile_name(base), 0, &probe, NULL) == GJ_OK &&
                strcmp(gj_profile_origin(probe), "builtin")) {
                /* the store already has its own versions */
            } else if ((rc = gj_db_profile_save(db, base, NULL, 0, &ctx)) != GJ_OK) {
                gj_profile_free(probe);
                code = gj_cli_fail(cmd, rc, &ctx, "saving the built-in's copy (nothing saved)");
                goto done;
            }
            gj_profile_free(probe);
        }
        if ((rc = gj_db_profile_save(db, tuned, NULL, 0, &ctx)) != GJ_OK) {
            code = gj_cli_fail(cmd, rc, &ctx, "saving the tuned profile (the store is unchanged)");
            goto done;
        }
        saved = gj_profile_name(tuned);
        snprintf(msg, sizeof msg, "saved %s v%d (origin tune); `gjadvise profiles diff %s@%d %s@%d` "
                 "shows what changed", saved, gj_profile_version(tuned), saved,
                 gj_profile_version(base), saved, gj_profile_version(tuned));
    }
    if (json) {
        print_json(&rep, base, tuned, saved);
    } else {
        printf("tune: %s; learning from %s, %s%s\n\n", note,
               o.device_uuid ? o.device_uuid : "every GPU", tag ? "tags " : "every tag",
               tag ? tag : "");
        print_table(&rep);
        printf("%s\n", msg);
    }
done:
    gj_free(rows);
    gj_profile_free(base);
    gj_profile_free(tuned);
    gj_db_close(db);
    return code;
}
