/* Internal interface of tune/: learning model corrections from logged
 * executions (gjadvise tune) and the train/held-out split that tune and
 * validate share. */
#ifndef GJ_TUNE_TUNE_H
#define GJ_TUNE_TUNE_H

#include "gjadvise.h"

/* 1 if executions of workload w are held out of fitting (used only to check
 * a fit), 0 if they are training data. Deterministic: a hash of the
 * workload's JSON, so every execution of one workload falls on the same side
 * on every machine and in every run, and about half of a grid is held out. */
int gj_holdout(const gj_workload *w);

#endif
