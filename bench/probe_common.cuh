/* What the standalone probes (bench/*_probe.cu) share: a CUDA check that
 * exits, and the group-by input of paper 000 Sec. 5.2.1 (keys uniform over
 * [0, g), two 4-byte payloads). */
#ifndef GJ_BENCH_PROBE_COMMON_CUH
#define GJ_BENCH_PROBE_COMMON_CUH

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "operators/hash.cuh"

#define CK(x)                                                                                           \
    do {                                                                                                \
        cudaError_t e_ = (x);                                                                           \
        if (e_ != cudaSuccess) {                                                                        \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                  \
            exit(1);                                                                                    \
        }                                                                                               \
    } while (0)

using gjh::fmix;

/* row i: key uniform over [0, g), payloads a and b (hashes of i) */
__global__ void probe_gen(uint32_t *k, int *a, int *b, uint64_t n, uint32_t g)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        k[i] = (uint32_t)(((uint64_t)fmix((uint32_t)i * 2654435761u + 7) * g) >> 32);
        a[i] = (int)fmix((uint32_t)i ^ 0x1234567u);
        b[i] = (int)fmix((uint32_t)i ^ 0x7654321u);
    }
}

#endif
