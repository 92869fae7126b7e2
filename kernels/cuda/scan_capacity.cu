// Figure 2 of the paper: the fixed-allocation capacity scan.  One buffer is
// allocated for the largest footprint; a launch sweeps its first `bytes`
// `passes` times, every CTA of a cooperative grid taking a grid-stride share
// of 16-byte lanes with __ldcg, and the grid meets at a barrier between
// passes.  Started cold, the off-chip fill bytes per footprint byte stay near
// 1 while the footprint fits in L2 and climb towards `passes` once it does
// not; the footprint where they rise is the effective capacity.
#include <cooperative_groups.h>

#include "kernels/cuda/common.cuh"
#include "kernels/cuda/launch.h"

namespace cg = cooperative_groups;

#define PASCAL_CU_CAP_THREADS 512

extern "C" __global__ void __launch_bounds__(PASCAL_CU_CAP_THREADS)
pascal_k_capacity_scan(const uint4 *__restrict__ data, long long lanes, int passes,
                       unsigned long long *__restrict__ out)
{
    cg::grid_group grid = cg::this_grid();
    uint4 acc = make_uint4(0, 0, 0, 0);
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++) {
        for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < lanes; i += stride)
            pascal_k::mix(acc, pascal_k::load_cg(data + i));
        grid.sync();
    }
    pascal_k::cta_store(acc, 0, out);
}

extern "C" int pascal_cu_capacity_grid(int device, int *grid)
{
    int per_sm = 0, sms = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, (const void *)pascal_k_capacity_scan, PASCAL_CU_CAP_THREADS, 0);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    *grid = (per_sm < 2 ? per_sm : 2) * sms;
    return (int)e;
}

extern "C" int pascal_cu_capacity_scan(const void *data, int64_t bytes, int passes, int grid,
                                       unsigned long long *out, cudaStream_t s)
{
    const uint4 *d = (const uint4 *)data;
    long long lanes = bytes / 16;
    void *args[] = {(void *)&d, (void *)&lanes, (void *)&passes, (void *)&out};
    return (int)cudaLaunchCooperativeKernel((const void *)pascal_k_capacity_scan, dim3(grid),
                                            dim3(PASCAL_CU_CAP_THREADS), args, 0, s);
}
