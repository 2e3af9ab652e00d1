/* Group-by operators: internal declarations shared by operators/groupby_*.cu,
 * the CPU reference (operators/groupby_ref.c), tests and cli/run_groupby.c.
 * The public entry points (gj_groupby_execute, ...) are in include/gjadvise.h. */
#ifndef GJ_OPERATORS_GROUPBY_H
#define GJ_OPERATORS_GROUPBY_H

#include "gjadvise.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Output element of aggregate a over a payload of (width, type):
 *   SUM: 8 bytes, int64 for integer payloads (wrapping), double for floats
 *   MIN, MAX: the payload's width and type
 *   COUNT, COUNT_DISTINCT: 8-byte int (uint64)
 *   AVG, MEDIAN: 8-byte double (median of an even count: mean of the middle two) */
void gj_groupby_out_type(gj_agg a, int payload_width, gj_dtype payload_type,
                         int *out_width, gj_dtype *out_type);

/* A host-side table for the CPU reference. */
typedef struct gj_htable {
    uint64_t rows;
    int key_width;
    const void *key;
    int n_payloads;
    int payload_width[GJ_MAX_PAYLOADS];
    gj_dtype payload_type[GJ_MAX_PAYLOADS];
    const void *payload[GJ_MAX_PAYLOADS];
} gj_htable;

/* Host-side result: rows sorted by key (unsigned compare). Arrays malloc'd;
 * free with gj_groupby_ref_free. key[] is uint64 (4-byte keys widened);
 * agg[i] holds out_width bytes per row (gj_groupby_out_type). */
typedef struct gj_href {
    uint64_t groups;
    uint64_t *key;
    int n_aggs;
    int width[GJ_MAX_AGGS];
    gj_dtype type[GJ_MAX_AGGS];
    void *agg[GJ_MAX_AGGS];
} gj_href;

/* CPU reference group-by: sort row ids by key (qsort), fold each run.
 * Plain and obviously correct; O(n log n). aggs[i] reads payload i (COUNT
 * reads none). Returns GJ_OK, GJ_ERR_INVALID, GJ_ERR_NOMEM. */
int gj_groupby_ref(const gj_htable *in, int n_aggs, const gj_agg *aggs, gj_href *out,
                   gj_ctx *ctx);
void gj_groupby_ref_free(gj_href *r);

#ifdef __cplusplus
}
#endif
#endif
