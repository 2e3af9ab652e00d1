/* Reading JSON through SQLite's JSON1 functions: json_valid checks the text,
 * json_tree lists every node in document order, `->` returns each number's
 * literal exactly as written (so %.17g values come back bit for bit through
 * strtod, whatever SQLite's own text-to-double rounding does). */
#include "db/json.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 1 if s (raw JSON text: a string literal or a json_tree fullkey, which keeps
 * labels as written) holds the escape \u0000. SQLite's JSON functions
 * silently cut a decoded string at such a NUL, so it is refused here. */
static int has_nul_escape(const char *s)
{
    for (; s && *s; s++) {
        if (*s != '\\') continue;
        if (s[1] == 'u' && s[2] == '0' && s[3] == '0' && s[4] == '0' && s[5] == '0') return 1;
        if (s[1]) s++;
    }
    return 0;
}

static int sqlite_status(int src)
{
    return src == SQLITE_NOMEM ? GJ_ERR_NOMEM : GJ_ERR_DB;
}

int gj_json_walk(sqlite3 *conn, const char *json, const char *want, gj_json_cb cb, void *ud,
                 gj_ctx *ctx)
{
    sqlite3 *own = NULL, *c = conn;
    sqlite3_stmt *st = NULL;
    int rc = GJ_OK, src;

    if (!json || !cb) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "JSON text is NULL");
        goto done;
    }
    if (!c) {
        src = sqlite3_open_v2(":memory:", &own, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
        if (src != SQLITE_OK) {
            rc = gj_seterr(ctx, sqlite_status(src), "JSON: cannot open an in-memory SQLite: %s",
                           own ? sqlite3_errmsg(own) : sqlite3_errstr(src));
            goto done;
        }
        c = own;
    }
    src = sqlite3_prepare_v2(c, "SELECT json_valid(?1), "
                                "CASE WHEN json_valid(?1) THEN json_type(?1) END", -1, &st, NULL);
    if (src != SQLITE_OK) goto sqlerr;
    if ((src = sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC)) != SQLITE_OK) goto sqlerr;
    src = sqlite3_step(st);
    if (src != SQLITE_ROW) goto sqlerr;
    if (!sqlite3_column_int(st, 0)) {
        rc = gj_seterr(ctx, GJ_ERR_PARSE, "not valid JSON (%zu bytes; truncated or mistyped?)",
                       strlen(json));
        goto done;
    }
    const char *top = (const char *)sqlite3_column_text(st, 1);
    if (want && (!top || strcmp(top, want) != 0)) {
        rc = gj_seterr(ctx, GJ_ERR_PARSE, "JSON top level is %s: expected an %s",
                       top ? top : "?", want);
        goto done;
    }
    sqlite3_finalize(st);
    st = NULL;

    /* `->` is only asked for numbers: their literal text. */
    src = sqlite3_prepare_v2(c,
                             "SELECT id, parent, key, type, "
                             "CASE WHEN type IN ('integer','real') THEN ?1 -> fullkey "
                             "WHEN type = 'text' THEN value END, fullkey, "
                             "CASE WHEN type = 'text' THEN ?1 -> fullkey END "
                             "FROM json_tree(?1)", -1, &st, NULL);
    if (src != SQLITE_OK) goto sqlerr;
    if ((src = sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC)) != SQLITE_OK) goto sqlerr;
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        gj_json_node n;
        memset(&n, 0, sizeof n);
        n.id = sqlite3_column_int64(st, 0);
        n.parent = sqlite3_column_type(st, 1) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 1);
        n.index = -1;
        n.path = (const char *)sqlite3_column_text(st, 5);
        if (!n.path) n.path = "$";
        if (has_nul_escape(n.path) || has_nul_escape((const char *)sqlite3_column_text(st, 6))) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s: string or member name holds a NUL character",
                           n.path);
            goto done;
        }
        switch (sqlite3_column_type(st, 2)) {
        case SQLITE_INTEGER: n.index = sqlite3_column_int64(st, 2); break;
        case SQLITE_NULL: break;
        default:
            n.key = (const char *)sqlite3_column_text(st, 2);
            if (!n.key) { src = SQLITE_NOMEM; goto sqlerr; }
            if (strlen(n.key) != (size_t)sqlite3_column_bytes(st, 2)) {
                rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s: member name holds a NUL character", n.path);
                goto done;
            }
        }
        n.type = (const char *)sqlite3_column_text(st, 3);
        if (!n.type) { src = SQLITE_NOMEM; goto sqlerr; }
        if (sqlite3_column_type(st, 4) != SQLITE_NULL) {
            n.text = (const char *)sqlite3_column_text(st, 4);
            if (!n.text) { src = SQLITE_NOMEM; goto sqlerr; }
            if (strlen(n.text) != (size_t)sqlite3_column_bytes(st, 4)) {
                rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s: string holds a NUL character", n.path);
                goto done;
            }
        } else if (!strcmp(n.type, "integer") || !strcmp(n.type, "real")) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s: number could not be read", n.path);
            goto done;
        }
        if ((rc = cb(ud, &n, ctx)) != GJ_OK) goto done;
    }
    if (src != SQLITE_DONE) goto sqlerr;
    goto done;

sqlerr:
    rc = gj_seterr(ctx, src == SQLITE_NOMEM ? GJ_ERR_NOMEM : GJ_ERR_PARSE, "JSON: %s",
                   sqlite3_errmsg(c));
done:
    sqlite3_finalize(st);
    if (own) sqlite3_close(own);
    return rc;
}

static int is_number(const gj_json_node *n)
{
    return n->text && (!strcmp(n->type, "integer") || !strcmp(n->type, "real"));
}

int gj_json_num(const gj_json_node *n, double *out, gj_ctx *ctx)
{
    if (!is_number(n))
        return gj_seterr(ctx, GJ_ERR_PARSE, "%s: is %s, expected a number", n->path, n->type);
    char *end;
    errno = 0;
    double v = strtod(n->text, &end);
    if (end == n->text || *end)
        return gj_seterr(ctx, GJ_ERR_PARSE, "%s=%s: not a number", n->path, n->text);
    if (!isfinite(v))
        return gj_seterr(ctx, GJ_ERR_INVALID, "%s=%s: not finite", n->path, n->text);
    if (v < 0)
        return gj_seterr(ctx, GJ_ERR_INVALID, "%s=%s: negative, allowed >= 0", n->path, n->text);
    *out = v;
    return GJ_OK;
}

/* Literal made of an optional '-' (when allow_minus) and digits only. */
static int digits_only(const char *s, int allow_minus)
{
    if (allow_minus && *s == '-') s++;
    if (!*s) return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return 0;
    return 1;
}

int gj_json_int(const gj_json_node *n, int64_t lo, int64_t hi, int64_t *out, gj_ctx *ctx)
{
    if (!is_number(n) || !digits_only(n->text, 1))
        return gj_seterr(ctx, GJ_ERR_PARSE, "%s: is %s%s%s, expected an integer", n->path,
                         n->type, n->text ? " " : "", n->text ? n->text : "");
    errno = 0;
    long long v = strtoll(n->text, NULL, 10);
    if (errno == ERANGE || v < lo || v > hi)
        return gj_seterr(ctx, GJ_ERR_INVALID, "%s=%s: allowed %lld to %lld", n->path, n->text,
                         (long long)lo, (long long)hi);
    *out = v;
    return GJ_OK;
}

int gj_json_u64(const gj_json_node *n, uint64_t *out, gj_ctx *ctx)
{
    if (!is_number(n) || !digits_only(n->text, 0)) {
        if (n->text && n->text[0] == '-')
            return gj_seterr(ctx, GJ_ERR_INVALID, "%s=%s: negative, allowed >= 0", n->path,
                             n->text);
        return gj_seterr(ctx, GJ_ERR_PARSE, "%s: is %s%s%s, expected a non-negative integer",
                         n->path, n->type, n->text ? " " : "", n->text ? n->text : "");
    }
    errno = 0;
    unsigned long long v = strtoull(n->text, NULL, 10);
    if (errno == ERANGE)
        return gj_seterr(ctx, GJ_ERR_INVALID, "%s=%s: above 2^64-1", n->path, n->text);
    *out = v;
    return GJ_OK;
}

int gj_json_str(const gj_json_node *n, char *buf, size_t cap, gj_ctx *ctx)
{
    if (strcmp(n->type, "text") != 0 || !n->text)
        return gj_seterr(ctx, GJ_ERR_PARSE, "%s: is %s, expected a string", n->path, n->type);
    size_t len = strlen(n->text);
    if (len >= cap)
        return gj_seterr(ctx, GJ_ERR_INVALID, "%s: %zu bytes long, allowed at most %zu", n->path,
                         len, cap - 1);
    memcpy(buf, n->text, len + 1);
    return GJ_OK;
}

int gj_json_bool(const gj_json_node *n, int *out, gj_ctx *ctx)
{
    if (!strcmp(n->type, "true")) *out = 1;
    else if (!strcmp(n->type, "false")) *out = 0;
    else return gj_seterr(ctx, GJ_ERR_PARSE, "%s: is %s, expected true or false", n->path, n->type);
    return GJ_OK;
}
