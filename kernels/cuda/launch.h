/* Launchers of the scan kernels, callable from C (kernels/cuda/gpu.c).
 * Each returns a cudaError_t as int: the launch's own status (the caller
 * synchronises and checks the kernel's completion).  Buffers are device
 * pointers; sizes are in bytes; every block is a whole number of 16-byte
 * lanes. */
#ifndef PASCAL_KERNELS_CUDA_LAUNCH_H
#define PASCAL_KERNELS_CUDA_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Deepest TMA pipeline the open scan supports (mbarriers per CTA); the same
 * as PASCAL_SPOT_MAX_DEPTH in kernels/measure.h, which the CLI checks. */
#define PASCAL_CU_MAX_DEPTH 16
/* Threads per CTA of the open scan, both paths. */
#define PASCAL_CU_OPEN_THREADS 256

/* Fills n bytes with a hashed pattern (never zeros: data must not be
 * compressible or special). */
int pascal_cu_fill(void *data, int64_t bytes, uint64_t seed, cudaStream_t s);

/* Scrub: reads `bytes` of an unrelated buffer through L2 so that nothing a
 * scan touched stays resident (the cold start).  out: 1 word per CTA. */
int pascal_cu_scrub(const void *buf, int64_t bytes, unsigned long long *out, int grid,
                    cudaStream_t s);

/* Algorithm 1.  Threads per CTA for a block size (one 16-byte lane each, at
 * most 1024). */
int pascal_cu_static_threads(int64_t block_bytes);
/* Most CTAs of the static scan that can be co-resident (cooperative limit). */
int pascal_cu_static_max_ctas(int device, int threads, int *max_ctas);
int pascal_cu_static_scan(const void *data, int64_t N, int64_t block_bytes,
                          const long long *phases, int M, int64_t rounds,
                          unsigned long long *out, cudaStream_t s);

/* Algorithm 2.  Shared memory per CTA that pins `occupancy` CTAs per SM (and
 * holds `depth` stages for TMA); on failure writes the reason to why. */
int pascal_cu_open_config(int device, int tma, int depth, int64_t block_bytes, int occupancy,
                          size_t *smem, char *why, size_t whylen);
int pascal_cu_open_scan(int tma, const void *data, int64_t N, int64_t block_bytes, int depth,
                        int compute, int64_t ctas, size_t smem, unsigned long long *out,
                        long long *t_start, long long *t_end, int *sm, cudaStream_t s);

/* The program player (kernels/gpu.h, pascal_gpu_play_job): shared memory
 * per CTA that pins `occupancy` CTAs per SM, then the launch.  Offsets and
 * sizes are in 16-byte lanes. */
int pascal_cu_play_config(int device, int occupancy, size_t *smem, char *why, size_t whylen);
int pascal_cu_play(const void *data, const long long *cta_step, const long long *step_req,
                   const long long *req_lane, const int *req_lanes, int64_t ctas, int compute,
                   size_t smem, unsigned long long *out, cudaStream_t s);

/* Figure 2: `passes` grid-synchronised sweeps over the first `bytes` of
 * data.  *grid receives the cooperative grid size used (CTAs). */
int pascal_cu_capacity_grid(int device, int *grid);
int pascal_cu_capacity_scan(const void *data, int64_t bytes, int passes, int grid,
                            unsigned long long *out, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
