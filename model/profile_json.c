/* Profile <-> JSON (the format of `gjadvise profiles export/import` and of
 * model/builtin_json.c). Writing with gj_sbuf, every double as %.17g so a
 * round trip is exact; reading through SQLite's JSON functions (db/json.c),
 * strictly: unknown keys, wrong types, negative or non-finite values and bad
 * names are errors that name the field. */
#include "db/json.h"
#include "model/profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FORMAT_NAME "gjadvise-profile"
#define FORMAT_VERSION 1

int gj_profile_to_json(const gj_profile *p, char **json)
{
    gj_sbuf b = {0};
    if (!json) return GJ_ERR_INVALID;
    *json = NULL;
    if (!p) return GJ_ERR_INVALID;
    const gj_device *d = &p->dev;
    gj_sbuf_printf(&b, "{\n  \"format\": \"" FORMAT_NAME "\",\n  \"format_version\": %d,\n"
                       "  \"name\": ", FORMAT_VERSION);
    gj_sbuf_json_str(&b, p->name);
    gj_sbuf_printf(&b, ",\n  \"version\": %d,\n  \"origin\": ", p->version);
    gj_sbuf_json_str(&b, p->origin);
    gj_sbuf_printf(&b, ",\n  \"created\": ");
    gj_sbuf_json_str(&b, p->created);
    gj_sbuf_printf(&b, ",\n  \"notes\": ");
    gj_sbuf_json_str(&b, p->notes);
    gj_sbuf_printf(&b, ",\n  \"fit_error\": ");
    if (p->fit_error >= 0) gj_sbuf_json_num(&b, p->fit_error);
    else gj_sbuf_printf(&b, "null");
    gj_sbuf_printf(&b, ",\n  \"device\": {\n    \"name\": ");
    gj_sbuf_json_str(&b, d->name);
    gj_sbuf_printf(&b, ",\n    \"uuid\": ");
    gj_sbuf_json_str(&b, d->uuid);
    gj_sbuf_printf(&b,
                   ",\n    \"cc_major\": %d,\n    \"cc_minor\": %d,\n    \"sm_count\": %d,\n"
                   "    \"mem_bytes\": %llu,\n    \"l2_bytes\": %llu,\n"
                   "    \"smem_per_block\": %llu,\n    \"smem_per_sm\": %llu,\n"
                   "    \"clock_mhz\": %d,\n    \"mem_clock_mhz\": %d,\n    \"mem_bus_bits\": %d,\n"
                   "    \"driver_version\": %d,\n    \"runtime_version\": %d\n  },\n"
                   "  \"params\": {",
                   d->cc_major, d->cc_minor, d->sm_count, (unsigned long long)d->mem_bytes,
                   (unsigned long long)d->l2_bytes, (unsigned long long)d->smem_per_block,
                   (unsigned long long)d->smem_per_sm, d->clock_mhz, d->mem_clock_mhz,
                   d->mem_bus_bits, d->driver_version, d->runtime_version);
    int first = 1;
    for (int i = 0; i < gj_param_count(); i++) {
        const gj_param_info *pi = gj_param_at(i);
        double v = *gj_param_ptr((gj_hw *)&p->hw, i);
        if (p->src[i] == GJ_SRC_UNSET && v == 0 && p->spread[i] == 0) continue;
        gj_sbuf_printf(&b, "%s\n    \"%s\": {\"value\": ", first ? "" : ",", pi->key);
        gj_sbuf_json_num(&b, v);
        gj_sbuf_printf(&b, ", \"spread\": ");
        gj_sbuf_json_num(&b, p->spread[i]);
        gj_sbuf_printf(&b, ", \"unit\": \"%s\", \"source\": \"%s\"}", pi->unit,
                       gj_source_name(p->src[i]));
        first = 0;
    }
    gj_sbuf_printf(&b, "%s}", first ? "" : "\n  ");
    /* Learned corrections (gjadvise tune), only when there are some. */
    first = 1;
    for (int i = 0; i < GJ_IMPL_COUNT; i++) {
        const gj_fit *f = &p->fit[i];
        if (!f->set) continue;
        gj_sbuf_printf(&b, "%s\n    \"%s\": {", first ? ",\n  \"fits\": {" : ",",
                       gj_impl_name((gj_impl)i));
        for (int k = 0; k < GJ_TERMS; k++) {
            gj_sbuf_printf(&b, "%s\"%s\": ", k ? ", " : "", gj_term_name((gj_term)k));
            gj_sbuf_json_num(&b, f->coef[k]);
        }
        gj_sbuf_printf(&b, ", \"intercept_ms\": ");
        gj_sbuf_json_num(&b, f->intercept_ms);
        gj_sbuf_printf(&b, ", \"n_train\": %d, \"err_train\": ", f->n_train);
        gj_sbuf_json_num(&b, f->err_train);
        gj_sbuf_printf(&b, ", \"err_holdout\": ");
        gj_sbuf_json_num(&b, f->err_holdout);
        gj_sbuf_printf(&b, "}");
        first = 0;
    }
    gj_sbuf_printf(&b, "%s\n}\n", first ? "" : "\n  }");
    return gj_sbuf_take(&b, json);
}

/* Top-level keys, device keys and parameter-entry keys. */
enum { T_FORMAT, T_FORMAT_VERSION, T_NAME, T_VERSION, T_ORIGIN, T_CREATED, T_NOTES, T_FIT_ERROR,
       T_DEVICE, T_PARAMS, T_FITS, T_N };
static const char *tkeys[T_N] = {"format", "format_version", "name", "version", "origin",
                                 "created", "notes", "fit_error", "device", "params", "fits"};
/* Fields of one implementation's correction: the term kinds, then these. */
enum { F_INTERCEPT = GJ_TERMS, F_N_TRAIN, F_ERR_TRAIN, F_ERR_HOLDOUT, F_N };
static const char *fkeys_extra[] = {"intercept_ms", "n_train", "err_train", "err_holdout"};
enum { D_NAME, D_UUID, D_CC_MAJOR, D_CC_MINOR, D_SM_COUNT, D_MEM_BYTES, D_L2_BYTES,
       D_SMEM_PER_BLOCK, D_SMEM_PER_SM, D_CLOCK_MHZ, D_MEM_CLOCK_MHZ, D_MEM_BUS_BITS,
       D_DRIVER_VERSION, D_RUNTIME_VERSION, D_N };
static const char *dkeys[D_N] = {"name", "uuid", "cc_major", "cc_minor", "sm_count",
                                 "mem_bytes", "l2_bytes", "smem_per_block", "smem_per_sm",
                                 "clock_mhz", "mem_clock_mhz", "mem_bus_bits", "driver_version",
                                 "runtime_version"};
enum { E_VALUE, E_SPREAD, E_UNIT, E_SOURCE, E_N };
static const char *ekeys[E_N] = {"value", "spread", "unit", "source"};

static const char *origins[] = {"builtin", "calibrate", "tune", "import"};

typedef struct pparse {
    gj_profile p;                     /* parsed values (name checked later)  */
    unsigned seen, dseen;             /* bits of T_* and D_*                 */
    unsigned eseen[GJ_MAX_PARAMS];    /* bits of E_* per parameter           */
    int64_t root, device, params;     /* json_tree ids of the containers     */
    int64_t entry[GJ_MAX_PARAMS];     /* id of each parameter's object       */
    int64_t fits, fit_entry[GJ_IMPL_COUNT];  /* "fits" and each impl's object */
    unsigned fseen[GJ_IMPL_COUNT];    /* bits of the fields seen per impl    */
    int64_t format_version;
} pparse;

static int find_key(const char *key, const char *const *keys, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(key, keys[i])) return i;
    return -1;
}

static int mark(unsigned *seen, int bit, const gj_json_node *n, gj_ctx *ctx)
{
    if (*seen & (1u << bit))
        return gj_seterr(ctx, GJ_ERR_PARSE, "%s: key appears twice", n->path);
    *seen |= 1u << bit;
    return GJ_OK;
}

static int want_object(const gj_json_node *n, gj_ctx *ctx)
{
    if (strcmp(n->type, "object") != 0)
        return gj_seterr(ctx, GJ_ERR_PARSE, "%s: is %s, expected an object", n->path, n->type);
    return GJ_OK;
}

static int dev_int(const gj_json_node *n, int *out, gj_ctx *ctx)
{
    int64_t v;
    int rc = gj_json_int(n, 0, 2147483647, &v, ctx);
    if (rc == GJ_OK) *out = (int)v;
    return rc;
}

static int top_field(pparse *s, const gj_json_node *n, gj_ctx *ctx)
{
    int f = find_key(n->key, tkeys, T_N), rc;
    int64_t v;
    char buf[32];
    if (f < 0)
        return gj_seterr(ctx, GJ_ERR_PARSE, "profile: unknown key \"%s\"; allowed format, "
                         "format_version, name, version, origin, created, notes, fit_error, "
                         "device, params, fits", n->key);
    if ((rc = mark(&s->seen, f, n, ctx)) != GJ_OK) return rc;
    switch (f) {
    case T_FORMAT:
        if ((rc = gj_json_str(n, buf, sizeof buf, ctx)) != GJ_OK) return rc;
        if (strcmp(buf, FORMAT_NAME) != 0)
            return gj_seterr(ctx, GJ_ERR_PARSE, "%s=\"%s\": expected \"" FORMAT_NAME "\"",
                             n->path, buf);
        return GJ_OK;
    case T_FORMAT_VERSION:
        if ((rc = gj_json_int(n, 1, 1000000, &s->format_version, ctx)) != GJ_OK) return rc;
        if (s->format_version != FORMAT_VERSION)
            return gj_seterr(ctx, GJ_ERR_PARSE, "%s=%lld: this gjadvise reads format version %d",
                             n->path, (long long)s->format_version, FORMAT_VERSION);
        return GJ_OK;
    case T_NAME:
        if ((rc = gj_json_str(n, s->p.name, sizeof s->p.name, ctx)) != GJ_OK) return rc;
        if (!gj_profile_name_ok(s->p.name))
            return gj_seterr(ctx, GJ_ERR_INVALID, "%s=\"%s\": allowed 1 to 63 characters of "
                             "[A-Za-z0-9._-]", n->path, s->p.name);
        return GJ_OK;
    case T_VERSION:
        if ((rc = gj_json_int(n, 1, 2147483647, &v, ctx)) != GJ_OK) return rc;
        s->p.version = (int)v;
        return GJ_OK;
    case T_ORIGIN:
        if ((rc = gj_json_str(n, s->p.origin, sizeof s->p.origin, ctx)) != GJ_OK) return rc;
        for (size_t i = 0; i < sizeof origins / sizeof origins[0]; i++)
            if (!strcmp(s->p.origin, origins[i])) return GJ_OK;
        return gj_seterr(ctx, GJ_ERR_PARSE, "%s=\"%s\": allowed builtin, calibrate, tune, import",
                         n->path, s->p.origin);
    case T_CREATED: return gj_json_str(n, s->p.created, sizeof s->p.created, ctx);
    case T_NOTES: return gj_json_str(n, s->p.notes, sizeof s->p.notes, ctx);
    case T_FIT_ERROR:
        if (!strcmp(n->type, "null")) {
            s->p.fit_error = -1;
            return GJ_OK;
        }
        return gj_json_num(n, &s->p.fit_error, ctx);
    case T_DEVICE:
        s->device = n->id;
        return want_object(n, ctx);
    case T_FITS:
        s->fits = n->id;
        return want_object(n, ctx);
    default:
        s->params = n->id;
        return want_object(n, ctx);
    }
}

static int device_field(pparse *s, const gj_json_node *n, gj_ctx *ctx)
{
    gj_device *d = &s->p.dev;
    int f = n->key ? find_key(n->key, dkeys, D_N) : -1, rc;
    if (f < 0)
        return gj_seterr(ctx, GJ_ERR_PARSE, "device: unknown key \"%s\"", n->key ? n->key : "?");
    if ((rc = mark(&s->dseen, f, n, ctx)) != GJ_OK) return rc;
    switch (f) {
    case D_NAME: return gj_json_str(n, d->name, sizeof d->name, ctx);
    case D_UUID: return gj_json_str(n, d->uuid, sizeof d->uuid, ctx);
    case D_CC_MAJOR: return dev_int(n, &d->cc_major, ctx);
    case D_CC_MINOR: return dev_int(n, &d->cc_minor, ctx);
    case D_SM_COUNT: return dev_int(n, &d->sm_count, ctx);
    case D_MEM_BYTES: return gj_json_u64(n, &d->mem_bytes, ctx);
    case D_L2_BYTES: return gj_json_u64(n, &d->l2_bytes, ctx);
    case D_SMEM_PER_BLOCK: return gj_json_u64(n, &d->smem_per_block, ctx);
    case D_SMEM_PER_SM: return gj_json_u64(n, &d->smem_per_sm, ctx);
    case D_CLOCK_MHZ: return dev_int(n, &d->clock_mhz, ctx);
    case D_MEM_CLOCK_MHZ: return dev_int(n, &d->mem_clock_mhz, ctx);
    case D_MEM_BUS_BITS: return dev_int(n, &d->mem_bus_bits, ctx);
    case D_DRIVER_VERSION: return dev_int(n, &d->driver_version, ctx);
    default: return dev_int(n, &d->runtime_version, ctx);
    }
}

static int entry_field(pparse *s, int i, const gj_json_node *n, gj_ctx *ctx)
{
    const gj_param_info *pi = gj_param_at(i);
    int f = n->key ? find_key(n->key, ekeys, E_N) : -1, rc;
    char buf[32];
    if (f < 0)
        return gj_seterr(ctx, GJ_ERR_PARSE, "params.%s: unknown key \"%s\"; allowed value, "
                         "spread, unit, source", pi->key, n->key ? n->key : "?");
    if ((rc = mark(&s->eseen[i], f, n, ctx)) != GJ_OK) return rc;
    switch (f) {
    case E_VALUE: return gj_json_num(n, gj_param_ptr(&s->p.hw, i), ctx);
    case E_SPREAD: return gj_json_num(n, &s->p.spread[i], ctx);
    case E_UNIT:
        if ((rc = gj_json_str(n, buf, sizeof buf, ctx)) != GJ_OK) return rc;
        if (strcmp(buf, pi->unit) != 0)
            return gj_seterr(ctx, GJ_ERR_PARSE, "%s=\"%s\": parameter %s is in %s", n->path, buf,
                             pi->key, pi->unit);
        return GJ_OK;
    default:
        if ((rc = gj_json_str(n, buf, sizeof buf, ctx)) != GJ_OK) return rc;
        for (int k = GJ_SRC_UNSET; k <= GJ_SRC_TUNED; k++)
            if (!strcmp(buf, gj_source_name((gj_source)k))) {
                s->p.src[i] = (gj_source)k;
                return GJ_OK;
            }
        return gj_seterr(ctx, GJ_ERR_PARSE, "%s=\"%s\": allowed unset, paper, derived, assumed, "
                         "measured, tuned", n->path, buf);
    }
}

static int fit_field(pparse *s, int im, const gj_json_node *n, gj_ctx *ctx)
{
    gj_fit *f = &s->p.fit[im];
    int k = -1;
    gj_term t;
    if (n->key && gj_term_parse(n->key, &t) == GJ_OK) k = (int)t;
    for (int j = 0; k < 0 && n->key && j < F_N - GJ_TERMS; j++)
        if (!strcmp(n->key, fkeys_extra[j])) k = GJ_TERMS + j;
    if (k < 0)
        return gj_seterr(ctx, GJ_ERR_PARSE, "fits.%s: unknown key \"%s\"; allowed seq, partition, "
                         "sort, gather, hash, atomic, fixed, intercept_ms, n_train, err_train, "
                         "err_holdout", gj_impl_name((gj_impl)im), n->key ? n->key : "?");
    int rc = mark(&s->fseen[im], k, n, ctx);
    if (rc != GJ_OK) return rc;
    if (k == F_N_TRAIN) {
        int64_t v;
        if ((rc = gj_json_int(n, 0, 2147483647, &v, ctx)) == GJ_OK) f->n_train = (int)v;
        return rc;
    }
    double *dst = k < GJ_TERMS ? &f->coef[k] : k == F_INTERCEPT ? &f->intercept_ms
                  : k == F_ERR_TRAIN ? &f->err_train : &f->err_holdout;
    return gj_json_num(n, dst, ctx);
}

static int pcb(void *ud, const gj_json_node *n, gj_ctx *ctx)
{
    pparse *s = ud;
    if (n->parent < 0) {
        s->root = n->id;
        return GJ_OK;
    }
    if (n->parent == s->root) return top_field(s, n, ctx);
    if (n->parent == s->device) return device_field(s, n, ctx);
    if (n->parent == s->params) {
        int i;
        if (!n->key || !gj_param_find(n->key, &i))
            return gj_seterr(ctx, GJ_ERR_PARSE, "params: unknown parameter \"%s\" (gjadvise "
                             "profiles show lists them)", n->key ? n->key : "?");
        if (s->entry[i] >= 0)
            return gj_seterr(ctx, GJ_ERR_PARSE, "%s: parameter appears twice", n->path);
        s->entry[i] = n->id;
        s->p.src[i] = GJ_SRC_ASSUMED;   /* unless "source" says otherwise */
        return want_object(n, ctx);
    }
    if (n->parent == s->fits) {
        gj_impl im;
        if (!n->key || gj_impl_parse(n->key, &im) != GJ_OK)
            return gj_seterr(ctx, GJ_ERR_PARSE, "fits: unknown implementation \"%s\"",
                             n->key ? n->key : "?");
        if (s->fit_entry[im] >= 0)
            return gj_seterr(ctx, GJ_ERR_PARSE, "%s: implementation appears twice", n->path);
        s->fit_entry[im] = n->id;
        return want_object(n, ctx);
    }
    for (int i = 0; i < GJ_IMPL_COUNT; i++)
        if (s->fit_entry[i] >= 0 && s->fit_entry[i] == n->parent) return fit_field(s, i, n, ctx);
    for (int i = 0; i < gj_param_count(); i++)
        if (s->entry[i] == n->parent) return entry_field(s, i, n, ctx);
    return gj_seterr(ctx, GJ_ERR_PARSE, "%s: unexpected", n->path);   /* not reached */
}

int gj_profile_from_json(const char *json, gj_profile **out, gj_ctx *ctx)
{
    pparse *s = NULL;
    int rc;
    if (out) *out = NULL;
    if (!out || !json) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "profile JSON or out is NULL");
        goto done;
    }
    if (!(s = calloc(1, sizeof *s))) {
        rc = gj_seterr(ctx, GJ_ERR_NOMEM, "profile JSON: out of memory");
        goto done;
    }
    s->root = s->device = s->params = s->fits = -1;
    for (int i = 0; i < GJ_MAX_PARAMS; i++) s->entry[i] = -1;
    for (int i = 0; i < GJ_IMPL_COUNT; i++) s->fit_entry[i] = -1;
    s->p.version = 1;
    s->p.fit_error = -1;
    gj_strlcpy(s->p.origin, "import", sizeof s->p.origin);
    if ((rc = gj_json_walk(NULL, json, "object", pcb, s, ctx)) != GJ_OK) goto done;
    static const int required[] = {T_FORMAT, T_FORMAT_VERSION, T_NAME};
    for (size_t k = 0; k < sizeof required / sizeof required[0]; k++)
        if (!(s->seen & (1u << required[k]))) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "profile: key \"%s\" missing", tkeys[required[k]]);
            goto done;
        }
    for (int i = 0; i < gj_param_count(); i++)
        if (s->entry[i] >= 0 && !(s->eseen[i] & (1u << E_VALUE))) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "params.%s: \"value\" missing", gj_param_at(i)->key);
            goto done;
        }
    for (int i = 0; i < GJ_IMPL_COUNT; i++) {
        if (s->fit_entry[i] < 0) continue;
        gj_fit f = s->p.fit[i];
        memset(&s->p.fit[i], 0, sizeof s->p.fit[i]);
        if (s->fseen[i] != (1u << F_N) - 1) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "fits.%s: needs all of seq, partition, sort, gather, "
                           "hash, atomic, fixed, intercept_ms, n_train, err_train, err_holdout",
                           gj_impl_name((gj_impl)i));
            goto done;
        }
        if (gj_profile_set_fit(&s->p, (gj_impl)i, &f) != GJ_OK) {
            rc = gj_seterr(ctx, GJ_ERR_INVALID, "fits.%s: coefficients and intercept must be "
                           "finite and >= 0", gj_impl_name((gj_impl)i));
            goto done;
        }
    }
    if ((rc = gj_profile_new(s->p.name, out)) != GJ_OK) {
        rc = gj_seterr(ctx, rc, "profile: cannot create \"%s\"", s->p.name);
        goto done;
    }
    **out = s->p;
done:
    free(s);
    return rc;
}
