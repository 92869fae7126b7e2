/* Workloads in sweep specs (docs/workloads.md): the `workload:` section,
 *
 *     workload:
 *       attention: {batch: 1, q_heads: 64, kv_heads: 8, seq_q: 8192,
 *                   seq_kv: 8192, head_dim: 128, dtype: bf16,
 *                   tile_q: 128, tile_kv: 128, causal: false}
 *
 * or `gemm: {gemm_m, gemm_n, gemm_k, dtype, tile_m, tile_n, tile_k, raster,
 * swizzle, split_k}`.  Its fields are ordinary parameters (vocab/params.h):
 * the section gives their values, an axis of the same name overrides one
 * (as a device profile's values are overridden), `fixed` may set the ones
 * the section leaves out.  Each point then derives N (blocks per stream) and
 * block_bytes (model/workload.h); N, data_bytes and block_bytes may not be
 * given as well.  This header is what the engine needs to rebuild a
 * point's workload. */
#ifndef PASCAL_SWEEPS_WORKLOAD_H
#define PASCAL_SWEEPS_WORKLOAD_H

#include "model/step.h"
#include "model/workload.h"
#include "vocab/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Field defaults: batch 1, kv_heads = q_heads, causal false, raster row,
 * swizzle 8, split_k 1. */

/* The workload of a point's values v (after pascal_spec_point, so defaults
 * are applied): 0 and *w filled, or the pascal_workload_error of a refused
 * shape, or -1 when v has no workload. */
int pascal_workload_of_point(const double *v, pascal_workload *w);

/* A model step (docs/workloads.md section 11): the step of a point's
 * values v (after pascal_spec_point): 0 and *s filled, or -1 when v is not
 * a step point (phase unset). */
int pascal_step_of_point(const double *v, pascal_step *s);
/* Kernel op of the step point v as a workload point of its own: sub = v
 * with the kernel's workload fields, its N and block_bytes, C =
 * floor(capacity_bytes / block_bytes), phase unset; *count the times it
 * runs in the step.  Returns 0, a pascal_workload_error of the refused
 * shape, or -1 when v is not a step point. */
int pascal_step_kernel_point(const double *v, int op, double *sub, int64_t *count);

/* Most block requests per round summed over all waves (CTAs x units) that
 * the per-wave evaluation accepts: 2^22. */
#define PASCAL_WORKLOAD_MAX_REQUESTS ((int64_t)1 << 22)

/* A phrase for a workload parameter in sizing sentences ("context length"
 * for seq_kv), or NULL for other parameters. */
const char *pascal_workload_phrase(int param);

#ifdef __cplusplus
}
#endif

#endif
