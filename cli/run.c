/* `gjadvise run OP` and `gjadvise bench OP`: dispatch to the operator's
 * command (cli/run_join.c, cli/run_groupby.c). */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *op;
    gj_cli_fn run, bench;
} op_entry;

/* One row per operator family built into this binary. */
static const op_entry ops[] = {
    {"groupby", gj_cli_run_groupby, gj_cli_bench_groupby},
    {"join", gj_cli_run_join, gj_cli_bench_join},
    {NULL, NULL, NULL},
};

static int dispatch(int argc, char **argv, int bench)
{
    const char *cmd = bench ? "bench" : "run";
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        printf("usage: gjadvise %s OP [flags]     OP:", cmd);
        for (const op_entry *e = ops; e->op; e++) printf(" %s", e->op);
        printf("\n       gjadvise %s OP --help   for the flags of OP\n", cmd);
        return argc < 2 ? GJ_EXIT_USAGE : GJ_EXIT_OK;
    }
    for (const op_entry *e = ops; e->op; e++)
        if (!strcmp(argv[1], e->op)) return (bench ? e->bench : e->run)(argc - 1, argv + 1);
    fprintf(stderr, "gjadvise %s: unknown operator '%s'; allowed:", cmd, argv[1]);
    for (const op_entry *e = ops; e->op; e++) fprintf(stderr, " %s", e->op);
    fprintf(stderr, "\n");
    return GJ_EXIT_USAGE;
}

int gj_cli_run(int argc, char **argv) { return dispatch(argc, argv, 0); }
int gj_cli_bench(int argc, char **argv) { return dispatch(argc, argv, 1); }
