/* The `simulate` model at a sweep point (docs/simulate.md): the progress
 * simulator's configuration for a plain point (one ring of N blocks read
 * from block 0 by round(W M) CTAs) and for a workload point, whose kernel
 * is several streams in waves (docs/workloads.md, "For the progress
 * simulator"): the grid's w->ctas CTAs, CTA c reading the streams
 * pascal_workload_wave gives it with the phase of slot c mod M (the point's
 * pattern over M workers on a ring of N blocks, as the static waves take
 * it), each for N steps.  Shared by the evaluator and `pascal simulate
 * --spec`.  Not part of the installed interface. */
#ifndef PASCAL_ENGINE_EVAL_SIM_H
#define PASCAL_ENGINE_EVAL_SIM_H

#include "model/sim.h"
#include "model/workload.h"
#include "sweeps/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The simulator's configuration at plain point values v; -1 when the point
 * is not one the simulator can run (its columns are then NaN). */
int pascal_eval_sim_config(const double *v, pascal_sim_config *c);

/* A workload point's work table (one per thread; grown on demand). */
typedef struct pascal_wl_sim pascal_wl_sim;
pascal_wl_sim *pascal_wl_sim_create(void);
void pascal_wl_sim_free(pascal_wl_sim *s);

/* The configuration at workload point p: *c as for a plain point, with
 * c->work pointing into s (valid until the next call), c->N the workload's
 * blocks per stream, c->block_bytes its block; *w the derived workload.
 * 0; -1 when the point is not one the simulator can run (no ring: causal;
 * more than INT32_MAX blocks in the kernel; the simulator's parameters
 * unset); -2 when memory ran out. */
int pascal_wl_sim_config(pascal_wl_sim *s, const pascal_point *p, pascal_sim_config *c,
                         pascal_workload *w);

/* At most the bytes a pascal_wl_sim and the simulator's workspace hold
 * after workload point values v (NaN when v is not one). */
double pascal_wl_sim_bytes(const double *v);

/* The rounds of a workload's lock-step kernel with M slots: waves N on a
 * ring; for a request program, each wave's longest CTA (the replay's). */
double pascal_wl_sim_rounds(const pascal_workload *w, int64_t M);

/* The columns of a finished workload simulation, in this order: K_sim
 * (fills per round, fills / rounds, as the static columns count a
 * workload's rounds), rho_sim (fills per block request), ns_per_round_sim
 * (makespan / rounds), fill_bytes_sim (fills x block_bytes) and
 * traffic_sim (fill_bytes_sim / ideal_bytes). */
#define PASCAL_WL_SIM_NCOLS 5
void pascal_wl_sim_columns(const pascal_workload *w, int64_t M, const pascal_sim_result *r,
                           double *out);

#ifdef __cplusplus
}
#endif

#endif
