/* Timing an operator the one way run, bench and validate all time it. */
#ifndef GJ_OPERATORS_TIMING_H
#define GJ_OPERATORS_TIMING_H

#include "gjadvise.h"

/* Run implementation impl `repeat` times on device inputs (a = R and b = S
 * for a join, a the relation and w the aggregates for a group-by; outputs
 * freed at once) and return in *med the median total and phase times (CUDA
 * events, gj_timing) and the largest peak. The caller warms up first.
 * Returns GJ_OK or the operator's error (GJ_ERR_NOMEM for repeat's buffers). */
int gj_time_runs(gj_impl impl, const gj_workload *w, const gj_dtable *a, const gj_dtable *b,
                 int repeat, gj_timing *med, gj_ctx *ctx);

#endif
