/* Workload <-> JSON. Writing with gj_sbuf; reading through SQLite's JSON
 * functions (db/json.c). Every gj_workload field has a key (s_run,
 * sorted_keys, r_sorted, s_sorted, filter and key_range only when set, so that a workload stored
 * before them keeps its text); aggregates are
 * written by name (gj_agg_name) and op as "join" / "groupby". */
#include "db/json.h"
#include "db/store.h"

#include <string.h>

int gj_workload_to_json(const gj_workload *w, char **json)
{
    gj_sbuf b = {0};
    if (!json) return GJ_ERR_INVALID;
    *json = NULL;
    if (!w) return GJ_ERR_INVALID;
    gj_sbuf_printf(&b, "{\"op\":\"%s\",\"key_bytes\":%d,\"payload_bytes\":%d,\"zipf\":",
                   w->op == GJ_OP_GROUPBY ? "groupby" : "join", w->key_bytes, w->payload_bytes);
    gj_sbuf_json_num(&b, w->zipf);
    gj_sbuf_printf(&b, ",\"r_rows\":%llu,\"s_rows\":%llu,\"r_payloads\":%d,\"s_payloads\":%d,"
                       "\"match_ratio\":",
                   (unsigned long long)w->r_rows, (unsigned long long)w->s_rows, w->r_payloads,
                   w->s_payloads);
    gj_sbuf_json_num(&b, w->match_ratio);
    gj_sbuf_printf(&b, ",\"out_rows\":%llu,\"rows\":%llu,\"groups\":%llu,\"aggs\":[",
                   (unsigned long long)w->out_rows, (unsigned long long)w->rows,
                   (unsigned long long)w->groups);
    for (int i = 0; i < w->n_aggs && i < GJ_MAX_AGGS; i++)
        gj_sbuf_printf(&b, "%s\"%s\"", i ? "," : "", gj_agg_name(w->aggs[i]));
    gj_sbuf_printf(&b, "],\"sorted_output\":%s", w->sorted_output ? "true" : "false");
    if (w->s_run != 0) { /* only when set: stored workloads keep their text */
        gj_sbuf_printf(&b, ",\"s_run\":");
        gj_sbuf_json_num(&b, w->s_run);
    }
    if (w->sorted_keys) gj_sbuf_printf(&b, ",\"sorted_keys\":true");
    if (w->r_sorted) gj_sbuf_printf(&b, ",\"r_sorted\":true");
    if (w->s_sorted) gj_sbuf_printf(&b, ",\"s_sorted\":true");
    if (w->filter) gj_sbuf_printf(&b, ",\"filter\":\"%s\"", w->filter == GJ_FILTER_ON ? "on" : "off");
    if (w->key_range) gj_sbuf_printf(&b, ",\"key_range\":%llu", (unsigned long long)w->key_range);
    gj_sbuf_printf(&b, "}");
    return gj_sbuf_take(&b, json);
}

enum {
    W_OP, W_KEY_BYTES, W_PAYLOAD_BYTES, W_ZIPF, W_R_ROWS, W_S_ROWS, W_R_PAYLOADS, W_S_PAYLOADS,
    W_MATCH_RATIO, W_OUT_ROWS, W_ROWS, W_GROUPS, W_AGGS, W_SORTED, W_S_RUN, W_SORTED_KEYS, W_R_SORTED,
    W_S_SORTED, W_FILTER, W_KEY_RANGE, W_NFIELDS
};
static const char *wkeys[W_NFIELDS] = {
    "op", "key_bytes", "payload_bytes", "zipf", "r_rows", "s_rows", "r_payloads", "s_payloads",
    "match_ratio", "out_rows", "rows", "groups", "aggs", "sorted_output", "s_run", "sorted_keys",
    "r_sorted", "s_sorted", "filter", "key_range"};

typedef struct wparse {
    gj_workload w;           /* values read so far                          */
    unsigned seen;           /* bit per W_* field                           */
    int64_t root, aggs_id;   /* json_tree ids of the containers             */
} wparse;

static int int_field(const gj_json_node *n, int *out, gj_ctx *ctx)
{
    int64_t v;
    int rc = gj_json_int(n, -2147483647 - 1, 2147483647, &v, ctx);
    if (rc == GJ_OK) *out = (int)v;
    return rc;
}

static int wcb(void *ud, const gj_json_node *n, gj_ctx *ctx)
{
    wparse *s = ud;
    if (n->parent < 0) {
        s->root = n->id;
        return GJ_OK;
    }
    if (n->parent == s->aggs_id) {
        if (n->index >= GJ_MAX_AGGS)
            return gj_seterr(ctx, GJ_ERR_INVALID, "%s: more than %d aggregates", n->path,
                             GJ_MAX_AGGS);
        if (strcmp(n->type, "text") != 0)
            return gj_seterr(ctx, GJ_ERR_PARSE, "%s: is %s, expected an aggregate name", n->path,
                             n->type);
        if (gj_agg_parse(n->text, &s->w.aggs[n->index]) != GJ_OK)
            return gj_seterr(ctx, GJ_ERR_PARSE,
                             "%s=\"%s\": unknown aggregate; allowed sum, min, max, count, avg, "
                             "count-distinct, median", n->path, n->text);
        s->w.n_aggs = (int)n->index + 1;
        return GJ_OK;
    }
    if (n->parent != s->root || !n->key)   /* unreachable: containers are checked */
        return gj_seterr(ctx, GJ_ERR_PARSE, "%s: unexpected", n->path);
    int f;
    for (f = 0; f < W_NFIELDS; f++)
        if (!strcmp(n->key, wkeys[f])) break;
    if (f == W_NFIELDS)
        return gj_seterr(ctx, GJ_ERR_PARSE, "workload: unknown key \"%s\"", n->key);
    if (s->seen & (1u << f))
        return gj_seterr(ctx, GJ_ERR_PARSE, "workload: key \"%s\" appears twice", n->key);
    s->seen |= 1u << f;
    gj_workload *w = &s->w;
    switch (f) {
    case W_OP:
        if (strcmp(n->type, "text") != 0)
            return gj_seterr(ctx, GJ_ERR_PARSE, "%s: is %s, expected \"join\" or \"groupby\"",
                             n->path, n->type);
        if (!strcmp(n->text, "join")) w->op = GJ_OP_JOIN;
        else if (!strcmp(n->text, "groupby")) w->op = GJ_OP_GROUPBY;
        else return gj_seterr(ctx, GJ_ERR_PARSE, "%s=\"%s\": allowed \"join\" or \"groupby\"",
                              n->path, n->text);
        return GJ_OK;
    case W_KEY_BYTES: return int_field(n, &w->key_bytes, ctx);
    case W_PAYLOAD_BYTES: return int_field(n, &w->payload_bytes, ctx);
    case W_ZIPF: return gj_json_num(n, &w->zipf, ctx);
    case W_R_ROWS: return gj_json_u64(n, &w->r_rows, ctx);
    case W_S_ROWS: return gj_json_u64(n, &w->s_rows, ctx);
    case W_R_PAYLOADS: return int_field(n, &w->r_payloads, ctx);
    case W_S_PAYLOADS: return int_field(n, &w->s_payloads, ctx);
    case W_MATCH_RATIO: return gj_json_num(n, &w->match_ratio, ctx);
    case W_OUT_ROWS: return gj_json_u64(n, &w->out_rows, ctx);
    case W_ROWS: return gj_json_u64(n, &w->rows, ctx);
    case W_GROUPS: return gj_json_u64(n, &w->groups, ctx);
    case W_S_RUN: return gj_json_num(n, &w->s_run, ctx);
    case W_SORTED_KEYS: return gj_json_bool(n, &w->sorted_keys, ctx);
    case W_R_SORTED: return gj_json_bool(n, &w->r_sorted, ctx);
    case W_S_SORTED: return gj_json_bool(n, &w->s_sorted, ctx);
    case W_KEY_RANGE: return gj_json_u64(n, &w->key_range, ctx);
    case W_FILTER:
        if (strcmp(n->type, "text") != 0)
            return gj_seterr(ctx, GJ_ERR_PARSE, "%s: is %s, expected \"auto\", \"on\" or \"off\"", n->path,
                             n->type);
        if (gj_filter_parse(n->text, &w->filter) != GJ_OK)
            return gj_seterr(ctx, GJ_ERR_PARSE, "%s=\"%s\": allowed \"auto\", \"on\" or \"off\"", n->path,
                             n->text);
        return GJ_OK;
    case W_AGGS:
        if (strcmp(n->type, "array") != 0)
            return gj_seterr(ctx, GJ_ERR_PARSE, "%s: is %s, expected an array of aggregate names",
                             n->path, n->type);
        s->aggs_id = n->id;
        w->n_aggs = 0;
        return GJ_OK;
    default: return gj_json_bool(n, &w->sorted_output, ctx);
    }
}

int gj_workload_from_json_conn(sqlite3 *conn, const char *json, gj_workload *w, gj_ctx *ctx)
{
    wparse s;
    int rc;
    memset(&s, 0, sizeof s);
    s.root = s.aggs_id = -1;
    if (!w) return gj_seterr(ctx, GJ_ERR_INVALID, "workload is NULL");
    if ((rc = gj_json_walk(conn, json, "object", wcb, &s, ctx)) != GJ_OK) return rc;
    if (!(s.seen & (1u << W_OP)))
        return gj_seterr(ctx, GJ_ERR_PARSE, "workload: key \"op\" missing (\"join\" or \"groupby\")");
    /* Absent fields keep the paper's defaults for that operator. */
    gj_workload out;
    gj_workload_default(&out, s.w.op);
    for (int f = 0; f < W_NFIELDS; f++) {
        if (!(s.seen & (1u << f))) continue;
        switch (f) {
        case W_KEY_BYTES: out.key_bytes = s.w.key_bytes; break;
        case W_PAYLOAD_BYTES: out.payload_bytes = s.w.payload_bytes; break;
        case W_ZIPF: out.zipf = s.w.zipf; break;
        case W_R_ROWS: out.r_rows = s.w.r_rows; break;
        case W_S_ROWS: out.s_rows = s.w.s_rows; break;
        case W_R_PAYLOADS: out.r_payloads = s.w.r_payloads; break;
        case W_S_PAYLOADS: out.s_payloads = s.w.s_payloads; break;
        case W_MATCH_RATIO: out.match_ratio = s.w.match_ratio; break;
        case W_OUT_ROWS: out.out_rows = s.w.out_rows; break;
        case W_ROWS: out.rows = s.w.rows; break;
        case W_GROUPS: out.groups = s.w.groups; break;
        case W_AGGS:
            out.n_aggs = s.w.n_aggs;
            memset(out.aggs, 0, sizeof out.aggs);
            memcpy(out.aggs, s.w.aggs, sizeof out.aggs[0] * (size_t)s.w.n_aggs);
            break;
        case W_SORTED: out.sorted_output = s.w.sorted_output; break;
        case W_S_RUN: out.s_run = s.w.s_run; break;
        case W_SORTED_KEYS: out.sorted_keys = s.w.sorted_keys; break;
        case W_R_SORTED: out.r_sorted = s.w.r_sorted; break;
        case W_S_SORTED: out.s_sorted = s.w.s_sorted; break;
        case W_FILTER: out.filter = s.w.filter; break;
        case W_KEY_RANGE: out.key_range = s.w.key_range; break;
        default: break;
        }
    }
    if ((rc = gj_workload_check(&out, ctx)) != GJ_OK) return rc;
    *w = out;
    return GJ_OK;
}

int gj_workload_from_json(const char *json, gj_workload *w, gj_ctx *ctx)
{
    return gj_workload_from_json_conn(NULL, json, w, ctx);
}
