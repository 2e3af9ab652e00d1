/* gjadvise explain: DuckDB's EXPLAIN (FORMAT JSON) annotated with the GPU
 * implementation gj_advise recommends for every hash join and hash group-by
 * (the mapping rules are in explain/explain.h). The JSON is read with one
 * SQLite json_tree query into a table of rows; the plan is then walked in C
 * over that table. */
#include "explain/explain.h"
#include "db/json.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_DEPTH 256
#define PERFECT_HT_GROUPS 4096.0 /* DuckDB's perfect_ht_threshold: 12 bits */

/* ---- the JSON document as a table ------------------------------------------ */

typedef struct {
    int64_t id, parent;
    char *key;        /* member name, NULL for array elements and the root */
    char type[8];     /* "object" "array" "text" "integer" "real" "true" ... */
    char *text;       /* text: decoded string; numbers: literal; else NULL */
    int first, next, last; /* children (indexes), -1 if none */
} jrow;

typedef struct {
    jrow *r;
    int n, cap;
} jdoc;

typedef struct {
    int64_t id;
    int idx;
} idpair;

static int cmp_id(const void *a, const void *b)
{
    const idpair *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

static void jdoc_free(jdoc *d)
{
    for (int i = 0; i < d->n; i++) {
        free(d->r[i].key);
        free(d->r[i].text);
    }
    free(d->r);
    memset(d, 0, sizeof *d);
}

/* gj_json_walk callback: one row per node, strings copied. */
static int add_row(void *ud, const gj_json_node *n, gj_ctx *ctx)
{
    jdoc *d = ud;
    if (d->n == d->cap) {
        int cap = d->cap ? 2 * d->cap : 256;
        jrow *r = realloc(d->r, (size_t)cap * sizeof *r);
        if (!r) return gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory reading the plan");
        d->r = r;
        d->cap = cap;
    }
    jrow *r = &d->r[d->n];
    memset(r, 0, sizeof *r);
    r->id = n->id;
    r->parent = n->parent;
    r->first = r->next = r->last = -1;
    gj_strlcpy(r->type, n->type, sizeof r->type);
    d->n++;
    if ((n->key && !(r->key = strdup(n->key))) || (n->text && !(r->text = strdup(n->text))))
        return gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory reading the plan");
    return GJ_OK;
}

static int load_json(const char *json, jdoc *d, gj_ctx *ctx)
{
    idpair *ids = NULL;
    gj_ctx c = {0};
    memset(d, 0, sizeof *d);
    int rc = gj_json_walk(NULL, json, NULL, add_row, d, &c);
    if (rc != GJ_OK)
        rc = gj_seterr(ctx, rc, "%s%s", c.msg,
                       rc == GJ_ERR_PARSE ? "; expected the output of DuckDB's EXPLAIN (FORMAT JSON)" : "");
    if (rc != GJ_OK) goto done;
    /* children lists, in document order */
    ids = malloc((size_t)(d->n ? d->n : 1) * sizeof *ids);
    if (!ids) {
        rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory reading the plan");
        goto done;
    }
    for (int i = 0; i < d->n; i++) ids[i] = (idpair){d->r[i].id, i};
    qsort(ids, (size_t)d->n, sizeof *ids, cmp_id);
    for (int i = 0; i < d->n; i++) {
        if (d->r[i].parent < 0) continue;
        idpair key = {d->r[i].parent, 0};
        idpair *p = bsearch(&key, ids, (size_t)d->n, sizeof *ids, cmp_id);
        if (!p) continue;
        jrow *par = &d->r[p->idx];
        if (par->last < 0) par->first = i;
        else d->r[par->last].next = i;
        par->last = i;
    }
done:
    free(ids);
    if (rc != GJ_OK) jdoc_free(d);
    return rc;
}

static int member(const jdoc *d, int obj, const char *name)
{
    for (int c = d->r[obj].first; c >= 0; c = d->r[c].next)
        if (d->r[c].key && !strcmp(d->r[c].key, name)) return c;
    return -1;
}

static int count_children(const jdoc *d, int idx)
{
    int n = 0;
    for (int c = d->r[idx].first; c >= 0; c = d->r[c].next) n++;
    return n;
}

/* ---- the plan tree ---------------------------------------------------------- */

typedef struct {
    const jdoc *d;
    gj_explain *e;
    int cap;
    int *jidx;          /* node -> its object row */
    const gj_profile *p;
    gj_explain_opts o;
} walker;

static int add_node(walker *wk, int obj, const char *path, int depth, int parent, gj_ctx *ctx);

static int node_err(gj_ctx *ctx, const char *path, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int node_err(gj_ctx *ctx, const char *path, const char *name, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t l = strlen(path);
    if (l > 200) /* deep nodes: keep both ends of the path so the message fits */
        return gj_seterr(ctx, GJ_ERR_PARSE, "%.90s...%s%s%s: %s", path, path + l - 90,
                         name ? " " : "", name ? name : "", msg);
    return gj_seterr(ctx, GJ_ERR_PARSE, "%s%s%s: %s", path, name ? " " : "", name ? name : "",
                     msg);
}

/* Parse an estimate: a string or number holding a non-negative number. */
static int parse_card(const jrow *r, double *out)
{
    if (!r->text) return -1;
    const char *s = r->text;
    if (!strcmp(r->type, "text")) {
        for (const char *q = s; *q; q++)
            if (!isdigit((unsigned char)*q) && *q != '.' && *q != 'e' && *q != 'E' && *q != '+')
                return -1;
    } else if (strcmp(r->type, "integer") && strcmp(r->type, "real")) {
        return -1;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v) || v < 0) return -1;
    *out = v;
    return 0;
}

static int grow(walker *wk)
{
    gj_explain *e = wk->e;
    if (e->n < wk->cap) return GJ_OK;
    int cap = wk->cap ? 2 * wk->cap : 64;
    gj_explain_node *nn = realloc(e->nodes, (size_t)cap * sizeof *nn);
    if (!nn) return GJ_ERR_NOMEM;
    e->nodes = nn;
    int *ji = realloc(wk->jidx, (size_t)cap * sizeof *ji);
    if (!ji) return GJ_ERR_NOMEM;
    wk->jidx = ji;
    wk->cap = cap;
    return GJ_OK;
}

static int add_node(walker *wk, int obj, const char *path, int depth, int parent, gj_ctx *ctx)
{
    const jdoc *d = wk->d;
    const jrow *r = &d->r[obj];
    if (strcmp(r->type, "object"))
        return node_err(ctx, path, NULL, "is %s, expected a plan node (an object with \"name\", "
                                         "\"children\", \"extra_info\")", r->type);
    int nm = member(d, obj, "name");
    if (nm < 0)
        return node_err(ctx, path, NULL, "no \"name\": expected a DuckDB operator name such as "
                                         "HASH_JOIN");
    if (strcmp(d->r[nm].type, "text") || !d->r[nm].text || !d->r[nm].text[0])
        return node_err(ctx, path, NULL, "\"name\" is %s, expected a non-empty string",
                        d->r[nm].type);
    const char *name = d->r[nm].text;
    if (depth >= MAX_DEPTH)
        return node_err(ctx, path, name, "nested deeper than %d operators", MAX_DEPTH);
    int ch = member(d, obj, "children");
    if (ch >= 0 && strcmp(d->r[ch].type, "array"))
        return node_err(ctx, path, name, "\"children\" is %s, expected an array", d->r[ch].type);
    int ei = member(d, obj, "extra_info");
    if (ei >= 0 && strcmp(d->r[ei].type, "object"))
        return node_err(ctx, path, name,
                        "\"extra_info\" is %s, expected an object (the JSON of DuckDB >= 1.1)",
                        d->r[ei].type);
    if (grow(wk) != GJ_OK) return gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory");
    gj_explain *e = wk->e;
    int me = e->n++;
    gj_explain_node *n = &e->nodes[me];
    memset(n, 0, sizeof *n);
    n->parent = parent;
    n->first_child = n->next_sibling = -1;
    n->depth = depth;
    n->range_rc = -1;
    wk->jidx[me] = obj;
    n->path = strdup(path);
    n->name = strdup(name);
    if (!n->path || !n->name) return gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory");
    size_t l = strlen(n->name);
    while (l > 0 && isspace((unsigned char)n->name[l - 1])) n->name[--l] = 0;
    if (ei >= 0) {
        int ec = member(d, ei, "Estimated Cardinality");
        if (ec >= 0) {
            if (parse_card(&d->r[ec], &n->card))
                return node_err(ctx, path, n->name,
                                "\"Estimated Cardinality\" is %s%s%s%s, expected a non-negative "
                                "number", d->r[ec].type, d->r[ec].text ? " \"" : "",
                                d->r[ec].text ? d->r[ec].text : "", d->r[ec].text ? "\"" : "");
            n->has_card = 1;
        }
    }
    if (ch < 0) return GJ_OK;
    int k = 0, prev = -1;
    for (int c = d->r[ch].first; c >= 0; c = d->r[c].next, k++) {
        size_t plen = strlen(path) + 32;
        char *cp = malloc(plen);
        if (!cp) return gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory");
        snprintf(cp, plen, "%s.children[%d]", path, k);
        int idx = wk->e->n;
        int rc = add_node(wk, c, cp, depth + 1, me, ctx);
        free(cp);
        if (rc != GJ_OK) return rc;
        /* nodes may have moved (realloc): index again */
        if (prev < 0) wk->e->nodes[me].first_child = idx;
        else wk->e->nodes[prev].next_sibling = idx;
        prev = idx;
    }
    return GJ_OK;
}

/* ---- extra_info helpers -------------------------------------------------------- */

static int extra(const walker *wk, int node, const char *key)
{
    int ei = member(wk->d, wk->jidx[node], "extra_info");
    return ei < 0 ? -1 : member(wk->d, ei, key);
}

/* Strings of an extra_info entry (a string or an array of strings): count,
 * and the i-th through at(). */
static int list_len(const walker *wk, int row)
{
    if (row < 0) return 0;
    const jrow *r = &wk->d->r[row];
    if (!strcmp(r->type, "text")) return 1;
    if (!strcmp(r->type, "array")) {
        int n = 0;
        for (int c = r->first; c >= 0; c = wk->d->r[c].next)
            if (!strcmp(wk->d->r[c].type, "text")) n++;
        return n;
    }
    return 0;
}

static const char *list_at(const walker *wk, int row, int i)
{
    const jrow *r = &wk->d->r[row];
    if (!strcmp(r->type, "text")) return i == 0 ? r->text : NULL;
    for (int c = r->first; c >= 0; c = wk->d->r[c].next)
        if (!strcmp(wk->d->r[c].type, "text") && i-- == 0) return wk->d->r[c].text;
    return NULL;
}

static const char *extra_str(const walker *wk, int node, const char *key)
{
    int r = extra(wk, node, key);
    return r >= 0 && !strcmp(wk->d->r[r].type, "text") ? wk->d->r[r].text : NULL;
}

static int child_at(const gj_explain *e, int node, int k)
{
    int c = e->nodes[node].first_child;
    while (c >= 0 && k-- > 0) c = e->nodes[c].next_sibling;
    return c;
}

static int n_children(const gj_explain *e, int node)
{
    int n = 0;
    for (int c = e->nodes[node].first_child; c >= 0; c = e->nodes[c].next_sibling) n++;
    return n;
}

static int is_delim(const char *name)
{
    size_t l = strlen(name);
    return l >= 10 && !strcmp(name + l - 10, "DELIM_JOIN");
}

static int is_hash_groupby(const char *name)
{
    return !strcmp(name, "HASH_GROUP_BY") || !strcmp(name, "PERFECT_HASH_GROUP_BY");
}

/* The enclosing delim join's first child, for a DUMMY_SCAN standing in for it. */
static int dummy_source(const gj_explain *e, int node)
{
    if (strcmp(e->nodes[node].name, "DUMMY_SCAN")) return -1;
    for (int a = e->nodes[node].parent; a >= 0; a = e->nodes[a].parent)
        if (is_delim(e->nodes[a].name)) return child_at(e, a, 0);
    return -1;
}

/* Output rows of a node: its estimate, else derived (see explain.h). */
static int card_of(const walker *wk, int node, double *out, int depth)
{
    const gj_explain *e = wk->e;
    const gj_explain_node *n = &e->nodes[node];
    if (depth > MAX_DEPTH) return -1;
    if (n->has_card) {
        *out = n->card;
        return 0;
    }
    if (!strcmp(n->name, "UNGROUPED_AGGREGATE")) {
        *out = 1;
        return 0;
    }
    int src = dummy_source(e, node);
    if (src >= 0) return card_of(wk, src, out, depth + 1);
    if (!strcmp(n->name, "DUMMY_SCAN")) {
        *out = 1;
        return 0;
    }
    int c0 = child_at(e, node, 0);
    if (!strcmp(n->name, "PERFECT_HASH_GROUP_BY")) {
        double rows;
        if (c0 < 0 || card_of(wk, c0, &rows, depth + 1)) return -1;
        *out = fmin(rows, PERFECT_HT_GROUPS);
        return 0;
    }
    if (!strcmp(n->name, "TOP_N")) {
        const char *top = extra_str(wk, node, "Top");
        double t = NAN, rows;
        if (top) t = strtod(top, NULL);
        int have = c0 >= 0 && !card_of(wk, c0, &rows, depth + 1);
        if (isfinite(t) && t >= 0) {
            *out = have ? fmin(t, rows) : t;
            return 0;
        }
        if (have) *out = rows;
        return have ? 0 : -1;
    }
    if (!strcmp(n->name, "CTE")) c0 = child_at(e, node, n_children(e, node) - 1);
    if (c0 < 0) return -1;
    return card_of(wk, c0, out, depth + 1);
}

/* Columns a node outputs (see explain.h); never below 1. */
static int ncols_of(const walker *wk, int node, int depth)
{
    const gj_explain *e = wk->e;
    const gj_explain_node *n = &e->nodes[node];
    if (depth > MAX_DEPTH) return 1;
    int pr = list_len(wk, extra(wk, node, "Projections"));
    if (pr > 0) return pr;
    if (is_hash_groupby(n->name)) {
        int g = list_len(wk, extra(wk, node, "Groups")) + list_len(wk, extra(wk, node, "Aggregates"));
        return g > 0 ? g : 1;
    }
    if (!strcmp(n->name, "UNGROUPED_AGGREGATE")) {
        int a = list_len(wk, extra(wk, node, "Aggregates"));
        return a > 0 ? a : 1;
    }
    int src = dummy_source(e, node);
    if (src >= 0) return ncols_of(wk, src, depth + 1);
    int c0 = child_at(e, node, 0), c1 = child_at(e, node, 1);
    if (c0 >= 0 && c1 >= 0 && strstr(n->name, "JOIN") && !is_delim(n->name)) {
        const char *jt = extra_str(wk, node, "Join Type");
        jt = jt ? jt : "INNER";
        if (!strcmp(jt, "SEMI") || !strcmp(jt, "ANTI")) return ncols_of(wk, c0, depth + 1);
        if (!strcmp(jt, "MARK")) return ncols_of(wk, c0, depth + 1) + 1;
        if (!strcmp(jt, "RIGHT_SEMI") || !strcmp(jt, "RIGHT_ANTI"))
            return ncols_of(wk, c1, depth + 1);
        return ncols_of(wk, c0, depth + 1) + ncols_of(wk, c1, depth + 1);
    }
    if (!strcmp(n->name, "CTE")) c0 = child_at(e, node, n_children(e, node) - 1);
    if (is_delim(n->name)) c0 = c1 >= 0 ? c1 : c0; /* the join's result */
    return c0 >= 0 ? ncols_of(wk, c0, depth + 1) : 1;
}

/* ---- mapping ----------------------------------------------------------------------- */

static void add_note(gj_explain_node *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_note(gj_explain_node *n, const char *fmt, ...)
{
    size_t l = strlen(n->note);
    if (l + 3 >= sizeof n->note) return;
    if (l) {
        memcpy(n->note + l, "; ", 3);
        l += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->note + l, sizeof n->note - l, fmt, ap);
    va_end(ap);
}

static uint64_t rows_of(gj_explain_node *n, double v, const char *what)
{
    if (v < 1) {
        add_note(n, "%s estimated at %.0f rows: taken as 1", what, v);
        return 1;
    }
    if (v > (double)GJ_MAX_ROWS) {
        add_note(n, "%s above 2^40 rows: taken as 2^40", what);
        return GJ_MAX_ROWS;
    }
    return (uint64_t)llround(v);
}

static int clamp_payloads(gj_explain_node *n, int p, const char *side)
{
    if (p > GJ_MAX_PAYLOADS) {
        add_note(n, "%s carries %d payload columns: modelled as %d", side, p, GJ_MAX_PAYLOADS);
        return GJ_MAX_PAYLOADS;
    }
    return p < 0 ? 0 : p;
}

static int need_card(walker *wk, int node, int child, double *out, const char *role, gj_ctx *ctx)
{
    if (!card_of(wk, child, out, 0)) return GJ_OK;
    const gj_explain_node *c = &wk->e->nodes[child];
    return node_err(ctx, c->path, c->name,
                    "no \"Estimated Cardinality\" here or below: expected one for the %s of %s "
                    "at %s", role, wk->e->nodes[node].name, wk->e->nodes[node].path);
}

/* "a = b" and "a IS NOT DISTINCT FROM b" are key columns; others are filters. */
static int is_equality(const char *c)
{
    return strstr(c, " = ") || strstr(c, " IS NOT DISTINCT FROM ");
}

static int detail_append(char **detail, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int detail_append(char **detail, const char *fmt, ...)
{
    gj_sbuf b = {0};
    if (*detail) gj_sbuf_printf(&b, "%s", *detail);
    va_list ap;
    va_start(ap, fmt);
    char tmp[1024];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    gj_sbuf_printf(&b, "%s", tmp);
    char *s = NULL;
    if (gj_sbuf_take(&b, &s) != GJ_OK) return GJ_ERR_NOMEM;
    free(*detail);
    *detail = s;
    return GJ_OK;
}

static int detail_list(char **detail, const walker *wk, int row, const char *sep)
{
    int k = list_len(wk, row);
    for (int i = 0; i < k; i++)
        if (detail_append(detail, "%s%s", i ? sep : "", list_at(wk, row, i)) != GJ_OK)
            return GJ_ERR_NOMEM;
    return GJ_OK;
}

static int map_join(walker *wk, int node, gj_ctx *ctx)
{
    gj_explain_node *n = &wk->e->nodes[node];
    int kids = n_children(wk->e, node);
    if (kids != 2)
        return node_err(ctx, n->path, n->name, "has %d children, expected 2 (probe side, build "
                                               "side)", kids);
    int probe = child_at(wk->e, node, 0), build = child_at(wk->e, node, 1);
    double s, r, out;
    int rc;
    if ((rc = need_card(wk, node, probe, &s, "probe side (left child)", ctx)) != GJ_OK) return rc;
    if ((rc = need_card(wk, node, build, &r, "build side (right child)", ctx)) != GJ_OK) return rc;
    n = &wk->e->nodes[node];
    const char *jt = extra_str(wk, node, "Join Type");
    if (!jt) jt = "INNER";
    int cond = extra(wk, node, "Conditions");
    int nc = list_len(wk, cond), keys = 0;
    for (int i = 0; i < nc; i++) keys += is_equality(list_at(wk, cond, i)) != 0;
    if (detail_append(&n->detail, "%s ", jt) || detail_list(&n->detail, wk, cond, " AND "))
        return gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory");
    gj_workload *w = &n->w;
    gj_workload_default(w, GJ_OP_JOIN);
    w->payload_bytes = wk->o.payload_bytes;
    if (keys == 0) {
        add_note(n, "no equality condition: modelled as a 4-byte key");
        keys = 1;
    }
    w->key_bytes = keys > 1 ? 8 : 4;
    if (keys > 1) add_note(n, "composite key of %d columns packed into 8 bytes", keys);
    int rp = ncols_of(wk, build, 0) - keys, sp = ncols_of(wk, probe, 0) - keys;
    if (!strcmp(jt, "SEMI") || !strcmp(jt, "ANTI") || !strcmp(jt, "MARK")) rp = 0;
    if (!strcmp(jt, "RIGHT_SEMI") || !strcmp(jt, "RIGHT_ANTI")) sp = 0;
    w->r_payloads = clamp_payloads(n, rp, "build side");
    w->s_payloads = clamp_payloads(n, sp, "probe side");
    w->r_rows = rows_of(n, r, "build side");
    w->s_rows = rows_of(n, s, "probe side");
    if (n->has_card) {
        out = n->card;
    } else {
        out = (double)w->s_rows;
        add_note(n, "no estimate of the output: taken as the probe side's rows");
    }
    if (dummy_source(wk->e, build) >= 0)
        add_note(n, "build side: the enclosing delim join's first child (DUMMY_SCAN stands for it)");
    int one_per_row = !strcmp(jt, "SEMI") || !strcmp(jt, "ANTI") || !strcmp(jt, "MARK") ||
                      !strcmp(jt, "SINGLE") || !strcmp(jt, "RIGHT_SEMI") ||
                      !strcmp(jt, "RIGHT_ANTI");
    if (out > (double)w->s_rows && one_per_row) {
        w->match_ratio = 1;
        w->out_rows = 0;
        add_note(n, "a %s join emits at most one row per input row: match ratio capped at 1", jt);
    } else if (out > (double)w->s_rows) {
        w->match_ratio = 1;
        double o = fmin(out, (double)(GJ_MAX_ROWS << 4));
        w->out_rows = (uint64_t)llround(o);
        add_note(n, "output above the probe side: many-to-many");
    } else {
        w->match_ratio = out / (double)w->s_rows;
        w->out_rows = 0;
    }
    n->kind = GJ_EXPLAIN_JOIN;
    return GJ_OK;
}

/* Aggregate name: the function before '(' without quotes, lower case. */
static gj_agg map_agg(gj_explain_node *n, const char *a)
{
    char fn[48];
    size_t k = 0;
    const char *p = a;
    while (*p == '"' || isspace((unsigned char)*p)) p++;
    while (*p && *p != '(' && *p != '"' && k + 1 < sizeof fn) fn[k++] = (char)tolower((unsigned char)*p++);
    fn[k] = 0;
    while (*p == '"') p++;
    int distinct = *p == '(' && !strncasecmp(p + 1, "DISTINCT ", 9);
    if (distinct) {
        if (strcmp(fn, "count")) add_note(n, "%s(DISTINCT ...): modelled as count-distinct", fn);
        return GJ_AGG_COUNT_DISTINCT;
    }
    if (!strcmp(fn, "sum") || !strcmp(fn, "sum_no_overflow") || !strcmp(fn, "fsum") ||
        !strcmp(fn, "kahan_sum") || !strcmp(fn, "sumkahan"))
        return GJ_AGG_SUM;
    if (!strcmp(fn, "min")) return GJ_AGG_MIN;
    if (!strcmp(fn, "max")) return GJ_AGG_MAX;
    if (!strcmp(fn, "count") || !strcmp(fn, "count_star")) return GJ_AGG_COUNT;
    if (!strcmp(fn, "avg") || !strcmp(fn, "mean") || !strcmp(fn, "favg")) return GJ_AGG_AVG;
    if (!strcmp(fn, "median") || !strncmp(fn, "quantile", 8)) return GJ_AGG_MEDIAN;
    add_note(n, "aggregate %s not modelled: treated as sum", fn[0] ? fn : "?");
    return GJ_AGG_SUM;
}

/* The DELIM_SCAN of a delim join (same "Delim Index") in its subtree. */
static int find_delim_scan(const walker *wk, int node, const char *index)
{
    const gj_explain *e = wk->e;
    for (int i = node + 1; i < e->n; i++) {
        int a = i;
        while (a >= 0 && a != node) a = e->nodes[a].parent;
        if (a != node) break; /* left the subtree (pre-order) */
        if (strcmp(e->nodes[i].name, "DELIM_SCAN")) continue;
        const char *di = extra_str(wk, i, "Delim Index");
        if (!index || !di || !strcmp(di, index)) return i;
    }
    return -1;
}

static int map_groupby(walker *wk, int node, gj_ctx *ctx)
{
    gj_explain_node *n = &wk->e->nodes[node];
    int delim = is_delim(n->name), kids = n_children(wk->e, node);
    if (delim ? kids < 1 : kids != 1)
        return node_err(ctx, n->path, n->name, "has %d children, expected %s", kids,
                        delim ? "2 (the side made distinct, the join)" : "1 (its input)");
    int in = child_at(wk->e, node, 0);
    double rows, groups;
    int rc = need_card(wk, node, in, &rows, "input", ctx);
    if (rc != GJ_OK) return rc;
    n = &wk->e->nodes[node];
    gj_workload *w = &n->w;
    gj_workload_default(w, GJ_OP_GROUPBY);
    w->payload_bytes = wk->o.payload_bytes;
    w->rows = rows_of(n, rows, "input");
    int keys;
    if (delim) {
        int cond = extra(wk, node, "Conditions");
        keys = list_len(wk, cond);
        const char *jt = extra_str(wk, node, "Join Type");
        if (detail_append(&n->detail, "%s ", jt ? jt : "?") ||
            detail_list(&n->detail, wk, cond, " AND ") ||
            detail_append(&n->detail, "; DISTINCT of the first child's join columns"))
            return gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory");
        int ds = find_delim_scan(wk, node, extra_str(wk, node, "Delim Index"));
        if (ds >= 0 && wk->e->nodes[ds].has_card) {
            groups = wk->e->nodes[ds].card;
        } else {
            groups = rows;
            add_note(n, "no DELIM_SCAN estimate: groups taken as the input rows");
        }
        add_note(n, "delim join: its duplicate elimination (a hash aggregate, no aggregates: "
                    "modelled as one count); the join is the HASH_JOIN below");
        w->n_aggs = 1;
        w->aggs[0] = GJ_AGG_COUNT;
    } else {
        int g = extra(wk, node, "Groups"), ag = extra(wk, node, "Aggregates");
        keys = list_len(wk, g);
        int na = list_len(wk, ag);
        if (detail_append(&n->detail, "groups ") || detail_list(&n->detail, wk, g, ", ") ||
            detail_append(&n->detail, "; aggregates ") || detail_list(&n->detail, wk, ag, ", "))
            return gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory");
        n = &wk->e->nodes[node];
        if (na == 0) {
            add_note(n, "no aggregates (DISTINCT): modelled as one count");
            w->n_aggs = 1;
            w->aggs[0] = GJ_AGG_COUNT;
        } else {
            if (na > GJ_MAX_AGGS) add_note(n, "%d aggregates: the first %d modelled", na, GJ_MAX_AGGS);
            w->n_aggs = na > GJ_MAX_AGGS ? GJ_MAX_AGGS : na;
            for (int i = 0; i < w->n_aggs; i++) w->aggs[i] = map_agg(n, list_at(wk, ag, i));
        }
        if (n->has_card) {
            groups = n->card;
        } else if (!strcmp(n->name, "PERFECT_HASH_GROUP_BY")) {
            groups = fmin(rows, PERFECT_HT_GROUPS);
            add_note(n, "no estimate of groups: a perfect hash group-by has at most 2^12 "
                        "(DuckDB's perfect_ht_threshold), taken as the group count");
        } else {
            groups = rows;
            add_note(n, "no estimate of groups: taken as the input rows");
        }
    }
    if (keys == 0) keys = 1;
    w->key_bytes = keys > 1 ? 8 : 4;
    if (keys > 1) add_note(n, "composite group key of %d columns packed into 8 bytes", keys);
    if (groups < 1) {
        add_note(n, "%.0f groups estimated: taken as 1", groups);
        groups = 1;
    }
    w->groups = groups > (double)w->rows ? w->rows : (uint64_t)llround(groups);
    if (w->groups < 1) w->groups = 1;
    if (groups > (double)w->rows) add_note(n, "more groups than input rows estimated: groups = rows");
    n->kind = GJ_EXPLAIN_GROUPBY;
    return GJ_OK;
}

static int annotate(walker *wk, int node, gj_ctx *ctx)
{
    gj_explain_node *n = &wk->e->nodes[node];
    int rc;
    if (!strcmp(n->name, "HASH_JOIN")) rc = map_join(wk, node, ctx);
    else if (is_hash_groupby(n->name) || is_delim(n->name)) rc = map_groupby(wk, node, ctx);
    else {
        const char *t = extra_str(wk, node, "Text"); /* a scan's table */
        const char *jt = extra_str(wk, node, "Join Type"); /* joins not run as hash joins */
        if ((t && detail_append(&n->detail, "%s", t) != GJ_OK) ||
            (!t && jt && (detail_append(&n->detail, "%s ", jt) != GJ_OK ||
                          detail_list(&n->detail, wk, extra(wk, node, "Conditions"), " AND ") !=
                              GJ_OK)))
            return gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory");
        return GJ_OK;
    }
    if (rc != GJ_OK) return rc;
    n = &wk->e->nodes[node];
    gj_ctx local = {0};
    n->rc = gj_advise(&n->w, wk->p, &n->plan, &local);
    if (n->rc != GJ_OK && n->rc != GJ_ERR_INFEASIBLE)
        return gj_seterr(ctx, n->rc, "%s %s: advising: %s", n->path, n->name, local.msg);
    if (wk->o.uncertainty > 1) {
        gj_workload_range r;
        rc = gj_workload_range_around(&n->w, wk->o.uncertainty, &r, &local);
        if (rc == GJ_OK) n->range_rc = gj_advise_range(&r, wk->p, &n->range, &local);
        else n->range_rc = rc;
        if (n->range_rc != GJ_OK && n->range_rc != GJ_ERR_INFEASIBLE)
            return gj_seterr(ctx, n->range_rc, "%s %s: range: %s", n->path, n->name, local.msg);
    }
    if (n->kind == GJ_EXPLAIN_JOIN) wk->e->n_joins++;
    else wk->e->n_groupbys++;
    return GJ_OK;
}

void gj_explain_free(gj_explain *e)
{
    if (!e) return;
    for (int i = 0; i < e->n; i++) {
        free(e->nodes[i].path);
        free(e->nodes[i].name);
        free(e->nodes[i].detail);
    }
    free(e->nodes);
    free(e);
}

int gj_explain_plan(const char *json, const gj_profile *p, const gj_explain_opts *opts,
                    gj_explain **out, gj_ctx *ctx)
{
    jdoc d;
    walker wk;
    int rc = GJ_OK;
    memset(&d, 0, sizeof d);
    memset(&wk, 0, sizeof wk);
    if (out) *out = NULL;
    if (!json || !p || !out)
        return gj_seterr(ctx, GJ_ERR_INVALID, "plan text, profile and result must not be NULL");
    if (opts) wk.o = *opts;
    if (wk.o.uncertainty == 0) wk.o.uncertainty = GJ_EXPLAIN_DEFAULT_UNCERTAINTY;
    if (!isfinite(wk.o.uncertainty) || wk.o.uncertainty < 1)
        return gj_seterr(ctx, GJ_ERR_INVALID, "uncertainty=%g: allowed a factor >= 1",
                         wk.o.uncertainty);
    if (wk.o.payload_bytes == 0) wk.o.payload_bytes = 8;
    if (wk.o.payload_bytes != 4 && wk.o.payload_bytes != 8)
        return gj_seterr(ctx, GJ_ERR_INVALID, "payload_bytes=%d: allowed 4 or 8",
                         wk.o.payload_bytes);
    wk.e = calloc(1, sizeof *wk.e);
    if (!wk.e) return gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory");
    wk.p = p;
    wk.d = &d;
    wk.e->uncertainty = wk.o.uncertainty;
    wk.e->payload_bytes = wk.o.payload_bytes;
    gj_strlcpy(wk.e->profile, gj_profile_name(p), sizeof wk.e->profile);
    if ((rc = load_json(json, &d, ctx)) != GJ_OK) goto done;
    int root = -1;
    for (int i = 0; i < d.n; i++)
        if (d.r[i].parent < 0) root = i;
    if (root < 0) {
        rc = gj_seterr(ctx, GJ_ERR_PARSE, "empty JSON: expected DuckDB's EXPLAIN (FORMAT JSON)");
        goto done;
    }
    if (!strcmp(d.r[root].type, "object")) {
        if (member(&d, root, "name") < 0) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE,
                           "not a DuckDB plan: the top level is an object without \"name\"; "
                           "expected the array of plan nodes EXPLAIN (FORMAT JSON) prints");
            goto done;
        }
        if ((rc = add_node(&wk, root, "plan", 0, -1, ctx)) != GJ_OK) goto done;
        wk.e->n_roots = 1;
    } else if (!strcmp(d.r[root].type, "array")) {
        if (count_children(&d, root) == 0) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "not a DuckDB plan: an empty array; expected plan "
                                              "nodes with \"name\" and \"children\"");
            goto done;
        }
        int k = 0, prev = -1;
        for (int c = d.r[root].first; c >= 0; c = d.r[c].next, k++) {
            char path[32];
            snprintf(path, sizeof path, "plan[%d]", k);
            int idx = wk.e->n;
            if ((rc = add_node(&wk, c, path, 0, -1, ctx)) != GJ_OK) goto done;
            if (prev >= 0) wk.e->nodes[prev].next_sibling = idx;
            prev = idx;
        }
        wk.e->n_roots = k;
    } else {
        rc = gj_seterr(ctx, GJ_ERR_PARSE, "not a DuckDB plan: the top level is %s; expected the "
                                          "array of plan nodes EXPLAIN (FORMAT JSON) prints",
                       d.r[root].type);
        goto done;
    }
    for (int i = 0; i < wk.e->n; i++)
        if ((rc = annotate(&wk, i, ctx)) != GJ_OK) goto done;
done:
    jdoc_free(&d);
    free(wk.jidx);
    if (rc != GJ_OK) {
        gj_explain_free(wk.e);
        return rc;
    }
    *out = wk.e;
    return GJ_OK;
}

/* ---- output ------------------------------------------------------------------------ */

static const gj_estimate *runner_up(const gj_plan *p)
{
    return p->n > 1 && p->est[1].feasible ? &p->est[1] : NULL;
}

static void fmt_count(char *buf, size_t n, double v)
{
    snprintf(buf, n, "%.0f", v);
}

static void text_workload(gj_sbuf *b, const gj_workload *w)
{
    if (w->op == GJ_OP_JOIN) {
        gj_sbuf_printf(b, "build %llu rows, probe %llu rows, ", (unsigned long long)w->r_rows,
                       (unsigned long long)w->s_rows);
        if (w->out_rows)
            gj_sbuf_printf(b, "%llu output rows (many-to-many)", (unsigned long long)w->out_rows);
        else
            gj_sbuf_printf(b, "match ratio %.3g", w->match_ratio);
        gj_sbuf_printf(b, ", %d-byte key, %d+%d payloads of %d B", w->key_bytes, w->r_payloads,
                       w->s_payloads, w->payload_bytes);
    } else {
        gj_sbuf_printf(b, "%llu rows into %llu groups, %d-byte key, aggregates",
                       (unsigned long long)w->rows, (unsigned long long)w->groups, w->key_bytes);
        for (int i = 0; i < w->n_aggs; i++)
            gj_sbuf_printf(b, "%s%s", i ? "," : " ", gj_agg_name(w->aggs[i]));
    }
}

int gj_explain_text(const gj_explain *e, char **text)
{
    if (!text) return GJ_ERR_INVALID;
    *text = NULL;
    if (!e) return GJ_ERR_INVALID;
    gj_sbuf b = {0};
    gj_sbuf_printf(&b, "DuckDB plan: %d hash join%s and %d hash group-by%s annotated; profile %s",
                   e->n_joins, e->n_joins == 1 ? "" : "s", e->n_groupbys,
                   e->n_groupbys == 1 ? "" : "s", e->profile);
    if (e->uncertainty > 1)
        gj_sbuf_printf(&b, "; ranges: every estimate off by up to %gx either way", e->uncertainty);
    gj_sbuf_printf(&b, "\n\n");
    for (int i = 0; i < e->n; i++) {
        const gj_explain_node *n = &e->nodes[i];
        int ind = 2 * n->depth;
        char c[32] = "";
        if (n->has_card) {
            char v[24];
            fmt_count(v, sizeof v, n->card);
            snprintf(c, sizeof c, "  ~%s rows", v);
        }
        gj_sbuf_printf(&b, "%*s%s%s%s%s\n", ind, "", n->name, c, n->detail && *n->detail ? "  " : "",
                       n->detail ? n->detail : "");
        if (n->kind == GJ_EXPLAIN_NONE) continue;
        int sub = ind + 4;
        gj_sbuf_printf(&b, "%*s", sub, "");
        text_workload(&b, &n->w);
        gj_sbuf_printf(&b, "\n%*s=> ", sub, "");
        if (n->rc == GJ_OK) {
            const gj_estimate *r = runner_up(&n->plan);
            gj_sbuf_printf(&b, "GPU: %s %.3f ms%s", gj_impl_name(n->plan.best), n->plan.est[0].ms,
                           n->plan.est[0].filtered ? " after a semi-join filter" : "");
            if (r) gj_sbuf_printf(&b, " (runner-up %s %.3f ms)", gj_impl_name(r->impl), r->ms);
            else gj_sbuf_printf(&b, " (no runner-up fits)");
        } else {
            gj_sbuf_printf(&b, "GPU: nothing fits: %s", n->plan.est[0].why);
        }
        gj_sbuf_printf(&b, "\n");
        if (n->range_rc == GJ_OK) {
            const gj_range_plan *rp = &n->range;
            const gj_range_estimate *ce = &rp->est[0];
            gj_sbuf_printf(&b, "%*s   over x/%g..x*%g: %s %.3f..%.3f ms, minimax-regret %s (at most "
                               "%.1f%% slower than the best)",
                           sub, "", e->uncertainty, e->uncertainty, gj_impl_name(ce->impl),
                           ce->min_ms, ce->max_ms, gj_impl_name(rp->choice),
                           100 * rp->choice_regret);
            if (rp->flips)
                gj_sbuf_printf(&b, "  FLIPS %s->%s", gj_impl_name(rp->flip_from),
                               gj_impl_name(rp->flip_to));
            gj_sbuf_printf(&b, "\n");
        } else if (n->range_rc == GJ_ERR_INFEASIBLE) {
            gj_sbuf_printf(&b, "%*s   over x/%g..x*%g: nothing fits anywhere\n", sub, "",
                           e->uncertainty, e->uncertainty);
        }
        if (n->note[0]) gj_sbuf_printf(&b, "%*s   note: %s\n", sub, "", n->note);
    }
    return gj_sbuf_take(&b, text);
}

static int json_node(gj_sbuf *b, const gj_explain *e, int i)
{
    const gj_explain_node *n = &e->nodes[i];
    gj_sbuf_printf(b, "{\"name\":");
    gj_sbuf_json_str(b, n->name);
    gj_sbuf_printf(b, ",\"path\":");
    gj_sbuf_json_str(b, n->path);
    gj_sbuf_printf(b, ",\"estimated_cardinality\":");
    if (n->has_card) gj_sbuf_json_num(b, n->card);
    else gj_sbuf_printf(b, "null");
    gj_sbuf_printf(b, ",\"detail\":");
    gj_sbuf_json_str(b, n->detail ? n->detail : "");
    gj_sbuf_printf(b, ",\"gpu\":");
    if (n->kind == GJ_EXPLAIN_NONE) {
        gj_sbuf_printf(b, "null");
    } else {
        char *wj = NULL, *rj = NULL;
        if (gj_workload_to_json(&n->w, &wj) != GJ_OK) return GJ_ERR_NOMEM;
        gj_sbuf_printf(b, "{\"op\":\"%s\",\"workload\":%s,\"feasible\":%s,\"recommended\":",
                       n->kind == GJ_EXPLAIN_JOIN ? "join" : "groupby", wj,
                       n->rc == GJ_OK ? "true" : "false");
        free(wj);
        if (n->rc == GJ_OK) {
            gj_sbuf_printf(b, "\"%s\",\"ms\":", gj_impl_name(n->plan.best));
            gj_sbuf_json_num(b, n->plan.est[0].ms);
        } else {
            gj_sbuf_printf(b, "null,\"ms\":null");
        }
        const gj_estimate *r = n->rc == GJ_OK ? runner_up(&n->plan) : NULL;
        gj_sbuf_printf(b, ",\"runner_up\":");
        if (r) {
            gj_sbuf_printf(b, "{\"impl\":\"%s\",\"ms\":", gj_impl_name(r->impl));
            gj_sbuf_json_num(b, r->ms);
            gj_sbuf_printf(b, "}");
        } else {
            gj_sbuf_printf(b, "null");
        }
        gj_sbuf_printf(b, ",\"ranking\":[");
        for (int k = 0; k < n->plan.n; k++) {
            const gj_estimate *x = &n->plan.est[k];
            gj_sbuf_printf(b, "%s{\"impl\":\"%s\",\"feasible\":%s,\"ms\":", k ? "," : "",
                           gj_impl_name(x->impl), x->feasible ? "true" : "false");
            gj_sbuf_json_num(b, x->ms);
            gj_sbuf_printf(b, "}");
        }
        gj_sbuf_printf(b, "],\"range\":");
        if (n->range_rc == GJ_OK || n->range_rc == GJ_ERR_INFEASIBLE) {
            if (gj_range_plan_to_json(&n->range, &rj) != GJ_OK) return GJ_ERR_NOMEM;
            gj_sbuf_printf(b, "%s", rj);
            free(rj);
        } else {
            gj_sbuf_printf(b, "null");
        }
        gj_sbuf_printf(b, ",\"note\":");
        gj_sbuf_json_str(b, n->note);
        gj_sbuf_printf(b, "}");
    }
    gj_sbuf_printf(b, ",\"children\":[");
    for (int c = n->first_child, k = 0; c >= 0; c = e->nodes[c].next_sibling, k++) {
        if (k) gj_sbuf_printf(b, ",");
        int rc = json_node(b, e, c);
        if (rc != GJ_OK) return rc;
    }
    gj_sbuf_printf(b, "]}");
    return GJ_OK;
}

int gj_explain_json(const gj_explain *e, char **json)
{
    if (!json) return GJ_ERR_INVALID;
    *json = NULL;
    if (!e) return GJ_ERR_INVALID;
    gj_sbuf b = {0};
    gj_sbuf_printf(&b, "{\"profile\":");
    gj_sbuf_json_str(&b, e->profile);
    gj_sbuf_printf(&b, ",\"uncertainty\":");
    gj_sbuf_json_num(&b, e->uncertainty);
    gj_sbuf_printf(&b, ",\"payload_bytes\":%d,\"hash_joins\":%d,\"hash_group_bys\":%d,\"plan\":[",
                   e->payload_bytes, e->n_joins, e->n_groupbys);
    int k = 0;
    for (int i = 0; i < e->n; i++) {
        if (e->nodes[i].parent >= 0) continue;
        if (k++) gj_sbuf_printf(&b, ",");
        if (json_node(&b, e, i) != GJ_OK) {
            b.failed = 1;
            break;
        }
    }
    gj_sbuf_printf(&b, "]}");
    return gj_sbuf_take(&b, json);
}
