/* The pascal command line: one file per subcommand over libpascal.  Each
 * subcommand returns the process exit status: 0 success, 1 failure while
 * running, 2 bad input (flag, spec, unwritable output). */
#ifndef PASCAL_PROGRAMS_CLI_H
#define PASCAL_PROGRAMS_CLI_H

#include <stdint.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

typedef struct cli_flag {
    const char *name;       /* without the leading dashes */
    const char *metavar;    /* NULL for a switch */
    const char *help;
    const char *value;      /* set by cli_parse */
    int given;
} cli_flag;

/* Parses --name value, --name=value and switches; positional arguments go to
 * pos[0..*npos-1].  Returns CLI_OK, CLI_USAGE after printing the error, or -1
 * when --help was given (usage already printed to stdout) or the hidden
 * --complete (the flags listed for shell completion). */
int cli_parse(const char *cmd, const char *usage, int argc, char **argv, cli_flag *flags,
              int nflags, char **pos, int maxpos, int *npos);
cli_flag *cli_find(cli_flag *flags, int nflags, const char *name);

/* Typed flag values: on a bad value print
 * "pascal CMD: --NAME: expected ..., got "..."" and return CLI_USAGE. */
int cli_int(const char *cmd, const cli_flag *f, int64_t min, int64_t *out);
int cli_real(const char *cmd, const cli_flag *f, double min, double *out);
/* The index of f's value among names[0..n-1] into *out ("expected cold or
 * warm, got ..." otherwise: CLI_USAGE). */
int cli_name(const char *cmd, const cli_flag *f, const char *const *names, int n, int *out);
int cli_size(const char *cmd, const cli_flag *f, double *out);
/* --threads: 1 to CLI_MAX_THREADS; warns (and accepts) above the cores. */
#define CLI_MAX_THREADS 4096
int cli_threads(const char *cmd, const cli_flag *f, int *out);
/* --phases "0,0,5" into a malloc'd array; each phase below N when N > 0,
 * else any non-negative integer.  A bad list is one line on stderr. */
int cli_phase_list(const char *cmd, const char *text, int64_t N, int64_t **out, int64_t *n);

/* "pascal CMD ARG ..." as provenance; malloc'd, NULL when out of memory
 * (programs/args.c). */
char *cli_command_line(const char *cmd, int argc, char **argv);
/* Checks before any work that `path` can be written: creates and removes
 * PATH.tmp.PID.  PASCAL_EINPUT naming the path and the reason. */
int cli_check_output(const char *path, pascal_error *err);
/* A comma-separated list of integers >= min ("1,2,4") for flag --NAME into
 * a malloc'd array; each value once. */
int cli_int_list(const char *name, const char *text, int64_t min, int64_t **out, int *n,
                 pascal_error *err);
/* The same for flag --NAME of flags (its value, else dflt); a bad list is
 * one line "pascal CMD: ..." on stderr and CLI_USAGE. */
int cli_int_list_flag(const char *cmd, cli_flag *flags, int nflags, const char *name,
                      const char *dflt, int64_t min, int64_t **out, int *n);

int cli_run(int argc, char **argv);            /* programs/run.c */
int cli_point(int argc, char **argv);          /* programs/point.c */
int cli_merge(int argc, char **argv);          /* programs/merge.c */
int cli_report(int argc, char **argv);         /* programs/report.c */
int cli_lab(int argc, char **argv);            /* programs/lab.c */
int cli_calibrate(int argc, char **argv);      /* programs/calibrate.c */
int cli_predict(int argc, char **argv);        /* programs/predict.c */
int cli_validate(int argc, char **argv);       /* programs/validate.c */
int cli_capacity_scan(int argc, char **argv);  /* programs/capacity_scan.c */
int cli_spotcheck(int argc, char **argv);      /* programs/spotcheck.c */
int cli_play(int argc, char **argv);           /* programs/play.c */
int cli_measure_refs(int argc, char **argv);   /* programs/measure_refs.c */
int cli_list(int argc, char **argv);           /* programs/list.c */
int cli_info(int argc, char **argv);           /* programs/info.c */
int cli_simulate(int argc, char **argv);       /* programs/simulate.c */
/* measure-refs --simulate, with measure-refs' parsed flags. */
int cli_measure_refs_simulated(cli_flag *flags, int nflags, int argc, char **argv);
int cli_run_mpi(int argc, char **argv);        /* programs/run_mpi.c (pascal-mpi) */
/* `run` as one rank of an MPI job, once MPI is started (programs/run.c). */
int cli_run_ranks(int argc, char **argv);

/* Whether a progress bar may go to stderr: it is a terminal, or this is a
 * rank of an MPI job started from a terminal (programs/flags.c). */
int cli_stderr_is_terminal(void);
/* The number of ranks when started by mpirun (Open MPI or PMI), else 0. */
int cli_mpi_ranks(void);
/* simulate --spec FILE [--point I]: one point of a sweep spec, with
 * simulate's parsed flags; should_stop is polled during the run. */
int cli_simulate_spec(cli_flag *flags, int nflags, int (*should_stop)(void *ctx));
/* simulate --timing KEY=V,...: overrides of a profile's sim values, checked
 * as the profile is (programs/flags.c). */
struct pascal_sim_timing;
int cli_sim_timing(const cli_flag *f, struct pascal_sim_timing *tm);
int cli_size_command(int argc, char **argv);   /* programs/size.c */

#ifdef PASCAL_TEST_HOOKS
/* Test builds only (programs/testhooks.c): reads the PASCAL_TEST_*
 * variables; the second is called after every batch of a run. */
void cli_test_hooks_arm(void);
void cli_test_hook_batch(void);
#endif

#ifdef __cplusplus
}
#endif

#endif
