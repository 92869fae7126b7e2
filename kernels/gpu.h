/* The GPU runner behind `pascal capacity-scan`, `pascal spotcheck` and
 * `pascal measure-refs`: one CUDA device, the scan kernels of
 * kernels/cuda/ (docs/kernels.md) and a meter for the bytes each measured
 * launch reads from off-chip memory into L2.
 *
 * Two implementations share this header: kernels/cuda/gpu.c (CUDA runtime
 * API, built when CMake finds nvcc) and kernels/none/gpu_none.c, whose
 * pascal_gpu_open always answers PASCAL_GPU_UNAVAILABLE with the reason.
 * A machine without a GPU gets the same code from the CUDA build, with the
 * runtime's own reason.  Nothing here ever invents a measurement: a launch
 * that was not counted reports fill_bytes = NaN.
 *
 * Every measurement chooses its starting state: cold (a scrub kernel that
 * reads several times the L2 size evicts the data first) or warm (the same
 * launch runs just before, unmeasured).  Only the measured launch lies inside
 * the counting range, never the scrub or the warm-up. */
#ifndef PASCAL_KERNELS_GPU_H
#define PASCAL_KERNELS_GPU_H

#include <stdint.h>

#include "common/error.h"
#include "kernels/measure.h"

#ifdef __cplusplus
extern "C" {
#endif

/* No CUDA in this build, no usable device, or no way to count fills: the
 * CLI prints the message and exits with status 2. */
#define PASCAL_GPU_UNAVAILABLE (-20)

typedef struct pascal_gpu pascal_gpu;

/* 1 when this build has CUDA support, 0 for the stub backend. */
int pascal_gpu_built(void);

/* Opens device `index` (< 0: the first device) and reads its properties,
 * clocks and versions.  PASCAL_GPU_UNAVAILABLE when there is none. */
int pascal_gpu_open(int index, pascal_gpu **out, pascal_error *err);
void pascal_gpu_close(pascal_gpu *g);
/* Properties of the open device; meter and metric are filled by the meter
 * calls below. */
pascal_spot_device *pascal_gpu_device(pascal_gpu *g);

/* Counts fills in-process with CUPTI range profiling.  metric NULL chooses
 * per architecture (pascal_ncu_metric_candidates); the first the chip
 * accepts is used and recorded.  PASCAL_GPU_UNAVAILABLE when CUPTI is not
 * built in or cannot profile here (err says why); the caller may then fall
 * back to ncu. */
int pascal_gpu_meter_cupti(pascal_gpu *g, const char *metric, pascal_error *err);
/* Launches without counting (the process runs under ncu, which counts). */
void pascal_gpu_meter_off(pascal_gpu *g);

/* Algorithm 1: M CTAs, phases s_m, `rounds` rounds of one block each with a
 * grid-wide barrier per round (cooperative launch). */
typedef struct pascal_gpu_static_job {
    int64_t N;              /* blocks in the ring */
    int64_t M;              /* CTAs, all co-resident */
    int64_t block_bytes;    /* multiple of 16 */
    int64_t rounds;         /* H */
    const int64_t *phases;  /* M phases in [0, N) */
    pascal_spot_start start;
} pascal_gpu_static_job;

/* Algorithm 2: a grid of W * M CTAs, M = sms * occupancy resident at a time,
 * each scanning blocks 0..N-1 in order through the sync or TMA path, then
 * `compute` WMMA operations per block and warp. */
typedef struct pascal_gpu_open_job {
    int occupancy;          /* o, pinned by the CTA's shared memory */
    pascal_spot_path path;
    int depth;              /* d >= 1 TMA stages; ignored for sync */
    int compute;            /* m >= 0 */
    int64_t N, W;
    int64_t block_bytes;    /* multiple of 16; TMA: d * block_bytes must fit in shared memory */
    pascal_spot_start start;
    /* Optional per-CTA markers (W * M entries each, or NULL): %globaltimer
     * at the CTA's start and end (ns) and the SM it ran on. */
    int64_t *t_start, *t_end;
    int32_t *sm;
} pascal_gpu_open_job;

/* Figure 2: `passes` grid-synchronised sweeps over the first
 * footprint_bytes of a fixed allocation. */
typedef struct pascal_gpu_capacity_job {
    int64_t footprint_bytes;  /* multiple of 16 */
    int64_t alloc_bytes;      /* fixed allocation, >= every footprint of the scan */
    int passes;
    pascal_spot_start start;
} pascal_gpu_capacity_job;

/* Each runs one measurement (a scrub or warm-up launch first, as asked).
 * PASCAL_EINPUT when the job cannot run on this device (e.g. M CTAs cannot
 * be co-resident; err says why); PASCAL_EIO on a CUDA failure. */
int pascal_gpu_run_static(pascal_gpu *g, const pascal_gpu_static_job *job,
                          pascal_spot_measure *m, pascal_error *err);
int pascal_gpu_run_open(pascal_gpu *g, const pascal_gpu_open_job *job,
                        pascal_spot_measure *m, pascal_error *err);
int pascal_gpu_run_capacity(pascal_gpu *g, const pascal_gpu_capacity_job *job,
                            pascal_spot_measure *m, pascal_error *err);
int pascal_gpu_run_play(pascal_gpu *g, const pascal_gpu_play_job *job, pascal_spot_measure *m,
                        pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
