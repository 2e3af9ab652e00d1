/* Internal view of the store (db/). Schema: db/SCHEMA.md. */
#ifndef GJ_DB_STORE_H
#define GJ_DB_STORE_H

#include "common/internal.h"
#include <sqlite3.h>

/* Schema version this build writes; older stores are migrated on open. */
#define GJ_DB_SCHEMA_VERSION 3
/* PRAGMA application_id of every gjadvise store: "gjad". */
#define GJ_DB_APP_ID 0x676a6164

struct gj_db {
    sqlite3 *db;
    char path[4096];
    int readonly;            /* opened with GJ_DB_OPEN_READONLY             */
};

/* Record a failed SQLite call on db: maps the SQLite code to a GJ_ERR_*
 * (busy -> LOCKED, read-only -> READONLY, not-a-db/corrupt -> CORRUPT,
 * nomem -> NOMEM, else DB), writes "PATH: what: sqlite message" to ctx and
 * returns the GJ_ERR_*. */
int gj_db_fail(gj_db *db, int sqlite_rc, gj_ctx *ctx, const char *what);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK on db (ROLLBACK never fails loudly). */
int gj_db_begin(gj_db *db, gj_ctx *ctx);
int gj_db_commit(gj_db *db, gj_ctx *ctx);
void gj_db_rollback(gj_db *db);

/* Workload from JSON using an existing connection for the JSON functions. */
int gj_workload_from_json_conn(sqlite3 *conn, const char *json, gj_workload *w, gj_ctx *ctx);

#endif
