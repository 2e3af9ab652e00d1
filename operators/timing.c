/* See operators/timing.h. */
#include "operators/timing.h"
#include "common/internal.h"

#include <stdlib.h>
#include <string.h>

int gj_time_runs(gj_impl impl, const gj_workload *w, const gj_dtable *a, const gj_dtable *b,
                 int repeat, gj_timing *med, gj_ctx *ctx)
{
    int rc = GJ_OK;
    gj_timing t;
    if (!w || !a || !med || repeat < 1 || (gj_impl_op(impl) == GJ_OP_JOIN && !b))
        return gj_seterr(ctx, GJ_ERR_INVALID, "gj_time_runs: inputs NULL or repeat=%d < 1", repeat);
    memset(med, 0, sizeof *med);
    /* column 0: totals, column 1 + p: phase p */
    double *v = calloc((size_t)repeat * (GJ_MAX_PHASES + 1), sizeof *v);
    if (!v) return gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory for %d runs", repeat);
    for (int r = 0; r < repeat; r++) {
        memset(&t, 0, sizeof t);
        if (gj_impl_op(impl) == GJ_OP_JOIN) {
            gj_join_out out;
            rc = gj_join_exec_w(impl, w, a, b, NULL, &out, &t, ctx);
            if (rc == GJ_OK) gj_join_out_free(&out);
        } else {
            gj_groupby_out out;
            rc = gj_groupby_execute(impl, a, w, NULL, &out, &t, ctx);
            if (rc == GJ_OK) gj_groupby_out_free(&out);
        }
        if (rc != GJ_OK) goto done;
        v[r] = t.total_ms;
        for (int p = 0; p < GJ_MAX_PHASES; p++) v[(p + 1) * repeat + r] = p < t.n_phases ? t.ms[p] : 0;
        if (t.peak_bytes > med->peak_bytes) med->peak_bytes = t.peak_bytes;
        med->filtered = t.filtered; /* the same inputs cut the same way every run */
        med->cut_r_rows = t.cut_r_rows;
        med->cut_s_rows = t.cut_s_rows;
        med->n_phases = t.n_phases;
        memcpy(med->name, t.name, sizeof med->name);
    }
    med->total_ms = gj_median(v, repeat);
    for (int p = 0; p < GJ_MAX_PHASES; p++) med->ms[p] = gj_median(v + (p + 1) * repeat, repeat);
done:
    free(v);
    return rc;
}
