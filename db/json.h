/* Internal: reading JSON through SQLite's JSON1 functions (json_valid,
 * json_tree, ->), never a home-made parser. Writers use gj_sbuf_* from
 * common/internal.h. */
#ifndef GJ_DB_JSON_H
#define GJ_DB_JSON_H

#include "common/internal.h"
#include <sqlite3.h>
#include <stdint.h>

/* One node of a JSON document, in document order (a parent always comes
 * before its children). Strings live until the callback returns. */
typedef struct gj_json_node {
    int64_t id;          /* json_tree id                                     */
    int64_t parent;      /* id of the enclosing container, -1 for the root   */
    const char *key;     /* member name in an object; NULL for array
                            elements and the root                            */
    int64_t index;       /* position in an array, -1 otherwise               */
    const char *type;    /* "object" "array" "text" "integer" "real" "true"
                            "false" "null"                                   */
    const char *text;    /* "text": the decoded string; numbers: the literal
                            exactly as written (convert with strtod for an
                            exact round trip); NULL otherwise                */
    const char *path;    /* "$.params.bw_seq.value", for messages            */
} gj_json_node;

/* Called once per node; return GJ_OK to go on, anything else stops the walk
 * and becomes the walk's result (set ctx yourself). */
typedef int (*gj_json_cb)(void *ud, const gj_json_node *node, gj_ctx *ctx);

/* Walk `json`. conn: an open SQLite connection to run the JSON functions on,
 * or NULL to open a private in-memory one. top: the type the top level must
 * have ("object", "array"), or NULL for any. Rejects text that is not valid
 * JSON, whose top level is not `top`, or with a string holding NUL.
 * Returns GJ_OK, the callback's status, GJ_ERR_PARSE, GJ_ERR_NOMEM, GJ_ERR_DB. */
int gj_json_walk(sqlite3 *conn, const char *json, const char *top, gj_json_cb cb, void *ud,
                 gj_ctx *ctx);

/* Strict conversions of a number node's literal; each sets ctx naming
 * node->path on failure and returns GJ_OK or GJ_ERR_PARSE / GJ_ERR_INVALID. */
/* Finite double >= 0 (integer or real literal). */
int gj_json_num(const gj_json_node *n, double *out, gj_ctx *ctx);
/* Integer literal in [lo, hi]. */
int gj_json_int(const gj_json_node *n, int64_t lo, int64_t hi, int64_t *out, gj_ctx *ctx);
/* Unsigned integer literal (0 .. 2^64-1). */
int gj_json_u64(const gj_json_node *n, uint64_t *out, gj_ctx *ctx);
/* String that fits in `cap` bytes with its NUL. */
int gj_json_str(const gj_json_node *n, char *buf, size_t cap, gj_ctx *ctx);
/* true / false. */
int gj_json_bool(const gj_json_node *n, int *out, gj_ctx *ctx);

#endif
