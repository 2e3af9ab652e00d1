// Feasibility probe (session 14): a random 4-byte SCATTER against a random
// 4-byte GATHER of the same permutation, 2^27 rows (W1's |S|): would a
// GFUR dense write in S's order (one scatter of R row ids, S's columns
// copied) beat two gathers of S's columns? Standalone:
//   make bench-tools; build/bench/scatter_probe
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "bench/probe_common.cuh"

// a bijection on [0, 2^lg): odd multiplies and right xor-shifts
__device__ __forceinline__ uint32_t perm(uint32_t x, int lg)
{
    const uint32_t m = (1u << lg) - 1;
    x = (x * 0x9E3779B1u) & m; x ^= x >> (lg / 2);
    x = (x * 0x85EBCA6Bu) & m; x ^= x >> (lg / 3);
    x = (x * 0xC2B2AE35u) & m; x ^= x >> (lg / 2);
    return x;
}

__global__ void mkperm(uint32_t *p, uint32_t n, int lg, int part_bits)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        uint32_t q = perm(i, lg);
        if (part_bits) { // partition order: rows grouped by their low bits, increasing inside a group
            const uint32_t per = n >> part_bits;
            q = (i % per) << part_bits | (i / per);
        }
        p[i] = q;
    }
}
__global__ void gather(const uint32_t *__restrict__ p, const uint32_t *__restrict__ src, uint32_t *__restrict__ out, uint32_t n)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = src[p[i]];
}
__global__ void scatter(const uint32_t *__restrict__ p, const uint32_t *__restrict__ src, uint32_t *__restrict__ out, uint32_t n)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[p[i]] = src[i];
}
__global__ void gather2(const uint32_t *__restrict__ p, const uint32_t *__restrict__ a, const uint32_t *__restrict__ b,
                        uint32_t *__restrict__ oa, uint32_t *__restrict__ ob, uint32_t n)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const uint32_t q = p[i];
        oa[i] = a[q]; ob[i] = b[q];
    }
}
__global__ void copy(const uint32_t *__restrict__ src, uint32_t *__restrict__ out, uint32_t n)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = src[i];
}

int main()
{
    const int lg = 27;
    const uint32_t n = 1u << lg;
    uint32_t *p, *a, *b, *oa, *ob;
    CK(cudaMalloc(&p, n * 4ull)); CK(cudaMalloc(&a, n * 4ull)); CK(cudaMalloc(&b, n * 4ull));
    CK(cudaMalloc(&oa, n * 4ull)); CK(cudaMalloc(&ob, n * 4ull));
    CK(cudaMemset(a, 1, n * 4ull)); CK(cudaMemset(b, 2, n * 4ull));
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    const unsigned grid = sms * 8;
    printf("order,op,ms_median,ms_min\n");
    for (int pb = 0; pb <= 16; pb += 16) {
        mkperm<<<grid, 256>>>(p, n, lg, pb);
        CK(cudaDeviceSynchronize());
        for (int op = 0; op < 4; op++) {
            std::vector<float> ms;
            for (int r = 0; r < 7; r++) {
                CK(cudaEventRecord(e0));
                if (op == 0) gather<<<grid, 256>>>(p, a, oa, n);
                else if (op == 1) scatter<<<grid, 256>>>(p, a, oa, n);
                else if (op == 2) gather2<<<grid, 256>>>(p, a, b, oa, ob, n);
                else copy<<<grid, 256>>>(a, oa, n);
                CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
                float m; CK(cudaEventElapsedTime(&m, e0, e1)); ms.push_back(m);
            }
            CK(cudaGetLastError());
            std::sort(ms.begin(), ms.end());
            static const char *names[] = {"gather4", "scatter4", "gather4x2", "copy4"};
            printf("%s,%s,%.3f,%.3f\n", pb ? "partition16" : "random", names[op], ms[3], ms[0]);
        }
    }
    return 0;
}
