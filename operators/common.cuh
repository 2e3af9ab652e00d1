/* Shared CUDA plumbing for operators/ and calibrate/: error checks that map to
 * gj status codes, phase timers on CUDA events, and device allocations that
 * track the operator's peak memory. Host-side only helpers; no kernels. */
#ifndef GJ_OPERATORS_COMMON_CUH
#define GJ_OPERATORS_COMMON_CUH

#include "common/internal.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Check a CUDA call; on error record it in ctx, clear the sticky error and
 * jump to `done` with rc = GJ_ERR_CUDA. Use inside functions that declare
 * `int rc` and a `done:` label (one exit path). */
#define GJ_CUDA(call)                                                                  \
    do {                                                                               \
        cudaError_t gj_e_ = (call);                                                    \
        if (gj_e_ != cudaSuccess) {                                                    \
            cudaGetLastError();                                                        \
            rc = gj_seterr(ctx, gj_e_ == cudaErrorMemoryAllocation ? GJ_ERR_INFEASIBLE \
                                                                   : GJ_ERR_CUDA,      \
                           "%s:%d: %s: %s", __FILE__, __LINE__, #call,                 \
                           cudaGetErrorString(gj_e_));                                 \
            goto done;                                                                 \
        }                                                                              \
    } while (0)

/* After a launch: catch configuration errors without synchronising. */
#define GJ_LAUNCHED() GJ_CUDA(cudaPeekAtLastError())

/* Device allocations of one operator run; peak is what the run held at most.
 * Frees everything still held in gj_arena_release. pooled: allocate from
 * the device's stream-ordered pool on `st` (set gj_pool_retain first, so
 * that freed blocks stay mapped for the next run); else cudaMalloc. */
#define GJ_ARENA_MAX 64
typedef struct gj_arena {
    void *ptr[GJ_ARENA_MAX];
    size_t size[GJ_ARENA_MAX];
    int n;
    size_t now, peak;
    int pooled;
    cudaStream_t st;
} gj_arena;

/* Keep the default pool's freed memory mapped (release threshold: all):
 * an operator that allocates gigabytes per run would otherwise pay the
 * mapping again on every run. Every join and group-by run calls it. */
static inline cudaError_t gj_pool_retain(void)
{
    int dev = 0;
    cudaMemPool_t pool;
    uint64_t thr = UINT64_MAX;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetDefaultMemPool(&pool, dev);
    if (e == cudaSuccess) e = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr);
    return e;
}

static inline cudaError_t gj_arena_alloc(gj_arena *a, void **p, size_t bytes)
{
    *p = NULL;
    if (a->n == GJ_ARENA_MAX) return cudaErrorMemoryAllocation;
    cudaError_t e = a->pooled ? cudaMallocAsync(p, bytes ? bytes : 1, a->st) : cudaMalloc(p, bytes ? bytes : 1);
    if (e != cudaSuccess) return e;
    a->ptr[a->n] = *p;
    a->size[a->n++] = bytes;
    a->now += bytes;
    if (a->now > a->peak) a->peak = a->now;
    return cudaSuccess;
}

static inline void gj_arena_dealloc(const gj_arena *a, void *p)
{
    if (a->pooled) cudaFreeAsync(p, a->st);
    else cudaFree(p);
}

/* Temporaries held outside the arena for a while (a callee's own
 * buffers): count them in the peak. */
static inline void gj_arena_note(gj_arena *a, size_t bytes)
{
    if (a->now + bytes > a->peak) a->peak = a->now + bytes;
}

/* Free one allocation early (NULL accepted). */
static inline void gj_arena_free(gj_arena *a, void *p)
{
    if (!p) return;
    for (int i = 0; i < a->n; i++)
        if (a->ptr[i] == p) {
            gj_arena_dealloc(a, p);
            a->now -= a->size[i];
            a->ptr[i] = a->ptr[--a->n];
            a->size[i] = a->size[a->n];
            return;
        }
}

static inline void gj_arena_release(gj_arena *a)
{
    for (int i = 0; i < a->n; i++) gj_arena_dealloc(a, a->ptr[i]);
    a->n = 0;
    a->now = 0;
}

/* Is environment variable `name` set to exactly `value`? The operators'
 * A/B switches (README: environment variables), never needed for a right
 * answer. */
static inline bool gj_env_is(const char *name, const char *value)
{
    const char *e = getenv(name);
    return e && !strcmp(e, value);
}

/* An A/B switch's number: the environment variable as a decimal in
 * [lo, hi], else (unset, not a number, out of range) fallback. */
static inline long gj_env_num(const char *name, long lo, long hi, long fallback)
{
    const char *e = getenv(name);
    if (!e || *e < '0' || *e > '9') return fallback;
    char *end;
    const long v = strtol(e, &end, 10);
    return *end == 0 && v >= lo && v <= hi ? v : fallback;
}

/* GJ_TRACE=1: events at named steps inside an operator (where a phase's
 * time goes when nsys is not at hand: host waits show as gaps), printed to
 * stderr as GPU milliseconds since the first step when the operator ends.
 * One trace a translation unit, its events kept for the next call. */
enum { GJ_TRACE_STEPS = 24 };
struct gj_trace_state {
    cudaEvent_t ev[GJ_TRACE_STEPS];
    const char *what[GJ_TRACE_STEPS];
    int n, on;
};
static inline gj_trace_state &gj_trace_get(void)
{
    static gj_trace_state t;
    return t;
}

static inline void gj_trace_begin(void)
{
    gj_trace_state &gj_tr = gj_trace_get();
    const char *e = getenv("GJ_TRACE");
    gj_tr.on = e && *e && strcmp(e, "0");
    gj_tr.n = 0;
}

static inline void gj_trace(cudaStream_t s, const char *what)
{
    gj_trace_state &gj_tr = gj_trace_get();
    if (!gj_tr.on || gj_tr.n == GJ_TRACE_STEPS) return;
    if (!gj_tr.ev[gj_tr.n] && cudaEventCreate(&gj_tr.ev[gj_tr.n]) != cudaSuccess) return;
    gj_tr.what[gj_tr.n] = what;
    if (cudaEventRecord(gj_tr.ev[gj_tr.n], s) == cudaSuccess) gj_tr.n++;
}

static inline void gj_trace_dump(void)
{
    gj_trace_state &gj_tr = gj_trace_get();
    if (!gj_tr.on || !gj_tr.n || cudaEventSynchronize(gj_tr.ev[gj_tr.n - 1]) != cudaSuccess) return;
    float prev = 0;
    for (int i = 0; i < gj_tr.n; i++) {
        float ms = 0;
        cudaEventElapsedTime(&ms, gj_tr.ev[0], gj_tr.ev[i]);
        fprintf(stderr, "trace %-28s %8.4f ms  +%.4f\n", gj_tr.what[i], ms, ms - prev);
        prev = ms;
    }
    gj_tr.n = 0;
}

/* Phase timer: record an event at each phase boundary, read at the end. */
typedef struct gj_phase_timer {
    cudaEvent_t ev[GJ_MAX_PHASES + 1];
    int n; /* events recorded */
} gj_phase_timer;

static inline cudaError_t gj_timer_init(gj_phase_timer *t)
{
    t->n = 0;
    for (int i = 0; i <= GJ_MAX_PHASES; i++) {
        cudaError_t e = cudaEventCreate(&t->ev[i]);
        if (e != cudaSuccess) {
            for (int j = 0; j < i; j++) cudaEventDestroy(t->ev[j]);
            return e;
        }
    }
    return cudaSuccess;
}

static inline cudaError_t gj_timer_mark(gj_phase_timer *t, cudaStream_t s)
{
    if (t->n > GJ_MAX_PHASES) return cudaErrorInvalidValue;
    return cudaEventRecord(t->ev[t->n++], s);
}

/* Take back the last mark (a path that declined after marking: its time
 * goes to the phase the next mark ends). */
static inline void gj_timer_unmark(gj_phase_timer *t)
{
    if (t->n > 0) t->n--;
}

/* Synchronise on the last mark and fill out (names given by the caller). */
static inline cudaError_t gj_timer_read(gj_phase_timer *t, gj_timing *out)
{
    cudaError_t e = cudaEventSynchronize(t->ev[t->n - 1]);
    if (e != cudaSuccess) return e;
    out->n_phases = t->n - 1;
    out->total_ms = 0;
    for (int i = 0; i + 1 < t->n; i++) {
        float ms = 0;
        e = cudaEventElapsedTime(&ms, t->ev[i], t->ev[i + 1]);
        if (e != cudaSuccess) return e;
        out->ms[i] = ms;
        out->total_ms += ms;
    }
    return cudaSuccess;
}

static inline void gj_timer_destroy(gj_phase_timer *t)
{
    for (int i = 0; i <= GJ_MAX_PHASES; i++) cudaEventDestroy(t->ev[i]);
}

#endif
