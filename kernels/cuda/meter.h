/* In-process fill counting with CUPTI range profiling (meter_cupti.cpp; C++
 * because the CUPTI profiler host API is).  One user range around exactly
 * one launch, one pass (a metric that needed replay would re-run the kernel
 * from a warm L2, so it is refused), evaluated to bytes.  Built only when
 * CMake finds CUPTI; otherwise meter_none.c says so and the runner falls back
 * to ncu. */
#ifndef PASCAL_KERNELS_CUDA_METER_H
#define PASCAL_KERNELS_CUDA_METER_H

#include <stddef.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_meter pascal_meter;

/* Sets up counting of `metric` (NULL: the first candidate of
 * pascal_ncu_metric_candidates the chip accepts) on the current context of
 * device `device`.  Writes the counter used to metric_used.  Returns 0, or
 * -1 with err saying why CUPTI cannot count here. */
int pascal_meter_create(int device, int cc_major, const char *metric, pascal_meter **out,
                        char *metric_used, size_t len, pascal_error *err);
/* Opens the range; the next launch is what is counted. */
int pascal_meter_begin(pascal_meter *m, pascal_error *err);
/* Closes the range after the launch has completed; *bytes = the counter in
 * bytes. */
int pascal_meter_end(pascal_meter *m, double *bytes, pascal_error *err);
void pascal_meter_free(pascal_meter *m);

#ifdef __cplusplus
}
#endif

#endif
