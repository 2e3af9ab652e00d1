/*
 * gjadvise: choose, predict and run GPU join and group-by operators.
 *
 * The whole public C API. Every fallible function returns an int status
 * (GJ_OK = 0, else one of GJ_ERR_*); results come back through out-parameters.
 * Functions that take a `gj_ctx *ctx` copy a detailed message into it on error
 * (ctx may be NULL). No function keeps global mutable state: distinct threads
 * may call the library at once as long as each uses its own ctx and handles.
 *
 * Cost models: Wu, Koutsoukos, Alonso, "Efficiently Processing Joins and
 * Grouped Aggregations on GPUs", SIGMOD 2025 (shared/papers/000); formula IDs
 * (M-...) refer to model/MODEL.md.
 */
#ifndef GJADVISE_H
#define GJADVISE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GJ_VERSION_MAJOR 0
#define GJ_VERSION_MINOR 1
#define GJ_VERSION_PATCH 0
#define GJ_VERSION_STRING "0.1.0"

/* ------------------------------------------------------------------------ */
/* Status codes and error context                                           */
/* ------------------------------------------------------------------------ */

enum {
    GJ_OK = 0,
    GJ_ERR_INVALID = 1,     /* an argument is out of range or malformed        */
    GJ_ERR_NOMEM = 2,       /* host allocation failed                          */
    GJ_ERR_NOTFOUND = 3,    /* named profile, implementation or row is absent  */
    GJ_ERR_DB = 4,          /* SQLite failed (I/O, constraint, ...)            */
    GJ_ERR_DB_LOCKED = 5,   /* the store is locked by another process          */
    GJ_ERR_DB_READONLY = 6, /* the store or its folder is not writable         */
    GJ_ERR_DB_CORRUPT = 7,  /* not a gjadvise store, or damaged                */
    GJ_ERR_DB_VERSION = 8,  /* store written by a newer gjadvise               */
    GJ_ERR_PARSE = 9,       /* JSON or input file malformed                    */
    GJ_ERR_IO = 10,         /* file could not be read or written               */
    GJ_ERR_NODEVICE = 11,   /* no CUDA device or driver                        */
    GJ_ERR_CUDA = 12,       /* a CUDA call or kernel failed                    */
    GJ_ERR_INFEASIBLE = 13, /* no implementation fits the constraints          */
    GJ_ERR_UNSUPPORTED = 14 /* valid request this build or implementation lacks */
};

/* Static, never-NULL description of a status code. */
const char *gj_errstr(int code);

/* Per-thread error context: keeps the last detailed message. */
typedef struct gj_ctx gj_ctx;

/* Create a context. [out] *out owned by caller, free with gj_ctx_free.
 * Returns GJ_OK or GJ_ERR_NOMEM. */
int gj_ctx_new(gj_ctx **out);
/* Free a context; NULL is accepted. */
void gj_ctx_free(gj_ctx *ctx);
/* Last detailed message ("" if none). Valid until the next call using ctx.
 * NULL ctx gives "". */
const char *gj_ctx_errmsg(const gj_ctx *ctx);

/* Free memory that the library returned (JSON strings and the like). */
void gj_free(void *p);

/* ------------------------------------------------------------------------ */
/* Hardware parameters and profiles                                         */
/* ------------------------------------------------------------------------ */

/* Every hardware parameter the models use. Plain data. Units: bandwidths in
 * GB/s (1e9 bytes/s), rates in G operations/s, times in microseconds, sizes in
 * bytes. The parameter table (gj_param_*) gives each field's key, unit and
 * meaning; profiles store them by key. */
typedef struct gj_hw {
    /* global memory, GB/s */
    double bw_seq;        /* B_G: sequential copy, bytes read + written      */
    double bw_seq_read;   /* sequential read                                 */
    double bw_seq_write;  /* sequential write                                */
    double bw_rand;       /* B_R: unclustered 4-byte GATHER (Sec. 4.1.1)     */
    double bw_rand_l2;    /* unclustered GATHER with source resident in L2   */
    /* gather bandwidth when a warp's 32 reads touch u distinct 128 B lines
     * (Sec. 4.1.3 assumes B_G/u); 0 = not measured, use max(B_G/u, B_R) */
    double bw_u1, bw_u2, bw_u4, bw_u8, bw_u16, bw_u32;
    /* on-chip memory, GB/s summed over the device */
    double bw_l1;         /* B_M for L1/shared memory, sequential            */
    double bw_l1_rand;    /* shared memory, random 4-byte accesses           */
    double bw_l2;         /* B_M for L2, sequential                          */
    double bw_l2_rand;    /* L2, random 4-byte accesses                      */
    /* transformations */
    double bw_hist;       /* radix histogram pass, GB/s of keys read         */
    double bw_part_k4v4;  /* one 8-bit RADIX-PARTITION pass, GB/s of bytes   */
    double bw_part_k4v8;  /*   read + written, for key/value widths 4/4,    */
    double bw_part_k8v8;  /*   4/8 and 8/8                                   */
    double bw_part_pair;  /* one 8-bit pass of the operators' own partition
                             (its histogram included), 4-byte keys with
                             packed 8-byte pairs: GFTR, PGB-TR; GB/s of
                             pair bytes read + written                      */
    double bw_part_pair1; /* the same pass as a partition's first, packing
                             the pairs from two 4-byte columns as it reads
                             them (GFTR's first pass): one 8-bit partition
                             alone; 0 where not measured                    */
    double bw_part_wide;  /* the same first pass on 9 hashed key bits in
                             one wide pass (PGB, GJ_PART_WIDE); 0 where
                             not measured: bw_part_pair1 / 1.185           */
    double sort_k32;      /* full radix sort, 4-byte keys + 4-byte values, G pairs/s */
    double sort_k64;      /* full radix sort, 8-byte keys + 4-byte values, G pairs/s */
    /* atomics, G updates/s over the device, by number of distinct targets */
    double atom_g_t1, atom_g_t32, atom_g_t1k, atom_g_t1m;   /* global        */
    double atom_s_t1, atom_s_t32, atom_s_t1k;               /* shared memory */
    /* hash tables (open addressing, 4-byte keys and values), G ops/s: keys
     * and values in two arrays (the group-bys' global tables), and a key
     * and its value in one 8-byte slot (NPHJ's table: one sector a probe) */
    double ht_build_l2, ht_probe_l2, ht_build_hbm, ht_probe_hbm;
    double ht_slot_build_l2, ht_slot_probe_l2, ht_slot_build_hbm, ht_slot_probe_hbm;
    /* overheads, microseconds */
    double launch_us;     /* one kernel launch, back to back                 */
    double malloc_us;     /* one cudaMalloc + cudaFree pair                  */
    /* host link, GB/s */
    double h2d_pageable, h2d_pinned, d2h_pageable, d2h_pinned;
    /* structure */
    double sm_count;
    double l1_bytes;        /* L1 + shared memory per SM                     */
    double smem_per_block;  /* largest opt-in shared memory per block        */
    double l2_bytes;
    double mem_bytes;       /* device memory                                 */
} gj_hw;

/* Where a parameter's value came from. */
typedef enum gj_source {
    GJ_SRC_UNSET = 0,
    GJ_SRC_PAPER,     /* printed in paper 000                                 */
    GJ_SRC_DERIVED,   /* computed from other parameters by a stated rule      */
    GJ_SRC_ASSUMED,   /* an engineering estimate, no measurement behind it   */
    GJ_SRC_MEASURED,  /* gjadvise calibrate                                   */
    GJ_SRC_TUNED      /* gjadvise tune                                        */
} gj_source;

/* Static description of one gj_hw field. */
typedef struct gj_param_info {
    const char *key;   /* stable name used in the store and JSON, e.g. "bw_seq" */
    const char *unit;  /* "GB/s", "Gop/s", "us", "bytes", "count"              */
    const char *what;  /* one-line meaning                                     */
    size_t offset;     /* offsetof(gj_hw, field)                               */
} gj_param_info;

/* Number of parameters; gj_param_at(i) for i in [0, count) never NULL. */
int gj_param_count(void);
const gj_param_info *gj_param_at(int i);
/* Look a parameter up by key; NULL if unknown. Returns its index in *index if
 * index is not NULL. */
const gj_param_info *gj_param_find(const char *key, int *index);
/* Name of a gj_source ("paper", "derived", ...). */
const char *gj_source_name(gj_source s);

/* Identity of a GPU. Plain data; strings are NUL-terminated. */
typedef struct gj_device {
    char name[96];
    char uuid[48];          /* "GPU-xxxxxxxx-..." or "" for non-devices      */
    int cc_major, cc_minor;
    int sm_count;
    uint64_t mem_bytes;
    uint64_t l2_bytes;
    uint64_t smem_per_block;   /* opt-in maximum                            */
    uint64_t smem_per_sm;
    int clock_mhz, mem_clock_mhz, mem_bus_bits;
    int driver_version;     /* e.g. 13000                                    */
    int runtime_version;
} gj_device;

/* A named set of hardware parameters with spreads and sources, plus the
 * identity of the GPU it describes. Opaque. */
typedef struct gj_profile gj_profile;

/* New empty profile (all parameters unset). name: 1..63 chars of
 * [A-Za-z0-9._-]. [out] *out owned by caller (gj_profile_free).
 * Returns GJ_OK, GJ_ERR_INVALID (bad name), GJ_ERR_NOMEM. */
int gj_profile_new(const char *name, gj_profile **out);
/* Deep copy. Returns GJ_OK or GJ_ERR_NOMEM. */
int gj_profile_clone(const gj_profile *p, gj_profile **out);
/* Free; NULL accepted. */
void gj_profile_free(gj_profile *p);

/* Built-in profiles compiled into the library. gj_profile_builtin_name(i)
 * for i in [0, gj_profile_builtin_count()). The first is the default used
 * when no calibrated profile exists ("a100-paper"). */
int gj_profile_builtin_count(void);
const char *gj_profile_builtin_name(int i);
/* Load a built-in by name. Returns GJ_OK or GJ_ERR_NOTFOUND. */
int gj_profile_builtin(const char *name, gj_profile **out);

/* Accessors. Returned pointers live as long as p. */
const char *gj_profile_name(const gj_profile *p);
const gj_hw *gj_profile_hw(const gj_profile *p);
const gj_device *gj_profile_device(const gj_profile *p);
const char *gj_profile_origin(const gj_profile *p);   /* "builtin", "calibrate", "tune", "import" */
const char *gj_profile_created(const gj_profile *p);  /* ISO 8601 UTC, "" if unknown */
const char *gj_profile_notes(const gj_profile *p);
int gj_profile_version(const gj_profile *p);          /* 1 for a new profile  */
double gj_profile_fit_error(const gj_profile *p);     /* held-out median |err|, <0 if none */

/* Setters. Return GJ_OK, GJ_ERR_INVALID (NULL/unknown key/non-finite or
 * negative value), GJ_ERR_NOMEM. */
int gj_profile_set_name(gj_profile *p, const char *name);
int gj_profile_set(gj_profile *p, const char *key, double value, double spread, gj_source src);
int gj_profile_set_device(gj_profile *p, const gj_device *dev);
int gj_profile_set_meta(gj_profile *p, const char *origin, const char *created,
                        const char *notes, int version, double fit_error);
/* Read one parameter by key; spread and src may be NULL.
 * Returns GJ_OK, GJ_ERR_NOTFOUND (unknown key). Unset parameters read 0. */
int gj_profile_get(const gj_profile *p, const char *key, double *value,
                   double *spread, gj_source *src);

/* Fill every unset parameter from the set ones by the rules of paper 000
 * (B_R = B_G/24, L1 = 12 B_G, L2 = 4.5 B_G, ...), marking them DERIVED, so a
 * partly measured profile is usable. Returns GJ_OK or GJ_ERR_INVALID when
 * bw_seq is unset. */
int gj_profile_complete(gj_profile *p);

/* JSON form of a profile (one object; keys documented in README). [out]
 * *json is malloc'd, free with gj_free. Returns GJ_OK, GJ_ERR_NOMEM. */
int gj_profile_to_json(const gj_profile *p, char **json);
/* Parse a profile from JSON. Unknown parameter keys are an error.
 * Returns GJ_OK, GJ_ERR_PARSE (details in ctx), GJ_ERR_INVALID, GJ_ERR_NOMEM. */
int gj_profile_from_json(const char *json, gj_profile **out, gj_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* Workloads                                                                */
/* ------------------------------------------------------------------------ */

typedef enum gj_op { GJ_OP_JOIN = 0, GJ_OP_GROUPBY = 1 } gj_op;

typedef enum gj_agg {
    GJ_AGG_SUM = 0, GJ_AGG_MIN, GJ_AGG_MAX, GJ_AGG_COUNT, GJ_AGG_AVG,
    GJ_AGG_COUNT_DISTINCT, GJ_AGG_MEDIAN,
    GJ_AGG_KINDS
} gj_agg;

#define GJ_MAX_PAYLOADS 8
#define GJ_MAX_AGGS 8
#define GJ_MAX_ROWS (1ULL << 40)

/* A workload: what the optimizer knows about one operator. Plain data;
 * gj_workload_default() fills the paper's defaults. */
typedef struct gj_workload {
    gj_op op;
    int key_bytes;        /* 4 or 8                                          */
    int payload_bytes;    /* 4 or 8, every payload column                    */
    double zipf;          /* skew of foreign keys (join) or group keys, >= 0;
                             a group-by told >= 1 runs PGB's folding builds
                             (operators/GROUPBY.md)                         */
    /* join: R is the build (primary-key) side, S the probe side             */
    uint64_t r_rows, s_rows;
    int r_payloads, s_payloads;   /* 0..GJ_MAX_PAYLOADS                     */
    double match_ratio;   /* fraction of S rows that find a partner, [0,1]  */
    uint64_t out_rows;    /* many-to-many output size; 0 = primary-foreign-key
                             (match_ratio * s_rows)                          */
    double s_run;         /* average run of equal keys in S's row order: at
                             most 1 means none (the default 0); S sorted or
                             clustered by the key (TPC-H's lineitem by order
                             key: 4): s_rows / its distinct keys. <= 2^40   */
    int r_sorted, s_sorted; /* 1: that side's rows come ordered by key (a
                             table stored by it: TPC-H's orders and lineitem
                             by order key). SMJ-* then leave it unsorted
                             (their min/max pass checks the order and sorts
                             when it is wrong). Join only                   */
    int filter;           /* the joins' semi-join filter (operators/JOIN.md):
                             GJ_FILTER_AUTO (0, the default): the model's
                             choice (gj_profile_estimate's est.filtered);
                             the executor, which has no profile, applies the
                             rule that approximates it (operators/shapes.h);
                             GJ_FILTER_ON, GJ_FILTER_OFF: as said. Join only */
    /* group-by over R(key, payloads...)                                     */
    uint64_t rows;
    uint64_t groups;      /* g, 1..rows                                      */
    int n_aggs;           /* 1..GJ_MAX_AGGS; agg i reads payload column i
                             (COUNT reads none)                              */
    gj_agg aggs[GJ_MAX_AGGS];
    int sorted_output;    /* output must be ordered by key (Fig. 21)        */
    int sorted_keys;      /* 1: the rows come ordered by key (a table stored
                             by it, the output of a sort or a merge join):
                             SGB-* skip their sorts. Group-by only; SGB-*
                             check it (one pass) and sort when it is wrong */
    uint64_t key_range;   /* the keys span at most this many values (max -
                             min + 1, from the column's statistics), 0 =
                             unknown (the default). PGB-* then may partition
                             on the keys' own bits and give every key its
                             own slot, tables full without collisions
                             (operators/GROUPBY.md). Keys outside the span
                             are still grouped right, only slower. Group-by
                             only; at most 2^62 */
} gj_workload;

/* gj_workload.filter */
enum { GJ_FILTER_AUTO = 0, GJ_FILTER_ON = 1, GJ_FILTER_OFF = 2 };
/* "auto", "on", "off"; NULL for other values */
const char *gj_filter_name(int filter);
/* Parse "auto", "on" or "off" (case-insensitive). GJ_OK / GJ_ERR_NOTFOUND. */
int gj_filter_parse(const char *s, int *out);

/* The paper's defaults: join 2^27 x 2^27, 4-byte keys and payloads, 2+2
 * payload columns, match ratio 1; group-by 2^28 rows, 2^12 groups, max,max. */
void gj_workload_default(gj_workload *w, gj_op op);
/* Validate. Returns GJ_OK or GJ_ERR_INVALID with "field=value: allowed ..."
 * in ctx. */
int gj_workload_check(const gj_workload *w, gj_ctx *ctx);
/* Output rows of a join workload (PK-FK or many-to-many), or groups. */
uint64_t gj_workload_out_rows(const gj_workload *w);
const char *gj_agg_name(gj_agg a);
/* Parse "sum", "max", "count-distinct", ... Returns GJ_OK or GJ_ERR_INVALID. */
int gj_agg_parse(const char *s, gj_agg *out);

/* ------------------------------------------------------------------------ */
/* Implementations, estimates and plans                                     */
/* ------------------------------------------------------------------------ */

typedef enum gj_impl {
    GJ_IMPL_PHJ_UR = 0, GJ_IMPL_PHJ_TR, GJ_IMPL_SMJ_UR, GJ_IMPL_SMJ_TR, GJ_IMPL_NPHJ,
    GJ_IMPL_HGB, GJ_IMPL_SGB_UR, GJ_IMPL_SGB_TR, GJ_IMPL_SGB_DE_TR,
    GJ_IMPL_PGB_UR, GJ_IMPL_PGB_TR, GJ_IMPL_HASH_GLOBAL,
    GJ_IMPL_COUNT
} gj_impl;

/* "PHJ-UR", ...; NULL for out-of-range values. */
const char *gj_impl_name(gj_impl i);
/* Case-insensitive parse of an implementation name. GJ_OK / GJ_ERR_NOTFOUND. */
int gj_impl_parse(const char *s, gj_impl *out);
/* Which operator an implementation belongs to. */
gj_op gj_impl_op(gj_impl i);

#define GJ_MAX_PHASES 4

/* Kinds of model terms (model/MODEL.md, T-FIT). */
typedef enum gj_term {
    GJ_TERM_SEQ = 0,      /* sequential reads and writes at B_G             */
    GJ_TERM_PARTITION,    /* radix histogram and partition passes           */
    GJ_TERM_SORT,         /* full radix sorts                               */
    GJ_TERM_GATHER,       /* the random part of GATHERs                     */
    GJ_TERM_HASH,         /* hash-table inserts, probes and shared-memory hashing */
    GJ_TERM_ATOMIC,       /* atomic aggregation and block reductions        */
    GJ_TERM_FIXED,        /* kernel launches and allocations                */
    GJ_TERMS
} gj_term;

/* One phase of a prediction: transform / match / materialize for joins,
 * group / aggregate for group-bys. */
typedef struct gj_phase {
    char name[16];
    double ms;            /* predicted time                                 */
    double bytes;         /* bytes moved through device memory              */
    char dominant[64];    /* the largest term inside the phase               */
} gj_phase;

/* Prediction for one implementation on one workload and profile. */
typedef struct gj_estimate {
    gj_impl impl;
    int feasible;                 /* 0: see why                             */
    char why[120];                /* infeasibility reason, "" if feasible   */
    double ms;                    /* predicted total                        */
    double bytes;                 /* total bytes moved                      */
    double floor_ms;              /* bytes that must move (inputs read once,
                                     output written once) / B_G            */
    double peak_bytes;            /* peak device memory, inputs included    */
    int n_phases;
    gj_phase phase[GJ_MAX_PHASES];
    /* The model's terms summed by kind, in ms, before any tuned correction
     * (gj_fit): what `gjadvise tune` fits its coefficients to. */
    double term_ms[GJ_TERMS];
    int tuned;                    /* 1: the profile's gj_fit was applied    */
    int filtered;                 /* 1: a join predicted as run after the
                                     semi-join filter (its passes in the
                                     transform phase; w->filter AUTO: the
                                     faster of with and without)             */
} gj_estimate;

/* "seq", "partition", "sort", "gather", "hash", "atomic", "fixed"; NULL if
 * out of range. */
const char *gj_term_name(gj_term t);
/* Parse a term name. Returns GJ_OK or GJ_ERR_NOTFOUND. */
int gj_term_parse(const char *s, gj_term *out);

/* A learned correction of one implementation's model (`gjadvise tune`):
 * predicted ms = sum_k coef[k] * term_ms[k] + intercept_ms, each phase
 * scaled term by term, the intercept added to the last phase. */
typedef struct gj_fit {
    int set;                      /* 0: untuned (coef 1, intercept 0)        */
    double coef[GJ_TERMS];        /* >= 0                                    */
    double intercept_ms;          /* >= 0                                    */
    int n_train;                  /* executions it was fitted on             */
    double err_train;             /* median |predicted/measured - 1| on them */
    double err_holdout;           /* the same on held-out executions, <0 none */
} gj_fit;

/* Set (f->set = 1) or clear (f = NULL) the correction of one implementation.
 * Returns GJ_OK, GJ_ERR_INVALID (impl, negative or non-finite values). */
int gj_profile_set_fit(gj_profile *p, gj_impl impl, const gj_fit *f);
/* The correction of impl (set = 0 when untuned). GJ_OK / GJ_ERR_INVALID. */
int gj_profile_get_fit(const gj_profile *p, gj_impl impl, gj_fit *out);

/* gj_model_estimate on the profile's parameters with its gj_fit applied
 * (out->tuned = 1 when it was). What gj_advise ranks by. */
int gj_profile_estimate(gj_impl impl, const gj_workload *w, const gj_profile *p,
                        gj_estimate *out, gj_ctx *ctx);

/* Predict one implementation. Fills *out even when infeasible (why set).
 * Returns GJ_OK, GJ_ERR_INVALID (bad workload, impl of the other operator). */
int gj_model_estimate(gj_impl impl, const gj_workload *w, const gj_hw *hw,
                      gj_estimate *out, gj_ctx *ctx);

/* Where the choice would flip. Along "groups" a span told (key_range)
 * moves with the groups at the same density. */
typedef struct gj_crossover {
    int found;             /* 0: no flip within the parameter's range       */
    char param[24];        /* "match_ratio", "groups", "payloads", ...      */
    double at;             /* value at which the best implementation changes */
    double current;        /* the workload's value                          */
    gj_impl from, to;      /* best now, best beyond the crossover           */
} gj_crossover;

/* The advisor's answer. Plain data, owned by the caller; no free needed. */
typedef struct gj_plan {
    gj_op op;
    gj_impl best;
    int n;                               /* estimates, best first           */
    gj_estimate est[GJ_IMPL_COUNT];      /* feasible by time, then infeasible */
    char reason[512];                    /* why the best wins                */
    gj_crossover crossover;              /* most decisive parameter          */
    gj_impl heuristic;                   /* what the paper's rules pick      */
    char heuristic_rule[160];            /* which rule, and why              */
    char profile[64];                    /* profile used                     */
} gj_plan;

/* Rank every implementation of w->op for the profile. Honours
 * w->sorted_output and sort-only aggregates (count-distinct, median) and
 * device memory. Never touches the GPU or the store; thread-safe.
 * Returns GJ_OK, GJ_ERR_INVALID (workload; details in ctx),
 * GJ_ERR_INFEASIBLE (plan filled, nothing fits). */
int gj_advise(const gj_workload *w, const gj_profile *p, gj_plan *out, gj_ctx *ctx);

/* The semi-join filter that a join runs before impl on w where few S rows
 * find a partner (operators/JOIN.md "The semi-join filter"; the model
 * charges it): 1 if w's sides are cut, with the cut sides' expected rows
 * in *r_rows and *s_rows (either may be NULL): S's matching rows and R's
 * rows whose keys they hold; 0 if not (many-to-many joins, which the model
 * does not cut, other joins, group-bys, NULL). With a profile p, the
 * model's choice (est.filtered; w->filter AUTO: where it predicts the
 * filter pays); without (NULL), the executor's rule for AUTO. To run what
 * the model predicted, pass its choice as w->filter (gj_join_auto does).
 * Assumes the generator's key range (the operator reads R's min and max
 * and declines where R's keys span more than 2^28 values). */
int gj_join_filter_plan(gj_impl impl, const gj_workload *w, const gj_profile *p, uint64_t *r_rows,
                        uint64_t *s_rows);
/* Pin join workload w's filter hint, where it is GJ_FILTER_AUTO, to the
 * choice estimate e was made with (e->filtered: GJ_FILTER_ON, else OFF),
 * so that gj_join_exec_w runs what e predicted; an explicit hint stays.
 * Nothing for group-bys or NULLs. */
void gj_workload_pin_filter(gj_workload *w, const gj_estimate *e);

/* Plan as JSON. [out] *json malloc'd, free with gj_free. */
int gj_plan_to_json(const gj_plan *plan, const gj_workload *w, char **json);

/* ------------------------------------------------------------------------ */
/* Uncertain estimates (advisor/interval.c): for query optimizers            */
/* ------------------------------------------------------------------------ */
/* An optimizer's cardinalities are guesses. Give each uncertain quantity as
 * an interval [lo, hi] and ask which implementation is safest over the whole
 * box: gj_advise_range samples the box on a grid and reports, per
 * implementation, its predicted time range and its worst-case regret (how
 * much slower than the best implementation it can be at any sample point),
 * the implementation minimising that regret, and whether the fastest
 * implementation changes inside the box. Pure computation; thread-safe (no
 * global state: threads may share a const profile). */

/* A box of workloads. Fields that may differ between lo and hi (lo <= hi
 * each): joins r_rows, s_rows, match_ratio, out_rows (both 0, primary-
 * foreign-key, or both > 0, many-to-many), zipf; group-bys rows, groups,
 * zipf. Every other field the operator uses (op, key_bytes, payload_bytes,
 * r_payloads/s_payloads for joins, n_aggs/aggs, sorted_keys and
 * key_range for group-bys, sorted_output) must be equal in lo and hi;
 * fields the operator does not use are ignored. At each sample point
 * groups is clamped to rows, and to key_range where it is told.
 * mid (used when has_mid = 1): the optimizer's point estimate, inside the
 * box with the same fixed fields; its best implementation is reported. */
typedef struct gj_workload_range {
    gj_workload lo, hi;
    int has_mid;
    gj_workload mid;
} gj_workload_range;

/* Most points gj_advise_range samples, and most per uncertain dimension. */
#define GJ_RANGE_MAX_POINTS 729
#define GJ_RANGE_MAX_PER_DIM 9

/* One implementation over the box. Times are over the sample points where
 * it is feasible. */
typedef struct gj_range_estimate {
    gj_impl impl;
    int feasible;         /* 1: feasible at every point where anything is    */
    int feasible_points;  /* sample points where it is feasible              */
    int best_points;      /* sample points where it is the fastest           */
    double min_ms;        /* least predicted time over the box (0 if it is
                             feasible nowhere)                               */
    double max_ms;        /* largest predicted time over the box (0 likewise) */
    double regret;        /* worst-case regret: max over the points where it
                             is feasible of ms / best ms there - 1 (0: it is
                             the fastest everywhere); INFINITY if never      */
    char why[120];        /* first infeasibility reason seen, "" if none     */
} gj_range_estimate;

/* The answer over a box. Plain data, owned by the caller; no free needed. */
typedef struct gj_range_plan {
    gj_op op;
    int n_dims;              /* dimensions that differ between lo and hi     */
    int per_dim;             /* grid points per uncertain dimension (2..9;
                                log-spaced for rows/groups/out_rows, linear
                                for match_ratio and zipf; ends included)     */
    int n_points;            /* sample points evaluated (per_dim^n_dims)     */
    int n_empty;             /* points where no implementation is feasible   */
    int n;                   /* estimates, choice first                      */
    gj_range_estimate est[GJ_IMPL_COUNT]; /* feasible everywhere by regret
                                (then by max_ms), then the others by how many
                                points they fit, then by regret             */
    gj_impl choice;          /* minimises worst-case regret (= est[0].impl)  */
    double choice_regret;    /* its regret: the most it can lose vs the best */
    int flips;               /* 1: the fastest implementation is not the same
                                at every sample point                        */
    gj_impl flip_from, flip_to;   /* when flips: the fastest at the first
                                     sample point, and the first other
                                     implementation seen fastest ...         */
    gj_workload flip_from_at, flip_to_at; /* ... and the points where        */
    int has_point;           /* 1 when the range had a mid workload          */
    gj_impl point_choice;    /* the fastest at mid (what gj_advise says);
                                GJ_IMPL_COUNT when nothing fits at mid       */
    double point_ms;         /* its predicted time at mid; -1 if none fits   */
    char profile[64];        /* profile used                                 */
} gj_range_plan;

/* Evaluate every implementation of r->lo.op at each point of a grid over
 * the box (corners always included; per-dimension points reduced from 9 so
 * that at most GJ_RANGE_MAX_POINTS are sampled) with gj_profile_estimate
 * (tuned corrections applied, gj_advise's feasibility rules: device memory,
 * sorted_output, sort-only aggregates).
 * [in]  r: the box (not modified); p: the profile.
 * [out] out: filled on GJ_OK and GJ_ERR_INFEASIBLE, zeroed otherwise.
 * Returns GJ_OK, GJ_ERR_INVALID (NULL, lo or hi fails gj_workload_check,
 * lo > hi, a fixed field differs, mid outside the box: ctx names the field
 * and what is allowed), GJ_ERR_INFEASIBLE (no implementation is feasible at
 * any sample point). */
int gj_advise_range(const gj_workload_range *r, const gj_profile *p, gj_range_plan *out,
                    gj_ctx *ctx);

/* A box around a point estimate w, each estimate off by up to `factor`
 * either way (factor >= 1): joins r_rows, s_rows and out_rows (many-to-many)
 * in [x/factor, x*factor], match_ratio in [x/factor, min(1, x*factor)];
 * group-bys rows and groups likewise (groups kept <= rows). Row counts are
 * rounded outwards and kept within 1..2^40 (out_rows 2^44); zipf and every
 * other field stay as in w; mid = w. Returns GJ_OK or GJ_ERR_INVALID (w
 * fails gj_workload_check, factor < 1 or not finite). */
int gj_workload_range_around(const gj_workload *w, double factor, gj_workload_range *out,
                             gj_ctx *ctx);

/* Range plan as JSON: {"op", "profile", "points", "dims", "per_dim",
 * "empty_points", "choice", "choice_regret", "flips", "flip": {"from", "to",
 * "from_at": workload, "to_at": workload} or null, "point": {"impl", "ms"}
 * or null, "implementations": [{"impl", "feasible", "feasible_points",
 * "best_points", "min_ms", "max_ms", "regret" (null if infinite), "why"}]}.
 * [out] *json malloc'd (gj_free). Returns GJ_OK, GJ_ERR_INVALID (NULL),
 * GJ_ERR_NOMEM. */
int gj_range_plan_to_json(const gj_range_plan *plan, char **json);

/* ------------------------------------------------------------------------ */
/* Paper 000 formulas, exactly as printed (model/MODEL.md)                   */
/* ------------------------------------------------------------------------ */

/* M-411-BR: B_G/B_R from the cycle counts of an unclustered and a clustered
 * GATHER of equal instruction count (Table 1): 3 * speedup - 2. */
double gj_m411_bg_over_br(double cycles_unclustered, double cycles_clustered);

/* M-413-CS: sorting N (4-byte key, 4-byte payload) pairs, seconds: 68N/B_G.
 * bg in bytes/s. */
double gj_m413_cs(double n, double bg);
/* M-413-CP: unclustered GATHER with g groups: (4 min(24,g) + 8) N / B_G. */
double gj_m413_cp(double n, double g, double bg);
/* Smallest g (power of two searched from 1) with C_S < C_P: 16 on any GPU
 * with B_G = 24 B_R. ratio = B_G/B_R. */
double gj_m413_group_threshold(double ratio);

/* M-414-C1: unclustered gather of M of N, 4-byte: 104 M / B_G (ratio = 24).
 * General: (2*4 + 4*ratio) M / B_G. */
double gj_m414_c1(double m, double bg, double ratio);
/* M-414-C2: 16-bit partition then clustered gather: (36N + 12M) / B_G. */
double gj_m414_c2(double n, double m, double bg);
/* Match ratio above which GFTR wins for p payload columns, the first one
 * partitioned for free when first_free (p=1 without: 0.39; p=2 with: 0.2).
 * Generalised to key/payload widths kb, pb and passes partition passes. */
double gj_m414_threshold(int p, int first_free, int kb, int pb, int passes, double ratio);

/* M-44-C1, M-44-C2, M-44-D (Sec. 4.4), seconds; bg, bm in bytes/s. */
double gj_m44_c1(double n, int p, int k, double bg);
double gj_m44_c2(double n, double g, int p, int k, double bg, double bm);
double gj_m44_d(double n, double g, int k, double bg, double bm);
/* B_M for a dictionary of g entries of (k+4) bytes: L1 if it fits in
 * l1_bytes, else L2 if it fits in l2_bytes, else global (bw_seq). GB/s. */
double gj_m44_bm(const gj_hw *hw, double g, int k);
/* Smallest p (1..64) with C_2 < C_1, or 0 if none (Table 2). */
int gj_m44_min_payloads(const gj_hw *hw, double n, double g, int k);

/* ------------------------------------------------------------------------ */
/* Store (db/): profiles, calibration samples, execution log in SQLite       */
/* ------------------------------------------------------------------------ */

typedef struct gj_db gj_db;

#define GJ_DB_OPEN_EXISTING 0x0   /* fail with GJ_ERR_NOTFOUND if absent   */
#define GJ_DB_OPEN_CREATE   0x1   /* create the file and folders if absent */
#define GJ_DB_OPEN_READONLY 0x2   /* never write (no migration either)     */

#define GJ_DB_ENV "GJADVISE_DB"   /* overrides the default path            */

/* Default store path: $GJADVISE_DB, else $XDG_DATA_HOME/gjadvise/gjadvise.db,
 * else $HOME/.local/share/gjadvise/gjadvise.db. Returns GJ_OK or
 * GJ_ERR_INVALID (buffer too small or no HOME). */
int gj_db_default_path(char *buf, size_t n);
/* Open (and migrate, unless READONLY) a store. [out] *out, close with
 * gj_db_close. Waits up to 2 s for another process's lock. A read-only
 * file opens without READONLY too (writes then fail with
 * GJ_ERR_DB_READONLY); READONLY on an older schema gives GJ_ERR_DB_VERSION
 * (it would need migrating). Stores refused as newer or corrupt are left
 * untouched. Tables and versions: db/SCHEMA.md.
 * Returns GJ_OK, GJ_ERR_INVALID, GJ_ERR_NOTFOUND, GJ_ERR_DB_LOCKED,
 * GJ_ERR_DB_READONLY, GJ_ERR_DB_CORRUPT, GJ_ERR_DB_VERSION, GJ_ERR_DB,
 * GJ_ERR_NOMEM. */
int gj_db_open(const char *path, int flags, gj_db **out, gj_ctx *ctx);
/* Close; NULL accepted. */
void gj_db_close(gj_db *db);
/* Schema version of an open store. */
int gj_db_schema_version(gj_db *db, int *version);

/* One calibration sample: repeated measurement `run` of parameter `key`. */
typedef struct gj_sample {
    const char *key;
    int run;
    double value;
} gj_sample;

/* Save a profile as the next version of its name (the version is written
 * back into p), with its samples (may be NULL/0), in one transaction:
 * all or nothing. Returns GJ_OK or a GJ_ERR_DB*. */
int gj_db_profile_save(gj_db *db, gj_profile *p, const gj_sample *samples,
                       int n_samples, gj_ctx *ctx);
/* Load a profile by name; version 0 = newest. Built-in names are served
 * from the library when the store has no profile of that name.
 * Returns GJ_OK, GJ_ERR_NOTFOUND, GJ_ERR_DB*. */
int gj_db_profile_load(gj_db *db, const char *name, int version,
                       gj_profile **out, gj_ctx *ctx);
/* Newest profile whose device UUID is uuid (tuned beats calibrated only if
 * newer). Returns GJ_OK or GJ_ERR_NOTFOUND. */
int gj_db_profile_for_device(gj_db *db, const char *uuid, gj_profile **out, gj_ctx *ctx);

typedef struct gj_profile_row {
    char name[64];
    int version;
    char origin[16];
    char created[32];
    char device[96];
    char uuid[48];
    int n_samples;
} gj_profile_row;
/* List every stored version of every profile, newest (last saved) first,
 * then the built-ins whose name no stored profile shadows (origin
 * "builtin", n_samples 0). [out] *rows malloc'd (gj_free), *n.
 * db may be NULL: then only the built-ins are listed.
 * Returns GJ_OK, GJ_ERR_NOMEM, GJ_ERR_DB*. */
int gj_db_profile_list(gj_db *db, gj_profile_row **rows, int *n, gj_ctx *ctx);

/* One execution of one implementation on one workload. */
typedef struct gj_exec_record {
    int64_t id;                 /* assigned by the store                  */
    char ts[32];                /* ISO 8601 UTC; filled by the store if "" */
    char profile[64];
    int profile_version;
    char device_uuid[48];
    gj_workload w;
    gj_impl impl;
    double predicted_ms, measured_ms;
    int n_phases;
    double predicted_phase_ms[GJ_MAX_PHASES];
    double measured_phase_ms[GJ_MAX_PHASES];
    int checked;                /* -1 not checked, 0 wrong, 1 verified    */
    int repeats;                /* runs behind the median                 */
    char tag[64];               /* who ran it: "run", "bench", "validate:GRID";
                                   "" for older rows                       */
} gj_exec_record;

/* Append to the execution log (r->id written back). */
int gj_db_exec_log(gj_db *db, gj_exec_record *r, gj_ctx *ctx);
/* Append n records in one transaction: all or nothing (ids written back). */
int gj_db_exec_log_many(gj_db *db, gj_exec_record *r, int n, gj_ctx *ctx);
/* Read the log, oldest first; device_uuid NULL = every device. [out] *rows
 * malloc'd (gj_free). */
int gj_db_exec_list(gj_db *db, const char *device_uuid, gj_exec_record **rows,
                    int *n, gj_ctx *ctx);

/* Workload <-> JSON (via SQLite's JSON functions). Every field is written
 * (aggs by name, op as "join"/"groupby", doubles as %.17g: exact round
 * trip). Reading: "op" is required, absent fields take gj_workload_default,
 * unknown keys and wrong types give GJ_ERR_PARSE, and the result must pass
 * gj_workload_check (GJ_ERR_INVALID). *json malloc'd (gj_free). */
int gj_workload_to_json(const gj_workload *w, char **json);
int gj_workload_from_json(const char *json, gj_workload *w, gj_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* Learning from executions (tune/): gjadvise tune                          */
/* ------------------------------------------------------------------------ */

/* Which executions to learn from and how hard to trust them. Zeroed = the
 * defaults. */
typedef struct gj_tune_opts {
    const char *device_uuid; /* only this GPU's executions; NULL: every row  */
    const char *tag_prefix;  /* only rows whose tag starts with this; NULL: all */
    double ridge;            /* pull towards the untuned model, >= 0; 0 = 0.05 */
    int min_train;           /* fewer training rows: impl left as it was; 0 = 6 */
} gj_tune_opts;

/* What tuning did to one implementation. Errors are medians of
 * |predicted / measured - 1| over the executions of that side of the split
 * (tune/tune.h, gj_holdout); NaN when the side is empty. */
typedef struct gj_tune_impl {
    gj_impl impl;
    int n_train, n_holdout;
    double train_before, train_after;
    double holdout_before, holdout_after;
    int accepted;                 /* 1: the new fit replaced the old one    */
    char why[120];                /* why not, or what was fitted            */
    gj_fit fit;                   /* the new correction (accepted or not)   */
} gj_tune_impl;

typedef struct gj_tune_report {
    int n_rows;                   /* executions read                         */
    int n_used;                   /* usable (right device, tag, checked != 0, timed) */
    int n_impls;                  /* implementations with usable rows, in impls[] */
    gj_tune_impl impls[GJ_IMPL_COUNT];
    /* medians over every usable held-out (train) execution, old vs new model */
    double holdout_before, holdout_after, train_before, train_after;
    int improved;                 /* 1: the held-out error went down         */
} gj_tune_report;

/* Refit base's model corrections from logged executions: for each
 * implementation, weighted least squares (GSL) of measured ms on the model's
 * raw term times by kind (gj_estimate.term_ms) plus an intercept, relative
 * errors weighted equally, coefficients kept >= 0 and pulled towards 1 by
 * the ridge, fitted on the training side of gj_holdout's split only. A new
 * fit is accepted for an implementation only if it is no worse than base on
 * that implementation's held-out rows (on its training rows when it has no
 * held-out rows). [out] *out: a copy of base (same name, origin "tune",
 * fit_error = new held-out median, notes saying what was learned) with the
 * accepted fits; NULL on error. It is not saved: the caller decides (never
 * save unless rep->improved). Returns GJ_OK, GJ_ERR_INVALID, GJ_ERR_NOTFOUND
 * (no usable execution), GJ_ERR_NOMEM. */
int gj_tune(const gj_profile *base, const gj_exec_record *rows, int n, const gj_tune_opts *opts,
            gj_profile **out, gj_tune_report *rep, gj_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* GPU execution (operators/, calibrate/)                                   */
/* ------------------------------------------------------------------------ */

/* Number of usable CUDA devices in *n (0 without GPU or driver).
 * Returns GJ_OK or GJ_ERR_NODEVICE (no driver / no device; message in ctx). */
int gj_gpu_count(int *n, gj_ctx *ctx);
/* Identity of device `ordinal`. Returns GJ_OK, GJ_ERR_NODEVICE, GJ_ERR_CUDA. */
int gj_gpu_identify(int ordinal, gj_device *out, gj_ctx *ctx);

/* Element type of a column. Keys are always integers (compared as unsigned
 * bit patterns); payloads may be signed integers or IEEE floats. */
typedef enum gj_dtype { GJ_DT_INT = 0, GJ_DT_FLOAT = 1 } gj_dtype;

/* A device column: `data` points to rows * width bytes in device memory. */
typedef struct gj_column {
    void *data;
    int width;          /* 4 or 8                                           */
    gj_dtype type;      /* GJ_DT_INT (zero-initialised default) or FLOAT    */
} gj_column;

/* A relation in device memory: a key column and payload columns. */
typedef struct gj_dtable {
    uint64_t rows;
    gj_column key;
    int n_payloads;
    gj_column payload[GJ_MAX_PAYLOADS];
} gj_dtable;

/* Measured times of one execution (CUDA events), by the same phases as the
 * model's gj_estimate. */
typedef struct gj_timing {
    int n_phases;
    char name[GJ_MAX_PHASES][16];
    double ms[GJ_MAX_PHASES];
    double total_ms;
    uint64_t peak_bytes;        /* most device memory the operator held at once,
                                   its output included, its inputs not */
    int filtered;               /* joins: 1 if the semi-join filter cut the
                                   sides first (its time is in transform) */
    uint64_t cut_r_rows, cut_s_rows; /* ... to this many rows           */
} gj_timing;

/* ------------------------------------------------------------------------ */
/* Joins on the GPU (operators/join_*.cu, join_ref.c)                       */
/* ------------------------------------------------------------------------ */
/* R is the build side, S the probe side; inner equi-join on the key column.
 * Keys of both sides must have the same width (4 or 8 bytes, compared as
 * unsigned integers). Payload columns: 0..GJ_MAX_PAYLOADS per side, each 4
 * or 8 bytes. Rows per side at most 2^32 - 1. Output: the key, R's payload
 * columns and S's, in no particular row order; many-to-many joins give every
 * matching pair (exact size, allocated once). */

/* Output of a join (device or host memory, as the producing call says). */
typedef struct gj_join_out {
    uint64_t rows;
    gj_column key;                    /* the join key, R's key width        */
    int r_payloads, s_payloads;
    gj_column r[GJ_MAX_PAYLOADS];     /* R's payload columns, in R's order  */
    gj_column s[GJ_MAX_PAYLOADS];     /* S's payload columns                */
} gj_join_out;

/* Free a device join output (cudaFree) and zero it; NULL accepted. */
void gj_join_out_free(gj_join_out *o);
/* Copy a device join output to host memory ([out] h, malloc'd columns, free
 * with gj_join_out_free_host). Synchronises. GJ_OK, GJ_ERR_NOMEM, GJ_ERR_CUDA. */
int gj_join_out_download(const gj_join_out *d, gj_join_out *h, gj_ctx *ctx);
/* Free a host join output; NULL accepted. */
void gj_join_out_free_host(gj_join_out *h);

/* Run one join implementation (PHJ-UR, PHJ-TR, SMJ-UR, SMJ-TR or NPHJ).
 * [in]  impl, r, s: device tables (not modified; NULL data allowed when
 *       rows = 0). stream: a cudaStream_t, NULL for the default stream.
 * [out] out: device columns allocated by the library (stream-ordered
 *       cudaMallocAsync from the default pool, whose release threshold the
 *       call raises so repeated runs reuse memory); the caller frees them
 *       with gj_join_out_free. Zero-filled on error.
 * [out] timing (may be NULL): phases "transform", "match", "materialize"
 *       (CUDA events), total, and peak device bytes the call held including
 *       the output. As in paper 000 Sec. 5.1.2, GFTR partitions the key with
 *       the first payload column in transform and the other payload columns
 *       in materialize. match = work split + COUNT pass + output allocation;
 *       materialize = WRITE pass (output key and payloads written straight
 *       from the probe). See operators/JOIN.md.
 * Synchronises the stream (the output size is read on the host).
 * Returns GJ_OK, GJ_ERR_INVALID (mismatched widths, impl not a join, too many
 * rows), GJ_ERR_INFEASIBLE (device memory exhausted), GJ_ERR_CUDA,
 * GJ_ERR_NODEVICE. */
int gj_join_exec(gj_impl impl, const gj_dtable *r, const gj_dtable *s, void *stream,
                 gj_join_out *out, gj_timing *timing, gj_ctx *ctx);

/* gj_join_exec with the workload's statistics as hints (w NULL: none, which
 * is gj_join_exec): the expected output rows (gj_workload_out_rows) let an
 * implementation skip a path it would otherwise try and abandon (PHJ's
 * sparse probe of a small build side, operators/JOIN.md), and w->filter,
 * the match ratio and the sides' order whether the semi-join filter runs
 * first (AUTO: a rule; gj_join_filter_plan with a profile gives the
 * model's choice to pass as ON or OFF). A wrong hint costs time, never a
 * wrong result. */
int gj_join_exec_w(gj_impl impl, const gj_workload *w, const gj_dtable *r, const gj_dtable *s,
                   void *stream, gj_join_out *out, gj_timing *timing, gj_ctx *ctx);

/* Ask the advisor (gj_advise with profile p) which join to run, then run it.
 * [in]  w: the workload as the optimizer sees it (match ratio, skew); NULL
 *       derives one from the tables (match ratio 1, no skew).
 * [out] plan (may be NULL): the advisor's answer; out, timing as gj_join_exec.
 * Returns gj_advise's and gj_join_exec's codes. Synchronises. */
int gj_join_auto(const gj_workload *w, const gj_profile *p, const gj_dtable *r,
                 const gj_dtable *s, void *stream, gj_plan *plan, gj_join_out *out,
                 gj_timing *timing, gj_ctx *ctx);

/* Generate a join workload on the GPU as paper 000 Sec. 5.1.1 / 5.1.6 do:
 * R keys a shuffled 0..|R|-1 with a fraction 1 - match_ratio replaced by
 * non-matching keys, S keys uniform (or Zipf with w->zipf) over 0..|R|-1,
 * payloads random integers. Many-to-many (w->out_rows > 0): both sides
 * uniform over a domain of |R||S|/out_rows keys (output size as expected,
 * not exact). w->s_run > 1: S's keys in runs of round(s_run) equal keys
 * (each run one draw). key_offset is added to every key (8-byte keys with high bits).
 * w->r_sorted, w->s_sorted: that side's keys in ascending order (at most 2^31-1 rows).
 * [out] r, s: device tables, free with gj_dtable_free. Synchronises.
 * Returns GJ_OK, GJ_ERR_INVALID, GJ_ERR_INFEASIBLE, GJ_ERR_CUDA. */
int gj_join_generate(const gj_workload *w, uint64_t seed, uint64_t key_offset,
                     gj_dtable *r, gj_dtable *s, gj_ctx *ctx);

/* Free the device columns of t (cudaFree) and zero it; NULL accepted. */
void gj_dtable_free(gj_dtable *t);

/* Copy a device table to host memory. [out] h: same shape, data malloc'd,
 * free with gj_htable_free. Synchronises. Returns GJ_OK, GJ_ERR_NOMEM,
 * GJ_ERR_CUDA. */
int gj_dtable_download(const gj_dtable *d, gj_dtable *h, gj_ctx *ctx);
/* Free a host table from gj_dtable_download; NULL accepted. */
void gj_htable_free(gj_dtable *h);

/* CPU reference join of host tables (sort both sides, merge, cross product
 * of equal-key runs), rows in canonical order (ascending by key, then the
 * payload bit patterns). [out] out: host columns, free with
 * gj_join_out_free_host. Returns GJ_OK, GJ_ERR_INVALID, GJ_ERR_NOMEM. */
int gj_join_reference(const gj_dtable *r, const gj_dtable *s, gj_join_out *out, gj_ctx *ctx);

/* Compare two host join outputs as multisets of rows (sorted copies are
 * compared; a and b are not modified). [out] *equal 1 or 0; when 0, ctx
 * says where they first differ. Returns GJ_OK, GJ_ERR_INVALID (shapes
 * differ), GJ_ERR_NOMEM. */
int gj_join_compare(const gj_join_out *a, const gj_join_out *b, int *equal, gj_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* Calibration (calibrate/): measure the local GPU's parameters             */
/* ------------------------------------------------------------------------ */

/* One measured parameter. Every measurement is warmed up, repeated `reps`
 * times and summarised with GSL: value = median, spread = interquartile
 * range / median. A spread above the limit is measured once more (rerun = 1)
 * and the repetition set with the smaller spread kept; wide = 1 when even
 * that one is above the limit. Device-structure parameters (sm_count, ...)
 * are queried, not timed: reps = 0, spread = 0. */
typedef struct gj_calib_item {
    const char *key;     /* parameter key (static string of the table)      */
    double value;        /* median, in the parameter's unit                 */
    double spread;       /* (Q3 - Q1) / median of the kept repetitions      */
    int reps;            /* repetitions behind the median                   */
    int rerun;           /* 1: the first spread exceeded the limit          */
    int wide;            /* 1: still above the limit after the re-run       */
    double seconds;      /* wall time spent measuring it                    */
} gj_calib_item;

/* Called after each measurement (index in [0, total)); may be NULL. */
typedef void (*gj_calib_progress_fn)(void *user, int index, int total, const gj_calib_item *item);

typedef struct gj_calib_opts {
    int device;                  /* CUDA ordinal, >= 0                       */
    int quick;                   /* 1: smaller inputs, fewer repetitions     */
    double spread_limit;         /* re-run above this; 0 = 0.05 (5%)         */
    const char *name;            /* profile name; NULL = from the device name
                                    ("NVIDIA H200" -> "h200")                */
    gj_calib_progress_fn progress;
    void *user;
} gj_calib_opts;

#define GJ_CALIB_MAX_ITEMS 64

/* What a calibration measured, for tables and the store. */
typedef struct gj_calib_report {
    int n_items;
    gj_calib_item items[GJ_CALIB_MAX_ITEMS];
    int n_samples;
    gj_sample *samples;   /* every repetition of every timed parameter (re-runs
                             included, run numbers continuing); keys static */
    double wall_s;        /* whole calibration, device set-up included      */
    int quick;
} gj_calib_report;

/* Measure every gj_hw parameter on device opts->device and return a new
 * profile (origin "calibrate", every parameter GJ_SRC_MEASURED with its
 * spread, the device identity, version 1: the store assigns the real one)
 * and the report. Nothing is written anywhere: save with gj_db_profile_save
 * (p, report->samples, report->n_samples). Sizes adapt to free device
 * memory. Synchronises the device; leaves no device memory allocated.
 * [out] *out (gj_profile_free) and *report (gj_calibrate_report_free); both
 * NULL on error. Returns GJ_OK, GJ_ERR_INVALID (opts), GJ_ERR_NODEVICE (no
 * GPU or driver), GJ_ERR_CUDA (a CUDA failure or a benchmark whose output
 * failed its check), GJ_ERR_INFEASIBLE (device memory), GJ_ERR_NOMEM. */
int gj_calibrate_run(const gj_calib_opts *opts, gj_profile **out, gj_calib_report **report,
                     gj_ctx *ctx);
/* Free a report; NULL accepted. */
void gj_calibrate_report_free(gj_calib_report *r);
/* JSON of a calibration: {"profile": <gj_profile_to_json>, "wall_s": ..,
 * "quick": .., "measurements": [{"key", "value", "unit", "spread", "reps",
 * "rerun", "wide", "seconds"}...]}. [out] *json malloc'd (gj_free).
 * Returns GJ_OK, GJ_ERR_INVALID (NULL), GJ_ERR_NOMEM. */
int gj_calibrate_report_json(const gj_calib_report *r, const gj_profile *p, char **json);

/* ------------------------------------------------------------------------ */
/* Group-by operators (operators/groupby_*.cu)                              */
/* ------------------------------------------------------------------------ */

/* Result of a group-by, in device memory owned by the struct (free with
 * gj_groupby_out_free). Rows: `groups`; key has the input key's width;
 * agg[i] (for aggregate i of the workload): SUM 8 bytes (int64 for integer
 * payloads, wrapping; double for floats), MIN/MAX the payload's width and
 * type, COUNT and COUNT_DISTINCT uint64, AVG and MEDIAN double. Ordered by
 * key (unsigned) when the workload asked for sorted_output, else in an
 * implementation-defined order. */
typedef struct gj_groupby_out {
    uint64_t groups;
    gj_column key;
    int n_aggs;
    gj_column agg[GJ_MAX_AGGS];
} gj_groupby_out;

/* 1 if implementation impl computes aggregate a, else 0. COUNT_DISTINCT and
 * MEDIAN need the sort-based implementations (SGB-UR, SGB-TR, SGB-DE-TR);
 * the others compute SUM, MIN, MAX, COUNT, AVG. */
int gj_groupby_supports(gj_impl impl, gj_agg a);

/* Run group-by implementation impl (HGB ... HASH-GLOBAL) on the device
 * table in: aggregate i of w (w->aggs[i], i < w->n_aggs) reads payload
 * column i (COUNT reads none). Uses from w: n_aggs, aggs, sorted_output and
 * groups, which only sizes hash tables and partitions (a wrong value costs
 * time, never correctness: tables grow and the run repeats). in->rows must
 * be < 2^31; keys 4 or 8 bytes; payloads 4 or 8 bytes, int or float.
 * stream: a cudaStream_t (NULL: the default stream). The call synchronises
 * the stream (it reads group counts back). [out] *out: device columns,
 * owned by the caller (gj_groupby_out_free); zeroed on error. [out] *t
 * (may be NULL): CUDA-event times of the phases "group" and "aggregate"
 * (what each implementation counts where: operators/groupby_api.cu) and the
 * operator's peak device memory. Returns GJ_OK, GJ_ERR_INVALID (NULL,
 * widths, impl of the join family, aggregate without payload),
 * GJ_ERR_UNSUPPORTED (aggregate the implementation lacks, rows >= 2^31),
 * GJ_ERR_INFEASIBLE (device memory), GJ_ERR_CUDA. */
int gj_groupby_execute(gj_impl impl, const gj_dtable *in, const gj_workload *w, void *stream,
                       gj_groupby_out *out, gj_timing *t, gj_ctx *ctx);
/* Free the device columns of a result and zero it; NULL accepted. */
void gj_groupby_out_free(gj_groupby_out *out);

/* Generate a group-by input on the GPU as paper 000 Sec. 5.2.1 does (and
 * `gjadvise run groupby`): w->rows keys uniform over 0..w->groups-1, or Zipf
 * over w->groups ranks with w->zipf > 0 (operators/gen.h), and one payload
 * column per aggregate (w->n_aggs columns of w->payload_bytes: random
 * integers, or finite floats in [-1e3, 1e3] with float_payloads).
 * Deterministic per seed. [out] out: device table, free with
 * gj_dtable_free; zeroed on error. Synchronises the device.
 * Returns GJ_OK, GJ_ERR_INVALID (NULL, a join workload, bad workload, rows
 * >= 2^31), GJ_ERR_INFEASIBLE (device memory), GJ_ERR_CUDA. */
int gj_groupby_generate(const gj_workload *w, uint64_t seed, int float_payloads, gj_dtable *out,
                        gj_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif /* GJADVISE_H */
