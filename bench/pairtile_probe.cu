// Probe (session 18, built here; not yet run on a GPU): does the partition
// scatter get faster when its bin runs are twice as long?
//
// Session 18 (bench/RESULTS.md, call 4) found part_scatter_kernel bound by
// its L2 write requests, not by DRAM: storing the values split (one column
// more) cost 0.3-0.4 ms a pass of 2^27 rows for the same bytes, with a
// third more requests. A warp's store of 32 staged rows touches the lines
// of each bin's run it crosses, and a 7680-row tile cut into 256 bins
// leaves runs of about 30 rows. Longer tiles were register-bound (session
// 5: 1024 threads, 64 registers). This kernel keeps 768 x 10 in registers
// but ranks two consecutive tiles (A, B) one after the other and stages
// both into one shared-memory buffer in digit order before it stores, so
// each bin's run covers 15360 rows' worth (about 60 rows):
//   1. rank A; A's keys staged by rank (tk); ranks kept;
//   2. rank B; every row's place in the pair: A's rank + B's rows of lower
//      digits, B's rank + A's rows of its digit and below;
//   3. keys staged at those places (ck), stored; each place's digit kept
//      (dg); then the values, loaded while the keys are stored, staged
//      (cv, over ck) and stored.
// bench/scatter_requests.py (a line-count model, which under-counts call
// 4's measured requests) gives 12% fewer requests: if they set the pace,
// the pass at 1.51 ms (packed, 2^27 rows, u32 keys, u64 values, 8 bits)
// would take about 1.33 ms.
//
// Measured against part_scatter_kernel itself (768 x 10, dynamic tile
// order, its own histogram of 7680-row tiles), one 8-bit pass, keys hashed
// 32-bit, values the row index; both outputs must be byte-equal (each is
// the stable partition). Standalone:
//   make bench-tools; build/bench/pairtile_probe [log2 rows = 27] [bits = 8]
// prints the median of 9 of each scatter launch (CUDA events) and whether
// the outputs are equal; bench/s18_pairtile.sh adds ncu's request counts.
// The places' arithmetic (padding rows, fewer than 8 bits, partial pairs)
// was checked by a CPU model of the kernel against a stable partition;
// the kernel itself has not run yet.
#include <algorithm>
#include <cub/device/device_scan.cuh>
#include <vector>

#include "bench/probe_common.cuh"
#include "operators/join_partition.cuh"

using namespace gjj;
typedef unsigned long long u64;

enum { THREADS = 768, ITEMS = 10, TILE = THREADS * ITEMS, PT = 2 * TILE };
typedef cub::BlockRadixRankMatchEarlyCounts<THREADS, 8, false> Rank;

struct PairSmem {
    union {
        typename Rank::TempStorage rank;
        uint32_t ck[PT];
        u64 cv[PT];
    } x;
    union {
        uint32_t tk[TILE];
        uint8_t dg[PT];
    } z;
    uint32_t exa[257], exb[257], off[256];
    uint32_t next;
};

/* a tile's rows from base on, warp-striped as part_scatter_kernel loads
 * them; rows past n get pad (keys: all ones, which rank last) */
template <typename T>
__device__ __forceinline__ void load_rows(const T *in, u64 n, u64 base, T (&r)[ITEMS], T pad)
{
    const u64 w = (threadIdx.x >> 5) * (ITEMS * 32) + (threadIdx.x & 31);
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        const u64 x = base + w + i * 32;
        r[i] = x < n ? in[x] : pad;
    }
}

/* offs: the exclusive scan of part_hist_kernel's counts over PT-row tiles */
__global__ __launch_bounds__(THREADS, 1) void pair_scatter_kernel(const uint32_t *__restrict__ kin,
                                                                  const u64 *__restrict__ vin,
                                                                  uint32_t *__restrict__ kout, u64 *__restrict__ vout,
                                                                  u64 n, int lo, uint32_t mask,
                                                                  const uint32_t *__restrict__ offs, uint32_t tiles,
                                                                  uint32_t *__restrict__ ctr)
{
    extern __shared__ __align__(16) unsigned char dyn[];
    PairSmem &s = *reinterpret_cast<PairSmem *>(dyn);
    const int tid = threadIdx.x;
    const uint32_t stride = hist_stride(tiles);
    const PartDigit<uint32_t> dig = {lo, mask};
    for (uint32_t q = blockIdx.x; q < tiles;) {
        const u64 base = (u64)q * PT;
        const uint32_t va = n - base < TILE ? (uint32_t)(n - base) : TILE;
        const uint32_t vb = n - base <= TILE ? 0 : n - base - TILE < TILE ? (uint32_t)(n - base - TILE) : TILE;
        if (tid == 0) s.next = gridDim.x + atomicAdd(ctr, 1u);
        uint32_t keys[ITEMS];
        int ra[ITEMS], rb[ITEMS], pre[1];
        /* 1. A */
        load_rows(kin, n, base, keys, ~0u);
        Rank(s.x.rank).RankKeys(keys, ra, dig, pre);
        if (tid < 256) s.exa[tid] = pre[0];
        if (tid == 0) s.exa[256] = TILE;
#pragma unroll
        for (int i = 0; i < ITEMS; i++) s.z.tk[ra[i]] = keys[i];
        __syncthreads(); /* the ranking storage is B's now */
        /* 2. B */
        load_rows(kin, n, base + TILE, keys, ~0u);
        Rank(s.x.rank).RankKeys(keys, rb, dig, pre);
        if (tid < 256) s.exb[tid] = pre[0];
        if (tid == 0) s.exb[256] = TILE;
        __syncthreads(); /* exa, exb complete; the ranking storage is free */
        if (tid <= (int)mask) s.off[tid] = offs[(u64)tid * stride + q] - (s.exa[tid] + s.exb[tid]);
        /* 3. places in the pair: A's rank + B's rows of lower digits; B's
         * rank + A's rows up to its digit */
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            const uint32_t da = dig.Digit(s.z.tk[ra[i]]);
            ra[i] += s.exb[da];
            const uint32_t db = dig.Digit(keys[i]);
            rb[i] += s.exa[db + 1];
            s.x.ck[rb[i]] = keys[i];
        }
        for (uint32_t r = tid; r < TILE; r += THREADS) {
            const uint32_t k = s.z.tk[r];
            s.x.ck[r + s.exb[dig.Digit(k)]] = k;
        }
        u64 vals_a[ITEMS], vals_b[ITEMS]; /* in flight while the keys are stored */
        load_rows(vin, n, base, vals_a, 0ull);
        load_rows(vin, n, base + TILE, vals_b, 0ull);
        __syncthreads(); /* ck complete; tk read */
        const uint32_t valid = va + vb;
#pragma unroll
        for (int j = 0; j < 2 * ITEMS; j++) {
            const uint32_t p = tid + j * THREADS;
            if (p < valid) {
                const uint32_t k = s.x.ck[p], d = dig.Digit(k);
                s.z.dg[p] = (uint8_t)d;
                kout[s.off[d] + p] = k;
            }
        }
        __syncthreads(); /* ck read: cv over it */
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            s.x.cv[ra[i]] = vals_a[i];
            s.x.cv[rb[i]] = vals_b[i];
        }
        __syncthreads();
#pragma unroll
        for (int j = 0; j < 2 * ITEMS; j++) {
            const uint32_t p = tid + j * THREADS;
            if (p < valid) vout[s.off[s.z.dg[p]] + p] = s.x.cv[p];
        }
        q = s.next;
        __syncthreads(); /* next read; smem free for the next pair */
    }
}

__global__ void gen(uint32_t *k, u64 *v, u64 n)
{
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        k[i] = gjh::fmix((uint32_t)i * 2654435761u + 12345u);
        v[i] = i;
    }
}

static float median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/* one pass with tiles of `tile` rows: histogram, scan (not timed), then the
 * scatter, timed; returns its median of 9 after a warm-up */
template <typename F>
static float pass(const uint32_t *k, u64 n, int bits, uint32_t tile, uint32_t *hist, void *tmp, size_t tmp_bytes,
                  F scatter)
{
    const uint32_t tiles = (uint32_t)((n + tile - 1) / tile), mask = (1u << bits) - 1;
    const u64 nh = (u64)(mask + 1) * hist_stride(tiles);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> ms;
    for (int r = -1; r < 9; r++) {
        /* ctr = hist + 256 * stride, zeroed by the histogram kernel */
        uint32_t *ctr = hist + (size_t)256 * hist_stride(tiles);
        part_hist_kernel<uint32_t, 384><<<264, 384>>>(k, n, 0, mask, hist, tiles, tile, ctr);
        CK(cudaGetLastError());
        size_t tb = tmp_bytes;
        CK(cub::DeviceScan::ExclusiveSum(tmp, tb, hist, hist, nh));
        CK(cudaEventRecord(e0));
        scatter(hist, tiles, mask, ctr);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float t = 0;
        CK(cudaEventElapsedTime(&t, e0, e1));
        if (r >= 0) ms.push_back(t);
    }
    return median(ms);
}

int main(int argc, char **argv)
{
    const int lg = argc > 1 ? atoi(argv[1]) : 27, bits = argc > 2 ? atoi(argv[2]) : 8;
    if (lg < 10 || lg > 30 || bits < 1 || bits > 8) {
        fprintf(stderr, "usage: pairtile_probe [log2 rows 10..30] [bits 1..8]\n");
        return 2;
    }
    const u64 n = 1ull << lg;
    uint32_t *k, *ko[2], *hist;
    u64 *v, *vo[2];
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaMalloc(&k, n * 4));
    CK(cudaMalloc(&v, n * 8));
    for (int i = 0; i < 2; i++) {
        CK(cudaMalloc(&ko[i], n * 4));
        CK(cudaMalloc(&vo[i], n * 8));
    }
    const uint32_t max_tiles = (uint32_t)((n + TILE - 1) / TILE);
    CK(cudaMalloc(&hist, ((size_t)256 * hist_stride(max_tiles) + 2) * 4));
    size_t tmp_bytes = 0;
    CK(cub::DeviceScan::ExclusiveSum(NULL, tmp_bytes, hist, hist, (u64)256 * hist_stride(max_tiles)));
    void *tmp;
    CK(cudaMalloc(&tmp, tmp_bytes));
    gen<<<sms * 8, 256>>>(k, v, n);
    CK(cudaGetLastError());

    /* the library's scatter, as partition_run launches its first pass
     * (PV_COPY of 8-byte values, no split, dynamic order) */
    auto *ks = part_scatter_kernel<uint32_t, u64, PV_COPY, THREADS, ITEMS, 1, false, true>;
    const size_t dyn1 = sizeof(PartSmem<uint32_t, u64, THREADS, ITEMS>);
    CK(cudaFuncSetAttribute(ks, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn1));
    const float t1 = pass(k, n, bits, TILE, hist, tmp, tmp_bytes, [&](uint32_t *h, uint32_t tiles, uint32_t mask,
                                                                      uint32_t *ctr) {
        ks<<<std::min<uint32_t>(tiles, sms), THREADS, dyn1>>>(k, v, NULL, NULL, ko[0], vo[0], NULL, n, 0, mask, h,
                                                              tiles, ctr, NULL, 0);
    });
    CK(cudaGetLastError());

    const size_t dyn2 = sizeof(PairSmem);
    CK(cudaFuncSetAttribute(pair_scatter_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn2));
    const float t2 = pass(k, n, bits, PT, hist, tmp, tmp_bytes, [&](uint32_t *h, uint32_t tiles, uint32_t mask,
                                                                    uint32_t *ctr) {
        pair_scatter_kernel<<<std::min<uint32_t>(tiles, sms), THREADS, dyn2>>>(k, v, ko[1], vo[1], n, 0, mask, h,
                                                                              tiles, ctr);
    });
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    std::vector<uint32_t> hk[2];
    std::vector<u64> hv[2];
    for (int i = 0; i < 2; i++) {
        hk[i].resize(n);
        hv[i].resize(n);
        CK(cudaMemcpy(hk[i].data(), ko[i], n * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hv[i].data(), vo[i], n * 8, cudaMemcpyDeviceToHost));
    }
    const bool eq = hk[0] == hk[1] && hv[0] == hv[1];
    const double gb = n * 2.0 * (4 + 8) / 1e9; /* a scatter reads and writes key and value */
    printf("rows 2^%d, %d bits, smem %zu / %zu bytes\n", lg, bits, dyn1, dyn2);
    printf("scatter,tile_rows,ms,GB/s\n");
    printf("part_scatter_kernel,%d,%.3f,%.0f\n", TILE, t1, gb / (t1 * 1e-3));
    printf("pair_scatter_kernel,%d,%.3f,%.0f\n", PT, t2, gb / (t2 * 1e-3));
    printf("outputs %s\n", eq ? "equal" : "DIFFER");
    return eq ? 0 : 1;
}
