/* The pieces of a sweep run (engine/run_work.c) that the MPI driver
 * (engine/mpi/run_mpi.c) puts together in its own order: the same plan, columns,
 * output description, evaluation and headline as one process, so that the
 * ranks write what one process writes.  Internal to engine/: all the MPI
 * driver sees of a run, the opaque pascal_run_work and its calls (the
 * layout behind them is engine/run_private.h). */
#ifndef PASCAL_ENGINE_RUN_WORK_H
#define PASCAL_ENGINE_RUN_WORK_H

#include "engine/run.h"

typedef struct pascal_run_work pascal_run_work;

/* Loads the calibration, describes the columns, allocates a batch and one
 * evaluator per thread, and starts the headline.  st->threads, raw_begin and
 * raw_end must be set; st is kept and fed by the calls below. */
int pascal_run_work_create(const pascal_spec *spec, const pascal_run_opts *o,
                           pascal_run_stats *st, pascal_run_work **out, pascal_error *err);
void pascal_run_work_free(pascal_run_work *w);
/* Raw points per batch: the most one pascal_run_work_eval takes. */
uint64_t pascal_run_work_batch(const pascal_run_work *w);

/* The checks of the whole run once every rank has planned its slice and
 * st->rows, raw_points are the run's: at least one kept point in a whole
 * sweep, and a dynamic sweep's calibration supports some point. */
int pascal_run_work_check(pascal_run_work *w, pascal_error *err);

/* The output as one process describes it (attributes, digests, axes, phase
 * lists), and its columns; all valid while w lives. */
int pascal_run_work_meta(pascal_run_work *w, pascal_sink_meta **meta,
                         const pascal_column_desc **points, int *npoint,
                         const pascal_column_desc **results, int *nresult, pascal_error *err);

/* Evaluates raw indices [b0, b1) (at most a batch) on the threads and
 * compacts the kept rows: *points and *results then hold *rows rows of each
 * column (8-byte values, as pascal_sink_append takes them) until the next
 * call.  Feeds the headline: calls come in increasing index order.
 * PASCAL_EINTR: the options' stop flag was raised; nothing was kept. */
int pascal_run_work_eval(pascal_run_work *w, uint64_t b0, uint64_t b1, int64_t *rows,
                         const void *const **points, const double *const **results,
                         pascal_error *err);

/* A resumed run: feeds the headline the st->rows_resumed rows already in
 * sink (an open sink of the partial file). */
int pascal_run_work_replay(pascal_run_work *w, pascal_sink *sink, pascal_error *err);

/* The headline's running extremes, to combine those of several ranks:
 * (value, raw index) pairs, value NaN where a rank has none yet. */
typedef struct pascal_run_extremes {
    double *min, *max;
    uint64_t *imin, *imax;
    double *worst;        /* per sizing cell: worst metric so far */
    uint64_t *worst_at;
    int64_t nworst;
} pascal_run_extremes;
void pascal_run_work_extremes(pascal_run_work *w, pascal_run_extremes *x);
/* The exact sizing's answer per group so far (engine/run_sizing.h), to
 * combine those of several ranks with run_sizing_pick before
 * pascal_run_work_finish; NULL when the run does not search.  A rank that
 * cannot take part turns the search off (the summary then says why). */
struct run_sizing_best *pascal_run_work_sizing(pascal_run_work *w, int64_t *n);
void pascal_run_work_sizing_off(pascal_run_work *w, const char *why);
/* Ends the headline: the points of the extremes and the sizing rows. */
void pascal_run_work_finish(pascal_run_work *w);

#endif
