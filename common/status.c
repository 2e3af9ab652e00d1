/* Status codes, error contexts and small string helpers. */
#include "common/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *gj_errstr(int code)
{
    switch (code) {
    case GJ_OK: return "success";
    case GJ_ERR_INVALID: return "invalid argument";
    case GJ_ERR_NOMEM: return "out of host memory";
    case GJ_ERR_NOTFOUND: return "not found";
    case GJ_ERR_DB: return "store (SQLite) error";
    case GJ_ERR_DB_LOCKED: return "store is locked by another process";
    case GJ_ERR_DB_READONLY: return "store is read-only";
    case GJ_ERR_DB_CORRUPT: return "store is corrupt or not a gjadvise store";
    case GJ_ERR_DB_VERSION: return "store was written by a newer gjadvise";
    case GJ_ERR_PARSE: return "malformed input";
    case GJ_ERR_IO: return "file I/O error";
    case GJ_ERR_NODEVICE: return "no CUDA device or driver";
    case GJ_ERR_CUDA: return "CUDA error";
    case GJ_ERR_INFEASIBLE: return "no implementation fits the constraints";
    case GJ_ERR_UNSUPPORTED: return "not supported";
    default: return "unknown error";
    }
}

int gj_ctx_new(gj_ctx **out)
{
    if (!out) return GJ_ERR_INVALID;
    *out = calloc(1, sizeof **out);
    return *out ? GJ_OK : GJ_ERR_NOMEM;
}

void gj_ctx_free(gj_ctx *ctx) { free(ctx); }

const char *gj_ctx_errmsg(const gj_ctx *ctx) { return ctx ? ctx->msg : ""; }

void gj_free(void *p) { free(p); }

int gj_seterr(gj_ctx *ctx, int code, const char *fmt, ...)
{
    if (ctx) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->msg, sizeof ctx->msg, fmt, ap);
        va_end(ap);
        ctx->code = code;
    }
    return code;
}

void gj_strlcpy(char *dst, const char *src, size_t n)
{
    if (!n) return;
    snprintf(dst, n, "%s", src ? src : "");
}

void gj_now_iso(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void gj_sbuf_printf(gj_sbuf *b, const char *fmt, ...)
{
    if (b->failed) return;
    for (;;) {
        size_t room = b->cap - b->len;
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? room : 0, fmt, ap);
        va_end(ap);
        if (k < 0) { b->failed = 1; return; }
        if (b->s && (size_t)k < room) { b->len += (size_t)k; return; }
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->len + (size_t)k + 1) cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) { b->failed = 1; return; }
        b->s = s;
        b->cap = cap;
    }
}

void gj_sbuf_json_str(gj_sbuf *b, const char *s)
{
    gj_sbuf_printf(b, "\"");
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': gj_sbuf_printf(b, "\\\""); break;
        case '\\': gj_sbuf_printf(b, "\\\\"); break;
        case '\n': gj_sbuf_printf(b, "\\n"); break;
        case '\t': gj_sbuf_printf(b, "\\t"); break;
        case '\r': gj_sbuf_printf(b, "\\r"); break;
        default:
            if (*p < 0x20) gj_sbuf_printf(b, "\\u%04x", *p);
            else gj_sbuf_printf(b, "%c", *p);
        }
    }
    gj_sbuf_printf(b, "\"");
}

void gj_sbuf_json_num(gj_sbuf *b, double v)
{
    if (isfinite(v)) gj_sbuf_printf(b, "%.17g", v);
    else gj_sbuf_printf(b, "null");
}

int gj_sbuf_take(gj_sbuf *b, char **out)
{
    if (b->failed || !b->s) {
        free(b->s);
        memset(b, 0, sizeof *b);
        *out = NULL;
        return GJ_ERR_NOMEM;
    }
    *out = b->s;
    memset(b, 0, sizeof *b);
    return GJ_OK;
}
