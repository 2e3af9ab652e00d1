/* Workload generators on the GPU, shared by the join and group-by operators
 * and their tests. Deterministic per seed: the same (n, domain, seed) gives
 * the same column on every GPU, independent of launch configuration.
 *
 * Random numbers come from a counter-based generator (splitmix64 of
 * seed and row index), so no state lives between calls.
 *
 * Every function: width is 4 or 8 (bytes per element); d_* points to n
 * elements of device memory owned by the caller; the kernels are enqueued on
 * stream s and the call does NOT synchronise. Returns GJ_OK, GJ_ERR_INVALID
 * (bad width, n above 2^32 for 4-byte keys, domain 0, ...; details in ctx),
 * GJ_ERR_CUDA (launch failed). n = 0 is valid and does nothing. */
#ifndef GJ_OPERATORS_GEN_H
#define GJ_OPERATORS_GEN_H

#include "gjadvise.h"
#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Random permutation of 0..n-1 (keys of a primary-key relation, paper 000
 * Sec. 5.1.1). A keyed bijection on [0, 2^ceil(log2 n)) (rounds of
 * multiply-by-odd, xor-shift and add, all bijective modulo 2^k) with
 * cycle-walking into [0, n): exact permutation, O(n), no scratch memory. */
int gj_gen_shuffled_keys(void *d_keys, int width, uint64_t n, uint64_t seed,
                         cudaStream_t s, gj_ctx *ctx);

/* Uniform over [0, domain) (foreign keys). domain >= 1; for width 4,
 * domain <= 2^32. */
int gj_gen_uniform_keys(void *d_keys, int width, uint64_t n, uint64_t domain,
                        uint64_t seed, cudaStream_t s, gj_ctx *ctx);

/* Zipf over ranks 1..domain: P(rank r) ~ r^-z (z >= 0; z = 0 is uniform).
 * Exact sampling by rejection-inversion (Hoermann and Derflinger 1996, the
 * method of Apache Commons' RejectionInversionZipfSampler): no table, O(1)
 * expected draws per row; the only error is double rounding. Rank r maps to
 * key perm(r-1), perm the fixed (seed-independent) bijection of
 * gj_gen_shuffled_keys on [0, domain), so hot keys are spread over the key
 * range rather than being 0, 1, 2, ... */
int gj_gen_zipf_keys(void *d_keys, int width, uint64_t n, uint64_t domain, double z,
                     uint64_t seed, cudaStream_t s, gj_ctx *ctx);

/* Payload values. GJ_DT_INT: random bits; GJ_DT_FLOAT: finite, uniform in
 * [-1e3, 1e3] (float for width 4, double for width 8). */
int gj_gen_values(void *d_col, int width, gj_dtype type, uint64_t n, uint64_t seed,
                  cudaStream_t s, gj_ctx *ctx);

/* In place: k -> k + offset (wrapping modulo 2^(8 width)), e.g. to give 8-byte
 * keys high bits. Applying the same offset to both join sides keeps matches.
 * mix: then through murmur3's finaliser (operators/hash.cuh), a bijection:
 * as many distinct keys, spread over the whole width instead of a range. */
int gj_gen_offset_keys(void *d_keys, int width, uint64_t n, uint64_t offset, int mix,
                       cudaStream_t s, gj_ctx *ctx);

/* In place: the keys in ascending (unsigned) order, n < 2^31: the rows of a
 * table stored by its key (workload sorted_keys). */
int gj_gen_sort_keys(void *d_keys, int width, uint64_t n, cudaStream_t s, gj_ctx *ctx);

/* In place: runs of `run` equal keys, row i taking the key of row
 * run * floor(i / run) (the runs' first rows keep theirs): the keys' law is
 * kept, with 1 / run as many draws (a probe side clustered by its key, as
 * TPC-H's lineitem by order key). run >= 1. */
int gj_gen_runs(void *d_keys, int width, uint64_t n, uint64_t run, cudaStream_t s, gj_ctx *ctx);

/* In place, for the match ratio of paper 000 Sec. 5.1.6 ("replacing a
 * fraction of primary keys with non-matching values"): every key k >= keep
 * becomes k + n. Applied to a permutation of 0..n-1 this replaces exactly
 * n - keep keys, at random positions, by distinct keys outside [0, n), so
 * foreign keys uniform over [0, n) match with probability keep / n.
 * For width 4, 2n must fit in 32 bits. */
int gj_gen_mismatch_keys(void *d_keys, int width, uint64_t n, uint64_t keep,
                         cudaStream_t s, gj_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif
