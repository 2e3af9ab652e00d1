/* Column files: binary format (COLUMNS.md) and CSV, host side. */
#include "operators/colfile.h"
#include "common/internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int width_ok(int w) { return w == 4 || w == 8; }

static void put(gj_column *c, uint64_t i, uint64_t v)
{
    if (c->width == 4) ((uint32_t *)c->data)[i] = (uint32_t)v;
    else ((uint64_t *)c->data)[i] = v;
}

static gj_column *col(gj_dtable *t, int c) { return c == 0 ? &t->key : &t->payload[c - 1]; }

static int read_binary(FILE *f, const char *path, gj_dtable *h, gj_ctx *ctx)
{
    int rc = GJ_OK;
    unsigned char hdr[24], desc[8];
    uint64_t rows;
    uint32_t ncol;
    long size = -1;
    if (fread(hdr, 1, 24, f) != 24) {
        rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s: header shorter than 24 bytes", path);
        goto done;
    }
    memcpy(&rows, hdr + 8, 8);
    memcpy(&ncol, hdr + 16, 4);
    if (ncol < 1 || ncol > 1 + GJ_MAX_PAYLOADS || rows > GJ_MAX_ROWS) {
        rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s: columns=%u rows=%llu: allowed 1..%d columns, rows <= 2^40",
                       path, ncol, (unsigned long long)rows, 1 + GJ_MAX_PAYLOADS);
        goto done;
    }
    uint64_t expect = 24 + 8ULL * ncol;
    h->rows = rows;
    h->n_payloads = (int)ncol - 1;
    for (uint32_t c = 0; c < ncol; c++) {
        if (fread(desc, 1, 8, f) != 8 || !width_ok(desc[0]) || desc[1] > 1 || (c == 0 && desc[1])) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s: column %u descriptor: width 4|8, type 0|1 (key 0)",
                           path, c);
            goto done;
        }
        col(h, (int)c)->width = desc[0];
        col(h, (int)c)->type = desc[1] ? GJ_DT_FLOAT : GJ_DT_INT;
        expect += rows * desc[0];
    }
    if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || (uint64_t)size != expect) {
        rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s: %ld bytes, the header says %llu", path, size,
                       (unsigned long long)expect);
        goto done;
    }
    fseek(f, (long)(24 + 8ULL * ncol), SEEK_SET);
    for (uint32_t c = 0; c < ncol; c++) {
        gj_column *k = col(h, (int)c);
        k->data = malloc(rows * k->width + 1);
        if (!k->data) {
            rc = gj_seterr(ctx, GJ_ERR_NOMEM, "%s: %llu rows", path, (unsigned long long)rows);
            goto done;
        }
        if (fread(k->data, k->width, rows, f) != rows) {
            rc = gj_seterr(ctx, GJ_ERR_IO, "%s: short read", path);
            goto done;
        }
    }
done:
    return rc;
}

/* one CSV field -> bits; *isf set when it is a float */
static int parse_field(const char *s, int width, int allow_float, uint64_t *out, int *isf)
{
    char *end;
    errno = 0;
    *isf = 0;
    if (!*s) return -1;
    if (allow_float && (strpbrk(s, ".eE") || strstr(s, "inf") || strstr(s, "nan")) &&
        strncmp(s, "0x", 2)) {
        double d = strtod(s, &end);
        if (*end || errno) return -1;
        *isf = 1;
        if (width == 4) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            *out = u;
        } else memcpy(out, &d, 8);
        return 0;
    }
    if (s[0] == '-') {
        if (!allow_float) return -1; /* keys are unsigned */
        long long v = strtoll(s, &end, 10);
        if (*end || errno) return -1;
        if (width == 4 && (v < INT32_MIN || v > INT32_MAX)) return -1;
        *out = (uint64_t)v;
        return 0;
    }
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || errno) return -1;
    if (width == 4 && v > UINT32_MAX) return -1;
    *out = v;
    return 0;
}

static int read_csv(FILE *f, const char *path, int kb, int pb, gj_dtable *h, gj_ctx *ctx)
{
    int rc = GJ_OK, ncol = -1, isf[1 + GJ_MAX_PAYLOADS] = {0};
    uint64_t cap = 0, n = 0, line_no = 0;
    uint64_t *vals = NULL; /* rows x ncol */
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        line_no++;
        size_t L = strlen(line);
        if (L == sizeof line - 1 && line[L - 1] != '\n') {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s:%llu: line longer than %zu bytes", path,
                           (unsigned long long)line_no, sizeof line - 2);
            goto done;
        }
        while (L && (line[L - 1] == '\n' || line[L - 1] == '\r' || line[L - 1] == ' ')) line[--L] = 0;
        if (!L || line[0] == '#') continue;
        char *fld[1 + GJ_MAX_PAYLOADS + 1];
        int nf = 0;
        for (char *save = NULL, *t = strtok_r(line, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            while (isspace((unsigned char)*t)) t++;
            if (nf == 1 + GJ_MAX_PAYLOADS) {
                rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s:%llu: more than %d fields", path,
                               (unsigned long long)line_no, 1 + GJ_MAX_PAYLOADS);
                goto done;
            }
            fld[nf++] = t;
        }
        if (ncol < 0 && n == 0 && nf && !isdigit((unsigned char)fld[0][0])) continue; /* header */
        if (ncol < 0) ncol = nf;
        if (nf != ncol) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s:%llu: %d fields, the first row had %d", path,
                           (unsigned long long)line_no, nf, ncol);
            goto done;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            uint64_t *nv = realloc(vals, cap * ncol * sizeof *vals);
            if (!nv) {
                rc = gj_seterr(ctx, GJ_ERR_NOMEM, "%s: %llu rows", path, (unsigned long long)cap);
                goto done;
            }
            vals = nv;
        }
        for (int c = 0; c < nf; c++) {
            int fl;
            if (parse_field(fld[c], c ? pb : kb, c > 0, &vals[n * ncol + c], &fl)) {
                rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s:%llu: field %d '%s': allowed %s", path,
                               (unsigned long long)line_no, c + 1, fld[c],
                               c ? "an integer or a float of the payload width"
                                 : "an unsigned integer of the key width");
                goto done;
            }
            if (fl && n > 0 && !isf[c]) {
                rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s:%llu: field %d: float after integer rows", path,
                               (unsigned long long)line_no, c + 1);
                goto done;
            }
            if (n > 0 && isf[c] && !fl) {
                rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s:%llu: field %d: integer in a float column",
                               path, (unsigned long long)line_no, c + 1);
                goto done;
            }
            isf[c] = fl;
        }
        n++;
    }
    if (ferror(f)) {
        rc = gj_seterr(ctx, GJ_ERR_IO, "%s: read error", path);
        goto done;
    }
    if (ncol < 0) ncol = 1; /* empty file: zero rows, key only */
    h->rows = n;
    h->n_payloads = ncol - 1;
    for (int c = 0; c < ncol; c++) {
        gj_column *k = col(h, c);
        k->width = c ? pb : kb;
        k->type = isf[c] ? GJ_DT_FLOAT : GJ_DT_INT;
        k->data = malloc(n * k->width + 1);
        if (!k->data) {
            rc = gj_seterr(ctx, GJ_ERR_NOMEM, "%s: %llu rows", path, (unsigned long long)n);
            goto done;
        }
        for (uint64_t i = 0; i < n; i++) put(k, i, vals[i * ncol + c]);
    }
done:
    free(vals);
    return rc;
}

int gj_colfile_read(const char *path, int key_bytes, int payload_bytes, gj_dtable *h, gj_ctx *ctx)
{
    int rc = GJ_OK;
    FILE *f = NULL;
    char magic[8];
    if (!path || !h) return gj_seterr(ctx, GJ_ERR_INVALID, "path or table is NULL");
    memset(h, 0, sizeof *h);
    if (!width_ok(key_bytes) || !width_ok(payload_bytes))
        return gj_seterr(ctx, GJ_ERR_INVALID, "key/payload bytes %d/%d: allowed 4 or 8", key_bytes,
                         payload_bytes);
    f = fopen(path, "rb");
    if (!f) {
        rc = gj_seterr(ctx, GJ_ERR_IO, "%s: %s", path, strerror(errno));
        goto done;
    }
    if (fread(magic, 1, 8, f) == 8 && !memcmp(magic, GJ_COLFILE_MAGIC, 8)) {
        rewind(f);
        rc = read_binary(f, path, h, ctx);
    } else {
        rewind(f);
        rc = read_csv(f, path, key_bytes, payload_bytes, h, ctx);
    }
done:
    if (f) fclose(f);
    if (rc != GJ_OK) gj_htable_free(h);
    return rc;
}

int gj_colfile_write(const char *path, const gj_dtable *h, gj_ctx *ctx)
{
    int rc = GJ_OK;
    FILE *f = NULL;
    if (!path || !h || h->n_payloads < 0 || h->n_payloads > GJ_MAX_PAYLOADS)
        return gj_seterr(ctx, GJ_ERR_INVALID, "path or table invalid");
    unsigned char hdr[24] = {0};
    uint32_t ncol = 1 + (uint32_t)h->n_payloads;
    memcpy(hdr, GJ_COLFILE_MAGIC, 8);
    memcpy(hdr + 8, &h->rows, 8);
    memcpy(hdr + 16, &ncol, 4);
    f = fopen(path, "wb");
    if (!f) {
        rc = gj_seterr(ctx, GJ_ERR_IO, "%s: %s", path, strerror(errno));
        goto done;
    }
    if (fwrite(hdr, 1, 24, f) != 24) goto ioerr;
    for (uint32_t c = 0; c < ncol; c++) {
        const gj_column *k = c ? &h->payload[c - 1] : &h->key;
        unsigned char d[8] = {(unsigned char)k->width, (unsigned char)(k->type == GJ_DT_FLOAT)};
        if (!width_ok(k->width)) {
            rc = gj_seterr(ctx, GJ_ERR_INVALID, "column %u width %d", c, k->width);
            goto done;
        }
        if (fwrite(d, 1, 8, f) != 8) goto ioerr;
    }
    for (uint32_t c = 0; c < ncol; c++) {
        const gj_column *k = c ? &h->payload[c - 1] : &h->key;
        if (h->rows && fwrite(k->data, k->width, h->rows, f) != h->rows) goto ioerr;
    }
    if (fclose(f)) {
        f = NULL;
        goto ioerr;
    }
    f = NULL;
    goto done;
ioerr:
    rc = gj_seterr(ctx, GJ_ERR_IO, "%s: write failed: %s", path, strerror(errno));
done:
    if (f) fclose(f);
    return rc;
}
