// Feasibility probe (session 20): PGB's aggregate phase with a partition's
// table spread over the shared memory of a thread-block cluster (Hopper's
// distributed shared memory), so that one 8-bit partition pass serves more
// groups than one SM's table holds.
//
// PGB-TR makes one 8-bit pass up to 2^21 groups (8192 a partition in a
// 16384-slot table, 192 KB, one block an SM) and two passes above: on the
// H100 at 2^22 groups its partition takes 6.28 ms against 3.64 at 2^20
// (bench/RESULTS.md, session 19, call 5). With a cluster of C blocks a
// partition's groups are split among C tables by C of their hash bits, so
// 256 partitions hold 2^21 x C groups at load 1/2: one pass up to 2^25
// with C = 16. Predicted: if moving each row to its table's SM costs no
// more than the DRAM read beside it, the aggregate stays near the one-SM
// table's time (1.6-1.8 ms), and PGB-TR at 2^22 falls from 7.9 to about
// 5.5 ms.
//
// Three ways a row reaches its table (each row read once, by one block of
// the cluster):
//   remote:   probe and combine in the owner's table directly (atomics on
//             distributed shared memory);
//   exchange: a tile of 2048 rows a block is staged by owner in shared
//             memory; after a cluster barrier each block reads the rows
//             staged for it by its peers (coalesced remote loads) and
//             combines them locally; a second barrier frees the staging;
//   double:   the same with tiles of 1024 rows and two staging buffers, one
//             barrier a tile.
// Rows owned by the reading block are combined at once in every mode.
//
// Input as after PGB-TR's partition (bench/pgbtable_probe.cu's): 2^28 rows
// in 256 partitions of 2^20 rows, each key ending in its partition's 8
// bits, G groups a partition uniform, the packed pair of two 4-byte
// payloads beside each key, max of each. Tables of 16384 slots (key and two
// maxima, 192 KB), one block of 1024 threads an SM. Every group of every
// partition is checked against a CPU pass.
//
//   make bench-tools; build/bench/cluster_probe [G ...]
#include <algorithm>
#include <climits>
#include <cooperative_groups.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "bench/probe_common.cuh"

namespace cg = cooperative_groups;

enum { THREADS = 1024, LG_TS = 14, TS = 1 << LG_TS, P = 256, MAXP = 128 };
enum { REMOTE = 0, EXCHANGE = 1, DOUBLE = 2 };
static const uint32_t EMPTY = 0xFFFFFFFFu;

/* the key's table in its cluster: the 4 bits above the partition's */
__device__ __forceinline__ unsigned owner(uint32_t k, unsigned C) { return (k >> 8) & (C - 1); }

/* k_pgb_many's probe; tkey may be a peer's (distributed shared memory) */
__device__ __forceinline__ uint32_t slot_of(uint32_t *tkey, uint32_t k) { return probe_linear<LG_TS, MAXP>(tkey, k); }

struct Table {
    uint32_t *k;
    int *a, *b;
};

__device__ __forceinline__ void combine(const Table &t, uint32_t k, uint64_t v, int *overflow)
{
    const uint32_t sl = slot_of(t.k, k);
    if (sl == EMPTY) { *overflow = 1; return; }
    atomicMax(t.a + sl, (int)(uint32_t)v);
    atomicMax(t.b + sl, (int)(uint32_t)(v >> 32));
}

/* MODE's staging: tiles of TILE rows, NBUF buffers of keys and pairs */
template <int MODE> struct Shape {
    enum { TILE = MODE == DOUBLE ? 1024 : 2048, NBUF = MODE == DOUBLE ? 2 : 1, ITEMS = TILE / THREADS };
    static size_t smem() { return (size_t)TS * 12 + (MODE == REMOTE ? 0 : (size_t)NBUF * TILE * 12); }
};

/* One cluster a partition at a time (cluster c: partitions c, c + clusters,
 * ...). out: a partition's groups at out[(p * C + rank) * TS + i], i below
 * cnt[p * C + rank]: key, max a, max b. */
template <int MODE>
__global__ void __launch_bounds__(THREADS, 1) k_cagg(const uint32_t *__restrict__ key, const uint64_t *__restrict__ pair,
                                                     uint64_t n, uint4 *out, uint32_t *cnt, int *overflow)
{
    typedef Shape<MODE> S;
    cg::cluster_group cl = cg::this_cluster();
    const unsigned C = cl.num_blocks(), rank = cl.block_rank(), tid = threadIdx.x;
    const unsigned cid = blockIdx.x / C, ncl = gridDim.x / C;
    extern __shared__ uint4 smem4[];
    const Table mine = {(uint32_t *)smem4, (int *)smem4 + TS, (int *)smem4 + 2 * TS};
    uint32_t *sk = (uint32_t *)(mine.b + TS);          /* staged keys: NBUF x TILE */
    uint64_t *sv = (uint64_t *)(sk + S::NBUF * S::TILE); /* staged pairs */
    __shared__ uint32_t scount[16], soff[2][17], sfrom[16], slen[16], sat[17], nout;
    auto peer = [&](unsigned o) -> Table { /* o's table, mapped into this block's window */
        return {cl.map_shared_rank(mine.k, o), cl.map_shared_rank(mine.a, o), cl.map_shared_rank(mine.b, o)};
    };
    const uint64_t per = n / P;
    for (uint32_t p = cid; p < P; p += ncl) {
        for (unsigned i = tid; i < TS; i += THREADS) { mine.k[i] = EMPTY; mine.a[i] = INT_MIN; mine.b[i] = INT_MIN; }
        if (tid == 0) nout = 0;
        cl.sync(); /* every table of the cluster empty */
        const uint64_t lo = p * per, hi = lo + per;
        if constexpr (MODE == REMOTE) {
            for (uint64_t r = lo + 4 * ((uint64_t)rank * THREADS + tid); r < hi; r += 4ull * C * THREADS) {
                const uint4 k4 = __ldcs((const uint4 *)(key + r));
                const ulonglong2 p01 = __ldcs((const ulonglong2 *)(pair + r)), p23 = __ldcs((const ulonglong2 *)(pair + r + 2));
                const uint32_t k[4] = {k4.x, k4.y, k4.z, k4.w};
                const uint64_t v[4] = {p01.x, p01.y, p23.x, p23.y};
#pragma unroll
                for (int u = 0; u < 4; u++) combine(peer(owner(k[u], C)), k[u], v[u], overflow);
            }
        } else {
            const uint64_t tiles = (hi - lo + S::TILE - 1) / S::TILE, rounds = (tiles + C - 1) / C;
            uint32_t k[S::ITEMS];
            uint64_t v[S::ITEMS];
            bool in[S::ITEMS];
            auto load = [&](uint64_t round) {
                const uint64_t base = lo + (round * C + rank) * S::TILE;
#pragma unroll
                for (int i = 0; i < S::ITEMS; i++) {
                    const uint64_t r = base + tid + i * THREADS;
                    in[i] = round < rounds && r < hi;
                    if (in[i]) { k[i] = __ldcs(key + r); v[i] = __ldcs(pair + r); }
                }
            };
            load(0);
            for (uint64_t round = 0; round < rounds; round++) {
                const int buf = S::NBUF == 2 ? (int)(round & 1) : 0;
                uint32_t *bk = sk + buf * S::TILE;
                uint64_t *bv = sv + buf * S::TILE;
                /* own rows combined, the others counted: local work, done
                 * while the peers may still read the staging */
                if (tid < C) scount[tid] = 0;
                __syncthreads();
                uint32_t pos[S::ITEMS];
#pragma unroll
                for (int i = 0; i < S::ITEMS; i++) {
                    if (!in[i]) continue;
                    const unsigned o = owner(k[i], C);
                    if (o == rank) { combine(mine, k[i], v[i], overflow); in[i] = false; }
                    else pos[i] = atomicAdd(&scount[o], 1u);
                }
                __syncthreads();
                if (S::NBUF == 1 && round) cl.barrier_wait(); /* the peers done with the staging */
                if (tid == 0) {
                    soff[buf][0] = 0;
                    for (unsigned o = 0; o < C; o++) soff[buf][o + 1] = soff[buf][o] + scount[o];
                }
                __syncthreads();
#pragma unroll
                for (int i = 0; i < S::ITEMS; i++) {
                    if (!in[i]) continue;
                    const uint32_t d = soff[buf][owner(k[i], C)] + pos[i];
                    bk[d] = k[i];
                    bv[d] = v[i];
                }
                /* arrive (release: the staging complete), then the next
                 * tile's loads, in flight across the wait and the drain */
                cl.barrier_arrive();
                load(round + 1);
                cl.barrier_wait();
                /* the rows staged for this block, as one list: each
                 * source's range read once (a thread a source), then every
                 * thread's rows loaded before any is combined */
                if (tid < C) {
                    const uint32_t *ro = cl.map_shared_rank(&soff[buf][0], tid);
                    sfrom[tid] = tid == rank ? 0 : ro[rank];
                    slen[tid] = tid == rank ? 0 : ro[rank + 1] - ro[rank];
                }
                __syncthreads();
                if (tid == 0) {
                    sat[0] = 0;
                    for (unsigned o = 0; o < C; o++) sat[o + 1] = sat[o] + slen[o];
                }
                __syncthreads();
                for (uint32_t x0 = 0; x0 < sat[C]; x0 += S::ITEMS * THREADS) { /* skew: more than a tile */
                    uint32_t rk[S::ITEMS];
                    uint64_t rv[S::ITEMS];
#pragma unroll
                    for (int i = 0; i < S::ITEMS; i++) {
                        const uint32_t x = x0 + tid + i * THREADS;
                        if (x >= sat[C]) continue;
                        unsigned o = 0;
                        while (sat[o + 1] <= x) o++;
                        const uint32_t at = sfrom[o] + x - sat[o];
                        rk[i] = cl.map_shared_rank(bk, o)[at];
                        rv[i] = cl.map_shared_rank(bv, o)[at];
                    }
#pragma unroll
                    for (int i = 0; i < S::ITEMS; i++)
                        if (x0 + tid + i * THREADS < sat[C]) combine(mine, rk[i], rv[i], overflow);
                }
                if (S::NBUF == 1) cl.barrier_arrive(); /* done with the peers' staging */
            }
            if (S::NBUF == 1 && rounds) cl.barrier_wait();
        }
        cl.sync(); /* every row of the partition combined */
        for (unsigned i = tid; i < TS; i += THREADS) {
            const uint32_t kk = mine.k[i];
            if (kk == EMPTY) continue;
            const uint32_t d = atomicAdd(&nout, 1u);
            out[((size_t)p * C + rank) * TS + d] = make_uint4(kk, (unsigned)mine.a[i], (unsigned)mine.b[i], 0);
        }
        __syncthreads();
        if (tid == 0) cnt[p * C + rank] = nout;
        __syncthreads();
    }
}

template <int MODE>
static float run(unsigned C, const uint32_t *key, const uint64_t *pair, uint64_t n, uint4 *out, uint32_t *cnt, int *ovf,
                 int *clusters_out)
{
    auto *kern = k_cagg<MODE>;
    const size_t smem = Shape<MODE>::smem();
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    if (C > 8) CK(cudaFuncSetAttribute(kern, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = C;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = smem;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    cfg.gridDim = dim3(C);
    int clusters = 0;
    CK(cudaOccupancyMaxActiveClusters(&clusters, kern, &cfg));
    if (clusters < 1) return -1;
    clusters = std::min(clusters, (int)P);
    *clusters_out = clusters;
    cfg.gridDim = dim3(clusters * C);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> ms;
    for (int r = 0; r < 10; r++) {
        CK(cudaEventRecord(e0));
        CK(cudaLaunchKernelEx(&cfg, kern, key, pair, n, out, cnt, ovf));
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float m;
        CK(cudaEventElapsedTime(&m, e0, e1));
        if (r) ms.push_back(m); /* the first is a warm-up */
    }
    CK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

int main(int argc, char **argv)
{
    const uint64_t n = 1ull << 28;
    std::vector<uint32_t> Gs;
    for (int i = 1; i < argc; i++) Gs.push_back((uint32_t)strtoul(argv[i], NULL, 0));
    if (Gs.empty()) Gs = {8192, 16384, 32768, 65536, 131072};
    uint32_t *key, *cnt;
    uint64_t *pair;
    uint4 *out;
    int *ovf;
    CK(cudaMalloc(&key, n * 4));
    CK(cudaMalloc(&pair, n * 8));
    CK(cudaMalloc(&out, (size_t)P * 16 * TS * 16));
    CK(cudaMalloc(&cnt, (size_t)P * 16 * 4));
    CK(cudaMalloc(&ovf, 4));
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    PartRef ref; /* the CPU's maxima */
    printf("mode,C,clusters,groups_a_partition,groups,load,ms_median,wrong,overflow\n");
    for (uint32_t G : Gs) {
        ref.generate(key, pair, n, G, P, sms);
        for (unsigned C = 1; C <= 16; C *= 2) {
            if ((uint64_t)G * 2 > (uint64_t)C * TS || (uint64_t)G * 8 < (uint64_t)C * TS) continue; /* load 1/8..1/2 */
            for (int mode = 0; mode < 3; mode++) {
                if (C == 1 && mode) continue; /* nothing to exchange */
                CK(cudaMemset(ovf, 0, 4));
                int clusters = 0;
                const float ms = mode == REMOTE     ? run<REMOTE>(C, key, pair, n, out, cnt, ovf, &clusters)
                                 : mode == EXCHANGE ? run<EXCHANGE>(C, key, pair, n, out, cnt, ovf, &clusters)
                                                    : run<DOUBLE>(C, key, pair, n, out, cnt, ovf, &clusters);
                const char *name = mode == REMOTE ? "remote" : mode == EXCHANGE ? "exchange" : "double";
                if (ms < 0) { printf("%s,%u,0,%u,,,unlaunchable,,\n", name, C, G); continue; }
                std::vector<uint32_t> hc((size_t)P * C);
                CK(cudaMemcpy(hc.data(), cnt, hc.size() * 4, cudaMemcpyDeviceToHost));
                uint64_t bad = 0, found = 0;
                std::vector<char> got((size_t)P * G, 0);
                std::vector<uint4> ht(TS);
                for (uint32_t p = 0; p < P; p++)
                    for (unsigned r = 0; r < C; r++) {
                        const uint32_t m = hc[p * C + r];
                        if (m > TS) { bad++; continue; }
                        CK(cudaMemcpy(ht.data(), out + ((size_t)p * C + r) * TS, (size_t)m * 16, cudaMemcpyDeviceToHost));
                        for (uint32_t s = 0; s < m; s++) {
                            found++;
                            const uint32_t j = ref.inv[ht[s].x >> 8];
                            const size_t q = (size_t)p * G + j;
                            if ((ht[s].x & 0xFF) != p || ((ht[s].x >> 8) & (C - 1)) != r || j >= G || got[q] ||
                                (int)ht[s].y != ref.ma[q] || (int)ht[s].z != ref.mb[q])
                                bad++;
                            else
                                got[q] = 1;
                        }
                    }
                bad += ref.want - (found - bad); /* and the groups never found */
                int hovf = 0;
                CK(cudaMemcpy(&hovf, ovf, 4, cudaMemcpyDeviceToHost));
                printf("%s,%u,%d,%u,%llu,%.3f,%.3f,%llu,%d\n", name, C, clusters, G, (unsigned long long)G * P,
                       (double)G / ((double)C * TS), ms, (unsigned long long)bad, hovf);
                fflush(stdout);
            }
        }
    }
    return 0;
}
