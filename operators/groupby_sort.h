/* CUB wrappers for the group-by operators (operators/groupby_sort.cu).
 * C++ only; temporary storage comes from the run's arena; nothing
 * synchronises. Return GJ_OK, GJ_ERR_CUDA, GJ_ERR_INFEASIBLE (out of device
 * memory), GJ_ERR_UNSUPPORTED (n >= 2^31). */
#ifndef GJ_OPERATORS_GROUPBY_SORT_H
#define GJ_OPERATORS_GROUPBY_SORT_H

#include "operators/common.cuh"

/* Stable LSD radix sort of (key, value) pairs on key bits [begin_bit, end_bit);
 * kw, vw in {4, 8}; raw bit patterns. */
int gjgb_sort_pairs(const void *kin, void *kout, int kw, const void *vin, void *vout, int vw,
                    uint64_t n, int begin_bit, int end_bit, gj_arena *ar, cudaStream_t st,
                    gj_ctx *ctx);
int gjgb_inclusive_sum(const uint32_t *in, uint32_t *out, uint64_t n, gj_arena *ar,
                       cudaStream_t st, gj_ctx *ctx);
/* gid1[i] = 1 + the group of row i of keys in order (kw 4 or 8): the
 * inclusive sum of head flags (a key unlike the row before's), the flags
 * computed as the scan reads the keys (no flag array). */
int gjgb_group_ids(const void *keys, int kw, uint32_t *gid1, uint64_t n, gj_arena *ar, cudaStream_t st,
                   gj_ctx *ctx);

#endif
