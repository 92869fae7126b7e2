/* What one measured launch of the scan kernels reports, and the device it
 * ran on: the types the GPU runner (kernels/gpu.h, kernels/session.h, the
 * meters) fills and the spot-check driver (spot/spot.h) turns into the
 * model's quantities and tables.  Device-side vocabulary only: nothing here
 * knows of sweeps, the engine or output files. */
#ifndef PASCAL_KERNELS_MEASURE_H
#define PASCAL_KERNELS_MEASURE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How the cache stood when a measured launch began. */
typedef enum pascal_spot_start {
    PASCAL_SPOT_COLD = 0,  /* L2 flushed by a scrub kernel just before */
    PASCAL_SPOT_WARM = 1   /* the same launch ran just before, unmeasured */
} pascal_spot_start;

/* The load path of the open scan (Algorithm 2). */
typedef enum pascal_spot_path {
    PASCAL_SPOT_SYNC = 0,  /* __ldcg (ld.global.cg) loads by every thread */
    PASCAL_SPOT_TMA = 1    /* bulk async copies into shared memory, mbarrier */
} pascal_spot_path;

/* The cache operator of every global load in the scan kernels.  .cg caches
 * at the global level (L2) and not in L1: it does not bypass L2, so repeated
 * reads of a block by other CTAs can hit in L2, which is what is modelled. */
#define PASCAL_SPOT_CACHE_OPERATOR \
    "ld.global.cg (__ldcg): cached in L2, not in L1; L2 is not bypassed"

/* One measured launch. */
typedef struct pascal_spot_measure {
    double fill_bytes;    /* bytes read from off-chip memory into L2 */
    double elapsed_ms;    /* launch time between device events */
    pascal_spot_start start;
    uint64_t checksum;    /* the kernel's anti-elimination result */
} pascal_spot_measure;

/* The GPU a table was measured on (provenance; strings may be empty). */
typedef struct pascal_spot_device {
    char name[256];
    int index;                 /* CUDA device ordinal */
    int cc_major, cc_minor;
    int sms;
    int64_t l2_bytes;          /* as reported by the runtime */
    int sm_clock_khz;          /* peak SM clock, runtime attribute */
    int mem_clock_khz;         /* peak memory clock, runtime attribute */
    int sm_clock_now_mhz;      /* current SM clock from NVML, 0 if unknown */
    int mem_clock_now_mhz;     /* current memory clock from NVML, 0 if unknown */
    int driver_version;        /* cudaDriverGetVersion, e.g. 13000 */
    int runtime_version;       /* cudaRuntimeGetVersion */
    char driver_string[64];    /* NVML system driver version, "" if unknown */
    char meter[32];            /* "cupti" or "ncu" */
    char metric[128];          /* counter used for fill bytes */
} pascal_spot_device;

/* A request program (docs/kernels.md, the program player): a grid of
 * `ctas` CTAs in launch order, CTA c running steps cta_step[c] ..
 * cta_step[c + 1] - 1 in order, step s reading requests step_req[s] ..
 * step_req[s + 1] - 1 in order, request r the req_bytes[r] bytes at byte
 * offset req_offset[r] of one data buffer (both multiples of 16), then
 * `compute` WMMA operations per warp.  No grid barrier: the CTAs run as
 * the hardware schedules them, `occupancy` of them per SM (pinned through
 * shared memory), each one's loads through __ldcg. */
typedef struct pascal_gpu_play_job {
    int64_t ctas, steps, requests;
    const int64_t *cta_step;     /* ctas + 1 */
    const int64_t *step_req;     /* steps + 1 */
    const int64_t *req_offset;   /* requests */
    const int32_t *req_bytes;    /* requests */
    int64_t data_bytes;          /* the buffer the offsets point into */
    int occupancy;
    int compute;
    pascal_spot_start start;
} pascal_gpu_play_job;

/* Deepest TMA pipeline of the open scan (mbarriers per CTA). */
#define PASCAL_SPOT_MAX_DEPTH 16

#ifdef __cplusplus
}
#endif

#endif
