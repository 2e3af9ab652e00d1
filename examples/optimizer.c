/*
 * examples/optimizer.c: how a query optimizer asks gjadvise for a GPU join
 * or group-by when its cardinality estimates are uncertain.
 *
 * An optimizer knows a join's inputs only roughly: "the build side has 1 to
 * 4 million rows, and 10% to 60% of probe rows find a partner". Picking the
 * implementation that is fastest at one guess can be badly wrong elsewhere
 * in that range. gj_advise_range evaluates the cost models of paper 000 on a
 * grid over the whole box of possibilities and returns, for every
 * implementation, its predicted time range and its worst-case regret (how
 * much slower than the best implementation it can be anywhere in the box).
 * The optimizer then:
 *   - runs `choice`, the implementation with the least worst-case regret:
 *     the safe pick when it cannot refine its estimates;
 *   - looks at `flips`: when the fastest implementation changes inside the
 *     box, the estimate matters; an adaptive engine may re-plan once the
 *     real cardinality is known (after the build side is materialised);
 *   - compares `choice` with `point_choice` (the fastest at its best guess):
 *     when they differ, the guess alone would have picked a riskier plan;
 *   - uses min_ms / max_ms of the choice as the operator's cost interval in
 *     its own plan enumeration.
 *
 * Everything is plain data; nothing touches a GPU or a file: the default
 * profile is compiled into the library (on a GPU machine, load the
 * calibrated profile instead with gj_db_profile_for_device). The calls are
 * thread-safe: threads planning different queries may share one profile.
 *
 * Build against an installed library (make install PREFIX=/usr/local):
 *     cc -std=c11 optimizer.c $(pkg-config --cflags --libs --static gjadvise) -o optimizer
 * From C++, include gjadvise.h as is (it has extern "C" guards).
 * In this repository `make test` builds and runs it.
 */
#include <gjadvise.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Print one range plan the way an optimizer's debug log might. */
static void report(const char *what, const gj_range_plan *rp)
{
    printf("%s\n", what);
    printf("  sampled %d points (%d uncertain dimensions, %d points each)\n", rp->n_points,
           rp->n_dims, rp->per_dim);
    printf("  %-12s %10s %10s %9s %6s\n", "impl", "min ms", "max ms", "regret", "best@");
    for (int i = 0; i < rp->n; i++) {
        const gj_range_estimate *e = &rp->est[i];
        if (!e->feasible) {
            printf("  %-12s infeasible somewhere: %s\n", gj_impl_name(e->impl), e->why);
            continue;
        }
        printf("  %-12s %10.3f %10.3f %8.1f%% %6d\n", gj_impl_name(e->impl), e->min_ms, e->max_ms,
               100 * e->regret, e->best_points);
    }
    printf("  choice (least worst-case regret): %s, at most %.1f%% slower than the best\n",
           gj_impl_name(rp->choice), 100 * rp->choice_regret);
    if (rp->has_point && rp->point_choice < GJ_IMPL_COUNT)
        printf("  at the point estimate the fastest is %s (%.3f ms)%s\n",
               gj_impl_name(rp->point_choice), rp->point_ms,
               rp->point_choice == rp->choice ? ": the same pick" : ": a riskier pick");
    if (rp->flips)
        printf("  FLIPS: the fastest changes inside the range (%s at the low corner, %s at "
               "other points): the estimate matters; re-plan when the real size is known\n",
               gj_impl_name(rp->flip_from), gj_impl_name(rp->flip_to));
    else
        printf("  no flip: %s is fastest everywhere in the range\n", gj_impl_name(rp->choice));
    printf("\n");
}

int main(void)
{
    gj_profile *prof = NULL;
    gj_ctx *ctx = NULL;
    int rc, code = 1;

    if (gj_ctx_new(&ctx) != GJ_OK) return 1;
    /* The first built-in ("a100-paper"): no store, no GPU needed. */
    rc = gj_profile_builtin(gj_profile_builtin_name(0), &prof);
    if (rc != GJ_OK) {
        fprintf(stderr, "optimizer: loading the built-in profile: %s\n", gj_errstr(rc));
        goto done;
    }
    printf("profile %s\n\n", gj_profile_name(prof));

    /* 1. A join: probe side 2^27 rows, build side known to within [1e6, 4e6]
     *    rows, match ratio within [0.1, 0.6]; best guess 2e6 rows, 0.3. */
    gj_workload_range join;
    memset(&join, 0, sizeof join);
    gj_workload_default(&join.lo, GJ_OP_JOIN);   /* 4-byte keys, 2+2 payloads */
    join.lo.s_rows = 1u << 27;
    join.hi = join.lo;
    join.lo.r_rows = 1000000;
    join.hi.r_rows = 4000000;
    join.lo.match_ratio = 0.1;
    join.hi.match_ratio = 0.6;
    join.mid = join.lo;                          /* the optimizer's best guess */
    join.mid.r_rows = 2000000;
    join.mid.match_ratio = 0.3;
    join.has_mid = 1;

    gj_range_plan rp;
    rc = gj_advise_range(&join, prof, &rp, ctx);
    if (rc != GJ_OK) {
        fprintf(stderr, "optimizer: join: %s\n", gj_ctx_errmsg(ctx));
        goto done;
    }
    report("join: |R| in [1e6, 4e6], |S| = 2^27, match ratio in [0.1, 0.6]", &rp);

    /*    When the join runs, its statistics are known (here the best guess).
     *    The model may run the choice after a semi-join filter that cuts both
     *    sides to their matches first (est.filtered); pinning that into the
     *    workload's hint makes gj_join_exec_w run what was predicted. */
    gj_workload now = join.mid;
    gj_estimate est;
    rc = gj_profile_estimate(rp.choice, &now, prof, &est, ctx);
    if (rc != GJ_OK) {
        fprintf(stderr, "optimizer: join estimate: %s\n", gj_ctx_errmsg(ctx));
        goto done;
    }
    gj_workload_pin_filter(&now, &est);
    printf("at run time (|R| = 2e6, match ratio 0.3): %s, %.3f ms predicted, semi-join filter %s\n"
           "  (gj_join_exec_w(%s, &w, ...) with w.filter = GJ_FILTER_%s runs exactly that)\n\n",
           gj_impl_name(rp.choice), est.ms, gj_filter_name(now.filter), gj_impl_name(rp.choice),
           now.filter == GJ_FILTER_ON ? "ON" : "OFF");

    /* 2. A group-by of 2^28 rows, sum and max, group count anywhere in
     *    [1e3, 1e6]. gj_workload_range_around builds such a box from a point
     *    estimate and an error factor: here 31623 groups, off by up to 31.6x
     *    either way. Written out by hand instead: */
    gj_workload_range gb;
    memset(&gb, 0, sizeof gb);
    gj_workload_default(&gb.lo, GJ_OP_GROUPBY);
    gb.lo.n_aggs = 2;
    gb.lo.aggs[0] = GJ_AGG_SUM;
    gb.lo.aggs[1] = GJ_AGG_MAX;
    gb.hi = gb.lo;
    gb.lo.groups = 1000;
    gb.hi.groups = 1000000;
    rc = gj_advise_range(&gb, prof, &rp, ctx);
    if (rc != GJ_OK) {
        fprintf(stderr, "optimizer: group-by: %s\n", gj_ctx_errmsg(ctx));
        goto done;
    }
    report("group-by: 2^28 rows, sum,max, groups in [1e3, 1e6]", &rp);

    /* 3. The same question as JSON, for an optimizer written in another
     *    language (free the string with gj_free). */
    char *json = NULL;
    if (gj_range_plan_to_json(&rp, &json) != GJ_OK) goto done;
    printf("as JSON (%zu bytes): %.160s...\n", strlen(json), json);
    gj_free(json);

    /* 4. Bad input is refused with a message, never half a result. */
    gb.lo.groups = 2000000; /* lo > hi */
    rc = gj_advise_range(&gb, prof, &rp, ctx);
    printf("\nrefused as expected (%s): %s\n", gj_errstr(rc), gj_ctx_errmsg(ctx));
    code = rc == GJ_ERR_INVALID ? 0 : 1;
done:
    gj_profile_free(prof);
    gj_ctx_free(ctx);
    return code;
}
