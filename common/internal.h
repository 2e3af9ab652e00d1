/* Internal helpers shared by every module: error context, formatting. */
#ifndef GJ_COMMON_INTERNAL_H
#define GJ_COMMON_INTERNAL_H

#include "gjadvise.h"
#include <stdarg.h>

#define GJ_CTX_MSG 512

struct gj_ctx {
    int code;
    char msg[GJ_CTX_MSG];
};

/* Record code and a printf-style message in ctx (ctx may be NULL); returns
 * code so callers can write `return gj_seterr(ctx, GJ_ERR_INVALID, ...)`. */
int gj_seterr(gj_ctx *ctx, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* snprintf into a fixed buffer, always NUL-terminated, truncating. */
void gj_strlcpy(char *dst, const char *src, size_t n);

/* Current time as ISO 8601 UTC ("2026-11-22T13:27:00Z"). */
void gj_now_iso(char *buf, size_t n);

/* Median of v[0..n) (mean of the two middle values for even n); sorts v in
 * place, so v[n - 1] is the maximum afterwards. NaN when n <= 0. */
double gj_median(double *v, int n);

/* Growable string buffer (JSON writers, tables). Never fails silently: on
 * allocation failure `failed` is set and later appends are ignored. */
typedef struct gj_sbuf {
    char *s;
    size_t len, cap;
    int failed;
} gj_sbuf;
void gj_sbuf_printf(gj_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append s as a JSON string literal (quoted, escaped). */
void gj_sbuf_json_str(gj_sbuf *b, const char *s);
/* Append a JSON number (finite) or null. */
void gj_sbuf_json_num(gj_sbuf *b, double v);
/* Hand the buffer over: GJ_OK and *out (gj_free), or GJ_ERR_NOMEM. */
int gj_sbuf_take(gj_sbuf *b, char **out);

#endif
