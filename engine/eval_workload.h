/* Workload points (docs/workloads.md, "Over the kernel"): a point whose
 * `workload` is set is evaluated over the kernel's waves.  Wave w holds
 * CTAs w M .. w M + M - 1 in launch order on the M resident slots; slot q
 * keeps phase s_q (the point's pattern over M workers on a ring of N
 * blocks), so consecutive waves on the same streams continue one ring scan.
 * Each wave is a multi-stream instance (model/static_multi.h) run for N
 * rounds; waves with the same structure (stream pattern, slot count, which
 * streams are new) are prepared once.  A stream that was not in the
 * previous wave is new: its N blocks are fetched at least once in the wave
 * (the compulsory floor), whatever the steady state says.
 *
 * Columns: the `workload` ones from the derivation; the static models'
 * K_x (misses per round over the whole kernel: fills / (waves N)) and rho_x
 * (fills / requests); D, theta, T_star and margin of the first wave; V the
 * mean over waves; `traffic` fills in bytes and their ratio to the ideal
 * traffic.  sdcm, lru_replay and belady are NaN on workload points. */
#ifndef PASCAL_ENGINE_EVAL_WORKLOAD_H
#define PASCAL_ENGINE_EVAL_WORKLOAD_H

#include "sweeps/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_wl_eval pascal_wl_eval;
struct pascal_dyn_model;

/* One per thread; `models` as for pascal_eval_create.  NULL when out of
 * memory. */
pascal_wl_eval *pascal_wl_eval_create(unsigned models);
void pascal_wl_eval_free(pascal_wl_eval *we);

/* Columns cols[0..ncols-1] at workload point p into out; dyn may be NULL.
 * Returns 0, or -1 (out all NaN) when the waves cannot be built or memory
 * ran out. */
int pascal_wl_eval_point(pascal_wl_eval *we, const pascal_point *p,
                         const struct pascal_dyn_model *dyn, const int *cols, int ncols,
                         double *out);

#ifdef __cplusplus
}
#endif

#endif
