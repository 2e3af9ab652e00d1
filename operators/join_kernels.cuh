/* Kernels of the GPU joins (PHJ-UR/TR, SMJ-UR/TR, NPHJ). No launches here:
 * join_api.cu holds the dispatch. Policies are template parameters.
 *
 * Every match kernel runs twice over the same work items: a COUNT pass that
 * stores the number of output rows of each item, then (after an exclusive
 * scan gives each item its output offset, so the output is allocated once at
 * its exact size) a WRITE pass that finds the same matches again and writes
 * the output key and every payload column straight away (materialisation
 * fused into the probe: no intermediate (r, s) pair list is written or read).
 * When every S row matched exactly one R row, the COUNT pass's first[] says
 * everything and dense_write_kernel writes the output instead.
 */
#ifndef GJ_OPERATORS_JOIN_KERNELS_CUH
#define GJ_OPERATORS_JOIN_KERNELS_CUH

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <stdint.h>

#include "operators/hash.cuh"

namespace gjj {

typedef unsigned long long u64;
const uint32_t EMPTY = 0xffffffffu;

/* Where the output row of a match (rpos, spos) comes from. rpos/spos index
 * the (possibly transformed) key arrays the kernel probes; r_ids/s_ids map
 * them to original rows (GFUR) or are NULL when the payload sources are
 * already in transformed order (GFTR, and NPHJ's untouched S). */
struct Emit {
    const uint32_t *r_ids, *s_ids;
    int pr, ps;
    const void *rsrc[8], *ssrc[8];
    void *rdst[8], *sdst[8];
    int rw[8], sw[8];
    int rstr[8], sstr[8]; /* element stride: 2 for a 4-byte column packed in pairs */
    void *key_out;
    int unhash;           /* the matched keys are hashed (PHJ): write gjh::unhash_key(key) */
};

/* S rows of partitions without R rows: no work item visits them, so the
 * COUNT pass leaves their first[] unset; mark them unmatched for a reader
 * of every S row's first[] (write_selected). A thread a partition. */
__global__ void phj_unvisited_kernel(const uint32_t *rstart, const uint32_t *sstart, uint32_t P,
                                     uint32_t *first)
{
    for (uint32_t p = blockIdx.x * blockDim.x + threadIdx.x; p < P; p += gridDim.x * blockDim.x)
        if (rstart[p + 1] == rstart[p])
            for (uint32_t s = sstart[p]; s < sstart[p + 1]; s++) first[s] = EMPTY;
}

/* the largest partition: *out = max over p of start[p + 1] - start[p] */
__global__ void part_max_kernel(const uint32_t *start, uint32_t P, unsigned *out)
{
    for (uint32_t p = blockIdx.x * blockDim.x + threadIdx.x; p < P; p += gridDim.x * blockDim.x)
        atomicMax(out, start[p + 1] - start[p]);
}

template <typename K>
__device__ __forceinline__ void emit_row(const Emit &e, u64 o, K key, uint32_t rpos, uint32_t spos)
{
    ((K *)e.key_out)[o] = e.unhash ? gjh::unhash_key(key) : key;
    uint32_t r = e.r_ids ? __ldg(e.r_ids + rpos) : rpos;
    uint32_t s = e.s_ids ? __ldg(e.s_ids + spos) : spos;
    for (int c = 0; c < e.pr; c++) {
        if (e.rw[c] == 4) ((uint32_t *)e.rdst[c])[o] = __ldg((const uint32_t *)e.rsrc[c] + (u64)r * e.rstr[c]);
        else ((u64 *)e.rdst[c])[o] = __ldg((const u64 *)e.rsrc[c] + r);
    }
    for (int c = 0; c < e.ps; c++) {
        if (e.sw[c] == 4) ((uint32_t *)e.sdst[c])[o] = __ldg((const uint32_t *)e.ssrc[c] + (u64)s * e.sstr[c]);
        else ((u64 *)e.sdst[c])[o] = __ldg((const u64 *)e.ssrc[c] + s);
    }
}

/* multiplicative hash to `bits` bits */
__device__ __forceinline__ uint32_t hslot(u64 x, int bits)
{
    return bits ? (uint32_t)((x * 0x9E3779B97F4A7C15ULL) >> (64 - bits)) : 0;
}

__global__ void iota_kernel(uint32_t *ids, u64 n)
{
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
        ids[i] = (uint32_t)i;
}

/* two 4-byte columns -> one 8-byte column (a in the low half), so GFTR
 * partitions both with the key in one sort instead of two */
__global__ void pack_kernel(const uint32_t *a, const uint32_t *b, u64 *out, u64 n)
{
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
        out[i] = (u64)a[i] | ((u64)b[i] << 32);
}

/* Work items of partition p: R chunks x S chunks (decomposition of oversized
 * partitions, for skew and duplicates). items[P] = 0 for the exclusive scan;
 * items[P + 1] (zeroed by the caller) receives the largest R chunk, so one
 * read-back after the scan gives both the item count and the table size. */
template <int RC, int SC>
__global__ void phj_items_kernel(const uint32_t *rs, const uint32_t *ss, uint32_t P, u64 *items)
{
    for (u64 p = blockIdx.x * (u64)blockDim.x + threadIdx.x; p <= P; p += (u64)gridDim.x * blockDim.x) {
        if (p == P) { items[p] = 0; continue; }
        u64 nr = rs[p + 1] - rs[p], ns = ss[p + 1] - ss[p];
        items[p] = (nr && ns) ? ((nr + RC - 1) / RC) * ((ns + SC - 1) / SC) : 0;
        if (items[p]) atomicMax(items + P + 1, nr < RC ? nr : (u64)RC);
    }
}

/* PHJ without partition bits: start = {0, rows} on both sides, item
 * starts {0, n_items} (what bounds_kernel, phj_items_kernel and the scan
 * would give, in one launch) */
__global__ void phj_one_part_kernel(u64 nr, u64 ns, u64 n_items, uint32_t *rstart,
                                    uint32_t *sstart, u64 *items)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        rstart[0] = sstart[0] = 0;
        rstart[1] = (uint32_t)nr;
        sstart[1] = (uint32_t)ns;
        items[0] = 0;
        items[1] = n_items;
    }
}

/* hash table slots for `rows` keys: a power of two >= 1.5 rows (load <= 2/3) */
__host__ __device__ inline int table_bits(uint32_t rows)
{
    int bits = 1;
    while ((1u << bits) < rows + rows / 2) bits++;
    return bits;
}

/* A block's shared-memory table of R rows (phj_match_kernel,
 * phj_sparse_kernel): keys tk[] and R rows tid[] in 2^bits slots (tid
 * EMPTY: free), linear probing from the slot of the key's bits above
 * `shift` (the partition's bits, already equal within the table). smask is
 * 2^bits - 1, the caller's one copy: made inside, ptxas gave the sparse
 * probe 38 registers instead of 32 (three blocks an SM instead of four). */
template <typename K>
__device__ __forceinline__ void table_insert(K *tk, uint32_t *tid, int bits, uint32_t smask, int shift, K key,
                                             uint32_t r)
{
    uint32_t h = hslot((u64)key >> shift, bits);
    while (atomicCAS(&tid[h], EMPTY, r) != EMPTY) h = (h + 1) & smask;
    tk[h] = key;
}

/* The R rows of the table holding `key`: how many, and (*first) the first
 * one found (EMPTY if none). */
template <typename K>
__device__ __forceinline__ uint32_t table_count(const K *tk, const uint32_t *tid, int bits, uint32_t smask,
                                                int shift, K key, uint32_t *first)
{
    uint32_t c = 0, f = EMPTY;
    for (uint32_t h = hslot((u64)key >> shift, bits); tid[h] != EMPTY; h = (h + 1) & smask)
        if (tk[h] == key) {
            f = c ? f : tid[h];
            c++;
        }
    *first = f;
    return c;
}

/* V output rows at once, loads of a column issued together before its
 * stores (memory-level parallelism for the gathers); row k goes to the next
 * output position when ok[k] */
template <typename K, int V>
__device__ __forceinline__ void emit_rows(const Emit &e, u64 o, const K *key, const uint32_t *rp,
                                          const uint32_t *sp, const bool *ok)
{
    u64 at[V];
    uint32_t r[V], s[V];
#pragma unroll
    for (int k = 0; k < V; k++) {
        at[k] = o;
        o += ok[k];
        r[k] = ok[k] ? (e.r_ids ? __ldg(e.r_ids + rp[k]) : rp[k]) : 0;
        s[k] = ok[k] ? (e.s_ids ? __ldg(e.s_ids + sp[k]) : sp[k]) : 0;
    }
#pragma unroll
    for (int k = 0; k < V; k++)
        if (ok[k]) ((K *)e.key_out)[at[k]] = e.unhash ? gjh::unhash_key(key[k]) : key[k];
    for (int c = 0; c < e.pr + e.ps; c++) {
        const bool isr = c < e.pr;
        const int cc = isr ? c : c - e.pr;
        const void *src = isr ? e.rsrc[cc] : e.ssrc[cc];
        void *dst = isr ? e.rdst[cc] : e.sdst[cc];
        const int w = isr ? e.rw[cc] : e.sw[cc], str = isr ? e.rstr[cc] : e.sstr[cc];
        const uint32_t *row = isr ? r : s;
        if (w == 4) {
            uint32_t v[V];
#pragma unroll
            for (int k = 0; k < V; k++)
                v[k] = ok[k] ? __ldg((const uint32_t *)src + (u64)row[k] * str) : 0;
#pragma unroll
            for (int k = 0; k < V; k++)
                if (ok[k]) ((uint32_t *)dst)[at[k]] = v[k];
        } else {
            u64 v[V];
#pragma unroll
            for (int k = 0; k < V; k++) v[k] = ok[k] ? __ldg((const u64 *)src + row[k]) : 0;
#pragma unroll
            for (int k = 0; k < V; k++)
                if (ok[k]) ((u64 *)dst)[at[k]] = v[k];
        }
    }
}

/* WRITE pass of an item whose S rows matched at most once each (found by
 * the COUNT pass, which stored the match in first[]): no table, no search,
 * just compaction of first[] and the gathers; V consecutive rows a thread. */
template <typename K, int THREADS, typename BS>
__device__ __forceinline__ void write_unique(const K *sk, const uint32_t *first, u64 s0, u64 s1,
                                             u64 base, const Emit &e,
                                             typename BS::TempStorage &ts)
{
    const int V = 4;
    u64 running = 0;
    for (u64 t0 = s0; t0 < s1; t0 += (u64)THREADS * V) {
        const u64 a = t0 + (u64)threadIdx.x * V;
        uint32_t r[V], sp[V];
        bool ok[V];
        K key[V];
        u64 c = 0, pre, agg;
#pragma unroll
        for (int k = 0; k < V; k++) {
            r[k] = a + k < s1 ? first[a + k] : EMPTY;
            ok[k] = r[k] != EMPTY;
            key[k] = ok[k] ? sk[a + k] : 0;
            sp[k] = (uint32_t)(a + k);
            c += ok[k];
        }
        __syncthreads();
        BS(ts).ExclusiveSum(c, pre, agg);
        if (c) emit_rows<K, V>(e, base + running + pre, key, r, sp, ok);
        running += agg;
    }
}

/* item -> partition, so match blocks need no search: one thread per item,
 * a binary search of the item starts (item_start[p] <= item <
 * item_start[p + 1]). It replaced a thread per partition looping over the
 * partition's items, which reloaded item_start[p + 1] after every store
 * (the compiler cannot prove they do not alias): one partition of 4096
 * items (624 x 2^26 rows) made it a serial chain of 4096 load-store rounds. */
__global__ void phj_item_map_kernel(const u64 *item_start, uint32_t P, u64 n_items, uint32_t *map)
{
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n_items; i += (u64)gridDim.x * blockDim.x) {
        uint32_t lo = 0, hi = P; /* first q in [0, P] with item_start[q] > i, minus one */
        while (lo < hi) {
            const uint32_t mid = lo + (hi - lo) / 2;
            if (__ldg(item_start + mid) <= i) lo = mid + 1;
            else hi = mid;
        }
        map[i] = lo - 1;
    }
}

/* PHJ match: one block per work item builds a shared-memory hash table of its
 * R chunk (keys hashed on the bits above the partition bits) and probes its
 * S chunk. COUNT: counts[item]; WRITE: rows at offs[item]. item_map NULL:
 * one partition (no partition bits). Every block uses the whole table the
 * launch sized, 2^tbits slots (>= 1.5x the largest chunk, and at least 4096
 * slots: a small R chunk then sits in a sparse table, so a probe that misses
 * mostly reads one empty slot; at load 0.6 a warp waited for the longest of
 * 32 linear-probe runs, several shared-memory rounds with bank conflicts). */
template <typename K, bool WRITE, int THREADS, int RC, int SC>
__global__ __launch_bounds__(THREADS, WRITE ? 1024 / THREADS : 2048 / THREADS) void phj_match_kernel(
    const K *rk, const K *sk, const uint32_t *rstart, const uint32_t *sstart,
    const u64 *item_start, const uint32_t *item_map, int shift, int tbits, u64 *cnt_off,
    uint32_t *first, unsigned char *multi, Emit e)
{
    typedef cub::BlockScan<u64, THREADS> BS;
    typedef cub::BlockReduce<u64, THREADS> BR;
    __shared__ union { typename BS::TempStorage scan; typename BR::TempStorage red; } tmp;
    __shared__ u64 s_running;
    extern __shared__ __align__(16) unsigned char smem[];
    const u64 item = blockIdx.x;
    const uint32_t p = item_map ? item_map[item] : 0;
    const uint32_t rs = rstart[p], re = rstart[p + 1], ss = sstart[p], se = sstart[p + 1];
    const u64 nsc = (se - ss + SC - 1) / SC, local = item - item_start[p];
    const uint32_t r0 = rs + (uint32_t)(local / nsc) * RC, r1 = min(re, r0 + RC);
    const uint32_t s0 = ss + (uint32_t)(local % nsc) * SC, s1 = min(se, s0 + SC);
    /* S rows are visited by one item only when R fits one chunk */
    const bool one_chunk = re - rs <= (uint32_t)RC;
    /* WRITE: items without output rows, and items whose S rows matched at
     * most once (phj_write_unique_kernel wrote those), are done */
    if (WRITE && (cnt_off[item + 1] == cnt_off[item] || !multi[item])) return;
    constexpr int PV = 4; /* S rows a thread per COUNT round */
    constexpr int RB = 4; /* R rows a thread loads before inserting */
    const int bits = tbits;
    const uint32_t slots = 1u << bits, smask = slots - 1;
    K *tk = (K *)smem;
    uint32_t *tid = (uint32_t *)(tk + slots);
    /* Issue the loads of the first R rows and (COUNT) of the first S round
     * before the table is initialised, so that their DRAM latencies overlap
     * each other and the initialisation: with W1's 2048-row partitions a
     * block probes a single round, and the block's chain of dependent
     * latencies, not bandwidth, set the pass's time. */
    K rkv[RB], kv[PV];
#pragma unroll
    for (int q = 0; q < RB; q++) {
        const uint32_t r = r0 + q * THREADS + threadIdx.x;
        rkv[q] = r < r1 ? rk[r] : 0;
    }
    if (!WRITE) {
#pragma unroll
        for (int v = 0; v < PV; v++) {
            const uint32_t s = s0 + v * THREADS + threadIdx.x;
            kv[v] = s < s1 ? sk[s] : 0;
        }
    }
    for (uint32_t i = threadIdx.x; i < slots; i += THREADS) tid[i] = EMPTY;
    __syncthreads();
    for (uint32_t rb = r0; rb < r1; rb += THREADS * RB) {
        if (rb != r0) {
#pragma unroll
            for (int q = 0; q < RB; q++) {
                const uint32_t r = rb + q * THREADS + threadIdx.x;
                rkv[q] = r < r1 ? rk[r] : 0;
            }
        }
#pragma unroll
        for (int q = 0; q < RB; q++) {
            const uint32_t r = rb + q * THREADS + threadIdx.x;
            if (r < r1) table_insert<K>(tk, tid, bits, smask, shift, rkv[q], r);
        }
    }
    __syncthreads();
    u64 mine = 0, base = WRITE ? cnt_off[item] : 0;
    int many = !one_chunk;
    if (WRITE && threadIdx.x == 0) s_running = 0;
    if (!WRITE) {
        /* COUNT: PV rows a thread per round, their keys loaded together
         * (memory-level parallelism: one load in flight left the pass
         * latency-bound when a small R meets a long S chunk) */
        for (uint32_t t0 = s0; t0 < s1; t0 += THREADS * PV) {
            if (t0 != s0) {
#pragma unroll
                for (int v = 0; v < PV; v++) {
                    const uint32_t s = t0 + v * THREADS + threadIdx.x;
                    kv[v] = s < s1 ? sk[s] : 0;
                }
            }
#pragma unroll
            for (int v = 0; v < PV; v++) {
                uint32_t s = t0 + v * THREADS + threadIdx.x;
                if (s >= s1) break;
                uint32_t f;
                const uint32_t c = table_count<K>(tk, tid, bits, smask, shift, kv[v], &f);
                mine += c;
                many |= c > 1;
                if (one_chunk) first[s] = f;
            }
        }
    }
    /* WRITE: one row a thread per round, output positions by a block scan */
    for (uint32_t t0 = s0; WRITE && t0 < s1; t0 += THREADS) {
        uint32_t s = t0 + threadIdx.x;
        u64 c = 0;
        K k = 0;
        uint32_t h0 = 0;
        if (s < s1) {
            k = sk[s];
            h0 = hslot((u64)k >> shift, bits);
            for (uint32_t h = h0; tid[h] != EMPTY; h = (h + 1) & smask) c += tk[h] == k;
        }
        u64 pre, agg;
        __syncthreads();
        BS(tmp.scan).ExclusiveSum(c, pre, agg);
        u64 o = base + s_running + pre;
        if (c)
            for (uint32_t h = h0; tid[h] != EMPTY; h = (h + 1) & smask)
                if (tk[h] == k) emit_row<K>(e, o++, k, tid[h], s);
        __syncthreads();
        if (threadIdx.x == 0) s_running += agg;
    }
    if (!WRITE) {
        many = __syncthreads_or(many);
        u64 tot = BR(tmp.red).Sum(mine);
        if (threadIdx.x == 0) {
            cnt_off[item] = tot;
            multi[item] = (unsigned char)many;
            if (many) cnt_off[gridDim.x + 1] = 1; /* some item needs the table-building WRITE */
            if (tot) atomicAdd(cnt_off + gridDim.x + 2, 1ULL); /* items with output */
        }
    }
}

/* PHJ's sparse probe (operators/join_api.cu phj_sparse): a build side of
 * at most GJ_PHJ_SPARSE_R rows in one shared-memory table per block (as
 * phj_match_kernel builds it), and each block's contiguous range of S read
 * once in rounds of THREADS * V rows, a thread's V keys in 16-byte loads
 * all in flight together (the pass is bound by latency, not bytes: with 4
 * rows a thread and a flag read between rounds it ran at 1.5 TB/s); the
 * few matches gather in a shared-memory buffer of BUF (S row, R row)
 * pairs, and at the end the block takes its place in sel with one counter
 * update (cnt[0]), writes its S rows there and each one's R row at the
 * same place in first[]. Order of sel: by block, then arbitrary (the
 * output is a multiset). cnt[1] != 0: declined (a block's buffer full, sel's cap
 * passed, or an S row with several matches: R keys repeated); every block
 * then stops within a round. S's keys 16-byte aligned (the caller checks). */
template <typename K, int THREADS, int BUF>
__global__ __launch_bounds__(THREADS) void phj_sparse_kernel(const K *rk, uint32_t nr, const K *sk, u64 ns,
                                                             int tbits, uint32_t *first, uint32_t *sel, u64 cap,
                                                             u64 *cnt)
{
    constexpr int VK = 16 / sizeof(K), V = 16, NV = V / VK, ROUND = THREADS * V;
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ uint32_t bs[BUF], br[BUF];
    __shared__ uint32_t n_buf;
    __shared__ int quit;
    __shared__ u64 at;
    const uint32_t slots = 1u << tbits, smask = slots - 1;
    K *tk = (K *)smem;
    uint32_t *tid = (uint32_t *)(tk + slots);
    for (uint32_t i = threadIdx.x; i < slots; i += THREADS) tid[i] = EMPTY;
    if (threadIdx.x == 0) n_buf = quit = 0;
    __syncthreads();
    for (uint32_t r = threadIdx.x; r < nr; r += THREADS) table_insert<K>(tk, tid, tbits, smask, 0, rk[r], r);
    __syncthreads();
    const u64 chunk = (ns + (u64)gridDim.x * ROUND - 1) / ((u64)gridDim.x * ROUND) * ROUND;
    const u64 b0 = (u64)blockIdx.x * chunk, b1 = b0 + chunk < ns ? b0 + chunk : ns;
    for (u64 t0 = b0; t0 < b1; t0 += ROUND) {
        /* vector q of this thread: rows t0 + VK (q THREADS + thread) + 0..VK-1 */
        union {
            uint4 v[NV];
            K k[V];
        } u;
        const u64 flag = threadIdx.x == 0 ? *(volatile u64 *)&cnt[1] : 0; /* in flight with the keys */
#pragma unroll
        for (int q = 0; q < NV; q++) {
            const u64 s = t0 + (u64)VK * (q * THREADS + threadIdx.x);
            if (s + VK <= b1) u.v[q] = reinterpret_cast<const uint4 *>(sk + s)[0];
            else
                for (int e = 0; e < VK; e++) u.k[q * VK + e] = s + e < b1 ? sk[s + e] : 0;
        }
#pragma unroll
        for (int q = 0; q < NV; q++) {
#pragma unroll
            for (int e = 0; e < VK; e++) {
                const u64 s = t0 + (u64)VK * (q * THREADS + threadIdx.x) + e;
                const K key = u.k[q * VK + e];
                uint32_t f = EMPTY, c = 0;
                if (s < b1) c = table_count<K>(tk, tid, tbits, smask, 0, key, &f);
                if (c > 1) quit = 1;
                if (c == 1) {
                    const uint32_t x = atomicAdd(&n_buf, 1u);
                    if (x < BUF) {
                        bs[x] = (uint32_t)s;
                        br[x] = f;
                    }
                }
            }
        }
        if (flag) quit = 1;
        __syncthreads(); /* n_buf and quit final for the round */
        const bool stop = quit || n_buf > BUF;
        if (stop) {
            if (threadIdx.x == 0) atomicOr((unsigned long long *)&cnt[1], 1ull);
            break;
        }
        __syncthreads(); /* everyone read quit before a later round's writes */
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        at = ~0ull;
        if (n_buf && !quit && n_buf <= BUF) {
            at = atomicAdd((unsigned long long *)&cnt[0], (unsigned long long)n_buf);
            if (at + n_buf > cap) {
                atomicOr((unsigned long long *)&cnt[1], 2ull);
                at = ~0ull;
            }
        }
    }
    __syncthreads();
    if (at == ~0ull) return;
    for (uint32_t i = threadIdx.x; i < n_buf; i += THREADS) {
        sel[at + i] = bs[i];
        first[at + i] = br[i];
    }
}

/* PHJ WRITE of the items whose S rows matched at most once (multi[item] ==
 * 0, the COUNT pass stored each S row's match in first[]): compaction of
 * first[] and the gathers, no table, no dynamic shared memory; the
 * table-building WRITE kernel runs only if some item needs it. Blocks per
 * SM, H200, W1 materialize (PHJ-TR / PHJ-UR ms, 2026-11-22): 2 (64
 * registers) 2.375 / 12.78; 3 (40 registers, 104 B spilled) 2.460 / 13.32;
 * 4 (32 registers, 180 B spilled) 3.003 / 14.07; the combined kernel
 * before it 2.724 / 13.14 (in the run before). */
template <typename K, int THREADS, int SC>
__global__ __launch_bounds__(THREADS, 1024 / THREADS) void phj_write_unique_kernel(
    const K *sk, const uint32_t *sstart, const u64 *item_start, const uint32_t *item_map,
    const u64 *cnt_off, const uint32_t *first, const unsigned char *multi, Emit e)
{
    typedef cub::BlockScan<u64, THREADS> BS;
    __shared__ typename BS::TempStorage scan;
    const u64 item = blockIdx.x;
    if (cnt_off[item + 1] == cnt_off[item] || multi[item]) return;
    const uint32_t p = item_map ? item_map[item] : 0;
    const uint32_t ss = sstart[p], se = sstart[p + 1];
    /* unique items have one R chunk, so item - item_start[p] is the S chunk */
    const uint32_t s0 = ss + (uint32_t)(item - item_start[p]) * SC, s1 = min(se, s0 + SC);
    write_unique<K, THREADS, BS>(sk, first, s0, s1, cnt_off[item], e, scan);
}

/* Dense WRITE: every S row matched exactly one R row, so output row i is
 * S's probe-order row s = i and nothing is compacted; or, with sel (the S
 * rows that matched, in order), s = sel[i]. Column c of the output takes
 * src[c][row * str[c]], row = R's (first[s], through r_ids when given:
 * GFUR) or S's (s, through s_ids when given) as side[c] says; the key
 * kdst[i] = ksrc[s], unhashed when asked. One launch may write both sides'
 * columns or one side's. Without sel a destination may be first[] or s_ids
 * itself (a 4-byte column over the 4-byte index it came from): each thread
 * reads row i's indices before it writes row i and no other thread touches
 * row i, so those arrays become output columns in place (plain loads for
 * them, as the launch writes them). V rows a thread, a column's loads
 * issued together before its stores. */
struct DenseCols {
    const uint32_t *sel; /* output row i is S's probe-order row sel[i] (NULL: i) */
    const uint32_t *first, *r_ids, *s_ids;
    int first_by_row; /* first[i], not first[sel[i]], is output row i's R row (the sparse probe's) */
    int n;
    unsigned char side[16]; /* 0: an R column, 1: an S column */
    unsigned char pair[16]; /* columns c and c + 1 are the halves of one packed 8-byte value */
    const void *src[16];
    void *dst[16];
    int w[16], str[16];
};

/* The dense write's rows: row k of a thread goes to output row at[k] from
 * S's probe-order row sp[k] and R's row rr[k] (before r_ids), when in[k]. */
template <typename K, int V>
__device__ __forceinline__ void dense_emit(const DenseCols &d, const K *ksrc, K *kdst, int unhash, const u64 *at,
                                           const u64 *sp, u64 *rr, const bool *in)
{
    u64 sr[V];
#pragma unroll
    for (int k = 0; k < V; k++) sr[k] = in[k] && d.s_ids ? d.s_ids[sp[k]] : sp[k];
    if (d.r_ids) {
#pragma unroll
        for (int k = 0; k < V; k++)
            if (in[k]) rr[k] = __ldg(d.r_ids + rr[k]);
    }
    if (kdst) {
#pragma unroll
        for (int k = 0; k < V; k++)
            if (in[k]) kdst[at[k]] = unhash ? gjh::unhash_key(ksrc[sp[k]]) : ksrc[sp[k]];
    }
    for (int c = 0; c < d.n; c++) {
        /* a select per row, not a pointer to rr or sr: that put both
         * arrays in local memory (a 64-byte stack frame) */
        const bool sc = d.side[c];
        if (d.w[c] == 4 && !d.pair[c]) {
            const uint32_t *src = (const uint32_t *)d.src[c];
            uint32_t v[V];
#pragma unroll
            for (int k = 0; k < V; k++) v[k] = in[k] ? __ldg(src + (sc ? sr[k] : rr[k]) * d.str[c]) : 0;
#pragma unroll
            for (int k = 0; k < V; k++)
                if (in[k]) ((uint32_t *)d.dst[c])[at[k]] = v[k];
        } else { /* an 8-byte column, or both halves of a packed pair: one request a row */
            const u64 *src = (const u64 *)d.src[c];
            const bool pair = d.pair[c];
            u64 v[V];
#pragma unroll
            for (int k = 0; k < V; k++) v[k] = in[k] ? __ldg(src + (sc ? sr[k] : rr[k])) : 0;
#pragma unroll
            for (int k = 0; k < V; k++) {
                if (!in[k]) continue;
                if (pair) {
                    ((uint32_t *)d.dst[c])[at[k]] = (uint32_t)v[k];
                    ((uint32_t *)d.dst[c + 1])[at[k]] = (uint32_t)(v[k] >> 32);
                } else {
                    ((u64 *)d.dst[c])[at[k]] = v[k];
                }
            }
            c += pair;
        }
    }
}

template <typename K, int V, int THREADS, int MINB>
__global__ __launch_bounds__(THREADS, MINB) void dense_write_kernel(DenseCols d, const K *ksrc, K *kdst,
                                                                    int unhash, u64 rows)
{
    for (u64 base = (u64)blockIdx.x * THREADS * V; base < rows; base += (u64)gridDim.x * THREADS * V) {
        u64 rr[V], at[V], sp[V];
        bool in[V];
#pragma unroll
        for (int k = 0; k < V; k++) {
            at[k] = base + (u64)k * THREADS + threadIdx.x;
            in[k] = at[k] < rows;
            sp[k] = in[k] && d.sel ? d.sel[at[k]] : at[k];
            rr[k] = in[k] && d.first ? d.first[d.first_by_row ? at[k] : sp[k]] : 0;
        }
        dense_emit<K, V>(d, ksrc, kdst, unhash, at, sp, rr, in);
    }
}

/* PHJ's compacting write when no S row matched several R rows (every work
 * item has one R chunk and the COUNT pass stored each S row's match in
 * first[], EMPTY if none): a block per run of consecutive items, whose S
 * rows are contiguous (S rows of partitions without R rows lie between
 * them, EMPTY: phj_unvisited_kernel) and whose output rows are too, from
 * cnt_off[its first item]. A round reads THREADS * V first[] entries, ranks
 * the matched ones by a block scan and stages (S row, R row) in shared
 * memory; every THREADS * V staged rows leave through dense_emit, V a
 * thread with their loads in flight together (at a quarter matched, one
 * matched row a thread a round would leave the gathers waiting on
 * latency). What the select did in two passes (sel[] written and read
 * back, first[] read twice, write_selected), in one. */
template <typename K, int V, int THREADS, int MINB>
__global__ __launch_bounds__(THREADS, MINB) void phj_compact_write_kernel(
    DenseCols d, const K *ksrc, K *kdst, int unhash, const uint32_t *first, const uint32_t *sstart,
    const u64 *item_start, const uint32_t *item_map, const u64 *cnt_off, u64 n_items, u64 per_block, int sc)
{
    constexpr int ROUND = THREADS * V;
    typedef cub::BlockScan<uint32_t, THREADS> BS;
    __shared__ typename BS::TempStorage scan;
    __shared__ uint32_t st_s[2 * ROUND], st_r[2 * ROUND];
    const u64 i0 = blockIdx.x * per_block;
    if (i0 >= n_items) return;
    const u64 i1 = min(n_items, i0 + per_block);
    /* an item's S rows: its partition's chunk (one R chunk: item - start) */
    auto s_of = [&](u64 item, bool end) -> u64 {
        const uint32_t p = item_map ? item_map[item] : 0;
        const u64 b = sstart[p] + (item - item_start[p]) * (u64)sc;
        return end ? min((u64)sstart[p + 1], b + sc) : b;
    };
    const u64 s_begin = s_of(i0, false), s_end = s_of(i1 - 1, true);
    u64 out = cnt_off[i0];
    uint32_t staged = 0;
    for (u64 t0 = s_begin; t0 < s_end || staged; t0 += ROUND) {
        if (t0 < s_end) {
            uint32_t f[V], c = 0, pre, agg;
#pragma unroll
            for (int k = 0; k < V; k++) {
                const u64 s = t0 + (u64)k * THREADS + threadIdx.x;
                f[k] = s < s_end ? first[s] : EMPTY;
                c += f[k] != EMPTY;
            }
            BS(scan).ExclusiveSum(c, pre, agg);
#pragma unroll
            for (int k = 0; k < V; k++)
                if (f[k] != EMPTY) {
                    st_s[staged + pre] = (uint32_t)(t0 + (u64)k * THREADS + threadIdx.x);
                    st_r[staged + pre] = f[k];
                    pre++;
                }
            staged += agg;
            __syncthreads();
        }
        if (staged >= ROUND || (t0 + ROUND >= s_end && staged)) { /* a full round, or the last rows */
            const uint32_t n = min(staged, (uint32_t)ROUND);
            u64 at[V], sp[V], rr[V];
            bool in[V];
#pragma unroll
            for (int k = 0; k < V; k++) {
                const uint32_t x = k * THREADS + threadIdx.x;
                in[k] = x < n;
                at[k] = out + x;
                sp[k] = in[k] ? st_s[x] : 0;
                rr[k] = in[k] ? st_r[x] : 0;
            }
            dense_emit<K, V>(d, ksrc, kdst, unhash, at, sp, rr, in);
            out += n;
            staged -= n;
            __syncthreads(); /* every staged row read before the rest moves down */
            for (uint32_t x = threadIdx.x; x < staged; x += THREADS) {
                st_s[x] = st_s[ROUND + x];
                st_r[x] = st_r[ROUND + x];
            }
            __syncthreads();
        }
    }
}

/* NPHJ's global open-addressing table: a slot holds a key and its R row
 * beside it (id EMPTY: free), so that a probe reads one sector where two
 * arrays (keys, ids) took two. 8 bytes a slot for 4-byte keys, 16 for
 * 8-byte ones. */
template <typename K> struct __align__(2 * sizeof(K)) NphjSlot {
    K key;
    uint32_t id;
};
template <typename K>
__device__ __forceinline__ void nphj_load(const NphjSlot<K> *t, uint32_t h, K &k, uint32_t &id)
{
    if constexpr (sizeof(K) == 4) {
        const uint2 v = __ldg((const uint2 *)(t + h));
        k = v.x;
        id = v.y;
    } else {
        const uint4 v = __ldg((const uint4 *)(t + h));
        k = (K)v.y << 32 | v.x;
        id = v.z;
    }
}

/* NPHJ build: every R row's (key, row) into the table (ids at EMPTY). */
template <typename K>
__global__ void nphj_build_kernel(const K *rk, u64 n, NphjSlot<K> *t, int bits)
{
    const uint32_t m = (1u << bits) - 1;
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        K k = rk[i];
        uint32_t h = hslot((u64)k, bits);
        while (atomicCAS(&t[h].id, EMPTY, (uint32_t)i) != EMPTY) h = (h + 1) & m;
        t[h].key = k;
    }
}

/* NPHJ probe: one block per tile of TILE S rows, in input order. */
template <typename K, bool WRITE, int THREADS, int TILE>
__global__ __launch_bounds__(THREADS) void nphj_match_kernel(
    const NphjSlot<K> *tab, int bits, const K *sk, u64 ns, u64 *cnt_off,
    uint32_t *first, unsigned char *multi, Emit e)
{
    typedef cub::BlockScan<u64, THREADS> BS;
    typedef cub::BlockReduce<u64, THREADS> BR;
    __shared__ union { typename BS::TempStorage scan; typename BR::TempStorage red; } tmp;
    __shared__ u64 s_running;
    const uint32_t m = (1u << bits) - 1;
    const u64 s0 = blockIdx.x * (u64)TILE, s1 = min(ns, s0 + TILE);
    if (WRITE && !multi[blockIdx.x]) {
        write_unique<K, THREADS, BS>(sk, first, s0, s1, cnt_off[blockIdx.x], e, tmp.scan);
        return;
    }
    if (!WRITE) {
        /* COUNT: U rows a thread in flight: their keys, then their home
         * slots, U loads at once each; then the rare probe past the home
         * slot, a row at a time. */
        enum { U = 4 };
        static_assert(TILE % (THREADS * U) == 0, "whole rounds a tile");
        u64 mine = 0;
        int many = 0;
        for (u64 t0 = s0; t0 < s1; t0 += THREADS * U) {
            K k[U], t[U];
            uint32_t h[U], id[U];
#pragma unroll
            for (int u = 0; u < U; u++) {
                const u64 s = t0 + (u64)u * THREADS + threadIdx.x;
                k[u] = s < s1 ? sk[s] : 0;
            }
#pragma unroll
            for (int u = 0; u < U; u++) {
                h[u] = hslot((u64)k[u], bits);
                id[u] = EMPTY;
                if (t0 + (u64)u * THREADS + threadIdx.x < s1) nphj_load(tab, h[u], t[u], id[u]);
            }
#pragma unroll
            for (int u = 0; u < U; u++) {
                const u64 s = t0 + (u64)u * THREADS + threadIdx.x;
                if (s >= s1) continue;
                u64 c = 0;
                uint32_t f = EMPTY;
                for (uint32_t hh = h[u], i = id[u]; i != EMPTY;) {
                    if (t[u] == k[u]) {
                        f = c ? f : i;
                        c++;
                    }
                    hh = (hh + 1) & m;
                    nphj_load(tab, hh, t[u], i);
                }
                mine += c;
                many |= c > 1;
                first[s] = f;
            }
        }
        many = __syncthreads_or(many);
        const u64 tot = BR(tmp.red).Sum(mine);
        if (threadIdx.x == 0) {
            cnt_off[blockIdx.x] = tot;
            multi[blockIdx.x] = (unsigned char)many;
            if (many) cnt_off[gridDim.x + 1] = 1; /* some tile needs the matching WRITE */
            if (tot) atomicAdd(cnt_off + gridDim.x + 2, 1ULL); /* tiles with output */
        }
        return;
    }
    /* WRITE, a tile with a key matched more than once: a row a thread */
    const u64 base = cnt_off[blockIdx.x];
    if (threadIdx.x == 0) s_running = 0;
    for (u64 t0 = s0; t0 < s1; t0 += THREADS) {
        u64 s = t0 + threadIdx.x;
        u64 c = 0;
        K k = 0;
        uint32_t h0 = 0;
        if (s < s1) {
            k = sk[s];
            h0 = hslot((u64)k, bits);
            K tk;
            uint32_t id;
            for (uint32_t h = h0;; h = (h + 1) & m) {
                nphj_load(tab, h, tk, id);
                if (id == EMPTY) break;
                c += tk == k;
            }
        }
        u64 pre, agg;
        __syncthreads();
        BS(tmp.scan).ExclusiveSum(c, pre, agg);
        u64 o = base + s_running + pre;
        if (c) {
            K tk;
            uint32_t id;
            for (uint32_t h = h0;; h = (h + 1) & m) {
                nphj_load(tab, h, tk, id);
                if (id == EMPTY) break;
                if (tk == k) emit_row<K>(e, o++, k, id, (uint32_t)s);
            }
        }
        __syncthreads();
        if (threadIdx.x == 0) s_running += agg;
    }
}

/* first index in [lo, hi) with a[i] >= k */
template <typename K>
__device__ __forceinline__ u64 lower_bound(const K *a, u64 lo, u64 hi, K k)
{
    while (lo < hi) {
        u64 mid = lo + (hi - lo) / 2;
        if (__ldg(a + mid) < k) lo = mid + 1; else hi = mid;
    }
    return lo;
}

template <typename K>
__device__ __forceinline__ u64 upper_bound(const K *a, u64 lo, u64 hi, K k)
{
    while (lo < hi) {
        u64 mid = lo + (hi - lo) / 2;
        if (__ldg(a + mid) <= k) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* the first index in [r, hi) whose key is >= k (hi if none), for keys
 * ascending from r: looks 1, 2, 4, ... rows ahead, then binary-searches the
 * last step. O(log gap) loads where a row-by-row walk took the gap: SMJ's
 * thread merging IPT sorted S rows against R used to walk, and with S rows
 * spread thinly over R (2^12 S rows over 2^20 R rows: 256 R rows between
 * neighbours) the walks made SMJ 3x slower than with 2^16 S rows (H200,
 * validation grid v25: 0.70 ms against 0.24). Dense S still ends at the
 * first or second load. */
template <typename K>
__device__ __forceinline__ u64 gallop(const K *a, u64 r, u64 hi, K k)
{
    if (r >= hi || __ldg(a + r) >= k) return r;
    for (u64 step = 1;; step *= 2) { /* a[r] < k */
        const u64 nx = r + step;
        if (nx >= hi) return lower_bound<K>(a, r + 1, hi, k);
        if (__ldg(a + nx) >= k) return lower_bound<K>(a, r + 1, nx, k);
        r = nx;
    }
}

/* SMJ co-ranks: for tile t of TILE sorted S rows, the R window
 * [lower_bound(first key), upper_bound(last key)), one thread per tile */
template <typename K, int TILE>
__global__ void smj_corank_kernel(const K *rk, u64 nr, const K *sk, u64 ns, u64 tiles, u64 *win)
{
    for (u64 t = blockIdx.x * (u64)blockDim.x + threadIdx.x; t < tiles; t += (u64)gridDim.x * blockDim.x) {
        u64 s0 = t * TILE, s1 = min(ns, s0 + TILE);
        u64 lo = lower_bound<K>(rk, 0, nr, sk[s0]);
        K last = sk[s1 - 1];
        u64 hi = upper_bound<K>(rk, lo, nr, last);
        win[2 * t] = lo;
        win[2 * t + 1] = hi;
    }
}

/* SMJ match over sorted R and S: a block owns TILE = THREADS * IPT sorted S
 * rows; smj_corank_kernel co-ranked the tile (its R window), each
 * thread then searches the R window once for its first key (one binary search
 * for primary-foreign-key; equal runs are walked, which covers many-to-many)
 * and merges its IPT consecutive S rows against R. */
template <typename K, bool WRITE, int THREADS, int IPT>
__global__ __launch_bounds__(THREADS, WRITE ? 1 : 2048 / THREADS) void smj_match_kernel(
    const K *rk, const u64 *win, const K *sk, u64 ns, u64 *cnt_off, uint32_t *first,
    unsigned char *multi, Emit e)
{
    typedef cub::BlockScan<u64, THREADS> BS;
    typedef cub::BlockReduce<u64, THREADS> BR;
    __shared__ union { typename BS::TempStorage scan; typename BR::TempStorage red; } tmp;
    __shared__ u64 w_lo, w_hi;
    const u64 s0 = blockIdx.x * (u64)THREADS * IPT, s1 = min(ns, s0 + (u64)THREADS * IPT);
    if (WRITE && !multi[blockIdx.x]) {
        write_unique<K, THREADS, BS>(sk, first, s0, s1, cnt_off[blockIdx.x], e, tmp.scan);
        return;
    }
    if (threadIdx.x == 0) {
        w_lo = win[2 * blockIdx.x];
        w_hi = win[2 * blockIdx.x + 1];
    }
    __syncthreads();
    const u64 a = s0 + (u64)threadIdx.x * IPT, b = min(s1, a + IPT);
    u64 c = 0, r_first = 0;
    int many = 0;
    K kk[IPT]; /* the lane's S keys */
    if (a < b) {
        /* the lane's IPT consecutive S keys and first[] entries in 16-byte
         * vector accesses when whole and aligned (a scalar store a row wrote
         * each 32-byte sector of first[] in four pieces: TPC-H Q5's
         * lineitem join ran at 95% of the L2's throughput, ncu; H200, its
         * match 0.32 -> 0.20 ms, bench/RESULTS.md). The count pass keeps 8
         * blocks an SM (40 registers, 6 blocks: W1's match 1.37 -> 1.46). */
        static_assert(IPT % 4 == 0, "vector accesses of 4 rows");
        const bool vec = b - a == IPT && !((uintptr_t)(sk + a) & 15) && !((uintptr_t)(first + a) & 15);
        uint32_t fr[IPT];
        if (vec) {
#pragma unroll
            for (int i = 0; i < IPT; i += 16 / (int)sizeof(K)) *(uint4 *)(kk + i) = __ldg((const uint4 *)(sk + a + i));
        } else {
#pragma unroll
            for (int i = 0; i < IPT; i++) kk[i] = a + i < b ? sk[a + i] : sk[a];
        }
        u64 r = r_first = lower_bound<K>(rk, w_lo, w_hi, kk[0]);
#pragma unroll
        for (int i = 0; i < IPT; i++) {
            if (a + i >= b) break;
            const K k = kk[i];
            r = gallop<K>(rk, r, w_hi, k);
            u64 c0 = c;
            for (u64 q = r; q < w_hi && __ldg(rk + q) == k; q++) c++;
            many |= c - c0 > 1;
            fr[i] = c > c0 ? (uint32_t)r : EMPTY;
        }
        if (!WRITE) {
            if (vec) {
#pragma unroll
                for (int i = 0; i < IPT; i += 4) *(uint4 *)(first + a + i) = make_uint4(fr[i], fr[i + 1], fr[i + 2], fr[i + 3]);
            } else {
                for (u64 s = a; s < b; s++) first[s] = fr[s - a];
            }
        }
    }
    if (!WRITE) {
        many = __syncthreads_or(many);
        u64 tot = BR(tmp.red).Sum(c);
        if (threadIdx.x == 0) {
            cnt_off[blockIdx.x] = tot;
            multi[blockIdx.x] = (unsigned char)many;
            if (many) cnt_off[gridDim.x + 1] = 1; /* some tile needs the matching WRITE */
            if (tot) atomicAdd(cnt_off + gridDim.x + 2, 1ULL); /* tiles with output */
        }
    } else {
        u64 pre;
        BS(tmp.scan).ExclusiveSum(c, pre);
        u64 o = cnt_off[blockIdx.x] + pre;
        if (c) {
            u64 r = r_first;
#pragma unroll
            for (int i = 0; i < IPT; i++) { /* the keys the count above loaded */
                if (a + i >= b) break;
                const K k = kk[i];
                r = gallop<K>(rk, r, w_hi, k);
                for (u64 q = r; q < w_hi && __ldg(rk + q) == k; q++)
                    emit_row<K>(e, o++, k, (uint32_t)q, (uint32_t)(a + i));
            }
        }
    }
}

} // namespace gjj
#endif
