/* Column files: the binary format of operators/COLUMNS.md and CSV for small
 * data, read into / written from host tables (gj_dtable whose columns point
 * to host memory). Column 0 is the key, the rest are payloads. */
#ifndef GJ_OPERATORS_COLFILE_H
#define GJ_OPERATORS_COLFILE_H

#include "gjadvise.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GJ_COLFILE_MAGIC "GJCOLS01"

/* Read `path`: the binary format if it starts with GJ_COLFILE_MAGIC, else
 * CSV (comma-separated, one row per line, first field the key; an optional
 * header line whose first field is not a number; '#' lines ignored; integers
 * in decimal or 0x hex, payload fields with '.', 'e', "inf" or "nan" make
 * that column float). key_bytes / payload_bytes (4 or 8) give CSV widths;
 * the binary format carries its own.
 * [out] h: host table, columns malloc'd, free with gj_htable_free.
 * Returns GJ_OK, GJ_ERR_IO (cannot open/read), GJ_ERR_PARSE (malformed; line
 * and field in ctx), GJ_ERR_INVALID (bad widths), GJ_ERR_NOMEM. */
int gj_colfile_read(const char *path, int key_bytes, int payload_bytes, gj_dtable *h, gj_ctx *ctx);

/* Write host table h in the binary format. Returns GJ_OK, GJ_ERR_IO,
 * GJ_ERR_INVALID. */
int gj_colfile_write(const char *path, const gj_dtable *h, gj_ctx *ctx);

/* Copy a host table to the device ([out] d: cudaMalloc'd columns, free with
 * gj_dtable_free). Synchronises. Returns GJ_OK, GJ_ERR_INFEASIBLE, GJ_ERR_CUDA. */
int gj_dtable_upload(const gj_dtable *h, gj_dtable *d, gj_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif
