/* The pattern description of a sweep point: what the phase generator
 * (model/phases.h) needs to build the point's phase vector.  Its own file
 * so that the evaluator (eval.c), the simulator's view of a point
 * (eval_sim.c) and the workload evaluator (eval_workload.c) all call down
 * to it, and none of them calls back up into eval.c.  Internal to the
 * engine and its drivers. */
#ifndef PASCAL_ENGINE_EVAL_PHASES_H
#define PASCAL_ENGINE_EVAL_PHASES_H

#include "model/phases.h"
#include "sweeps/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Builds the pattern description of point p (unset parameters take their
 * defaults: aligned, one cluster, no spread, sigma 0, lag 1, seed 1).  The
 * random-pattern key comes from the phase-defining coordinates only, never
 * from the point's index:
 *   key = mix(mix(mix(0x70617363616c, N), M), kind)
 * (0x70617363616c is "pascal" in ASCII, kind the pattern's code), then for
 * the gaussian pattern key = mix(key, the IEEE-754 bits of sigma); mix and
 * the generator are defined in model/phases.h.  So a random pattern drawn
 * for (N, M, kind, sigma) is the same at every capacity, on every thread
 * and in every shard. */
void pascal_eval_pattern(const pascal_point *p, pascal_pattern *pat);

#ifdef __cplusplus
}
#endif

#endif
