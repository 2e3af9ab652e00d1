// Feasibility probe (session 28): PGB's aggregate with a partition's groups
// split among C blocks that each read the whole partition. PGB-TR makes a
// second partition pass (or a wider first one) as soon as a partition's
// groups outgrow one SM's table: 9 bits from 2^22 groups, 10 from 2^23, two
// passes from 2^24 (bench/RESULTS.md, session 22). Here block (p, c) keeps
// only the groups of partition p whose hash bits (below the table's home
// bits) say c, and skips the other rows: DRAM should see each partition once
// if the C blocks, launched side by side, read it in step and the L2 serves
// all but the first (a reader ahead waits on the DRAM, the ones behind hit
// the L2 and catch up), the L2 carries it C times (7.7 TB/s on the H100:
// 3.2 GB at C = 2 is 0.8 ms, under the DRAM's 1.1). No communication
// between the blocks, unlike the cluster (bench/cluster_probe.cu) and
// owner-ring (bench/owner_probe.cu) probes, which lost to the extra passes.
//
// Input as after PGB-TR's partition: 2^28 rows in P equal partitions, key
// j * P + p for group j (uniform over [0, G)) of partition p, the packed
// pair of two 4-byte payloads beside it. One block of 1024 threads a
// (partition, owner), 16384-slot tables (192 KB), four rows a thread in
// 16-byte loads, linear probing from a Fibonacci home (pgbtable_probe's
// loop). Each block writes its groups compacted into its region; every
// group of every partition is checked against a CPU pass.
//
//   make bench-tools; build/bench/split_probe [P:G:C ...]
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "bench/probe_common.cuh"

enum { THREADS = 1024, LG = 14, TS = 1 << LG, MAXP = 64 };
static const uint32_t EMPTY = 0xFFFFFFFFu;

__global__ void gen_split(uint32_t *key, uint64_t *pair, uint64_t n, uint32_t G, uint32_t parts)
{
    const uint64_t per = n / parts;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t p = (uint32_t)(i / per);
        const uint32_t j = (uint32_t)(((uint64_t)fmix((uint32_t)i * 2654435761u + 7) * G) >> 32);
        key[i] = j * parts + p;
        pair[i] = (uint64_t)fmix((uint32_t)i ^ 0x1234567u) | (uint64_t)fmix((uint32_t)i ^ 0x7654321u) << 32;
    }
}

/* the owner of key k among C (a power of two): product bits 32.., below
 * the home's top LG bits */
__device__ __forceinline__ uint32_t owner(uint32_t k, uint32_t cmask)
{
    return (uint32_t)(((uint64_t)k * 0x9E3779B97F4A7C15ull) >> 32) & cmask;
}

/* block b: partition b / C, owner b % C. STREAM: evict-first loads (as the
 * operator's C = 1 reads); else the default, kept in the L2 for the others */
template <bool STREAM>
__global__ void __launch_bounds__(THREADS, 1) k_split(const uint32_t *key, const uint64_t *pair, uint64_t n, int parts,
                                                      int C, uint4 *out, uint32_t *cnt, int *overflow)
{
    extern __shared__ uint4 smem4[];
    uint32_t *tkey = (uint32_t *)smem4;
    int *ta = (int *)(tkey + TS), *tb = ta + TS;
    __shared__ uint32_t nout;
    for (unsigned i = threadIdx.x; i < TS; i += THREADS) { tkey[i] = EMPTY; ta[i] = INT_MIN; tb[i] = INT_MIN; }
    if (threadIdx.x == 0) nout = 0;
    __syncthreads();
    const uint32_t p = blockIdx.x / C, c = blockIdx.x % C, cmask = C - 1;
    const uint64_t per = n / parts, lo = p * per, hi = lo + per;
    for (uint64_t r = lo + 4 * threadIdx.x; r < hi; r += 4 * THREADS) {
        uint4 k4;
        ulonglong2 p01, p23;
        if (STREAM) {
            k4 = __ldcs((const uint4 *)(key + r));
            p01 = __ldcs((const ulonglong2 *)(pair + r));
            p23 = __ldcs((const ulonglong2 *)(pair + r + 2));
        } else {
            k4 = *(const uint4 *)(key + r);
            p01 = *(const ulonglong2 *)(pair + r);
            p23 = *(const ulonglong2 *)(pair + r + 2);
        }
        const uint32_t k[4] = {k4.x, k4.y, k4.z, k4.w};
        const uint64_t v[4] = {p01.x, p01.y, p23.x, p23.y};
        uint32_t sl[4];
#pragma unroll
        for (int u = 0; u < 4; u++) sl[u] = owner(k[u], cmask) == c ? probe_linear<LG, MAXP>(tkey, k[u]) : EMPTY - 1;
        __syncwarp();
#pragma unroll
        for (int u = 0; u < 4; u++) {
            if (sl[u] == EMPTY - 1) continue;
            if (sl[u] == EMPTY) { *overflow = 1; continue; }
            atomicMax(ta + sl[u], (int)(uint32_t)v[u]);
            atomicMax(tb + sl[u], (int)(uint32_t)(v[u] >> 32));
        }
        __syncwarp();
    }
    __syncthreads();
    uint4 *o = out + (size_t)blockIdx.x * TS;
    for (unsigned i = threadIdx.x; i < TS; i += THREADS)
        if (tkey[i] != EMPTY) o[atomicAdd(&nout, 1u)] = make_uint4(tkey[i], (unsigned)ta[i], (unsigned)tb[i], 0);
    __syncthreads();
    if (threadIdx.x == 0) cnt[blockIdx.x] = nout;
}

int main(int argc, char **argv)
{
    const uint64_t n = 1ull << 28;
    const int CMAX = 16, PMAX = 1024;
    uint32_t *key, *cnt;
    uint64_t *pair;
    uint4 *out;
    int *ovf;
    std::vector<uint32_t> want_p, want_g, want_c; /* the runs: P:G:C */
    for (int i = 1; i < argc; i++) {
        unsigned P, G, C;
        if (sscanf(argv[i], "%u:%u:%u", &P, &G, &C) != 3 || !P || P > PMAX || (P & (P - 1)) || !C || C > CMAX ||
            (C & (C - 1)) || !G || (uint64_t)G * P > (1ull << 32)) {
            fprintf(stderr, "split_probe: bad run '%s' (P:G:C, P a power of two <= %d, C <= %d)\n", argv[i], PMAX, CMAX);
            return 2;
        }
        want_p.push_back(P), want_g.push_back(G), want_c.push_back(C);
    }
    if (want_p.empty()) { /* PGB-TR today at 2^21, and 2^22..2^25 groups in one 8-bit pass */
        const unsigned d[][3] = {{256, 8192, 1}, {256, 16384, 2}, {256, 32768, 4}, {256, 65536, 8}, {256, 131072, 16}};
        for (auto &x : d) want_p.push_back(x[0]), want_g.push_back(x[1]), want_c.push_back(x[2]);
    }
    CK(cudaMalloc(&key, n * 4));
    CK(cudaMalloc(&pair, n * 8));
    CK(cudaMalloc(&out, (size_t)PMAX * CMAX * TS * 16 / 4)); /* a block's groups fit TS; at most a quarter of blocks' worth in all */
    CK(cudaMalloc(&cnt, PMAX * CMAX * 4));
    CK(cudaMalloc(&ovf, 4));
    const size_t smem = (size_t)TS * 12;
    CK(cudaFuncSetAttribute(k_split<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(k_split<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const double floor_ms = n * 12.0 / 2824.91e6; /* the aggregate's read: key + pair, at h100-measured B_G */
    printf("P,groups_a_partition,C,load,loads,ms_median,ms_min,x_read_floor,wrong\n");
    std::vector<uint32_t> hk(n);
    std::vector<uint64_t> hp(n);
    for (size_t run = 0; run < want_p.size(); run++) {
        const uint32_t P = want_p[run], G = want_g[run], C = want_c[run], blocks = P * C;
        if ((uint64_t)blocks * TS > (uint64_t)PMAX * CMAX * TS / 4) {
            fprintf(stderr, "split_probe: %u blocks: too many for the output\n", blocks);
            return 2;
        }
        gen_split<<<sms * 8, 256>>>(key, pair, n, G, P);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hk.data(), key, n * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hp.data(), pair, n * 8, cudaMemcpyDeviceToHost));
        /* the CPU's maxima at q = p * G + j */
        std::vector<int> ma((size_t)P * G, INT_MIN), mb((size_t)P * G, INT_MIN);
        std::vector<char> seen((size_t)P * G, 0);
        uint64_t want = 0;
        for (uint64_t i = 0; i < n; i++) {
            const size_t q = (size_t)(hk[i] % P) * G + hk[i] / P;
            want += !seen[q];
            seen[q] = 1;
            ma[q] = std::max(ma[q], (int)(uint32_t)hp[i]);
            mb[q] = std::max(mb[q], (int)(uint32_t)(hp[i] >> 32));
        }
        for (int stream = 0; stream < 2; stream++) {
            if (stream && C > 1) continue; /* evict-first loads only as the operator's one reader */
            std::vector<float> ms;
            CK(cudaMemset(ovf, 0, 4));
            for (int r = 0; r < 8; r++) {
                CK(cudaEventRecord(e0));
                if (stream) k_split<true><<<blocks, THREADS, smem>>>(key, pair, n, P, C, out, cnt, ovf);
                else k_split<false><<<blocks, THREADS, smem>>>(key, pair, n, P, C, out, cnt, ovf);
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                float m;
                CK(cudaEventElapsedTime(&m, e0, e1));
                if (r) ms.push_back(m); /* the first: warm-up */
            }
            CK(cudaGetLastError());
            std::sort(ms.begin(), ms.end());
            std::vector<uint32_t> hc(blocks);
            CK(cudaMemcpy(hc.data(), cnt, blocks * 4, cudaMemcpyDeviceToHost));
            std::vector<char> got((size_t)P * G, 0);
            uint64_t bad = 0, found = 0;
            std::vector<uint4> ht(TS);
            for (uint32_t b = 0; b < blocks; b++) {
                if (hc[b] > TS) { bad++; continue; }
                CK(cudaMemcpy(ht.data(), out + (size_t)b * TS, hc[b] * 16, cudaMemcpyDeviceToHost));
                for (uint32_t s = 0; s < hc[b]; s++) {
                    found++;
                    const uint32_t k = ht[s].x, p = k % P, j = k / P;
                    const size_t q = (size_t)p * G + j;
                    if (p != b / C || j >= G || got[q] || (int)ht[s].y != ma[q] || (int)ht[s].z != mb[q]) bad++;
                    else got[q] = 1;
                }
            }
            bad += want - (found - bad); /* wrong ones, and the groups never found (want - good) */
            int hovf = 0;
            CK(cudaMemcpy(&hovf, ovf, 4, cudaMemcpyDeviceToHost));
            const double med = ms[ms.size() / 2];
            printf("%u,%u,%u,%.3f,%s,%.3f,%.3f,%.2f,%llu of %llu%s\n", P, G, C, (double)G / C / TS,
                   stream ? "evict-first" : "default", med, ms[0], med / floor_ms, (unsigned long long)bad,
                   (unsigned long long)want, hovf ? " (overflow)" : "");
            fflush(stdout);
        }
    }
    return 0;
}
