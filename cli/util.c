/* Shared command-line helpers. */
#include "cli/cli.h"
#include "common/internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gj_cli_parse_size(const char *s, uint64_t max, uint64_t *out)
{
    if (!s || !*s || strlen(s) > 40) return -1;
    char *end;
    errno = 0;
    if (s[0] == '-' || s[0] == '+') return -1;
    if (!strncmp(s, "2^", 2)) {
        long e;
        if (gj_cli_parse_int(s + 2, 0, 62, &e)) return -1;
        uint64_t v = 1ULL << e;
        if (v > max) return -1;
        *out = v;
        return 0;
    }
    double v = strtod(s, &end);
    if (errno || end == s || !isfinite(v) || v < 0) return -1;
    double mul = 1;
    if (*end) {
        switch (*end) {
        case 'k': case 'K': mul = 1024.0; break;
        case 'm': case 'M': mul = 1024.0 * 1024; break;
        case 'g': case 'G': mul = 1024.0 * 1024 * 1024; break;
        case 't': case 'T': mul = 1024.0 * 1024 * 1024 * 1024; break;
        default: return -1;
        }
        if (end[1]) return -1;
    }
    v *= mul;
    if (v != floor(v) || v > (double)max) return -1;
    *out = (uint64_t)v;
    return 0;
}

int gj_cli_parse_double(const char *s, double *out)
{
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int gj_cli_parse_int(const char *s, long lo, long hi, long *out)
{
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

int gj_cli_parse_width(const char *cmd, const char *flag, const char *v, int *out)
{
    long l;
    if (gj_cli_parse_int(v, 4, 8, &l) || (l != 4 && l != 8)) return gj_cli_bad(cmd, flag, v, "allowed 4 or 8");
    *out = (int)l;
    return 0;
}

int gj_cli_parse_impls(const char *cmd, const char *v, gj_op op, int *impls, int *n)
{
    char buf[256], allowed[160] = "allowed all or a list of";
    const char *sep = " ";
    for (int i = 0; i < GJ_IMPL_COUNT; i++)
        if (gj_impl_op((gj_impl)i) == op) {
            strncat(allowed, sep, sizeof allowed - strlen(allowed) - 1);
            strncat(allowed, gj_impl_name((gj_impl)i), sizeof allowed - strlen(allowed) - 1);
            sep = ", ";
        }
    *n = 0;
    if (!strcmp(v, "all")) {
        for (int i = 0; i < GJ_IMPL_COUNT; i++)
            if (gj_impl_op((gj_impl)i) == op) impls[(*n)++] = i;
        return 0;
    }
    gj_strlcpy(buf, v, sizeof buf);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        gj_impl im;
        if (gj_impl_parse(t, &im) || gj_impl_op(im) != op || *n == GJ_IMPL_COUNT)
            return gj_cli_bad(cmd, "--impls", v, allowed);
        impls[(*n)++] = (int)im;
    }
    if (!*n) return gj_cli_bad(cmd, "--impls", v, "allowed at least one implementation");
    return 0;
}

void gj_cli_note_span(const char *cmd, const gj_workload *w)
{
    if (w->op != GJ_OP_GROUPBY || !w->key_range || w->groups <= w->key_range) return;
    fprintf(stderr,
            "gjadvise %s: note: %llu groups, but keys spanning %llu values form at most %llu; taken as told "
            "(keys outside a span told too small still group right, only slower)\n",
            cmd, (unsigned long long)w->groups, (unsigned long long)w->key_range, (unsigned long long)w->key_range);
}

int gj_cli_bad(const char *cmd, const char *flag, const char *value, const char *allowed)
{
    fprintf(stderr, "gjadvise %s: %s=%s: %s\n", cmd, flag, value ? value : "(missing)", allowed);
    return GJ_EXIT_USAGE;
}

int gj_cli_exit_for(int status)
{
    switch (status) {
    case GJ_OK: return GJ_EXIT_OK;
    case GJ_ERR_INVALID: return GJ_EXIT_USAGE;
    case GJ_ERR_NOTFOUND: return GJ_EXIT_USAGE;
    case GJ_ERR_DB: case GJ_ERR_DB_LOCKED: case GJ_ERR_DB_READONLY:
    case GJ_ERR_DB_CORRUPT: case GJ_ERR_DB_VERSION: return GJ_EXIT_STORE;
    case GJ_ERR_PARSE: case GJ_ERR_IO: return GJ_EXIT_INPUT;
    case GJ_ERR_NODEVICE: return GJ_EXIT_NODEVICE;
    case GJ_ERR_INFEASIBLE: case GJ_ERR_UNSUPPORTED: return GJ_EXIT_INFEASIBLE;
    default: return GJ_EXIT_FAIL;
    }
}

int gj_cli_fail(const char *cmd, int status, gj_ctx *ctx, const char *what)
{
    const char *msg = ctx && *gj_ctx_errmsg(ctx) ? gj_ctx_errmsg(ctx) : gj_errstr(status);
    fprintf(stderr, "gjadvise %s: %s: %s\n", cmd, what, msg);
    return gj_cli_exit_for(status);
}

int gj_cli_db_path(const char *flag_value, char *buf, size_t n)
{
    if (flag_value) {
        if (!*flag_value || strlen(flag_value) >= n) return GJ_ERR_INVALID;
        gj_strlcpy(buf, flag_value, n);
        return GJ_OK;
    }
    return gj_db_default_path(buf, n);
}

int gj_cli_open_db(const char *cmd, const char *flag_value, int flags, gj_db **db, int *exit_code)
{
    char path[4096];
    gj_ctx ctx = {0};
    *db = NULL;
    *exit_code = GJ_EXIT_OK;
    if (gj_cli_db_path(flag_value, path, sizeof path) != GJ_OK) {
        fprintf(stderr, "gjadvise %s: --db: no usable path (set --db, %s or HOME)\n", cmd, GJ_DB_ENV);
        *exit_code = GJ_EXIT_STORE;
        return GJ_ERR_INVALID;
    }
    int rc = gj_db_open(path, flags, db, &ctx);
    if (rc == GJ_ERR_NOTFOUND && !(flags & GJ_DB_OPEN_CREATE)) return rc;
    if (rc != GJ_OK) {
        fprintf(stderr, "gjadvise %s: store %s: %s\n", cmd, path,
                *ctx.msg ? ctx.msg : gj_errstr(rc));
        *exit_code = GJ_EXIT_STORE;
    }
    return rc;
}

int gj_cli_pick_profile(const char *cmd, const char *db_flag, const char *name, gj_profile **out,
                        char *note, size_t note_n)
{
    gj_db *db = NULL;
    gj_ctx ctx = {0};
    int code = GJ_EXIT_OK, rc;
    *out = NULL;
    /* EXISTING, not READONLY: an older store is migrated on first use (a
     * read-only file still opens for reading). */
    rc = gj_cli_open_db(cmd, db_flag, GJ_DB_OPEN_EXISTING, &db, &code);
    if (rc != GJ_OK && rc != GJ_ERR_NOTFOUND) return code;
    if (rc == GJ_ERR_NOTFOUND && db_flag) {
        fprintf(stderr, "gjadvise %s: --db=%s: no such store (run `gjadvise calibrate --db %s` "
                        "to create one, or leave --db out)\n", cmd, db_flag, db_flag);
        return GJ_EXIT_STORE;
    }
    if (name) {
        /* NAME[@VERSION]: a version of a stored profile (0 = newest). */
        char base[64];
        long version = 0;
        const char *at = strrchr(name, '@');
        size_t len = at ? (size_t)(at - name) : strlen(name);
        if (len == 0 || len >= sizeof base ||
            (at && gj_cli_parse_int(at + 1, 1, 2147483647, &version))) {
            gj_db_close(db);
            return gj_cli_bad(cmd, "--profile", name, "allowed NAME or NAME@VERSION (NAME of 1 to 63 "
                              "characters, VERSION >= 1)");
        }
        snprintf(base, sizeof base, "%.*s", (int)len, name);
        rc = db ? gj_db_profile_load(db, base, (int)version, out, &ctx)
                : version > 1 ? GJ_ERR_NOTFOUND : gj_profile_builtin(base, out);
        if (rc == GJ_ERR_NOTFOUND) {
            char allowed[512] = "allowed: a stored profile (gjadvise profiles list) or a built-in:";
            for (int i = 0; i < gj_profile_builtin_count(); i++) {
                size_t l = strlen(allowed);
                snprintf(allowed + l, sizeof allowed - l, " %s", gj_profile_builtin_name(i));
            }
            code = gj_cli_bad(cmd, "--profile", name, allowed);
        } else if (rc != GJ_OK) {
            code = gj_cli_fail(cmd, rc, &ctx, "loading profile");
        } else {
            snprintf(note, note_n, "profile %s v%d (%s), chosen with --profile", name,
                     gj_profile_version(*out), gj_profile_origin(*out));
        }
        gj_db_close(db);
        return code;
    }
    /* No name: the local GPU's newest profile in the store; else a built-in
     * measured on the same GPU model (the tuned one first); else the first
     * built-in. */
    int ngpu = 0, have_dev = 0;
    gj_device dev;
    if (gj_gpu_count(&ngpu, NULL) == GJ_OK && ngpu > 0 && gj_gpu_identify(0, &dev, NULL) == GJ_OK)
        have_dev = 1;
    if (db && have_dev && gj_db_profile_for_device(db, dev.uuid, out, NULL) == GJ_OK) {
        snprintf(note, note_n, "profile %s v%d, the newest for this GPU (%s)", gj_profile_name(*out),
                 gj_profile_version(*out), dev.name);
        gj_db_close(db);
        return GJ_EXIT_OK;
    }
    gj_db_close(db);
    for (int i = 0; have_dev && i < gj_profile_builtin_count(); i++) {
        gj_profile *b = NULL;
        if (gj_profile_builtin(gj_profile_builtin_name(i), &b) != GJ_OK) continue;
        int same = !strcmp(gj_profile_device(b)->name, dev.name);
        int better = same && (!*out || (gj_profile_fit_error(b) >= 0 && gj_profile_fit_error(*out) < 0));
        if (better) {
            gj_profile_free(*out);
            *out = b;
        } else {
            gj_profile_free(b);
        }
    }
    if (*out) {
        snprintf(note, note_n, "profile %s (built-in, measured on an %s%s; `gjadvise calibrate` "
                 "measures this one)", gj_profile_name(*out), dev.name,
                 gj_profile_fit_error(*out) >= 0 ? ", tuned" : "");
        return GJ_EXIT_OK;
    }
    rc = gj_profile_builtin(gj_profile_builtin_name(0), out);
    if (rc != GJ_OK) return gj_cli_fail(cmd, rc, NULL, "loading the built-in profile");
    snprintf(note, note_n, "profile %s (built-in default: %s; run `gjadvise calibrate` on a GPU "
                           "to measure yours)", gj_profile_name(*out),
             have_dev ? "no calibrated profile for this GPU" : "no GPU here");
    return GJ_EXIT_OK;
}

int gj_cli_exec_setup(const char *cmd, const char *db_flag, const char *profile, int no_log,
                      gj_profile **prof, gj_db **db, char *note, size_t note_n)
{
    int n = 0, ex = 0;
    *db = NULL;
    if (gj_gpu_count(&n, NULL) != GJ_OK || n == 0) {
        fprintf(stderr, "gjadvise %s: no CUDA device\n", cmd);
        return GJ_EXIT_NODEVICE;
    }
    /* open (creating) the store first, so --db of a new file works */
    if (!no_log) {
        if (gj_cli_open_db(cmd, db_flag, GJ_DB_OPEN_CREATE, db, &ex) != GJ_OK) *db = NULL;
        if (!*db) fprintf(stderr, "gjadvise %s: note: runs are not logged (store unavailable)\n", cmd);
    }
    return gj_cli_pick_profile(cmd, db_flag, profile, prof, note, note_n);
}

void gj_cli_log_exec(gj_db *db, const gj_profile *p, const gj_workload *w, gj_impl impl,
                     const gj_estimate *est, double ms, const double *phase_ms, int n_phases,
                     int checked, int repeats, const char *tag)
{
    if (!db) return;
    gj_exec_record r;
    gj_device dev;
    gj_ctx ctx = {0};
    memset(&r, 0, sizeof r);
    gj_strlcpy(r.profile, gj_profile_name(p), sizeof r.profile);
    r.profile_version = gj_profile_version(p);
    if (gj_gpu_identify(0, &dev, NULL) == GJ_OK) gj_strlcpy(r.device_uuid, dev.uuid, sizeof r.device_uuid);
    r.w = *w;
    r.impl = impl;
    r.predicted_ms = est->ms;
    r.measured_ms = ms;
    r.n_phases = n_phases;
    for (int i = 0; i < n_phases && i < GJ_MAX_PHASES; i++) {
        r.predicted_phase_ms[i] = i < est->n_phases ? est->phase[i].ms : 0;
        r.measured_phase_ms[i] = phase_ms[i];
    }
    r.checked = checked;
    r.repeats = repeats;
    gj_strlcpy(r.tag, tag ? tag : "", sizeof r.tag);
    if (gj_db_exec_log(db, &r, &ctx) != GJ_OK)
        fprintf(stderr, "gjadvise: note: run not logged: %s\n", ctx.msg);
}

const char *gj_cli_sorted_sides(const gj_workload *w)
{
    if (!w->r_sorted && !w->s_sorted) return NULL;
    return w->r_sorted && w->s_sorted ? "R and S" : w->r_sorted ? "R" : "S";
}
