/* gjadvise model: the paper's thresholds and Table 2 for a profile. */
#include "cli/cli.h"
#include "common/internal.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Table 1 of paper 000: cycles of the unclustered and clustered GATHER. */
#define T1_UNCLUSTERED 12052942.0
#define T1_CLUSTERED 1414398.0
#define T2_ROWS (1 << 28) /* Sec. 4.4 assumes N = 2^28 */

static void help(void)
{
    printf("usage: gjadvise model [--profile NAME] [--db PATH] [--json]\n"
           "\n"
           "Prints the crossovers of paper 000's cost models for a profile:\n"
           "  - B_G/B_R from Table 1's cycle counts (M-411-BR) and the profile's own ratio;\n"
           "  - the GFTR/GFUR match-ratio threshold for p payload columns (M-414),\n"
           "    as printed (p = 1: 0.39) and with the first column partitioned for free;\n"
           "  - the group count from which sorting beats the unclustered gather (M-413);\n"
           "  - when dictionary encoding pays (M-44, Table 2) for k = 4 and k = 8.\n"
           "\n"
           "examples:\n"
           "  gjadvise model --profile a100-paper\n"
           "  gjadvise model --json\n");
}

typedef struct {
    int lo, hi, p; /* log2 g range and minimal p (0 = never) */
} t2row;

/* Collapse Table 2 into ranges of log2 g with the same minimal p. */
static int table2(const gj_hw *hw, int k, t2row *rows)
{
    int n = 0, max_lg = k == 4 ? 24 : 28;
    for (int lg = 0; lg <= max_lg; lg++) {
        int p = gj_m44_min_payloads(hw, T2_ROWS, ldexp(1, lg), k);
        if (n && rows[n - 1].p == p) rows[n - 1].hi = lg;
        else rows[n++] = (t2row){lg, lg, p};
    }
    return n;
}

int gj_cli_model(int argc, char **argv)
{
    const char *cmd = "model", *name = NULL, *db = NULL;
    int json = 0, c, code;
    static const struct option opts[] = {{"profile", required_argument, 0, 'p'},
                                         {"db", required_argument, 0, 'd'},
                                         {"json", no_argument, 0, 'j'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'p') name = optarg;
        else if (c == 'd') db = optarg;
        else if (c == 'j') json = 1;
        else if (c == 'h') {
            help();
            return GJ_EXIT_OK;
        } else {
            fprintf(stderr, "gjadvise %s: unknown flag or missing value '%s' (gjadvise model --help)\n",
                    cmd, argv[optind - 1]);
            return GJ_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gjadvise %s: unexpected argument '%s'\n", cmd, argv[optind]);
        return GJ_EXIT_USAGE;
    }
    gj_profile *p = NULL;
    char note[320];
    code = gj_cli_pick_profile(cmd, db, name, &p, note, sizeof note);
    if (code) return code;
    const gj_hw *hw = gj_profile_hw(p);
    double paper_ratio = gj_m411_bg_over_br(T1_UNCLUSTERED, T1_CLUSTERED);
    double ratio = hw->bw_seq / hw->bw_rand;
    double gthr = gj_m413_group_threshold(ratio);
    t2row t4[32], t8[32];
    int n4 = table2(hw, 4, t4), n8 = table2(hw, 8, t8);

    if (json) {
        printf("{\"profile\":\"%s\",\"bg_over_br_table1\":%.4f,\"bg_over_br\":%.4f,"
               "\"gftr_threshold_printed\":%.4f,\"gftr_threshold\":[",
               gj_profile_name(p), paper_ratio, ratio, gj_m414_threshold(1, 0, 4, 4, 2, 24));
        for (int q = 1; q <= GJ_MAX_PAYLOADS; q++)
            printf("%s{\"payloads\":%d,\"match_ratio\":%.4f}", q > 1 ? "," : "", q,
                   gj_m414_threshold(q, 1, 4, 4, 2, ratio));
        printf("],\"sort_groupby_min_groups\":%.0f,\"table2\":{", gthr);
        for (int k = 4; k <= 8; k += 4) {
            t2row *t = k == 4 ? t4 : t8;
            int n = k == 4 ? n4 : n8;
            printf("%s\"k%d\":[", k == 8 ? "," : "", k);
            for (int i = 0; i < n; i++)
                printf("%s{\"log2_g_from\":%d,\"log2_g_to\":%d,\"min_payloads\":%d}", i ? "," : "",
                       t[i].lo, t[i].hi, t[i].p);
            printf("]");
        }
        printf("}}\n");
        gj_profile_free(p);
        return GJ_EXIT_OK;
    }
    printf("%s\n\n", note);
    printf("B_G/B_R (M-411-BR): %.2f from Table 1's cycles (the paper's ~24); this profile: %.2f\n",
           paper_ratio, ratio);
    printf("  (B_G %.0f GB/s, B_R %.1f GB/s)\n\n", hw->bw_seq, hw->bw_rand);
    printf("GFTR beats GFUR above these match ratios (M-414; 4-byte keys and payloads, 2 passes):\n");
    printf("  as printed, one column, none free (B_G = 24 B_R): %.2f\n",
           gj_m414_threshold(1, 0, 4, 4, 2, 24));
    printf("  %-10s %s\n", "payloads", "threshold (first column partitioned with the key for free)");
    for (int q = 1; q <= GJ_MAX_PAYLOADS; q++) {
        double t = gj_m414_threshold(q, 1, 4, 4, 2, ratio);
        printf("  %-10d %.3f%s\n", q, t, q == 1 ? "  (GFTR always: the one column is free)" : "");
    }
    printf("\nsort-based group-by: GFTR (sorting) beats the unclustered gather from g = %.0f "
           "groups (M-413)\n\n", gthr);
    for (int k = 4; k <= 8; k += 4) {
        t2row *t = k == 4 ? t4 : t8;
        int n = k == 4 ? n4 : n8;
        printf("Table 2 (%s) k = %d, N = 2^28: dictionary encoding pays (C_2 < C_1) when\n",
               k == 4 ? "a" : "b", k);
        printf("  %-18s %s\n", "g", "payload columns");
        for (int i = 0; i < n; i++) {
            char g[32];
            if (t[i].lo == t[i].hi) snprintf(g, sizeof g, "2^%d", t[i].lo);
            else snprintf(g, sizeof g, "[2^%d, 2^%d]", t[i].lo, t[i].hi);
            if (t[i].p) printf("  %-18s p >= %d\n", g, t[i].p);
            else printf("  %-18s never\n", g);
        }
        if (k == 4 && !strcmp(gj_profile_name(p), "a100-paper"))
            printf("  (the paper prints p >= 3, 5, 14 for the rows from 2^15 on; its printed\n"
                   "   formulas give the values above: model/MODEL.md, M-44-T2)\n");
        printf("\n");
    }
    gj_profile_free(p);
    return GJ_EXIT_OK;
}
