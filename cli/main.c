/* gjadvise: command-line entry point and subcommand table. */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

int gj_cli_validate(int argc, char **argv); /* cli/validate.c */

static const struct {
    const char *name;
    gj_cli_fn fn;
    const char *summary;
} commands[] = {
    {"recommend", gj_cli_recommend, "rank join or group-by implementations for a workload"},
    {"model", gj_cli_model, "print the paper's thresholds and Table 2 for a profile"},
    {"profiles", gj_cli_profiles, "list, show, diff, export and import GPU profiles"},
    {"run", gj_cli_run, "execute an implementation on the GPU and compare with the model"},
    {"bench", gj_cli_bench, "sweep a workload parameter over every implementation, as CSV"},
    {"calibrate", gj_cli_calibrate, "measure the local GPU and store its profile"},
    {"explain", gj_cli_explain, "annotate a DuckDB plan (EXPLAIN (FORMAT JSON)) with GPU operators"},
    {"validate", gj_cli_validate, "run a grid of workloads; prediction errors, advisor regret, report"},
    {"tune", gj_cli_tune, "refit the models from logged executions; keep only a better profile"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f,
            "gjadvise %s: choose, predict and run GPU join and group-by operators\n"
            "\n"
            "usage: gjadvise <command> [flags]      gjadvise <command> --help for its flags\n"
            "\n"
            "commands:\n", GJ_VERSION_STRING);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f,
            "\n"
            "examples:\n"
            "  gjadvise recommend --match-ratio 0.3\n"
            "  gjadvise recommend --op groupby --rows 2^28 --groups 2^12 --aggs max,max\n"
            "  gjadvise model --profile a100-paper\n"
            "\n"
            "store: --db PATH, else $%s, else $XDG_DATA_HOME/gjadvise/gjadvise.db\n"
            "exit codes: 0 ok, 1 failure, 2 bad flag or value, 3 no GPU, 4 store error,\n"
            "            5 bad input file, 6 nothing feasible, 7 --check found a wrong result\n",
            GJ_DB_ENV);
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        usage(stdout);
        return argc < 2 ? GJ_EXIT_USAGE : GJ_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("gjadvise %s\n", GJ_VERSION_STRING);
        return GJ_EXIT_OK;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name)) return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "gjadvise: unknown command '%s'; allowed:", argv[1]);
    for (size_t i = 0; i < NCOMMANDS; i++) fprintf(stderr, " %s", commands[i].name);
    fprintf(stderr, " (gjadvise --help)\n");
    return GJ_EXIT_USAGE;
}
