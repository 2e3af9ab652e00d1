// Probe (session 20): what does one radix-partition pass cost as its
// digit widens past 8 bits? PGB makes one 8-bit pass on hashed keys up to
// 2^21 groups and two passes above (operators/shapes.h gj_pgb_plan): at
// 2^22 groups its group phase takes 6.27 ms against 3.64 with one pass
// (H100, bench/RESULTS.md session 20). One 9-bit pass would hold 2^22
// groups at the one-pass table's load (8192 a partition), if a 9-bit pass
// costs less than the second pass (2.6 ms).
//
// The pass as PGB-TR's first: 4-byte keys hashed as they are read, two
// 4-byte payload columns packed into one 8-byte value (PV_PACK), tiles of
// 768 x 10 rows, dynamic tile order: part_hist_kernel, CUB's scan,
// part_scatter_kernel of operators/join_partition.cuh at RB = 7, 8 and 9
// digit bits, each phase timed (median of 9 after a warm-up), and every
// output checked on the CPU: digits in order, rows in input order within a
// digit (stable), every row present once.
//
//   make bench-tools; build/bench/bits_probe [log2 rows = 28]
#include <algorithm>
#include <cub/device/device_scan.cuh>
#include <vector>

#include "bench/probe_common.cuh"
#include "operators/join_partition.cuh"

using namespace gjj;
typedef unsigned long long u64;

enum { THREADS = 768, ITEMS = 10, TILE = THREADS * ITEMS, HT = 384 };
/* 10 bits (session 22): a thread a bin takes 1024 threads, tiles of 1024 x
 * 8, and the histogram's per-warp counts fit static shared memory with 4
 * warps (HT10) */
enum { HT10 = 128 };

__global__ void gen(uint32_t *k, uint32_t *a, uint32_t *b, u64 n)
{
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        k[i] = (uint32_t)(i * 2654435761u) >> 6; /* 2^26 distinct keys, each about 4 times */
        a[i] = (uint32_t)i;
        b[i] = ~(uint32_t)i;
    }
}

struct Times {
    float hist, scan, scatter;
};

template <int RB, int THREADS = ::THREADS, int ITEMS = ::ITEMS, int HT = RB < 10 ? (int)::HT : (int)HT10>
static Times pass(const uint32_t *k, const uint32_t *a, const uint32_t *b, u64 n, uint32_t *ko, u64 *vo, uint32_t *hist,
                  void *tmp, size_t tmp_bytes, int sms)
{
    enum { TILE = THREADS * ITEMS };
    const uint32_t tiles = (uint32_t)((n + TILE - 1) / TILE), mask = (1u << RB) - 1;
    const u64 nh = (u64)(mask + 1) * hist_stride(tiles);
    uint32_t *ctr = hist + nh;
    auto *scat = part_scatter_kernel<uint32_t, u64, PV_PACK, THREADS, ITEMS, 1, true, true, 0, RB>;
    const size_t dyn = sizeof(PartSmem<uint32_t, u64, THREADS, ITEMS, RB>);
    CK(cudaFuncSetAttribute(scat, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
    int occ_h = 0, occ_s = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_h, part_hist_kernel<uint32_t, HT, true, RB>, HT, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_s, scat, THREADS, dyn));
    cudaEvent_t e[4];
    for (auto &x : e) CK(cudaEventCreate(&x));
    std::vector<float> th, tc, ts;
    for (int r = -1; r < 9; r++) {
        CK(cudaEventRecord(e[0]));
        part_hist_kernel<uint32_t, HT, true, RB><<<sms * occ_h, HT>>>(k, n, 0, mask, hist, tiles, TILE, ctr);
        CK(cudaEventRecord(e[1]));
        size_t tb = tmp_bytes;
        CK(cub::DeviceScan::ExclusiveSum(tmp, tb, hist, hist, nh));
        CK(cudaEventRecord(e[2]));
        scat<<<std::min<uint32_t>(tiles, sms * occ_s), THREADS, dyn>>>(k, NULL, a, b, ko, vo, NULL, n, 0, mask, hist,
                                                                        tiles, ctr, PartSeg<uint32_t, u64>{});
        CK(cudaEventRecord(e[3]));
        CK(cudaEventSynchronize(e[3]));
        CK(cudaGetLastError());
        float t[3];
        for (int i = 0; i < 3; i++) CK(cudaEventElapsedTime(&t[i], e[i], e[i + 1]));
        if (r >= 0) { th.push_back(t[0]); tc.push_back(t[1]); ts.push_back(t[2]); }
    }
    for (auto *v : {&th, &tc, &ts}) std::sort(v->begin(), v->end());
    return {th[4], tc[4], ts[4]};
}

/* digits in order, each row once, rows of a digit in input order */
static bool check(const uint32_t *ko, const u64 *vo, u64 n, int rb)
{
    std::vector<uint32_t> hk(n);
    std::vector<u64> hv(n);
    CK(cudaMemcpy(hk.data(), ko, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hv.data(), vo, n * 8, cudaMemcpyDeviceToHost));
    std::vector<char> seen(n, 0);
    const uint32_t mask = (1u << rb) - 1;
    for (u64 x = 0; x < n; x++) {
        const u64 i = (uint32_t)hv[x];
        if (i >= n || seen[i] || (uint32_t)(hv[x] >> 32) != ~(uint32_t)i ||
            hk[x] != gjh::hash_key((uint32_t)(i * 2654435761u) >> 6))
            return false;
        seen[i] = 1;
        if (x && ((hk[x] & mask) < (hk[x - 1] & mask) ||
                  ((hk[x] & mask) == (hk[x - 1] & mask) && (uint32_t)hv[x] < (uint32_t)hv[x - 1])))
            return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    const int lg = probe_lg(argc, argv, 28, 10, 30, "bits_probe [log2 rows 10..30]");
    const u64 n = 1ull << lg;
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    uint32_t *k, *a, *b, *ko, *hist;
    u64 *vo;
    CK(cudaMalloc(&k, n * 4));
    CK(cudaMalloc(&a, n * 4));
    CK(cudaMalloc(&b, n * 4));
    CK(cudaMalloc(&ko, n * 4));
    CK(cudaMalloc(&vo, n * 8));
    const uint32_t tiles = (uint32_t)((n + TILE - 1) / TILE);
    const u64 nh = (u64)1024 * hist_stride(tiles);
    CK(cudaMalloc(&hist, (nh + 1) * 4));
    size_t tmp_bytes = 0;
    CK(cub::DeviceScan::ExclusiveSum(NULL, tmp_bytes, hist, hist, nh));
    void *tmp;
    CK(cudaMalloc(&tmp, tmp_bytes));
    gen<<<sms * 8, 256>>>(k, a, b, n);
    CK(cudaDeviceSynchronize());
    const double gb = n * (4.0 + 2 * 12.0) / 1e9; /* the histogram reads keys; the scatter reads and writes 12 bytes */
    printf("rows 2^%d\nbits,hist_ms,scan_ms,scatter_ms,pass_ms,GB/s,check\n", lg);
    int bad = 0;
    for (int v = 7; v <= 11; v++) { /* 7..9 bits in 768 x 10 tiles; 9 (v 10) and 10 (v 11) bits in 1024 x 8 */
        const int rb = v <= 9 ? v : v - 1;
        const Times t = v == 7    ? pass<7>(k, a, b, n, ko, vo, hist, tmp, tmp_bytes, sms)
                        : v == 8  ? pass<8>(k, a, b, n, ko, vo, hist, tmp, tmp_bytes, sms)
                        : v == 9  ? pass<9>(k, a, b, n, ko, vo, hist, tmp, tmp_bytes, sms)
                        : v == 10 ? pass<9, 1024, 8>(k, a, b, n, ko, vo, hist, tmp, tmp_bytes, sms)
                                  : pass<10, 1024, 8>(k, a, b, n, ko, vo, hist, tmp, tmp_bytes, sms);
        const bool ok = check(ko, vo, n, rb);
        bad += !ok;
        const float all = t.hist + t.scan + t.scatter;
        printf("%d%s,%.3f,%.3f,%.3f,%.3f,%.0f,%s\n", rb, v > 9 ? " (1024x8)" : "", t.hist, t.scan, t.scatter, all, gb / (all * 1e-3),
               ok ? "ok" : "WRONG");
        fflush(stdout);
    }
    return bad ? 1 : 0;
}
