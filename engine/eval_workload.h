/* Workload points (docs/workloads.md, "Over the kernel"): a point whose
 * `workload` is set is evaluated over the kernel's waves.  Wave w holds
 * CTAs w M .. w M + M - 1 in launch order on the M resident slots; slot q
 * keeps phase s_q (the point's pattern over M workers on a ring of N
 * blocks), so consecutive waves on the same streams continue one ring scan.
 * Each wave is a multi-stream instance (model/static_multi.h) run for N
 * rounds; waves with the same structure (stream pattern, slot count, each
 * stream's history) are prepared once.  A stream read for the first time,
 * or back after skipping waves with more blocks read since than the cache
 * holds (a stream-level LRU distance over the waves), starts cold: its N
 * blocks are fetched at least once in the wave (the compulsory floor),
 * whatever the steady state says.  A stream of the previous wave continues
 * its ring scan.
 *
 * Columns: the `workload` ones from the derivation; the static models'
 * K_x (misses per round over the whole kernel: fills / (waves N)) and rho_x
 * (fills / requests); D, theta, T_star and margin of the first wave; V the
 * mean over waves; `traffic` fills in bytes and their ratio to the ideal
 * traffic.  sdcm, lru_replay and belady are NaN on workload points. */
#ifndef PASCAL_ENGINE_EVAL_WORKLOAD_H
#define PASCAL_ENGINE_EVAL_WORKLOAD_H

#include "model/dynamic.h"
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

/* Models whose columns build a workload point's waves: all but workload,
 * dynamic, sharing, catchup and simulate (its kernel is simulated:
 * engine/eval_sim.h). */
unsigned pascal_wl_wave_models(unsigned models);

/* At most the bytes one pascal_wl_eval for `models` holds after a workload
 * point with values v (after pascal_spec_point: the workload's fields and
 * M): the wave buffers and workspace for R = M units requests, one summary
 * per wave (identical waves share one, so this bounds it from above), and
 * with lru_replay the kernel replay's stack over every stream's blocks.
 * 0 when the models build no waves; NaN when v is not a workload point.
 * Planners compare it with the machine's memory before a run. */
double pascal_wl_eval_bytes(unsigned models, const double *v);

/* The dynamic model's view of a workload point (docs/workloads.md, "The
 * dynamic model over the real horizon"): attention without a causal mask
 * whose KV heads each have at least M CTAs (sharers_a >= M).  Each KV
 * head's CTAs are then one open scan of W = sharers_a / M scans per
 * resident slot over N = ceil(L_kv / T_kv) steps, a step's K and V tiles
 * one block of 2 T_kv d bytes; `view` gets the point's values with N, W,
 * block_bytes and C (capacity_bytes over that block) set so, and *scans
 * the number of such scans (B H_kv).  Returns 0, or -1 where the model does
 * not apply (GEMM: a CTA reads two panels shared by different CTAs; fewer
 * CTAs per head than slots: several heads resident at once; causal; a
 * head's K and V that fit in the cache, N <= C: the calibrations measure
 * rings larger than the cache, and a fitting head is fetched once, which
 * the static model says). */
int pascal_wl_dyn_view(const double *v, double *view, double *scans);

/* fallback code of the dynamic columns at a workload point the dynamic
 * model does not cover: PASCAL_DYN_ERR_WORKLOAD, 14 (the codes: model/
 * dynamic.h, sweeps/SPEC.md). */
#define PASCAL_DYN_FALLBACK_WORKLOAD PASCAL_DYN_ERR_WORKLOAD

#ifdef __cplusplus
}
#endif

#endif
