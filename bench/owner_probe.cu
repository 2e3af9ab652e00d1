// Feasibility probe (session 14): a group-by where each SM owns a hash range
// of the groups in its shared-memory table and the rows travel to their
// owner through rings in L2, so that DRAM sees the input once (PGB-TR
// writes and reads every row a second time). 2^28 rows, 4-byte keys,
// max,max of two 4-byte payloads, uniform keys.
//
// One block of 1024 threads an SM, all co-resident (cooperative launch).
// k_owner: each block loops: load a tile of T rows, count them by owner, stage them
// in shared memory in owner order, wait for room in its ring to each owner
// (consuming its own rings while it waits: nobody waits without draining,
// so no deadlock), copy the runs to the rings (one single-producer,
// single-consumer ring of CAP rows a (source, owner) pair), publish the
// heads (release), then drain its incoming rings into its table. When every
// block has published its last head (a counter), the blocks drain what is
// left and write their tables out. Groups beyond one table an SM (8192 at
// load 1/2): several passes, each over the whole input, each for a slice
// of the owners.
//
// Measured once (session 14, bench/RESULTS.md) in a first version: 2.7x
// slower than PGB-TR, each tile a chain of L2 round trips. The two kernels
// here have not run on a device yet: k_owner, that version with one head
// read for all of a warp's sources, tails read only when short of room and
// no fence beside the release; k_owner_ws, warp-specialised (half the
// warps produce, half drain, side by side). Both run for every g.
//
//   make bench-tools; build/bench/owner_probe [log2 rows [log2 groups lo hi]]
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "bench/probe_common.cuh"
#include "operators/sync.cuh"

enum { THREADS = 1024, T = 2048, TS = 16384, CAP = 64, GMAX = 136, PER_SM = TS / 2 };
static const uint32_t EMPTY = 0xFFFFFFFFu;

using gjsync::ld_acquire;
using gjsync::st_release;

struct Args {
    const uint32_t *key;
    const int *pa, *pb;
    uint64_t n;
    uint4 *ring;        /* [G][G][CAP] rows (key, a, b, -) */
    unsigned *head;     /* [G][G]: rows published by source s for owner d */
    unsigned *tail;     /* [G][G]: rows owner d has taken from source s    */
    unsigned *done;     /* blocks that published their last head           */
    uint4 *out;         /* [G][TS] each block's table                      */
    int *overflow;
    unsigned owners, first; /* owner ids of the whole run, this pass's first */
};

/* Drain this block's incoming rings once, as draining warp cw of CW:
 * sources cw, cw + CW, ... (at most GMAX / CW + 1 of them). Every source's
 * head is read at once (a lane a source), then the rows of all of them as
 * one list, so a drain waits on two L2 round trips, not two a source.
 * Returns the rows it took. */
template <int CW, typename Agg>
__device__ __forceinline__ unsigned drain(const Args &A, unsigned G, unsigned me, unsigned *tl, Agg agg, unsigned cw)
{
    enum { NJ = GMAX / CW + 1 };
    const unsigned lane = threadIdx.x & 31;
    if (cw >= G) return 0;
    const unsigned nj = (G - cw + CW - 1) / CW;
    unsigned h = 0, t0 = 0, av = 0;
    if (lane < nj) {
        const unsigned s = cw + CW * lane;
        h = ld_acquire(&A.head[s * G + me]);
        t0 = tl[s];
        av = h - t0;
    }
    unsigned inc = av;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const unsigned y = __shfl_up_sync(0xffffffffu, inc, o);
        if ((int)lane >= o) inc += y;
    }
    const unsigned total = __shfl_sync(0xffffffffu, inc, 31);
    unsigned ex[NJ], st[NJ];
#pragma unroll
    for (int q = 0; q < NJ; q++) {
        ex[q] = __shfl_sync(0xffffffffu, inc - av, q);
        st[q] = __shfl_sync(0xffffffffu, t0, q);
    }
    __syncwarp(); /* the lanes' acquires before every lane's ring loads */
    for (unsigned f = lane; f < total; f += 32) {
        unsigned q = 0, e = ex[0], c = st[0]; /* selects, not an indexed (local-memory) array */
#pragma unroll
        for (int x = 1; x < NJ; x++)
            if ((unsigned)x < nj && ex[x] <= f) { q = x; e = ex[x]; c = st[x]; }
        const unsigned s = cw + CW * q;
        agg(__ldcg(&A.ring[(size_t)(s * G + me) * CAP + ((c + f - e) & (CAP - 1))]));
    }
    __syncwarp();
    if (lane < nj && av) {
        const unsigned s = cw + CW * lane;
        tl[s] = h;
        st_release(&A.tail[s * G + me], h);
    }
    return total;
}

/* off[0, G) = exclusive sum of cnt[0, G), by one warp (lane: its lane) */
__device__ __forceinline__ void owner_offsets(const unsigned *cnt, unsigned *off, unsigned G, unsigned lane)
{
    const unsigned per = (G + 31) / 32, lo = lane * per;
    unsigned sum = 0;
    for (unsigned j = lo; j < lo + per && j < G; j++) sum += cnt[j];
    unsigned inc = sum;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const unsigned y = __shfl_up_sync(0xffffffffu, inc, o);
        if ((int)lane >= o) inc += y;
    }
    unsigned run = inc - sum;
    for (unsigned j = lo; j < lo + per && j < G; j++) { off[j] = run; run += cnt[j]; }
}

/* a tile's staged rows (owner order, owner in .w) copied to the rings at
 * their heads, by `threads` threads from `tid` */
__device__ __forceinline__ void owner_copy(const Args &A, unsigned G, unsigned me, const uint4 *stage,
                                           const unsigned *cnt, const unsigned *off, const unsigned *hd,
                                           unsigned tid, unsigned threads)
{
    const unsigned total = off[G - 1] + cnt[G - 1];
    for (unsigned i = tid; i < total; i += threads) {
        const uint4 r = stage[i];
        const unsigned p = hd[r.w] + (i - off[r.w]);
        __stcg(&A.ring[(size_t)(me * G + r.w) * CAP + (p & (CAP - 1))], make_uint4(r.x, r.y, r.z, 0));
    }
}

/* one row into the block's table: find or claim its key, then the maxima
 * (an atomic only when the row beats the value read) */
struct TableAgg {
    uint32_t *tkey;
    int *ta, *tb;
    int *overflow;
    __device__ __forceinline__ void operator()(const uint4 &row) const
    {
        const uint32_t k = row.x;
        uint32_t sl = fmix(k) & (TS - 1);
        for (int probes = 0;; probes++) {
            const uint32_t cur = ((volatile uint32_t *)tkey)[sl];
            if (cur == k) break;
            if (cur == EMPTY) {
                const uint32_t prev = atomicCAS(&tkey[sl], EMPTY, k);
                if (prev == EMPTY || prev == k) break;
            }
            sl = (sl + 1) & (TS - 1);
            if (probes == TS) { *overflow = 1; return; }
        }
        if ((int)row.y > ((volatile int *)ta)[sl]) atomicMax(&ta[sl], (int)row.y);
        if ((int)row.z > ((volatile int *)tb)[sl]) atomicMax(&tb[sl], (int)row.z);
    }
};

/* A block's shared memory: its table (TS keys, then each maximum), the
 * staged tile, and per owner or source: counts, offsets, heads published,
 * tails taken, tails last read. Laid out and initialised by the whole
 * block (it ends in a barrier). */
struct OwnerSmem {
    uint32_t *tkey;
    int *ta, *tb;
    uint4 *stage;
    unsigned *cnt, *off, *hd, *tl, *ft;
};
__device__ __forceinline__ OwnerSmem owner_smem(unsigned G)
{
    extern __shared__ uint4 smem4[];
    OwnerSmem m;
    m.tkey = (uint32_t *)smem4;
    m.ta = (int *)(m.tkey + TS);
    m.tb = m.ta + TS;
    m.stage = (uint4 *)(m.tb + TS);
    m.cnt = (unsigned *)(m.stage + T);
    m.off = m.cnt + GMAX;
    m.hd = m.off + GMAX;
    m.tl = m.hd + GMAX;
    m.ft = m.tl + GMAX;
    for (unsigned i = threadIdx.x; i < TS; i += blockDim.x) { m.tkey[i] = EMPTY; m.ta[i] = INT_MIN; m.tb[i] = INT_MIN; }
    for (unsigned i = threadIdx.x; i < G; i += blockDim.x) { m.cnt[i] = 0; m.hd[i] = 0; m.tl[i] = 0; m.ft[i] = 0; }
    __syncthreads();
    return m;
}
/* the block's table to out (after a barrier) */
__device__ __forceinline__ void owner_out(const Args &A, const OwnerSmem &m, unsigned me)
{
    for (unsigned i = threadIdx.x; i < TS; i += blockDim.x)
        A.out[(size_t)me * TS + i] = make_uint4(m.tkey[i], (unsigned)m.ta[i], (unsigned)m.tb[i], 0);
}

__global__ void __launch_bounds__(THREADS, 1) k_owner(Args A)
{
    __shared__ int blocked, fin;
    const unsigned G = gridDim.x, me = blockIdx.x, tid = threadIdx.x;
    const OwnerSmem m = owner_smem(G);
    uint4 *stage = m.stage;
    unsigned *cnt = m.cnt, *off = m.off, *hd = m.hd, *tl = m.tl, *ft = m.ft;
    const TableAgg agg = {m.tkey, m.ta, m.tb, A.overflow};
    const uint64_t tiles = (A.n + T - 1) / T;
    for (uint64_t t = me; t < tiles; t += G) {
        uint32_t k[2];
        int a[2], b[2];
        unsigned d[2], pos[2];
        bool v[2];
#pragma unroll
        for (int u = 0; u < 2; u++) {
            const uint64_t i = t * T + u * THREADS + tid;
            v[u] = i < A.n;
            if (v[u]) {
                k[u] = __ldcs(A.key + i); a[u] = __ldcs(A.pa + i); b[u] = __ldcs(A.pb + i);
                const unsigned o = __umulhi(fmix(k[u]), A.owners); /* the slot takes the low bits */
                d[u] = o - A.first;
                v[u] = o >= A.first && d[u] < G;
            }
        }
        if (tid < G) cnt[tid] = 0;
        __syncthreads();
#pragma unroll
        for (int u = 0; u < 2; u++)
            if (v[u]) pos[u] = atomicAdd(&cnt[d[u]], 1u);
        __syncthreads();
        if (tid < 32) owner_offsets(cnt, off, G, tid);
        __syncthreads();
#pragma unroll
        for (int u = 0; u < 2; u++)
            if (v[u]) stage[off[d[u]] + pos[u]] = make_uint4(k[u], (unsigned)a[u], (unsigned)b[u], d[u]);
        for (;;) { /* room in every ring this tile writes to */
            if (tid == 0) blocked = 0;
            __syncthreads();
            if (tid < G && cnt[tid] > CAP) *A.overflow = 2; /* a run longer than a ring: flagged, never waited on */
            else if (tid < G && cnt[tid] && CAP - (hd[tid] - ft[tid]) < cnt[tid]) { /* the tail known, else read */
                ft[tid] = ld_acquire(&A.tail[me * G + tid]);
                if (CAP - (hd[tid] - ft[tid]) < cnt[tid]) blocked = 1;
            }
            __syncthreads();
            if (!blocked) break;
            drain<32>(A, G, me, tl, agg, tid >> 5);
        }
        owner_copy(A, G, me, stage, cnt, off, hd, tid, THREADS);
        __syncthreads();
        if (tid < G && cnt[tid]) {
            hd[tid] += cnt[tid];
            st_release(&A.head[me * G + tid], hd[tid]);
        }
        drain<32>(A, G, me, tl, agg, tid >> 5);
        __syncthreads(); /* cnt, off, stage reused */
    }
    __syncthreads();
    if (tid == 0) { __threadfence(); atomicAdd(A.done, 1u); }
    for (;;) {
        if (tid == 0) fin = ld_acquire(A.done) == G;
        __syncthreads();
        const bool f = fin;
        drain<32>(A, G, me, tl, agg, tid >> 5);
        __syncthreads();
        if (f) break;
    }
    owner_out(A, m, me);
}


/* Warp-specialised: warps [0, PW) produce (no drain while they wait for
 * room: the draining warps of every SM run beside them, so a tail always
 * moves on), warps [PW, 32) drain. The producers' barriers are named
 * (bar.sync 1) so the drainers never wait on them. */
enum { PW = 16, PT = PW * 32, PR = T / PT };
static_assert(PT == 512, "pbar's thread count");
__device__ __forceinline__ void pbar() { asm volatile("bar.sync 1, 512;" ::: "memory"); }

__global__ void __launch_bounds__(THREADS, 1) k_owner_ws(Args A)
{
    const unsigned G = gridDim.x, me = blockIdx.x, tid = threadIdx.x;
    const OwnerSmem m = owner_smem(G);
    uint4 *stage = m.stage;
    unsigned *cnt = m.cnt, *off = m.off, *hd = m.hd, *tl = m.tl, *ft = m.ft;
    const TableAgg agg = {m.tkey, m.ta, m.tb, A.overflow};
    if (tid < PT) { /* producers */
        const uint64_t tiles = (A.n + T - 1) / T;
        uint32_t k[PR];
        int a[PR], b[PR];
        auto load = [&](uint64_t t) {
#pragma unroll
            for (int u = 0; u < PR; u++) {
                const uint64_t i = t * T + u * PT + tid;
                if (t < tiles && i < A.n) { k[u] = __ldcs(A.key + i); a[u] = __ldcs(A.pa + i); b[u] = __ldcs(A.pb + i); }
            }
        };
        load(me);
        for (uint64_t t = me; t < tiles; t += G) {
            unsigned d[PR], pos[PR];
            bool v[PR];
#pragma unroll
            for (int u = 0; u < PR; u++) {
                const uint64_t i = t * T + u * PT + tid;
                v[u] = i < A.n;
                const unsigned o = __umulhi(fmix(k[u]), A.owners);
                d[u] = o - A.first;
                v[u] = v[u] && o >= A.first && d[u] < G;
                if (v[u]) pos[u] = atomicAdd(&cnt[d[u]], 1u);
            }
            pbar();
            if (tid < 32) owner_offsets(cnt, off, G, tid);
            pbar();
#pragma unroll
            for (int u = 0; u < PR; u++)
                if (v[u]) stage[off[d[u]] + pos[u]] = make_uint4(k[u], (unsigned)a[u], (unsigned)b[u], d[u]);
            load(t + G); /* the next tile's rows fly while this one leaves */
            if (tid < G && cnt[tid] > CAP) *A.overflow = 2; /* a run longer than a ring: flagged, never waited on */
            else if (tid < G && cnt[tid])
                while (CAP - (hd[tid] - ft[tid]) < cnt[tid]) { /* room: the tail known, else read again */
                    ft[tid] = ld_acquire(&A.tail[me * G + tid]);
                    if (CAP - (hd[tid] - ft[tid]) < cnt[tid]) __nanosleep(64);
                }
            pbar();
            owner_copy(A, G, me, stage, cnt, off, hd, tid, PT);
            pbar();
            if (tid < G && cnt[tid]) {
                hd[tid] += cnt[tid];
                st_release(&A.head[me * G + tid], hd[tid]);
                cnt[tid] = 0;
            }
            pbar(); /* cnt zeroed before the next tile's counts */
        }
        if (tid == 0) { __threadfence(); atomicAdd(A.done, 1u); }
    } else { /* drainers */
        /* the producers' counter read only after a round that found
         * nothing (then a full round follows it: every head is final by
         * then), and a short sleep there, so idle warps do not crowd L2 */
        for (unsigned took = 1;;) {
            unsigned f = 0;
            if (!took) {
                if ((tid & 31) == 0) f = ld_acquire(A.done) == G;
                f = __shfl_sync(0xffffffffu, f, 0);
                if (!f) __nanosleep(100);
            }
            took = drain<32 - PW>(A, G, me, tl, agg, (tid >> 5) - PW);
            if (f) break;
        }
    }
    __syncthreads();
    owner_out(A, m, me);
}

int main(int argc, char **argv)
{
    const int lg = argc > 1 ? atoi(argv[1]) : 28;
    const int glo = argc > 2 ? atoi(argv[2]) : 15, ghi = argc > 3 ? atoi(argv[3]) : 22;
    const uint64_t n = 1ull << lg;
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const unsigned G = (unsigned)sms;
    if (G > GMAX) { fprintf(stderr, "more than %d SMs\n", GMAX); return 1; }
    const size_t smem = (size_t)TS * 12 + (size_t)T * 16 + 5 * GMAX * 4;
    CK(cudaFuncSetAttribute(k_owner, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(k_owner_ws, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    int occ = 0, occ2 = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k_owner, THREADS, smem));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ2, k_owner_ws, THREADS, smem));
    occ = std::min(occ, occ2);
    printf("# %u SMs, %d block an SM, %zu bytes of shared memory, rings %.1f MB\n", G, occ, smem,
           (double)G * G * CAP * 16 / 1e6);
    if (occ < 1) return 1;
    uint32_t *k; int *a, *b; uint4 *ring, *out; unsigned *head, *tail, *done; int *ovf;
    CK(cudaMalloc(&k, n * 4)); CK(cudaMalloc(&a, n * 4)); CK(cudaMalloc(&b, n * 4));
    CK(cudaMalloc(&ring, (size_t)G * G * CAP * 16));
    CK(cudaMalloc(&head, (size_t)G * G * 4)); CK(cudaMalloc(&tail, (size_t)G * G * 4));
    CK(cudaMalloc(&done, 4)); CK(cudaMalloc(&ovf, 4));
    const int maxp = 16;
    CK(cudaMalloc(&out, (size_t)maxp * G * TS * 16));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    const double floor_ms = n * 12.0 / 3942.19e6; /* h200-measured B_G */
    printf("kernel,rows,groups,passes,ms_median,ms_min,x_floor,groups_found,wrong,overflow\n");
    std::vector<uint32_t> hk(n);
    std::vector<int> ha(n), hb(n);
    for (int lgg = glo; lgg <= ghi; lgg++) {
        const uint32_t g = 1u << lgg;
        probe_gen<<<G * 8, 256>>>(k, a, b, n, g);
        CK(cudaDeviceSynchronize());
        const unsigned passes = (unsigned)((g + (uint64_t)G * PER_SM - 1) / ((uint64_t)G * PER_SM));
        if (passes > (unsigned)maxp) continue;
        /* the CPU's maxima, once a g */
        CK(cudaMemcpy(hk.data(), k, n * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(ha.data(), a, n * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hb.data(), b, n * 4, cudaMemcpyDeviceToHost));
        std::vector<int> ma(g, INT_MIN), mb(g, INT_MIN);
        std::vector<char> seen(g, 0);
        for (uint64_t i = 0; i < n; i++) { const uint32_t q = hk[i]; seen[q] = 1; ma[q] = std::max(ma[q], ha[i]); mb[q] = std::max(mb[q], hb[i]); }
        uint64_t want = 0;
        for (uint32_t q = 0; q < g; q++) want += seen[q];
        for (int kern = 0; kern < 2; kern++) {
            void *fn = kern ? (void *)k_owner_ws : (void *)k_owner;
            std::vector<float> ms;
            CK(cudaMemset(ovf, 0, 4));
            for (int r = 0; r < 5; r++) {
                CK(cudaEventRecord(e0));
                for (unsigned p = 0; p < passes; p++) {
                    CK(cudaMemsetAsync(head, 0, (size_t)G * G * 4));
                    CK(cudaMemsetAsync(tail, 0, (size_t)G * G * 4));
                    CK(cudaMemsetAsync(done, 0, 4));
                    Args A = {k, a, b, n, ring, head, tail, done, out + (size_t)p * G * TS, ovf, G * passes, p * G};
                    void *args[] = {&A};
                    CK(cudaLaunchCooperativeKernel(fn, G, THREADS, args, smem, 0));
                }
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                float m; CK(cudaEventElapsedTime(&m, e0, e1)); ms.push_back(m);
            }
            CK(cudaGetLastError());
            std::sort(ms.begin(), ms.end());
            /* check: every group once, with its maxima */
            std::vector<uint4> ht((size_t)passes * G * TS);
            CK(cudaMemcpy(ht.data(), out, ht.size() * 16, cudaMemcpyDeviceToHost));
            std::vector<char> got(g, 0);
            uint64_t found = 0, bad = 0;
            for (const uint4 &s : ht) if (s.x != EMPTY) {
                found++;
                const uint32_t q = s.x;
                if (q >= g || got[q] || (int)s.y != ma[q] || (int)s.z != mb[q]) bad++;
                else got[q] = 1;
            }
            int hovf = 0; CK(cudaMemcpy(&hovf, ovf, 4, cudaMemcpyDeviceToHost));
            printf("%s,%llu,%u,%u,%.3f,%.3f,%.2f,%llu/%llu,%llu,%d\n", kern ? "warp-specialised" : "one-role",
                   (unsigned long long)n, g, passes, ms[2], ms[0], ms[2] / floor_ms, (unsigned long long)found,
                   (unsigned long long)want, (unsigned long long)bad, hovf);
            fflush(stdout);
        }
    }
    return 0;
}
