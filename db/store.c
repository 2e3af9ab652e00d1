/* The store: opening, schema versions and migrations, error mapping.
 * Tables, columns and the history of each version: db/SCHEMA.md. */
#include "db/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* migrations[v] takes a store from schema v to v+1. Each runs inside the
 * open's transaction together with the PRAGMA user_version that follows it,
 * so a store is never left half-migrated. Never edit a released step: add
 * one. */
static const char *const migrations[GJ_DB_SCHEMA_VERSION] = {
    /* 0 -> 1: the first schema. */
    "PRAGMA application_id = 1735024996;\n" /* GJ_DB_APP_ID, "gjad" */
    "CREATE TABLE device(\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  uuid TEXT NOT NULL, name TEXT NOT NULL,\n"
    "  cc_major INTEGER NOT NULL, cc_minor INTEGER NOT NULL, sm_count INTEGER NOT NULL,\n"
    "  mem_bytes INTEGER NOT NULL, l2_bytes INTEGER NOT NULL,\n"
    "  smem_per_block INTEGER NOT NULL, smem_per_sm INTEGER NOT NULL,\n"
    "  clock_mhz INTEGER NOT NULL, mem_clock_mhz INTEGER NOT NULL, mem_bus_bits INTEGER NOT NULL,\n"
    "  driver_version INTEGER NOT NULL, runtime_version INTEGER NOT NULL,\n"
    "  UNIQUE(uuid, name, cc_major, cc_minor, sm_count, mem_bytes, l2_bytes, smem_per_block,\n"
    "         smem_per_sm, clock_mhz, mem_clock_mhz, mem_bus_bits, driver_version,\n"
    "         runtime_version));\n"
    "CREATE TABLE profile(\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  name TEXT NOT NULL, version INTEGER NOT NULL CHECK(version >= 1),\n"
    "  origin TEXT NOT NULL, created TEXT NOT NULL,\n"
    "  device_id INTEGER NOT NULL REFERENCES device(id),\n"
    "  UNIQUE(name, version));\n"
    "CREATE INDEX profile_device ON profile(device_id);\n"
    "CREATE TABLE param(\n"
    "  profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,\n"
    "  key TEXT NOT NULL, value REAL NOT NULL, spread REAL NOT NULL,\n"
    "  unit TEXT NOT NULL, source TEXT NOT NULL,\n"
    "  PRIMARY KEY(profile_id, key));\n"
    "CREATE TABLE sample(\n"
    "  profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,\n"
    "  key TEXT NOT NULL, run INTEGER NOT NULL, value REAL NOT NULL,\n"
    "  PRIMARY KEY(profile_id, key, run));\n"
    "CREATE TABLE exec_log(\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  ts TEXT NOT NULL, profile TEXT NOT NULL, profile_version INTEGER NOT NULL,\n"
    "  device_uuid TEXT NOT NULL, workload TEXT NOT NULL, impl TEXT NOT NULL,\n"
    "  predicted_ms REAL, measured_ms REAL,\n"
    "  checked INTEGER NOT NULL, repeats INTEGER NOT NULL);\n"
    "CREATE INDEX exec_log_device ON exec_log(device_uuid);\n"
    "PRAGMA user_version = 1;\n",
    /* 1 -> 2: profile notes and fit error; per-phase times in the log. */
    "ALTER TABLE profile ADD COLUMN notes TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE profile ADD COLUMN fit_error REAL;\n"
    "ALTER TABLE exec_log ADD COLUMN n_phases INTEGER NOT NULL DEFAULT 0;\n"
    "CREATE TABLE exec_phase(\n"
    "  exec_id INTEGER NOT NULL REFERENCES exec_log(id) ON DELETE CASCADE,\n"
    "  phase INTEGER NOT NULL CHECK(phase >= 0),\n"
    "  predicted_ms REAL, measured_ms REAL,\n"
    "  PRIMARY KEY(exec_id, phase));\n"
    "PRAGMA user_version = 2;\n",
    /* 2 -> 3: who ran an execution (run, bench, validate:GRID); learned
     * model corrections of a profile version (gjadvise tune). */
    "ALTER TABLE exec_log ADD COLUMN tag TEXT NOT NULL DEFAULT '';\n"
    "CREATE INDEX exec_log_tag ON exec_log(tag);\n"
    "CREATE TABLE fit(\n"
    "  profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,\n"
    "  impl TEXT NOT NULL, term TEXT NOT NULL, value REAL NOT NULL,\n"
    "  PRIMARY KEY(profile_id, impl, term));\n"
    "PRAGMA user_version = 3;\n",
};

/* Tables of the current schema: a store lacking one is damaged. */
static const char *const tables_now =
    "'device','profile','param','sample','exec_log','exec_phase','fit'";
#define N_TABLES_NOW 7

int gj_db_default_path(char *buf, size_t n)
{
    const char *env = getenv(GJ_DB_ENV), *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int k;
    if (!buf || !n) return GJ_ERR_INVALID;
    buf[0] = 0;
    if (env && *env) k = snprintf(buf, n, "%s", env);
    else if (xdg && xdg[0] == '/') k = snprintf(buf, n, "%s/gjadvise/gjadvise.db", xdg);
    else if (home && *home) k = snprintf(buf, n, "%s/.local/share/gjadvise/gjadvise.db", home);
    else return GJ_ERR_INVALID;
    if (k < 0 || (size_t)k >= n) {
        buf[0] = 0;
        return GJ_ERR_INVALID;
    }
    return GJ_OK;
}

/* Folder part of path into dir ("." when there is none). */
static void dir_of(const char *path, char *dir, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash) gj_strlcpy(dir, ".", n);
    else if (slash == path) gj_strlcpy(dir, "/", n);
    else snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

static int dir_writable(const char *path)
{
    char dir[4096];
    dir_of(path, dir, sizeof dir);
    return faccessat(AT_FDCWD, dir, W_OK, AT_EACCESS) == 0;   /* effective ids */
}

int gj_db_fail(gj_db *db, int src, gj_ctx *ctx, const char *what)
{
    int code;
    switch (src & 0xff) {
    case SQLITE_BUSY: case SQLITE_LOCKED: code = GJ_ERR_DB_LOCKED; break;
    case SQLITE_READONLY: case SQLITE_PERM: case SQLITE_AUTH: code = GJ_ERR_DB_READONLY; break;
    case SQLITE_NOTADB: case SQLITE_CORRUPT: code = GJ_ERR_DB_CORRUPT; break;
    case SQLITE_NOMEM: code = GJ_ERR_NOMEM; break;
    case SQLITE_CANTOPEN:
        code = dir_writable(db->path) ? GJ_ERR_DB : GJ_ERR_DB_READONLY;
        break;
    default: code = GJ_ERR_DB;
    }
    const char *msg = db->db ? sqlite3_errmsg(db->db) : sqlite3_errstr(src);
    if (db->db && sqlite3_errcode(db->db) == SQLITE_OK) msg = sqlite3_errstr(src);
    const char *hint = "";
    if (code == GJ_ERR_DB_LOCKED) hint = " (another gjadvise or sqlite3 holds it; retry later)";
    else if (code == GJ_ERR_DB_READONLY) hint = " (check the permissions of the file and its folder)";
    else if (code == GJ_ERR_DB_CORRUPT) hint = " (not a gjadvise store, or damaged; left untouched)";
    return gj_seterr(ctx, code, "%s: %s: %s (SQLite code %d)%s", db->path, what, msg, src, hint);
}

static int exec_sql(gj_db *db, const char *sql, gj_ctx *ctx, const char *what)
{
    int src = sqlite3_exec(db->db, sql, NULL, NULL, NULL);
    return src == SQLITE_OK ? GJ_OK : gj_db_fail(db, src, ctx, what);
}

int gj_db_begin(gj_db *db, gj_ctx *ctx)
{
    if (db->readonly)
        return gj_seterr(ctx, GJ_ERR_DB_READONLY, "%s: opened read-only (GJ_DB_OPEN_READONLY)",
                         db->path);
    int rc = exec_sql(db, "BEGIN IMMEDIATE", ctx, "starting a write transaction");
    /* Trust but verify: writing outside a transaction would not be all or
     * nothing. */
    if (rc == GJ_OK && sqlite3_get_autocommit(db->db))
        rc = gj_seterr(ctx, GJ_ERR_DB, "%s: BEGIN IMMEDIATE did not start a transaction",
                       db->path);
    return rc;
}

int gj_db_commit(gj_db *db, gj_ctx *ctx)
{
    int rc = exec_sql(db, "COMMIT", ctx, "committing");
    if (rc == GJ_OK && !sqlite3_get_autocommit(db->db))
        rc = gj_seterr(ctx, GJ_ERR_DB, "%s: COMMIT left the transaction open", db->path);
    if (rc != GJ_OK) gj_db_rollback(db);
    return rc;
}

void gj_db_rollback(gj_db *db)
{
    if (db && db->db && !sqlite3_get_autocommit(db->db))
        sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
}

/* mkdir -p of the folder holding path, new folders mode 0700. */
static int make_parents(const char *path, gj_ctx *ctx)
{
    char dir[4096];
    struct stat sb;
    dir_of(path, dir, sizeof dir);
    for (char *p = dir + 1;; p++) {
        int last = *p == 0;
        if (*p != '/' && !last) continue;
        char c = *p;
        *p = 0;
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
            int e = errno;
            *p = c;
            int code = (e == EACCES || e == EROFS || e == EPERM) ? GJ_ERR_DB_READONLY : GJ_ERR_DB;
            return gj_seterr(ctx, code, "%s: cannot create folder %s: %s", path, dir,
                             strerror(e));
        }
        if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            *p = c;
            return gj_seterr(ctx, GJ_ERR_DB, "%s: %s is not a folder", path, dir);
        }
        *p = c;
        if (last) break;
    }
    return GJ_OK;
}

typedef struct store_state {
    int64_t app_id;
    int version;
    int n_tables;    /* every schema object in sqlite_master                */
} store_state;

static int read_state(gj_db *db, store_state *s, gj_ctx *ctx)
{
    sqlite3_stmt *st = NULL;
    int rc = GJ_OK;
    int src = sqlite3_prepare_v2(db->db,
                                 "SELECT (SELECT application_id FROM pragma_application_id),"
                                 " (SELECT user_version FROM pragma_user_version),"
                                 " (SELECT count(*) FROM sqlite_master)", -1, &st, NULL);
    if (src == SQLITE_OK) src = sqlite3_step(st);
    if (src != SQLITE_ROW) {
        rc = gj_db_fail(db, src, ctx, "reading the store header");
        goto done;
    }
    s->app_id = sqlite3_column_int64(st, 0) & 0xffffffff;
    s->version = sqlite3_column_int(st, 1);
    s->n_tables = sqlite3_column_int(st, 2);
done:
    sqlite3_finalize(st);
    return rc;
}

/* GJ_OK with *migrate set when the store is ours (or empty) and older. */
static int classify(gj_db *db, const store_state *s, int *migrate, gj_ctx *ctx)
{
    *migrate = 0;
    if (s->app_id == GJ_DB_APP_ID) {
        if (s->version > GJ_DB_SCHEMA_VERSION)
            return gj_seterr(ctx, GJ_ERR_DB_VERSION,
                             "%s: schema version %d was written by a newer gjadvise (this one "
                             "knows up to %d); upgrade gjadvise, the store was left untouched",
                             db->path, s->version, GJ_DB_SCHEMA_VERSION);
        if (s->version < 1)
            return gj_seterr(ctx, GJ_ERR_DB_CORRUPT, "%s: gjadvise store with schema version %d: "
                             "damaged", db->path, s->version);
        *migrate = s->version < GJ_DB_SCHEMA_VERSION;
        return GJ_OK;
    }
    if (s->app_id == 0 && s->version == 0 && s->n_tables == 0) {
        *migrate = 1;   /* empty database file: initialise */
        return GJ_OK;
    }
    return gj_seterr(ctx, GJ_ERR_DB_CORRUPT,
                     "%s: not a gjadvise store (SQLite application_id 0x%llx, user_version %d, "
                     "%d schema objects); left untouched", db->path,
                     (unsigned long long)s->app_id, s->version, s->n_tables);
}

static int migrate(gj_db *db, gj_ctx *ctx)
{
    store_state s;
    int rc, need;
    char what[64];
    if ((rc = gj_db_begin(db, ctx)) != GJ_OK) goto done;
    /* Re-read under the write lock: another process may have migrated. */
    if ((rc = read_state(db, &s, ctx)) != GJ_OK) goto done;
    if ((rc = classify(db, &s, &need, ctx)) != GJ_OK || !need) goto done;
    for (int v = s.version; v < GJ_DB_SCHEMA_VERSION; v++) {
        snprintf(what, sizeof what, "migrating schema v%d to v%d", v, v + 1);
        if ((rc = exec_sql(db, migrations[v], ctx, what)) != GJ_OK) goto done;
    }
    rc = gj_db_commit(db, ctx);
done:
    if (rc != GJ_OK) gj_db_rollback(db);
    else if (!sqlite3_get_autocommit(db->db)) rc = gj_db_commit(db, ctx);
    return rc;
}

static int check_tables(gj_db *db, gj_ctx *ctx)
{
    sqlite3_stmt *st = NULL;
    char sql[256];
    int rc = GJ_OK;
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (%s)", tables_now);
    int src = sqlite3_prepare_v2(db->db, sql, -1, &st, NULL);
    if (src == SQLITE_OK) src = sqlite3_step(st);
    if (src != SQLITE_ROW) {
        rc = gj_db_fail(db, src, ctx, "reading the schema");
        goto done;
    }
    if (sqlite3_column_int(st, 0) != N_TABLES_NOW)
        rc = gj_seterr(ctx, GJ_ERR_DB_CORRUPT, "%s: damaged gjadvise store: %d of the %d tables "
                       "(%s) present", db->path, sqlite3_column_int(st, 0), N_TABLES_NOW, tables_now);
done:
    sqlite3_finalize(st);
    return rc;
}

int gj_db_open(const char *path, int flags, gj_db **out, gj_ctx *ctx)
{
    gj_db *d = NULL;
    struct stat sb;
    store_state s;
    int rc = GJ_OK, src, created = 0, need = 0;
    const int ro = flags & GJ_DB_OPEN_READONLY;

    if (out) *out = NULL;
    if (!out || !path || !*path) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "gj_db_open: NULL or empty path");
        goto done;
    }
    if (flags & ~(GJ_DB_OPEN_CREATE | GJ_DB_OPEN_READONLY)) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "gj_db_open: unknown flags 0x%x", (unsigned)flags);
        goto done;
    }
    if (!(d = calloc(1, sizeof *d))) {
        rc = gj_seterr(ctx, GJ_ERR_NOMEM, "%s: out of memory", path);
        goto done;
    }
    if (strlen(path) >= sizeof d->path) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "store path longer than %zu bytes", sizeof d->path - 1);
        goto done;
    }
    gj_strlcpy(d->path, path, sizeof d->path);
    d->readonly = ro;
    if (stat(path, &sb) != 0) {
        if (errno != ENOENT) {
            rc = gj_seterr(ctx, errno == EACCES ? GJ_ERR_DB_READONLY : GJ_ERR_DB, "%s: %s", path,
                           strerror(errno));
            goto done;
        }
        if (!(flags & GJ_DB_OPEN_CREATE) || ro) {
            rc = gj_seterr(ctx, GJ_ERR_NOTFOUND, "%s: no store there (`gjadvise calibrate` or "
                           "`gjadvise profiles import` creates one)", path);
            goto done;
        }
        if ((rc = make_parents(path, ctx)) != GJ_OK) goto done;
        created = 1;
    } else if (S_ISDIR(sb.st_mode)) {
        rc = gj_seterr(ctx, GJ_ERR_DB_CORRUPT, "%s: is a folder, not a gjadvise store", path);
        goto done;
    }
    src = sqlite3_open_v2(path, &d->db,
                          ro ? SQLITE_OPEN_READONLY
                             : SQLITE_OPEN_READWRITE | (created ? SQLITE_OPEN_CREATE : 0),
                          NULL);
    if (src != SQLITE_OK) {
        rc = gj_db_fail(d, src, ctx, created ? "creating" : "opening");
        goto done;
    }
    sqlite3_extended_result_codes(d->db, 1);
    sqlite3_busy_timeout(d->db, 2000);
    if ((rc = exec_sql(d, "PRAGMA foreign_keys = ON", ctx, "enabling foreign keys")) != GJ_OK)
        goto done;
    if ((rc = read_state(d, &s, ctx)) != GJ_OK) goto done;
    if ((rc = classify(d, &s, &need, ctx)) != GJ_OK) goto done;
    if (need) {
        if (ro) {
            rc = s.version == 0
                     ? gj_seterr(ctx, GJ_ERR_DB_CORRUPT, "%s: empty file, not a gjadvise store",
                                 path)
                     : gj_seterr(ctx, GJ_ERR_DB_VERSION,
                                 "%s: schema version %d predates this gjadvise (%d); open it "
                                 "once without read-only to migrate it", path, s.version,
                                 GJ_DB_SCHEMA_VERSION);
            goto done;
        }
        if (sqlite3_db_readonly(d->db, "main") == 1) {
            rc = gj_seterr(ctx, GJ_ERR_DB_READONLY, "%s: file is read-only; cannot %s it", path,
                           s.version ? "migrate" : "initialise");
            goto done;
        }
        if ((rc = migrate(d, ctx)) != GJ_OK) goto done;
    }
    if ((rc = check_tables(d, ctx)) != GJ_OK) goto done;
    *out = d;
    d = NULL;
done:
    if (d) {
        gj_db_close(d);
        /* Leave nothing behind when this call made the file and failed. */
        if (created && stat(path, &sb) == 0 && sb.st_size == 0) unlink(path);
    }
    return rc;
}

void gj_db_close(gj_db *db)
{
    if (!db) return;
    gj_db_rollback(db);
    sqlite3_close_v2(db->db);
    free(db);
}

int gj_db_schema_version(gj_db *db, int *version)
{
    store_state s;
    int rc;
    if (!db || !version) return GJ_ERR_INVALID;
    if ((rc = read_state(db, &s, NULL)) != GJ_OK) return rc;
    *version = s.version;
    return GJ_OK;
}
