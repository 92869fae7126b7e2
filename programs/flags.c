/* Flag parsing shared by the subcommands: long options only, every error
 * names the flag, what was expected and what was found. */
#include "programs/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/suggest.h"
#include "devices/sim_timing.h"
#include "engine/parallel.h"
#include "vocab/params.h"

static void print_usage(FILE *f, const char *usage, const cli_flag *flags, int n)
{
    fprintf(f, "%s\n\noptions:\n", usage);
    for (int i = 0; i < n; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", flags[i].name, flags[i].metavar ? " " : "",
                 flags[i].metavar ? flags[i].metavar : "");
        fprintf(f, "  %-26s %s\n", left, flags[i].help);
    }
    fprintf(f, "  %-26s %s\n", "--help", "show this help");
}

/* The hidden --complete: one line per flag, "--NAME" then a tab and the
 * metavar when it takes a value, for the shell completion
 * (programs/completion.bash), which thus follows the flag tables. */
static void print_completions(const cli_flag *flags, int n)
{
    for (int i = 0; i < n; i++)
        printf("--%s%s%s\n", flags[i].name, flags[i].metavar ? "\t" : "",
               flags[i].metavar ? flags[i].metavar : "");
    printf("--help\n");
}

cli_flag *cli_find(cli_flag *flags, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(flags[i].name, name) == 0)
            return &flags[i];
    return NULL;
}

static void list_flags(const char *cmd, const cli_flag *flags, int n)
{
    fprintf(stderr, "pascal %s: valid options:", cmd);
    for (int i = 0; i < n; i++)
        fprintf(stderr, " --%s", flags[i].name);
    fprintf(stderr, " --help\n");
}

int cli_parse(const char *cmd, const char *usage, int argc, char **argv, cli_flag *flags,
              int nflags, char **pos, int maxpos, int *npos)
{
    *npos = 0;
    for (int i = 0; i < argc; i++) {
        char *a = argv[i], name[64];
        const char *eq;
        cli_flag *f;
        if (strncmp(a, "--", 2) != 0 || a[2] == 0) {
            if (*npos >= maxpos) {
                fprintf(stderr, "pascal %s: unexpected argument \"%s\"\n", cmd, a);
                return CLI_USAGE;
            }
            pos[(*npos)++] = a;
            continue;
        }
        if (strcmp(a, "--help") == 0) {
            print_usage(stdout, usage, flags, nflags);
            return -1;
        }
        if (strcmp(a, "--complete") == 0) {
            print_completions(flags, nflags);
            return -1;
        }
        eq = strchr(a + 2, '=');
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - a - 2) : 63, a + 2);
        f = cli_find(flags, nflags, name);
        if (!f) {
            const char *names[64];
            char hint[96];
            int n = nflags < 64 ? nflags : 64;
            for (int k = 0; k < n; k++)
                names[k] = flags[k].name;
            fprintf(stderr, "pascal %s: unknown option --%s%s\n", cmd, name,
                    pascal_suggest_hint(name, names, n, hint, sizeof hint));
            list_flags(cmd, flags, nflags);
            return CLI_USAGE;
        }
        if (f->given) {
            fprintf(stderr, "pascal %s: --%s: given twice\n", cmd, name);
            return CLI_USAGE;
        }
        f->given = 1;
        if (!f->metavar) {
            if (eq) {
                fprintf(stderr, "pascal %s: --%s: takes no value, got \"%s\"\n", cmd, name, eq + 1);
                return CLI_USAGE;
            }
            continue;
        }
        if (eq)
            f->value = eq + 1;
        else if (i + 1 < argc)
            f->value = argv[++i];
        else {
            fprintf(stderr, "pascal %s: --%s: expected %s, got nothing\n", cmd, name, f->metavar);
            return CLI_USAGE;
        }
    }
    return CLI_OK;
}

int cli_int(const char *cmd, const cli_flag *f, int64_t min, int64_t *out)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(f->value, &end, 10);
    if (errno || end == f->value || *end || v < min || v > (1LL << 53)) {
        int big = end != f->value && !*end && (errno == ERANGE || v > (1LL << 53));
        fprintf(stderr, "pascal %s: --%s: expected an integer >= %lld%s, got \"%s\"\n", cmd,
                f->name, (long long)min, big ? " of at most 2^53" : "", f->value);
        return CLI_USAGE;
    }
    *out = v;
    return CLI_OK;
}

int cli_name(const char *cmd, const cli_flag *f, const char *const *names, int n, int *out)
{
    char list[256] = "";
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(f->value, names[i]) == 0) {
            *out = i;
            return CLI_OK;
        }
        if (off < sizeof list)
            off += (size_t)snprintf(list + off, sizeof list - off, "%s%s",
                                    i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
    }
    fprintf(stderr, "pascal %s: --%s: expected %s, got \"%s\"\n", cmd, f->name, list, f->value);
    return CLI_USAGE;
}

int cli_real(const char *cmd, const cli_flag *f, double min, double *out)
{
    char *end;
    double v = strtod(f->value, &end);
    if (end == f->value || *end || !isfinite(v) || v < min) {
        fprintf(stderr, "pascal %s: --%s: expected a number >= %g, got \"%s\"\n", cmd, f->name,
                min, f->value);
        return CLI_USAGE;
    }
    *out = v;
    return CLI_OK;
}

int cli_size(const char *cmd, const cli_flag *f, double *out)
{
    int rc = pascal_size_parse(f->value, out);
    char why[160];
    if (rc != 0) {
        pascal_size_explain(rc, f->value, why, sizeof why);
        fprintf(stderr, "pascal %s: --%s: expected a size like 20MiB, got \"%s\"%s%s\n", cmd,
                f->name, f->value, why[0] ? ": " : "", why);
        return CLI_USAGE;
    }
    return CLI_OK;
}

int cli_threads(const char *cmd, const cli_flag *f, int *out)
{
    int64_t n;
    if (cli_int(cmd, f, 1, &n) != CLI_OK)
        return CLI_USAGE;
    if (n > CLI_MAX_THREADS) {
        fprintf(stderr, "pascal %s: --%s: expected an integer from 1 to %d, got \"%s\"\n", cmd, f->name,
                CLI_MAX_THREADS, f->value);
        return CLI_USAGE;
    }
    if (n > pascal_parallel_cores())
        fprintf(stderr, "pascal %s: warning: --%s %lld is more than the %d cores available; the threads "
                        "will share them\n", cmd, f->name, (long long)n, pascal_parallel_cores());
    *out = (int)n;
    return CLI_OK;
}

/* mpirun forwards a rank's stderr through a pipe, so a rank cannot see
 * whether mpirun's stderr is a terminal; a rank started from a terminal
 * has it as its controlling terminal (one in a batch job has none). */
int cli_stderr_is_terminal(void)
{
    int fd;
    if (isatty(2))
        return 1;
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE") && !getenv("PMIX_RANK"))
        return 0;
    if ((fd = open("/dev/tty", O_WRONLY | O_CLOEXEC)) < 0)
        return 0;
    close(fd);
    return 1;
}

int cli_mpi_ranks(void)
{
    const char *n = getenv("OMPI_COMM_WORLD_SIZE");
    if (!n)
        n = getenv("PMI_SIZE");
    return n ? atoi(n) : 0;
}

int cli_phase_list(const char *cmd, const char *text, int64_t N, int64_t **out, int64_t *n)
{
    int64_t cap = 16, k = 0, *v = malloc((size_t)cap * sizeof *v);
    const char *p = text;
    while (v) {
        char *end;
        long long x = strtoll(p, &end, 10);
        if (end == p || x < 0 || (N > 0 && x >= N) || (*end && *end != ','))
            break;
        if (k == cap) {
            int64_t *w = realloc(v, (size_t)(cap *= 2) * sizeof *v);
            if (!w)
                break;
            v = w;
        }
        v[k++] = x;
        if (!*end) {
            *out = v, *n = k;
            return CLI_OK;
        }
        p = end + 1;
    }
    free(v);
    if (N > 0)
        fprintf(stderr, "pascal %s: --phases: expected integers from 0 to N - 1 = %lld separated "
                        "by commas, got \"%s\"\n", cmd, (long long)(N - 1), text);
    else
        fprintf(stderr, "pascal %s: --phases: expected non-negative integers separated by "
                        "commas like 0,0,5, got \"%s\"\n", cmd, text);
    return CLI_USAGE;
}

/* simulate --timing hit_ns=120,sm_spread=0: overrides, checked like the
 * profile; here rather than in simulate.c since simulate --spec
 * (simulate_spec.c) takes it too. */
int cli_sim_timing(const cli_flag *f, pascal_sim_timing *tm)
{
    const char *p = f->value;
    while (f->given && *p) {
        size_t n = strcspn(p, ",");
        char item[96], *eq, *end;
        int k = PASCAL_DEVICE_SIM_NKEYS;
        double v = NAN;
        const char *want = NULL;
        snprintf(item, sizeof item, "%.*s", (int)(n < 95 ? n : 95), p);
        if ((eq = strchr(item, '=')) != NULL) {
            *eq = '\0';
            for (k = 0; k < PASCAL_DEVICE_SIM_NKEYS; k++)
                if (strcmp(item, pascal_device_sim_keys[k]) == 0)
                    break;
            v = strtod(eq + 1, &end);
            if (k < PASCAL_DEVICE_SIM_NKEYS && (end == eq + 1 || *end))
                v = NAN;
        }
        if (k == PASCAL_DEVICE_SIM_NKEYS) {
            char hint[96];
            fprintf(stderr, "pascal simulate: --timing: expected KEY=VALUE with a key of the "
                            "profile's sim section (hit_ns, sm_spread, ...), got \"%.*s\"%s\n",
                    (int)n, p,
                    eq ? pascal_suggest_hint(item, pascal_device_sim_keys, PASCAL_DEVICE_SIM_NKEYS,
                                             hint, sizeof hint) : "");
            return CLI_USAGE;
        }
        if ((want = pascal_device_sim_check(k, v)) != NULL) {
            fprintf(stderr, "pascal simulate: --timing: %s: expected %s, got \"%s\"\n",
                    pascal_device_sim_keys[k], want, eq + 1);
            return CLI_USAGE;
        }
        *pascal_device_sim_field(tm, k) = v;
        p += n + (p[n] == ',');
    }
    return CLI_OK;
}
