// The program player: any request program (kernels/gpu.h,
// pascal_gpu_play_job) on the GPU.  One CTA per program CTA, launched as a
// 1-D grid in the program's launch order (the hardware dispatches blocks in
// linear order, as it does the libraries' 2-D and 3-D grids); each CTA runs
// its steps in order, every thread loading its 16-byte lanes of each
// request with __ldcg and folding them into its accumulator, then the
// step's synthetic WMMA work.  No barrier between CTAs or steps: CTAs drift
// as a real kernel's do.  Occupancy is pinned with padding shared memory,
// as for the open scan: the launch's dynamic shared memory, never touched.
#include "kernels/cuda/common.cuh"
#include "kernels/cuda/launch.h"

#include <stdio.h>

#define PLAY_THREADS 128   // FlashAttention-2's 4 warps

extern "C" __global__ void __launch_bounds__(PLAY_THREADS)
pascal_k_play(const uint4 *__restrict__ data, const long long *__restrict__ cta_step,
              const long long *__restrict__ step_req, const long long *__restrict__ req_lane,
              const int *__restrict__ req_lanes, int compute, unsigned long long *__restrict__ out)
{
    pascal_k::wmma_state w;
    uint4 acc = make_uint4(0, 0, 0, 0);
    pascal_k::wmma_init(w);
    const long long c = blockIdx.x;
    for (long long s = cta_step[c]; s < cta_step[c + 1]; s++) {
        for (long long r = step_req[s]; r < step_req[s + 1]; r++) {
            const uint4 *p = data + req_lane[r];
            const int n = req_lanes[r];
            for (int i = threadIdx.x; i < n; i += blockDim.x)
                pascal_k::mix(acc, pascal_k::load_cg(p + i));
        }
        pascal_k::wmma_work(w, compute, acc);
    }
    pascal_k::cta_store(acc, pascal_k::wmma_fold(w), out);
}

extern "C" int pascal_cu_play_config(int device, int occupancy, size_t *smem, char *why,
                                     size_t whylen)
{
    int occ = 0, optin = 0;
    size_t s = 0;
    cudaError_t e = pascal_k::pin_occupancy((const void *)pascal_k_play, device, PLAY_THREADS, 0,
                                            occupancy, &s, &occ, &optin);
    if (e != cudaSuccess)
        return (int)e;
    if (occ != occupancy || s + 1024 > (size_t)optin) {
        snprintf(why, whylen,
                 "occupancy %d cannot be pinned: with %zu bytes of padding shared memory per CTA "
                 "at most %d CTAs fit on an SM",
                 occupancy, s > (size_t)optin ? (size_t)optin : s, occ);
        return -1;
    }
    *smem = s;
    return 0;
}

extern "C" int pascal_cu_play(const void *data, const long long *cta_step,
                              const long long *step_req, const long long *req_lane,
                              const int *req_lanes, int64_t ctas, int compute, size_t smem,
                              unsigned long long *out, cudaStream_t s)
{
    pascal_k_play<<<dim3((unsigned)ctas), dim3(PLAY_THREADS), smem, s>>>(
        (const uint4 *)data, cta_step, step_req, req_lane, req_lanes, compute, out);
    return (int)cudaGetLastError();
}
