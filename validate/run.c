/* The validation runner: for every grid point not yet in the store, generate
 * the inputs on the GPU once, run every feasible implementation (one
 * warm-up, then repeated runs timed with CUDA events by the operators), and
 * log the point's executions in one transaction. */
#include "validate/validate.h"
#include "common/internal.h"
#include "operators/timing.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 1 if the workload JSON j is one of list[0..n). */
static int json_in(const char *j, char *const *list, int n)
{
    for (int i = 0; i < n; i++)
        if (list[i] && !strcmp(list[i], j)) return 1;
    return 0;
}

/* The workloads of recs[0..n) whose tag is `tag` (NULL: every record), as
 * JSON, into *out (free with free_jsons); their number in *m. */
static int workload_jsons(const gj_exec_record *recs, int n, const char *tag, char ***out, int *m)
{
    char **l = calloc((size_t)n + 1, sizeof *l);
    *out = l;
    *m = 0;
    if (!l) return GJ_ERR_NOMEM;
    for (int i = 0; i < n; i++)
        if (!tag || !strcmp(recs[i].tag, tag))
            if (gj_workload_to_json(&recs[i].w, &l[(*m)++]) != GJ_OK) return GJ_ERR_NOMEM;
    return GJ_OK;
}

static void free_jsons(char **l, int m)
{
    for (int i = 0; l && i < m; i++) gj_free(l[i]);
    free(l);
}

/* 1 if the store already holds point p: its workload among `done`. */
static int point_done(const gj_vpoint *p, char *const *done, int n, int *err)
{
    char *pj = NULL;
    if (gj_workload_to_json(&p->w, &pj) != GJ_OK) return *err = 1, 0;
    int r = json_in(pj, done, n);
    gj_free(pj);
    return r;
}

int gj_validate_point_done(const gj_vpoint *p, const gj_exec_record *recs, int n)
{
    char **l = NULL;
    int m = 0, err = 0, done = 0;
    if (!p || (!recs && n > 0)) return 0;
    if (workload_jsons(recs, n, NULL, &l, &m) == GJ_OK) done = point_done(p, l, m, &err);
    free_jsons(l, m);
    return done && !err;
}

static void add_skip(gj_vrun *run, const gj_grid *g, int point, gj_impl impl, const char *why)
{
    if (run->n_skips < (int)(sizeof run->skips / sizeof run->skips[0])) {
        char lab[96], full[1024];
        gj_vpoint_label(g, point, lab, sizeof lab);
        snprintf(full, sizeof full, "%s: %s: %s", lab, gj_impl_name(impl), why);
        gj_strlcpy(run->skips[run->n_skips], full, sizeof run->skips[0]);
    }
    run->n_skips++;
}

typedef struct vctx {
    const gj_grid *g;
    const gj_profile *p;
    const gj_validate_opts *o;
    gj_vrun *run;
    const char *uuid;
    double t0;
    int done;
} vctx;

static void report(vctx *v, int point, const char *impl, const char *line)
{
    if (!v->o->progress) return;
    gj_vprogress pr;
    pr.done = v->done;
    pr.total = v->g->n_points;
    pr.point = point;
    pr.impl = impl;
    pr.elapsed_s = now_s() - v->t0;
    int todo = v->g->n_points - v->done;
    pr.left_s = v->run->n_measured > 0 ? pr.elapsed_s / v->run->n_measured * todo : -1;
    pr.line = line;
    v->o->progress(v->o->user, &pr);
}

static int stop_now(vctx *v)
{
    return v->o->should_stop && v->o->should_stop(v->o->user);
}

/* Measure one point into recs[*nrec]. Returns GJ_OK (possibly with nothing
 * measured), a fatal error, or GJ_OK with v->run->interrupted set. */
static int measure_point(vctx *v, int pi, gj_exec_record *recs, int *nrec, char *line, size_t line_n,
                         gj_ctx *ctx)
{
    const gj_vpoint *pt = &v->g->points[pi];
    const gj_workload *w = &pt->w;
    int rc = GJ_OK, repeat = v->o->repeat > 0 ? v->o->repeat : 7;
    uint64_t seed = v->o->seed ? v->o->seed : 42;
    gj_impl lo = w->op == GJ_OP_JOIN ? GJ_IMPL_PHJ_UR : GJ_IMPL_HGB;
    gj_impl hi = w->op == GJ_OP_JOIN ? GJ_IMPL_NPHJ : GJ_IMPL_HASH_GLOBAL;
    int runnable[GJ_IMPL_COUNT] = {0}, nrun = 0;
    gj_estimate est[GJ_IMPL_COUNT];
    gj_dtable a, b;
    size_t ll = 0;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    *nrec = 0;
    gj_vpoint_label(v->g, pi, line, line_n);
    ll = strlen(line);
    for (int i = lo; i <= (int)hi; i++) {
        gj_ctx c = {0};
        memset(&est[i], 0, sizeof est[i]);
        if (gj_profile_estimate((gj_impl)i, w, v->p, &est[i], &c) != GJ_OK) {
            add_skip(v->run, v->g, pi, (gj_impl)i, c.msg);
            continue;
        }
        if (!est[i].feasible) {
            char why[160];
            snprintf(why, sizeof why, "model says infeasible: %s", est[i].why);
            add_skip(v->run, v->g, pi, (gj_impl)i, why);
            continue;
        }
        int sup = 1;
        for (int k = 0; w->op == GJ_OP_GROUPBY && k < w->n_aggs; k++) sup &= gj_groupby_supports((gj_impl)i, w->aggs[k]);
        if (!sup) {
            add_skip(v->run, v->g, pi, (gj_impl)i, "does not compute one of the aggregates");
            continue;
        }
        runnable[i] = 1;
        nrun++;
    }
    if (!nrun) goto done;
    {
        gj_ctx c = {0};
        int grc = w->op == GJ_OP_JOIN ? gj_join_generate(w, seed, 0, &a, &b, &c)
                                      : gj_groupby_generate(w, seed, 0, &a, &c);
        if (grc == GJ_ERR_INFEASIBLE || grc == GJ_ERR_UNSUPPORTED) {
            for (int i = lo; i <= (int)hi; i++)
                if (runnable[i]) add_skip(v->run, v->g, pi, (gj_impl)i, c.msg);
            goto done;
        }
        if (grc) { rc = gj_seterr(ctx, grc, "generating inputs of %s: %s", line, c.msg); goto done; }
    }
    for (int i = lo; i <= (int)hi; i++) {
        if (!runnable[i]) continue;
        gj_impl impl = (gj_impl)i;
        gj_timing t;
        gj_ctx c = {0};
        memset(&t, 0, sizeof t);
        if (stop_now(v)) { v->run->interrupted = 1; goto done; }
        report(v, pi, gj_impl_name(impl), NULL);
        gj_workload hint = *w;
        gj_workload_pin_filter(&hint, &est[i]); /* run what the model predicted */
        int erc = gj_time_runs(impl, &hint, &a, &b, 1, &t, &c);   /* warm-up */
        if (erc == GJ_OK) erc = gj_time_runs(impl, &hint, &a, &b, repeat, &t, &c);
        int nph = t.n_phases;
        if (erc == GJ_ERR_INFEASIBLE || erc == GJ_ERR_UNSUPPORTED) {
            char why[700];
            snprintf(why, sizeof why, "%s: %s", gj_errstr(erc), c.msg);
            add_skip(v->run, v->g, pi, impl, why);
            continue;
        }
        if (erc) { rc = gj_seterr(ctx, erc, "%s: %s: %s", line, gj_impl_name(impl), c.msg); goto done; }
        gj_exec_record *r = &recs[(*nrec)++];
        memset(r, 0, sizeof *r);
        gj_strlcpy(r->profile, gj_profile_name(v->p), sizeof r->profile);
        r->profile_version = gj_profile_version(v->p);
        gj_strlcpy(r->device_uuid, v->uuid, sizeof r->device_uuid);
        r->w = *w;
        r->impl = impl;
        r->predicted_ms = est[i].ms;
        r->measured_ms = t.total_ms;
        r->n_phases = nph < 0 ? 0 : nph > GJ_MAX_PHASES ? GJ_MAX_PHASES : nph;
        for (int ph = 0; ph < r->n_phases; ph++) {
            r->predicted_phase_ms[ph] = ph < est[i].n_phases ? est[i].phase[ph].ms : 0;
            r->measured_phase_ms[ph] = t.ms[ph];
        }
        r->checked = -1;
        r->repeats = repeat;
        gj_strlcpy(r->tag, v->g->tag, sizeof r->tag);
        if (ll + 40 < line_n) {
            snprintf(line + ll, line_n - ll, "%s %s %.3f", *nrec == 1 ? ":" : ",", gj_impl_name(impl), r->measured_ms);
            ll = strlen(line);
        }
    }
done:
    gj_dtable_free(&a);
    gj_dtable_free(&b);
    /* give the join's stream-ordered pool back, so the next point's inputs fit */
    cudaMemPool_t pool;
    if (cudaDeviceSynchronize() == cudaSuccess && cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess)
        cudaMemPoolTrimTo(pool, 0);
    (void)cudaGetLastError();
    return rc;
}

int gj_validate_run(const gj_grid *g, const gj_profile *p, gj_db *db, const gj_validate_opts *opts,
                    gj_vrun *run, gj_ctx *ctx)
{
    gj_exec_record *all = NULL, recs[GJ_IMPL_COUNT];
    char **done_json = NULL, **mine = NULL; /* workloads measured: before, now */
    int n_all = 0, n_mine = 0, n_done = 0, rc = GJ_OK, ngpu = 0;
    gj_device dev;
    gj_validate_opts o0 = {0};
    vctx v;
    char line[512];
    if (!g || !p || !db || !run) return gj_seterr(ctx, GJ_ERR_INVALID, "validate: grid, profile, store or run is NULL");
    memset(run, 0, sizeof *run);
    run->n_points = g->n_points;
    if (!opts) opts = &o0;
    if (opts->repeat < 0 || opts->repeat > 1000)
        return gj_seterr(ctx, GJ_ERR_INVALID, "validate: repeat=%d: allowed 1..1000 (0 = 7)", opts->repeat);
    if ((rc = gj_gpu_count(&ngpu, ctx)) != GJ_OK) return rc;
    if (ngpu < 1) return gj_seterr(ctx, GJ_ERR_NODEVICE, "validate: no CUDA device");
    if ((rc = gj_gpu_identify(0, &dev, ctx)) != GJ_OK) return rc;
    if ((rc = gj_db_exec_list(db, dev.uuid, &all, &n_all, ctx)) != GJ_OK) return rc;
    /* every workload of this grid already in the log, serialised once */
    done_json = calloc((size_t)g->n_points + 1, sizeof *done_json);
    if (workload_jsons(all, n_all, g->tag, &mine, &n_mine) != GJ_OK || !done_json) {
        rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory");
        goto done;
    }
    memset(&v, 0, sizeof v);
    v.g = g;
    v.p = p;
    v.o = opts;
    v.run = run;
    v.uuid = dev.uuid;
    v.t0 = now_s();
    int err = 0;
    for (int i = 0; i < g->n_points; i++) run->n_resumed += point_done(&g->points[i], mine, n_mine, &err);
    if (err) { rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory"); goto done; }
    v.done = run->n_resumed;
    for (int i = 0; i < g->n_points; i++) {
        char *pj = NULL;
        if (gj_workload_to_json(&g->points[i].w, &pj) != GJ_OK) { rc = gj_seterr(ctx, GJ_ERR_NOMEM, "out of memory"); goto done; }
        if (json_in(pj, mine, n_mine)) { gj_free(pj); continue; }
        int dup = json_in(pj, done_json, n_done);
        if (dup) {   /* the same workload in an earlier sweep: measured once */
            gj_free(pj);
            v.done++;
            continue;
        }
        if (stop_now(&v)) { gj_free(pj); run->interrupted = 1; break; }
        int nrec = 0;
        rc = measure_point(&v, i, recs, &nrec, line, sizeof line, ctx);
        if (rc || run->interrupted) { gj_free(pj); break; }
        if (nrec > 0 && (rc = gj_db_exec_log_many(db, recs, nrec, ctx)) != GJ_OK) { gj_free(pj); break; }
        done_json[n_done++] = pj;
        run->n_measured++;
        run->n_execs += nrec;
        v.done++;
        if (!nrec) {
            size_t l = strlen(line);
            snprintf(line + l, sizeof line - l, ": nothing runnable");
        }
        report(&v, -1, NULL, line);
    }
done:
    free_jsons(done_json, n_done);
    free_jsons(mine, n_mine);
    gj_free(all);
    return rc;
}
