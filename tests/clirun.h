/* Running bin/gjadvise from a test: argv in, exit status and output back.
 * The binary is $GJ_BIN (set by `make test`). */
#ifndef GJ_TESTS_CLIRUN_H
#define GJ_TESTS_CLIRUN_H

#include <stddef.h>

/* Run $GJ_BIN with args (NULL-terminated), stdout and stderr together into
 * out (NUL-terminated, truncated to n - 1 bytes; scratch file in dir).
 * Returns the exit status, 128 + signal if killed, -1 if it could not run. */
int gj_test_run(char *out, size_t n, const char *dir, const char *const *args);

/* A scratch folder from template (e.g. "/tmp/gjcli-XXXXXX", modified in
 * place) with $GJADVISE_DB pointed inside it, so a test never touches the
 * user's store. 0 or -1. */
int gj_test_scratch(char *tmpl);
/* Remove the scratch folder and everything in it. 0 or -1. */
int gj_test_scratch_free(const char *dir);
/* 1 if $GJ_BIN names an executable. */
int gj_test_have_bin(void);

/* In a cmocka test (after cmocka.h): skip it unless $GJ_BIN can run. */
#define GJ_NEED_BIN()                                   \
    do {                                                \
        if (!gj_test_have_bin()) skip();                \
    } while (0)

#define GJ_RUN(out, dir, ...) gj_test_run(out, sizeof out, dir, (const char *const[]){__VA_ARGS__, NULL})

#endif
