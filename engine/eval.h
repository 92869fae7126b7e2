/* Point evaluation: turns one expanded sweep point into result columns by
 * calling the static model.  One pascal_eval per thread; it caches the last
 * phase vector, so consecutive points that differ only in capacity-like
 * parameters (the spec puts those axes innermost) share the sort, the gaps,
 * the reuse distances and the residency intervals, and each costs a few
 * binary searches. */
#ifndef PASCAL_ENGINE_EVAL_H
#define PASCAL_ENGINE_EVAL_H

#include <stdint.h>

#include "model/phases.h"
#include "sweeps/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_eval pascal_eval;

/* `models` is a mask (1u << pascal_model_id) deciding what each phase vector
 * prepares. */
pascal_eval *pascal_eval_create(unsigned models);
void pascal_eval_free(pascal_eval *ev);
/* The models ev was made for. */
unsigned pascal_eval_models(const pascal_eval *ev);

/* The dynamic model's frozen calibration (model/dynamic.h; borrowed, must
 * outlive ev).  Without one, the dynamic columns are NaN with fallback
 * code 12. */
struct pascal_dyn_model;
void pascal_eval_set_dynamic(pascal_eval *ev, const struct pascal_dyn_model *dyn);
/* The calibration set (NULL: none). */
const struct pascal_dyn_model *pascal_eval_dynamic_model(const pascal_eval *ev);
/* The dynamic model's columns at point values v, in pascal_calibrate_point's
 * order, as the evaluator computes them: a workload point through its
 * open-scan view (engine/eval_workload.h), or code 14 where it has none;
 * any other point as it is.  For planners that check a calibration. */
void pascal_eval_dynamic(const struct pascal_dyn_model *dyn, unsigned flags, const double *v,
                         double *out);
/* Query flags for the dynamic model (model/dynamic.h PASCAL_DYN_NO_HOLD:
 * refuse answers held at the edge of the calibrated range); default 0. */
void pascal_eval_set_dynamic_flags(pascal_eval *ev, unsigned flags);

/* The progress simulator's timing for the `simulate` model (borrowed, must
 * outlive ev), and a stop request it polls during a long simulation.
 * Without timing the simulate columns are NaN.  ndevices > 0: tm holds one
 * timing per profile of the spec's device axis and a point takes
 * tm[device]; 0: tm is the one profile's. */
struct pascal_sim_timing;
void pascal_eval_set_sim(pascal_eval *ev, const struct pascal_sim_timing *tm, int ndevices,
                         int (*should_stop)(void *ctx), void *stop_ctx);

/* The pattern of a point (the random-phase key contract): engine/eval_phases.h. */

/* Evaluates columns cols[0..ncols-1] (pascal_column_id) at point p into
 * out[0..ncols-1].  Returns 0, -1 when the phase vector cannot be built
 * (out is then all NaN) or memory ran out, or 1 when the stop request
 * interrupted a simulation (out is then incomplete: do not keep it). */
int pascal_eval_point(pascal_eval *ev, const pascal_point *p, const int *cols,
                      int ncols, double *out);

/* Bytes one pascal_eval for `models` holds after evaluating a point of N
 * blocks and M workers (its workspaces grow to the largest point seen and
 * stay).  Planners compare it with the machine's memory before a run. */
double pascal_eval_bytes(unsigned models, int64_t N, int64_t M);

/* The workspace of the last evaluated point (for `pascal point`). */
const struct pascal_static *pascal_eval_workspace(const pascal_eval *ev);

#ifdef __cplusplus
}
#endif

#endif
