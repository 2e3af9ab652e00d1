/* gjadvise profiles: list, show, export and import GPU profiles. */
#include "cli/cli.h"
#include "common/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXIT_CODES                                                                         \
    "exit codes: 0 ok; 1 unexpected failure (out of memory); 2 bad flag or value, or no\n" \
    "            such profile or version; 4 store problem (--db missing, locked, read-only,\n" \
    "            corrupt, from a newer gjadvise); 5 input file missing or malformed, or the\n" \
    "            output file could not be written\n"

static void help_main(void)
{
    printf("usage: gjadvise profiles COMMAND [flags]    gjadvise profiles COMMAND --help\n"
           "\n"
           "commands:\n"
           "  list                        stored profiles (newest version of each) and built-ins\n"
           "  show NAME[@VERSION]         parameters and device identity of one profile\n"
           "  export NAME[@VERSION]       the profile as JSON, to stdout or -o FILE\n"
           "  import FILE                 store a profile exported as JSON (origin \"import\")\n"
           "  diff A B                    what changed between two profiles or versions\n"
           "\n"
           "NAME without @VERSION means its newest version; names absent from the store are\n"
           "looked up among the built-ins. Store: --db PATH, else $%s, else\n"
           "$XDG_DATA_HOME/gjadvise/gjadvise.db, else ~/.local/share/gjadvise/gjadvise.db.\n"
           "\n"
           "examples:\n"
           "  gjadvise profiles list\n"
           "  gjadvise profiles show a100-paper\n"
           "  gjadvise profiles export h200-cal@2 -o h200.json\n"
           "  gjadvise profiles import h200.json --name h200-lab\n"
           "  gjadvise profiles diff h200-measured@1 h200-measured@2\n"
           "\n" EXIT_CODES, GJ_DB_ENV);
}

static void help_list(void)
{
    printf("usage: gjadvise profiles list [--all] [--json] [--db PATH]\n"
           "\n"
           "Lists the stored profiles, newest first, then the built-in profiles (those not\n"
           "shadowed by a stored profile of the same name). Without a store, only built-ins.\n"
           "  --all     every stored version, not only the newest of each name\n"
           "  --json    one JSON object: {\"store\": PATH or null, \"profiles\": [...]}\n"
           "  --db PATH the store (must exist when given)\n"
           "\n"
           "examples:\n"
           "  gjadvise profiles list\n"
           "  gjadvise profiles list --all --db ./lab.db\n"
           "  gjadvise profiles list --json\n"
           "\n" EXIT_CODES);
}

static void help_show(void)
{
    printf("usage: gjadvise profiles show NAME[@VERSION] [--json] [--db PATH]\n"
           "\n"
           "Prints the device identity and a table of every hardware parameter: value, unit,\n"
           "spread (the calibration's spread; 0 when not measured) and source (paper, derived,\n"
           "assumed, measured, tuned; unset parameters show '-').\n"
           "  --json    the profile as JSON (the export format)\n"
           "\n"
           "examples:\n"
           "  gjadvise profiles show a100-paper\n"
           "  gjadvise profiles show h200-cal@1 --db ./lab.db\n"
           "\n" EXIT_CODES);
}

static void help_export(void)
{
    printf("usage: gjadvise profiles export NAME[@VERSION] [-o FILE] [--db PATH]\n"
           "\n"
           "Writes the profile as one JSON object (format \"gjadvise-profile\", version 1; every\n"
           "number exact) to stdout, or to FILE: written to a temporary file beside it and\n"
           "renamed, so a failure never leaves a half-written FILE.\n"
           "\n"
           "examples:\n"
           "  gjadvise profiles export a100-paper > a100.json\n"
           "  gjadvise profiles export h200-cal -o h200.json\n"
           "\n" EXIT_CODES);
}

static void help_import(void)
{
    printf("usage: gjadvise profiles import FILE [--name NEW] [--db PATH]\n"
           "\n"
           "Validates FILE completely (unknown keys, wrong types, negative or non-finite\n"
           "values and bad names are refused, naming the field) before anything is written,\n"
           "then stores it as the next version of its name (or NEW) with origin \"import\".\n"
           "The store and its folders are created if absent. FILE may be - for stdin.\n"
           "\n"
           "examples:\n"
           "  gjadvise profiles import h200.json\n"
           "  gjadvise profiles import h200.json --name h200-lab --db ./lab.db\n"
           "\n" EXIT_CODES);
}

/* NAME[@VERSION] -> name, version (0 = newest). Returns an exit code. */
static int parse_ref(const char *cmd, const char *ref, char *name, size_t n, int *version)
{
    const char *at = strrchr(ref, '@');
    size_t len = at ? (size_t)(at - ref) : strlen(ref);
    long v = 0;
    *version = 0;
    if (len == 0 || len >= n)
        return gj_cli_bad(cmd, "NAME", ref, "allowed a profile name of 1..63 characters, "
                                            "optionally @VERSION");
    memcpy(name, ref, len);
    name[len] = 0;
    if (at && gj_cli_parse_int(at + 1, 1, 2147483647, &v))
        return gj_cli_bad(cmd, "VERSION", at + 1, "allowed an integer >= 1 after '@'");
    gj_profile *probe = NULL;
    if (gj_profile_new(name, &probe) != GJ_OK)
        return gj_cli_bad(cmd, "NAME", name, "allowed 1 to 63 characters of A-Z a-z 0-9 . _ -");
    gj_profile_free(probe);
    *version = (int)v;
    return GJ_EXIT_OK;
}

/* Open the store for reading. No store and no --db: *db NULL (built-ins
 * only). Returns an exit code. */
static int open_read(const char *cmd, const char *db_flag, gj_db **db)
{
    int code = GJ_EXIT_OK;
    /* Not GJ_DB_OPEN_READONLY: an older store is migrated on first use. A
     * read-only file still opens and reads. */
    int rc = gj_cli_open_db(cmd, db_flag, GJ_DB_OPEN_EXISTING, db, &code);
    if (rc == GJ_ERR_NOTFOUND) {
        *db = NULL;
        if (db_flag) {
            fprintf(stderr, "gjadvise %s: --db=%s: no such store (`gjadvise profiles import` "
                            "or `gjadvise calibrate` creates one)\n", cmd, db_flag);
            return GJ_EXIT_STORE;
        }
        return GJ_EXIT_OK;
    }
    return rc == GJ_OK ? GJ_EXIT_OK : code;
}

/* Load NAME[@VERSION] from the store or the built-ins. Returns an exit code. */
static int load_ref(const char *cmd, const char *db_flag, const char *ref, gj_profile **out)
{
    char name[64];
    int version, code;
    gj_db *db = NULL;
    gj_ctx ctx = {0};
    *out = NULL;
    if ((code = parse_ref(cmd, ref, name, sizeof name, &version)) != GJ_EXIT_OK) return code;
    if ((code = open_read(cmd, db_flag, &db)) != GJ_EXIT_OK) return code;
    int rc = gj_db_profile_load(db, name, version, out, &ctx);
    if (rc != GJ_OK) code = gj_cli_fail(cmd, rc, &ctx, ref);
    gj_db_close(db);
    return code;
}

/* Common flag loop. Returns -1 to go on, else an exit code. */
typedef struct flags {
    const char *db, *out, *name;
    int json, all;
    int nargs;
    char *args[2];
} flags;

static int parse_flags(const char *cmd, int argc, char **argv, const char *allowed, flags *f,
                       void (*help)(void), int want_args)
{
    static const struct option opts[] = {{"db", required_argument, 0, 'd'},
                                         {"json", no_argument, 0, 'j'},
                                         {"all", no_argument, 0, 'a'},
                                         {"output", required_argument, 0, 'o'},
                                         {"name", required_argument, 0, 'n'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int c;
    memset(f, 0, sizeof *f);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        if (c == 'h') {
            help();
            return GJ_EXIT_OK;
        }
        if (c == '?' || c == ':' || !strchr(allowed, c)) {
            fprintf(stderr, "gjadvise %s: unknown flag or missing value '%s' (gjadvise %s "
                            "--help)\n", cmd, argv[optind - 1], cmd);
            return GJ_EXIT_USAGE;
        }
        if (c == 'd') f->db = optarg;
        else if (c == 'j') f->json = 1;
        else if (c == 'a') f->all = 1;
        else if (c == 'o') f->out = optarg;
        else if (c == 'n') f->name = optarg;
    }
    for (int i = optind; i < argc; i++) {
        if (f->nargs == want_args) {
            fprintf(stderr, "gjadvise %s: unexpected argument '%s'\n", cmd, argv[i]);
            return GJ_EXIT_USAGE;
        }
        f->args[f->nargs++] = argv[i];
    }
    if (f->nargs < want_args) {
        fprintf(stderr, "gjadvise %s: missing argument (gjadvise %s --help)\n", cmd, cmd);
        return GJ_EXIT_USAGE;
    }
    return -1;
}

static int cmd_list(int argc, char **argv)
{
    const char *cmd = "profiles list";
    flags f;
    gj_db *db = NULL;
    gj_profile_row *rows = NULL;
    gj_ctx ctx = {0};
    gj_sbuf b = {0};
    char path[4096] = "";
    int n = 0, code = parse_flags(cmd, argc, argv, "dja", &f, help_list, 0);
    if (code >= 0) return code;
    if ((code = open_read(cmd, f.db, &db)) != GJ_EXIT_OK) return code;
    if (db) gj_cli_db_path(f.db, path, sizeof path);
    int rc = gj_db_profile_list(db, &rows, &n, &ctx);
    if (rc != GJ_OK) {
        code = gj_cli_fail(cmd, rc, &ctx, "listing");
        goto done;
    }
    /* rows come newest first: the first row of a name is its newest. */
    char *keep = calloc((size_t)n + 1, 1);
    if (!keep) {
        code = gj_cli_fail(cmd, GJ_ERR_NOMEM, NULL, "listing");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        keep[i] = 1;
        if (!f.all)
            for (int j = 0; j < i && keep[i]; j++)
                if (!strcmp(rows[j].name, rows[i].name)) keep[i] = 0;
    }
    if (f.json) {
        gj_sbuf_printf(&b, "{\"store\":");
        if (db) gj_sbuf_json_str(&b, path);
        else gj_sbuf_printf(&b, "null");
        gj_sbuf_printf(&b, ",\"profiles\":[");
        int first = 1;
        for (int i = 0; i < n; i++) {
            if (!keep[i]) continue;
            gj_sbuf_printf(&b, "%s{\"name\":", first ? "" : ",");
            gj_sbuf_json_str(&b, rows[i].name);
            gj_sbuf_printf(&b, ",\"version\":%d,\"origin\":", rows[i].version);
            gj_sbuf_json_str(&b, rows[i].origin);
            gj_sbuf_printf(&b, ",\"created\":");
            gj_sbuf_json_str(&b, rows[i].created);
            gj_sbuf_printf(&b, ",\"device\":");
            gj_sbuf_json_str(&b, rows[i].device);
            gj_sbuf_printf(&b, ",\"uuid\":");
            gj_sbuf_json_str(&b, rows[i].uuid);
            gj_sbuf_printf(&b, ",\"samples\":%d}", rows[i].n_samples);
            first = 0;
        }
        gj_sbuf_printf(&b, "]}\n");
        char *s = NULL;
        if (gj_sbuf_take(&b, &s) != GJ_OK) code = gj_cli_fail(cmd, GJ_ERR_NOMEM, NULL, "listing");
        else fputs(s, stdout);
        free(s);
    } else {
        printf("%-24s %4s  %-9s  %-20s  %7s  %s\n", "NAME", "VER", "ORIGIN", "CREATED", "SAMPLES",
               "DEVICE");
        for (int i = 0; i < n; i++) {
            if (!keep[i]) continue;
            char samples[16];
            snprintf(samples, sizeof samples, "%d", rows[i].n_samples);
            printf("%-24s %4d  %-9s  %-20s  %7s  %s%s%s%s\n", rows[i].name, rows[i].version,
                   rows[i].origin, rows[i].created[0] ? rows[i].created : "-",
                   strcmp(rows[i].origin, "builtin") ? samples : "-", rows[i].device,
                   rows[i].uuid[0] ? " (" : "", rows[i].uuid, rows[i].uuid[0] ? ")" : "");
        }
        if (db) printf("\nstore: %s%s\n", path, f.all ? "" : " (newest version of each name; "
                                                             "--all for every version)");
        else printf("\nstore: none yet (built-ins only)\n");
    }
    free(keep);
done:
    gj_free(rows);
    gj_db_close(db);
    return code;
}

static void human_bytes(char *buf, size_t n, uint64_t v)
{
    if (v >= (1ULL << 30)) snprintf(buf, n, "%.1f GiB", (double)v / (1ULL << 30));
    else if (v >= (1ULL << 20)) snprintf(buf, n, "%.1f MiB", (double)v / (1ULL << 20));
    else if (v >= 1024) snprintf(buf, n, "%.1f KiB", (double)v / 1024);
    else snprintf(buf, n, "%llu B", (unsigned long long)v);
}

static void cuda_version(char *buf, size_t n, int v)
{
    if (v > 0) snprintf(buf, n, "%d.%d", v / 1000, (v % 1000) / 10);
    else snprintf(buf, n, "-");
}

static int cmd_show(int argc, char **argv)
{
    const char *cmd = "profiles show";
    flags f;
    gj_profile *p = NULL;
    int code = parse_flags(cmd, argc, argv, "dj", &f, help_show, 1);
    if (code >= 0) return code;
    if ((code = load_ref(cmd, f.db, f.args[0], &p)) != GJ_EXIT_OK) return code;
    if (f.json) {
        char *j = NULL;
        if (gj_profile_to_json(p, &j) != GJ_OK) code = gj_cli_fail(cmd, GJ_ERR_NOMEM, NULL, "JSON");
        else fputs(j, stdout);
        gj_free(j);
        gj_profile_free(p);
        return code;
    }
    const gj_device *d = gj_profile_device(p);
    char mem[32], l2[32], sb[32], ss[32], drv[16], rt[16];
    human_bytes(mem, sizeof mem, d->mem_bytes);
    human_bytes(l2, sizeof l2, d->l2_bytes);
    human_bytes(sb, sizeof sb, d->smem_per_block);
    human_bytes(ss, sizeof ss, d->smem_per_sm);
    cuda_version(drv, sizeof drv, d->driver_version);
    cuda_version(rt, sizeof rt, d->runtime_version);
    printf("profile    %s v%d (origin %s, created %s)\n", gj_profile_name(p),
           gj_profile_version(p), gj_profile_origin(p),
           gj_profile_created(p)[0] ? gj_profile_created(p) : "unknown");
    if (gj_profile_notes(p)[0]) printf("notes      %s\n", gj_profile_notes(p));
    if (gj_profile_fit_error(p) >= 0)
        printf("fit error  %.2f%% (held-out median |relative error| of predictions)\n",
               100 * gj_profile_fit_error(p));
    else printf("fit error  none (not tuned against measured runs)\n");
    printf("\ndevice     %s\n", d->name[0] ? d->name : "-");
    printf("  uuid           %s\n", d->uuid[0] ? d->uuid : "-");
    printf("  compute        capability %d.%d, %d SMs, %d MHz\n", d->cc_major, d->cc_minor,
           d->sm_count, d->clock_mhz);
    printf("  memory         %s, %d-bit bus, %d MHz\n", mem, d->mem_bus_bits, d->mem_clock_mhz);
    printf("  L2             %s\n", l2);
    printf("  shared memory  %s per block (opt-in), %s per SM\n", sb, ss);
    printf("  CUDA           driver %s, runtime %s\n", drv, rt);
    printf("\n%-17s %11s  %-7s %12s  %-8s  %s\n", "parameter", "value", "unit", "spread", "source",
           "meaning");
    for (int i = 0; i < gj_param_count(); i++) {
        const gj_param_info *pi = gj_param_at(i);
        double v, sp;
        gj_source src;
        gj_profile_get(p, pi->key, &v, &sp, &src);
        if (src == GJ_SRC_UNSET && v == 0)
            printf("%-17s %11s  %-7s %12s  %-8s  %s\n", pi->key, "-", pi->unit, "-", "unset",
                   pi->what);
        else
            printf("%-17s %11.6g  %-7s %12.3g  %-8s  %s\n", pi->key, v, pi->unit, sp,
                   gj_source_name(src), pi->what);
    }
    gj_profile_free(p);
    return GJ_EXIT_OK;
}

/* Write text to path through a temporary file in the same folder and a
 * rename: all or nothing. Returns GJ_OK or GJ_ERR_IO with ctx set. */
static int write_atomic(const char *path, const char *text, gj_ctx *ctx)
{
    char tmp[4200];
    int fd = -1, rc = GJ_OK;
    size_t len = strlen(text), off = 0;
    if (snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path) >= (int)sizeof tmp)
        return gj_seterr(ctx, GJ_ERR_IO, "%s: path too long", path);
    if ((fd = mkstemp(tmp)) < 0) {
        rc = gj_seterr(ctx, GJ_ERR_IO, "%s: cannot create a file beside it: %s", path,
                       strerror(errno));
        tmp[0] = 0;
        goto done;
    }
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) {
        rc = gj_seterr(ctx, GJ_ERR_IO, "%s: chmod: %s", tmp, strerror(errno));
        goto done;
    }
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            rc = gj_seterr(ctx, GJ_ERR_IO, "%s: write: %s", tmp, strerror(errno));
            goto done;
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0) {
        rc = gj_seterr(ctx, GJ_ERR_IO, "%s: fsync: %s", tmp, strerror(errno));
        goto done;
    }
    if (close(fd) != 0) {
        fd = -1;
        rc = gj_seterr(ctx, GJ_ERR_IO, "%s: close: %s", tmp, strerror(errno));
        goto done;
    }
    fd = -1;
    if (rename(tmp, path) != 0) {
        rc = gj_seterr(ctx, GJ_ERR_IO, "%s: rename: %s", path, strerror(errno));
        goto done;
    }
    tmp[0] = 0;
done:
    if (fd >= 0) close(fd);
    if (tmp[0]) unlink(tmp);
    return rc;
}

static int cmd_export(int argc, char **argv)
{
    const char *cmd = "profiles export";
    flags f;
    gj_profile *p = NULL;
    char *j = NULL;
    gj_ctx ctx = {0};
    int code = parse_flags(cmd, argc, argv, "do", &f, help_export, 1);
    if (code >= 0) return code;
    if (f.out && !*f.out) return gj_cli_bad(cmd, "-o", f.out, "allowed a file path");
    if ((code = load_ref(cmd, f.db, f.args[0], &p)) != GJ_EXIT_OK) return code;
    if (gj_profile_to_json(p, &j) != GJ_OK) {
        code = gj_cli_fail(cmd, GJ_ERR_NOMEM, NULL, "JSON");
    } else if (f.out) {
        int rc = write_atomic(f.out, j, &ctx);
        if (rc != GJ_OK) code = gj_cli_fail(cmd, rc, &ctx, "-o");
        else fprintf(stderr, "exported %s v%d to %s\n", gj_profile_name(p), gj_profile_version(p),
                     f.out);
    } else if (fputs(j, stdout) < 0 || fflush(stdout) != 0) {
        code = gj_cli_fail(cmd, GJ_ERR_IO, NULL, "stdout");
    }
    gj_free(j);
    gj_profile_free(p);
    return code;
}

#define MAX_IMPORT_BYTES (16u << 20)

/* Whole file (or stdin for "-") as a NUL-terminated string. */
static int read_all(const char *path, char **out, gj_ctx *ctx)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int rc = GJ_OK;
    *out = NULL;
    if (!f) return gj_seterr(ctx, GJ_ERR_IO, "%s: %s", path, strerror(errno));
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, cap);
            if (!nb) {
                rc = gj_seterr(ctx, GJ_ERR_NOMEM, "%s: out of memory", path);
                goto done;
            }
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (len > MAX_IMPORT_BYTES) {
            rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s: larger than %u bytes: not a profile", path,
                           MAX_IMPORT_BYTES);
            goto done;
        }
        if (got == 0) break;
    }
    if (ferror(f)) {
        rc = gj_seterr(ctx, GJ_ERR_IO, "%s: read error", path);
        goto done;
    }
    buf[len] = 0;
    if (strlen(buf) != len) {
        rc = gj_seterr(ctx, GJ_ERR_PARSE, "%s: holds NUL bytes: not a JSON text", path);
        goto done;
    }
    *out = buf;
    buf = NULL;
done:
    if (f != stdin) fclose(f);
    free(buf);
    return rc;
}

static int cmd_import(int argc, char **argv)
{
    const char *cmd = "profiles import";
    flags f;
    char *text = NULL;
    gj_profile *p = NULL;
    gj_db *db = NULL;
    gj_ctx ctx = {0};
    char path[4096] = "";
    int rc, code = parse_flags(cmd, argc, argv, "dn", &f, help_import, 1);
    if (code >= 0) return code;
    const char *file = f.args[0];
    if (f.name) {
        gj_profile *probe = NULL;
        if (gj_profile_new(f.name, &probe) != GJ_OK)
            return gj_cli_bad(cmd, "--name", f.name, "allowed 1..63 characters of [A-Za-z0-9._-]");
        gj_profile_free(probe);
    }
    /* Everything is validated before the store is touched. */
    if ((rc = read_all(file, &text, &ctx)) != GJ_OK) {
        code = rc == GJ_ERR_NOMEM ? gj_cli_fail(cmd, rc, &ctx, file)
                                  : (fprintf(stderr, "gjadvise %s: %s\n", cmd, ctx.msg),
                                     GJ_EXIT_INPUT);
        goto done;
    }
    if ((rc = gj_profile_from_json(text, &p, &ctx)) != GJ_OK) {
        if (rc == GJ_ERR_NOMEM) code = gj_cli_fail(cmd, rc, &ctx, file);
        else {
            fprintf(stderr, "gjadvise %s: %s: %s\n", cmd, file, ctx.msg);
            code = GJ_EXIT_INPUT;
        }
        goto done;
    }
    const char *from = gj_profile_name(p);
    char orig[64];
    gj_strlcpy(orig, from, sizeof orig);
    if (f.name && gj_profile_set_name(p, f.name) != GJ_OK) {
        code = gj_cli_bad(cmd, "--name", f.name, "allowed 1..63 characters of [A-Za-z0-9._-]");
        goto done;
    }
    /* The file's created time and notes are kept: they say when and how it
     * was measured. The version is assigned by the store. */
    if (gj_profile_set_meta(p, "import", NULL, NULL, 1, gj_profile_fit_error(p)) != GJ_OK) {
        code = gj_cli_fail(cmd, GJ_ERR_INVALID, NULL, "profile metadata");
        goto done;
    }
    if (gj_cli_open_db(cmd, f.db, GJ_DB_OPEN_CREATE, &db, &code) != GJ_OK) goto done;
    gj_cli_db_path(f.db, path, sizeof path);
    if ((rc = gj_db_profile_save(db, p, NULL, 0, &ctx)) != GJ_OK) {
        code = gj_cli_fail(cmd, rc, &ctx, "storing");
        goto done;
    }
    printf("imported %s from %s as %s v%d into %s\n", orig, file, gj_profile_name(p),
           gj_profile_version(p), path);
    code = GJ_EXIT_OK;
done:
    gj_db_close(db);
    gj_profile_free(p);
    free(text);
    return code;
}

static void help_diff(void)
{
    printf("usage: gjadvise profiles diff A B [--all] [--json] [--db PATH]\n"
           "\n"
           "Compares two profiles, each NAME[@VERSION] (a stored version or a built-in):\n"
           "every hardware parameter whose value differs, with the relative change and\n"
           "where each value came from (measured, derived, tuned, ...), then every\n"
           "implementation whose learned correction (gjadvise tune) differs: the\n"
           "coefficient of each kind of model term, the fixed cost, and the fit's\n"
           "held-out error. Typical uses: what `tune` learned (NAME@1 vs NAME@2), how\n"
           "two GPUs differ (h200-measured vs a100-paper), whether a re-calibration moved.\n"
           "  --all     list unchanged parameters too\n"
           "  --json    {\"a\", \"b\", \"params\": [...], \"fits\": [...]} \n"
           "  --db PATH the store (must exist when given)\n"
           "\n"
           "examples:\n"
           "  gjadvise profiles diff h200-measured@1 h200-measured@2\n"
           "  gjadvise profiles diff a100-paper h200-measured\n"
           "  gjadvise profiles diff h200@3 h200@4 --json\n"
           "\n" EXIT_CODES);
}

/* Relative change b/a - 1, or NaN when a is 0. */
static double rel_change(double a, double b) { return a != 0 ? b / a - 1 : NAN; }

static void diff_label(char *buf, size_t n, const gj_profile *p)
{
    snprintf(buf, n, "%s@%d", gj_profile_name(p), gj_profile_version(p));
}

static int fits_differ(const gj_fit *x, const gj_fit *y)
{
    if (x->set != y->set || x->intercept_ms != y->intercept_ms) return 1;
    for (int k = 0; k < GJ_TERMS; k++)
        if (x->coef[k] != y->coef[k]) return 1;
    return 0;
}

static void diff_json(const gj_profile *a, const gj_profile *b, int all)
{
    gj_sbuf s = {0};
    char la[96], lb[96];
    diff_label(la, sizeof la, a), diff_label(lb, sizeof lb, b);
    gj_sbuf_printf(&s, "{\"a\":");
    gj_sbuf_json_str(&s, la);
    gj_sbuf_printf(&s, ",\"b\":");
    gj_sbuf_json_str(&s, lb);
    gj_sbuf_printf(&s, ",\"params\":[");
    int first = 1;
    for (int i = 0; i < gj_param_count(); i++) {
        const gj_param_info *pi = gj_param_at(i);
        double va, vb;
        gj_source sa, sb;
        gj_profile_get(a, pi->key, &va, NULL, &sa);
        gj_profile_get(b, pi->key, &vb, NULL, &sb);
        if (!all && va == vb && sa == sb) continue;
        gj_sbuf_printf(&s, "%s{\"key\":\"%s\",\"unit\":\"%s\",\"a\":", first ? "" : ",", pi->key, pi->unit);
        gj_sbuf_json_num(&s, va);
        gj_sbuf_printf(&s, ",\"b\":");
        gj_sbuf_json_num(&s, vb);
        gj_sbuf_printf(&s, ",\"change\":");
        double ch = rel_change(va, vb);
        if (isnan(ch)) gj_sbuf_printf(&s, "null");
        else gj_sbuf_json_num(&s, ch);
        gj_sbuf_printf(&s, ",\"source_a\":\"%s\",\"source_b\":\"%s\"}", gj_source_name(sa),
                       gj_source_name(sb));
        first = 0;
    }
    gj_sbuf_printf(&s, "],\"fits\":[");
    first = 1;
    for (int i = 0; i < GJ_IMPL_COUNT; i++) {
        gj_fit fa, fb;
        gj_profile_get_fit(a, (gj_impl)i, &fa);
        gj_profile_get_fit(b, (gj_impl)i, &fb);
        if (!fits_differ(&fa, &fb)) continue;
        gj_sbuf_printf(&s, "%s{\"impl\":\"%s\"", first ? "" : ",", gj_impl_name((gj_impl)i));
        const gj_fit *f[2] = {&fa, &fb};
        for (int side = 0; side < 2; side++) {
            gj_sbuf_printf(&s, ",\"%s\":", side ? "b" : "a");
            if (!f[side]->set) {
                gj_sbuf_printf(&s, "null");
                continue;
            }
            gj_sbuf_printf(&s, "{");
            for (int k = 0; k < GJ_TERMS; k++) {
                gj_sbuf_printf(&s, "\"%s\":", gj_term_name((gj_term)k));
                gj_sbuf_json_num(&s, f[side]->coef[k]);
                gj_sbuf_printf(&s, ",");
            }
            gj_sbuf_printf(&s, "\"intercept_ms\":");
            gj_sbuf_json_num(&s, f[side]->intercept_ms);
            gj_sbuf_printf(&s, ",\"err_holdout\":");
            if (f[side]->err_holdout >= 0) gj_sbuf_json_num(&s, f[side]->err_holdout);
            else gj_sbuf_printf(&s, "null");
            gj_sbuf_printf(&s, "}");
        }
        gj_sbuf_printf(&s, "}");
        first = 0;
    }
    gj_sbuf_printf(&s, "]}");
    char *out = NULL;
    if (gj_sbuf_take(&s, &out) == GJ_OK) printf("%s\n", out);
    free(out);
}

static void diff_table(const gj_profile *a, const gj_profile *b, int all)
{
    char la[96], lb[96];
    int n = 0;
    diff_label(la, sizeof la, a), diff_label(lb, sizeof lb, b);
    printf("A = %s (%s, %s)\nB = %s (%s, %s)\n\n", la, gj_profile_origin(a),
           gj_profile_device(a)->name[0] ? gj_profile_device(a)->name : "no device", lb,
           gj_profile_origin(b), gj_profile_device(b)->name[0] ? gj_profile_device(b)->name : "no device");
    printf("%-17s %-7s %14s %14s %9s  %s\n", "parameter", "unit", "A", "B", "change", "source A -> B");
    for (int i = 0; i < gj_param_count(); i++) {
        const gj_param_info *pi = gj_param_at(i);
        double va, vb;
        gj_source sa, sb;
        gj_profile_get(a, pi->key, &va, NULL, &sa);
        gj_profile_get(b, pi->key, &vb, NULL, &sb);
        if (!all && va == vb && sa == sb) continue;
        char ch[16] = "-";
        double c = rel_change(va, vb);
        if (!isnan(c)) snprintf(ch, sizeof ch, "%+.1f%%", 100 * c);
        printf("%-17s %-7s %14.6g %14.6g %9s  %s%s%s\n", pi->key, pi->unit, va, vb, ch,
               gj_source_name(sa), sa == sb ? "" : " -> ", sa == sb ? "" : gj_source_name(sb));
        n++;
    }
    if (!n) printf("(every parameter equal)\n");
    int nf = 0;
    for (int i = 0; i < GJ_IMPL_COUNT; i++) {
        gj_fit fa, fb;
        gj_profile_get_fit(a, (gj_impl)i, &fa);
        gj_profile_get_fit(b, (gj_impl)i, &fb);
        if (!fits_differ(&fa, &fb)) continue;
        if (!nf++)
            printf("\nlearned corrections (gjadvise tune): time = sum of coef x term + fixed ms\n"
                   "%-11s %-5s %6s %9s %6s %6s %6s %6s %6s %9s %9s\n", "impl", "", "seq", "partition",
                   "sort", "gather", "hash", "atomic", "fixed", "+ms", "held-out");
        const gj_fit *f[2] = {&fa, &fb};
        for (int side = 0; side < 2; side++) {
            printf("%-11s %-5s", side ? "" : gj_impl_name((gj_impl)i), side ? "B" : "A");
            if (!f[side]->set) {
                printf(" untuned (every coefficient 1)\n");
                continue;
            }
            printf(" %6.3g %9.3g", f[side]->coef[0], f[side]->coef[1]);
            for (int k = 2; k < GJ_TERMS; k++) printf(" %6.3g", f[side]->coef[k]);
            char ho[16] = "-";
            if (f[side]->err_holdout >= 0) snprintf(ho, sizeof ho, "%.1f%%", 100 * f[side]->err_holdout);
            printf(" %9.3g %9s\n", f[side]->intercept_ms, ho);
        }
    }
    if (!nf) printf("\nlearned corrections: the same in both\n");
}

static int cmd_diff(int argc, char **argv)
{
    const char *cmd = "profiles diff";
    flags f;
    gj_profile *a = NULL, *b = NULL;
    int code = parse_flags(cmd, argc, argv, "dja", &f, help_diff, 2);
    if (code >= 0) return code;
    if ((code = load_ref(cmd, f.db, f.args[0], &a)) == GJ_EXIT_OK &&
        (code = load_ref(cmd, f.db, f.args[1], &b)) == GJ_EXIT_OK) {
        if (f.json) diff_json(a, b, f.all);
        else diff_table(a, b, f.all);
    }
    gj_profile_free(a);
    gj_profile_free(b);
    return code;
}

int gj_cli_profiles(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } subs[] = {{"list", cmd_list}, {"show", cmd_show}, {"export", cmd_export},
                {"import", cmd_import}, {"diff", cmd_diff}};
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        help_main();
        return argc < 2 ? GJ_EXIT_USAGE : GJ_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (!strcmp(argv[1], subs[i].name)) return subs[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "gjadvise profiles: unknown command '%s'; allowed: list, show, export, "
                    "import, diff (gjadvise profiles --help)\n", argv[1]);
    return GJ_EXIT_USAGE;
}
