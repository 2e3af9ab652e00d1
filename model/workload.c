/* Workloads, aggregate and implementation names. */
#include "common/internal.h"

#include <math.h>
#include <string.h>
#include <strings.h>

void gj_workload_default(gj_workload *w, gj_op op)
{
    memset(w, 0, sizeof *w);
    w->op = op;
    w->key_bytes = 4;
    w->payload_bytes = 4;
    w->zipf = 0;
    /* Sec. 5.1.6: 2^27 x 2^27, two payload columns per side. */
    w->r_rows = 1ULL << 27;
    w->s_rows = 1ULL << 27;
    w->r_payloads = 2;
    w->s_payloads = 2;
    w->match_ratio = 1.0;
    /* Sec. 5.2.1: |R| = 2^28, max of two payloads. */
    w->rows = 1ULL << 28;
    w->groups = 1ULL << 12;
    w->n_aggs = 2;
    w->aggs[0] = GJ_AGG_MAX;
    w->aggs[1] = GJ_AGG_MAX;
}

static int width_ok(int b) { return b == 4 || b == 8; }

int gj_workload_check(const gj_workload *w, gj_ctx *ctx)
{
    if (!w) return gj_seterr(ctx, GJ_ERR_INVALID, "workload is NULL");
    if (w->op != GJ_OP_JOIN && w->op != GJ_OP_GROUPBY)
        return gj_seterr(ctx, GJ_ERR_INVALID, "op=%d: allowed join or groupby", (int)w->op);
    if (!width_ok(w->key_bytes))
        return gj_seterr(ctx, GJ_ERR_INVALID, "key-bytes=%d: allowed 4 or 8", w->key_bytes);
    if (!width_ok(w->payload_bytes))
        return gj_seterr(ctx, GJ_ERR_INVALID, "payload-bytes=%d: allowed 4 or 8", w->payload_bytes);
    if (!(w->zipf >= 0 && w->zipf <= 10))
        return gj_seterr(ctx, GJ_ERR_INVALID, "zipf=%g: allowed 0 to 10", w->zipf);
    if (w->op == GJ_OP_JOIN) {
        if (w->r_rows < 1 || w->r_rows > GJ_MAX_ROWS)
            return gj_seterr(ctx, GJ_ERR_INVALID, "r-rows=%llu: allowed 1 to 2^40",
                             (unsigned long long)w->r_rows);
        if (w->s_rows < 1 || w->s_rows > GJ_MAX_ROWS)
            return gj_seterr(ctx, GJ_ERR_INVALID, "s-rows=%llu: allowed 1 to 2^40",
                             (unsigned long long)w->s_rows);
        if (w->r_payloads < 0 || w->r_payloads > GJ_MAX_PAYLOADS)
            return gj_seterr(ctx, GJ_ERR_INVALID, "r-payloads=%d: allowed 0 to %d", w->r_payloads,
                             GJ_MAX_PAYLOADS);
        if (w->s_payloads < 0 || w->s_payloads > GJ_MAX_PAYLOADS)
            return gj_seterr(ctx, GJ_ERR_INVALID, "s-payloads=%d: allowed 0 to %d", w->s_payloads,
                             GJ_MAX_PAYLOADS);
        if (!(w->match_ratio >= 0 && w->match_ratio <= 1))
            return gj_seterr(ctx, GJ_ERR_INVALID, "match-ratio=%g: allowed 0 to 1", w->match_ratio);
        if (!(w->s_run >= 0 && w->s_run <= (double)GJ_MAX_ROWS))
            return gj_seterr(ctx, GJ_ERR_INVALID, "s-run=%g: allowed 0 to 2^40 (1: no runs)", w->s_run);
        if (w->sorted_keys)
            return gj_seterr(ctx, GJ_ERR_INVALID, "sorted-keys=%d: a group-by statistic (allowed 0 for a join)",
                             w->sorted_keys);
        if (w->key_range)
            return gj_seterr(ctx, GJ_ERR_INVALID, "key-range=%llu: a group-by statistic (allowed 0 for a join)",
                             (unsigned long long)w->key_range);
        if (w->r_sorted != 0 && w->r_sorted != 1)
            return gj_seterr(ctx, GJ_ERR_INVALID, "r-sorted=%d: allowed 0 or 1", w->r_sorted);
        if (w->s_sorted != 0 && w->s_sorted != 1)
            return gj_seterr(ctx, GJ_ERR_INVALID, "s-sorted=%d: allowed 0 or 1", w->s_sorted);
        if (w->filter != GJ_FILTER_AUTO && w->filter != GJ_FILTER_ON && w->filter != GJ_FILTER_OFF)
            return gj_seterr(ctx, GJ_ERR_INVALID, "filter=%d: allowed auto (0), on (1) or off (2)", w->filter);
        if (w->out_rows > (GJ_MAX_ROWS << 4))
            return gj_seterr(ctx, GJ_ERR_INVALID, "out-rows=%llu: allowed at most 2^44",
                             (unsigned long long)w->out_rows);
    } else {
        if (w->rows < 1 || w->rows > GJ_MAX_ROWS)
            return gj_seterr(ctx, GJ_ERR_INVALID, "rows=%llu: allowed 1 to 2^40",
                             (unsigned long long)w->rows);
        if (w->groups < 1 || w->groups > w->rows)
            return gj_seterr(ctx, GJ_ERR_INVALID, "groups=%llu: allowed 1 to rows (%llu)",
                             (unsigned long long)w->groups, (unsigned long long)w->rows);
        if (w->n_aggs < 1 || w->n_aggs > GJ_MAX_AGGS)
            return gj_seterr(ctx, GJ_ERR_INVALID, "aggs: %d given, allowed 1 to %d", w->n_aggs,
                             GJ_MAX_AGGS);
        for (int i = 0; i < w->n_aggs; i++)
            if (w->aggs[i] < 0 || w->aggs[i] >= GJ_AGG_KINDS)
                return gj_seterr(ctx, GJ_ERR_INVALID, "aggs[%d]=%d: unknown aggregate", i,
                                 (int)w->aggs[i]);
        if (w->sorted_keys != 0 && w->sorted_keys != 1)
            return gj_seterr(ctx, GJ_ERR_INVALID, "sorted-keys=%d: allowed 0 or 1", w->sorted_keys);
        if (w->r_sorted || w->s_sorted)
            return gj_seterr(ctx, GJ_ERR_INVALID, "r-sorted=%d, s-sorted=%d: join statistics (allowed 0 for a "
                             "group-by; its rows in key order: sorted-keys)", w->r_sorted, w->s_sorted);
        if (w->filter)
            return gj_seterr(ctx, GJ_ERR_INVALID, "filter=%d: a join's semi-join filter (allowed auto, 0, for a "
                             "group-by)", w->filter);
        if (w->key_range > (1ULL << 62))
            return gj_seterr(ctx, GJ_ERR_INVALID, "key-range=%llu: allowed 0 (unknown) to 2^62",
                             (unsigned long long)w->key_range);
    }
    return GJ_OK;
}

uint64_t gj_workload_out_rows(const gj_workload *w)
{
    if (w->op == GJ_OP_GROUPBY) return w->groups;
    if (w->out_rows) return w->out_rows;
    return (uint64_t)llround(w->match_ratio * (double)w->s_rows);
}

static const char *agg_names[GJ_AGG_KINDS] = {"sum", "min", "max", "count", "avg",
                                              "count-distinct", "median"};

const char *gj_agg_name(gj_agg a) { return (a >= 0 && a < GJ_AGG_KINDS) ? agg_names[a] : "?"; }

int gj_agg_parse(const char *s, gj_agg *out)
{
    if (!s || !out) return GJ_ERR_INVALID;
    for (int i = 0; i < GJ_AGG_KINDS; i++)
        if (!strcasecmp(s, agg_names[i])) {
            *out = (gj_agg)i;
            return GJ_OK;
        }
    if (!strcasecmp(s, "count_distinct") || !strcasecmp(s, "distinct")) {
        *out = GJ_AGG_COUNT_DISTINCT;
        return GJ_OK;
    }
    return GJ_ERR_INVALID;
}

static const char *filter_names[3] = {"auto", "on", "off"};

const char *gj_filter_name(int filter) { return filter >= 0 && filter < 3 ? filter_names[filter] : NULL; }

int gj_filter_parse(const char *s, int *out)
{
    if (!s || !out) return GJ_ERR_NOTFOUND;
    for (int i = 0; i < 3; i++)
        if (!strcasecmp(s, filter_names[i])) {
            *out = i;
            return GJ_OK;
        }
    return GJ_ERR_NOTFOUND;
}

static const char *impl_names[GJ_IMPL_COUNT] = {
    "PHJ-UR", "PHJ-TR", "SMJ-UR", "SMJ-TR", "NPHJ", "HGB",
    "SGB-UR", "SGB-TR", "SGB-DE-TR", "PGB-UR", "PGB-TR", "HASH-GLOBAL"};

const char *gj_impl_name(gj_impl i) { return (i >= 0 && i < GJ_IMPL_COUNT) ? impl_names[i] : NULL; }

int gj_impl_parse(const char *s, gj_impl *out)
{
    if (!s || !out) return GJ_ERR_INVALID;
    for (int i = 0; i < GJ_IMPL_COUNT; i++)
        if (!strcasecmp(s, impl_names[i])) {
            *out = (gj_impl)i;
            return GJ_OK;
        }
    return GJ_ERR_NOTFOUND;
}

gj_op gj_impl_op(gj_impl i) { return i <= GJ_IMPL_NPHJ ? GJ_OP_JOIN : GJ_OP_GROUPBY; }

const gj_impl *gj_impls_of(gj_op op, int *n)
{
    static const gj_impl join_impls[] = {GJ_IMPL_PHJ_UR, GJ_IMPL_PHJ_TR, GJ_IMPL_SMJ_UR,
                                         GJ_IMPL_SMJ_TR, GJ_IMPL_NPHJ};
    static const gj_impl gb_impls[] = {GJ_IMPL_HGB,       GJ_IMPL_SGB_UR, GJ_IMPL_SGB_TR,
                                       GJ_IMPL_SGB_DE_TR, GJ_IMPL_PGB_UR, GJ_IMPL_PGB_TR,
                                       GJ_IMPL_HASH_GLOBAL};
    if (op == GJ_OP_JOIN) {
        *n = (int)(sizeof join_impls / sizeof join_impls[0]);
        return join_impls;
    }
    *n = (int)(sizeof gb_impls / sizeof gb_impls[0]);
    return gb_impls;
}
