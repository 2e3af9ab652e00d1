/* phase_replay: the model's phase times against those a store measured.
 *
 *   phase_replay STORE PROFILE [IMPL|all] [--rows]
 *
 * For every execution logged in STORE (gjadvise validate, run, bench) with
 * its phases, the built-in or stored PROFILE predicts the workload again
 * (gj_profile_estimate, the fit applied) and each phase is set against
 * the measured one. Prints, per implementation and phase and per size
 * class of the larger input (< 2^22 rows, < 2^25, larger), the number of
 * executions, the median of |predicted / measured - 1| and the median of
 * predicted / measured, and the same of the phases' sum ("(total)"); with
 * --rows, every execution's phases too. The
 * totals are what `gjadvise validate --replay` reports; this is for the
 * split between phases, which the advisor's choice does not see but
 * `gjadvise run` prints beside the measurement.
 *
 * Build (no GPU needed): make bench-tools (build/bench/phase_replay). */
#include "gjadvise.h"
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CLASSES = 3, MAXN = 4096 };
static const char *class_name[CLASSES] = {"< 2^22", "< 2^25", ">= 2^25"};

typedef struct cell {
    int n;
    double err[MAXN], ratio[MAXN];
} cell;

static cell cells[GJ_IMPL_COUNT][GJ_MAX_PHASES + 1][CLASSES]; /* the last: totals */

static void add(cell *c, double pred, double meas)
{
    if (c->n >= MAXN) return;
    c->err[c->n] = fabs(pred / meas - 1);
    c->ratio[c->n] = pred / meas;
    c->n++;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    if (n == 0) return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int size_class(const gj_workload *w)
{
    const double n = w->op == GJ_OP_JOIN ? fmax((double)w->r_rows, (double)w->s_rows) : (double)w->rows;
    return n < 4194304.0 ? 0 : n < 33554432.0 ? 1 : 2;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: phase_replay STORE PROFILE [IMPL|all] [--rows]\n");
        return 2;
    }
    const char *only = argc > 3 && strcmp(argv[3], "--rows") != 0 ? argv[3] : "all";
    const int rows = argc > 3 && strcmp(argv[argc - 1], "--rows") == 0;
    gj_profile *p = NULL;
    gj_ctx *ctx = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL, *ph = NULL;
    if (gj_ctx_new(&ctx) != GJ_OK || gj_profile_builtin(argv[2], &p) != GJ_OK) {
        fprintf(stderr, "phase_replay: no built-in profile %s\n", argv[2]);
        return 2;
    }
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT id, workload, impl, measured_ms FROM exec_log WHERE n_phases > 0 ORDER BY id",
                           -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT phase, measured_ms FROM exec_phase WHERE exec_id = ? ORDER BY phase", -1, &ph,
                           NULL) != SQLITE_OK) {
        fprintf(stderr, "phase_replay: %s: %s\n", argv[1], db ? sqlite3_errmsg(db) : "cannot open");
        return 4;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        const sqlite3_int64 id = sqlite3_column_int64(st, 0);
        const char *json = (const char *)sqlite3_column_text(st, 1), *name = (const char *)sqlite3_column_text(st, 2);
        gj_workload w;
        gj_impl impl;
        gj_estimate e;
        if (gj_impl_parse(name, &impl) != GJ_OK || gj_workload_from_json(json, &w, ctx) != GJ_OK) continue;
        if (strcmp(only, "all") != 0 && strcmp(only, name) != 0) continue;
        if (gj_profile_estimate(impl, &w, p, &e, ctx) != GJ_OK || !e.feasible) continue;
        const int k = size_class(&w);
        if (rows) printf("%lld %-11s %s |", (long long)id, name, json);
        sqlite3_bind_int64(ph, 1, id);
        double pt = 0, mt = 0;
        while (sqlite3_step(ph) == SQLITE_ROW) {
            const int i = sqlite3_column_int(ph, 0);
            const double m = sqlite3_column_double(ph, 1);
            if (i >= e.n_phases || m <= 0) continue;
            add(&cells[impl][i][k], e.phase[i].ms, m);
            pt += e.phase[i].ms;
            mt += m;
            if (rows) printf(" %s %.3f/%.3f", e.phase[i].name, e.phase[i].ms, m);
        }
        if (mt > 0) add(&cells[impl][GJ_MAX_PHASES][k], pt, mt);
        if (rows) printf(" | total %.3f/%.3f\n", pt, mt);
        sqlite3_reset(ph);
    }
    printf("%-11s %-12s %-8s %5s %10s %10s\n", "impl", "phase", "rows", "n", "med|err|", "med p/m");
    for (int impl = 0; impl < GJ_IMPL_COUNT; impl++) {
        gj_estimate e;
        gj_workload w;
        gj_workload_default(&w, gj_impl_op((gj_impl)impl));
        if (gj_profile_estimate((gj_impl)impl, &w, p, &e, ctx) != GJ_OK) continue;
        for (int i = 0; i <= e.n_phases; i++)
            for (int k = 0; k < CLASSES; k++) {
                cell *c = &cells[impl][i < e.n_phases ? i : GJ_MAX_PHASES][k];
                if (!c->n) continue;
                printf("%-11s %-12s %-8s %5d %10.2f %10.2f\n", gj_impl_name((gj_impl)impl),
                       i < e.n_phases ? e.phase[i].name : "(total)", class_name[k], c->n, median(c->err, c->n),
                       median(c->ratio, c->n));
            }
    }
    sqlite3_finalize(st);
    sqlite3_finalize(ph);
    sqlite3_close(db);
    gj_profile_free(p);
    gj_ctx_free(ctx);
    return 0;
}
