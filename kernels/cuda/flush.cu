// The L2 flush between measured launches, and the fill of the scanned data.
//
// A cold start must be chosen, never accidental: before a cold measurement
// the scrub kernel reads an unrelated buffer of several times the L2 size
// through L2 (the same .cg loads as the scans), so no line of the scan data
// can still be resident.  The scrub runs outside the measured range and is
// not a scan kernel (ncu's kernel filter skips it).
#include "kernels/cuda/common.cuh"
#include "kernels/cuda/launch.h"

extern "C" __global__ void __launch_bounds__(256)
pascal_k_scrub(const uint4 *__restrict__ buf, long long lanes, unsigned long long *__restrict__ out)
{
    uint4 acc = make_uint4(0, 0, 0, 0);
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < lanes;
         i += (long long)gridDim.x * blockDim.x)
        pascal_k::mix(acc, pascal_k::load_cg(buf + i));
    pascal_k::cta_store(acc, 0, out);
}

extern "C" __global__ void pascal_k_fill(uint4 *__restrict__ data, long long lanes,
                                         unsigned long long seed)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < lanes;
         i += (long long)gridDim.x * blockDim.x) {
        unsigned long long z = (unsigned long long)i * 0x9e3779b97f4a7c15ull + seed;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        data[i] = make_uint4((unsigned)z, (unsigned)(z >> 32), (unsigned)~z, (unsigned)(z >> 17));
    }
}

extern "C" int pascal_cu_fill(void *data, int64_t bytes, uint64_t seed, cudaStream_t s)
{
    pascal_k_fill<<<1024, 256, 0, s>>>((uint4 *)data, (long long)(bytes / 16), seed);
    return (int)cudaGetLastError();
}

extern "C" int pascal_cu_scrub(const void *buf, int64_t bytes, unsigned long long *out, int grid,
                               cudaStream_t s)
{
    pascal_k_scrub<<<grid, 256, 0, s>>>((const uint4 *)buf, (long long)(bytes / 16), out);
    return (int)cudaGetLastError();
}

