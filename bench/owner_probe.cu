// Feasibility probe (session 14): a group-by where each SM owns a hash range
// of the groups in its shared-memory table and the rows travel to their
// owner through rings in L2, so that DRAM sees the input once (PGB-TR
// writes and reads every row a second time). 2^28 rows, 4-byte keys,
// max,max of two 4-byte payloads, uniform keys.
//
// One block of 1024 threads an SM, all co-resident (cooperative launch).
// Each block loops: load a tile of T rows, count them by owner, stage them
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

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

enum { THREADS = 1024, T = 2048, TS = 16384, CAP = 64, GMAX = 136, PER_SM = TS / 2 };
static const uint32_t EMPTY = 0xFFFFFFFFu;

__host__ __device__ inline uint32_t fmix(uint32_t h)
{
    h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
    return h;
}

__global__ void gen(uint32_t *k, int *a, int *b, uint64_t n, uint32_t g)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        k[i] = (uint32_t)(((uint64_t)fmix((uint32_t)i * 2654435761u + 7) * g) >> 32);
        a[i] = (int)fmix((uint32_t)i ^ 0x1234567u);
        b[i] = (int)fmix((uint32_t)i ^ 0x7654321u);
    }
}

__device__ __forceinline__ unsigned ld_acquire(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void st_release(unsigned *p, unsigned v)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

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

/* Drain this block's incoming rings once: warp w takes sources w, w + 32,
 * ... (at most GMAX / 32 + 1 of them). FLAT: every source's head read at
 * once (a lane a source), then the rows of all of them as one list, so a
 * drain waits on two L2 round trips, not two a source. */
template <typename Agg>
__device__ __forceinline__ void drain(const Args &A, unsigned G, unsigned me, unsigned *tl, Agg agg)
{
    enum { NJ = GMAX / 32 + 1 };
    const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (warp >= G) return;
    const unsigned nj = (G - warp + 31) / 32;
    unsigned h = 0, t0 = 0, av = 0;
    if (lane < nj) {
        const unsigned s = warp + 32 * lane;
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
        const unsigned s = warp + 32 * q;
        const uint4 row = __ldcg(&A.ring[(size_t)(s * G + me) * CAP + ((c + f - e) & (CAP - 1))]);
        agg(row);
    }
    __syncwarp();
    if (lane < nj && av) {
        const unsigned s = warp + 32 * lane;
        tl[s] = h;
        st_release(&A.tail[s * G + me], h);
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

__global__ void __launch_bounds__(THREADS, 1) k_owner(Args A)
{
    extern __shared__ uint4 smem4[];
    uint32_t *tkey = (uint32_t *)smem4;
    int *ta = (int *)(tkey + TS), *tb = ta + TS;
    uint4 *stage = (uint4 *)(tb + TS);
    unsigned *cnt = (unsigned *)(stage + T), *off = cnt + GMAX, *hd = off + GMAX, *tl = hd + GMAX, *ft = tl + GMAX;
    const TableAgg agg = {tkey, ta, tb, A.overflow};
    __shared__ int blocked, fin;
    const unsigned G = gridDim.x, me = blockIdx.x, tid = threadIdx.x;
    for (unsigned i = tid; i < TS; i += THREADS) { tkey[i] = EMPTY; ta[i] = INT_MIN; tb[i] = INT_MIN; }
    for (unsigned i = tid; i < G; i += THREADS) { hd[i] = 0; tl[i] = 0; ft[i] = 0; }
    __syncthreads();
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
        if (tid < 32) { /* exclusive scan of cnt[0, G) by warp 0 */
            const unsigned per = (G + 31) / 32, lo = tid * per;
            unsigned sum = 0;
            for (unsigned j = lo; j < lo + per && j < G; j++) sum += cnt[j];
            unsigned inc = sum;
#pragma unroll
            for (int o = 1; o < 32; o <<= 1) {
                const unsigned y = __shfl_up_sync(0xffffffffu, inc, o);
                if ((int)tid >= o) inc += y;
            }
            unsigned run = inc - sum;
            for (unsigned j = lo; j < lo + per && j < G; j++) { off[j] = run; run += cnt[j]; }
        }
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
            drain(A, G, me, tl, agg);
        }
        const unsigned total = off[G - 1] + cnt[G - 1];
        for (unsigned i = tid; i < total; i += THREADS) {
            const uint4 r = stage[i];
            const unsigned p = hd[r.w] + (i - off[r.w]);
            __stcg(&A.ring[(size_t)(me * G + r.w) * CAP + (p & (CAP - 1))], make_uint4(r.x, r.y, r.z, 0));
        }
        __syncthreads();
        if (tid < G && cnt[tid]) {
            hd[tid] += cnt[tid];
            st_release(&A.head[me * G + tid], hd[tid]);
        }
        drain(A, G, me, tl, agg);
        __syncthreads(); /* cnt, off, stage reused */
    }
    __syncthreads();
    if (tid == 0) { __threadfence(); atomicAdd(A.done, 1u); }
    for (;;) {
        if (tid == 0) fin = ld_acquire(A.done) == G;
        __syncthreads();
        const bool f = fin;
        drain(A, G, me, tl, agg);
        __syncthreads();
        if (f) break;
    }
    for (unsigned i = tid; i < TS; i += THREADS)
        A.out[(size_t)me * TS + i] = make_uint4(tkey[i], (unsigned)ta[i], (unsigned)tb[i], 0);
}


/* Warp-specialised: warps [0, PW) produce (no drain while they wait for
 * room: the draining warps of every SM run beside them, so a tail always
 * moves on), warps [PW, 32) drain. The producers' barriers are named
 * (bar.sync 1) so the drainers never wait on them. */
enum { PW = 16, PT = PW * 32, PR = T / PT };
static_assert(PT == 512, "pbar's thread count");
__device__ __forceinline__ void pbar() { asm volatile("bar.sync 1, 512;" ::: "memory"); }

/* Returns the rows it took. */
template <typename Agg>
__device__ __forceinline__ unsigned drain_ws(const Args &A, unsigned G, unsigned me, unsigned *tl, Agg agg)
{
    enum { CW = 32 - PW, NJ = GMAX / CW + 1 };
    const unsigned cw = (threadIdx.x >> 5) - PW, lane = threadIdx.x & 31;
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
    __syncwarp();
    for (unsigned f = lane; f < total; f += 32) {
        unsigned q = 0, e = ex[0], c = st[0];
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

__global__ void __launch_bounds__(THREADS, 1) k_owner_ws(Args A)
{
    extern __shared__ uint4 smem4[];
    uint32_t *tkey = (uint32_t *)smem4;
    int *ta = (int *)(tkey + TS), *tb = ta + TS;
    uint4 *stage = (uint4 *)(tb + TS);
    unsigned *cnt = (unsigned *)(stage + T), *off = cnt + GMAX, *hd = off + GMAX, *tl = hd + GMAX, *ft = tl + GMAX;
    const TableAgg agg = {tkey, ta, tb, A.overflow};
    const unsigned G = gridDim.x, me = blockIdx.x, tid = threadIdx.x;
    for (unsigned i = tid; i < TS; i += THREADS) { tkey[i] = EMPTY; ta[i] = INT_MIN; tb[i] = INT_MIN; }
    for (unsigned i = tid; i < G; i += THREADS) { hd[i] = 0; tl[i] = 0; ft[i] = 0; cnt[i] = 0; }
    __syncthreads();
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
            if (tid < 32) { /* exclusive scan of cnt[0, G) by warp 0 */
                const unsigned per = (G + 31) / 32, lo = tid * per;
                unsigned sum = 0;
                for (unsigned j = lo; j < lo + per && j < G; j++) sum += cnt[j];
                unsigned inc = sum;
#pragma unroll
                for (int o = 1; o < 32; o <<= 1) {
                    const unsigned y = __shfl_up_sync(0xffffffffu, inc, o);
                    if ((int)tid >= o) inc += y;
                }
                unsigned run = inc - sum;
                for (unsigned j = lo; j < lo + per && j < G; j++) { off[j] = run; run += cnt[j]; }
            }
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
            const unsigned total = off[G - 1] + cnt[G - 1];
            for (unsigned i = tid; i < total; i += PT) {
                const uint4 r = stage[i];
                const unsigned p = hd[r.w] + (i - off[r.w]);
                __stcg(&A.ring[(size_t)(me * G + r.w) * CAP + (p & (CAP - 1))], make_uint4(r.x, r.y, r.z, 0));
            }
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
            took = drain_ws(A, G, me, tl, agg);
            if (f) break;
        }
    }
    __syncthreads();
    for (unsigned i = tid; i < TS; i += THREADS)
        A.out[(size_t)me * TS + i] = make_uint4(tkey[i], (unsigned)ta[i], (unsigned)tb[i], 0);
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
        gen<<<G * 8, 256>>>(k, a, b, n, g);
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
