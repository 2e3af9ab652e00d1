/* Shapes and limits of the operators' on-chip tables and plans that the
 * time model (model/time.c) charges as the code runs them: one definition
 * for the CUDA operators and the C model, so that the two cannot drift
 * apart. Why each value: at its use in the operators (the measurements are
 * in bench/RESULTS.md). */
#ifndef GJ_OPERATORS_SHAPES_H
#define GJ_OPERATORS_SHAPES_H

#include "gjadvise.h" /* gj_workload.filter's values */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* HGB: at most 2^GJ_HGB_MAX_PBITS passes of the one-pass kernel, each for
 * one table's worth of groups (operators/groupby_kernels.cuh). */
#define GJ_HGB_MAX_PBITS 1
/* HGB's dense one pass merges its blocks through rows of partials
 * (k_hgb_dense_merge) from tables of GJ_HGB_PART_MERGE_TS slots (4-byte keys
 * with max,max at 8193..16384 groups), through the global table's atomics
 * below. H200, 2^28 rows, max,max, atomics -> partials
 * (bench/hgb_merge_device.sh): 4-byte keys at 2^14 groups 1.026-1.047 ->
 * 0.924-0.929 ms; 8-byte keys at 2^13 (8192 slots) 1.065-1.067 ->
 * 1.095-1.100 (bench/RESULTS.md, Group-by, session 9). */
#define GJ_HGB_PART_MERGE_TS 16384

/* A hashed partition of GJ_PART_WIDE_BITS bits asked to be wide (PGB,
 * operators/join_partition.h GJ_PART_WIDE) takes one pass of that many
 * bits instead of two: 2^28 rows of a 4-byte key and a packed pair, hashed,
 * 4.27 ms against 3.60 for 8 bits and 3.33 for 7 (H100, bench/bits_probe,
 * bench/RESULTS.md session 20): GJ_PART_WIDE_COST a pass's time. */
#define GJ_PART_WIDE_BITS 9
#define GJ_PART_WIDE_COST 1.185

/* A claimed pass (below) takes up to GJ_PART_CLAIM_MAX_BITS bits in one
 * pass: 10 bits, a thread a bin, in tiles of 1024 x 8 (not the exact wide
 * pass, which stays at 9 bits: a 10-bit histogram takes 4 warps' counts in
 * static shared memory). 2^28 rows of a 4-byte key and a packed pair,
 * hashed, exact: 5.41 ms against 3.57 for 8 bits and 4.22 for 9 (H100,
 * bench/bits_probe, bench/RESULTS.md session 22). PGB-TR's group phase,
 * claimed, 10 bits over 8: 4.43 / 3.12 ms with 4-byte keys, 5.74 / 3.81
 * with 8-byte (H100, session 22 calls 4 and 6): GJ_PART_WIDE10_COST an
 * 8-bit pass's time, where two 8-bit passes cost 2. With it PGB-TR at
 * 2^23 groups (4-byte keys) took 7.82 -> 6.14 ms, at 2^22 (8-byte)
 * 9.89 -> 7.67. */
#define GJ_PART_CLAIM_MAX_BITS 10
#define GJ_PART_WIDE10_COST 1.46

/* The passes of a partition on `bits` bits (wide: asked as above). */
static inline int gj_part_passes(int bits, int wide)
{
    return wide && bits == GJ_PART_WIDE_BITS ? 1 : (bits + 7) / 8;
}

/* k_pgb_many's lean tile (operators/groupby_kernels.cuh pgb_lean_tile):
 * its warp instructions over the general tile's on the same input (H100,
 * ncu, 2^28 rows, 2^20 groups, max,max: 602 M against 851 M,
 * bench/RESULTS.md session 21), the model's charge for its probes and
 * combines. */
#define GJ_PGB_LEAN_WORK 0.707

/* PGB's claimed pass (operators/join_api.cu partition_claim,
 * gj_join_partition_claim): one hashed pass of up to
 * GJ_PART_CLAIM_MAX_BITS bits without the histogram pass before it. Each bin's room is sized from a sample of the
 * hashed keys: one row in S = GJ_PART_CLAIM_SAMPLE, read in runs of
 * C = GJ_PART_CLAIM_RUN adjacent rows (gj_part_claim_run), est sampled
 * rows give a bin S est + GJ_PART_CLAIM_SIGMA standard deviations
 * (S sqrt(C est) at most, where a run's rows all fall in one bin; rounded
 * up) + a tile (GJ_PART_CLAIM_TILE_OF(bits): the partition's 768 x 10, or
 * 1024 x 8 at 10 bits) rows, and a tile claims its run in a bin with one atomic add. A bin whose claims
 * pass its room fails the pass (the caller then runs the exact one). The
 * bins lie one after another with gaps: a bin's rows are [start, end),
 * in no particular order (PGB's combines commute). H100, 2^28 rows, a
 * packed pair, 2^20 groups (ncu, bench/RESULTS.md session 21): the exact
 * pass's histogram took 0.39 ms with 4-byte keys (0.75 with 8-byte:
 * 64-bit hashing), the claimed scatter 3.01 against the exact one's 3.13
 * (3.73 against 3.69 with 8-byte keys), the sample 0.13: PGB-TR 4-byte
 * keys 2^14..2^20 groups 4.77-5.29 -> 4.33-4.82 ms (2^20: 4.99 -> 4.55),
 * 8-byte keys -0.67, PGB-UR -0.4 (one H100, the final build). The
 * claims' atomics must stay in flight while the tile is staged: issued
 * and awaited before, they cost the 4-byte scatter 0.46 ms. The wide
 * 9-bit pass claimed (session 22, call 1, one H100, A/B against the exact
 * pass): PGB-TR 4-byte keys 2^22 groups 6.03-6.09 -> 5.35-5.45 ms, 8-byte
 * keys 2^21 7.62-7.74 -> 6.53-6.54. From
 * GJ_PART_CLAIM_MIN rows (below, the saving is small and the bins'
 * margins a larger share). */
#define GJ_PART_CLAIM_SAMPLE 64
/* The sample reads its rows in runs of 4 adjacent rows, one run in each
 * block of S C rows: a row a sector took 0.13 ms at 2^28 rows (H100,
 * session 21, ncu), a quarter of the sectors should take a quarter of
 * that: the group phase took 0.07-0.09 ms less with 4-byte keys (PGB-TR,
 * 2^28 rows, 2^14..2^21 groups; H100, session 22 call 2, old and new
 * builds alternating, with the bins' cursors that save a kernel). The
 * margin grows with sqrt(C) (a run's rows may share a key): at 2^28 rows
 * and 8 bits the room is 8.5% more rows than n (4.6% with rows sampled one
 * by one; 11.8% with runs of 8). */
#define GJ_PART_CLAIM_RUN 4
#define GJ_PART_CLAIM_SIGMA 5
#define GJ_PART_CLAIM_TILE 7680
/* The claimed pass's tile at `bits` bits: 1024 x 8 past the wide pass's */
#define GJ_PART_CLAIM_TILE_OF(bits) ((bits) > GJ_PART_WIDE_BITS ? 8192 : GJ_PART_CLAIM_TILE)
#define GJ_PART_CLAIM_MIN 33554432.0
/* The claimed scatter's time over the exact pass's (histogram 0.389, scan
 * 0.033 and scatter 3.13 ms), 4-byte keys and a packed pair: 3.01 / 3.55
 * (ncu, calls 9 and 6 of session 21, two H100s): the model's charge where
 * the calibrated pass is that pair's. */
#define GJ_PART_CLAIM_SCATTER 0.848
/* Rows the claimed pass's output must hold, whatever the keys: the sampled
 * rows' S est sum to at most n + S C, the square roots of C est to at most
 * sqrt(C bins (n / S + C)) (Cauchy-Schwarz), each bin a tile and a row of
 * rounding more. */
static inline double gj_part_claim_room(double n, int bits)
{
    const double bins = ldexp(1, bits), S = GJ_PART_CLAIM_SAMPLE, C = GJ_PART_CLAIM_RUN;
    return ceil(n + S * C + GJ_PART_CLAIM_SIGMA * S * sqrt(C * bins * (n / S + C)) +
                bins * (GJ_PART_CLAIM_TILE_OF(bits) + 1));
}
/* The first row of the sample's run j (j < ceil(n / (S C))): in the block
 * of S C rows from j S C, at a run boundary that a multiplicative hash of
 * j picks (the sample is spread, not in step with a period in the input);
 * the block's start where that lies past n. Its rows: those below n. */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline unsigned long long gj_part_claim_run(unsigned long long j, unsigned long long n)
{
    const unsigned long long block = j * (GJ_PART_CLAIM_SAMPLE * GJ_PART_CLAIM_RUN);
    const unsigned long long at = ((unsigned long long)((unsigned)j * 0x9E3779B1u) * GJ_PART_CLAIM_SAMPLE) >> 32;
    const unsigned long long r = block + GJ_PART_CLAIM_RUN * at;
    return r < n ? r : block;
}
/* Does PGB's partition of n rows on `bits` bits, made by `calls` calls of
 * the partition, claim? min_rows: GJ_PART_CLAIM_MIN, or a test's. */
static inline int gj_part_claims(double n, int bits, int calls, double min_rows)
{
    return calls == 1 && bits >= 1 && bits <= GJ_PART_CLAIM_MAX_BITS && n >= min_rows &&
           gj_part_claim_room(n, bits) + n < 4294967296.0; /* the bins' cursors pass no 2^32 */
}

/* What PGB's own partition of n rows (keys of kw bytes, values of vw) on
 * `bits` bits holds besides its output (operators/groupby_api.cu
 * pgb_part_tmp notes it into the arena, model/time.c replays it): a second
 * (key, value) buffer when it takes two passes, and per-tile histograms
 * (256 counts of 4 bytes a tile of 7680 rows: under n / 4 bytes; 512 in a
 * wide pass: under n / 3); claimed (gj_part_claims), none. */
static inline double gj_pgb_part_scratch(double n, int kw, int vw, int bits, int claims)
{
    if (claims) return 0; /* its words are the caller's (run_pgb's partition starts) */
    if (gj_part_passes(bits, 1) == 1) return floor(bits > 8 ? n / 3 : n / 4) + 1024;
    return n * (kw + vw) + floor(n / 4) + 1024;
}

/* PGB: k_pgb_chunk up to GJ_PGB_FEW groups, with GJ_PGB_TS hash slots and
 * GJ_PGB_AGG_BYTES of aggregate slots; k_pgb_many above, with tables of at
 * most GJ_PGB_MANY_TMAX slots in GJ_PGB_MANY_SMEM_BIG bytes and partitions of
 * at least GJ_PGB_MIN_PART groups (operators/groupby_api.cu). */
#define GJ_PGB_FEW 2048
#define GJ_PGB_TS 4096
#define GJ_PGB_AGG_BYTES (32 * 1024)
#define GJ_PGB_MANY_TMAX 16384
#define GJ_PGB_MANY_SMEM (96 * 1024)
/* Tables over GJ_PGB_MANY_SMEM, up to GJ_PGB_MANY_SMEM_BIG: one block of
 * GJ_PGB_MANY_BIG_THREADS threads an SM (operators/groupby_api.cu
 * pgb_chunks). */
#define GJ_PGB_MANY_SMEM_BIG (200 * 1024)
#define GJ_PGB_MANY_BIG_THREADS 1024
#define GJ_PGB_MIN_PART 512

/* Shared bytes of a k_pgb_many table of ts slots: the ts keys (kw bytes
 * each), then each of the nacc accumulators' ts values (accw[j] bytes
 * each), 8-byte aligned, as operators/groupby_kernels.cuh pgb_many_layout
 * places them. */
static inline double gj_pgb_many_bytes(double ts, int kw, const double *accw, int nacc)
{
    double b = ts * kw;
    for (int j = 0; j < nacc; j++) b += ceil(ts * accw[j] / 8) * 8;
    return b;
}

/* k_pgb_many's largest table in `budget` bytes: halving from
 * GJ_PGB_MANY_TMAX slots, down to 256 (operators/groupby_api.cu
 * pgb_many_ts, and the model). */
static inline double gj_pgb_many_tmax(double budget, int kw, const double *accw, int nacc)
{
    double ts = GJ_PGB_MANY_TMAX;
    while (ts > 256 && gj_pgb_many_bytes(ts, kw, accw, nacc) > budget) ts /= 2;
    return ts;
}

/* k_pgb_many's partitions and table for n rows of about `groups` groups,
 * tables of at most tmax slots, sms SMs (operators/groupby_api.cu
 * pgb_many_plan runs it, model/time.c too): the fewest bits whose
 * partitions average at most half a table (none if one table holds them
 * all; where those are 9, or up to wide_max (GJ_PART_CLAIM_MAX_BITS where
 * the partition claims: gj_part_claims), one wide pass of them and no
 * more), then as many more as the same number of 8-bit passes allows, up to
 * partitions of one piece (about n / (8 SMs) rows): more bits make shorter
 * probes (lower load) and fewer or no merges of cut partitions, for the
 * same passes, while partitions keep GJ_PGB_MIN_PART groups (fewer crowd a
 * block's atomics onto a few slots: 16 groups a partition ran PGB-TR with 4
 * aggregates at 4.24 ms against PGB-UR's 2.90, 2^26 rows, 4096 groups).
 * Not with row ids (PGB-UR): they spread the payload gathers over as many
 * partitions. H200, 2^28 rows, max,max: PGB-TR 5.89 -> 5.40 ms at
 * 2^15..2^16 groups (4 -> 8 bits), 9.67 -> 7.31 at 2^21 (9 -> 11 bits);
 * PGB-UR 6.06 -> 16.03 at 2^13 (1 -> 8 bits). The table: 4 slots per
 * expected group of a partition (load 1/4), 256 to tmax. force_bits >= 0:
 * those bits (A/B runs).
 * range > 0: the keys span at most `range` values (max - min + 1, the
 * workload's key_range) and the plan is direct (gj_pgb_direct): the
 * partition takes the keys' own low bits and a key's slot is the bits
 * above them, so a partition's keys never share a slot and its table may
 * be full: the fewest bits whose partitions' key ranges fit a table of at
 * most tmax slots, and the table the power of two that holds one. */
static inline void gj_pgb_plan(double n, double groups, double range, double tmax, double sms, int rowids,
                               int wide_max, int force_bits, int *bits_out, double *ts_out)
{
    int bmin = 0, bw = 0, few = 0, bits;
    double ts = 256;
    while (bmin < 16 && (range > 0 ? tmax * ldexp(1, bmin) < range : tmax / 2 * ldexp(1, bmin) < groups)) bmin++;
    while (bw < 16 && floor(n / ldexp(1, bw)) > floor(n / (8 * fmax(sms, 1))) + 1) bw++;
    while (few < 16 && GJ_PGB_MIN_PART * ldexp(1, few + 1) <= groups) few++;
    bits = bmin && !rowids ? (int)fmax(bmin, fmin(bw, fmin(few, 8 * ((bmin + 7) / 8)))) : bmin;
    if (bmin > 8 && bmin <= wide_max) bits = bmin; /* one wide pass, not two */
    if (force_bits >= 0) bits = force_bits;
    while (ts < (range > 0 ? ceil(range / ldexp(1, bits)) : 4 * ceil(groups / ldexp(1, bits)))) ts *= 2;
    *bits_out = bits;
    *ts_out = fmin(tmax, ts);
}

/* Does a direct plan hold: keys spanning `range` values (0: unknown) in
 * 2^bits partitions, each a table of ts slots? Then every partition's keys
 * take distinct slots (a key's bits above the partition's, modulo ts: a
 * window of ts consecutive values, one more where the range does not start
 * on a partition boundary, which the probe steps past). */
static inline int gj_pgb_direct(double range, int bits, double ts)
{
    return range > 0 && ts > 0 && ceil(range / ldexp(1, bits)) <= ts;
}

/* PGB's plan with one table an SM (bb bits, tables of tb slots, up to
 * GJ_PGB_MANY_SMEM_BIG) against two (bits, ts): it wins with cheaper
 * partition passes (a wide pass, gj_part_passes, at GJ_PART_WIDE_COST an
 * 8-bit pass), or as cheap ones with its tables filled less (groups /
 * 2^bits to a table of ts slots). H200, 2^28 rows, max,max, PGB-TR
 * (bench/RESULTS.md, Group-by, session 12): one pass saved at 2^21 groups
 * (6.51 -> 5.44 ms) and at 2^13 (4.17 -> 2.91); as many at a quarter of the
 * load instead of a half: 2^20 5.33 -> 4.83, 2^23 7.27 -> 6.87, 8-byte keys
 * at 2^19 6.21 -> 5.85; at the same load one block an SM lost (8-byte keys
 * at 2^23 8.72 -> 9.06, 2^25 9.62 -> 9.88). A claimed 10-bit pass
 * (wide_max 10) costs GJ_PART_WIDE10_COST. The operator and the model both
 * ask it. */
static inline double gj_pgb_pass_cost(int bits, int wide_max)
{
    if (bits > GJ_PART_WIDE_BITS && bits <= wide_max) return GJ_PART_WIDE10_COST;
    const int p = gj_part_passes(bits, 1);
    return p == 1 && bits > 8 ? GJ_PART_WIDE_COST : p;
}
static inline int gj_pgb_big_wins(double groups, int direct, int bits, double ts, int bb, double tb, int wide_max)
{
    const double cs = gj_pgb_pass_cost(bits, wide_max), cb = gj_pgb_pass_cost(bb, wide_max);
    /* a direct table's probes do not grow with its load */
    return cb < cs || (cb == cs && !direct && ceil(groups / ldexp(1, bb)) / tb < ceil(groups / ldexp(1, bits)) / ts);
}

/* k_pgb_many's plan: gj_pgb_plan with tables of at most tmax_small slots
 * (two blocks an SM) and of at most tmax_big (one block an SM, up to
 * GJ_PGB_MANY_SMEM_BIG), the second where gj_pgb_big_wins. wide_max: the
 * most bits one pass takes (GJ_PART_WIDE_BITS, or GJ_PART_CLAIM_MAX_BITS
 * where the partition of n rows claims). Returns 1 when it is one block an SM.
 * The operator and the model both ask it. */
static inline int gj_pgb_many_choose(double n, double groups, double range, double tmax_small, double tmax_big,
                                     double sms, int rowids, int wide_max, int force_bits, int *bits_out,
                                     double *ts_out)
{
    int bb = 0;
    double tb = 0;
    gj_pgb_plan(n, groups, range, tmax_small, sms, rowids, wide_max, force_bits, bits_out, ts_out);
    gj_pgb_plan(n, groups, range, tmax_big, sms, rowids, wide_max, force_bits, &bb, &tb);
    if (!gj_pgb_big_wins(groups, gj_pgb_direct(range, *bits_out, *ts_out), *bits_out, *ts_out, bb, tb, wide_max))
        return 0;
    *bits_out = bb;
    *ts_out = tb;
    return 1;
}

/* k_pgb_many's plan for keys spanning `range` values (0: unknown): the
 * direct plan (gj_pgb_direct) where it holds and takes no more partition
 * passes than the hashed one, else the hashed (gj_pgb_many_choose, range
 * 0). tmax_small_d, tmax_big_d: the direct plan's tables, whose keys take
 * 4 bytes at either key width (operators/groupby_kernels.cuh PgbTk).
 * claims: the partition would claim a pass of GJ_PART_CLAIM_MAX_BITS
 * (one call; gj_part_claims), the most bits one pass then takes; else a
 * hashed pass takes GJ_PART_WIDE_BITS and a direct plan's (its keys go
 * unhashed, and the wide exact pass hashes) 8. Returns 1 for the direct
 * plan. The operator and the model both ask it. */
static inline int gj_pgb_many_pick(double n, double groups, double range, double tmax_small, double tmax_big,
                                   double tmax_small_d, double tmax_big_d, double sms, int rowids, int claims,
                                   int force_bits, int *bits_out, double *ts_out)
{
    const int wide_max = claims ? GJ_PART_CLAIM_MAX_BITS : GJ_PART_WIDE_BITS;
    const int wide_max_direct = claims ? GJ_PART_CLAIM_MAX_BITS : 8;
    int bd = 0;
    double td = 0;
    gj_pgb_many_choose(n, groups, 0, tmax_small, tmax_big, sms, rowids, wide_max, force_bits, bits_out, ts_out);
    if (range <= 0) return 0;
    gj_pgb_many_choose(n, groups, range, tmax_small_d, tmax_big_d, sms, rowids, wide_max_direct, force_bits, &bd, &td);
    if (!gj_pgb_direct(range, bd, td) ||
        gj_pgb_pass_cost(bd, wide_max_direct) > gj_pgb_pass_cost(*bits_out, wide_max))
        return 0;
    *bits_out = bd;
    *ts_out = td;
    return 1;
}

/* PGB's pieces, the rows one block aggregates (operators/groupby_api.cu
 * pgb_chunks, model/time.c): about 4 waves of full SMs (occ blocks an SM),
 * at least 4096 rows; but with one table an SM (occ 1), where whole
 * partitions would keep the SMs at least 90% busy (parts over whole waves
 * of sms blocks), a partition of up to GJ_PGB_WHOLE times the average
 * stays whole: cutting it buys little balance and costs its pieces' merge
 * (H100, ncu, 2^28 rows, max,max: k_pgb_merge 0.18 ms at 2^20 groups, 0.30
 * at 2^21, beside k_pgb_many's 1.44 and 1.92). Measured (bench/RESULTS.md
 * session 20), PGB-TR: 2^20 groups 5.44 -> 5.21 ms, 2^22 6.95 -> 6.45; with
 * two tables an SM (2^16..2^19) whole partitions were 0-0.09 ms slower, so
 * those keep their pieces. A skewed partition, past GJ_PGB_WHOLE, is still
 * cut. With no partition (parts 1) the rows are one piece a block of one
 * wave: every piece holds the whole span of groups and sends each of its
 * table's slots through the global table, so four waves paid four times
 * that flush for no balance (the rows are spread evenly already; session 31,
 * bench/RESULTS.md). whole 0: the old rule. */
#define GJ_PGB_WHOLE 1.25
static inline double gj_pgb_piece_rows(double n, double parts, double sms, double occ, int whole)
{
    double t = fmax(4096, ceil(n / (sms * occ * 4)));
    if (whole && parts <= 1) return fmax(t, ceil(n / (sms * occ)));
    if (whole && occ <= 1 && parts >= 1 && parts / (ceil(parts / sms) * sms) >= 0.9)
        t = fmax(t, ceil(GJ_PGB_WHOLE * n / parts));
    return t;
}

/* Skewed warps (operators/groupby_kernels.cuh pgb_lean_fold, k_agg_gid):
 * where a warp's rows of one slot or group are at least GJ_GB_FOLD_MIN of
 * its 32, they reduce across the warp and one lane sends one atomic. PGB's
 * lean tile tests lane 0's slot; HGB's global aggregate up to
 * GJ_GB_FOLD_TRIES groups a warp, each found where two neighbouring lanes
 * (2i, 2i + 1) hold it (lane 0 alone holds a hot group only as often as
 * its share: 38% at Zipf 1.5, bench/RESULTS.md session 35). PGB keeps
 * lane 0: in a hashed plan a hot key is most of its partition, and the
 * pairs rule there cost 2-20% skewed and 4-11% uniform (session 36).
 * gj_gb_fold_left: HGB's rule for a group holding a share p of the rows in
 * random order: the share of its atomics still sent, a folded warp's one
 * counted. With Y ~ Binomial(32, p) its lanes in a warp, the warp folds
 * them when Y >= GJ_GB_FOLD_MIN and some pair holds two (all but C(16, y)
 * 2^y / C(32, y) of the ways to place y lanes), so 1 - E[(Y - 1)
 * 1{folded}] / 32p remain (Zipf 1.5 over 2^20 groups, p 0.38: 0.14; p ->
 * 0: 1; p = 1: 1/32). It leaves out that a try ends where its first pair's
 * group has fewer rows. The model charges HGB's hottest groups by it
 * (model/time.c atomics_zipf). */
#define GJ_GB_FOLD_MIN 8
#define GJ_GB_FOLD_TRIES 2
static inline double gj_gb_fold_left(double p)
{
    if (!(p > 0)) return 1;
    if (p >= 1) return 1.0 / 32;
    double pmf = pow(1 - p, 32), nopair = 1, saved = 0; /* P(Y = y), P(no pair | y) from y = 0 */
    for (int y = 0; y <= 32; y++) {
        if (y >= GJ_GB_FOLD_MIN) saved += pmf * (1 - nopair) * (y - 1);
        pmf *= (32.0 - y) / (y + 1) * p / (1 - p);
        nopair = y < 16 ? nopair * 2 * (16 - y) / (32 - y) : 0;
    }
    return 1 - saved / (32 * p);
}

/* k_pgb_many's general tile (aggregate sets other than PGB-TR's lean
 * pair) folds lane 0's slot in builds of its own, taken where the
 * workload's skew statistic (gj_workload.zipf) is at least this: H200,
 * PGB-TR, 2^26 rows, 2^20 hashed groups, sum,count,avg and
 * max,sum,avg,count, aggregate 20-30% faster at Zipf 1.5 and 2, level at
 * 1; built into every generic build its code cost uniform keys 11-15%
 * (bench/RESULTS.md session 37). A workload that does not tell its skew
 * (0) runs without it, as before. */
#define GJ_PGB_FOLD_ZIPF 1.0

/* k_pgb_many: a partition cut into 2 to gj_pgb_merge_max pieces merges
 * their tables in one block (k_pgb_merge); more pieces merge through the
 * global table, each piece's groups as its own block ends
 * (operators/groupby_kernels.cuh). k_pgb_merge takes as long as its
 * longest block, and under skew that is the hottest partition's: at Zipf
 * 1 (2^26 rows, 2^20 hashed groups) one block lasts the kernel while 35
 * others end early (ncu, H200, bench/RESULTS.md session 36), reckoned to
 * read ~15 pieces' tables, ~2.9 MB, at ~15 GB/s. So a hashed plan merges in a block at most
 * GJ_PGB_MERGE_HOT pieces, or twice the pieces of a partition of average
 * rows (typical), whichever is more, and never more than
 * GJ_PGB_MERGE_MAX: partitions cut for skew merge globally, while the
 * evenly cut ones of uniform keys (typical pieces, or one more) merge as
 * before, where the global path had cost 1.9 against 0.4 ms (k_pgb_merge's
 * comment). Measured with the limit 4 (typical 1): PGB-TR's hashed
 * aggregate at Zipf 1, 1.5, 2 0.68, 0.70, 0.62 -> 0.57, 0.61, 0.55 ms. A
 * direct plan lost with it (Zipf 1: 0.48 -> 0.66 ms; reckoned: its tables
 * hold a partition's whole span, so each hot piece sends ~4x the groups
 * through the global table) and keeps GJ_PGB_MERGE_MAX. */
#define GJ_PGB_MERGE_MAX 16
#define GJ_PGB_MERGE_HOT 4
static inline double gj_pgb_merge_max(double typical, int direct)
{
    return direct ? GJ_PGB_MERGE_MAX : fmin(GJ_PGB_MERGE_MAX, fmax(GJ_PGB_MERGE_HOT, 2 * typical));
}

/* HGB's stage 1 (operators/groupby_kernels.cuh k_hgb_assign): each block
 * caches in shared memory the first GJ_HGB_CACHE distinct keys it looks up
 * (GJ_HGB_CACHE / 2 of 8 bytes: a table of twice as many slots, filled to
 * half); the group-by's streaming kernels run at most GJ_GB_GRID_PER_SM
 * blocks an SM (operators/groupby_api.cu grid_for), so a block of k_hgb_assign
 * sees about 1 / (GJ_GB_GRID_PER_SM x SMs) of the rows. The model (model/time.c, HGB)
 * reads both. */
#define GJ_HGB_CACHE 2048
#define GJ_GB_GRID_PER_SM 16

/* SGB on rows in key order: tiles of GJ_SGB_INORDER_TILE rows (a warp's),
 * each with its count of groups and their inclusive sum
 * (operators/groupby_kernels.cuh k_inorder_heads). */
#define GJ_SGB_INORDER_TILE 256

/* PHJ's sparse probe (operators/join_api.cu phj_sparse): build sides of at
 * most GJ_PHJ_SPARSE_R rows, probe sides of at least GJ_PHJ_SPARSE_MIN_S
 * rows, blocks of GJ_PHJ_SPARSE_THREADS threads buffering at most
 * GJ_PHJ_SPARSE_BUF matches each, and at most S / GJ_PHJ_SPARSE_DIV
 * matches in all. */
#define GJ_PHJ_SPARSE_R 4096
#define GJ_PHJ_SPARSE_MIN_S (1 << 20)
#define GJ_PHJ_SPARSE_THREADS 512
#define GJ_PHJ_SPARSE_BUF 2048
#define GJ_PHJ_SPARSE_DIV 16

/* The share of the blocks' buffers the expected matches may fill: a
 * block's range of S holds its share of uniformly spread matches give or
 * take a few standard deviations (at 0.75, 1536 a block on average, one
 * standard deviation is about 40); matches bunched in S still fill a
 * buffer, and the pass then declines (0.03-0.05 ms lost on the H200). At
 * 0.5 the hint turned down 2048 x 6 x 10^7 rows with 585724 matches (1109
 * a block), 0.29 ms by the probe against 0.41 by COUNT/WRITE. */
#define GJ_PHJ_SPARSE_FILL 0.75

/* Does the sparse probe take a join of r build rows and s probe rows
 * expected to give m output rows, blocks_per_sm of its blocks on each of
 * sms SMs? At most S / GJ_PHJ_SPARSE_DIV matches, and at most
 * GJ_PHJ_SPARSE_FILL of the blocks' buffers' room. The operator
 * (operators/join_api.cu phj_sparse) asks before its pass and still
 * declines during it (a block's buffer full, a repeated R key); the model
 * (model/time.c) asks the same. */
static inline int gj_phj_sparse_takes(double r, double s, double m, int sms, int blocks_per_sm)
{
    return r <= GJ_PHJ_SPARSE_R && s >= GJ_PHJ_SPARSE_MIN_S && m <= s / GJ_PHJ_SPARSE_DIV &&
           m <= GJ_PHJ_SPARSE_FILL * GJ_PHJ_SPARSE_BUF * blocks_per_sm * sms;
}

/* The operators' own radix partition: at most two 8-bit passes
 * (operators/join_partition.cuh); CUB's sort above. */
#define GJ_PART_MAX_BITS 16
/* ... whose 8-bit passes of 4-byte keys scatter two tiles at a time from
 * this many rows on (part_scatter2_kernel; measured faster from 2^27) */
#define GJ_PART_PAIR_MIN_ROWS (1ULL << 26)
/* Two-pass partitions of GFTR's packed pairs from this many rows on go
 * through a scratch of about half the rows (join_api.cu partition_halves;
 * model/time.c ms_group charges it): below, the saving is small beside the
 * read-back and the launches it adds */
#define GJ_PART_HALF_MIN_ROWS (1ULL << 25)
/* ... at this much of the whole partition's time: its first pass ranks the
 * top bit too and stores to two pieces, and the scratch is sized after a
 * read-back (H100, W1's S side, 2^27 rows, 16 bits, split pair: 3.53-3.56
 * -> 3.66-3.69 ms, bench/RESULTS.md session 23) */
#define GJ_PART_HALF_COST 1.037

/* SMJ's MSD sort of (key, 8-byte value) pairs on more than GJ_PART_MAX_BITS
 * key bits (operators/join_api.cu msd_sort): inputs of at least
 * GJ_MSD_MIN_ROWS rows (TPC-H SF 10 on the H200: 1.3-1.5 M rows a side
 * were 0.13-0.16 ms slower than with CUB's sort, 15 M rows 0.25 ms faster;
 * bench/RESULTS.md) are partitioned on the top bits into partitions of at
 * most GJ_MSD_AVG rows on average (at most 2^GJ_PART_MAX_BITS of them;
 * larger inputs up to GJ_MSD_MAX_AVG rows a partition), each then sorted by
 * one block on the at most GJ_MSD_MAX_LOW bits below, 4 bits a pass (timed
 * with up to 12, W2's 28-bit build keys; more low bits keep CUB's sort); CUB's
 * radix sort when a sample of the keys
 * predicts a partition of more than GJ_MSD_MAX_OVER rows (hot keys), except
 * where the sort runs in place (S's pair through halves: msd_hot). */
#define GJ_MSD_MIN_ROWS (1 << 23)
#define GJ_MSD_AVG 2048
#define GJ_MSD_MAX_AVG 3072
#define GJ_MSD_MAX_LOW 16
#define GJ_MSD_MAX_OVER (1 << 18)
/* the MSD sort's larger block-sort tile (512 threads x 8 rows): partitions
 * of more rows are hot, msd_hot's (skew) */
#define GJ_MSD_LARGE 4096

/* The joins' semi-join filter (operators/join_api.cu key_filter, session
 * 26): where few S rows find a partner, S is cut to its matching rows
 * before any implementation runs (a bitmap of R's keys over their range,
 * in the L2), then R to the keys that S's survivors hold (a bitmap of
 * those), and the implementation joins the two cut sides. The workload's
 * hint w->filter says whether: GJ_FILTER_ON, GJ_FILTER_OFF, or AUTO, where
 * the model compares the join with and without it (model/time.c; the
 * advisor passes its choice on: gj_join_auto, run join, bench join,
 * validate), for primary-foreign-key joins (many-to-many: not yet) with at
 * most GJ_JOIN_FILTER_MAX_RATIO of S matching (the range measured). The
 * executor, which has no profile, applies for AUTO the rule that the
 * model's choice approximates: primary-foreign-key, at most that match
 * ratio, at least GJ_JOIN_FILTER_MIN_ROWS rows a side (without hints:
 * match ratio 1, many-to-many: never), except for SMJ with both sides in
 * key order (hinted r_sorted and s_sorted: it merges them as they are,
 * which the cut's passes would only slow: 2^25 a side at match ratio 0.1,
 * 0.47 ms in session 25's validation grid, 0.92 with the filter in session
 * 26's, two H100s). The rule loses where the model's choice does not
 * (session 27, one H100): PHJ-TR at 2^25 a side and match ratio 0.45-0.5
 * (+1-3%), NPHJ over a 2^20-row R at 0.5 (+26%). The filter
 * declines, after R's min and max, where R's keys span more than
 * GJ_JOIN_FILTER_MAX_SPAN values (the bitmap would outgrow the L2: its
 * probes would run at B_R); the model assumes the generator's span (R's
 * rows, twice that below match ratio 1). */
#define GJ_JOIN_FILTER_MAX_RATIO 0.5
#define GJ_JOIN_FILTER_MIN_ROWS (1ULL << 20)
#define GJ_JOIN_FILTER_MAX_SPAN (1ULL << 28)
/* GJ_JOIN_FILTER=off|on overrides every hint and choice (A/B runs, tests):
 * off never filters (the model predicts without it too); on filters
 * whenever both sides have rows (the model still cuts primary-foreign-key
 * joins only). Returns -1 off, 1 on, 0 unset. */
static inline int gj_join_filter_env(void)
{
    const char *e = getenv("GJ_JOIN_FILTER");
    return !e ? 0 : !strcmp(e, "off") ? -1 : !strcmp(e, "on") ? 1 : 0;
}

/* The executor's choice: the hint (GJ_FILTER_ON/OFF), or for AUTO the rule */
static inline int gj_join_filter_takes(double r, double s, double match_ratio, int pkfk, int merge_in_order,
                                       int hint)
{
    const int env = gj_join_filter_env();
    if (env < 0 || r < 1 || s < 1) return 0;
    if (env > 0 || hint == GJ_FILTER_ON) return 1;
    if (hint == GJ_FILTER_OFF) return 0;
    return pkfk && !merge_in_order && match_ratio <= GJ_JOIN_FILTER_MAX_RATIO &&
           r >= (double)GJ_JOIN_FILTER_MIN_ROWS && s >= (double)GJ_JOIN_FILTER_MIN_ROWS;
}

#endif
