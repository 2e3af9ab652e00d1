/* Internal model helpers shared by model/ and advisor/. */
#ifndef GJ_MODEL_MODEL_H
#define GJ_MODEL_MODEL_H

#include "gjadvise.h"
#include "operators/shapes.h"

/* Generalised harmonic number H(n, z). */
double gj_harmonic(double n, double z);
/* Share of accesses to the `cached` hottest of n Zipf(z) items. */
double gj_hit_fraction(double n, double cached, double z);
/* Inverse Simpson index of Zipf(z) over g groups (g when z = 0). */
double gj_effective_targets(double g, double z);
/* Expected distinct groups among a warp's 32 rows. */
double gj_warp_distinct(double g, double z);
/* Expected distinct items among `draws` independent draws from n items of
 * Zipf(z) popularity (uniform at z = 0). */
double gj_distinct_drawn(double n, double draws, double z);
/* Share of `rows` draws from n Zipf(z) items that a cache keeping the first
 * `slots` distinct items drawn answers. */
double gj_cache_first_seen(double n, double slots, double rows, double z);
/* gj_model_estimate with a learned correction applied (fit NULL or unset:
 * none). */
int gj_model_estimate_fit(gj_impl impl, const gj_workload *w, const gj_hw *hw, const gj_fit *fit,
                          gj_estimate *out, gj_ctx *ctx);
/* 1 if the model weighs the semi-join filter for join w (filter auto, in
 * the range it was measured in) and predicts the faster of with and
 * without (est.filtered says which) */
int gj_join_filter_weighed(const gj_workload *w);
/* The rows the semi-join filter cuts join w's sides to (S's matching rows,
 * R's rows whose keys they hold: model/MODEL.md T-JOIN-FILTER), whether or
 * not it would run; either pointer may be NULL. */
void gj_join_cut_rows(const gj_workload *w, uint64_t *r_rows, uint64_t *s_rows);
/* The implementations of operator op, in enum order; their number in *n. */
const gj_impl *gj_impls_of(gj_op op, int *n);
/* 1 if impl computes every aggregate of w (count-distinct, median need SGB-*). */
int gj_impl_supports_aggs(gj_impl impl, const gj_workload *w);
/* 1 if impl's output is ordered by key without an extra sort. */
int gj_impl_sorts_output(gj_impl impl);
/* bw_part_pair where it was not measured (a profile calibrated before it
 * existed, or derived): CUB's 4/8 pass, the keys read once more for the
 * own pass's histogram. */
static inline double gj_part_pair_default(const gj_hw *h) { return h->bw_part_k4v8 * 24 / 28; }
/* A wide partition pass's time over an 8-bit pass's: the calibrated first
 * passes (bw_part_pair1 / bw_part_wide) where both are measured, else
 * GJ_PART_WIDE_COST (operators/shapes.h). */
static inline double gj_part_wide_cost(const gj_hw *h)
{
    return h->bw_part_wide > 0 && h->bw_part_pair1 > 0 ? h->bw_part_pair1 / h->bw_part_wide : GJ_PART_WIDE_COST;
}

#endif
