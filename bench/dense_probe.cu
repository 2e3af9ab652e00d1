// Feasibility probe (session 28): PGB's aggregate when keys are dense
// (0..g-1, as paper 000 Sec. 5.2.1 generates them, and as dictionary codes
// and surrogate keys are) and hashed by one multiply (Fibonacci hashing,
// P = k * M): the partition takes P's top bits, a partition's table its
// next bits as the home. The products of consecutive keys are spread
// evenly (the three-gap theorem), so a partition's keys fall on evenly
// spaced homes: almost no two share one, even with the table nearly full.
// PGB hashed with murmur's finaliser when this ran (session 28 then took
// Fibonacci hashing, operators/hash.cuh), whose homes collide as random
// ones do; at 2^22 groups it needs a 9-bit partition (8192 groups in 16384
// slots at load 1/2), where 16384 groups in one SM's ~19 K slots of 12
// bytes would let one 8-bit pass do (bench/RESULTS.md, session 28).
//
// Input as after PGB's partition: 2^28 rows, key uniform over [0, g), rows
// arranged by partition (P's top `bits` bits), the packed pair of two
// 4-byte payloads beside each key. One block of 1024 threads a partition,
// a table of TS slots (keys, two maxima: 12 bytes a slot), four rows a
// thread in 16-byte loads, linear probing from the home: "fib" the bits
// below the partition's of k * M, "fmix" the top bits of murmur's
// finaliser (random homes). Every group checked against a CPU pass.
//
//   make bench-tools; build/bench/dense_probe [log2g:bits:TS ...]
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "bench/probe_common.cuh"

enum { THREADS = 1024, MAXP = 96 };
static const uint32_t EMPTY = 0xFFFFFFFFu;
static const uint32_t MUL = 0x9E3779B1u; /* odd: k -> k * MUL is a bijection */

__host__ __device__ inline uint32_t part_of(uint32_t k, int bits) { return (k * MUL) >> (32 - bits); }

/* home in [0, ts): FIB, the product's bits below the partition's as a
 * fraction of the table; else murmur's finaliser as one */
template <bool FIB> __device__ __forceinline__ uint32_t home(uint32_t k, int bits, uint32_t ts)
{
    const uint32_t f = FIB ? (k * MUL) << bits : fmix(k);
    return (uint32_t)(((uint64_t)f * ts) >> 32);
}

template <bool FIB>
__global__ void __launch_bounds__(THREADS, 1) k_dense(const uint32_t *key, const uint64_t *pair, const uint64_t *start,
                                                      int bits, uint32_t ts, uint4 *out, uint32_t *cnt, int *overflow,
                                                      unsigned long long *steps)
{
    extern __shared__ uint4 smem4[];
    uint32_t *tkey = (uint32_t *)smem4;
    int *ta = (int *)(tkey + ts), *tb = ta + ts;
    __shared__ uint32_t nout;
    __shared__ unsigned long long nstep;
    for (unsigned i = threadIdx.x; i < ts; i += THREADS) { tkey[i] = EMPTY; ta[i] = INT_MIN; tb[i] = INT_MIN; }
    if (threadIdx.x == 0) nout = 0, nstep = 0;
    __syncthreads();
    const uint64_t lo = start[blockIdx.x], hi = start[blockIdx.x + 1];
    unsigned long long my = 0;
    /* rows lo..hi; four a thread from a multiple of 4 (partitions start
     * anywhere); a warp's trip count uniform, for its __syncwarp()s */
    for (uint64_t wbase = (lo & ~3ull) + 4 * (threadIdx.x & ~31u); wbase < hi; wbase += 4 * THREADS) {
        const uint64_t wb = wbase + 4 * (threadIdx.x & 31);
        uint32_t k[4];
        uint64_t v[4];
        const bool full = wb >= lo && wb + 3 < hi;
        if (full) {
            const uint4 k4 = __ldcs((const uint4 *)(key + wb));
            const ulonglong2 p01 = __ldcs((const ulonglong2 *)(pair + wb)), p23 = __ldcs((const ulonglong2 *)(pair + wb + 2));
            k[0] = k4.x, k[1] = k4.y, k[2] = k4.z, k[3] = k4.w;
            v[0] = p01.x, v[1] = p01.y, v[2] = p23.x, v[3] = p23.y;
        } else {
#pragma unroll
            for (int u = 0; u < 4; u++) {
                const bool in = wb + u >= lo && wb + u < hi;
                k[u] = in ? key[wb + u] : EMPTY;
                v[u] = in ? pair[wb + u] : 0;
            }
        }
        uint32_t sl[4];
#pragma unroll
        for (int u = 0; u < 4; u++) {
            sl[u] = EMPTY;
            if (k[u] == EMPTY) continue;
            uint32_t s = home<FIB>(k[u], bits, ts);
            for (int p = 0; p < MAXP; p++) {
                my++;
                uint32_t t = ((volatile uint32_t *)tkey)[s];
                if (t == EMPTY) t = atomicCAS(tkey + s, EMPTY, k[u]);
                if (t == EMPTY || t == k[u]) { sl[u] = s; break; }
                s = s + 1 == ts ? 0 : s + 1;
            }
        }
        __syncwarp();
#pragma unroll
        for (int u = 0; u < 4; u++) {
            if (k[u] == EMPTY) continue;
            if (sl[u] == EMPTY) { *overflow = 1; continue; }
            atomicMax(ta + sl[u], (int)(uint32_t)v[u]);
            atomicMax(tb + sl[u], (int)(uint32_t)(v[u] >> 32));
        }
        __syncwarp();
    }
    atomicAdd(&nstep, my);
    __syncthreads();
    uint4 *o = out + start[blockIdx.x] / 2; /* room: at most a group a row, half the rows */
    for (unsigned i = threadIdx.x; i < ts; i += THREADS)
        if (tkey[i] != EMPTY) o[atomicAdd(&nout, 1u)] = make_uint4(tkey[i], (unsigned)ta[i], (unsigned)tb[i], 0);
    __syncthreads();
    if (threadIdx.x == 0) cnt[blockIdx.x] = nout, atomicAdd(steps, nstep);
}

int main(int argc, char **argv)
{
    const uint64_t n = 1ull << 28;
    std::vector<unsigned> want_lg, want_bits, want_ts;
    for (int i = 1; i < argc; i++) {
        unsigned lg, b, ts;
        if (sscanf(argv[i], "%u:%u:%u", &lg, &b, &ts) != 3 || lg < 10 || lg > 26 || b < 1 || b > 12 || ts < 1024 ||
            ts * 12 > 227 * 1024 - 64) {
            fprintf(stderr, "dense_probe: bad run '%s' (log2g:bits:TS, TS * 12 bytes within 227 KB)\n", argv[i]);
            return 2;
        }
        want_lg.push_back(lg), want_bits.push_back(b), want_ts.push_back(ts);
    }
    if (want_lg.empty()) {
        const unsigned d[][3] = {{21, 8, 16384}, {22, 8, 19200}, {22, 9, 16384}, {23, 9, 19200}, {24, 10, 19200}};
        for (auto &x : d) want_lg.push_back(x[0]), want_bits.push_back(x[1]), want_ts.push_back(x[2]);
    }
    uint32_t *key, *cnt;
    uint64_t *pair, *start;
    uint4 *out;
    int *ovf;
    unsigned long long *steps;
    CK(cudaMalloc(&key, n * 4));
    CK(cudaMalloc(&pair, n * 8));
    CK(cudaMalloc(&out, n / 2 * 16 + 4096 * 16));
    CK(cudaMalloc(&cnt, 4096 * 4));
    CK(cudaMalloc(&start, 4097 * 8));
    CK(cudaMalloc(&ovf, 4));
    CK(cudaMalloc(&steps, 8));
    CK(cudaFuncSetAttribute(k_dense<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 - 64));
    CK(cudaFuncSetAttribute(k_dense<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 - 64));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const double floor_ms = n * 12.0 / 2824.91e6; /* the aggregate's read: key + pair, at h100-measured B_G */
    printf("log2g,bits,TS,load,home,ms_median,ms_min,x_read_floor,probe_steps_a_row,largest_partition,wrong\n");
    fflush(stdout);
    std::vector<uint32_t> hk(n), rk(n);
    std::vector<uint64_t> hp(n), rp(n);
    for (size_t run = 0; run < want_lg.size(); run++) {
        const uint32_t g = 1u << want_lg[run], bits = want_bits[run], ts = want_ts[run], P = 1u << bits;
        /* rows: key uniform over [0, g) (probe_gen's), payloads hashes of the row */
        uint32_t *k0;
        int *a0, *b0;
        CK(cudaMalloc(&k0, n * 4));
        CK(cudaMalloc(&a0, n * 4));
        CK(cudaMalloc(&b0, n * 4));
        probe_gen<<<1024, 256>>>(k0, a0, b0, n, g);
        CK(cudaDeviceSynchronize());
        std::vector<int> ha(n), hb(n);
        CK(cudaMemcpy(hk.data(), k0, n * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(ha.data(), a0, n * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hb.data(), b0, n * 4, cudaMemcpyDeviceToHost));
        CK(cudaFree(k0));
        CK(cudaFree(a0));
        CK(cudaFree(b0));
        /* the partition, stable, by P's top bits; the CPU's maxima by key */
        std::vector<uint64_t> st(P + 1, 0);
        for (uint64_t i = 0; i < n; i++) st[part_of(hk[i], bits) + 1]++;
        uint64_t largest = 0;
        for (uint32_t p = 0; p < P; p++) largest = std::max(largest, st[p + 1]), st[p + 1] += st[p];
        std::vector<uint64_t> cur(st.begin(), st.end() - 1);
        std::vector<int> ma(g, INT_MIN), mb(g, INT_MIN);
        std::vector<char> seen(g, 0);
        uint64_t want = 0;
        for (uint64_t i = 0; i < n; i++) {
            const uint64_t d = cur[part_of(hk[i], bits)]++;
            rk[d] = hk[i];
            rp[d] = (uint64_t)(uint32_t)ha[i] | (uint64_t)(uint32_t)hb[i] << 32;
            want += !seen[hk[i]];
            seen[hk[i]] = 1;
            ma[hk[i]] = std::max(ma[hk[i]], ha[i]);
            mb[hk[i]] = std::max(mb[hk[i]], hb[i]);
        }
        CK(cudaMemcpy(key, rk.data(), n * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(pair, rp.data(), n * 8, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(start, st.data(), (P + 1) * 8, cudaMemcpyHostToDevice));
        const size_t smem = (size_t)ts * 12;
        for (int fib = 1; fib >= 0; fib--) {
            std::vector<float> ms;
            CK(cudaMemset(ovf, 0, 4));
            for (int r = 0; r < 8; r++) {
                CK(cudaMemset(steps, 0, 8));
                CK(cudaEventRecord(e0));
                if (fib) k_dense<true><<<P, THREADS, smem>>>(key, pair, start, bits, ts, out, cnt, ovf, steps);
                else k_dense<false><<<P, THREADS, smem>>>(key, pair, start, bits, ts, out, cnt, ovf, steps);
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                float m;
                CK(cudaEventElapsedTime(&m, e0, e1));
                if (r) ms.push_back(m);
            }
            CK(cudaGetLastError());
            std::sort(ms.begin(), ms.end());
            unsigned long long hs = 0;
            CK(cudaMemcpy(&hs, steps, 8, cudaMemcpyDeviceToHost));
            std::vector<uint32_t> hc(P);
            CK(cudaMemcpy(hc.data(), cnt, P * 4, cudaMemcpyDeviceToHost));
            std::vector<char> got(g, 0);
            uint64_t bad = 0, good = 0;
            std::vector<uint4> ht;
            for (uint32_t b = 0; b < P; b++) {
                ht.resize(hc[b]);
                CK(cudaMemcpy(ht.data(), out + st[b] / 2, hc[b] * 16ull, cudaMemcpyDeviceToHost));
                for (const uint4 &e : ht) {
                    if (e.x >= g || got[e.x] || part_of(e.x, bits) != b || (int)e.y != ma[e.x] || (int)e.z != mb[e.x]) bad++;
                    else got[e.x] = 1, good++;
                }
            }
            bad += want - good;
            int hovf = 0;
            CK(cudaMemcpy(&hovf, ovf, 4, cudaMemcpyDeviceToHost));
            const double med = ms[ms.size() / 2];
            printf("%u,%u,%u,%.3f,%s,%.3f,%.3f,%.2f,%.3f,%llu,%llu of %llu%s\n", want_lg[run], bits, ts,
                   (double)g / P / ts, fib ? "fib" : "fmix", med, ms[0], med / floor_ms, (double)hs / n,
                   (unsigned long long)largest, (unsigned long long)bad, (unsigned long long)want,
                   hovf ? " (overflow)" : "");
            fflush(stdout);
        }
    }
    return 0;
}
