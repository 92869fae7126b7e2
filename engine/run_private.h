/* What the files of a sweep run share: engine/run.c (pascal_run: the order
 * of the steps), run_plan.c (the plan and the inputs), run_batch.c (the
 * batches and their pipeline), run_headline.c (the summary's headline),
 * run_sink.c (the output's description and opening) and run_work.c (the
 * steps as the MPI driver calls them) use these types and functions, and
 * no other file does.  Calls run one way: run.c and run_work.c, the two
 * drivers, call the others and not each other; run_plan.c calls
 * run_batch.c; run_batch.c calls run_headline.c and run_sink.c.
 *
 * A header of its own rather than more of run_work.h: run_work.h is all
 * the MPI driver (run_mpi.c, plan_mpi.c) sees of a run, the opaque
 * pascal_run_work and its calls, and stays that narrow; this one lays out
 * the batches, headline and output description that only the run's own
 * files reach into. */
#ifndef PASCAL_ENGINE_RUN_PRIVATE_H
#define PASCAL_ENGINE_RUN_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/eval.h"
#include "engine/plan.h"
#include "engine/run.h"
#include "engine/run_guard.h"
#include "engine/run_sizing.h"
#include "model/dynamic.h"
#include "model/sim.h"

/* Raw points per batch, unless the options say otherwise. */
#define DEFAULT_BATCH 65536
/* A slow model (a simulation per point): a few points per thread per
 * batch, handed out one at a time, so the bar moves and Ctrl-C is heard. */
#define SLOW_POINTS_PER_THREAD 2

/* Per-batch slot storage, indexed by (raw index - batch start). */
typedef struct batch {
    int64_t cap;
    int npc, nrc;
    unsigned char *keep;
    size_t *idx;           /* slots of the kept rows, in order */
    double **pv;           /* npc arrays of point values */
    double **rv;           /* nrc arrays of results */
    void **out_p;          /* compacted point columns (double or int64) */
    double **out_r;        /* compacted results */
} batch;

/* The headline: range of one miss-rate metric and, for a capacity sweep, the
 * smallest capacity whose worst case over all other axes meets the target,
 * per value of the pattern axis when the pattern is swept. */
typedef struct headline {
    int slot;                  /* index into the spec's columns, -1 if none */
    uint64_t imin, imax;       /* raw indices of the extremes */
    int cap_axis, group_axis;
    uint64_t cap_stride, group_stride;
    int64_t cap_size, ngroups;
    double *worst;             /* [plane][group][capacity value]: worst metric; plane 1,
                                  when band_slot >= 0, the band's high end */
    uint64_t *worst_at;
    int band_slot;             /* answer_traffic_hi's index in the columns, or -1 */
    run_sizing *z;             /* the exact sizing, or NULL */
} headline;

/* Column and axis descriptions for the sink, borrowed from the vocabulary. */
typedef struct sink_plan {
    int pids[PASCAL_NPARAM], npc;
    pascal_column_desc pcols[PASCAL_NPARAM];
    pascal_column_desc rcols[PASCAL_NCOLUMN];
    pascal_axis_desc axes[PASCAL_NPARAM];
    int axis_dims[PASCAL_NPARAM];
} sink_plan;

/* The sink's description, with the storage its strings and arrays live in
 * (so that it can outlive the function that makes it). */
typedef struct run_meta {
    pascal_sink_meta m;
    char shard[64], range[64], answer[384];
    pascal_attr attrs[7 + 5 + 5];  /* provenance, digests, sampling */
    char sample[4][64], intervals[512];
    pascal_run_digests dg;
    const int64_t **lists;
    int64_t *lens;
} run_meta;

/* ---- run_plan.c ---- */
/* Pass 1: the estimate (o->on_estimate), the check pass over st's raw
 * range, then pascal_run_plan_whole; fills st->raw_points, rows, max_M. */
int pascal_run_plan(const pascal_spec *spec, int threads, const pascal_run_opts *o,
                    const pascal_dyn_model *dyn, pascal_run_stats *st, pascal_error *err);
int pascal_run_plan_whole(const pascal_spec *spec, const pascal_plan_opts *po,
                          const pascal_dyn_model *dyn, const pascal_run_stats *st,
                          pascal_error *err);

/* ---- run_batch.c ---- */
int pascal_run_slow_spec(const pascal_spec *spec);
void pascal_run_batch_free(batch *b);
int pascal_run_batch_alloc(batch *b, int64_t cap, int npc, int nrc);
void pascal_run_eval_batch(const pascal_spec *spec, pascal_eval *ev, const sink_plan *sp,
                           batch *b, uint64_t b0, uint64_t b1, run_sizing *z, int64_t zoff,
                           int *failed, const pascal_run_opts *o, int *halt);
int64_t pascal_run_compact_batch(const sink_plan *sp, batch *b, uint64_t b0, uint64_t b1,
                                 headline *h, pascal_run_stats *st, int64_t zoff,
                                 double ***results);
int pascal_run_replay_resumed(const pascal_spec *spec, pascal_sink *sink, headline *h,
                              pascal_run_stats *st, uint64_t *start, pascal_error *err);
pascal_eval *pascal_run_make_eval(const pascal_spec *spec, const pascal_dyn_model *dyn,
                                  const pascal_sim_timing *tm, const pascal_run_opts *o);
/* Evaluates and writes the rows of st's raw range (after those a resumed
 * run kept) in pipelined batches, and fills the summary. */
int pascal_run_batches(const pascal_spec *spec, const pascal_run_opts *o, int threads,
                       sink_plan *sp, pascal_sink *sink, pascal_run_stats *st,
                       const pascal_dyn_model *dyn, const pascal_sim_timing *tm,
                       pascal_error *err);

/* ---- run_headline.c ---- */
/* The first axis, not drawn, of parameter p1 or p2 with min..max values;
 * -1 if none. */
int pascal_run_find_axis(const pascal_spec *spec, int p1, int p2, int64_t min, int64_t max);
void pascal_run_headline_init(headline *h, const pascal_spec *spec, pascal_run_stats *st);
void pascal_run_headline_add(headline *h, pascal_run_stats *st, uint64_t i, double v);
/* The band's high end at row i (h->band_slot >= 0). */
void pascal_run_headline_add_band(headline *h, uint64_t i, double v);
void pascal_run_headline_finish(headline *h, const pascal_spec *spec, pascal_run_stats *st,
                                double target);

/* ---- run_sink.c ---- */
void pascal_run_plan_columns(const pascal_spec *spec, sink_plan *sp);
int pascal_run_make_meta(const pascal_spec *spec, const pascal_run_opts *o,
                         const pascal_run_stats *st, sink_plan *sp, run_meta *rm,
                         pascal_error *err);
/* The run's sink: make_meta, the output prepared under the claim
 * (run_guard.h), then a new file or (resume) the partial one. */
int pascal_run_open_sink(const pascal_spec *spec, const pascal_run_opts *o,
                         pascal_run_stats *st, sink_plan *sp, pascal_sink **sink,
                         pascal_error *err);

#endif
