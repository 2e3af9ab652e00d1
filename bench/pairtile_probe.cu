// Probe: what sets the pace of the partition scatter (part_scatter_kernel,
// operators/join_partition.cuh)? Three scatters of one pass (4-byte keys,
// 8-byte values), each checked byte for byte against part_scatter_kernel:
//
// part_scatter2_kernel (operators/join_partition.cuh; session 18 wrote it
// here as pair_scatter_kernel, session 19 moved it into the operators):
// ranks two consecutive tiles of 768 x 10 one after the other and stages
// both in one shared-memory buffer in digit order before it stores, so
// each bin's run covers about 60 rows instead of 30.
// wc_scatter_kernel (session 19): write-combining; every output line is
// stored whole (below). Its `carry` argument false flushes every tile.
// part_scatter_kernel in its static tile order, beside its dynamic one.
//
// Measured (bench/RESULTS.md, session 19, H100): pair 3-6% faster at 8
// bits, 2.5% slower at 7; write-combining halves the L2 write requests and
// is 12% slower; the static order 13-28% slower. So the requests do not
// set the pace (session 18 thought they did); how close together the
// concurrent tiles' writes land does.
//
//   make bench-tools; build/bench/pairtile_probe [log2 rows = 27] [bits = 8] [runs = 9]
// prints the median of each scatter launch (CUDA events) and whether the
// outputs are equal; bench/s19_call2.sh adds ncu's counts and
// compute-sanitizer.
#include <algorithm>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <vector>

#include "bench/probe_common.cuh"
#include "operators/join_partition.cuh"

using namespace gjj;
typedef unsigned long long u64;

enum { THREADS = 768, ITEMS = 10, TILE = THREADS * ITEMS, PT = 2 * TILE };
typedef cub::BlockRadixRankMatchEarlyCounts<THREADS, 8, false> Rank;

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

/* ---- write-combining scatter (session 19) ----
 * Each block takes a contiguous range of tiles, so each bin's rows from
 * the block are one contiguous run of the output across its tiles (the
 * bin-major scan gives offs[d][t + 1] = offs[d][t] + count). A tile's
 * rows are stored a 32-row output line at a time, a warp a line: every
 * line that the rows so far complete leaves whole (one 128-byte key line,
 * two value lines), and each bin's last, incomplete line is held back in
 * shared memory (ck, cv: 32 slots a bin, slot = row & 31) and completed
 * by the next tile; the block's last tile flushes. Only the lines where a
 * block's range of a bin begins or ends are partial. */
enum { WC_LINES = 1024 }; /* >= (TILE + 256 * 31) / 32 + 256 lines a tile */
typedef cub::BlockScan<uint32_t, THREADS> WcScan;

template <typename V>
struct WcSmem {
    union {
        typename Rank::TempStorage rank;
        uint32_t k[TILE];
        V v[TILE];
    } x;
    uint32_t ck[256 * 32];
    V cv[256 * 32];
    uint4 bin[256];           /* first row not yet stored, end after this tile, first new row, its staging index */
    uint32_t tab[WC_LINES];   /* a line: its bin | (its line within the bin's lines) << 8 */
    uint32_t pre[257];        /* staging index of each bin's first new row; pre[mask + 1] = valid rows */
    typename WcScan::TempStorage scan;
};

/* the lines of the list (each whole: written out), then each bin's
 * incomplete last line into its carry slots (after a barrier: the first
 * loop reads carried rows from those slots) */
template <typename T>
__device__ __forceinline__ void wc_store(const T *stage, T *carry, T *out, const uint4 *bin, const uint32_t *tab,
                                         uint32_t lines, uint32_t mask, bool last)
{
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (uint32_t li = warp; li < lines; li += THREADS / 32) {
        const uint32_t d = tab[li] & 255;
        const uint4 b = bin[d]; /* x first unstored row, y end, z first new row, w its staging index */
        const uint32_t g = (b.x / 32 + (tab[li] >> 8)) * 32 + lane;
        if (g >= b.x && g < b.y) out[g] = g < b.z ? carry[d * 32 + lane] : stage[b.w + (g - b.z)];
    }
    __syncthreads();
    if (last) return;
    for (uint32_t d = warp; d <= mask; d += THREADS / 32) {
        const uint4 b = bin[d];
        const uint32_t g = (b.y & ~31u) + lane;
        if ((b.y & 31) && g >= b.x && g < b.y)
            carry[d * 32 + lane] = g < b.z ? carry[d * 32 + lane] : stage[b.w + (g - b.z)];
    }
}

template <typename V>
__global__ __launch_bounds__(THREADS, 1) void wc_scatter_kernel(const uint32_t *__restrict__ kin,
                                                                const V *__restrict__ vin,
                                                                uint32_t *__restrict__ kout, V *__restrict__ vout,
                                                                u64 n, int lo, uint32_t mask,
                                                                const uint32_t *__restrict__ offs, uint32_t tiles,
                                                                bool carry)
{
    extern __shared__ __align__(16) unsigned char dyn[];
    WcSmem<V> &s = *reinterpret_cast<WcSmem<V> *>(dyn);
    const int tid = threadIdx.x;
    const uint32_t stride = hist_stride(tiles);
    const PartDigit<uint32_t> dig = {lo, mask};
    const uint32_t t0 = (uint32_t)((u64)blockIdx.x * tiles / gridDim.x);
    const uint32_t t1 = (uint32_t)((u64)(blockIdx.x + 1) * tiles / gridDim.x);
    uint32_t keys[ITEMS];
    if (t0 < t1) load_rows(kin, n, (u64)t0 * TILE, keys, ~0u);
    for (uint32_t t = t0; t < t1; t++) {
        const bool last = t + 1 == t1 || !carry; /* !carry: every tile flushes (its lines' ends partial) */
        const u64 tbase = (u64)t * TILE;
        const uint32_t valid = n - tbase < TILE ? (uint32_t)(n - tbase) : TILE;
        const uint32_t goff = tid <= (int)mask ? offs[(u64)tid * stride + t] : 0;
        int ranks[ITEMS], pre[1];
        Rank(s.x.rank).RankKeys(keys, ranks, dig, pre);
        V vals[ITEMS];
        load_rows(vin, n, tbase, vals, (V)0);
        if (tid <= (int)mask) s.pre[tid] = pre[0];
        if (tid == 0) s.pre[mask + 1] = valid; /* padding rows rank last, in bin mask */
        __syncthreads(); /* ranking storage -> staging */
#pragma unroll
        for (int i = 0; i < ITEMS; i++) s.x.k[ranks[i]] = keys[i];
        uint32_t nl = 0;
        if (tid <= (int)mask) {
            const uint32_t p = s.pre[tid], e = goff + (s.pre[tid + 1] - p);
            const uint32_t st = t == t0 ? goff : s.bin[tid].x;
            s.bin[tid] = make_uint4(st, e, goff, p);
            /* whole lines from st's; the last tile also the incomplete one */
            const uint32_t top = last ? (e + 31) / 32 : e / 32;
            nl = e > st && top > st / 32 ? top - st / 32 : 0;
        }
        if (t + 1 < t1) load_rows(kin, n, tbase + TILE, keys, ~0u); /* not `last`: !carry flushes every tile */
        uint32_t lbase, lines;
        WcScan(s.scan).ExclusiveSum(nl, lbase, lines);
        for (uint32_t j = 0; j < nl; j++) s.tab[lbase + j] = (uint32_t)tid | j << 8;
        __syncthreads();
        wc_store(s.x.k, s.ck, kout, s.bin, s.tab, lines, mask, last);
        __syncthreads();
#pragma unroll
        for (int i = 0; i < ITEMS; i++) s.x.v[ranks[i]] = vals[i];
        __syncthreads();
        wc_store(s.x.v, s.cv, vout, s.bin, s.tab, lines, mask, last);
        __syncthreads(); /* bin[] read */
        if (tid <= (int)mask) {
            const uint4 b = s.bin[tid]; /* this thread's own entry */
            s.bin[tid].x = last || !(b.y & 31) ? b.y : max(b.x, b.y & ~31u); /* last: all stored */
        }
        __syncthreads();
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

static int g_reps = 9;

/* one pass with tiles of `tile` rows: histogram, scan (not timed), then the
 * scatter, timed; returns its median of g_reps after a warm-up */
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
    for (int r = -1; r < g_reps; r++) {
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
    g_reps = argc > 3 ? atoi(argv[3]) : 9;
    if (lg < 10 || lg > 30 || bits < 1 || bits > 8 || g_reps < 1 || g_reps > 99) {
        fprintf(stderr, "usage: pairtile_probe [log2 rows 10..30] [bits 1..8] [timed runs 1..99, 9]\n");
        return 2;
    }
    const u64 n = 1ull << lg;
    uint32_t *k, *ko[4], *hist;
    u64 *v, *vo[4];
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaMalloc(&k, n * 4));
    CK(cudaMalloc(&v, n * 8));
    for (int i = 0; i < 4; i++) {
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

    /* a scatter of the operators (part_scatter_kernel's signature) over
     * tiles of `tile` rows into ko[o], vo[o]; dynamic order unless static */
    typedef decltype(&part_scatter_kernel<uint32_t, u64, PV_COPY, THREADS, ITEMS, 1, false, true>) Scatter;
    auto time_op = [&](Scatter kern, size_t dyn, uint32_t tile, int o, bool dynamic) {
        CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
        const float t = pass(k, n, bits, tile, hist, tmp, tmp_bytes, [&](uint32_t *h, uint32_t tiles, uint32_t mask,
                                                                         uint32_t *ctr) {
            kern<<<std::min<uint32_t>(tiles, sms), THREADS, dyn>>>(k, v, NULL, NULL, ko[o], vo[o], NULL, n, 0, mask,
                                                                   h, tiles, dynamic ? ctr : NULL, PartSeg<uint32_t, u64>{});
        });
        CK(cudaGetLastError());
        return t;
    };
    /* the library's scatter, as partition_run launches its first pass
     * (PV_COPY of 8-byte values, no split), and the operators' two-tile
     * scatter (session 18's probe kernel, moved there in session 19) */
    const size_t dyn1 = sizeof(PartSmem<uint32_t, u64, THREADS, ITEMS>);
    const size_t dyn2 = sizeof(PairSmem<uint32_t, u64, THREADS, ITEMS>);
    const float t1 = time_op(part_scatter_kernel<uint32_t, u64, PV_COPY, THREADS, ITEMS, 1, false, true>, dyn1,
                             TILE, 0, true);
    const float t2 = time_op(part_scatter2_kernel<uint32_t, u64, PV_COPY, THREADS, ITEMS>, dyn2, PT, 1, true);

    const size_t dyn3 = sizeof(WcSmem<u64>);
    CK(cudaFuncSetAttribute(wc_scatter_kernel<u64>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn3));
    float t3[2];
    for (int c = 1; c >= 0; c--) {
        t3[c] = pass(k, n, bits, TILE, hist, tmp, tmp_bytes, [&](uint32_t *h, uint32_t tiles, uint32_t mask,
                                                                 uint32_t *) {
            wc_scatter_kernel<u64><<<std::min<uint32_t>(tiles, sms), THREADS, dyn3>>>(k, v, ko[3 - c], vo[3 - c],
                                                                                     n, 0, mask, h, tiles, c);
        });
        CK(cudaGetLastError());
    }
    /* part_scatter_kernel in the static order (t + gridDim.x) */
    const float t4 = time_op(part_scatter_kernel<uint32_t, u64, PV_COPY, THREADS, ITEMS, 1, false, true>, dyn1,
                             TILE, 0, false);
    CK(cudaDeviceSynchronize());

    std::vector<uint32_t> hk[4];
    std::vector<u64> hv[4];
    for (int i = 0; i < 4; i++) {
        hk[i].resize(n);
        hv[i].resize(n);
        CK(cudaMemcpy(hk[i].data(), ko[i], n * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hv[i].data(), vo[i], n * 8, cudaMemcpyDeviceToHost));
    }
    bool eq[4] = {true};
    for (int i = 1; i < 4; i++) eq[i] = hk[0] == hk[i] && hv[0] == hv[i];
    const double gb = n * 2.0 * (4 + 8) / 1e9; /* a scatter reads and writes key and value */
    printf("rows 2^%d, %d bits, smem %zu / %zu / %zu bytes\n", lg, bits, dyn1, dyn2, dyn3);
    printf("scatter,tile_rows,ms,GB/s\n");
    printf("part_scatter_kernel,%d,%.3f,%.0f\n", TILE, t1, gb / (t1 * 1e-3));
    printf("part_scatter2_kernel,%d,%.3f,%.0f\n", PT, t2, gb / (t2 * 1e-3));
    printf("wc_scatter_kernel,%d,%.3f,%.0f\n", TILE, t3[1], gb / (t3[1] * 1e-3));
    printf("wc_scatter_kernel_nocarry,%d,%.3f,%.0f\n", TILE, t3[0], gb / (t3[0] * 1e-3));
    printf("part_scatter_kernel_static,%d,%.3f,%.0f\n", TILE, t4, gb / (t4 * 1e-3));
    printf("outputs: pair %s, wc %s, wc_nocarry %s\n", eq[1] ? "equal" : "DIFFER", eq[2] ? "equal" : "DIFFER",
           eq[3] ? "equal" : "DIFFER");
    return eq[1] && eq[2] && eq[3] ? 0 : 1;
}
