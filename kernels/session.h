/* A measuring session: one device and one way of counting fills, shared by
 * the three measuring commands.
 *
 *   cupti  counts in-process with CUPTI range profiling (kernels/cuda/meter.h);
 *   ncu    re-runs the very same command under Nsight Compute (kernels/ncu.h):
 *          the child, marked by the environment variable PASCAL_NCU_CHILD,
 *          runs the same launches uncounted and records their times; the
 *          parent reads ncu's report, maps its rows to measurements and
 *          writes the output;
 *   auto   cupti, or ncu when CUPTI cannot profile here (the reason is kept).
 *
 * Implemented in kernels/runner/session.c over gpu.h, so it is linked with
 * whichever GPU backend the build has. */
#ifndef PASCAL_KERNELS_SESSION_H
#define PASCAL_KERNELS_SESSION_H

#include <stdint.h>

#include "common/error.h"
#include "kernels/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pascal_session_mode {
    PASCAL_SESSION_CUPTI = 0,
    PASCAL_SESSION_NCU = 1,        /* parent: runs a child under ncu */
    PASCAL_SESSION_NCU_CHILD = 2   /* child under ncu: launches, counts nothing */
} pascal_session_mode;

typedef struct pascal_session {
    pascal_gpu *gpu;
    pascal_session_mode mode;
    char ncu[1024];              /* NCU: the ncu executable */
    char metric[128];            /* NCU: the counter ncu is asked for */
    char cupti_reason[512];      /* why CUPTI was not used, "" if it was */
    const char *child_file;      /* NCU_CHILD: where measurements are recorded */
} pascal_session;

/* Opens `device` ("auto" or an index) and sets up counting with `meter`
 * ("auto", "cupti" or "ncu"; NULL = auto) and `metric` (NULL: chosen per
 * architecture).  PASCAL_GPU_UNAVAILABLE when there is no CUDA build, no
 * device, or no way to count; PASCAL_EINPUT for a bad flag value. */
int pascal_session_open(const char *device, const char *meter, const char *metric,
                        pascal_session *s, pascal_error *err);
void pascal_session_close(pascal_session *s);

/* One measurement: job i of the caller's list. */
typedef int (*pascal_session_job)(pascal_gpu *g, void *ctx, int64_t i, pascal_spot_measure *m,
                                  pascal_error *err);

/* Measures jobs 0..njobs-1 into out[].  For NCU, `cmd` and argv[0..argc-1]
 * (the subcommand and its arguments) are re-run under ncu.  In a child the
 * jobs run uncounted and the caller must write no output
 * (pascal_session_is_child). */
int pascal_session_measure(pascal_session *s, int64_t njobs, pascal_session_job fn, void *ctx,
                           pascal_spot_measure *out, const char *cmd, int argc, char **argv,
                           pascal_error *err);
int pascal_session_is_child(const pascal_session *s);

#ifdef __cplusplus
}
#endif

#endif
