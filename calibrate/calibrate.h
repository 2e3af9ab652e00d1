/* Internal interface of calibrate/: the statistics helpers (stats.c, plain C
 * with GSL, CPU-testable) and the benchmark launchers (kernels.cu, sort.cu,
 * behind extern "C").
 *
 * Every launcher runs on the current device (the caller has called
 * cudaSetDevice), allocates what it needs, fills its inputs on the GPU, runs
 * `warmup` untimed repetitions, then `reps` timed ones, writing each one's
 * elapsed milliseconds (CUDA events around the measured work only) to ms[].
 * `*work` receives the amount of work one repetition does (bytes or
 * operations, as each launcher says) so the caller divides work by time.
 * Every launcher checks its own output (a device-side verification kernel);
 * a wrong result is GJ_ERR_CUDA with "verification failed" in ctx.
 * All device memory is freed before returning, on success and on error. */
#ifndef GJ_CALIBRATE_H
#define GJ_CALIBRATE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* internal.h has no C++ guard of its own: gj_seterr & co. are C symbols. */
#include "common/internal.h"

/* ---- statistics (stats.c) ---- */

typedef struct gj_cal_stat {
    int n;
    double median, q1, q3, min, max;
    double spread; /* (q3 - q1) / median: the interquartile range relative to the median */
} gj_cal_stat;

/* Summarise n >= 1 finite values (x is not modified). Quartiles by GSL's
 * gsl_stats_quantile_from_sorted_data (linear interpolation). A median of 0
 * gives spread 0. Returns GJ_OK, GJ_ERR_INVALID (n < 1, NULL, non-finite),
 * GJ_ERR_NOMEM. */
int gj_cal_summarize(const double *x, int n, gj_cal_stat *out);

/* Of two summaries of the same measurement (b may be NULL: not re-run),
 * the index (0 for a, 1 for b) of the one to keep: the smaller spread. */
int gj_cal_pick(const gj_cal_stat *a, const gj_cal_stat *b);

/* Profile name from a device name: lowercased, runs of characters outside
 * [a-z0-9.] become one '-', a leading "nvidia-" dropped, trimmed to 63
 * ("NVIDIA H200" -> "h200", "NVIDIA H100 80GB HBM3" -> "h100-80gb-hbm3").
 * An empty result gives "gpu". */
void gj_cal_profile_name(const char *device_name, char *out, size_t n);

/* ---- launchers (kernels.cu, sort.cu) ---- */

/* Sequential access over `bytes` (rounded down to 16-byte vectors):
 * kind 0 read (work = bytes), 1 write (work = bytes), 2 copy between two
 * buffers of `bytes` each (work = 2 * bytes, read + written); each timed
 * repetition launches the kernel `inner` times (work multiplied by inner). */
int gj_calk_seq(int kind, uint64_t bytes, int inner, int warmup, int reps, double *ms, double *work,
                gj_ctx *ctx);

enum {
    GJ_CALK_GATHER_CLUSTERED = 0,   /* map[i] = i                                  */
    GJ_CALK_GATHER_PERMUTED = 1,    /* map = a random permutation of [0, n)        */
    GJ_CALK_GATHER_LINES = 2,       /* each warp's 32 lanes read u distinct 128-byte
                                       lines chosen at random over [0, n)          */
    GJ_CALK_GATHER_SMALL = 3        /* random indices into a source of src_items
                                       4-byte items (sized to stay in L2)          */
};
/* out[i] = in[map[i]] for i < n (n a power of two, >= 2^10), 4-byte items.
 * The same kernel for every mode: only the map differs. Each timed
 * repetition runs the gather `inner` times; work = n * inner (items). */
int gj_calk_gather(int mode, uint64_t n, int u, uint64_t src_items, int inner, int warmup, int reps,
                   double *ms, double *work, gj_ctx *ctx);

/* Shared memory: every resident thread reads its block's 32 KB array
 * `iters` times; random = 0: 16-byte vectors, consecutive; 1: 4-byte words at
 * random. work = bytes read. */
int gj_calk_smem(int random, int iters, int warmup, int reps, double *ms, double *work,
                 gj_ctx *ctx);

/* L2: a buffer of `bytes` (fits in L2) read with ld.global.cg (L1 bypassed),
 * random = 0: `passes` sequential passes of 16-byte vectors; 1: the same
 * number of 4-byte reads at random addresses. work = bytes read. */
int gj_calk_l2(int random, uint64_t bytes, int passes, int warmup, int reps, double *ms,
               double *work, gj_ctx *ctx);

/* Global atomicAdd of n ops onto `targets` distinct 4-byte counters
 * (power of two), targets chosen at random per op. work = n. */
int gj_calk_atomic_global(uint64_t targets, uint64_t n, int warmup, int reps, double *ms,
                          double *work, gj_ctx *ctx);
/* Shared-memory atomicAdd: each thread does `iters` ops onto `targets`
 * (power of two, <= 4096) counters of its block. work = ops. */
int gj_calk_atomic_shared(int targets, int iters, int warmup, int reps, double *ms,
                          double *work, gj_ctx *ctx);

/* Open-addressing hash table (linear probing, 4-byte keys and values, load
 * factor 0.5): probe = 0: insert n_keys distinct random keys (the table is
 * cleared before each repetition, untimed), work = n_keys; probe = 1: build
 * once, then n_probes lookups of random present keys, work = n_probes.
 * aos = 0: keys and values in two arrays (the group-bys' global tables);
 * 1: a key and its value in one 8-byte slot (NPHJ's table). */
int gj_calk_hash(int probe, int aos, uint64_t n_keys, uint64_t n_probes, int warmup, int reps,
                 double *ms, double *work, gj_ctx *ctx);

/* `launches` empty kernels back to back per repetition; work = launches. */
int gj_calk_launch(int launches, int warmup, int reps, double *ms, double *work, gj_ctx *ctx);
/* `pairs` cudaMalloc(bytes) + cudaFree per repetition, host clock;
 * work = pairs. */
int gj_calk_malloc(uint64_t bytes, int pairs, int warmup, int reps, double *ms, double *work,
                   gj_ctx *ctx);
/* cudaMemcpy of `bytes` host <-> device; d2h selects the direction, pinned
 * the host memory (cudaMallocHost) or pageable (malloc, touched first).
 * work = bytes. */
int gj_calk_hostcopy(int d2h, int pinned, uint64_t bytes, int warmup, int reps, double *ms,
                     double *work, gj_ctx *ctx);

/* CUB DeviceRadixSort::SortPairs (DoubleBuffer) of n pairs with key_bytes
 * (4 or 8) and val_bytes (4 or 8) over bits [0, end_bit); keys are fresh
 * random bits before every repetition (untimed). work = n (pairs).
 * own: the operators' own stable partition instead (gj_join_partition,
 * end_bit <= 16), as PHJ-TR, SMJ-TR and PGB-TR run it: 1 with the values
 * as they are, 2 with 8-byte values packed from two 4-byte columns as the
 * first pass reads them (GFTR's pairs; 4-byte keys), 3 as 2 on hashed keys
 * in one wide pass of GJ_PART_WIDE_BITS bits (PGB's first pass; end_bit
 * GJ_PART_WIDE_BITS). */
int gj_calk_sort(int key_bytes, int val_bytes, int end_bit, uint64_t n, int own, int warmup, int reps,
                 double *ms, double *work, gj_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif
