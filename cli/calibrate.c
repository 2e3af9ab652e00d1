/* gjadvise calibrate: measure the local GPU and store its profile. */
#include "cli/cli.h"
#include "common/internal.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void help(void)
{
    printf("usage: gjadvise calibrate [--quick] [--device N] [--db PATH] [--name NAME] [--json]\n"
           "\n"
           "Measures every hardware parameter of the cost models on the local GPU\n"
           "(bandwidths, the B_R random-gather bandwidth and its u-curve, L1/L2, radix\n"
           "partition and sort rates, atomics, hash tables, overheads, host copies),\n"
           "prints one progress line per measurement on stderr, then a table, and saves\n"
           "the profile in the store as the next version of its name (one transaction:\n"
           "a failure leaves the store as it was).\n"
           "\n"
           "  --quick       smaller inputs, fewer repetitions (seconds)\n"
           "  --device N    CUDA device ordinal (default 0)\n"
           "  --db PATH     store (default $%s, else the XDG data folder)\n"
           "  --name NAME   profile name (default from the device: \"NVIDIA H200\" -> h200)\n"
           "  --json        print the profile and every measurement as JSON instead\n"
           "\n"
           "Each value is the median of repeated runs after a warm-up; spread is the\n"
           "interquartile range over the median. A spread over 5%% is measured again;\n"
           "'rerun' marks those, 'WIDE' those still over 5%%.\n"
           "\n"
           "examples:\n"
           "  gjadvise calibrate --quick\n"
           "  gjadvise calibrate --db ./gj.db --name h200-lab\n"
           "  gjadvise calibrate --json > profile.json\n"
           "\n"
           "exit codes: 0 saved, 1 CUDA failure, 2 bad flag, 3 no GPU or driver, 4 store error\n",
           GJ_DB_ENV);
}

static void progress(void *user, int i, int total, const gj_calib_item *it)
{
    const gj_param_info *pi = gj_param_find(it->key, NULL);
    (void)user;
    fprintf(stderr, "calibrate: [%2d/%d] %-17s %12.4g %-7s spread %5.1f%%%s%s  (%.2f s)\n", i + 1, total,
            it->key, it->value, pi ? pi->unit : "", it->spread * 100, it->rerun ? " rerun" : "",
            it->wide ? " WIDE" : "", it->seconds);
}

int gj_cli_calibrate(int argc, char **argv)
{
    const char *cmd = "calibrate", *db_flag = NULL, *name = NULL, *dev_s = NULL;
    int json = 0, quick = 0, c, code = GJ_EXIT_OK, rc, ngpu = 0;
    long device = 0;
    gj_ctx ctx = {0};
    gj_db *db = NULL;
    gj_profile *p = NULL;
    gj_calib_report *rep = NULL;
    char *js = NULL;
    static const struct option opts[] = {{"quick", no_argument, 0, 'q'},
                                         {"device", required_argument, 0, 'D'},
                                         {"db", required_argument, 0, 'd'},
                                         {"name", required_argument, 0, 'n'},
                                         {"json", no_argument, 0, 'j'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'q') quick = 1;
        else if (c == 'D') dev_s = optarg;
        else if (c == 'd') db_flag = optarg;
        else if (c == 'n') name = optarg;
        else if (c == 'j') json = 1;
        else if (c == 'h') {
            help();
            return GJ_EXIT_OK;
        } else {
            fprintf(stderr, "gjadvise %s: unknown flag or missing value '%s' (gjadvise calibrate --help)\n",
                    cmd, argv[optind - 1]);
            return GJ_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gjadvise %s: unexpected argument '%s'\n", cmd, argv[optind]);
        return GJ_EXIT_USAGE;
    }
    if (dev_s && gj_cli_parse_int(dev_s, 0, 1023, &device))
        return gj_cli_bad(cmd, "--device", dev_s, "allowed: a device ordinal 0, 1, ...");
    if (name) {
        gj_profile *probe = NULL;
        if (gj_profile_new(name, &probe) != GJ_OK)
            return gj_cli_bad(cmd, "--name", name, "allowed: 1 to 63 characters of A-Z a-z 0-9 . _ -");
        gj_profile_free(probe);
    }
    /* No GPU or driver: one line, exit 3, nothing written (checked before
     * the store is opened, so not even an empty store is created). */
    if ((rc = gj_gpu_count(&ngpu, &ctx)) != GJ_OK || ngpu < 1) {
        fprintf(stderr, "gjadvise %s: no GPU: %s\n", cmd, *ctx.msg ? ctx.msg : gj_errstr(GJ_ERR_NODEVICE));
        return GJ_EXIT_NODEVICE;
    }
    if (device >= ngpu) {
        char allowed[64];
        snprintf(allowed, sizeof allowed, "allowed: 0 to %d (%d device%s)", ngpu - 1, ngpu, ngpu > 1 ? "s" : "");
        return gj_cli_bad(cmd, "--device", dev_s, allowed);
    }
    /* Open the store first: a store that cannot be written fails now, not
     * after a minute of measuring. */
    if (gj_cli_open_db(cmd, db_flag, GJ_DB_OPEN_CREATE, &db, &code) != GJ_OK) goto done;
    gj_calib_opts o = {.device = (int)device, .quick = quick, .name = name, .progress = progress};
    rc = gj_calibrate_run(&o, &p, &rep, &ctx);
    if (rc != GJ_OK) {
        code = gj_cli_fail(cmd, rc, &ctx, "measuring (nothing saved)");
        goto done;
    }
    rc = gj_db_profile_save(db, p, rep->samples, rep->n_samples, &ctx);
    if (rc != GJ_OK) {
        code = gj_cli_fail(cmd, rc, &ctx, "saving the profile (the store is unchanged)");
        goto done;
    }
    if (json) {
        if ((rc = gj_calibrate_report_json(rep, p, &js)) != GJ_OK) {
            code = gj_cli_fail(cmd, rc, NULL, "writing JSON");
            goto done;
        }
        printf("%s\n", js);
        goto done;
    }
    const gj_device *dev = gj_profile_device(p);
    printf("device    %s (%s), cc %d.%d, %d SMs, %.1f GiB, L2 %.0f MiB, driver %d, runtime %d\n",
           dev->name, dev->uuid, dev->cc_major, dev->cc_minor, dev->sm_count,
           (double)dev->mem_bytes / (1 << 30), (double)dev->l2_bytes / (1 << 20), dev->driver_version,
           dev->runtime_version);
    printf("profile   %s v%d saved (%d samples), %s run in %.1f s\n\n", gj_profile_name(p),
           gj_profile_version(p), rep->n_samples, rep->quick ? "quick" : "full", rep->wall_s);
    printf("%-15s %14s  %-7s %8s  %s\n", "parameter", "value", "unit", "spread", "note");
    for (int i = 0; i < rep->n_items; i++) {
        const gj_calib_item *it = &rep->items[i];
        const gj_param_info *pi = gj_param_find(it->key, NULL);
        char spread[16] = "-";
        if (it->reps) snprintf(spread, sizeof spread, "%.1f%%", it->spread * 100);
        printf("%-15s %14.6g  %-7s %8s  %s%s\n", it->key, it->value, pi ? pi->unit : "", spread,
               it->reps ? "" : "queried", it->wide ? "WIDE (still > 5% after a re-run)" : it->rerun ? "re-run" : "");
    }
done:
    gj_free(js);
    gj_calibrate_report_free(rep);
    gj_profile_free(p);
    gj_db_close(db);
    return code;
}
