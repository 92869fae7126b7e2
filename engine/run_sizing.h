/* The run summary's exact sizing (internal to engine/run*.c): while a sweep
 * with a capacity axis is evaluated, each scenario (the row where the
 * capacity axis is at its first value) is also searched by bisection
 * (engine/size.h) with the evaluator that has just built its phase vector,
 * so the search costs a few capacity queries per scenario, not a second
 * pass.  Per group (a value of the pattern axis, or the whole sweep) the
 * answer is the scenario that needs the most capacity: each column being
 * monotone, that is the smallest capacity meeting the target in every
 * scenario of the group, exact to one block, where the grid only says
 * between which swept capacities it lies.
 *
 * The target is the spec's search: target, else "headline metric <= the
 * run's --target".  The search is skipped, with a note saying why, when the
 * metric is not monotone in C, when a rule reads the capacity, or when the
 * capacity axis is zipped with another parameter. */
#ifndef PASCAL_ENGINE_RUN_SIZING_H
#define PASCAL_ENGINE_RUN_SIZING_H

#include <stdint.h>

#include "engine/eval.h"
#include "engine/size.h"
#include "engine/run.h"

typedef struct run_sizing run_sizing;

/* NULL (with st->sizing_exact = 0 and st->sizing_note set) when the run
 * cannot search; cap_axis and group_axis are the headline's, strides and
 * sizes their positions in the raw index, batch the slots per batch. */
run_sizing *run_sizing_create(const pascal_spec *spec, double target, int cap_axis, uint64_t cap_stride,
                              int64_t cap_size, int group_axis, uint64_t group_stride, int64_t ngroups,
                              int64_t batch, pascal_run_stats *st);
void run_sizing_free(run_sizing *z);
/* Bytes run_sizing_create takes for batch slots. */
double run_sizing_bytes(int64_t batch);

/* In the parallel loop, after point i (slot s) is evaluated with ev:
 * searches when i is a scenario's first row.  Returns -1 when the point
 * cannot be evaluated. */
int run_sizing_search(run_sizing *z, pascal_eval *ev, uint64_t i, int64_t s, const pascal_point *p);
/* In index order, for every kept row: folds slot s's search, if any. */
void run_sizing_fold(run_sizing *z, uint64_t i, int64_t s);
/* Searches the scenarios of raw indices [begin, end) in parallel and folds
 * them in order: the rows a resumed run keeps from its partial file. */
int run_sizing_range(run_sizing *z, const pascal_spec *spec, uint64_t begin, uint64_t end, int threads,
                     const struct pascal_dyn_model *dyn);
/* A group's answer so far: the scenario that needs the most capacity. */
typedef struct run_sizing_best {
    int have;
    pascal_size_result r;
} run_sizing_best;
/* The groups' answers (n of them), to combine with those of other
 * processes (MPI ranks) before run_sizing_finish. */
run_sizing_best *run_sizing_bests(run_sizing *z, int64_t *n);
/* Keeps in *into whichever of the two a process folding both in index
 * order would keep: the one that needs more capacity (no answer beats
 * all), on a tie the one of the smaller raw index.  Commutative. */
void run_sizing_pick(const run_sizing_best *from, run_sizing_best *into);
/* Writes the groups' answers into st->sizing[] and sets st->sizing_exact. */
void run_sizing_finish(run_sizing *z, const pascal_spec *spec, pascal_run_stats *st);

#endif
