/* Internal interface of validate/ (`gjadvise validate`): a grid of join and
 * group-by workloads, the runner that measures every feasible implementation
 * on each and logs it in the store, the summary (prediction errors, advisor
 * regret, crossovers) computed from logged executions for any profile, and
 * the HTML/SVG report. Grid file format and definitions: validate/VALIDATE.md. */
#ifndef GJ_VALIDATE_VALIDATE_H
#define GJ_VALIDATE_VALIDATE_H

#include "gjadvise.h"
#include <stdio.h>

/* Swept parameters (VALIDATE.md says what each sets). */
typedef enum gj_vparam {
    GJ_VP_MATCH_RATIO = 0, GJ_VP_R_ROWS, GJ_VP_S_ROWS, GJ_VP_PAYLOADS, GJ_VP_KEY_BYTES,
    GJ_VP_PAYLOAD_BYTES, GJ_VP_ZIPF, GJ_VP_GROUPS, GJ_VP_AGGS, GJ_VP_ROWS,
    GJ_VP_COUNT
} gj_vparam;

/* "match_ratio", ...; NULL out of range. */
const char *gj_vparam_name(gj_vparam p);
/* 1 for parameters drawn on a log2 axis (row and group counts). */
int gj_vparam_log(gj_vparam p);

#define GJ_GRID_MAX_SWEEPS 64
#define GJ_GRID_MAX_VALUES 64

typedef struct gj_sweep {
    char name[48];
    gj_workload base;
    gj_vparam param;
    int n_values;
    double values[GJ_GRID_MAX_VALUES];
} gj_sweep;

/* One workload of the grid: value `index` of sweep `sweep`. */
typedef struct gj_vpoint {
    int sweep, index;
    double x;
    gj_workload w;
} gj_vpoint;

typedef struct gj_grid {
    char name[48];          /* "default", "quick", or the file's base name  */
    char tag[64];           /* "validate:<name>": exec_log tag               */
    int n_sweeps;
    gj_sweep sweeps[GJ_GRID_MAX_SWEEPS];
    int n_points;
    gj_vpoint *points;      /* in sweep order, then value order             */
} gj_grid;

/* Parse a grid from JSON text (VALIDATE.md) through SQLite's JSON functions.
 * name: the grid's name (1..40 chars), used for the tag. [out] *out, free
 * with gj_grid_free. Returns GJ_OK, GJ_ERR_PARSE (malformed JSON, unknown
 * key, wrong type) or GJ_ERR_INVALID (a value out of range, a point that
 * fails gj_workload_check), the message naming the sweep and field;
 * GJ_ERR_NOMEM. */
int gj_grid_parse(const char *json, const char *name, gj_grid **out, gj_ctx *ctx);
/* "default" and "quick" are compiled in; anything else is a file path whose
 * base name (without .json) names the grid. GJ_ERR_IO when unreadable. */
int gj_grid_load(const char *name_or_path, gj_grid **out, gj_ctx *ctx);
/* The compiled-in grids' JSON text (static), NULL for other names. */
const char *gj_grid_builtin_json(const char *name);
void gj_grid_free(gj_grid *g);

/* ---- running ------------------------------------------------------------ */

/* Progress of a run, given to the callback before each implementation and
 * after each point. */
typedef struct gj_vprogress {
    int done, total;        /* points finished (resumed ones included)      */
    int point;              /* index of the point in flight, -1 after one    */
    const char *impl;       /* implementation running, NULL between         */
    double elapsed_s;       /* since the run started                        */
    double left_s;          /* estimate from this run's seconds per point; <0 unknown */
    const char *line;       /* after a point: one-line summary, else NULL   */
} gj_vprogress;

typedef struct gj_validate_opts {
    int repeat;                 /* timed runs after one warm-up; 0 = 7     */
    uint64_t seed;              /* input generation; 0 = 42                */
    int (*should_stop)(void *user);   /* nonzero: abandon the point in flight
                                         unwritten and return; may be NULL  */
    void (*progress)(void *user, const gj_vprogress *p);   /* may be NULL   */
    void *user;
} gj_validate_opts;

typedef struct gj_vrun {
    int n_points, n_resumed, n_measured;  /* measured = written this run    */
    int n_execs;                          /* executions logged this run     */
    int interrupted;                      /* should_stop said so             */
    int n_skips;                          /* implementations not run        */
    char skips[256][160];                 /* "point: IMPL: why", first 256  */
} gj_vrun;

/* 1 if records (already filtered to this grid's tag and device) hold an
 * execution of point p's workload. Points are written all or nothing
 * (gj_db_exec_log_many), so one execution means the whole point. */
int gj_validate_point_done(const gj_vpoint *p, const gj_exec_record *recs, int n);

/* Measure every point of g not already in db (tag g->tag, the local GPU's
 * UUID) on device 0: inputs generated once per point, every implementation
 * of the operator that the profile's model calls feasible, one warm-up and
 * opts->repeat timed runs, median total and phases (CUDA events), all of a
 * point's executions logged in one transaction. Implementations that return
 * GJ_ERR_INFEASIBLE / UNSUPPORTED (or that the model calls infeasible) are
 * skipped with the reason in run->skips. Returns GJ_OK (run->interrupted
 * says whether it stopped early), GJ_ERR_NODEVICE, GJ_ERR_CUDA, GJ_ERR_DB*,
 * GJ_ERR_NOMEM. */
int gj_validate_run(const gj_grid *g, const gj_profile *p, gj_db *db, const gj_validate_opts *opts,
                    gj_vrun *run, gj_ctx *ctx);

/* ---- summary ------------------------------------------------------------ */

/* What is known about one point: measurements from the store, predictions
 * and the advisor's choice recomputed with a profile. */
typedef struct gj_vresult {
    int holdout;                         /* gj_holdout(w)                    */
    int n_measured;
    double measured[GJ_IMPL_COUNT];      /* median ms; NAN: not measured     */
    double predicted[GJ_IMPL_COUNT];     /* NAN: not of this op / infeasible */
    int choice;                          /* gj_advise's best, -1: none       */
    int best;                            /* fastest measured, -1: none       */
    double regret;                       /* measured[choice]/measured[best]-1;
                                            NAN when either is missing       */
} gj_vresult;

/* Fill res[g->n_points] from execution records: those with tag g->tag and
 * (device_uuid non-NULL) that device, the newest per (workload, impl).
 * Predictions and choices with profile p. Returns GJ_OK, GJ_ERR_INVALID,
 * GJ_ERR_NOMEM. */
int gj_validate_collect(const gj_grid *g, const gj_exec_record *recs, int n, const char *device_uuid,
                        const gj_profile *p, gj_vresult *res, gj_ctx *ctx);

typedef struct gj_verr {
    int n;                  /* points with a measurement and a prediction  */
    double med, max;        /* of |predicted/measured - 1|; NAN when n = 0 */
    int n_ho;               /* the same over held-out points only          */
    double med_ho, max_ho;
} gj_verr;

/* Crossover states. */
enum { GJ_VX_NODATA = 0, GJ_VX_FOUND, GJ_VX_BELOW, GJ_VX_NEVER };

/* Where `challenger` overtakes `incumbent` along one sweep: the first pair
 * of neighbouring values where challenger - incumbent goes from >= 0 to < 0,
 * interpolated linearly in the sweep's axis (log2 of the value for row and
 * group counts). BELOW: challenger already faster at the first value (and no
 * later crossing); NEVER: never faster. */
typedef struct gj_vcross {
    int sweep;
    gj_impl challenger, incumbent;
    int meas_state, pred_state;
    double meas_at, pred_at;
} gj_vcross;

#define GJ_VAL_MAX_CROSS 128

typedef struct gj_vsummary {
    int holdout_only;            /* errors and regret over held-out points  */
    int n_points, n_used;        /* grid points; selected with a measurement */
    gj_verr err[GJ_IMPL_COUNT];
    int n_regret;                /* points with a defined regret            */
    double regret_mean, regret_max;   /* NAN when n_regret = 0              */
    int worst;                   /* point of regret_max, -1 none             */
    int n_cross;
    gj_vcross cross[GJ_VAL_MAX_CROSS];
} gj_vsummary;

/* Compute the summary of res (from gj_validate_collect). holdout_only: only
 * held-out points count for errors and regret (crossovers use every point).
 * Returns GJ_OK, GJ_ERR_INVALID, GJ_ERR_NOMEM. */
int gj_validate_summarize(const gj_grid *g, const gj_vresult *res, int holdout_only, gj_vsummary *s,
                          gj_ctx *ctx);

/* Label of a point: "match_ratio=0.3", "groups=2^12". buf >= 32 bytes. */
void gj_vpoint_label(const gj_grid *g, int point, char *buf, size_t n);

/* JSON of a summary (with per-point regrets). *json malloc'd (gj_free). */
int gj_validate_summary_json(const gj_grid *g, const gj_vresult *res, const gj_vsummary *s,
                             const gj_profile *p, const char *device_uuid, char **json);
/* Tables for people. */
void gj_validate_summary_print(FILE *f, const gj_grid *g, const gj_vresult *res, const gj_vsummary *s);

/* Write dir/index.html (inline SVG: one chart per sweep, measured solid vs
 * predicted dashed per implementation; regret table per point; error table)
 * and dir/points.csv; creates dir. Returns GJ_OK, GJ_ERR_IO, GJ_ERR_NOMEM. */
int gj_validate_report(const char *dir, const gj_grid *g, const gj_vresult *res, const gj_vsummary *s,
                       const gj_profile *p, const char *device_uuid, gj_ctx *ctx);

#endif
