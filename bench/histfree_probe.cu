// Probe (session 20; run in session 21, call 1: 3.331 against 3.551 ms, its
// output right): PGB's one 8-bit hashed partition pass without its
// histogram pass. The operators now have it as part_scatter_kernel's CLAIM
// mode (operators/join_partition.cuh, join_api.cu partition_claim), its
// claims kept in flight across the staging; this kernel stays as the record
// of that first measurement. The operators' pass (operators/
// join_partition.cuh) reads the keys twice: part_hist_kernel counts every
// tile's digits (0.42 ms for 2^28 rows on the H100, bench/bits_probe), a
// scan turns the counts into each (bin, tile)'s offset (0.03 ms), and
// part_scatter_kernel writes. PGB's aggregate does not need the rows of a
// partition in input order (its combines commute), so where one partition
// call carries everything (PGB-TR's packed pair; PGB-UR's row ids) a tile
// could instead claim its run in each bin with one atomicAdd a bin, into
// bins sized from a sample of the keys (every 64th) with a margin; a bin
// that overflows is reported and the caller would run the exact pass.
// Predicted: the histogram and scan's 0.45 ms less the sample (about 0.02)
// and the claims (256 a tile, 35 K tiles, spread over 256 counters):
// PGB-TR at 2^20 groups 5.2 -> about 4.8 ms.
//
// Both passes here: 2^28 rows, 4-byte keys hashed as read, two 4-byte
// payload columns packed into one 8-byte value (PV_PACK), 768 x 10 tiles in
// the dynamic tile order; each phase timed (median of 9 after a warm-up).
// The claim pass's output is checked on the CPU: every bin holds exactly
// the rows whose hashed key has its digit, each row once, keys and values
// intact.
//
//   make bench-tools; build/bench/histfree_probe [log2 rows = 28]
#include <algorithm>
#include <cub/block/block_radix_rank.cuh>
#include <cub/device/device_scan.cuh>
#include <vector>

#include "bench/probe_common.cuh"
#include "operators/join_partition.cuh"

using namespace gjj;
typedef unsigned long long u64;

enum { THREADS = 768, ITEMS = 10, TILE = THREADS * ITEMS, HT = 384, BINS = 256, SAMPLE = 64 };

__global__ void gen(uint32_t *k, uint32_t *a, uint32_t *b, u64 n)
{
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        k[i] = fmix((uint32_t)i * 2654435761u + 99u);
        a[i] = (uint32_t)i;
        b[i] = ~(uint32_t)i;
    }
}

/* every SAMPLE-th key hashed, its digit counted: est[bin] */
__global__ void sample_kernel(const uint32_t *k, u64 n, uint32_t *est)
{
    __shared__ uint32_t h[BINS];
    for (int i = threadIdx.x; i < BINS; i += blockDim.x) h[i] = 0;
    __syncthreads();
    for (u64 i = (blockIdx.x * (u64)blockDim.x + threadIdx.x) * SAMPLE; i < n; i += (u64)gridDim.x * blockDim.x * SAMPLE)
        atomicAdd(&h[gjh::hash_key(k[i]) & (BINS - 1)], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < BINS; i += blockDim.x)
        if (h[i]) atomicAdd(&est[i], h[i]);
}

/* bins sized from the sample: est x SAMPLE x 1.1 + two tiles, laid out one
 * after another (one block) */
__global__ void size_kernel(const uint32_t *est, u64 n, u64 *start, u64 *cap)
{
    __shared__ u64 c[BINS];
    const int t = threadIdx.x;
    c[t] = (u64)(est[t] * (double)SAMPLE * 1.1) + 2 * TILE;
    __syncthreads();
    if (t == 0) {
        u64 s = 0;
        for (int i = 0; i < BINS; i++) {
            start[i] = s;
            cap[i] = c[i];
            s += c[i];
        }
        start[BINS] = s;
    }
}

/* part_scatter_kernel's pass (PV_PACK, hashed, dynamic order) with each
 * tile's offset in a bin claimed by one atomicAdd on fill[bin]; a claim past
 * cap[bin] sets *overflow and its rows are not written */
__global__ __launch_bounds__(THREADS, 1) void claim_scatter_kernel(
    const uint32_t *__restrict__ kin, const uint32_t *__restrict__ va, const uint32_t *__restrict__ vb,
    uint32_t *__restrict__ kout, u64 *__restrict__ vout, u64 n, uint32_t tiles, uint32_t *__restrict__ tile_ctr,
    const u64 *__restrict__ start, const u64 *__restrict__ cap, u64 *__restrict__ fill, int *overflow)
{
    typedef cub::BlockRadixRankMatchEarlyCounts<THREADS, 8, false> Rank;
    typedef PartSmem<uint32_t, u64, THREADS, ITEMS> Smem;
    extern __shared__ __align__(16) unsigned char dyn_smem[];
    Smem &u = *reinterpret_cast<Smem *>(dyn_smem);
    __shared__ u64 off[BINS];
    __shared__ uint32_t excl[BINS + 1];
    __shared__ uint32_t next_tile;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const PartDigit<uint32_t> dig = {0, BINS - 1};
    const u64 wbase = warp * (ITEMS * 32) + lane;
    uint32_t keys[ITEMS];
    if (blockIdx.x < tiles)
#pragma unroll
        for (int i = 0; i < ITEMS; i++) keys[i] = part_key<uint32_t, true>(kin, (u64)blockIdx.x * TILE + wbase + i * 32, n);
    for (uint32_t t = blockIdx.x, nt; t < tiles; t = nt) {
        const u64 tbase = (u64)t * TILE, base = tbase + wbase;
        const uint32_t valid = n - tbase < TILE ? (uint32_t)(n - tbase) : (uint32_t)TILE;
        u64 vals[ITEMS];
        int ranks[ITEMS], prefix[1];
        if (tid == 0) next_tile = gridDim.x + atomicAdd(tile_ctr, 1u);
        Rank(u.rank).RankKeys(keys, ranks, dig, prefix);
#pragma unroll
        for (int i = 0; i < ITEMS; i++) vals[i] = part_val<u64, PV_PACK, 0>(NULL, va, vb, PartSeg<uint32_t, u64>{}, base + i * 32, n);
        if (tid < BINS) excl[tid] = (uint32_t)prefix[0];
        if (tid == 0) excl[BINS] = TILE;
        __syncthreads(); /* excl complete; the ranking storage free */
        if (tid < BINS) { /* this tile's run in bin tid, padding rows (they rank last) excluded */
            const uint32_t lo = min(excl[tid], valid), c = min(excl[tid + 1], valid) - lo;
            u64 at = 0;
            if (c) {
                at = atomicAdd(&fill[tid], (u64)c);
                if (at + c > cap[tid]) *overflow = 1;
            }
            off[tid] = start[tid] + at - lo; /* row p of the staged tile goes to off[digit] + p */
        }
        nt = next_tile;
#pragma unroll
        for (int i = 0; i < ITEMS; i++) u.k[ranks[i]] = keys[i];
        if (nt < tiles) {
            const u64 nb = (u64)nt * TILE + wbase;
#pragma unroll
            for (int i = 0; i < ITEMS; i++) keys[i] = part_key<uint32_t, true>(kin, nb + i * 32, n);
        }
        __syncthreads();
        u64 dst[ITEMS];
        bool ok[ITEMS];
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            const uint32_t p = tid + i * THREADS;
            ok[i] = false;
            if (p < valid) {
                const uint32_t k = u.k[p], d = dig.Digit(k);
                dst[i] = off[d] + p;
                ok[i] = dst[i] < start[d] + cap[d];
                if (ok[i]) kout[dst[i]] = k;
            }
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < ITEMS; i++) u.v[ranks[i]] = vals[i];
        __syncthreads();
#pragma unroll
        for (int i = 0; i < ITEMS; i++)
            if (ok[i]) vout[dst[i]] = u.v[tid + i * THREADS];
        __syncthreads();
    }
}

static float elapsed(cudaEvent_t a, cudaEvent_t b)
{
    float t = 0;
    CK(cudaEventElapsedTime(&t, a, b));
    return t;
}

int main(int argc, char **argv)
{
    const int lg = probe_lg(argc, argv, 28, 16, 30, "histfree_probe [log2 rows 16..30]");
    const u64 n = 1ull << lg;
    const uint32_t tiles = (uint32_t)((n + TILE - 1) / TILE);
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    uint32_t *k, *a, *b, *ko, *hist, *est, *ctr;
    u64 *vo, *start, *cap, *fill;
    int *ovf;
    CK(cudaMalloc(&k, n * 4));
    CK(cudaMalloc(&a, n * 4));
    CK(cudaMalloc(&b, n * 4));
    const u64 room = (u64)(n * 1.1) + (u64)BINS * 2 * TILE + n / 8; /* the claim pass's bins, with their margins */
    CK(cudaMalloc(&ko, room * 4));
    CK(cudaMalloc(&vo, room * 8));
    const u64 nh = (u64)BINS * hist_stride(tiles);
    CK(cudaMalloc(&hist, (nh + 2) * 4));
    CK(cudaMalloc(&est, BINS * 4));
    CK(cudaMalloc(&ctr, 4));
    CK(cudaMalloc(&start, (BINS + 1) * 8));
    CK(cudaMalloc(&cap, BINS * 8));
    CK(cudaMalloc(&fill, BINS * 8));
    CK(cudaMalloc(&ovf, 4));
    size_t tmp_bytes = 0;
    CK(cub::DeviceScan::ExclusiveSum(NULL, tmp_bytes, hist, hist, nh));
    void *tmp;
    CK(cudaMalloc(&tmp, tmp_bytes));
    gen<<<sms * 8, 256>>>(k, a, b, n);
    CK(cudaDeviceSynchronize());

    auto *scat = part_scatter_kernel<uint32_t, u64, PV_PACK, THREADS, ITEMS, 1, true, true>;
    const size_t dyn = sizeof(PartSmem<uint32_t, u64, THREADS, ITEMS>);
    CK(cudaFuncSetAttribute(scat, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
    CK(cudaFuncSetAttribute(claim_scatter_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
    int occ_h = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_h, part_hist_kernel<uint32_t, HT, true>, HT, 0));
    const unsigned gs = std::min<uint32_t>(tiles, sms);
    cudaEvent_t e[4];
    for (auto &x : e) CK(cudaEventCreate(&x));
    std::vector<float> t_h, t_s, t_x, t_samp, t_claim;
    int hovf = 0;
    for (int r = -1; r < 9; r++) {
        /* the operators' pass: histogram (zeroes ctr), scan, scatter */
        CK(cudaEventRecord(e[0]));
        part_hist_kernel<uint32_t, HT, true><<<sms * occ_h, HT>>>(k, n, 0, BINS - 1, hist, tiles, TILE, hist + nh);
        CK(cudaEventRecord(e[1]));
        size_t tb = tmp_bytes;
        CK(cub::DeviceScan::ExclusiveSum(tmp, tb, hist, hist, nh));
        CK(cudaEventRecord(e[2]));
        scat<<<gs, THREADS, dyn>>>(k, NULL, a, b, ko, vo, NULL, n, 0, BINS - 1, hist, tiles, hist + nh, PartSeg<uint32_t, u64>{});
        CK(cudaEventRecord(e[3]));
        CK(cudaEventSynchronize(e[3]));
        CK(cudaGetLastError());
        if (r >= 0) { t_h.push_back(elapsed(e[0], e[1])); t_s.push_back(elapsed(e[1], e[2])); t_x.push_back(elapsed(e[2], e[3])); }
        /* the claim pass: sample, sizes, scatter (counters zeroed first, untimed) */
        CK(cudaMemset(est, 0, BINS * 4));
        CK(cudaMemset(fill, 0, BINS * 8));
        CK(cudaMemset(ctr, 0, 4));
        CK(cudaMemset(ovf, 0, 4));
        CK(cudaEventRecord(e[0]));
        sample_kernel<<<sms * 2, 512>>>(k, n, est);
        size_kernel<<<1, BINS>>>(est, n, start, cap);
        CK(cudaEventRecord(e[1]));
        claim_scatter_kernel<<<gs, THREADS, dyn>>>(k, a, b, ko, vo, n, tiles, ctr, start, cap, fill, ovf);
        CK(cudaEventRecord(e[2]));
        CK(cudaEventSynchronize(e[2]));
        CK(cudaGetLastError());
        if (r >= 0) { t_samp.push_back(elapsed(e[0], e[1])); t_claim.push_back(elapsed(e[1], e[2])); }
    }
    CK(cudaMemcpy(&hovf, ovf, 4, cudaMemcpyDeviceToHost));
    /* the last claim pass's output against the CPU */
    std::vector<u64> hs(BINS + 1), hf(BINS);
    CK(cudaMemcpy(hs.data(), start, (BINS + 1) * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hf.data(), fill, BINS * 8, cudaMemcpyDeviceToHost));
    std::vector<uint32_t> hk(hs[BINS]);
    std::vector<u64> hv(hs[BINS]);
    CK(cudaMemcpy(hk.data(), ko, hs[BINS] * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hv.data(), vo, hs[BINS] * 8, cudaMemcpyDeviceToHost));
    std::vector<char> seen(n, 0);
    u64 bad = 0, rows = 0;
    for (int d = 0; d < BINS && !hovf; d++)
        for (u64 x = hs[d]; x < hs[d] + hf[d]; x++, rows++) {
            const u64 i = (uint32_t)hv[x];
            const bool ok = i < n && !seen[i] && (uint32_t)(hv[x] >> 32) == ~(uint32_t)i &&
                            hk[x] == gjh::hash_key(fmix((uint32_t)i * 2654435761u + 99u)) && (hk[x] & (BINS - 1)) == (uint32_t)d;
            bad += !ok;
            if (i < n) seen[i] = 1;
        }
    const bool right = !hovf && !bad && rows == n;
    auto med = [](std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
    printf("rows 2^%d, %u tiles\n", lg, tiles);
    printf("pass,first_ms,scan_ms,scatter_ms,total_ms\n");
    printf("histogram,%.3f,%.3f,%.3f,%.3f\n", med(t_h), med(t_s), med(t_x), med(t_h) + med(t_s) + med(t_x));
    printf("claim,%.3f,,%.3f,%.3f\n", med(t_samp), med(t_claim), med(t_samp) + med(t_claim));
    printf("claim output: %s (rows %llu of %llu, wrong %llu, overflow %d)\n", right ? "right" : "WRONG",
           (unsigned long long)rows, (unsigned long long)n, (unsigned long long)bad, hovf);
    return right ? 0 : 1;
}
