/* gj_join_auto: ask the advisor, run its choice. Kept apart from
 * join_api.cu so programs that only run joins do not link the advisor. */
#include "common/internal.h"

#include <string.h>

int gj_join_auto(const gj_workload *w, const gj_profile *p, const gj_dtable *r,
                 const gj_dtable *s, void *stream, gj_plan *plan, gj_join_out *out,
                 gj_timing *timing, gj_ctx *ctx)
{
    int rc = GJ_OK;
    gj_workload dw;
    gj_plan local;
    gj_plan *pl = plan ? plan : &local;
    if (!r || !s || !p || !out) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "r, s, profile and out must not be NULL");
        goto done;
    }
    if (!w) { /* what the tables say; the rest as the paper's defaults */
        gj_workload_default(&dw, GJ_OP_JOIN);
        dw.key_bytes = r->key.width;
        dw.payload_bytes = r->n_payloads ? r->payload[0].width
                                         : (s->n_payloads ? s->payload[0].width : 4);
        dw.r_rows = r->rows ? r->rows : 1;
        dw.s_rows = s->rows ? s->rows : 1;
        dw.r_payloads = r->n_payloads;
        dw.s_payloads = s->n_payloads;
        dw.match_ratio = 1.0;
        dw.zipf = 0;
        w = &dw;
    }
    rc = gj_advise(w, p, pl, ctx);
    if (rc != GJ_OK) goto done;
    if (w != &dw) dw = *w;
    gj_workload_pin_filter(&dw, &pl->est[0]); /* run what the model predicted */
    rc = gj_join_exec_w(pl->best, &dw, r, s, stream, out, timing, ctx);
done:
    return rc;
}
