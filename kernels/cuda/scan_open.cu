// Algorithm 2 of the paper: the open scan.  A grid of W * M CTAs, of which
// M = SMs * o are resident at a time (o pinned through shared memory); each
// CTA scans blocks 0..N-1 in order, with no grid barrier, so workers drift
// apart as they would in a real kernel.  Per block:
//   sync path: every thread loads its 16-byte lanes with __ldcg and consumes
//     them (no CTA barrier per iteration);
//   TMA path:  bulk asynchronous copies (cp.async.bulk) into d shared-memory
//     stages, each completing on its mbarrier; d - 1 copies are primed, then
//     the CTA waits for stage j mod d, consumes it, and thread 0 issues block
//     j + d - 1 into the stage freed in the previous iteration (d = 1: issue,
//     wait, consume);
// then m synthetic WMMA operations per warp.  Thread 0 may record the CTA's
// start and end (%globaltimer) and its SM.
#include "kernels/cuda/common.cuh"
#include "kernels/cuda/launch.h"

#include <stdio.h>

namespace {

__device__ __forceinline__ void mark_start(long long *t_start, int *sm)
{
    if (t_start && threadIdx.x == 0) {
        t_start[blockIdx.x] = pascal_k::global_ns();
        sm[blockIdx.x] = pascal_k::sm_id();
    }
}

__device__ __forceinline__ void mark_end(long long *t_end)
{
    if (t_end && threadIdx.x == 0)
        t_end[blockIdx.x] = pascal_k::global_ns();
}

// ---- TMA primitives (sm_90 and newer) --------------------------------------

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count)
                 : "memory");
#endif
}

__device__ __forceinline__ void mbar_fence_init()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

// Thread 0 announces the bytes the stage will receive, then starts the copy.
__device__ __forceinline__ void bulk_load(void *dst, const void *src, unsigned bytes,
                                          unsigned long long *bar)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)),
                 "r"(bytes)
                 : "memory");
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
            "r"(smem_addr(dst)),
        "l"(src), "r"(bytes), "r"(smem_addr(bar))
        : "memory");
#else
    __trap();
#endif
}

__device__ __forceinline__ void mbar_wait(unsigned long long *bar, unsigned parity)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned done = 0;
    while (!done)
        asm volatile(
            "{\n\t.reg .pred p;\n\t"
            "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
            "selp.u32 %0, 1, 0, p;\n\t}"
            : "=r"(done)
            : "r"(smem_addr(bar)), "r"(parity)
            : "memory");
#else
    __trap();
#endif
}

}  // namespace

extern "C" __global__ void __launch_bounds__(PASCAL_CU_OPEN_THREADS)
pascal_k_sync_scan(const uint4 *__restrict__ data, long long N, int lanes, int compute,
                   unsigned long long *__restrict__ out, long long *t_start, long long *t_end,
                   int *sm)
{
    pascal_k::wmma_state w;
    uint4 acc = make_uint4(0, 0, 0, 0);
    mark_start(t_start, sm);
    pascal_k::wmma_init(w);
    for (long long j = 0; j < N; j++) {
        const uint4 *blk = data + (size_t)j * (size_t)lanes;
        for (int i = threadIdx.x; i < lanes; i += blockDim.x)
            pascal_k::mix(acc, pascal_k::load_cg(blk + i));
        pascal_k::wmma_work(w, compute, acc);
    }
    mark_end(t_end);
    pascal_k::cta_store(acc, pascal_k::wmma_fold(w), out);
}

extern "C" __global__ void __launch_bounds__(PASCAL_CU_OPEN_THREADS)
pascal_k_tma_scan(const uint4 *__restrict__ data, long long N, int lanes, int depth, int compute,
                  unsigned long long *__restrict__ out, long long *t_start, long long *t_end,
                  int *sm)
{
    extern __shared__ __align__(128) uint4 stages[];
    __shared__ __align__(8) unsigned long long bar[PASCAL_CU_MAX_DEPTH];
    const unsigned bytes = (unsigned)lanes * 16u;
    pascal_k::wmma_state w;
    uint4 acc = make_uint4(0, 0, 0, 0);
    mark_start(t_start, sm);
    pascal_k::wmma_init(w);
    if (threadIdx.x == 0) {
        for (int k = 0; k < depth; k++)
            mbar_init(&bar[k], 1);
        mbar_fence_init();
        for (long long k = 0; k < depth - 1 && k < N; k++)
            bulk_load(stages + k * lanes, data + (size_t)k * lanes, bytes, &bar[k]);
    }
    __syncthreads();
    for (long long j = 0; j < N; j++) {
        const int st = (int)(j % depth);
        const uint4 *stage = stages + (size_t)st * lanes;
        if (depth == 1 && threadIdx.x == 0)
            bulk_load(stages, data + (size_t)j * lanes, bytes, &bar[0]);
        mbar_wait(&bar[st], (unsigned)((j / depth) & 1));
        for (int i = threadIdx.x; i < lanes; i += blockDim.x)
            pascal_k::mix(acc, stage[i]);
        __syncthreads();  // every thread is done with the stage freed last iteration
        if (depth > 1 && threadIdx.x == 0 && j + depth - 1 < N) {
            const long long nb = j + depth - 1;
            bulk_load(stages + (size_t)(nb % depth) * lanes, data + (size_t)nb * lanes, bytes,
                      &bar[nb % depth]);
        }
        pascal_k::wmma_work(w, compute, acc);
    }
    mark_end(t_end);
    pascal_k::cta_store(acc, pascal_k::wmma_fold(w), out);
}

// Pins o CTAs per SM: the dynamic shared memory is at least what the stages
// need and large enough that o + 1 CTAs do not fit (pascal_k::pin_occupancy).
extern "C" int pascal_cu_open_config(int device, int tma, int depth, int64_t block_bytes,
                                     int occupancy, size_t *smem, char *why, size_t whylen)
{
    const void *fn = tma ? (const void *)pascal_k_tma_scan : (const void *)pascal_k_sync_scan;
    int occ = 0, optin = 0;
    size_t s = 0, need = tma ? (size_t)depth * (size_t)block_bytes : 0;
    cudaError_t e = pascal_k::pin_occupancy(fn, device, PASCAL_CU_OPEN_THREADS, need, occupancy,
                                            &s, &occ, &optin);
    if (e != cudaSuccess)
        return (int)e;
    if (occ != occupancy || s + 1024 > (size_t)optin) {
        snprintf(why, whylen,
                 "occupancy %d cannot be pinned: with %zu bytes of shared memory per CTA "
                 "(%s) at most %d CTAs fit on an SM",
                 occupancy, s > (size_t)optin ? (size_t)optin : s,
                 tma ? "TMA stages included" : "padding only", occ);
        return -1;
    }
    *smem = s;
    return 0;
}

extern "C" int pascal_cu_open_scan(int tma, const void *data, int64_t N, int64_t block_bytes,
                                   int depth, int compute, int64_t ctas, size_t smem,
                                   unsigned long long *out, long long *t_start, long long *t_end,
                                   int *sm, cudaStream_t s)
{
    const uint4 *d = (const uint4 *)data;
    const int lanes = (int)(block_bytes / 16);
    const dim3 grid((unsigned)ctas), block(PASCAL_CU_OPEN_THREADS);
    if (tma)
        pascal_k_tma_scan<<<grid, block, smem, s>>>(d, N, lanes, depth, compute, out, t_start,
                                                    t_end, sm);
    else
        pascal_k_sync_scan<<<grid, block, smem, s>>>(d, N, lanes, compute, out, t_start, t_end,
                                                     sm);
    return (int)cudaGetLastError();
}
