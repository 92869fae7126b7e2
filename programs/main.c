/* pascal: the command-line front end.  Dispatches to one function per
 * subcommand (programs/); all logic lives in libpascal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suggest.h"
#include "programs/cli.h"
#include "programs/signals.h"
#include "pascal/version.h"

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
    {"play", cli_play, "run workload kernels' request programs on a GPU beside the replay"},
    {"list", cli_list, "what pascal knows: models, columns, axes, patterns, devices, units"},
    {"info", cli_info, "what a sweep, shard, partial, calibration or reference file holds"},
    {"simulate", cli_simulate, "simulate the open scan on a device profile's timing"},
    {"size", cli_size_command, "the smallest capacity meeting a target, by bisection (exact to a block)"},
};
#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

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
    /* Ctrl-C or SIGTERM: a command that is writing a file removes its
     * temporary and lock files and exits 130 (programs/signals.h). */
    cli_signals_install();
#ifdef PASCAL_TEST_HOOKS
    cli_test_hooks_arm();
#endif
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("pascal %s\n", PASCAL_VERSION_STRING);
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
