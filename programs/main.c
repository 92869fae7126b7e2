/* pascal: the command-line front end.  Dispatches to one function per
 * subcommand (programs/); all logic lives in libpascal. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/suggest.h"
#include "programs/cli.h"
#include "common/testpoint.h"
#include "output/fs/tmpfile.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} commands[] = {
    {"run", cli_run, "evaluate a sweep spec into HDF5 or CSV"},
    {"point", cli_point, "explain the static model at one configuration"},
    {"merge", cli_merge, "join the shard files of `run --shard K/N` into one"},
    {"report", cli_report, "write a self-contained HTML report of a sweep file"},
    {"lab", cli_lab, "the cache lab: an exact fully associative LRU toy"},
    {"calibrate", cli_calibrate, "fit the dynamic model to reference runs (paper section 4)"},
    {"predict", cli_predict, "the calibrated dynamic model at one configuration"},
    {"validate", cli_validate, "check the closed forms against exact cache replay (section 5.2)"},
    {"capacity-scan", cli_capacity_scan, "measure a GPU's effective L2 capacity (Figure 2)"},
    {"spotcheck", cli_spotcheck, "measure chosen sweep points on a GPU beside the model"},
    {"measure-refs", cli_measure_refs, "measure dynamic-model reference runs on a GPU"},
    {"list", cli_list, "what pascal knows: models, columns, axes, patterns, devices, units"},
    {"info", cli_info, "what a sweep, shard, partial, calibration or reference file holds"},
    {"simulate", cli_simulate, "simulate the open scan on a device profile's timing"},
    {"size", cli_size_command, "the smallest capacity meeting a target, by bisection (exact to a block)"},
};
#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

/* Ctrl-C or SIGTERM: a command that is writing a file removes its
 * temporary and lock files and exits 130 (`run` installs its own handler,
 * which stops after the current batch and keeps the rows for --resume). */
static void on_interrupt(int sig)
{
    static const char msg[] = "pascal: interrupted; nothing written\n";
    (void)sig;
    pascal_tmpfile_remove_all();
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(130);
    _exit(130);
}

/* Tests of interrupted commands: PASCAL_TEST_RAISE_AT=NAME:SIGNAL (SIGNAL
 * one of KILL, INT, TERM) makes the process raise SIGNAL the first time it
 * reaches the test point NAME (common/testpoint.h). */
static char raise_at[64];
static int raise_signal;

static void raise_hook(const char *name)
{
    int sig = raise_signal;
    if (sig && strcmp(name, raise_at) == 0) {
        raise_signal = 0;
        raise(sig);
    }
}

static void arm_test_raise(void)
{
    static const struct {
        const char *name;
        int sig;
    } sigs[] = {{"KILL", SIGKILL}, {"INT", SIGINT}, {"TERM", SIGTERM}};
    const char *v = getenv("PASCAL_TEST_RAISE_AT"), *colon = v ? strrchr(v, ':') : NULL;
    if (!colon || (size_t)(colon - v) >= sizeof raise_at)
        return;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (strcmp(colon + 1, sigs[i].name) == 0)
            raise_signal = sigs[i].sig;
    memcpy(raise_at, v, (size_t)(colon - v));
    if (raise_signal)
        pascal_testpoint_set(raise_hook);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: pascal COMMAND [options]   (pascal COMMAND --help for details)\n\n"
               "PASCAL shared-cache model for parallel scans: design-space sweeps.\n\n"
               "commands:\n");
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-14s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n  --version  print the version\n  --help     show this help\n");
}

/* " (did you mean 'run'?)" for a mistyped command, else "". */
static const char *command_hint(const char *name)
{
    static char hint[96];
    const char *names[NCOMMANDS];
    for (int i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i].name;
    return pascal_suggest_hint(name, names, NCOMMANDS, hint, sizeof hint);
}

int main(int argc, char **argv)
{
    /* A file size limit (ulimit -f) makes a write fail with EFBIG, which is
     * reported like a full disk, rather than kill the process. */
    signal(SIGXFSZ, SIG_IGN);
    signal(SIGINT, on_interrupt);
    signal(SIGTERM, on_interrupt);
    arm_test_raise();
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("pascal %s\n", PASCAL_VERSION);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--complete") == 0) { /* hidden: commands for shell completion */
        for (int i = 0; i < NCOMMANDS; i++)
            printf("%s\n", commands[i].name);
        return CLI_OK;
    }
#ifdef PASCAL_MPI
    /* pascal-mpi: `run` is one rank of an MPI job (docs/scale.md). */
    if (strcmp(argv[1], "run") == 0)
        return cli_run_mpi(argc - 2, argv + 2);
#endif
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 2, argv + 2);
    fprintf(stderr, "pascal: unknown command \"%s\"%s; commands:", argv[1], command_hint(argv[1]));
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(stderr, " %s", commands[i].name);
    fprintf(stderr, "\n");
    return CLI_USAGE;
}
