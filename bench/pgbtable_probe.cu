// Feasibility probe (session 14): PGB's aggregate phase with its shared
// table probed a slot at a time (k_pgb_many's pgb_slot: linear probing from
// a Fibonacci home) or a 4-slot bucket at a time (one 16-byte shared load,
// four compares). The longest of a warp's 32 searches sets its pace: at
// load 1/2 that is 5.99 slot reads against 1.99 bucket reads, at 1/4 2.94
// against 1.14 (a CPU simulation, bench/RESULTS.md). PGB-TR's aggregate at
// 2^21 groups (tables at load 1/2) took 2.35 ms against 1.4-1.6 at load
// 1/4 on the H200: if the probes' chains are what it waits on, buckets
// should take most of that difference away.
//
// Input as after PGB-TR's partition: 2^28 rows in 256 partitions of 2^20
// rows, each partition's hashed keys ending in its 8 bits, G groups a
// partition, the packed pair of two 4-byte payloads beside each key. One
// block of 1024 threads a partition, 16384-slot tables (192 KB with the two
// maxima), four consecutive rows a thread in 16-byte loads, as k_pgb_many
// at 2^20..2^21 groups. Every table is checked against a CPU pass.
//
//   make bench-tools; build/bench/pgbtable_probe [groups a partition ...]
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "bench/probe_common.cuh"

enum { THREADS = 1024, TS = 16384, P = 256, MAXP = 64 };
static const uint32_t EMPTY = 0xFFFFFFFFu;

__device__ __forceinline__ uint32_t home(uint32_t k, int sh) { return (uint32_t)(((uint64_t)k * 0x9E3779B97F4A7C15ull) >> sh); }

/* k_pgb_many's probe: a slot a read */
__device__ __forceinline__ uint32_t slot_linear(uint32_t *tkey, uint32_t k) { return probe_linear<14, MAXP>(tkey, k); }

/* a 4-slot bucket a read: the key, or its first empty slot claimed (a lost
 * claim reads the bucket again) */
__device__ __forceinline__ uint32_t slot_bucket(uint32_t *tkey, uint32_t k)
{
    constexpr int SH = 64 - 12; /* log2 (TS / 4) */
    uint32_t b = home(k, SH);
    for (int p = 0; p < MAXP; p++) {
        uint32_t q[4];
        const unsigned addr = (unsigned)__cvta_generic_to_shared(tkey + 4 * b);
        asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(q[0]), "=r"(q[1]), "=r"(q[2]), "=r"(q[3])
                     : "r"(addr));
        int e = -1;
#pragma unroll
        for (int x = 3; x >= 0; x--) {
            if (q[x] == k) return 4 * b + x;
            if (q[x] == EMPTY) e = x;
        }
        if (e >= 0) {
            const uint32_t prev = atomicCAS(tkey + 4 * b + e, EMPTY, k);
            if (prev == EMPTY || prev == k) return 4 * b + e;
            continue; /* taken meanwhile: this bucket again */
        }
        b = (b + 1) & (TS / 4 - 1);
    }
    return EMPTY;
}

template <bool BUCKET>
__global__ void __launch_bounds__(THREADS, 1) k_agg(const uint32_t *key, const uint64_t *pair, uint64_t n,
                                                    uint4 *out, int *overflow)
{
    extern __shared__ uint4 smem4[];
    uint32_t *tkey = (uint32_t *)smem4;
    int *ta = (int *)(tkey + TS), *tb = ta + TS;
    for (unsigned i = threadIdx.x; i < TS; i += THREADS) { tkey[i] = EMPTY; ta[i] = INT_MIN; tb[i] = INT_MIN; }
    __syncthreads();
    const uint64_t per = n / P, lo = blockIdx.x * per, hi = lo + per;
    for (uint64_t r = lo + 4 * threadIdx.x; r < hi; r += 4 * THREADS) {
        const uint4 k4 = __ldcs((const uint4 *)(key + r));
        const ulonglong2 p01 = __ldcs((const ulonglong2 *)(pair + r)), p23 = __ldcs((const ulonglong2 *)(pair + r + 2));
        const uint32_t k[4] = {k4.x, k4.y, k4.z, k4.w};
        const uint64_t v[4] = {p01.x, p01.y, p23.x, p23.y};
        uint32_t sl[4];
#pragma unroll
        for (int u = 0; u < 4; u++) sl[u] = BUCKET ? slot_bucket(tkey, k[u]) : slot_linear(tkey, k[u]);
        __syncwarp();
#pragma unroll
        for (int u = 0; u < 4; u++) {
            if (sl[u] == EMPTY) { *overflow = 1; continue; }
            atomicMax(ta + sl[u], (int)(uint32_t)v[u]);
            atomicMax(tb + sl[u], (int)(uint32_t)(v[u] >> 32));
        }
        __syncwarp();
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < TS; i += THREADS)
        out[(size_t)blockIdx.x * TS + i] = make_uint4(tkey[i], (unsigned)ta[i], (unsigned)tb[i], 0);
}

int main(int argc, char **argv)
{
    const uint64_t n = 1ull << 28;
    uint32_t *key; uint64_t *pair; uint4 *out; int *ovf;
    CK(cudaMalloc(&key, n * 4)); CK(cudaMalloc(&pair, n * 8));
    CK(cudaMalloc(&out, (size_t)P * TS * 16)); CK(cudaMalloc(&ovf, 4));
    const size_t smem = (size_t)TS * 12;
    CK(cudaFuncSetAttribute(k_agg<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(k_agg<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    PartRef ref; /* the CPU's maxima */
    const double floor_ms = n * 12.0 / 3942.19e6; /* the aggregate's read: key + pair, at h200-measured B_G */
    printf("probe,groups_a_partition,load,ms_median,ms_min,x_read_floor,wrong,overflow\n");
    std::vector<uint4> ht((size_t)P * TS);
    std::vector<uint32_t> Gs; /* groups a partition: the arguments, or these */
    for (int i = 1; i < argc; i++) Gs.push_back((uint32_t)strtoul(argv[i], NULL, 0));
    if (Gs.empty()) Gs = {2048, 4096, 8192, 10240};
    for (uint32_t G : Gs) {
        ref.generate(key, pair, n, G, P, sms);
        for (int bucket = 0; bucket < 2; bucket++) {
            std::vector<float> ms;
            CK(cudaMemset(ovf, 0, 4));
            for (int r = 0; r < 7; r++) {
                CK(cudaEventRecord(e0));
                if (bucket) k_agg<true><<<P, THREADS, smem>>>(key, pair, n, out, ovf);
                else k_agg<false><<<P, THREADS, smem>>>(key, pair, n, out, ovf);
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                float m; CK(cudaEventElapsedTime(&m, e0, e1)); ms.push_back(m);
            }
            CK(cudaGetLastError());
            std::sort(ms.begin(), ms.end());
            CK(cudaMemcpy(ht.data(), out, ht.size() * 16, cudaMemcpyDeviceToHost));
            uint64_t bad = 0, found = 0;
            std::vector<char> got((size_t)P * G, 0);
            for (size_t s = 0; s < ht.size(); s++) {
                if (ht[s].x == EMPTY) continue;
                found++;
                const uint32_t p = ht[s].x & 0xFF, j = ref.inv[ht[s].x >> 8];
                const size_t q = (size_t)p * G + j;
                if (p != s / TS || j >= G || got[q] || (int)ht[s].y != ref.ma[q] || (int)ht[s].z != ref.mb[q]) bad++;
                else got[q] = 1;
            }
            const uint64_t good = found - bad;
            bad += ref.want - good; /* and the groups never found */
            int hovf = 0; CK(cudaMemcpy(&hovf, ovf, 4, cudaMemcpyDeviceToHost));
            printf("%s,%u,%.3f,%.3f,%.3f,%.2f,%llu (of %llu groups),%d\n", bucket ? "bucket4" : "linear", G, (double)G / TS,
                   ms[3], ms[0], ms[3] / floor_ms, (unsigned long long)bad, (unsigned long long)ref.want, hovf);
            fflush(stdout);
        }
    }
    return 0;
}
