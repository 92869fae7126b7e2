/* The GPU backend of a build without CUDA (PASCAL_CUDA=OFF, or no nvcc when
 * CMake ran): every entry point says so, and nothing is ever measured. */
#include "kernels/gpu.h"

#include <stddef.h>

#define NO_CUDA                                                                    \
    "this pascal was built without CUDA support (PASCAL_CUDA=OFF, or no nvcc when " \
    "it was configured); rebuild with -DPASCAL_CUDA=ON on a machine with the CUDA "  \
    "toolkit to measure on a GPU"

int pascal_gpu_built(void)
{
    return 0;
}

int pascal_gpu_open(int index, pascal_gpu **out, pascal_error *err)
{
    (void)index;
    *out = NULL;
    return pascal_error_set(err, PASCAL_GPU_UNAVAILABLE, NO_CUDA);
}

void pascal_gpu_close(pascal_gpu *g)
{
    (void)g;
}

pascal_spot_device *pascal_gpu_device(pascal_gpu *g)
{
    (void)g;
    return NULL;
}

int pascal_gpu_meter_cupti(pascal_gpu *g, const char *metric, pascal_error *err)
{
    (void)g, (void)metric;
    return pascal_error_set(err, PASCAL_GPU_UNAVAILABLE, NO_CUDA);
}

void pascal_gpu_meter_off(pascal_gpu *g)
{
    (void)g;
}

int pascal_gpu_run_static(pascal_gpu *g, const pascal_gpu_static_job *job,
                          pascal_spot_measure *m, pascal_error *err)
{
    (void)g, (void)job, (void)m;
    return pascal_error_set(err, PASCAL_GPU_UNAVAILABLE, NO_CUDA);
}

int pascal_gpu_run_open(pascal_gpu *g, const pascal_gpu_open_job *job, pascal_spot_measure *m,
                        pascal_error *err)
{
    (void)g, (void)job, (void)m;
    return pascal_error_set(err, PASCAL_GPU_UNAVAILABLE, NO_CUDA);
}

int pascal_gpu_run_capacity(pascal_gpu *g, const pascal_gpu_capacity_job *job,
                            pascal_spot_measure *m, pascal_error *err)
{
    (void)g, (void)job, (void)m;
    return pascal_error_set(err, PASCAL_GPU_UNAVAILABLE, NO_CUDA);
}

int pascal_gpu_run_play(pascal_gpu *g, const pascal_gpu_play_job *job, pascal_spot_measure *m,
                        pascal_error *err)
{
    (void)g, (void)job, (void)m;
    return pascal_error_set(err, PASCAL_GPU_UNAVAILABLE, NO_CUDA);
}
