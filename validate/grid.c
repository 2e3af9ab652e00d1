/* Validation grids: the compiled-in "default" and "quick" grids (JSON text,
 * parsed by the same code as grid files) and the grid file parser, reading
 * JSON through SQLite's JSON functions (json_valid, json_type, json_each).
 * Format: validate/VALIDATE.md. */
#include "validate/validate.h"
#include "common/internal.h"
#include "db/store.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const PARAM_NAMES[GJ_VP_COUNT] = {
    "match_ratio", "r_rows", "s_rows", "payloads", "key_bytes",
    "payload_bytes", "zipf", "groups", "aggs", "rows"};

const char *gj_vparam_name(gj_vparam p)
{
    return (unsigned)p < GJ_VP_COUNT ? PARAM_NAMES[p] : NULL;
}

int gj_vparam_log(gj_vparam p)
{
    return p == GJ_VP_R_ROWS || p == GJ_VP_S_ROWS || p == GJ_VP_GROUPS || p == GJ_VP_ROWS;
}

/* ---- the compiled-in grids ------------------------------------------------ */

/* Base workloads: JOIN(|R|, |S|, key = payload bytes), 2+2 payload columns,
 * match ratio 1; GB(rows, groups, key bytes, aggregates), 4-byte payloads. */
#define JOIN(r, s, kb) "\"op\":\"join\",\"r_rows\":" #r ",\"s_rows\":" #s ",\"key_bytes\":" #kb \
                       ",\"payload_bytes\":" #kb ",\"r_payloads\":2,\"s_payloads\":2,\"match_ratio\":1"
#define GB(n, g, kb, aggs) "\"op\":\"groupby\",\"rows\":" #n ",\"groups\":" #g ",\"key_bytes\":" #kb \
                           ",\"payload_bytes\":4,\"aggs\":" aggs
#define MAXMAX "[\"max\",\"max\"]"
#define MIX1 "[\"sum\",\"max\",\"count\",\"avg\"]"
#define MIX2 "[\"max\",\"sum\",\"avg\",\"count\"]"

static const char DEFAULT_GRID[] =
    "{\"sweeps\":["
    "{\"name\":\"join-match\",\"base\":{" JOIN(33554432, 33554432, 4) "},\"param\":\"match_ratio\","
    "\"values\":[0.02,0.05,0.1,0.2,0.3,0.4,0.5,0.7,1.0]},"
    "{\"name\":\"join-payloads\",\"base\":{" JOIN(33554432, 33554432, 4) "},\"param\":\"payloads\","
    "\"values\":[0,1,2,3,4,6]},"
    "{\"name\":\"join-size\",\"base\":{" JOIN(33554432, 33554432, 4) "},\"param\":\"rows\","
    "\"values\":[4194304,8388608,16777216,33554432,67108864,134217728]},"
    "{\"name\":\"join-match-8b\",\"base\":{" JOIN(33554432, 33554432, 8) "},\"param\":\"match_ratio\","
    "\"values\":[0.1,0.3,0.6,1.0]},"
    "{\"name\":\"join-zipf\",\"base\":{" JOIN(33554432, 33554432, 4) "},\"param\":\"zipf\","
    "\"values\":[0,0.5,1.0,1.5]},"
    "{\"name\":\"join-s-rows\",\"base\":{" JOIN(8388608, 8388608, 4) "},\"param\":\"s_rows\","
    "\"values\":[8388608,16777216,33554432,67108864]},"
    "{\"name\":\"join-match-s4r\",\"base\":{" JOIN(8388608, 33554432, 4) "},\"param\":\"match_ratio\","
    "\"values\":[0.1,0.2,0.4,0.7,1.0]},"
    "{\"name\":\"gb-groups\",\"base\":{" GB(67108864, 4096, 4, MAXMAX) "},\"param\":\"groups\","
    "\"values\":[2,8,32,128,512,2048,8192,32768,131072,524288,2097152,8388608,16777216]},"
    "{\"name\":\"gb-aggs\",\"base\":{" GB(67108864, 4096, 4, MIX1) "},\"param\":\"aggs\",\"values\":[1,2,3,4]},"
    "{\"name\":\"gb-aggs-g1m\",\"base\":{" GB(67108864, 1048576, 4, MIX2) "},\"param\":\"aggs\","
    "\"values\":[1,2,3,4]},"
    "{\"name\":\"gb-zipf\",\"base\":{" GB(67108864, 4096, 4, MAXMAX) "},\"param\":\"zipf\","
    "\"values\":[0,0.5,1.0,1.5]},"
    "{\"name\":\"gb-groups-k8\",\"base\":{" GB(67108864, 4096, 8, MAXMAX) "},\"param\":\"groups\","
    "\"values\":[16,1024,65536,4194304]},"
    /* Denser sweeps and shapes from real plans (small build sides, few rows
     * per group), so that tune has both sides of its split everywhere. */
    "{\"name\":\"join-match-fine\",\"base\":{" JOIN(16777216, 16777216, 4) "},\"param\":\"match_ratio\","
    "\"values\":[0.03,0.08,0.15,0.25,0.35,0.45,0.6,0.8,0.9]},"
    "{\"name\":\"join-small-build\",\"base\":{" JOIN(1048576, 67108864, 4) "},\"param\":\"match_ratio\","
    "\"values\":[0.05,0.2,0.5,1.0]},"
    "{\"name\":\"join-r-rows\",\"base\":{" JOIN(1048576, 67108864, 4) "},\"param\":\"r_rows\","
    "\"values\":[262144,4194304,16777216,67108864]},"
    /* tiny build sides against medium to large probe sides, as TPC-H's Q18
     * joins (624 x 15 M rows): runs of 0.05-1 ms, so that tune sees what
     * the fixed costs of each join are */
    "{\"name\":\"join-tiny-build\",\"base\":{" JOIN(1024, 16777216, 4) "},\"param\":\"s_rows\","
    "\"values\":[1048576,4194304,16777216,67108864]},"
    "{\"name\":\"join-tiny-r\",\"base\":{" JOIN(64, 4194304, 4) "},\"param\":\"r_rows\","
    "\"values\":[64,4096,65536]},"
    /* mid-size joins, as TPC-H's Q3 and Q5 at SF 10 (10^5-10^6 build rows
     * against 8x as many probe rows) and Q18's large build side against a
     * few thousand probe rows: 0.1-0.3 ms runs, where PHJ's launches and
     * read-backs outweigh its bytes (H200, 2026-11-23: PHJ-TR 0.208 ms
     * measured, 0.083 predicted, at 300270 x 2275919) */
    "{\"name\":\"join-mid\",\"base\":{" JOIN(262144, 2097152, 4) "},\"param\":\"match_ratio\","
    "\"values\":[0.05,0.2,0.5,1.0]},"
    "{\"name\":\"join-small-probe\",\"base\":{" JOIN(1048576, 4096, 4) "},\"param\":\"s_rows\","
    "\"values\":[4096,65536,1048576]},"
    /* a build side PHJ partitions in one pass (at most 2^19 rows) against a
     * probe side 128x larger at low match ratios, as TPC-H's Q5 (456771 x
     * 60 M order keys at 0.03): PHJ-TR was predicted 0.81 ms and took 1.16
     * there (NPHJ 0.95), and no point of the grid had that one pass */
    "{\"name\":\"join-big-probe\",\"base\":{" JOIN(524288, 67108864, 4) "},\"param\":\"match_ratio\","
    "\"values\":[0.01,0.03,0.1,0.3]},"
    /* the same with S in runs of 4 equal keys, as Q5's lineitem is by order
     * key: NPHJ's probes and GFUR's gathers of R hit the L1 after a run's
     * first row (workload s_run) */
    "{\"name\":\"join-big-probe-runs\",\"base\":{" JOIN(524288, 67108864, 4) ",\"s_run\":4},"
    "\"param\":\"match_ratio\",\"values\":[0.01,0.03,0.1,0.3]},"
    "{\"name\":\"join-payloads-8b\",\"base\":{" JOIN(16777216, 16777216, 8) "},\"param\":\"payloads\","
    "\"values\":[0,1,2,4]},"
    "{\"name\":\"join-zipf-s4r\",\"base\":{" JOIN(8388608, 33554432, 4) "},\"param\":\"zipf\","
    "\"values\":[0.25,0.75,1.25]},"
    /* the keys' span told (workload key_range; a groups sweep moves it with
     * the groups): PGB's direct plan, one table up to 2^14 groups, full
     * tables and a bit fewer above; gb-groups beside it is hashed */
    "{\"name\":\"gb-groups-fine\",\"base\":{" GB(67108864, 4096, 4, MAXMAX) ",\"key_range\":4096},"
    "\"param\":\"groups\",\"values\":[4,16,64,256,1024,4096,16384,65536,262144,1048576,4194304,33554432]},"
    "{\"name\":\"gb-rows\",\"base\":{" GB(67108864, 4096, 4, MAXMAX) "},\"param\":\"rows\","
    "\"values\":[4194304,16777216,134217728]},"
    "{\"name\":\"gb-rows-g1m\",\"base\":{" GB(67108864, 1048576, 4, MAXMAX) "},\"param\":\"rows\","
    "\"values\":[4194304,16777216,134217728]},"
    "{\"name\":\"gb-aggs-g64\",\"base\":{" GB(67108864, 64, 4, MIX1) "},\"param\":\"aggs\","
    "\"values\":[1,2,3,4]},"
    "{\"name\":\"gb-zipf-g1m\",\"base\":{" GB(67108864, 1048576, 4, MAXMAX) "},\"param\":\"zipf\","
    "\"values\":[0.5,1.0,1.5]},"
    /* rows in key order (workload sorted_keys: a table stored by its key,
     * TPC-H's lineitem for Q18's group-by): SGB-* skip their sorts */
    "{\"name\":\"gb-ordered\",\"base\":{" GB(67108864, 4096, 4, "[\"sum\"]") ",\"sorted_keys\":true},"
    "\"param\":\"groups\",\"values\":[1024,65536,1048576,16777216]},"
    /* join sides in key order (workload r_sorted, s_sorted: TPC-H's orders
     * and lineitem by order key): SMJ-* merge them in place. S 4 rows a
     * key as lineitem's order keys; then both sides */
    "{\"name\":\"join-sorted-s\",\"base\":{" JOIN(16777216, 67108864, 4) ",\"s_sorted\":true},"
    "\"param\":\"match_ratio\",\"values\":[0.03,0.3,1.0]},"
    "{\"name\":\"join-sorted-both\",\"base\":{" JOIN(33554432, 33554432, 4) ",\"r_sorted\":true,"
    "\"s_sorted\":true},\"param\":\"match_ratio\",\"values\":[0.1,0.5,1.0]}"
    "]}";

static const char QUICK_GRID[] =
    "{\"sweeps\":["
    "{\"name\":\"join-match\",\"base\":{" JOIN(4194304, 4194304, 4) "},\"param\":\"match_ratio\","
    "\"values\":[0.05,0.2,0.4,0.7,1.0]},"
    "{\"name\":\"join-payloads\",\"base\":{" JOIN(4194304, 4194304, 4) "},\"param\":\"payloads\","
    "\"values\":[0,2,4]},"
    "{\"name\":\"gb-groups\",\"base\":{" GB(4194304, 4096, 4, MAXMAX) "},\"param\":\"groups\","
    "\"values\":[2,32,512,8192,131072,2097152]},"
    "{\"name\":\"gb-aggs\",\"base\":{" GB(4194304, 4096, 4, MIX1) "},\"param\":\"aggs\",\"values\":[1,2,4]}"
    "]}";

const char *gj_grid_builtin_json(const char *name)
{
    if (!name) return NULL;
    if (!strcmp(name, "default")) return DEFAULT_GRID;
    if (!strcmp(name, "quick")) return QUICK_GRID;
    return NULL;
}

/* ---- parsing ---------------------------------------------------------------- */

void gj_grid_free(gj_grid *g)
{
    if (!g) return;
    free(g->points);
    free(g);
}

static int name_ok(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n == 0 || n > max) return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '.' || *s == '_' || *s == '-'))
            return 0;
    return 1;
}

static int is_int(double v) { return v == floor(v); }

/* Point `index` of sweep s: the base with the parameter set to v. */
static int apply_param(const gj_sweep *s, int si, int index, double v, gj_workload *w, gj_ctx *ctx)
{
    const char *pn = PARAM_NAMES[s->param];
    gj_op op = s->base.op;
    *w = s->base;
#define BAD(...)                                                                                    \
    do {                                                                                            \
        char m_[256];                                                                               \
        snprintf(m_, sizeof m_, __VA_ARGS__);                                                       \
        return gj_seterr(ctx, GJ_ERR_INVALID, "sweep %d (\"%s\"): values[%d]=%.17g: %s", si,        \
                         s->name, index, v, m_);                                                    \
    } while (0)
    switch (s->param) {
    case GJ_VP_MATCH_RATIO:
        if (!(v >= 0 && v <= 1)) BAD("match_ratio allowed 0..1");
        w->match_ratio = v;
        break;
    case GJ_VP_R_ROWS: case GJ_VP_S_ROWS: case GJ_VP_GROUPS: case GJ_VP_ROWS:
        if (!(v >= 1 && v <= (double)GJ_MAX_ROWS) || !is_int(v)) BAD("%s allowed an integer 1..2^40", pn);
        if (s->param == GJ_VP_R_ROWS) w->r_rows = (uint64_t)v;
        else if (s->param == GJ_VP_S_ROWS) w->s_rows = (uint64_t)v;
        else if (s->param == GJ_VP_GROUPS) {
            w->groups = (uint64_t)v;
            if (w->key_range) w->key_range = w->groups; /* the generator's keys 0..g-1 span g */
        }
        else if (op == GJ_OP_JOIN) w->r_rows = w->s_rows = (uint64_t)v;
        else {
            w->rows = (uint64_t)v;
            if (w->groups > w->rows) w->groups = w->rows;
        }
        break;
    case GJ_VP_PAYLOADS:
        if (!(v >= 0 && v <= GJ_MAX_PAYLOADS) || !is_int(v)) BAD("payloads allowed an integer 0..%d", GJ_MAX_PAYLOADS);
        w->r_payloads = w->s_payloads = (int)v;
        break;
    case GJ_VP_KEY_BYTES: case GJ_VP_PAYLOAD_BYTES:
        if (v != 4 && v != 8) BAD("%s allowed 4 or 8", pn);
        if (s->param == GJ_VP_KEY_BYTES) w->key_bytes = (int)v;
        else w->payload_bytes = (int)v;
        break;
    case GJ_VP_ZIPF:
        if (!(v >= 0 && v <= 10)) BAD("zipf allowed 0..10");
        w->zipf = v;
        break;
    case GJ_VP_AGGS:
        if (!(v >= 1 && v <= s->base.n_aggs) || !is_int(v))
            BAD("aggs allowed an integer 1..%d (the number of aggregates listed in base.aggs; value n "
                "keeps the first n)", s->base.n_aggs);
        w->n_aggs = (int)v;
        for (int i = w->n_aggs; i < GJ_MAX_AGGS; i++) w->aggs[i] = GJ_AGG_SUM;
        break;
    default: BAD("unknown parameter");
    }
#undef BAD
    gj_ctx c = {0};
    if (gj_workload_check(w, &c) != GJ_OK)
        return gj_seterr(ctx, GJ_ERR_INVALID, "sweep %d (\"%s\"): values[%d]=%.17g: workload: %s", si,
                         s->name, index, v, c.msg);
    return GJ_OK;
}

typedef struct gparse {
    sqlite3 *c;
    sqlite3_stmt *each;      /* SELECT key, type, value FROM json_each(?1, ?2) */
    const char *json;
} gparse;

static int sqlfail(gparse *p, gj_ctx *ctx)
{
    int src = sqlite3_errcode(p->c);
    return gj_seterr(ctx, src == SQLITE_NOMEM ? GJ_ERR_NOMEM : GJ_ERR_DB, "grid: SQLite: %s",
                     sqlite3_errmsg(p->c));
}

static int each_start(gparse *p, const char *path, gj_ctx *ctx)
{
    sqlite3_reset(p->each);
    if (sqlite3_bind_text(p->each, 1, p->json, -1, SQLITE_STATIC) != SQLITE_OK ||
        sqlite3_bind_text(p->each, 2, path, -1, SQLITE_TRANSIENT) != SQLITE_OK)
        return sqlfail(p, ctx);
    return GJ_OK;
}

static int parse_sweep(gparse *p, int si, gj_sweep *s, gj_ctx *ctx)
{
    char path[64], vpath[80];
    enum { F_NAME = 1, F_BASE = 2, F_PARAM = 4, F_VALUES = 8 };
    unsigned seen = 0;
    int rc, src;
    char *base_json = NULL;
    memset(s, 0, sizeof *s);
    snprintf(path, sizeof path, "$.sweeps[%d]", si);
    if ((rc = each_start(p, path, ctx))) return rc;
    while ((src = sqlite3_step(p->each)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(p->each, 0);
        const char *type = (const char *)sqlite3_column_text(p->each, 1);
        const char *val = (const char *)sqlite3_column_text(p->each, 2);
        unsigned f = !strcmp(key, "name") ? F_NAME : !strcmp(key, "base") ? F_BASE
                   : !strcmp(key, "param") ? F_PARAM : !strcmp(key, "values") ? F_VALUES : 0;
        if (!f) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "sweep %d: unknown key \"%s\"; allowed name, base, param, values",
                           si, key);
            goto done;
        }
        if (seen & f) { rc = gj_seterr(ctx, GJ_ERR_PARSE, "sweep %d: key \"%s\" appears twice", si, key); goto done; }
        seen |= f;
        if (f == F_NAME) {
            if (strcmp(type, "text") || !name_ok(val, 40)) {
                rc = gj_seterr(ctx, GJ_ERR_PARSE, "sweep %d: name: allowed a string of 1..40 characters "
                               "[A-Za-z0-9._-]", si);
                goto done;
            }
            gj_strlcpy(s->name, val, sizeof s->name);
        } else if (f == F_PARAM) {
            int k;
            for (k = 0; k < GJ_VP_COUNT && (strcmp(type, "text") || strcmp(val, PARAM_NAMES[k])); k++)
                ;
            if (k == GJ_VP_COUNT) {
                rc = gj_seterr(ctx, GJ_ERR_PARSE, "sweep %d: param=%s: allowed match_ratio, r_rows, s_rows, "
                               "payloads, key_bytes, payload_bytes, zipf, groups, aggs, rows", si,
                               val ? val : type);
                goto done;
            }
            s->param = (gj_vparam)k;
        } else if (f == F_BASE) {
            if (strcmp(type, "object")) {
                rc = gj_seterr(ctx, GJ_ERR_PARSE, "sweep %d: base: is %s, expected a workload object", si, type);
                goto done;
            }
            free(base_json);
            if (!(base_json = strdup(val))) { rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory"); goto done; }
        } else if (strcmp(type, "array")) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "sweep %d: values: is %s, expected an array of numbers", si, type);
            goto done;
        }
    }
    if (src != SQLITE_DONE) { rc = sqlfail(p, ctx); goto done; }
    static const char *const fnames[] = {"name", "base", "param", "values"};
    for (int k = 0; k < 4; k++)
        if (!(seen & (1u << k))) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "sweep %d: key \"%s\" missing (each sweep has name, base, "
                           "param, values)", si, fnames[k]);
            goto done;
        }
    {
        gj_ctx c = {0};
        if ((rc = gj_workload_from_json_conn(p->c, base_json, &s->base, &c))) {
            rc = gj_seterr(ctx, rc, "sweep %d (\"%s\"): base: %s", si, s->name, c.msg);
            goto done;
        }
    }
    {
        int ok = s->base.op == GJ_OP_JOIN ? s->param != GJ_VP_GROUPS && s->param != GJ_VP_AGGS
                                          : s->param != GJ_VP_MATCH_RATIO && s->param != GJ_VP_R_ROWS &&
                                                s->param != GJ_VP_S_ROWS && s->param != GJ_VP_PAYLOADS;
        if (!ok) {
            rc = gj_seterr(ctx, GJ_ERR_INVALID, "sweep %d (\"%s\"): param=%s does not apply to a %s base; "
                           "joins: match_ratio, r_rows, s_rows, payloads, key_bytes, payload_bytes, zipf, rows; "
                           "group-bys: groups, aggs, key_bytes, payload_bytes, zipf, rows", si, s->name,
                           PARAM_NAMES[s->param], s->base.op == GJ_OP_JOIN ? "join" : "groupby");
            goto done;
        }
    }
    snprintf(vpath, sizeof vpath, "%s.values", path);
    if ((rc = each_start(p, vpath, ctx))) goto done;
    while ((src = sqlite3_step(p->each)) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(p->each, 1);
        int i = s->n_values;
        if (i == GJ_GRID_MAX_VALUES) {
            rc = gj_seterr(ctx, GJ_ERR_INVALID, "sweep %d (\"%s\"): values: more than %d", si, s->name,
                           GJ_GRID_MAX_VALUES);
            goto done;
        }
        if (strcmp(type, "integer") && strcmp(type, "real")) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "sweep %d (\"%s\"): values[%d]: is %s, expected a number", si,
                           s->name, i, type);
            goto done;
        }
        double v = sqlite3_column_double(p->each, 2);
        if (!isfinite(v)) {
            rc = gj_seterr(ctx, GJ_ERR_INVALID, "sweep %d (\"%s\"): values[%d]: not finite", si, s->name, i);
            goto done;
        }
        if (i > 0 && !(v > s->values[i - 1])) {
            rc = gj_seterr(ctx, GJ_ERR_INVALID, "sweep %d (\"%s\"): values[%d]=%.17g: values must increase "
                           "(previous %.17g)", si, s->name, i, v, s->values[i - 1]);
            goto done;
        }
        s->values[s->n_values++] = v;
    }
    if (src != SQLITE_DONE) { rc = sqlfail(p, ctx); goto done; }
    if (!s->n_values) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "sweep %d (\"%s\"): values: empty; allowed 1..%d numbers", si,
                       s->name, GJ_GRID_MAX_VALUES);
        goto done;
    }
    rc = GJ_OK;
done:
    free(base_json);
    return rc;
}

int gj_grid_parse(const char *json, const char *name, gj_grid **out, gj_ctx *ctx)
{
    gparse p = {0};
    gj_grid *g = NULL;
    sqlite3_stmt *st = NULL;
    char *wrapped = NULL;
    int rc = GJ_OK, src;
    if (out) *out = NULL;
    if (!json || !name || !out) return gj_seterr(ctx, GJ_ERR_INVALID, "grid: json, name or out is NULL");
    if (!name_ok(name, 40))
        return gj_seterr(ctx, GJ_ERR_INVALID, "grid name \"%s\": allowed 1..40 characters [A-Za-z0-9._-]", name);
    if (!(g = calloc(1, sizeof *g))) return gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory");
    gj_strlcpy(g->name, name, sizeof g->name);
    snprintf(g->tag, sizeof g->tag, "validate:%s", name);
    p.json = json;
    if (sqlite3_open_v2(":memory:", &p.c, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        rc = gj_seterr(ctx, GJ_ERR_NOMEM, "grid: cannot open SQLite");
        goto done;
    }
    /* a top-level array of sweeps is wrapped as {"sweeps": [...]} */
    if (sqlite3_prepare_v2(p.c, "SELECT json_valid(?1), CASE WHEN json_valid(?1) THEN json_type(?1) END",
                           -1, &st, NULL) != SQLITE_OK ||
        sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) {
        rc = sqlfail(&p, ctx);
        goto done;
    }
    if (!sqlite3_column_int(st, 0)) { rc = gj_seterr(ctx, GJ_ERR_PARSE, "grid %s: not valid JSON", name); goto done; }
    char type[16];
    gj_strlcpy(type, (const char *)sqlite3_column_text(st, 1), sizeof type);
    sqlite3_finalize(st);
    st = NULL;
    if (!strcmp(type, "array")) {
        size_t n = strlen(json);
        if (!(wrapped = malloc(n + 16))) { rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory"); goto done; }
        snprintf(wrapped, n + 16, "{\"sweeps\":%s}", json);
        p.json = wrapped;
    } else if (strcmp(type, "object")) {
        rc = gj_seterr(ctx, GJ_ERR_PARSE, "grid %s: top level is %s; allowed {\"sweeps\": [...]} or [...]",
                       name, type);
        goto done;
    }
    if (sqlite3_prepare_v2(p.c, "SELECT key, type, value FROM json_each(?1, ?2)", -1, &p.each, NULL) != SQLITE_OK) {
        rc = sqlfail(&p, ctx);
        goto done_w;
    }
    /* top-level keys */
    int have_sweeps = 0, nsw = 0;
    if ((rc = each_start(&p, "$", ctx))) goto done_w;
    while ((src = sqlite3_step(p.each)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(p.each, 0);
        const char *t = (const char *)sqlite3_column_text(p.each, 1);
        if (strcmp(key, "sweeps")) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "grid %s: unknown key \"%s\"; allowed sweeps", name, key);
            goto done_w;
        }
        if (strcmp(t, "array")) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "grid %s: sweeps: is %s, expected an array of sweeps", name, t);
            goto done_w;
        }
        have_sweeps = 1;
    }
    if (src != SQLITE_DONE) { rc = sqlfail(&p, ctx); goto done_w; }
    if (!have_sweeps) { rc = gj_seterr(ctx, GJ_ERR_PARSE, "grid %s: key \"sweeps\" missing", name); goto done_w; }
    if ((rc = each_start(&p, "$.sweeps", ctx))) goto done_w;
    while ((src = sqlite3_step(p.each)) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(p.each, 1);
        if (strcmp(t, "object")) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "sweep %d: is %s, expected an object {name, base, param, values}",
                           nsw, t);
            goto done_w;
        }
        nsw++;
    }
    if (src != SQLITE_DONE) { rc = sqlfail(&p, ctx); goto done_w; }
    if (nsw == 0 || nsw > GJ_GRID_MAX_SWEEPS) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "grid %s: sweeps: %d given; allowed 1..%d", name, nsw,
                       GJ_GRID_MAX_SWEEPS);
        goto done_w;
    }
    int npts = 0;
    for (int i = 0; i < nsw; i++) {
        if ((rc = parse_sweep(&p, i, &g->sweeps[i], ctx))) goto done_w;
        for (int j = 0; j < i; j++)
            if (!strcmp(g->sweeps[j].name, g->sweeps[i].name)) {
                rc = gj_seterr(ctx, GJ_ERR_INVALID, "sweep %d (\"%s\"): name: used by sweep %d too; names "
                               "must be unique", i, g->sweeps[i].name, j);
                goto done_w;
            }
        npts += g->sweeps[i].n_values;
    }
    g->n_sweeps = nsw;
    if (!(g->points = calloc((size_t)npts, sizeof *g->points))) { rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory"); goto done_w; }
    for (int i = 0; i < nsw; i++)
        for (int j = 0; j < g->sweeps[i].n_values; j++) {
            gj_vpoint *pt = &g->points[g->n_points];
            pt->sweep = i;
            pt->index = j;
            pt->x = g->sweeps[i].values[j];
            if ((rc = apply_param(&g->sweeps[i], i, j, pt->x, &pt->w, ctx))) goto done_w;
            g->n_points++;
        }
    rc = GJ_OK;
done_w:
    free(wrapped);
done:
    sqlite3_finalize(st);
    sqlite3_finalize(p.each);
    sqlite3_close(p.c);
    if (rc) gj_grid_free(g);
    else *out = g;
    return rc;
}

int gj_grid_load(const char *name_or_path, gj_grid **out, gj_ctx *ctx)
{
    if (out) *out = NULL;
    if (!name_or_path || !out) return gj_seterr(ctx, GJ_ERR_INVALID, "grid: name or out is NULL");
    const char *bj = gj_grid_builtin_json(name_or_path);
    if (bj) return gj_grid_parse(bj, name_or_path, out, ctx);
    FILE *f = fopen(name_or_path, "rb");
    if (!f)
        return gj_seterr(ctx, GJ_ERR_IO, "grid %s: %s; allowed default, quick or a JSON grid file",
                         name_or_path, strerror(errno));
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int rc = GJ_OK;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            if (cap > (64u << 20)) { rc = gj_seterr(ctx, GJ_ERR_PARSE, "grid %s: larger than 64 MiB", name_or_path); break; }
            char *nb = realloc(buf, cap);
            if (!nb) { rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory"); break; }
            buf = nb;
        }
        size_t r = fread(buf + len, 1, cap - len - 1, f);
        len += r;
        if (r == 0) {
            if (ferror(f)) rc = gj_seterr(ctx, GJ_ERR_IO, "grid %s: read error", name_or_path);
            break;
        }
    }
    fclose(f);
    if (rc == GJ_OK) {
        buf[len] = 0;
        if (strlen(buf) != len) rc = gj_seterr(ctx, GJ_ERR_PARSE, "grid %s: contains a NUL byte", name_or_path);
    }
    if (rc == GJ_OK) {
        /* grid name: base name without a .json suffix, odd characters as '_' */
        const char *b = strrchr(name_or_path, '/');
        b = b ? b + 1 : name_or_path;
        char nm[41];
        gj_strlcpy(nm, b, sizeof nm);
        size_t n = strlen(nm);
        if (n > 5 && !strcmp(nm + n - 5, ".json")) nm[n - 5] = 0;
        for (char *c = nm; *c; c++)
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                  *c == '.' || *c == '_' || *c == '-'))
                *c = '_';
        if (!*nm) gj_strlcpy(nm, "grid", sizeof nm);
        rc = gj_grid_parse(buf, nm, out, ctx);
    }
    free(buf);
    return rc;
}
