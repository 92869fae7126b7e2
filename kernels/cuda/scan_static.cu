// Algorithm 1 of the paper: the static phase-controlled scan.  M CTAs, CTA m
// starting at phase s_m; in round r every thread loads its 16-byte lanes of
// block (r + s_m) mod N with __ldcg, folds them into an accumulator, and the
// whole grid meets at a barrier (cooperative launch, cg::grid_group::sync),
// so the phases stay exactly as given for all H rounds.  The accumulator is
// written at the end to keep every load live.
#include <cooperative_groups.h>

#include "kernels/cuda/common.cuh"
#include "kernels/cuda/launch.h"

namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(1024)
pascal_k_static_scan(const uint4 *__restrict__ data, long long N, int lanes,
                     const long long *__restrict__ phases, long long rounds,
                     unsigned long long *__restrict__ out)
{
    cg::grid_group grid = cg::this_grid();
    uint4 acc = make_uint4(0, 0, 0, 0);
    long long j = phases[blockIdx.x] % N;
    for (long long r = 0; r < rounds; r++) {
        const uint4 *blk = data + (size_t)j * (size_t)lanes;
        for (int i = threadIdx.x; i < lanes; i += blockDim.x)
            pascal_k::mix(acc, pascal_k::load_cg(blk + i));
        grid.sync();
        if (++j == N)
            j = 0;
    }
    pascal_k::cta_store(acc, 0, out);
}

extern "C" int pascal_cu_static_threads(int64_t block_bytes)
{
    int64_t lanes = block_bytes / 16, t = (lanes + 31) / 32 * 32;
    return (int)(t < 32 ? 32 : t > 1024 ? 1024 : t);
}

extern "C" int pascal_cu_static_max_ctas(int device, int threads, int *max_ctas)
{
    int per_sm = 0, sms = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, (const void *)pascal_k_static_scan, threads, 0);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    *max_ctas = per_sm * sms;
    return (int)e;
}

extern "C" int pascal_cu_static_scan(const void *data, int64_t N, int64_t block_bytes,
                                     const long long *phases, int M, int64_t rounds,
                                     unsigned long long *out, cudaStream_t s)
{
    const uint4 *d = (const uint4 *)data;
    long long n = N, h = rounds;
    int lanes = (int)(block_bytes / 16);
    void *args[] = {(void *)&d, (void *)&n, (void *)&lanes, (void *)&phases, (void *)&h,
                    (void *)&out};
    return (int)cudaLaunchCooperativeKernel((const void *)pascal_k_static_scan, dim3(M),
                                            dim3(pascal_cu_static_threads(block_bytes)), args,
                                            0, s);
}
