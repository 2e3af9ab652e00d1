/* DuckDB plans annotated with GPU implementations (gjadvise explain).
 *
 * Reads the JSON that DuckDB (>= 1.1) prints for EXPLAIN (FORMAT JSON): an
 * array of operator trees whose nodes carry "name", "children" and an
 * "extra_info" object ("Estimated Cardinality", "Join Type", "Conditions",
 * "Groups", "Aggregates", "Projections", ...). Parsing goes through SQLite's
 * json_tree; no home-made parser.
 *
 * Which nodes are annotated, and how a node becomes a gj_workload
 * (README, "For query optimizers", shows the result):
 *   HASH_JOIN: a join. Build side (R) = DuckDB's right child (children[1]),
 *     probe side (S) = the left child (children[0]); r_rows/s_rows are the
 *     children's estimated cardinalities, the node's own estimate is the
 *     output: match_ratio = min(1, out / s_rows), many-to-many (out_rows)
 *     when out > s_rows. Every join type DuckDB runs as a hash join is
 *     covered (INNER, LEFT, RIGHT, OUTER, SEMI, ANTI, MARK, SINGLE,
 *     RIGHT_SEMI, RIGHT_ANTI). Key: 4 bytes for one equality condition, 8
 *     for a composite key (more than one; packed). Payload columns: the
 *     columns each side carries minus its key columns, clamped to 0..8;
 *     SEMI/ANTI/MARK output no build columns (r_payloads 0), RIGHT_SEMI/
 *     RIGHT_ANTI no probe columns. A DUMMY_SCAN build side inside a delim
 *     join stands for the delim join's first child.
 *   HASH_GROUP_BY, PERFECT_HASH_GROUP_BY: a group-by of the child's rows
 *     into the node's estimate of groups (clamped to 1..rows; a perfect hash
 *     group-by has no estimate: at most 2^12 groups, DuckDB's
 *     perfect_ht_threshold). Aggregates: sum/sum_no_overflow/fsum -> sum,
 *     min, max, count/count_star -> count, avg/mean -> avg,
 *     count(DISTINCT ...) and other DISTINCT aggregates -> count-distinct,
 *     median/quantile* -> median, others -> a note and sum.
 *   LEFT_DELIM_JOIN, RIGHT_DELIM_JOIN, DELIM_JOIN: the duplicate
 *     elimination DuckDB runs as a hash aggregate: a group-by (DISTINCT, one
 *     count) of the first child's rows into the matching DELIM_SCAN's
 *     estimate of groups. The join itself is the HASH_JOIN below it.
 *   Everything else (NESTED_LOOP_JOIN, PIECEWISE_MERGE_JOIN, scans,
 *   UNGROUPED_AGGREGATE, unknown names) is passed through unannotated.
 * Columns a node carries: SEQ_SCAN/PROJECTION: its "Projections"; joins:
 * both sides (per join type); group-bys: groups + aggregates; filters,
 * sorts and the like: their child's.
 */
#ifndef GJ_EXPLAIN_H
#define GJ_EXPLAIN_H

#include "common/internal.h"

typedef enum gj_explain_kind {
    GJ_EXPLAIN_NONE = 0,    /* passed through                                */
    GJ_EXPLAIN_JOIN = 1,    /* a hash join                                   */
    GJ_EXPLAIN_GROUPBY = 2  /* a hash group-by or a delim join's DISTINCT    */
} gj_explain_kind;

typedef struct gj_explain_opts {
    double uncertainty;  /* estimates may be off by this factor either way
                            (>= 1); 1: no range; 0 = the default 4          */
    int payload_bytes;   /* width of every payload column, 4 or 8; 0 = 8
                            (DuckDB's BIGINT, DOUBLE, DECIMAL(15,2), dates
                            padded, string heads: mostly 8 bytes)           */
} gj_explain_opts;

#define GJ_EXPLAIN_DEFAULT_UNCERTAINTY 4.0

/* One operator of the plan, in pre-order. */
typedef struct gj_explain_node {
    char *path;            /* "plan[0].children[1]"                          */
    char *name;            /* operator name, trailing blanks removed         */
    char *detail;          /* one line: join type and conditions, or groups
                              and aggregates; "" if none                     */
    int depth;             /* 0 for a root                                   */
    int parent;            /* index in nodes, -1 for a root                  */
    int first_child, next_sibling;   /* indexes, -1 if none                  */
    int has_card;          /* 1: the node has "Estimated Cardinality"        */
    double card;
    gj_explain_kind kind;
    gj_workload w;         /* annotated nodes: the workload modelled         */
    int rc;                /* gj_advise: GJ_OK or GJ_ERR_INFEASIBLE          */
    gj_plan plan;          /* annotated nodes: gj_advise's answer            */
    int range_rc;          /* gj_advise_range: GJ_OK, GJ_ERR_INFEASIBLE;
                              -1 when no range was asked (uncertainty 1)     */
    gj_range_plan range;
    char note[512];        /* how the mapping was made where it guessed      */
} gj_explain_node;

typedef struct gj_explain {
    int n;                 /* operators                                      */
    gj_explain_node *nodes;
    int n_roots;
    int n_joins, n_groupbys;  /* annotated nodes of each kind                */
    char profile[64];
    double uncertainty;
    int payload_bytes;
} gj_explain;

/* Parse a DuckDB plan and annotate it with profile p.
 * [out] *out: free with gj_explain_free; NULL on error.
 * Returns GJ_OK, GJ_ERR_PARSE (not JSON, not a DuckDB plan, a node without
 * "name", a bad cardinality, a join without two children, ...: ctx names
 * the node by its path and name and says what was expected),
 * GJ_ERR_INVALID (NULL, bad options), GJ_ERR_NOMEM. */
int gj_explain_plan(const char *json, const gj_profile *p, const gj_explain_opts *opts,
                    gj_explain **out, gj_ctx *ctx);
void gj_explain_free(gj_explain *e);

/* The annotated plan for people (indented tree) and for machines (the same
 * tree as JSON: {"profile", "uncertainty", "payload_bytes", "hash_joins",
 * "hash_group_bys", "plan": [node]}, node = {"name", "path",
 * "estimated_cardinality" (number or null), "detail", "gpu": null or
 * {"op", "workload", "recommended", "ms", "runner_up", "ranking", "range",
 * "note"}, "children": [node]}). *text / *json malloc'd (gj_free).
 * Returns GJ_OK, GJ_ERR_INVALID (NULL), GJ_ERR_NOMEM. */
int gj_explain_text(const gj_explain *e, char **text);
int gj_explain_json(const gj_explain *e, char **json);

#endif
