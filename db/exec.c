/* The execution log: one row per run of one implementation on one
 * workload, with predicted and measured times (total and per phase). */
#include "db/store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* NaN is stored as NULL (SQLite's rule) and read back as NaN. */
static double col_double(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static const char *col_text(sqlite3_stmt *st, int i)
{
    const char *s = (const char *)sqlite3_column_text(st, i);
    return s ? s : "";
}

static int check_record(const gj_exec_record *r, gj_ctx *ctx)
{
    int rc;
    if ((rc = gj_workload_check(&r->w, ctx)) != GJ_OK) return rc;
    if (!gj_impl_name(r->impl) || gj_impl_op(r->impl) != r->w.op)
        return gj_seterr(ctx, GJ_ERR_INVALID, "impl=%d: not an implementation of the "
                         "workload's operator", (int)r->impl);
    if (r->n_phases < 0 || r->n_phases > GJ_MAX_PHASES)
        return gj_seterr(ctx, GJ_ERR_INVALID, "n_phases=%d: allowed 0 to %d", r->n_phases,
                         GJ_MAX_PHASES);
    if (r->checked < -1 || r->checked > 1 || r->repeats < 0)
        return gj_seterr(ctx, GJ_ERR_INVALID, "checked=%d repeats=%d: allowed checked -1, 0 or "
                         "1 and repeats >= 0", r->checked, r->repeats);
    if (strnlen(r->ts, sizeof r->ts) == sizeof r->ts ||
        strnlen(r->profile, sizeof r->profile) == sizeof r->profile ||
        strnlen(r->device_uuid, sizeof r->device_uuid) == sizeof r->device_uuid ||
        strnlen(r->tag, sizeof r->tag) == sizeof r->tag)
        return gj_seterr(ctx, GJ_ERR_INVALID, "ts, profile, device_uuid or tag not "
                         "NUL-terminated");
    return GJ_OK;
}

/* Insert one checked record inside the caller's transaction; its id and
 * timestamp go to *id and ts. */
static int insert_record(gj_db *db, const gj_exec_record *r, int64_t *id, char *ts, gj_ctx *ctx)
{
    sqlite3_stmt *st = NULL;
    char *wjson = NULL;
    int rc = GJ_OK, src;
    const char *what = "logging an execution";

    if (r->ts[0]) gj_strlcpy(ts, r->ts, 32);
    else gj_now_iso(ts, 32);
    if (gj_workload_to_json(&r->w, &wjson) != GJ_OK)
        return gj_seterr(ctx, GJ_ERR_NOMEM, "%s: out of memory", db->path);
    src = sqlite3_prepare_v2(db->db, "INSERT INTO exec_log(ts, profile, profile_version,"
                             " device_uuid, workload, impl, predicted_ms, measured_ms, checked,"
                             " repeats, n_phases, tag) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)",
                             -1, &st, NULL);
    if (src != SQLITE_OK) goto sqlerr;
    sqlite3_bind_text(st, 1, ts, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, r->profile, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, r->profile_version);
    sqlite3_bind_text(st, 4, r->device_uuid, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, wjson, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, gj_impl_name(r->impl), -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 7, r->predicted_ms);
    sqlite3_bind_double(st, 8, r->measured_ms);
    sqlite3_bind_int(st, 9, r->checked);
    sqlite3_bind_int(st, 10, r->repeats);
    sqlite3_bind_int(st, 11, r->n_phases);
    if ((src = sqlite3_bind_text(st, 12, r->tag, -1, SQLITE_TRANSIENT)) != SQLITE_OK) goto sqlerr;
    if ((src = sqlite3_step(st)) != SQLITE_DONE) goto sqlerr;
    *id = sqlite3_last_insert_rowid(db->db);
    sqlite3_finalize(st);
    st = NULL;
    what = "logging phase times";
    src = sqlite3_prepare_v2(db->db, "INSERT INTO exec_phase(exec_id, phase, predicted_ms,"
                             " measured_ms) VALUES(?1,?2,?3,?4)", -1, &st, NULL);
    if (src != SQLITE_OK) goto sqlerr;
    for (int i = 0; i < r->n_phases; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, *id);
        sqlite3_bind_int(st, 2, i);
        sqlite3_bind_double(st, 3, r->predicted_phase_ms[i]);
        if ((src = sqlite3_bind_double(st, 4, r->measured_phase_ms[i])) != SQLITE_OK) goto sqlerr;
        if ((src = sqlite3_step(st)) != SQLITE_DONE) goto sqlerr;
    }
    goto done;
sqlerr:
    rc = gj_db_fail(db, src, ctx, what);
done:
    sqlite3_finalize(st);
    free(wjson);
    return rc;
}

int gj_db_exec_log_many(gj_db *db, gj_exec_record *r, int n, gj_ctx *ctx)
{
    int rc;
    if (!db || !db->db || (!r && n > 0) || n < 0)
        return gj_seterr(ctx, GJ_ERR_INVALID, "store or records NULL, or n < 0");
    for (int i = 0; i < n; i++)
        if ((rc = check_record(&r[i], ctx)) != GJ_OK) return rc;
    int64_t *ids = malloc(sizeof *ids * (size_t)(n ? n : 1));
    char(*ts)[32] = malloc(sizeof *ts * (size_t)(n ? n : 1));
    if (!ids || !ts) {
        rc = gj_seterr(ctx, GJ_ERR_NOMEM, "%s: out of memory", db->path);
        goto done;
    }
    if ((rc = gj_db_begin(db, ctx)) != GJ_OK) goto done;
    for (int i = 0; i < n && rc == GJ_OK; i++) rc = insert_record(db, &r[i], &ids[i], ts[i], ctx);
    if (rc == GJ_OK) rc = gj_db_commit(db, ctx);
    if (rc != GJ_OK) {
        gj_db_rollback(db);
        goto done;
    }
    for (int i = 0; i < n; i++) {
        r[i].id = ids[i];
        gj_strlcpy(r[i].ts, ts[i], sizeof r[i].ts);
    }
done:
    free(ids);
    free(ts);
    return rc;
}

int gj_db_exec_log(gj_db *db, gj_exec_record *r, gj_ctx *ctx)
{
    if (!db || !db->db || !r) return gj_seterr(ctx, GJ_ERR_INVALID, "store or record is NULL");
    return gj_db_exec_log_many(db, r, 1, ctx);
}

int gj_db_exec_list(gj_db *db, const char *device_uuid, gj_exec_record **rows, int *n,
                    gj_ctx *ctx)
{
    sqlite3_stmt *st = NULL, *ph = NULL;
    gj_exec_record *out = NULL;
    int rc = GJ_OK, src, cnt = 0, cap = 0;
    const char *what = "reading the execution log";

    if (rows) *rows = NULL;
    if (n) *n = 0;
    if (!db || !db->db || !rows || !n)
        return gj_seterr(ctx, GJ_ERR_INVALID, "store, rows or n is NULL");
    src = sqlite3_prepare_v2(db->db, "SELECT id, ts, profile, profile_version, device_uuid,"
                             " workload, impl, predicted_ms, measured_ms, checked, repeats,"
                             " n_phases, tag FROM exec_log WHERE ?1 IS NULL OR device_uuid = ?1"
                             " ORDER BY id", -1, &st, NULL);
    if (src != SQLITE_OK) goto sqlerr;
    if (device_uuid) src = sqlite3_bind_text(st, 1, device_uuid, -1, SQLITE_TRANSIENT);
    if (src != SQLITE_OK) goto sqlerr;
    src = sqlite3_prepare_v2(db->db, "SELECT phase, predicted_ms, measured_ms FROM exec_phase"
                             " WHERE exec_id = ?1 ORDER BY phase", -1, &ph, NULL);
    if (src != SQLITE_OK) goto sqlerr;
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        if (cnt == cap) {
            int nc = cap ? cap * 2 : 64;
            gj_exec_record *g = realloc(out, sizeof *g * (size_t)nc);
            if (!g) {
                rc = gj_seterr(ctx, GJ_ERR_NOMEM, "%s: out of memory reading the log", db->path);
                goto done;
            }
            out = g;
            cap = nc;
        }
        gj_exec_record *r = &out[cnt];
        memset(r, 0, sizeof *r);
        r->id = sqlite3_column_int64(st, 0);
        gj_strlcpy(r->ts, col_text(st, 1), sizeof r->ts);
        gj_strlcpy(r->profile, col_text(st, 2), sizeof r->profile);
        r->profile_version = sqlite3_column_int(st, 3);
        gj_strlcpy(r->device_uuid, col_text(st, 4), sizeof r->device_uuid);
        gj_ctx wctx = {0};
        if ((rc = gj_workload_from_json_conn(db->db, col_text(st, 5), &r->w, &wctx)) != GJ_OK) {
            rc = gj_seterr(ctx, rc == GJ_ERR_NOMEM ? rc : GJ_ERR_DB_CORRUPT,
                           "%s: execution %lld: workload: %s", db->path, (long long)r->id,
                           wctx.msg);
            goto done;
        }
        if (gj_impl_parse(col_text(st, 6), &r->impl) != GJ_OK) {
            rc = gj_seterr(ctx, GJ_ERR_DB_CORRUPT, "%s: execution %lld: unknown implementation "
                           "\"%s\"", db->path, (long long)r->id, col_text(st, 6));
            goto done;
        }
        r->predicted_ms = col_double(st, 7);
        r->measured_ms = col_double(st, 8);
        r->checked = sqlite3_column_int(st, 9);
        r->repeats = sqlite3_column_int(st, 10);
        r->n_phases = sqlite3_column_int(st, 11);
        gj_strlcpy(r->tag, col_text(st, 12), sizeof r->tag);
        if (r->n_phases < 0 || r->n_phases > GJ_MAX_PHASES) {
            rc = gj_seterr(ctx, GJ_ERR_DB_CORRUPT, "%s: execution %lld: %d phases", db->path,
                           (long long)r->id, r->n_phases);
            goto done;
        }
        sqlite3_reset(ph);
        if ((src = sqlite3_bind_int64(ph, 1, r->id)) != SQLITE_OK) goto sqlerr;
        while ((src = sqlite3_step(ph)) == SQLITE_ROW) {
            int k = sqlite3_column_int(ph, 0);
            if (k < 0 || k >= r->n_phases) {
                rc = gj_seterr(ctx, GJ_ERR_DB_CORRUPT, "%s: execution %lld: phase %d of %d",
                               db->path, (long long)r->id, k, r->n_phases);
                goto done;
            }
            r->predicted_phase_ms[k] = col_double(ph, 1);
            r->measured_phase_ms[k] = col_double(ph, 2);
        }
        if (src != SQLITE_DONE) goto sqlerr;
        cnt++;
    }
    if (src != SQLITE_DONE) goto sqlerr;
    *rows = out;
    *n = cnt;
    out = NULL;
    goto done;
sqlerr:
    rc = gj_db_fail(db, src, ctx, what);
done:
    sqlite3_finalize(st);
    sqlite3_finalize(ph);
    free(out);
    return rc;
}
