/* Shared pieces of the gjadvise command line: exit codes, value parsing,
 * error lines, opening the store and choosing a profile. */
#ifndef GJ_CLI_H
#define GJ_CLI_H

#include "gjadvise.h"
#include <stdint.h>
#include <stdio.h>

/* Exit codes (documented in README and `gjadvise --help`). */
enum {
    GJ_EXIT_OK = 0,
    GJ_EXIT_FAIL = 1,       /* unexpected failure (CUDA error, out of memory)   */
    GJ_EXIT_USAGE = 2,      /* bad flag or value                                */
    GJ_EXIT_NODEVICE = 3,   /* no GPU or no driver                              */
    GJ_EXIT_STORE = 4,      /* store missing, locked, read-only, corrupt        */
    GJ_EXIT_INPUT = 5,      /* input file missing or malformed                  */
    GJ_EXIT_INFEASIBLE = 6, /* no implementation fits (device memory, aggregates) */
    GJ_EXIT_CHECK = 7       /* --check found a wrong result                     */
};

/* A subcommand: argv[0] is the subcommand name. Returns an exit code. */
typedef int (*gj_cli_fn)(int argc, char **argv);

/* Sizes: "134217728", "2^27", "128M" (K, M, G, T are powers of 1024), "1e6".
 * Returns 0 on success, -1 if malformed or above max. */
int gj_cli_parse_size(const char *s, uint64_t max, uint64_t *out);
/* Finite double, whole string. 0 / -1. */
int gj_cli_parse_double(const char *s, double *out);
/* Integer in [lo, hi], whole string. 0 / -1. */
int gj_cli_parse_int(const char *s, long lo, long hi, long *out);

/* Which join sides a workload says are in key order: "R and S", "R", "S",
 * or NULL for neither (r_sorted, s_sorted). */
const char *gj_cli_sorted_sides(const gj_workload *w);
/* A group-by's groups beyond what its told span (key_range) can form: a
 * note on stderr (the statistics are taken as told: a span told too small
 * still groups right, only slower). */
void gj_cli_note_span(const char *cmd, const gj_workload *w);
/* A key or payload width: 4 or 8 into *out, 0; else the flag's error line
 * and GJ_EXIT_USAGE. */
int gj_cli_parse_width(const char *cmd, const char *flag, const char *v, int *out);
/* --impls of an operator: "all" (its implementations in order) or a comma
 * list of its names into impls[0..*n), 0; else the error line and
 * GJ_EXIT_USAGE. impls holds GJ_IMPL_COUNT. */
int gj_cli_parse_impls(const char *cmd, const char *v, gj_op op, int *impls, int *n);
/* Print "gjadvise <cmd>: --flag=value: allowed ..." and return GJ_EXIT_USAGE. */
int gj_cli_bad(const char *cmd, const char *flag, const char *value, const char *allowed);
/* Print "gjadvise <cmd>: <what>: <library message or errstr>" and map the
 * status to an exit code. */
int gj_cli_fail(const char *cmd, int status, gj_ctx *ctx, const char *what);
/* Exit code for a library status. */
int gj_cli_exit_for(int status);

/* Resolve the store path: --db value, else GJADVISE_DB, else the XDG default. */
int gj_cli_db_path(const char *flag_value, char *buf, size_t n);
/* Open the store. With must_exist and no file, return GJ_ERR_NOTFOUND
 * quietly (*db NULL) so read-only commands can fall back to built-ins. */
int gj_cli_open_db(const char *cmd, const char *flag_value, int flags, gj_db **db, int *exit_code);

/* Choose the profile: --profile NAME (store, then built-ins), else the
 * newest profile of the local GPU in the store, else the first built-in.
 * `note` says which and why. Returns an exit code (0 = ok). */
int gj_cli_pick_profile(const char *cmd, const char *db_flag, const char *name,
                        gj_profile **out, char *note, size_t note_n);

/* Parse the workload flags of `recommend` (see its --help) into w, starting
 * from the paper's defaults for --op. profile/db/json may be NULL to reject
 * those flags. Returns 0, -1 for --help, or an exit code. */
int gj_cli_parse_workload(const char *cmd, int argc, char **argv, gj_workload *w,
                          const char **profile, const char **db, int *json);
/* Parse "max,sum,count-distinct" into w->aggs. 0 or GJ_EXIT_USAGE. */
int gj_cli_parse_aggs(const char *cmd, const char *list, gj_workload *w);

/* For run/bench: require a GPU (exit 3), open the store for the execution
 * log unless no_log (a note when it cannot), pick the profile. Returns an
 * exit code; *db may be NULL afterwards. */
int gj_cli_exec_setup(const char *cmd, const char *db_flag, const char *profile, int no_log,
                      gj_profile **prof, gj_db **db, char *note, size_t note_n);
/* Append one measured execution to the store's log (db NULL: nothing). */
void gj_cli_log_exec(gj_db *db, const gj_profile *p, const gj_workload *w, gj_impl impl,
                     const gj_estimate *est, double ms, const double *phase_ms, int n_phases,
                     int checked, int repeats, const char *tag);

/* Subcommands. */
int gj_cli_recommend(int argc, char **argv);
int gj_cli_model(int argc, char **argv);
int gj_cli_tune(int argc, char **argv);
int gj_cli_profiles(int argc, char **argv);
int gj_cli_run(int argc, char **argv);    /* cli/run.c: dispatches on OP */
int gj_cli_bench(int argc, char **argv);
int gj_cli_calibrate(int argc, char **argv); /* cli/calibrate.c */
int gj_cli_explain(int argc, char **argv);   /* cli/explain.c */
int gj_cli_run_groupby(int argc, char **argv);   /* cli/run_groupby.c */
int gj_cli_bench_groupby(int argc, char **argv);
int gj_cli_run_join(int argc, char **argv);      /* cli/run_join.c */
int gj_cli_bench_join(int argc, char **argv);

#endif
