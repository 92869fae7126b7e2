/* A progress bar with rate and ETA on stderr for `pascal run` (the CLI
 * draws it when stderr is a terminal and --quiet is not given).  It is the
 * run's progress callback (pascal_run_opts.progress): the first call starts
 * its clock, later calls redraw at most ten times a second; a later call
 * with done = 0 (the next stage: the evaluation after a per-point check
 * pass) ends the line and starts again. */
#ifndef PASCAL_PROGRAMS_PROGRESS_H
#define PASCAL_PROGRAMS_PROGRESS_H

#include <stdint.h>

typedef struct cli_progress {
    int started;
    uint64_t done, total;       /* raw points */
    double start, last_draw;    /* seconds, monotonic clock */
} cli_progress;

/* The callback; ctx is a zeroed cli_progress. */
void cli_progress_update(void *ctx, uint64_t done, uint64_t total);
/* Draws the last state and ends the line, when anything was drawn. */
void cli_progress_finish(cli_progress *pr);

#endif
