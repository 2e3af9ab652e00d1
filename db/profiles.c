/* Profiles in the store: save as the next version of a name, load by name
 * and version or by device, list. */
#include "db/store.h"
#include "model/profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Columns of PROFILE_SELECT, in order. */
#define PROFILE_SELECT                                                                   \
    "SELECT p.id, p.name, p.version, p.origin, p.created, p.notes, p.fit_error,"        \
    " d.uuid, d.name, d.cc_major, d.cc_minor, d.sm_count, d.mem_bytes, d.l2_bytes,"     \
    " d.smem_per_block, d.smem_per_sm, d.clock_mhz, d.mem_clock_mhz, d.mem_bus_bits,"   \
    " d.driver_version, d.runtime_version FROM profile p JOIN device d ON d.id = p.device_id "

static int source_parse(const char *s, gj_source *out)
{
    for (int i = GJ_SRC_UNSET; i <= GJ_SRC_TUNED; i++)
        if (s && !strcmp(s, gj_source_name((gj_source)i))) {
            *out = (gj_source)i;
            return GJ_OK;
        }
    return GJ_ERR_NOTFOUND;
}

static const char *col_text(sqlite3_stmt *st, int i)
{
    const char *s = (const char *)sqlite3_column_text(st, i);
    return s ? s : "";
}

/* Build a profile from the current row of a PROFILE_SELECT, then read its
 * parameters. */
/* ---- learned corrections: one row per (impl, field) in table fit --------- */

/* The 7 term coefficients, then the intercept and the fit's statistics. */
#define FIT_FIELDS (GJ_TERMS + 4)

static const char *fit_field_name(int k)
{
    static const char *const extra[] = {"intercept_ms", "n_train", "err_train", "err_holdout"};
    return k < GJ_TERMS ? gj_term_name((gj_term)k) : extra[k - GJ_TERMS];
}

/* Flatten a set fit into v; 0 if f is not set. */
static int fit_pack(const gj_fit *f, double *v)
{
    if (!f->set) return 0;
    for (int k = 0; k < GJ_TERMS; k++) v[k] = f->coef[k];
    v[GJ_TERMS] = f->intercept_ms;
    v[GJ_TERMS + 1] = f->n_train;
    v[GJ_TERMS + 2] = f->err_train;
    v[GJ_TERMS + 3] = f->err_holdout;
    return 1;
}

static int load_fits(gj_db *db, int64_t id, gj_profile *p, const char *name, int version,
                     gj_ctx *ctx)
{
    sqlite3_stmt *st = NULL;
    gj_fit fits[GJ_IMPL_COUNT];
    int seen[GJ_IMPL_COUNT] = {0}, rc = GJ_OK;
    memset(fits, 0, sizeof fits);
    int src = sqlite3_prepare_v2(db->db, "SELECT impl, term, value FROM fit WHERE profile_id = ?1",
                                 -1, &st, NULL);
    if (src == SQLITE_OK) src = sqlite3_bind_int64(st, 1, id);
    while (src == SQLITE_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
        gj_impl impl;
        const char *field = col_text(st, 1);
        double v = sqlite3_column_double(st, 2);
        int k = -1;
        for (int j = 0; j < FIT_FIELDS; j++)
            if (!strcmp(field, fit_field_name(j))) k = j;
        /* Unknown implementations or fields (a newer gjadvise) are skipped. */
        src = SQLITE_OK;
        if (gj_impl_parse(col_text(st, 0), &impl) != GJ_OK || k < 0) continue;
        gj_fit *f = &fits[impl];
        if (k < GJ_TERMS) f->coef[k] = v;
        else if (k == GJ_TERMS) f->intercept_ms = v;
        else if (k == GJ_TERMS + 1) f->n_train = (int)v;
        else if (k == GJ_TERMS + 2) f->err_train = v;
        else f->err_holdout = v;
        seen[impl]++;
    }
    if (src != SQLITE_DONE) {
        rc = gj_db_fail(db, src, ctx, "reading learned corrections");
        goto done;
    }
    for (int i = 0; i < GJ_IMPL_COUNT; i++) {
        if (!seen[i]) continue;
        if (seen[i] != FIT_FIELDS || gj_profile_set_fit(p, (gj_impl)i, &fits[i]) != GJ_OK) {
            rc = gj_seterr(ctx, GJ_ERR_DB_CORRUPT, "%s: profile %s v%d: correction of %s is "
                           "incomplete or out of range", db->path, name, version,
                           gj_impl_name((gj_impl)i));
            goto done;
        }
    }
done:
    sqlite3_finalize(st);
    return rc;
}

static int read_profile(gj_db *db, sqlite3_stmt *row, gj_profile **out, gj_ctx *ctx)
{
    gj_profile *p = NULL;
    sqlite3_stmt *st = NULL;
    int rc, src;
    const char *name = col_text(row, 1);
    *out = NULL;
    if ((rc = gj_profile_new(name, &p)) != GJ_OK) {
        rc = rc == GJ_ERR_NOMEM ? gj_seterr(ctx, rc, "%s: out of memory", db->path)
                                : gj_seterr(ctx, GJ_ERR_DB_CORRUPT, "%s: stored profile name "
                                            "\"%s\" is invalid", db->path, name);
        goto done;
    }
    int64_t id = sqlite3_column_int64(row, 0);
    int version = sqlite3_column_int(row, 2);
    double fit = sqlite3_column_type(row, 6) == SQLITE_NULL ? -1 : sqlite3_column_double(row, 6);
    if (gj_profile_set_meta(p, col_text(row, 3), col_text(row, 4), col_text(row, 5), version,
                            fit) != GJ_OK) {
        rc = gj_seterr(ctx, GJ_ERR_DB_CORRUPT, "%s: profile %s has version %d", db->path, name,
                       version);
        goto done;
    }
    gj_device *d = &p->dev;
    gj_strlcpy(d->uuid, col_text(row, 7), sizeof d->uuid);
    gj_strlcpy(d->name, col_text(row, 8), sizeof d->name);
    d->cc_major = sqlite3_column_int(row, 9);
    d->cc_minor = sqlite3_column_int(row, 10);
    d->sm_count = sqlite3_column_int(row, 11);
    d->mem_bytes = (uint64_t)sqlite3_column_int64(row, 12);
    d->l2_bytes = (uint64_t)sqlite3_column_int64(row, 13);
    d->smem_per_block = (uint64_t)sqlite3_column_int64(row, 14);
    d->smem_per_sm = (uint64_t)sqlite3_column_int64(row, 15);
    d->clock_mhz = sqlite3_column_int(row, 16);
    d->mem_clock_mhz = sqlite3_column_int(row, 17);
    d->mem_bus_bits = sqlite3_column_int(row, 18);
    d->driver_version = sqlite3_column_int(row, 19);
    d->runtime_version = sqlite3_column_int(row, 20);

    src = sqlite3_prepare_v2(db->db, "SELECT key, value, spread, source FROM param "
                                     "WHERE profile_id = ?1", -1, &st, NULL);
    if (src == SQLITE_OK) src = sqlite3_bind_int64(st, 1, id);
    while (src == SQLITE_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
        int i;
        gj_source s;
        const char *key = col_text(st, 0);
        double v = sqlite3_column_double(st, 1), sp = sqlite3_column_double(st, 2);
        /* A key this build does not know (a parameter a newer gjadvise added
         * within the same schema) is skipped: the models cannot use it. */
        if (!gj_param_find(key, &i)) { src = SQLITE_OK; continue; }
        if (source_parse(col_text(st, 3), &s) != GJ_OK || !isfinite(v) || v < 0 ||
            !isfinite(sp) || sp < 0) {
            rc = gj_seterr(ctx, GJ_ERR_DB_CORRUPT, "%s: profile %s v%d: parameter %s has value "
                           "%g, spread %g, source \"%s\"", db->path, name, version, key, v, sp,
                           col_text(st, 3));
            goto done;
        }
        *gj_param_ptr(&p->hw, i) = v;
        p->spread[i] = sp;
        p->src[i] = s;
        src = SQLITE_OK;
    }
    if (src != SQLITE_DONE) {
        rc = gj_db_fail(db, src, ctx, "reading profile parameters");
        goto done;
    }
    sqlite3_finalize(st);
    st = NULL;
    if ((rc = load_fits(db, id, p, name, version, ctx)) != GJ_OK) goto done;
    *out = p;
    p = NULL;
    rc = GJ_OK;
done:
    sqlite3_finalize(st);
    gj_profile_free(p);
    return rc;
}

static int check_db(gj_db *db, gj_ctx *ctx)
{
    if (!db || !db->db) return gj_seterr(ctx, GJ_ERR_INVALID, "store handle is NULL");
    return GJ_OK;
}

int gj_db_profile_save(gj_db *db, gj_profile *p, const gj_sample *samples, int n_samples,
                       gj_ctx *ctx)
{
    sqlite3_stmt *st = NULL;
    int rc, src = SQLITE_OK, version = 0;
    char created[32];
    const char *what = "";

    if ((rc = check_db(db, ctx)) != GJ_OK) return rc;
    if (!p || !gj_profile_name_ok(p->name))
        return gj_seterr(ctx, GJ_ERR_INVALID, "profile is NULL or has an invalid name");
    if (n_samples < 0 || (n_samples > 0 && !samples))
        return gj_seterr(ctx, GJ_ERR_INVALID, "samples: %d given with %s array", n_samples,
                         samples ? "an" : "a NULL");
    for (int i = 0; i < n_samples; i++)
        if (!samples[i].key || !*samples[i].key || strlen(samples[i].key) > 63 ||
            !isfinite(samples[i].value))
            return gj_seterr(ctx, GJ_ERR_INVALID, "samples[%d]: key \"%s\" value %g: a key of "
                             "1..63 bytes and a finite value are required", i,
                             samples[i].key ? samples[i].key : "(null)", samples[i].value);
    if (p->created[0]) gj_strlcpy(created, p->created, sizeof created);
    else gj_now_iso(created, sizeof created);

    if ((rc = gj_db_begin(db, ctx)) != GJ_OK) goto done;

    what = "storing the device";
    const gj_device *d = &p->dev;
    src = sqlite3_prepare_v2(
        db->db,
        "INSERT INTO device(uuid, name, cc_major, cc_minor, sm_count, mem_bytes, l2_bytes,"
        " smem_per_block, smem_per_sm, clock_mhz, mem_clock_mhz, mem_bus_bits, driver_version,"
        " runtime_version) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)"
        " ON CONFLICT DO UPDATE SET uuid = excluded.uuid RETURNING id", -1, &st, NULL);
    if (src != SQLITE_OK) goto sqlerr;
    sqlite3_bind_text(st, 1, d->uuid, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, d->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, d->cc_major);
    sqlite3_bind_int(st, 4, d->cc_minor);
    sqlite3_bind_int(st, 5, d->sm_count);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)d->mem_bytes);
    sqlite3_bind_int64(st, 7, (sqlite3_int64)d->l2_bytes);
    sqlite3_bind_int64(st, 8, (sqlite3_int64)d->smem_per_block);
    sqlite3_bind_int64(st, 9, (sqlite3_int64)d->smem_per_sm);
    sqlite3_bind_int(st, 10, d->clock_mhz);
    sqlite3_bind_int(st, 11, d->mem_clock_mhz);
    sqlite3_bind_int(st, 12, d->mem_bus_bits);
    sqlite3_bind_int(st, 13, d->driver_version);
    if ((src = sqlite3_bind_int(st, 14, d->runtime_version)) != SQLITE_OK) goto sqlerr;
    if ((src = sqlite3_step(st)) != SQLITE_ROW) goto sqlerr;
    int64_t device_id = sqlite3_column_int64(st, 0);
    if ((src = sqlite3_step(st)) != SQLITE_DONE) goto sqlerr;
    sqlite3_finalize(st);
    st = NULL;

    what = "choosing the version";
    src = sqlite3_prepare_v2(db->db, "SELECT coalesce(max(version), 0) + 1 FROM profile "
                                     "WHERE name = ?1", -1, &st, NULL);
    if (src != SQLITE_OK) goto sqlerr;
    if ((src = sqlite3_bind_text(st, 1, p->name, -1, SQLITE_TRANSIENT)) != SQLITE_OK) goto sqlerr;
    if ((src = sqlite3_step(st)) != SQLITE_ROW) goto sqlerr;
    version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    st = NULL;

    what = "storing the profile";
    src = sqlite3_prepare_v2(db->db, "INSERT INTO profile(name, version, origin, created,"
                                     " device_id, notes, fit_error) VALUES(?1,?2,?3,?4,?5,?6,?7)",
                             -1, &st, NULL);
    if (src != SQLITE_OK) goto sqlerr;
    sqlite3_bind_text(st, 1, p->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, version);
    sqlite3_bind_text(st, 3, p->origin[0] ? p->origin : "import", -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, created, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 5, device_id);
    sqlite3_bind_text(st, 6, p->notes, -1, SQLITE_TRANSIENT);
    if (p->fit_error >= 0 && isfinite(p->fit_error)) src = sqlite3_bind_double(st, 7, p->fit_error);
    else src = sqlite3_bind_null(st, 7);
    if (src != SQLITE_OK) goto sqlerr;
    if ((src = sqlite3_step(st)) != SQLITE_DONE) goto sqlerr;
    int64_t pid = sqlite3_last_insert_rowid(db->db);
    sqlite3_finalize(st);
    st = NULL;

    what = "storing parameters";
    src = sqlite3_prepare_v2(db->db, "INSERT INTO param(profile_id, key, value, spread, unit,"
                                     " source) VALUES(?1,?2,?3,?4,?5,?6)", -1, &st, NULL);
    if (src != SQLITE_OK) goto sqlerr;
    for (int i = 0; i < gj_param_count(); i++) {
        const gj_param_info *pi = gj_param_at(i);
        double v = *gj_param_ptr(&p->hw, i);
        if (p->src[i] == GJ_SRC_UNSET && v == 0 && p->spread[i] == 0) continue;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, pid);
        sqlite3_bind_text(st, 2, pi->key, -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 3, v);
        sqlite3_bind_double(st, 4, p->spread[i]);
        sqlite3_bind_text(st, 5, pi->unit, -1, SQLITE_STATIC);
        if ((src = sqlite3_bind_text(st, 6, gj_source_name(p->src[i]), -1, SQLITE_STATIC)) !=
            SQLITE_OK)
            goto sqlerr;
        if ((src = sqlite3_step(st)) != SQLITE_DONE) goto sqlerr;
    }
    sqlite3_finalize(st);
    st = NULL;

    what = "storing calibration samples";
    if (n_samples > 0) {
        src = sqlite3_prepare_v2(db->db, "INSERT INTO sample(profile_id, key, run, value)"
                                         " VALUES(?1,?2,?3,?4)", -1, &st, NULL);
        if (src != SQLITE_OK) goto sqlerr;
        for (int i = 0; i < n_samples; i++) {
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, pid);
            sqlite3_bind_text(st, 2, samples[i].key, -1, SQLITE_TRANSIENT);
            sqlite3_bind_int(st, 3, samples[i].run);
            if ((src = sqlite3_bind_double(st, 4, samples[i].value)) != SQLITE_OK) goto sqlerr;
            if ((src = sqlite3_step(st)) != SQLITE_DONE) {
                if ((src & 0xff) == SQLITE_CONSTRAINT) {
                    rc = gj_seterr(ctx, GJ_ERR_INVALID, "samples[%d]: key %s run %d appears "
                                   "twice", i, samples[i].key, samples[i].run);
                    goto done;
                }
                goto sqlerr;
            }
        }
        sqlite3_finalize(st);
        st = NULL;
    }
    what = "storing learned corrections";
    src = sqlite3_prepare_v2(db->db, "INSERT INTO fit(profile_id, impl, term, value)"
                                     " VALUES(?1,?2,?3,?4)", -1, &st, NULL);
    if (src != SQLITE_OK) goto sqlerr;
    for (int i = 0; i < GJ_IMPL_COUNT; i++) {
        double v[FIT_FIELDS];
        if (!fit_pack(&p->fit[i], v)) continue;
        for (int k = 0; k < FIT_FIELDS; k++) {
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, pid);
            sqlite3_bind_text(st, 2, gj_impl_name((gj_impl)i), -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 3, fit_field_name(k), -1, SQLITE_STATIC);
            if ((src = sqlite3_bind_double(st, 4, v[k])) != SQLITE_OK) goto sqlerr;
            if ((src = sqlite3_step(st)) != SQLITE_DONE) goto sqlerr;
        }
    }
    sqlite3_finalize(st);
    st = NULL;

    if ((rc = gj_db_commit(db, ctx)) != GJ_OK) goto done;
    p->version = version;
    gj_strlcpy(p->created, created, sizeof p->created);
    goto done;

sqlerr:
    rc = gj_db_fail(db, src, ctx, what);
done:
    sqlite3_finalize(st);
    if (rc != GJ_OK) gj_db_rollback(db);
    return rc;
}

static int builtin_or_notfound(gj_db *db, const char *name, int version, gj_profile **out,
                               gj_ctx *ctx)
{
    int rc = version <= 1 ? gj_profile_builtin(name, out) : GJ_ERR_NOTFOUND;
    if (rc == GJ_ERR_NOTFOUND) {
        char list[256] = "";
        for (int i = 0; i < gj_profile_builtin_count(); i++) {
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", gj_profile_builtin_name(i));
        }
        if (version > 1 && gj_profile_builtin(name, out) == GJ_OK) {
            gj_profile_free(*out);
            *out = NULL;
            return gj_seterr(ctx, rc, "profile %s@%d: the built-in %s has only version 1", name,
                             version, name);
        }
        return gj_seterr(ctx, rc, "no profile named %s%s%s; built-ins: %s", name,
                         db ? " in store " : "", db ? db->path : "", list);
    }
    if (rc != GJ_OK) return gj_seterr(ctx, rc, "built-in profile %s: %s", name, gj_errstr(rc));
    return rc;
}

int gj_db_profile_load(gj_db *db, const char *name, int version, gj_profile **out, gj_ctx *ctx)
{
    sqlite3_stmt *st = NULL;
    int rc = GJ_OK, src, newest = 0;
    if (out) *out = NULL;
    if (!out || !gj_profile_name_ok(name) || version < 0) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "profile \"%s\"@%d: a name of 1..63 characters "
                       "[A-Za-z0-9._-] and a version >= 0 are required", name ? name : "(null)",
                       version);
        goto done;
    }
    if (!db) {
        rc = builtin_or_notfound(NULL, name, version, out, ctx);
        goto done;
    }
    src = sqlite3_prepare_v2(db->db, PROFILE_SELECT "WHERE p.name = ?1 AND (?2 = 0 OR"
                             " p.version = ?2) ORDER BY p.version DESC LIMIT 1", -1, &st, NULL);
    if (src == SQLITE_OK) src = sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    if (src == SQLITE_OK) src = sqlite3_bind_int(st, 2, version);
    if (src == SQLITE_OK) src = sqlite3_step(st);
    if (src == SQLITE_ROW) {
        rc = read_profile(db, st, out, ctx);
        goto done;
    }
    if (src != SQLITE_DONE) {
        rc = gj_db_fail(db, src, ctx, "loading a profile");
        goto done;
    }
    sqlite3_finalize(st);
    st = NULL;
    /* Not there: does the name exist with other versions? */
    src = sqlite3_prepare_v2(db->db, "SELECT coalesce(max(version), 0) FROM profile "
                                     "WHERE name = ?1", -1, &st, NULL);
    if (src == SQLITE_OK) src = sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    if (src == SQLITE_OK) src = sqlite3_step(st);
    if (src != SQLITE_ROW) {
        rc = gj_db_fail(db, src, ctx, "loading a profile");
        goto done;
    }
    newest = sqlite3_column_int(st, 0);
    if (newest > 0)
        rc = gj_seterr(ctx, GJ_ERR_NOTFOUND, "profile %s has no version %d in %s (versions 1 "
                       "to %d)", name, version, db->path, newest);
    else
        rc = builtin_or_notfound(db, name, version, out, ctx);
done:
    sqlite3_finalize(st);
    return rc;
}

int gj_db_profile_for_device(gj_db *db, const char *uuid, gj_profile **out, gj_ctx *ctx)
{
    sqlite3_stmt *st = NULL;
    int rc, src;
    if (out) *out = NULL;
    if ((rc = check_db(db, ctx)) != GJ_OK) return rc;
    if (!out || !uuid) return gj_seterr(ctx, GJ_ERR_INVALID, "device uuid or out is NULL");
    if (!*uuid) return gj_seterr(ctx, GJ_ERR_NOTFOUND, "empty device uuid matches no profile");
    /* Newest = saved last (highest id), whatever its origin. */
    src = sqlite3_prepare_v2(db->db, PROFILE_SELECT "WHERE d.uuid = ?1 ORDER BY p.id DESC"
                                                    " LIMIT 1", -1, &st, NULL);
    if (src == SQLITE_OK) src = sqlite3_bind_text(st, 1, uuid, -1, SQLITE_TRANSIENT);
    if (src == SQLITE_OK) src = sqlite3_step(st);
    if (src == SQLITE_ROW) rc = read_profile(db, st, out, ctx);
    else if (src == SQLITE_DONE)
        rc = gj_seterr(ctx, GJ_ERR_NOTFOUND, "%s: no profile for device %s", db->path, uuid);
    else rc = gj_db_fail(db, src, ctx, "looking up a device's profile");
    sqlite3_finalize(st);
    return rc;
}

static int push_row(gj_profile_row **rows, int *n, int *cap, gj_profile_row **slot)
{
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 16;
        gj_profile_row *r = realloc(*rows, sizeof *r * (size_t)nc);
        if (!r) return GJ_ERR_NOMEM;
        *rows = r;
        *cap = nc;
    }
    *slot = &(*rows)[(*n)++];
    memset(*slot, 0, sizeof **slot);
    return GJ_OK;
}

int gj_db_profile_list(gj_db *db, gj_profile_row **rows, int *n, gj_ctx *ctx)
{
    sqlite3_stmt *st = NULL;
    gj_profile_row *r = NULL, *row;
    gj_profile *bp = NULL;
    int rc = GJ_OK, src, cnt = 0, cap = 0;
    if (!rows || !n) return gj_seterr(ctx, GJ_ERR_INVALID, "rows or n is NULL");
    *rows = NULL;
    *n = 0;
    if (db) {
        src = sqlite3_prepare_v2(db->db,
                                 "SELECT p.name, p.version, p.origin, p.created, d.name, d.uuid,"
                                 " (SELECT count(*) FROM sample s WHERE s.profile_id = p.id)"
                                 " FROM profile p JOIN device d ON d.id = p.device_id"
                                 " ORDER BY p.id DESC", -1, &st, NULL);
        while (src == SQLITE_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
            if ((rc = push_row(&r, &cnt, &cap, &row)) != GJ_OK) goto nomem;
            gj_strlcpy(row->name, col_text(st, 0), sizeof row->name);
            row->version = sqlite3_column_int(st, 1);
            gj_strlcpy(row->origin, col_text(st, 2), sizeof row->origin);
            gj_strlcpy(row->created, col_text(st, 3), sizeof row->created);
            gj_strlcpy(row->device, col_text(st, 4), sizeof row->device);
            gj_strlcpy(row->uuid, col_text(st, 5), sizeof row->uuid);
            row->n_samples = sqlite3_column_int(st, 6);
            src = SQLITE_OK;
        }
        if (src != SQLITE_DONE) {
            rc = gj_db_fail(db, src, ctx, "listing profiles");
            goto done;
        }
    }
    /* Built-ins, unless a stored profile of the same name shadows them. */
    int stored = cnt;
    for (int i = 0; i < gj_profile_builtin_count(); i++) {
        const char *name = gj_profile_builtin_name(i);
        int shadowed = 0;
        for (int j = 0; j < stored && !shadowed; j++) shadowed = !strcmp(r[j].name, name);
        if (shadowed) continue;
        if ((rc = gj_profile_builtin(name, &bp)) != GJ_OK) {
            rc = gj_seterr(ctx, rc, "built-in profile %s: %s", name, gj_errstr(rc));
            goto done;
        }
        if ((rc = push_row(&r, &cnt, &cap, &row)) != GJ_OK) goto nomem;
        gj_strlcpy(row->name, name, sizeof row->name);
        row->version = gj_profile_version(bp);
        gj_strlcpy(row->origin, "builtin", sizeof row->origin);
        gj_strlcpy(row->created, gj_profile_created(bp), sizeof row->created);
        gj_strlcpy(row->device, gj_profile_device(bp)->name, sizeof row->device);
        gj_strlcpy(row->uuid, gj_profile_device(bp)->uuid, sizeof row->uuid);
        gj_profile_free(bp);
        bp = NULL;
    }
    *rows = r;
    *n = cnt;
    r = NULL;
    goto done;
nomem:
    rc = gj_seterr(ctx, GJ_ERR_NOMEM, "listing profiles: out of memory");
done:
    sqlite3_finalize(st);
    gj_profile_free(bp);
    free(r);
    return rc;
}
