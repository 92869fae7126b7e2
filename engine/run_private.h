/* What the files of a sweep run share: engine/run.c (pascal_run: the plan
 * and the order of the steps), run_headline.c (the summary's headline) and
 * run_work.c (the steps as the MPI driver calls them) use these types and
 * functions, and no other file does.
 *
 * A header of its own rather than more of run_internal.h: run_internal.h is
 * all the MPI driver (run_mpi.c, run_plan_mpi.c) sees of a run, the opaque
 * pascal_run_work and its calls, and stays that narrow; this one lays out
 * the batches, headline and output description that only the run's own
 * files reach into. */
#ifndef PASCAL_ENGINE_RUN_PRIVATE_H
#define PASCAL_ENGINE_RUN_PRIVATE_H

#include <stdint.h>

#include "engine/run.h"
#include "engine/run_sizing.h"

/* The headline: range of one miss-rate metric and, for a capacity sweep, the
 * smallest capacity whose worst case over all other axes meets the target,
 * per value of the pattern axis when the pattern is swept. */
typedef struct headline {
    int slot;                  /* index into the spec's columns, -1 if none */
    uint64_t imin, imax;       /* raw indices of the extremes */
    int cap_axis, group_axis;
    uint64_t cap_stride, group_stride;
    int64_t cap_size, ngroups;
    double *worst;             /* [group][capacity value]: worst metric */
    uint64_t *worst_at;
    run_sizing *z;             /* the exact sizing, or NULL */
} headline;

/* ---- run_headline.c ---- */
/* The first axis, not drawn, of parameter p1 or p2 with min..max values;
 * -1 if none. */
int pascal_run_find_axis(const pascal_spec *spec, int p1, int p2, int64_t min, int64_t max);
void pascal_run_headline_init(headline *h, const pascal_spec *spec, pascal_run_stats *st);
void pascal_run_headline_add(headline *h, pascal_run_stats *st, uint64_t i, double v);
void pascal_run_headline_finish(headline *h, const pascal_spec *spec, pascal_run_stats *st,
                                double target);

#endif
