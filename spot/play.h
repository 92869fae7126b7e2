/* The program player's host side (docs/kernels.md, "The program player"):
 * a workload point's kernel as the request list the GPU kernel
 * (kernels/cuda/play.cu) issues, and the points of a spec to play with
 * pascal's own answers beside them.
 *
 * Layout: one data buffer; block b of stream s (a KV head's K or V, a GEMM
 * unit panel) at byte (s N + b) stride, stride = block_bytes rounded up to
 * 16 (the player loads 16-byte lanes).  CTA c's steps are
 * pascal_workload_cta_steps(w, c), step j reading block
 * pascal_workload_cta_block(w, c, j) of each of its streams in request
 * order (pascal_workload_cta); FlashAttention-2 walks a ring backwards as
 * its kernel does (the model numbers it forward, the same fills in lock
 * step).  A persistent kernel (flash-attn-3) is one player CTA per
 * persistent CTA running, one after another, the tiles the lock-step
 * schedule gives it (the dynamic scheduler's choice on silicon may
 * differ: the player replays pascal's). */
#ifndef PASCAL_SPOT_PLAY_H
#define PASCAL_SPOT_PLAY_H

#include <stdint.h>

#include "common/error.h"
#include "kernels/measure.h"
#include "model/workload.h"
#include "sweeps/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most requests a program may hold (its arrays: 12 bytes a request). */
#define PASCAL_PLAY_MAX_REQUESTS ((int64_t)1 << 26)

typedef struct pascal_play_program {
    pascal_gpu_play_job job;     /* points into the arrays below */
    int64_t *cta_step, *step_req, *req_offset;
    int32_t *req_bytes;
    int64_t stride;              /* bytes between blocks of a stream */
} pascal_play_program;

/* Builds w's program with `compute` WMMA operations per step and
 * `occupancy` CTAs per SM.  PASCAL_EINPUT (err says why) past
 * PASCAL_PLAY_MAX_REQUESTS. */
int pascal_play_build(const pascal_workload *w, int compute, int occupancy,
                      pascal_play_program *out, pascal_error *err);
void pascal_play_free(pascal_play_program *p);

/* A point to play: its program and pascal's answers for it. */
typedef struct pascal_play_point {
    int64_t ordinal;             /* as `pascal run` numbers its rows */
    double v[PASCAL_NPARAM];
    pascal_workload w;
    pascal_play_program prog;
    /* fill_bytes_replay and fill_bytes_replay_any (the exact replay in
     * lock step, and in any order per round: NaN without model lru_replay),
     * ideal_bytes */
    double replay, replay_any, ideal;
} pascal_play_point;

/* The kept points numbered ordinals[0..n-1] (ascending) of a workload
 * spec, each with its program and pascal's columns at its capacity.  A
 * point with no occupancy (M given directly) or that is not a workload
 * point is refused, naming it. */
int pascal_play_plan(const pascal_spec *spec, const int64_t *ordinals, int64_t n,
                     pascal_play_point **out, pascal_error *err);
void pascal_play_plan_free(pascal_play_point *pts, int64_t n);

#ifdef __cplusplus
}
#endif

#endif
