/* A progress bar with rate and ETA on stderr (only when asked; the CLI asks
 * when stderr is a terminal and --quiet is not given).  Redraws at most ten
 * times a second. */
#ifndef PASCAL_ENGINE_PROGRESS_H
#define PASCAL_ENGINE_PROGRESS_H

#include <stdint.h>

typedef struct pascal_progress {
    int enabled;
    uint64_t total;
    double start, last_draw;    /* seconds, monotonic clock */
} pascal_progress;

void pascal_progress_start(pascal_progress *pr, int enabled, uint64_t total);
void pascal_progress_update(pascal_progress *pr, uint64_t done);
void pascal_progress_finish(pascal_progress *pr, uint64_t done);

#endif
