/* See clirun.h. */
#include "clirun.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int gj_test_run(char *out, size_t n, const char *dir, const char *const *args)
{
    const char *bin = getenv("GJ_BIN");
    char path[512];
    const char *argv[64];
    int k = 0, st = -1;
    out[0] = 0;
    if (!bin) return -1;
    snprintf(path, sizeof path, "%s/clirun.out", dir);
    argv[k++] = bin;
    for (; args[k - 1] && k < 63; k++) argv[k] = args[k - 1];
    argv[k] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    if (posix_spawn(&pid, bin, &fa, NULL, (char *const *)argv, environ) == 0) waitpid(pid, &st, 0);
    posix_spawn_file_actions_destroy(&fa);
    if (st == -1) return -1;
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(out, 1, n - 1, f) : 0;
    out[got] = 0;
    if (f) fclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int gj_test_scratch(char *tmpl)
{
    char db[512];
    if (!mkdtemp(tmpl)) return -1;
    snprintf(db, sizeof db, "%s/none.db", tmpl);
    return setenv("GJADVISE_DB", db, 1);
}

int gj_test_scratch_free(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int gj_test_have_bin(void)
{
    const char *bin = getenv("GJ_BIN");
    return bin && access(bin, X_OK) == 0;
}
