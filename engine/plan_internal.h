/* What the planner's files share (internal to engine/plan*.c, not
 * installed): the context of one planning call, the walks over the
 * combinations of a few axes, and the bounds each kept point must meet.
 *
 *   plan_memory.c    the bounds of plan.h: machine memory, per-point
 *                    workspaces, the integer limits (lowest: calls no other)
 *   plan.c           the walks and the check pass (calls plan_memory.c)
 *   plan_estimate.c  the estimate (calls plan.c's walks and the bounds)
 *   plan_dynamic.c   a calibration that supports no point (calls the walks) */
#ifndef PASCAL_ENGINE_PLAN_INTERNAL_H
#define PASCAL_ENGINE_PLAN_INTERNAL_H

#include <math.h>
#include <stdint.h>

#include "engine/plan.h"
#include "sweeps/spec.h"

#define BIT(p) ((uint64_t)1 << (p))
#define CHUNK_PER_THREAD 65536 /* points between two reads of the stop flag */
#define MAX_CHECKS 72

/* Models that build a phase vector (all but sharing, catchup, dynamic and
 * workload, whose columns are derived without one, and simulate, which
 * runs the open scan from aligned starts). */
static inline unsigned pascal_plan_phased_models(unsigned models)
{
    return models & ~((1u << PASCAL_MODEL_SHARING) | (1u << PASCAL_MODEL_CATCHUP) |
                      (1u << PASCAL_MODEL_DYNAMIC) | (1u << PASCAL_MODEL_WORKLOAD) |
                      (1u << PASCAL_MODEL_SIMULATE));
}

static inline unsigned pascal_plan_replay_models(unsigned models)
{
    return models & ((1u << PASCAL_MODEL_LRU_REPLAY) | (1u << PASCAL_MODEL_BELADY));
}

/* Belady's rounds at point values v: the parameter, else 6 N. */
static inline int64_t pascal_plan_belady_rounds(const double *v)
{
    return isnan(v[PASCAL_P_ROUNDS]) ? 6 * (int64_t)v[PASCAL_P_N] : (int64_t)v[PASCAL_P_ROUNDS];
}

static inline int pascal_plan_stop_requested(const pascal_plan_opts *o)
{
    return o->stop_flag && *o->stop_flag;
}

/* ---- plan_memory.c --------------------------------------------------------- */

typedef struct plan_ctx {
    const pascal_spec *spec;
    const pascal_plan_opts *o;
    unsigned models;
    double memory;              /* bytes the bounds allow */
} plan_ctx;

/* The context of one planning call; the memory is o->memory_bytes, or this
 * machine's when that is <= 0. */
void pascal_plan_ctx_init(plan_ctx *c, const pascal_spec *spec, const pascal_plan_opts *o);
/* Parameters the bounds read (before closing them under derivation). */
uint64_t pascal_plan_bound_params(unsigned models);
/* The bounds of plan.h at a kept, valid point i: 0 within them, else
 * PASCAL_EINPUT with the message in err (which may be NULL). */
int pascal_plan_check_bounds(const plan_ctx *c, const pascal_point *p, uint64_t i, pascal_error *err);

/* ---- plan.c: walks ----------------------------------------------------------- */

/* The combinations of some dimensions' values, the others at index 0
 * (factored), or the raw indices [begin, begin + count) (range). */
typedef struct walk {
    uint64_t dims;              /* bit d: dimension d varies */
    uint64_t count;
    int range;
    uint64_t begin;
} walk;

typedef struct walk_set {
    int n;
    walk w[MAX_CHECKS];
    uint64_t stride[PASCAL_NPARAM];
    int per_point;
    uint64_t where_dims;
} walk_set;

/* Dimensions of the axes that set any parameter of `params`. */
uint64_t pascal_plan_dims_of(const pascal_spec *spec, uint64_t params);
/* Combinations of the values of the dimensions `dims`. */
uint64_t pascal_plan_combos(const pascal_spec *spec, uint64_t dims);
/* Raw-index stride of each dimension (mixed radix, last fastest). */
void pascal_plan_init_strides(const pascal_spec *spec, walk_set *ws);
/* The raw index of the c-th point of walk w. */
uint64_t pascal_plan_walk_index(const pascal_spec *spec, const walk_set *ws, const walk *w, uint64_t c);
/* The walks of the check pass over [begin, end). */
void pascal_plan_walks(const plan_ctx *c, uint64_t begin, uint64_t end, walk_set *ws);

#endif
