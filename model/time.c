/* Absolute time and memory model of every implementation, built in the
 * paper's bytes-over-bandwidth style from a profile's hardware parameters.
 * Each phase is a sum of named terms; each term is bytes (or operations)
 * over the bandwidth (or rate) of the unit that moves them. IDs (T-...) refer
 * to model/MODEL.md. */
#include "common/internal.h"
#include "model/model.h"
#include "operators/shapes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GB 1e9
#define MAXF(a, b) ((a) > (b) ? (a) : (b))

/* ---- workload statistics ------------------------------------------------ */

/* Generalised harmonic number H(n, z) = sum_{i=1..n} i^-z: exact for the
 * first 64 terms, Euler-Maclaurin for the rest (relative error < 1e-9). */
double gj_harmonic(double n, double z)
{
    if (n < 1) return 0;
    double s = 0, lim = fmin(n, 64);
    for (double i = 1; i <= lim; i++) s += pow(i, -z);
    if (n <= 64) return s;
    double a = 64, b = floor(n);
    double integral = fabs(z - 1) < 1e-12 ? log(b / a) : (pow(b, 1 - z) - pow(a, 1 - z)) / (1 - z);
    return s + integral + (pow(b, -z) - pow(a, -z)) / 2 - z / 12 * (pow(b, -z - 1) - pow(a, -z - 1));
}

/* Share of accesses that hit the `cached` most popular of n items under
 * Zipf(z) popularity (z = 0: uniform). */
double gj_hit_fraction(double n, double cached, double z)
{
    if (cached >= n) return 1;
    if (cached < 1) return 0;
    if (z <= 0) return cached / n;
    return gj_harmonic(cached, z) / gj_harmonic(n, z);
}

/* Effective number of distinct targets that concurrent updates see: the
 * inverse Simpson index 1 / sum p_i^2 = H(g,z)^2 / H(g,2z); g when uniform. */
double gj_effective_targets(double g, double z)
{
    if (z <= 0 || g <= 1) return g;
    double h = gj_harmonic(g, z);
    return fmin(g, h * h / gj_harmonic(g, 2 * z));
}

/* Distinct groups that one warp-wide update sees when the rows come in key
 * order (workload sorted_keys): its 32 lanes hold rows spread over `span`
 * consecutive rows, about 1 + span g / N groups (at most 32). The lanes of
 * one group update one slot, one after another. */
static double inorder_targets(double g, double N, double span)
{
    return fmin(32, 1 + span * g / fmax(N, 1));
}

/* Expected distinct groups among the 32 rows of a warp (Sec. 4.1.3's u,
 * which the paper approximates as min(32, g) for uniform keys). */
double gj_warp_distinct(double g, double z)
{
    if (g <= 1) return 1;
    double k = fmin(g, 4096), hg = gj_harmonic(g, z), e = 0, mass = 0;
    for (double i = 1; i <= k; i++) {
        double p = (z <= 0 ? 1.0 / g : pow(i, -z) / hg);
        e += 1 - pow(1 - p, 32);
        mass += p;
    }
    /* the tail beyond the first 4096 ranks: each draw there is distinct */
    e += 32 * fmax(0, 1 - mass);
    return fmax(1, fmin(32, e));
}

/* Expected distinct items among `draws` draws from n items of Zipf(z)
 * popularity: the sum over items of 1 - (1 - p_i)^draws ~ 1 - exp(-draws
 * p_i); exact terms for the 64 hottest ranks, then 256 bands of ranks
 * evenly spaced in log(rank), each its rank count times its middle rank's
 * term. Uniform: n (1 - exp(-draws / n)). mass (may be NULL): the share of
 * the popularity the drawn items hold, the same sum weighted by p_i. */
static double zipf_drawn(double n, double draws, double z, double *mass)
{
    double d = 0, m = 0;
    if (n >= 1 && draws > 0 && z <= 0) {
        d = n * -expm1(-draws / n);
        m = d / n;
    } else if (n >= 1 && draws > 0) {
        const double h = gj_harmonic(n, z), lim = fmin(n, 64);
        for (double i = 1; i <= lim; i++) {
            const double p = pow(i, -z) / h, q = -expm1(-draws * p);
            d += q, m += p * q;
        }
        const int bands = n > 64 ? 256 : 0;
        const double lo = log(64.5), step = (log(n + 0.5) - lo) / 256;
        for (int b = 0; b < bands; b++) {
            const double a = exp(lo + b * step), e = exp(lo + (b + 1) * step), p = pow(sqrt(a * e), -z) / h;
            const double q = -expm1(-draws * p);
            d += (e - a) * q, m += (e - a) * p * q;
        }
    }
    if (mass) *mass = fmin(m, 1);
    return fmin(d, n);
}

double gj_distinct_drawn(double n, double draws, double z) { return zipf_drawn(n, draws, z, NULL); }

/* A cache that keeps the first `slots` distinct keys it is asked for (HGB's
 * block cache, operators/groupby_kernels.cuh k_hgb_assign), asked `rows`
 * keys drawn from n of Zipf(z) popularity: the share of them it answers.
 * Drawing at most `slots` distinct keys it never fills, and every draw but
 * each key's first hits; else it fills after f draws (zipf_drawn's distinct
 * reaching `slots`, by bisection on log f), missing each of those keys
 * once, and then answers the popularity its keys hold of the rest. A hot
 * key is among the first seen: at Zipf 1.5 over 2^20 keys the first 2048
 * hold 98% of the draws, where the uniform share is 0.2%. */
double gj_cache_first_seen(double n, double slots, double rows, double z)
{
    if (rows < 1 || n < 1) return 0;
    const double seen = zipf_drawn(n, rows, z, NULL);
    if (seen <= slots) return 1 - seen / rows;
    double lo = log(fmax(slots, 1)), hi = log(rows), mass = 0;
    for (int it = 0; it < 30; it++) {
        const double mid = (lo + hi) / 2;
        if (zipf_drawn(n, exp(mid), z, NULL) < slots) lo = mid;
        else hi = mid;
    }
    const double f = exp(hi);
    zipf_drawn(n, f, z, &mass);
    return fmax(0, 1 - (slots + (rows - f) * (1 - mass)) / rows);
}

/* ---- hardware rates ----------------------------------------------------- */

/* Log-linear interpolation through (log2 x_i, y_i). */
static double interp_log2(double x, const double *xs, const double *ys, int n)
{
    double lx = log2(fmax(x, 1));
    if (lx <= xs[0]) return ys[0];
    for (int i = 1; i < n; i++)
        if (lx <= xs[i]) {
            double t = (lx - xs[i - 1]) / (xs[i] - xs[i - 1]);
            return ys[i - 1] + t * (ys[i] - ys[i - 1]);
        }
    return ys[n - 1];
}

/* Gather bandwidth (GB/s) when a warp touches u distinct lines. */
static double bw_lines(const gj_hw *hw, double u)
{
    const double xs[] = {0, 1, 2, 3, 4, 5};
    const double ys[] = {hw->bw_u1, hw->bw_u2, hw->bw_u4, hw->bw_u8, hw->bw_u16, hw->bw_u32};
    return interp_log2(u, xs, ys, 6);
}

/* Rate of random accesses spread uniformly over `footprint` bytes: the share
 * the L2 holds at rate `in_l2`, the rest at `beyond` (a harmonic blend, so
 * the time is the sum of both shares' times). */
static double l2_blend(const gj_hw *hw, double in_l2, double beyond, double footprint)
{
    double h = footprint > 0 ? fmin(1, hw->l2_bytes / 2 / footprint) : 1;
    return 1 / (h / in_l2 + (1 - h) / beyond);
}

/* Shared-memory atomics over `targets` addresses per block, G updates/s. */
static double atom_shared(const gj_hw *hw, double targets)
{
    const double xs[] = {0, 5, 10};
    const double ys[] = {hw->atom_s_t1, hw->atom_s_t32, hw->atom_s_t1k};
    return interp_log2(targets, xs, ys, 3);
}

/* One 8-bit partition pass over (key, value) pairs, GB/s of bytes moved. */
static double bw_pass(const gj_hw *hw, int kb, int vb)
{
    if (kb == 4 && vb == 4) return hw->bw_part_k4v4;
    if (kb == 8 && vb == 8) return hw->bw_part_k8v8;
    return hw->bw_part_k4v8; /* 12-byte pairs: 4/8 and 8/4 */
}

/* ---- phase accounting --------------------------------------------------- */

typedef struct {
    gj_estimate *e;
    const gj_hw *hw;
    const gj_fit *fit;   /* NULL: untuned */
    int phase;
    double best_term;
    int kernels, allocs, syncs;
    double zipf, zdom; /* a join's S keys: Zipf(zipf) over zdom keys (msd_hot_rows) */
    const gj_workload *uncut; /* a join cut by the semi-join filter: the workload as
                                 given (the model runs on the cut sides' one) */
    int cut;                  /* model a join as cut by the filter first */
} acc;

static void overheads(acc *a);

/* Open the next phase; the one it closes takes the launches, allocations
 * and read-backs counted while it was open (the operators mark a phase's
 * end after its host work). */
static void begin(acc *a, const char *name)
{
    if (a->e->n_phases > 0) overheads(a);
    a->phase = a->e->n_phases++;
    gj_phase *p = &a->e->phase[a->phase];
    gj_strlcpy(p->name, name, sizeof p->name);
    a->best_term = -1;
}

/* Add a term of kind k: `sec` seconds moving `bytes` bytes through device
 * memory. Its raw time is summed into term_ms[k] for `tune`; the phase gets
 * it scaled by the profile's learned coefficient for k (T-FIT). */
static void term(acc *a, gj_term k, const char *what, double sec, double bytes)
{
    if (!(sec > 0) && !(bytes > 0)) return;
    gj_phase *p = &a->e->phase[a->phase];
    a->e->term_ms[k] += sec * 1e3;
    if (a->fit) sec *= a->fit->coef[k];
    p->ms += sec * 1e3;
    p->bytes += bytes;
    if (sec > a->best_term) {
        a->best_term = sec;
        gj_strlcpy(p->dominant, what, sizeof p->dominant);
    }
}

/* The calibrated global atomic rate (G updates/s) over `targets`
 * addresses: the curve through 1, 32, 1024 and 2^20 targets. */
static double atom_rate(const gj_hw *hw, double targets)
{
    const double xs[] = {0, 5, 10, 20};
    const double ys[] = {hw->atom_g_t1, hw->atom_g_t32, hw->atom_g_t1k, hw->atom_g_t1m};
    return interp_log2(targets, xs, ys, 4);
}

/* n global atomic updates over `targets` distinct addresses spread over
 * `footprint` bytes: the share the L2 holds at the calibrated atomic rate
 * (kind atomic), the rest as random read-modify-writes in HBM at B_R/4 (kind
 * gather: the physics of an unclustered GATHER, which the fit scales
 * together). */
static void atomics_global(acc *a, const char *what, double n, double targets, double footprint)
{
    const gj_hw *hw = a->hw;
    double r = atom_rate(hw, targets);
    double h = footprint > 0 ? fmin(1, hw->l2_bytes / 2 / footprint) : 1;
    term(a, GJ_TERM_ATOMIC, what, n * h / (r * GB), 0);
    if (h < 1) term(a, GJ_TERM_GATHER, what, n * (1 - h) / (fmin(r, hw->bw_rand / 4) * GB), 0);
}

/* Global atomics of `rows` rows, `per` accumulators each, into the slots
 * of g groups whose keys follow Zipf(z), spread over `footprint` bytes:
 * the calibrated curve (atomics_global) at `targets`, plus the hottest
 * line: the curve is measured on adjacent 4-byte targets, 32 to a
 * 128-byte line, and contention follows lines. An array holds `line`
 * groups a line (dense arrays: 128 bytes over the accumulator's width;
 * cuDF's sparse arrays, one group a line apart, 1, passing targets = 32 g)
 * and dense ids come in order of first appearance, so the groups of ranks
 * 1..line share the first: their updates, beyond a uniform group's share
 * (the curve holds that), run at the calibrated rate for as many targets as
 * the inverse Simpson index of those updates counts (one group alone: the
 * single-target rate atom_g_t1). Each accumulator's array has its own
 * line, in parallel. fold: the operator combines a skewed warp's rows of
 * up to GJ_GB_FOLD_TRIES groups first (HGB's k_agg_gid), so the hottest
 * groups send gj_gb_fold_left's share of their updates. (H200, 2^26 rows,
 * 2^20 groups, max,max, Zipf 1.5: the hottest group alone at atom_g_t1
 * explained HGB's 23.4 ms stage 2 without the fold, not its 13.5 ms with
 * it; bench/RESULTS.md session 35. The inverse Simpson index over all
 * groups, used before that, took 4096 groups at Zipf 1.5 for 4 targets:
 * HASH-GLOBAL's group phase predicted 46 ms, measured 21 ms.) Kind atomic. */
static void atomics_zipf(acc *a, const char *what, double rows, double per, double g, double targets, double line,
                         double z, double footprint, int fold)
{
    atomics_global(a, what, rows * per, targets, footprint);
    if (z > 0 && g > 1) {
        const double h = gj_harmonic(g, z), l = fmax(1, fmin(floor(line), g));
        double u = 0, u2 = 0; /* the line's updates, their sum of squares */
        for (double i = 1; i <= l; i++) {
            const double p = pow(i, -z) / h, x = rows * p * (fold && i <= GJ_GB_FOLD_TRIES ? gj_gb_fold_left(p) : 1);
            u += x, u2 += x * x;
        }
        const double over = fmax(0, u - rows * l / g);
        term(a, GJ_TERM_ATOMIC, "updates of the hottest line (serialised)", over / (atom_rate(a->hw, u * u / u2) * GB),
             0);
    }
}

/* n ids handed out by one global counter (a new group's slot in the output):
 * every update hits the same address, at the single-target atomic rate.
 * Kind hash: the id is handed out by the insert that creates the group, so
 * tune scales it with the inserts, not with the aggregation atomics. */
static void counter(acc *a, const char *what, double n)
{
    term(a, GJ_TERM_HASH, what, n / (a->hw->atom_g_t1 * GB), 0);
}

/* Sequential traffic at B_G. */
static void seq(acc *a, const char *what, double bytes)
{
    term(a, GJ_TERM_SEQ, what, bytes / (a->hw->bw_seq * GB), bytes);
}

/* Histogram + ceil(bits/8) stable partition passes of n (key, value) pairs.
 * own: the operators' own partition (operators/join_partition.cuh), whose
 * calibrated pass with 4-byte keys and 8-byte values (bw_part_pair)
 * includes the histogram each pass takes; otherwise CUB's radix sort.
 * packed (own): the first pass packs the pairs from two 4-byte columns as
 * it reads them, at its own calibrated rate (bw_part_pair1: 1.13x a later
 * pass's time on the H200, bench/RESULTS.md, Joins, session 9).
 * wide (own, hashed keys: PGB): GJ_PART_WIDE_BITS bits in one pass
 * (operators/shapes.h gj_part_passes), gj_part_wide_cost times an 8-bit
 * pass's time. claims (PGB, shapes.h gj_part_claims): the one pass (up
 * to GJ_PART_CLAIM_MAX_BITS: 10 bits at GJ_PART_WIDE10_COST an 8-bit
 * pass) without its histogram (the caller charges its sample): the calibrated
 * pair pass GJ_PART_CLAIM_SCATTER of its time, other passes their
 * histogram's bytes less. res: the claimed pass writes 2-byte key
 * residues (a direct plan's, operators/join_partition.h GJ_PART_RES16). */
static void partition_claims(acc *a, const char *what, double n, int kb, int vb, int bits, int own, int packed,
                             int wide, int claims, int res)
{
    int passes = claims ? 1 : gj_part_passes(bits, own && wide);
    double hist = claims ? 0 : n * kb, moved = passes * n * (2.0 * (kb + vb) - (claims && res ? kb - 2 : 0));
    const double cost = passes == 1 && bits > GJ_PART_WIDE_BITS ? GJ_PART_WIDE10_COST
                        : passes == 1 && bits > 8              ? gj_part_wide_cost(a->hw)
                                                               : 1;
    if (own && kb == 4 && vb == 8) {
        const double scale = claims ? GJ_PART_CLAIM_SCATTER : 1;
        const double rate = a->hw->bw_part_pair > 0 ? a->hw->bw_part_pair : gj_part_pair_default(a->hw);
        const double first = packed && a->hw->bw_part_pair1 > 0 ? a->hw->bw_part_pair1 : rate;
        const double pass = moved / passes;
        term(a, GJ_TERM_PARTITION, what, scale * cost * (pass / (first * GB) + (passes - 1) * pass / (rate * GB)),
             passes * hist + moved);
        a->kernels += claims ? 3 : 3 * passes;
    } else {
        term(a, GJ_TERM_PARTITION, what,
             cost * (hist / (a->hw->bw_hist * GB) + moved / (bw_pass(a->hw, kb, vb) * GB)),
             hist + moved);
        a->kernels += claims ? 3 : 1 + passes;
    }
    a->allocs += 1;
}

static void partition_wide(acc *a, const char *what, double n, int kb, int vb, int bits, int own, int packed,
                           int wide)
{
    partition_claims(a, what, n, kb, vb, bits, own, packed, wide, 0, 0);
}

static void partition(acc *a, const char *what, double n, int kb, int vb, int bits, int own, int packed)
{
    partition_wide(a, what, n, kb, vb, bits, own, packed, 0);
}

/* Radix sort of n (key, value) pairs on their low `bits` key bits (8 a
 * pass): the calibrated full-width rate (kb passes), scaled from its 4-byte
 * values to vb-byte values by bytes per pair and to the passes the bits
 * need. */
static void sort_bits(acc *a, const char *what, double n, int kb, int vb, int bits)
{
    double rate = (kb == 4 ? a->hw->sort_k32 : a->hw->sort_k64) * GB;
    double scale = (double)(kb + vb) / (kb + 4);
    int passes = bits < 8 * kb ? (bits + 7) / 8 : kb;
    if (passes < 1) passes = 1;
    double bytes = n * kb + passes * n * 2.0 * (kb + vb);
    term(a, GJ_TERM_SORT, what, n / rate * scale * passes / kb, bytes);
    a->kernels += 1 + passes;
    a->allocs += 1;
}

/* Full-width radix sort (the group-bys sort every key bit). */
static void sort_full(acc *a, const char *what, double n, int kb, int vb)
{
    sort_bits(a, what, n, kb, vb, 8 * kb);
}

/* Key bits SMJ sorts: operators/join_api.cu run_smj sorts only the bits
 * below the highest one in which the smallest and largest key of R and S
 * differ. The keys are taken to be dense, as surrogate keys and the
 * generator's are (operators/join_table.cu gj_join_generate): a
 * primary-foreign-key join's build keys are R distinct values, with the
 * unmatched ones in a second range of R above them (match ratio < 1); a
 * many-to-many join draws both sides from R S / out values. */
static int join_key_bits(const gj_workload *w)
{
    double dom = w->out_rows ? floor((double)w->r_rows * (double)w->s_rows / (double)w->out_rows)
                             : (double)w->r_rows * (w->match_ratio < 1 ? 2 : 1);
    int bits = 0;
    while (bits < 8 * w->key_bytes && ldexp(1, bits) < dom) bits++;
    return bits;
}

/* GATHER of m w-byte values from a column of `src` rows whose reads touch
 * u distinct lines per warp (u = 32: unclustered; Sec. 4.1.3). The map is
 * read and the output written sequentially. The random reads run at the
 * rate of the level holding the source: L1 if it fits in half of it, else
 * L2 for the share of accesses that hit there, else HBM along the measured
 * u-curve (B_R at u = 32). That share: the part of the `ws` bytes the
 * kernel gathers from (this column and the others it gathers beside it)
 * that half the L2 holds, or, for accesses skewed by Zipf(z), the hottest
 * values' sectors it holds (a sector each: their neighbours are cold),
 * whichever is more. Random reads cost one 4-byte-equivalent access each:
 * they are bound by sectors, not bytes (Sec. 5.1.8: 4- and 8-byte gathers
 * cost the same). */
static void gather_ws(acc *a, const char *what, double m, int w, double src, double u, double z, double ws)
{
    const gj_hw *hw = a->hw;
    double per = m * 4.0; /* one 4-byte-equivalent access each (Sec. 5.1.8) */
    double rnd;
    if (src * w <= hw->l1_bytes / 2) {
        rnd = per / (fmin(hw->bw_l1, hw->bw_l1_rand * 32 / u) * GB);
    } else {
        const double h = fmax(fmin(1, hw->l2_bytes / 2 / fmax(ws, 1)), gj_hit_fraction(src, hw->l2_bytes / 2 / 32, z));
        rnd = per * (h / (fmin(hw->bw_l2, hw->bw_rand_l2 * 32 / u) * GB) +
                     (1 - h) / (bw_lines(hw, u) * GB));
    }
    double sq = m * (4.0 + w);
    term(a, GJ_TERM_SEQ, what, sq / (hw->bw_seq * GB), sq);
    term(a, GJ_TERM_GATHER, what, rnd, m * w);
    a->kernels += 1;
}

/* A gather from one column, alone in its kernel */
static void gather(acc *a, const char *what, double m, int w, double src, double u, double z)
{
    gather_ws(a, what, m, w, src, u, z, src * w);
}

/* Lines a warp's 32 gathers of w-byte values touch when its row ids come
 * in runs of `run` adjacent rows (each run a line or more; 32 at most, as
 * unclustered): rows of one key kept together by a stable partition of
 * rows in key order. */
static double run_lines(double run, int w)
{
    run = fmax(1, run);
    return fmin(32, fmax(1, 32 / run) * fmax(1, fmin(32, run) * w / 128.0));
}

/* Clustered GATHER: map, input and output all sequential (3 x 4M of M-414-C2). */
static void gather_clustered(acc *a, const char *what, double m, int w)
{
    seq(a, what, m * (4.0 + 2.0 * w));
    a->kernels += 1;
}

/* GFTR's output rows read S's key and columns in S's transformed order,
 * at the matched rows only: with a fraction d = M / S of the rows matched,
 * a value of w bytes costs w / d bytes of the stream, and its own 32-byte
 * sector once d < w / 32 (TPC-H Q5's 3%: 32 bytes for a 4-byte value,
 * where gather_clustered counts 4). Charged beyond gather_clustered's
 * bytes, for S's key (kb) and its ps columns of pb bytes. */
static void sparse_probe_reads(acc *a, double S, double M, int kb, int pb, int ps)
{
    const double d = fmin(1, M / fmax(S, 1));
    if (d < 1)
        seq(a, "sparse matched S rows: whole sectors read",
            M * (kb * (fmin(32.0 / kb, 1 / d) - 1) + ps * pb * (fmin(32.0 / pb, 1 / d) - 1)));
}

/* Smallest power of two >= x (hash-table capacities in the operators). */
static double pow2_at_least(double x)
{
    double p = 1;
    while (p < x) p *= 2;
    return p;
}

/* PHJ's radix bits, as operators/join_api.cu chooses them: partitions of at
 * most 2048 build rows (a block's shared-memory table), at most 16 bits (two
 * 8-bit passes); 0 bits, no partitioning at all, when R is that small. */
static int partition_bits(double rows)
{
    int bits = 0;
    while (bits < 16 && rows / ldexp(1, bits) > 2048) bits++;
    return bits;
}

/* A read-back the host waits for (the stream drains; the launches after it
 * start from an idle GPU), in launches: 15 us at the H200's launch_us, a
 * round trip's order of magnitude, not measured by itself. With it, the
 * untuned model gives PHJ-TR and NPHJ at 300270 x 2275919 rows (bytes: 0.03
 * ms) 0.242 and 0.136 ms against 0.208 and 0.095 measured (3 and 1
 * read-backs; bench/RESULTS.md, TPC-H, session 8); tune scales the rest. */
#define SYNC_LAUNCHES 4

/* Fixed costs: the launches, allocations and read-backs counted since the
 * last call, charged to the open phase (begin closes each phase with
 * them; the model calls it once more after its last phase). The operators
 * allocate from the device's stream-ordered pool, kept mapped between runs
 * (operators/common.cuh gj_pool_retain, cudaMallocAsync): an allocation is
 * one more stream operation, charged as a launch, not the cudaMalloc +
 * cudaFree pair `malloc_us` measures. */
static void overheads(acc *a)
{
    term(a, GJ_TERM_FIXED, a->syncs ? "launches, allocations and read-backs" : "launches and allocations",
         (a->kernels + a->allocs + SYNC_LAUNCHES * a->syncs) * a->hw->launch_us * 1e-6, 0);
    a->kernels = a->allocs = a->syncs = 0;
}

static void finish(acc *a, double floor_bytes, double peak_bytes)
{
    gj_estimate *e = a->e;
    if (a->fit && e->n_phases > 0) {
        gj_phase *last = &e->phase[e->n_phases - 1];
        last->ms += a->fit->intercept_ms;
        e->tuned = 1;
    }
    e->ms = 0;
    e->bytes = 0;
    for (int i = 0; i < e->n_phases; i++) {
        e->ms += e->phase[i].ms;
        e->bytes += e->phase[i].bytes;
    }
    e->floor_ms = floor_bytes / (a->hw->bw_seq * GB) * 1e3;
    e->peak_bytes = peak_bytes;
    if (peak_bytes > a->hw->mem_bytes) {
        e->feasible = 0;
        snprintf(e->why, sizeof e->why, "needs %.1f GB of device memory, the GPU has %.1f GB",
                 peak_bytes / 1e9, a->hw->mem_bytes / 1e9);
    }
}

/* ---- joins (T-JOIN-*) ---------------------------------------------------- */

/* GFTR moves a side's p payload columns of pb bytes with the key in groups
 * (operators/join_api.cu, transform_cols): two adjacent 4-byte columns
 * packed into one 8-byte value, else one column. The value bytes of group
 * i (0: the one the transform phase moves), 0 past the last. */
static int gftr_group_bytes(int p, int pb, int i)
{
    if (pb != 4) return i < p ? pb : 0;
    return i < p / 2 ? 8 : i == p / 2 && (p & 1) ? 4 : 0;
}
/* the packed pairs among those groups */
static int gftr_pairs(int p, int pb) { return pb == 4 ? p / 2 : 0; }

/* Does a GFTR group's own partition of `pbits` bits (the whole partition,
 * or the MSD sort's on its top bits) go through a scratch of half its rows
 * (operators/join_api.cu part_halves: S's packed pairs, two passes,
 * GJ_PART_HALF_MIN_ROWS rows or more)? */
static int s_halves(int s, int pair, int pbits, double n)
{
    return s && pair && pbits > 8 && n >= GJ_PART_HALF_MIN_ROWS;
}

/* Top key bits SMJ's MSD sort partitions n rows on (operators/join_api.cu
 * msd_sort), or 0 where it declines and CUB sorts: values of 8 bytes, more
 * than GJ_PART_MAX_BITS key bits, at least GJ_MSD_MIN_ROWS rows, at most
 * GJ_MSD_MAX_AVG rows a partition and GJ_MSD_MAX_LOW bits below the
 * partition's, and no key with more than GJ_MSD_MAX_OVER rows (hot: the
 * rows of the most frequent key) unless the sort runs in place through
 * halves (S's packed pairs, s: msd_in_place), where msd_hot takes hot
 * partitions. */
static int msd_bits(double n, int vb, int kbits, double hot, int s)
{
    int t = 1;
    if (vb != 8 || kbits <= GJ_PART_MAX_BITS || n < GJ_MSD_MIN_ROWS ||
        n > ldexp(GJ_MSD_MAX_AVG + 1, GJ_PART_MAX_BITS))
        return 0;
    while (t < GJ_PART_MAX_BITS && n > ldexp(GJ_MSD_AVG + 1, t)) t++;
    if (hot > GJ_MSD_MAX_OVER && !s_halves(s, 1, t, n)) return 0;
    return kbits - t <= GJ_MSD_MAX_LOW ? t : 0;
}

/* Rows in the MSD sort's partitions of more than GJ_MSD_LARGE rows (hot:
 * msd_hot moves them out to a scratch and back) among n rows on t top bits
 * whose keys follow Zipf(z) over dom keys: a key of rank r, n / (r^z H)
 * rows, makes its partition hot where it adds more than GJ_MSD_LARGE less
 * a partition's n / 2^t to it. */
static double msd_hot_rows(double n, int t, double z, double dom)
{
    const double avg = ldexp(n, -t), over = GJ_MSD_LARGE - avg;
    if (!(z > 0) || t <= 0 || dom < 1) return 0;
    if (over <= 0) return n;
    const double H = gj_harmonic(dom, z), r = fmin(dom, floor(pow(n / (H * over), 1 / z)));
    return r < 1 ? 0 : fmin(n, n * gj_harmonic(r, z) / H + r * avg);
}

enum { GROUP_OWN, GROUP_MSD, GROUP_CUB };

/* Rows msd_hot moves out to its scratch and back for a group sorted `how`
 * on t top bits: where SMJ-TR's MSD sort runs in place (S's pair through
 * halves: operators/join_api.cu msd_in_place), its hot partitions' rows;
 * else none */
static double msd_hot_moved(const acc *a, int how, int s, int pair, int t, double n)
{
    return how == GROUP_MSD && s_halves(s, pair, t, n) ? msd_hot_rows(n, t, a->zipf, a->zdom) : 0;
}

/* How transform_cols sorts one GFTR group of n rows with vb value bytes
 * on b bits (PHJ's partition bits, SMJ's key bits): a packed pair by the
 * operators' own partition when b is at most 16; SMJ's MSD sort when
 * msd_bits takes the group (*t: its top bits); else CUB's radix sort, of a
 * pair packed first. hot: the rows of the most frequent key; s: S's group. */
static int gftr_sort(gj_impl impl, double n, int pb, int vb, int b, int kbits, double hot, int s, int *t)
{
    *t = impl == GJ_IMPL_SMJ_TR ? msd_bits(n, vb, kbits, hot, s && pb == 4) : 0;
    if (pb == 4 && vb == 8 && b >= 1 && b <= GJ_PART_MAX_BITS) return GROUP_OWN;
    return *t ? GROUP_MSD : GROUP_CUB;
}

/* GFUR's dense write packs a side's 4-byte column pairs (one sequential
 * pass, 16 bytes a row a pair) before it gathers them, one random sector
 * a row a pair instead of two (operators/join_api.cu gfur_packs): a side
 * gathered through row ids (transformed) of n rows, when the output's M
 * rows are at least a quarter of n. The pairs it packs. */
static int gfur_pairs(int dense, int transformed, double n, double M, int p, int pb)
{
    return dense && transformed && M * 4 >= n && p >= 2 ? gftr_pairs(p, pb) : 0;
}

/* S's packed pairs that leave the own partition or SMJ-TR's MSD sort split
 * into their two columns (operators/join_api.cu transform_cols): all of
 * them when one of those sorts S's pairs, none when CUB's does. They are
 * output columns as they are: the dense write has nothing to unpack. */
static int s_split_pairs(gj_impl impl, double S, int pb, int ps, int b, int kbits, double hot)
{
    int t = 0;
    return gftr_sort(impl, S, pb, 8, b, kbits, hot, 1, &t) != GROUP_CUB ? gftr_pairs(ps, pb) : 0;
}

/* One GFTR group's time (gftr_sort's choice): the MSD sort is the
 * partition on the top bits, then one more read and write of every row,
 * charged as a pass of the partition. Its launches and allocations are
 * join_host_work's. s: S's group, whose own two-pass partition (s_halves)
 * goes through a scratch of half its rows at GJ_PART_HALF_COST its time. */
static void gftr_group(acc *a, const char *what, gj_impl impl, double n, int kb, int pb, int vb, int bits,
                       int kbits, double hot, int s)
{
    const int pair = pb == 4 && vb == 8;
    const int b = impl == GJ_IMPL_SMJ_TR ? kbits : bits;
    int t = 0;
    const int how = gftr_sort(impl, n, pb, vb, b, kbits, hot, s, &t);
    if (how == GROUP_OWN || how == GROUP_MSD) {
        const int pbits = how == GROUP_MSD ? t : b;
        const double before = a->e->term_ms[GJ_TERM_PARTITION];
        partition(a, what, n, kb, 8, pbits, 1, pair);
        if (s_halves(s, pair, pbits, n))
            term(a, GJ_TERM_PARTITION, "the halves' first pass and read-back (S's scratch of half its rows)",
                 (GJ_PART_HALF_COST - 1) * (a->e->term_ms[GJ_TERM_PARTITION] - before) / 1e3, 0);
        if (how == GROUP_MSD) partition(a, "sort each partition in shared memory", n, kb, 8, 8, 1, 0);
        const double moved = msd_hot_moved(a, how, s, pair, pbits, n);
        if (moved > 0) seq(a, "hot partitions out to a scratch and back around their pivots", moved * 4.0 * (kb + 8));
        return;
    }
    if (pair) seq(a, "pack a payload pair", n * 16.0);
    if (impl == GJ_IMPL_SMJ_TR) sort_bits(a, what, n, kb, vb, kbits);
    else if (bits > 0) partition(a, what, n, kb, vb, bits, 0, 0);
}

/* ---- a join's device memory: the operators' allocations replayed -------- */

static double round256(double b) { return ceil(b / 256) * 256; }

/* Scratch of CUB's radix sort of n (key, value) pairs of kb, vb bytes on
 * `bits` key bits into separate outputs (operators/groupby_sort.cu and
 * join_api.cu sort_pairs), as CUB's onesweep dispatch sizes it on the H200 (sm_90,
 * 4-byte offsets): per portion of at most 2^28 - 1 rows and pass, 256
 * bins of 4 bytes; 256 look-back counters of 4 bytes per tile of a portion
 * (384 threads of 23 items for (4, 4)-byte pairs, 15 where one side has 8
 * bytes, 12 for (8, 8)); with more than one 8-bit pass, a second copy of
 * the keys and the values; each piece 256-aligned, plus 255. One tile's
 * worth or less (256 threads of 19 items, 9 for 8-byte keys or values) is
 * sorted by one block and asks 1 byte. Matches every SGB peak measured on
 * the H200 to the byte (bench/gb_peak_h200.csv), and the GFUR joins' peaks
 * (tests/test_model.c). */
static double cub_sort_scratch(double n, int kb, int vb, int bits)
{
    const int dom = kb > vb ? kb : vb;
    if (n <= 256 * (dom > 4 ? 9 : 19)) return 1;
    const double tile = 384 * (kb == 4 ? (vb < 8 ? 23 : 15) : (vb < 8 ? 15 : 12));
    const double portion = floor((ldexp(1, 28) - 1) / tile) * tile;
    const double portions = ceil(n / portion), passes = ceil(bits / 8.0);
    return round256(portions * passes * 256 * 4) + ceil(fmin(n, portion) / tile) * 256 * 4 +
           (passes > 1 ? round256(n * kb) + round256(n * vb) : 0) + round256(portions * passes * 4) + 255;
}


/* Bytes held and the most held, as operators/join_api.cu's Mem counts them
 * (its allocations, the output included, the inputs not; groupby_peak
 * counts the group-bys the same way); tmp: CUB's scratch, kept between
 * the joins' sorts and grown by a free and an allocation. */
typedef struct {
    double now, peak, tmp;
} memsim;

static void ms_alloc(memsim *m, double b)
{
    m->now += b;
    if (m->now > m->peak) m->peak = m->now;
}
static void ms_free(memsim *m, double b) { m->now -= b; }
/* a transient allocation: held, then released */
static void ms_touch(memsim *m, double b)
{
    ms_alloc(m, b);
    ms_free(m, b);
}
static void ms_tmp(memsim *m, double need)
{
    if (need <= m->tmp) return;
    ms_free(m, m->tmp);
    ms_alloc(m, need);
    m->tmp = need;
}
/* CUB's radix sort of n (key, value) pairs on `bits` bits into separate
 * outputs, its scratch kept for the next sort */
static void ms_cub_sort(memsim *m, double n, int kb, int vb, int bits)
{
    ms_tmp(m, cub_sort_scratch(n, kb, vb, bits));
}
/* the own partition's per-tile histograms (768 x 10 tiles: 1 KB each, the
 * tiles rounded up to 8) and its two tile counters */
static double part_hist(double n) { return ceil(n / 7680 / 8) * 8 * 1024 + 8; }

/* One GFTR group of n rows moved with the key (transform_cols): its column,
 * then the scratch of the sort gftr_sort chooses. half (S's groups; 0 for
 * R's): S's own two-pass partition goes through a scratch of its larger
 * half from GJ_PART_HALF_MIN_ROWS rows (operators/join_api.cu
 * part_halves), this fraction of its rows (join_peak: s_half). */
static void ms_group(memsim *m, gj_impl impl, double n, int kb, int pb, int vb, int bits, int kbits, double hot,
                     double half)
{
    const int pair = pb == 4 && vb == 8;
    const int b = impl == GJ_IMPL_SMJ_TR ? kbits : bits;
    int t = 0;
    const int how = gftr_sort(impl, n, pb, vb, b, kbits, hot, half > 0, &t);
    ms_alloc(m, n * vb);
    if (how == GROUP_OWN || how == GROUP_MSD) {
        /* the own partition into the group's column (the MSD sort's on its
         * top t bits, then sorted there, after releasing CUB's scratch):
         * two passes through a scratch of n rows, or about half (S's) */
        const int pbits = how == GROUP_MSD ? t : b, halves = s_halves(half > 0, pair, pbits, n);
        const double scratch = pbits <= 8 ? 0 : halves ? ceil(n * half) : n;
        if (how == GROUP_MSD) {
            ms_free(m, m->tmp);
            m->tmp = 0;
        }
        ms_touch(m, scratch * (kb + 8) + part_hist(n));
        /* then msd_hot's scratch: at most half the rows, or the largest
         * partition, the hot key's and its share of the rest */
        if (how == GROUP_MSD && halves) ms_touch(m, fmin(n, hot + ldexp(n, -pbits)) * (kb + 8));
    } else {
        if (pair) ms_alloc(m, n * 8); /* the packed copy */
        ms_cub_sort(m, n, kb, vb, b);
        if (pair) ms_free(m, n * 8);
    }
}

/* transform_side: the keys, then GFTR's first group or GFUR's row ids
 * (sorted from an iota by CUB). Returns the bytes the side keeps beside
 * its keys. */
static double ms_side(memsim *m, gj_impl impl, int tr, double n, int kb, int pb, int p, int bits, int kbits,
                      double hot, double half)
{
    ms_alloc(m, n * kb);
    if (tr && p) {
        const int vb = gftr_group_bytes(p, pb, 0);
        ms_group(m, impl, n, kb, pb, vb, bits, kbits, hot, half);
        return n * vb;
    }
    ms_alloc(m, n * 8); /* iota, ids */
    ms_cub_sort(m, n, kb, 4, bits);
    ms_free(m, n * (tr ? 8 : 4));
    return tr ? 0 : n * 4;
}

/* GFTR's remaining groups of a side (transform_rest); returns their bytes */
static double ms_rest(memsim *m, gj_impl impl, double n, int kb, int pb, int p, int bits, int kbits, double hot,
                      double half)
{
    double held = 0;
    for (int i = 1, vb; (vb = gftr_group_bytes(p, pb, i)) > 0; i++) {
        ms_group(m, impl, n, kb, pb, vb, bits, kbits, hot, half);
        held += n * vb;
    }
    return held;
}

/* Does PHJ take its sparse probe (operators/join_api.cu phj_sparse)? A
 * build side of at most GJ_PHJ_SPARSE_R rows without repeated keys (no
 * output row count given: primary-foreign-key), a probe side of at least
 * GJ_PHJ_SPARSE_MIN_S rows and at most S / GJ_PHJ_SPARSE_DIV matches,
 * spread over the blocks so that none gathers more than GJ_PHJ_SPARSE_BUF
 * (GJ_PHJ_SPARSE_FILL of the buffers' room: operators/shapes.h
 * gj_phj_sparse_takes): as many blocks of GJ_PHJ_SPARSE_THREADS as an
 * SM's shared memory holds with a table of 2^ceil(log2 1.5|R|) slots (at
 * least 4096) of a key and a row each, and the buffers. The operator makes the same
 * test with the workload's expected output rows (gj_join_exec_w) and skips
 * the pass where it fails. */
static int phj_sparse(gj_impl impl, const gj_workload *w, const gj_hw *hw, double R, double S, double M)
{
    if ((impl != GJ_IMPL_PHJ_UR && impl != GJ_IMPL_PHJ_TR) || w->out_rows) return 0;
    const double smem = pow2_at_least(fmax(4096, 1.5 * R)) * (w->key_bytes + 4) + 8.0 * GJ_PHJ_SPARSE_BUF + 64;
    const double per_sm = fmax(1, fmin(2048 / GJ_PHJ_SPARSE_THREADS, floor(hw->l1_bytes * 0.9 / smem)));
    return gj_phj_sparse_takes(R, S, M, (int)hw->sm_count, (int)per_sm);
}

/* Peak device bytes of a join (the operator's own, output included), as
 * operators/join_api.cu allocates: the transformed sides (each side's sort
 * or partition with its scratch beside the other side's result), first[]
 * and the match's small arrays, then either the dense write (every S row
 * matched once: buffers become output columns, a side at a time) or the
 * output allocated beside what the WRITE still reads. NPHJ: its table. */
static double join_peak(gj_impl impl, const gj_workload *w, double R, double S, double M, int bits, int kbits,
                        double hot_r, double hot_s, int dense, int sparse)
{
    const int kb = w->key_bytes, pb = w->payload_bytes, pr = w->r_payloads, ps = w->s_payloads;
    const int tr = impl == GJ_IMPL_PHJ_TR || impl == GJ_IMPL_SMJ_TR, multi = w->out_rows != 0;
    const int r_in_place = pr > 0 && pb == 4; /* first[] becomes R's first column */
    const double out = M * (kb + (pr + ps) * pb);
    /* S's larger half by its partition's top bit (part_halves): n / 2 and,
     * for Zipf keys, the expected excess, 0.4 standard deviations of the
     * halves' difference (each key's rows fall in one half at random: a
     * deviation of S sqrt(sum p_i^2)); W4: 0.527 S, 0.539 from its measured peak */
    const double s_half = 0.5 + (w->zipf > 0 ? 0.4 * sqrt(gj_harmonic(R, 2 * w->zipf)) / gj_harmonic(R, w->zipf) : 0);
    memsim m = {0, 0, 0};
    double r_keep = 0, table = 0;
    int s_owned = 1; /* S transformed: its keys (and GFTR's columns) become output columns */
    int r_owned = 1; /* R transformed: its keys freed after the match */
    if (sparse) { /* the matches' S rows (sel) and R rows (first[]), room for S / GJ_PHJ_SPARSE_DIV; the output */
        ms_alloc(&m, 2 * floor(S / GJ_PHJ_SPARSE_DIV) * 4);
        ms_alloc(&m, out);
        return m.peak;
    }
    if (impl == GJ_IMPL_NPHJ) {
        table = pow2_at_least(fmax(2, 2 * R)) * 2.0 * kb; /* NphjSlot: key and id, 2 kb bytes */
        ms_alloc(&m, table);
        s_owned = r_owned = 0;
    } else if ((impl == GJ_IMPL_PHJ_UR || impl == GJ_IMPL_PHJ_TR) && bits == 0) {
        s_owned = r_owned = 0; /* one partition: neither side is transformed */
    } else {
        /* SMJ leaves a side in key order as it is (operators/join_api.cu run_smj) */
        const int smj = impl == GJ_IMPL_SMJ_UR || impl == GJ_IMPL_SMJ_TR, b = smj ? kbits : bits;
        r_owned = !(smj && w->r_sorted);
        s_owned = !(smj && w->s_sorted);
        if (r_owned)
            r_keep = R * kb + ms_side(&m, impl, tr, R, kb, pb, pr, b, kbits, impl == GJ_IMPL_SMJ_TR ? hot_r : 1, 0);
        if (s_owned) ms_side(&m, impl, tr, S, kb, pb, ps, b, kbits, impl == GJ_IMPL_SMJ_TR ? hot_s : 1, s_half);
        ms_free(&m, m.tmp);
        m.tmp = 0;
    }
    ms_alloc(&m, S * 4); /* first[] */
    if (!multi) { /* no second probe: R's keys, NPHJ's table go */
        ms_free(&m, table);
        table = 0;
    }
    const int b = impl == GJ_IMPL_SMJ_TR ? kbits : bits;
    if (dense) {
        if (tr && r_owned) r_keep += ms_rest(&m, impl, R, kb, pb, pr, b, kbits, hot_r, 0);
        if (r_owned) {
            ms_free(&m, R * kb);
            r_keep -= R * kb;
        }
        /* GFUR: a side's pairs packed before its gathers, freed with it */
        const double r_pack = tr || !r_owned ? 0 : R * 8.0 * gfur_pairs(1, 1, R, M, pr, pb);
        const double s_pack = tr || !s_owned ? 0 : S * 8.0 * gfur_pairs(1, 1, S, M, ps, pb);
        ms_alloc(&m, r_pack);
        ms_alloc(&m, M * pb * (pr - r_in_place));
        if (s_owned) { /* a side at a time */
            if (!r_in_place) ms_free(&m, S * 4);
            ms_free(&m, r_keep + r_pack);
            if (tr) ms_rest(&m, impl, S, kb, pb, ps, b, kbits, hot_s, s_half);
            ms_alloc(&m, s_pack);
            /* GFTR: packed pairs unpacked, split pairs and single
             * columns handed over; GFUR: the first 4-byte column over the
             * row ids */
            ms_alloc(&m, tr ? M * 8.0 * (gftr_pairs(ps, pb) - s_split_pairs(impl, S, pb, ps, b, kbits, hot_s))
                            : M * pb * (ps - (ps > 0 && pb == 4)));
        } else {
            ms_alloc(&m, M * (kb + ps * pb));
        }
        return m.peak;
    }
    if (tr && r_owned) ms_rest(&m, impl, R, kb, pb, pr, b, kbits, hot_r, 0);
    if (tr && s_owned) ms_rest(&m, impl, S, kb, pb, ps, b, kbits, hot_s, s_half);
    if (!multi && r_owned) ms_free(&m, R * kb);
    ms_alloc(&m, out);
    return m.peak;
}

/* ---- a join's host work: launches, allocations, read-backs ------------- */

/* What one side's transform asks of the host (operators/join_api.cu
 * transform_side, transform_cols; s: the side is S, whose pairs the own
 * partition leaves split, two columns each): GFTR's groups g0 to g1 - 1 (the first
 * in the transform phase, the rest in the materialize phase), or GFUR's
 * row ids (sorted by CUB from an iota, with g0 = 0), each by the own partition (b <= 16 bits:
 * a histogram, CUB's scan and a scatter a pass, its histograms, the
 * scratch pair for two passes), SMJ's MSD sort (msd_bits: a sample read
 * back, the partition, the bounds, the sizes read back, two block sorts) or
 * CUB's radix sort (a packed copy first for a pair). */
static void host_side(acc *a, gj_impl impl, double n, int pb, int p, int gftr, int b, int kbits, double hot,
                      int g0, int g1, int s)
{
    if (!gftr || !p) {
        if (g0 == 0) { /* keys, iota, ids; CUB: histogram, scan, a pass each 8 bits */
            a->allocs += 3;
            a->kernels += 1 + 2 + 2 * ((b + 7) / 8);
        }
        return;
    }
    if (g0 == 0) a->allocs += 1; /* the keys */
    for (int i = g0, vb; i < g1 && (vb = gftr_group_bytes(p, pb, i)) > 0; i++) {
        const int pair = pb == 4 && vb == 8;
        int t = 0;
        const int how = gftr_sort(impl, n, pb, vb, b, kbits, hot, s, &t);
        a->allocs += 1 + (s && pair && how == GROUP_OWN); /* the group's column(s) */
        if (how == GROUP_MSD) {
            a->allocs += 8;
            a->kernels += 4 + 2 * 4 + 5;
            a->syncs += 2;
            if (msd_hot_moved(a, how, s, pair, t, n) > 0) {
                /* msd_hot, a round of one batch on the device: the hot
                 * partitions numbered (flags, scan, select), the plan and
                 * its scan, tiles, pivots, the copy, the counts' scan, the
                 * scatter, the parts, the block sort (memsets among them);
                 * the next round's count read back */
                a->allocs += 10;
                a->kernels += 17;
                a->syncs += 1;
            }
        } else if (how == GROUP_OWN) {
            const int passes = (b + 7) / 8;
            a->allocs += 1 + (passes > 1 ? 2 : 0);
            a->kernels += 4 * passes;
        } else {
            a->allocs += pair;
            a->kernels += pair + 2 + 2 * ((b + 7) / 8);
        }
    }
}

/* The host's work of a join besides its bytes in one of its phases (0
 * transform, 1 match, 2 materialize: where operators/join_api.cu asks the
 * driver for it, between its phase marks): launches (kernels, memsets,
 * copies), allocations (each freed again) and read-backs. It replaces the
 * counts that the shared terms (partition, gather, ...) made in the phase;
 * join_model adds none. On joins of 10^5-10^7 rows it is most of the time
 * (PHJ-TR at 300270 x 2275919: about 22 launches, 20 allocations and 3
 * read-backs). */
static void join_host_work(acc *a, gj_impl impl, const gj_workload *w, int bits, int kbits, int dense,
                           int sparse, double hot_r, double hot_s, int phase)
{
    const double R = (double)w->r_rows, S = (double)w->s_rows;
    const int pb = w->payload_bytes, pr = w->r_payloads, ps = w->s_payloads;
    const int tr = impl == GJ_IMPL_PHJ_TR || impl == GJ_IMPL_SMJ_TR, multi = w->out_rows != 0;
    const int smj = impl == GJ_IMPL_SMJ_UR || impl == GJ_IMPL_SMJ_TR;
    const int r_in = smj && w->r_sorted, s_in = smj && w->s_sorted; /* SMJ leaves them as they are */
    const int b = smj ? kbits : bits;
    const int one_part = !smj && impl != GJ_IMPL_NPHJ && bits == 0;
    a->kernels = a->allocs = a->syncs = 0;
    if (sparse) {
        if (phase == 0) { /* counters, sel and the R rows; a memset */
            a->allocs += 3;
            a->kernels += 1;
        } else if (phase == 1) { /* the pass, its read-back */
            a->kernels += 2;
            a->syncs += 1;
        } else { /* the output, its write (R's columns apart) */
            a->allocs += 1 + pr + ps;
            a->kernels += 1 + (pr > 0);
        }
        return;
    }
    if (phase == 0) {
        if (impl == GJ_IMPL_NPHJ) { /* the table, its memset, the build */
            a->allocs += 1;
            a->kernels += 2;
        } else if (!one_part) {
            if (smj) { /* the keys' smallest and largest (and order), read back */
                a->allocs += 1;
                a->kernels += 4;
                a->syncs += 1;
            }
            if (!r_in) host_side(a, impl, R, pb, pr, tr, b, kbits, smj ? hot_r : 1, 0, 1, 0);
            if (!smj && S >= R) { /* R's partitions' sizes checked for skew, read back */
                a->allocs += 2;
                a->kernels += 4;
                a->syncs += 1;
            }
            if (!s_in) host_side(a, impl, S, pb, ps, tr, b, kbits, smj ? hot_s : 1, 0, 1, 1);
        }
    } else if (phase == 1) {
        if (impl == GJ_IMPL_NPHJ) {
            a->allocs += 3;  /* counts, flags, first[] */
            a->kernels += 5; /* memset, COUNT, CUB's scan, the read-back */
            a->syncs += 1;
        } else if (one_part) {
            a->allocs += 6;  /* bounds, items, counts, flags, first[] */
            a->kernels += 6; /* one launch for the bounds, memset, COUNT, scan, read-back */
            a->syncs += 1;
        } else if (smj) {
            a->allocs += 4;  /* counts, flags, first[], windows */
            a->kernels += 6; /* memset, co-ranks, COUNT, scan, read-back */
            a->syncs += 1;
        } else {
            a->allocs += 7;   /* bounds x 2, items, counts, flags, first[], item map */
            a->kernels += 14; /* bounds x 2, items, scan, read-back, item map, COUNT, scan, read-back */
            a->syncs += 2;
        }
    } else {
        const int s_transformed = impl != GJ_IMPL_NPHJ && !one_part && !s_in;
        if (tr && !one_part) { /* the remaining GFTR groups */
            if (!r_in) host_side(a, impl, R, pb, pr, tr, b, kbits, hot_r, 1, GJ_MAX_PAYLOADS, 0);
            if (!s_in) host_side(a, impl, S, pb, ps, tr, b, kbits, hot_s, 1, GJ_MAX_PAYLOADS, 1);
        }
        /* the output: the dense write's launches and new columns, or every
         * column and the compacting WRITE (and the table's WRITE when S
         * rows match several times) */
        if (dense) {
            const int r_new = pr - (pr > 0 && pb == 4);
            int s_new = s_transformed ? 0 : 1 + ps; /* untransformed S: key and columns copied */
            if (s_transformed && tr)
                s_new = 2 * (gftr_pairs(ps, pb) - s_split_pairs(impl, S, pb, ps, b, kbits, hot_s));
            else if (s_transformed)
                s_new = ps - (ps > 0 && pb == 4);
            /* GFUR: each side's pairs packed (an allocation and a launch) */
            const int packs = !tr && !one_part && !r_in && impl != GJ_IMPL_NPHJ && gfur_pairs(1, 1, R, S, pr, pb) > 0;
            const int packs_s = !tr && s_transformed && gfur_pairs(1, 1, S, S, ps, pb) > 0;
            a->allocs += r_new + s_new + packs + packs_s;
            /* R's launch, then S's unless it has nothing to write (split
             * pairs, keys not hashed) */
            a->kernels += (s_transformed && (s_new || !tr) ? 2 : 1) + packs + packs_s;
        } else {
            a->allocs += 1 + pr + ps;
            a->kernels += 1 + multi;
        }
    }
}

/* S's average run of equal keys in its row order: w->s_run when given;
 * else, S in key order (w->s_sorted), |S| over its distinct keys, taken to
 * be foreign keys drawn uniformly from R's |R| keys (as the generator's:
 * |R| (1 - e^(-|S|/|R|)) of them). Real probe sides also hold keys R does
 * not (TPC-H's lineitem: runs of 4 against a filtered orders): s_run says
 * so. */
static double s_run_eff(const gj_workload *w)
{
    if (w->s_run > 1 || !w->s_sorted || !w->r_rows || !w->s_rows) return fmax(1, w->s_run);
    const double R = (double)w->r_rows, S = (double)w->s_rows;
    return fmax(1, S / fmax(1, R * -expm1(-S / R)));
}

/* S's average run of equal keys in key order (SMJ's merge order): its
 * rows over its distinct keys, foreign keys drawn uniformly from a domain
 * of D keys (|R|; many-to-many: |R||S|/out) having D (1 - e^(-|S|/D)) of
 * them, or S's runs in its own order if longer. */
static double key_run(const gj_workload *w)
{
    const double R = (double)w->r_rows, S = (double)w->s_rows;
    if (R <= 0 || S <= 0) return s_run_eff(w);
    const double D = w->out_rows ? fmax(1, R * S / (double)w->out_rows) : R;
    return fmax(s_run_eff(w), S / fmax(1, D * -expm1(-S / D)));
}

/* ---- the semi-join filter (operators/join_api.cu key_filter) ----------- */

/* R's key range as the generator draws it (the operator reads it: R's min
 * and max): R's rows, twice that below match ratio 1 (the unmatched keys
 * lie above them; join_key_bits' domain) */
static double filter_span(const gj_workload *w)
{
    return (double)w->r_rows * (w->match_ratio < 1 ? 2 : 1);
}

/* The workload of w's sides as the semi-join filter cuts them: S's
 * matching rows (match ratio 1) and R's rows whose keys those hold: of R's
 * kept keys (the match ratio's share, at random among the ranks), those
 * that S's rows drew. */
static void cut_workload(const gj_workload *w, gj_workload *cut)
{
    const double R = (double)w->r_rows, S = (double)w->s_rows, rho = w->match_ratio;
    *cut = *w;
    cut->s_rows = (uint64_t)fmax(1, llround(rho * S));
    cut->r_rows = (uint64_t)fmax(1, llround(rho * gj_distinct_drawn(R, S, w->zipf)));
    cut->match_ratio = rho > 0 ? 1 : 0;
}

/* How the model treats the filter on w (operators/shapes.h): FILTER_NO
 * (off, many-to-many, which it does not cut yet, a span beyond the
 * bitmap's), FILTER_YES (on: the hint or GJ_JOIN_FILTER), FILTER_BEST
 * (auto, in the range the filter was measured in, the rule's: match ratio
 * at most 1/2, 2^20 rows a side or more: the faster of the two) */
enum { FILTER_NO, FILTER_YES, FILTER_BEST };
static int filter_mode(const gj_workload *w)
{
    const int env = gj_join_filter_env();
    if (env < 0 || w->filter == GJ_FILTER_OFF || w->out_rows || w->r_rows < 1 || w->s_rows < 1 ||
        filter_span(w) > (double)GJ_JOIN_FILTER_MAX_SPAN)
        return FILTER_NO;
    if (env > 0 || w->filter == GJ_FILTER_ON) return FILTER_YES;
    return w->match_ratio <= GJ_JOIN_FILTER_MAX_RATIO && w->r_rows >= GJ_JOIN_FILTER_MIN_ROWS &&
                   w->s_rows >= GJ_JOIN_FILTER_MIN_ROWS
               ? FILTER_BEST
               : FILTER_NO;
}

int gj_join_filter_weighed(const gj_workload *w)
{
    return w && w->op == GJ_OP_JOIN && filter_mode(w) == FILTER_BEST;
}

void gj_join_cut_rows(const gj_workload *w, uint64_t *r_rows, uint64_t *s_rows)
{
    gj_workload cut;
    cut_workload(w, &cut);
    if (r_rows) *r_rows = cut.r_rows;
    if (s_rows) *s_rows = cut.s_rows;
}

void gj_workload_pin_filter(gj_workload *w, const gj_estimate *e)
{
    if (w && e && w->op == GJ_OP_JOIN && w->filter == GJ_FILTER_AUTO)
        w->filter = e->filtered ? GJ_FILTER_ON : GJ_FILTER_OFF;
}

int gj_join_filter_plan(gj_impl impl, const gj_workload *w, const gj_profile *p, uint64_t *r_rows,
                        uint64_t *s_rows)
{
    int on;
    if (!w || w->op != GJ_OP_JOIN || gj_impl_op(impl) != GJ_OP_JOIN || gj_workload_check(w, NULL) != GJ_OK ||
        filter_mode(w) == FILTER_NO)
        return 0;
    if (p) {
        gj_estimate e;
        on = gj_profile_estimate(impl, w, p, &e, NULL) == GJ_OK && e.filtered;
    } else {
        const int smj = impl == GJ_IMPL_SMJ_UR || impl == GJ_IMPL_SMJ_TR;
        on = gj_join_filter_takes((double)w->r_rows, (double)w->s_rows, w->match_ratio, 1,
                                  smj && w->r_sorted && w->s_sorted, w->filter);
    }
    if (on) gj_join_cut_rows(w, r_rows, s_rows);
    return on;
}

/* The key bitmap's bytes */
static double filter_bitmap(const gj_workload *w) { return ceil(filter_span(w) / 32) * 4; }

/* The filter's work, charged to the transform phase: R's min and max; two
 * bitmaps cleared, R's keys set in the first (an atomic OR a key); S's
 * keys probed (a random 4-byte read of the bitmap, a mask bit a row), the
 * matching ones set in the second; S's matching rows copied out (every
 * column read, the cut written); R's rows probed against the second
 * bitmap and cut the same way. The probes run at the L2's random rate for
 * the share of the bitmap the L2 holds, B_R for the rest. */
static void filter_terms(acc *a, const gj_workload *w, const gj_workload *cut)
{
    const gj_hw *hw = a->hw;
    const int kb = w->key_bytes;
    const double R = (double)w->r_rows, S = (double)w->s_rows, Rc = (double)cut->r_rows,
                 Sc = (double)cut->s_rows, bm = filter_bitmap(w);
    const double rrow = kb + w->r_payloads * w->payload_bytes, srow = kb + w->s_payloads * w->payload_bytes;
    /* the bitmap is the only random target, beside streams read once:
     * the whole L2 holds it (as NPHJ's build, above) */
    const double h = fmin(1, hw->l2_bytes / bm);
    const double atom = atom_rate(hw, bm / 4);
    /* a probe is a lone 4-byte read of a random word: the L2's random
     * access rate (bw_l2_rand; H100, W2: 2^27 probes a side in 1.09 ms,
     * 123 G/s, the L2 at 99% of its throughput, ncu), not the gathers'
     * from an L2-resident column (bw_rand_l2, whose warps read 32 words
     * at once) */
    const double l2_probe = hw->bw_l2_rand > 0 ? hw->bw_l2_rand : hw->bw_rand_l2;
    /* the share of a small bitmap half of each SM's L1 holds is probed there
     * (join-small-build's 2^20 R keys: 256 KB against 228 KB of L1; its
     * transform was over-predicted by 0.3 ms at the L2's rate) */
    const double h1 = fmin(h, hw->l1_bytes / 2 / bm);
    /* a side in key order (or in runs of a key) sets and probes the same
     * words warp after warp: a warp's 32 keys touch about 32 / run words
     * (sorted: S's keys span R's densely, a word or two) */
    const double r_words = w->r_sorted ? 1.0 / 16 : 1, s_words = w->s_sorted ? 1.0 / 16 : 1 / fmin(32, s_run_eff(w));
    seq(a, "R's min and max; the key bitmaps cleared", R * kb + 2 * bm);
    seq(a, "R's keys to set in the bitmap", R * kb);
    term(a, GJ_TERM_ATOMIC, "keys set in the key bitmap (an atomic OR each)",
         (R * r_words + Sc * s_words) * (h / (atom * GB) + (1 - h) / (fmin(atom, hw->bw_rand / 4) * GB)), 0);
    seq(a, "keys probed (a mask bit each)", (S + R) * (kb + 1.0 / 8));
    term(a, GJ_TERM_GATHER, "probes of the key bitmap",
         (S * s_words + R * r_words) * 4 *
             (h1 / (hw->bw_l1_rand * GB) + (h - h1) / (l2_probe * GB) + (1 - h) / (hw->bw_rand * GB)),
         0);
    seq(a, "matching rows cut out", (S + R) / 8 + (S + Sc) * srow + (R + Rc) * rrow);
    a->kernels += 12;
    a->allocs += 6 + 2 + w->r_payloads + w->s_payloads;
    a->syncs += 3;
}

/* A join's first phase: the filter's work where it cut the sides */
static void begin_transform(acc *a, const gj_workload *w)
{
    begin(a, "transform");
    if (a->uncut) filter_terms(a, a->uncut, w);
}

/* finish() for a join modelled on w, `in` its sides' bytes and `own` its
 * own allocations: cut by the filter, the floor is the uncut join's and
 * the cut sides are held beside the rest (the filter's two bitmaps and
 * a side's mask while it cuts) */
static void join_finish(acc *a, double floor_bytes, double in, double own)
{
    const gj_workload *u = a->uncut;
    if (u) {
        const double kb = u->key_bytes, pb = u->payload_bytes, M = (double)gj_workload_out_rows(u);
        const double uin = u->r_rows * (kb + u->r_payloads * pb) + u->s_rows * (kb + u->s_payloads * pb);
        own = in + fmax(own, 2 * filter_bitmap(u) + fmax(u->r_rows, u->s_rows) / 8.0);
        floor_bytes = uin + M * (kb + (u->r_payloads + u->s_payloads) * pb);
        in = uin;
    }
    finish(a, floor_bytes, in + own);
}

static void join_model_sides(gj_impl impl, const gj_workload *w, acc *a);

/* A join: on the sides as given, or cut by the semi-join filter */
static void join_model(gj_impl impl, const gj_workload *w, acc *a)
{
    gj_workload cut;
    a->uncut = NULL;
    if (a->cut) {
        cut_workload(w, &cut);
        a->uncut = w;
        w = &cut;
    }
    join_model_sides(impl, w, a);
}

static void join_model_sides(gj_impl impl, const gj_workload *w, acc *a)
{
    const gj_hw *hw = a->hw;
    const double R = (double)w->r_rows, S = (double)w->s_rows, M = (double)gj_workload_out_rows(w);
    const int kb = w->key_bytes, pb = w->payload_bytes, pr = w->r_payloads, ps = w->s_payloads;
    const double in = R * (kb + pr * pb) + S * (kb + ps * pb);
    const double out = M * (kb + (pr + ps) * pb);
    const int tr = impl == GJ_IMPL_PHJ_TR || impl == GJ_IMPL_SMJ_TR, multi = w->out_rows != 0;
    /* GFTR transforms (key, first payload group) pairs; GFUR (key, 4-byte id). */
    const int rv = tr && pr ? gftr_group_bytes(pr, pb, 0) : 4, sv = tr && ps ? gftr_group_bytes(ps, pb, 0) : 4;
    const int bits = partition_bits(R), kbits = join_key_bits(w);
    /* every S row matches exactly one R row (primary-foreign-key at match
     * ratio 1): the operators write the output without compaction
     * (operators/join_api.cu write_dense) */
    const int dense = !w->out_rows && M >= S;
    /* rows of the most frequent key: S's Zipf rank 1, else even shares */
    const double dom = w->out_rows ? fmax(1, floor(R * S / M)) : R;
    const double hot_r = fmax(1, R / dom);
    const double hot_s = w->zipf > 0 ? S / gj_harmonic(R, w->zipf) : fmax(1, S / dom);
    a->zipf = w->zipf;
    a->zdom = R;

    /* NPHJ (cuDF-style): R into a global table of 2^ceil(log2 2|R|) slots
     * (operators/join_api.cu run_nphj: a key and its id in one slot of 2 kb
     * bytes), probed with S. calibrate measures the slot layout (ht_slot_*);
     * profiles from before it was measured: the two-array rates. */
    const double table = pow2_at_least(fmax(2, 2 * R)) * 2.0 * kb;
    const double sp2 = hw->ht_slot_probe_l2 > 0 ? hw->ht_slot_probe_l2 : hw->ht_probe_l2,
                 sph = hw->ht_slot_probe_hbm > 0 ? hw->ht_slot_probe_hbm : hw->ht_probe_hbm;
    const int sparse = phj_sparse(impl, w, hw, R, S, M);

    if (sparse) {
        /* PHJ's sparse probe: no transform; S's keys read once against a
         * table per block (built from R's keys in the L2), the matches
         * buffered and written (an S row, an R row); then the output's
         * gathers: R's columns by first[], S's key and columns at the
         * matched rows (sel, by block: scattered over S) */
        begin_transform(a, w);
        join_host_work(a, impl, w, 0, kbits, 0, 1, hot_r, hot_s, 0);
        begin(a, "match");
        /* a probe costs as a random shared-memory access of a sector (H200,
         * session 12: 285-357 G probes/s at |R| = 624..4096, 4-byte keys,
         * tables at load 0.15-0.5; bw_l1_rand / 32 gives 295), and the
         * keys' stream overlaps it */
        const double sec = S * kb / (hw->bw_seq * GB), onchip = S / (hw->bw_l1_rand / 32 * GB);
        term(a, sec >= onchip ? GJ_TERM_SEQ : GJ_TERM_HASH, "read S's keys, probe the table", MAXF(sec, onchip),
             S * kb);
        seq(a, "matches (S row, R row)", M * 12.0);
        join_host_work(a, impl, w, 0, kbits, 0, 1, hot_r, hot_s, 1);
        begin(a, "materialize");
        if (pr) gather_ws(a, "gathers of R columns", M * pr, pb, R, 32, w->zipf, R * pr * pb);
        gather(a, "gathers of S keys", M, kb, S, 32, 0);
        if (ps) gather_ws(a, "gathers of S columns", M * ps, pb, S, 32, 0, S * ps * pb);
        join_host_work(a, impl, w, 0, kbits, 0, 1, hot_r, hot_s, 2);
        overheads(a);
        join_finish(a, in + out, in, join_peak(impl, w, R, S, M, 0, kbits, hot_r, hot_s, 0, 1));
        return;
    }

    begin_transform(a, w);
    if (impl == GJ_IMPL_NPHJ) {
        /* the build, timed before the operator's first mark: the table
         * cleared, R's keys read and inserted; the share of the table the
         * L2 holds at the L2 rate, the rest at the HBM rate (no hard edge
         * at the L2's size). The whole L2, not half as for the probes: the
         * build's only other traffic is R's keys, streamed once (H200,
         * validate grid v29: 2^23 R rows built at 14.5 G inserts/s, 2^25 at
         * 10.4, calibrate's 1 GB table 7.6; with half the L2 the model gave
         * 9.0 and 7.9, and NPHJ's held-out median error went 7.4% -> 5.2%
         * with the whole). An insert is a CAS on its slot: kind atomic, so
         * that tune scales the inserts apart from the probes. */
        const double sb2 = hw->ht_slot_build_l2 > 0 ? hw->ht_slot_build_l2 : hw->ht_build_l2,
                     sbh = hw->ht_slot_build_hbm > 0 ? hw->ht_slot_build_hbm : hw->ht_build_hbm;
        seq(a, "clear the table, read R's keys", table + R * kb);
        term(a, GJ_TERM_ATOMIC, "hash-table inserts (a CAS a row)", R / (l2_blend(hw, sb2, sbh, table / 2) * GB), 0);
    } else if ((impl == GJ_IMPL_PHJ_UR || impl == GJ_IMPL_PHJ_TR) && bits > 0) {
        if (tr && pr) gftr_group(a, "partition R (key, first column)", impl, R, kb, pb, rv, bits, kbits, 1, 0);
        else partition(a, "partition R (key, row id)", R, kb, 4, bits, 0, 0);
        if (tr && ps) gftr_group(a, "partition S (key, first column)", impl, S, kb, pb, sv, bits, kbits, 1, 1);
        else partition(a, "partition S (key, row id)", S, kb, 4, bits, 0, 0);
    } else if (impl == GJ_IMPL_SMJ_UR || impl == GJ_IMPL_SMJ_TR) {
        /* the smallest and largest key first: the bits to sort; the same
         * pass sees a side in key order (w->r_sorted, w->s_sorted), which
         * is then left as it is */
        seq(a, "min and max of the keys", (R + S) * kb);
        if (w->r_sorted) {
        } else if (tr && pr) gftr_group(a, "sort R (key, first column)", impl, R, kb, pb, rv, bits, kbits, hot_r, 0);
        else sort_bits(a, "sort R (key, row id)", R, kb, 4, kbits);
        if (w->s_sorted) {
        } else if (tr && ps) gftr_group(a, "sort S (key, first column)", impl, S, kb, pb, sv, bits, kbits, hot_s, 1);
        else sort_bits(a, "sort S (key, row id)", S, kb, 4, kbits);
    }

    join_host_work(a, impl, w, bits, kbits, dense, sparse, hot_r, hot_s, 0);
    begin(a, "match");
    if (impl == GJ_IMPL_NPHJ) {
        seq(a, "read S's keys", S * kb);
        /* A probe reads a slot, one 32-byte sector: a cache level holding C
         * bytes keeps the C/32 hottest keys (Zipf) or, uniformly, its share
         * C/table of the slots. Probes are read-only (__ldg): hot keys are
         * served by the L1 of every SM (one 8-byte access at the on-chip
         * random rate), then L2, then HBM. */
        double h1 = table <= hw->l1_bytes / 2 ? 1 : gj_hit_fraction(R, hw->l1_bytes / 2 / 32, w->zipf);
        /* S's rows in runs of equal keys (w->s_run, or S in key order): a run's probes after
         * its first find the slot in the L1 */
        h1 = fmax(h1, 1 - 1 / s_run_eff(w));
        double h2 = fmax(h1, fmax(fmin(1, hw->l2_bytes / 2 / table),
                                  gj_hit_fraction(R, hw->l2_bytes / 2 / 32, w->zipf)));
        term(a, GJ_TERM_HASH, "hash-table probes",
             S * (h1 / (hw->bw_l1_rand / 8 * GB) + (h2 - h1) / (sp2 * GB) + (1 - h2) / (sph * GB)),
             0);
        /* the COUNT pass writes each S row's first match (the WRITE, in
         * the materialize phase, reads it back) */
        seq(a, "first matches written", S * 4.0);
    } else {
        /* Co-partitions / merge path, the COUNT pass: transformed keys read
         * once, each S row's first match written (the WRITE, in the
         * materialize phase, reads it back); the shared-memory hash tables
         * work at the on-chip random rate and overlap with the streaming. */
        double stream = (R + S) * kb + S * 4.0;
        double onchip = (impl == GJ_IMPL_PHJ_UR || impl == GJ_IMPL_PHJ_TR)
                            ? (R + S) * (kb + 4) / (hw->bw_l1_rand * GB)
                            : 0;
        if (impl == GJ_IMPL_SMJ_UR || impl == GJ_IMPL_SMJ_TR) {
            if (w->out_rows) stream += S * kb; /* many-to-many: lower and upper bound */
            /* each S row gallops into its tile's R window: a 32-byte sector
             * of R's keys a row from the L1, at its random rate (H200,
             * session 11: the match took 1.35 ms on W1 and 0.32 on TPC-H
             * Q5's lineitem join, 60 M S rows; beyond the bytes at B_G
             * both are 3.5 ps an S row, bw_l1_rand / 32 gives 3.4). Kind
             * hash: tune scales it apart from the streams. */
            term(a, GJ_TERM_HASH, "merge searches (a sector of R's keys a row, L1)",
                 S / (hw->bw_l1_rand / 32 * GB), 0);
        }
        double sec = stream / (hw->bw_seq * GB);
        term(a, sec >= onchip ? GJ_TERM_SEQ : GJ_TERM_HASH, "read transformed keys, write first matches",
             MAXF(sec, onchip), stream);
        if (impl == GJ_IMPL_PHJ_UR || impl == GJ_IMPL_PHJ_TR) {
            /* One block per work item, a (4096-row R chunk, 16384-row S
             * chunk) pair of a partition; each clears its table, loads its
             * R chunk, inserts it, synchronises and then probes: a chain of
             * dependent latencies besides its bytes, about a launch latency
             * an item, four blocks an SM at a time. H200, grid v39: the
             * COUNT pass of 2^22..2^27-row joins (2048..65536 items of 2048
             * x 2048 rows) took the phase's host work plus its bytes at B_G
             * plus 6.6 ns an item (3.5 us at 528 blocks; launch_us 3.69). */
            double parts = ldexp(1, bits);
            double items = parts * ceil(R / parts / 4096) * ceil(S / parts / 16384);
            term(a, GJ_TERM_FIXED, "work items (a chain of latencies each)",
                 items * hw->launch_us * 1e-6 / fmax(4 * hw->sm_count, 1), 0);
        }
    }

    join_host_work(a, impl, w, bits, kbits, dense, sparse, hot_r, hot_s, 1);
    begin(a, "materialize");
    /* the WRITE: each S row's first match and key read, the output's keys
     * written (many-to-many: S's keys probed again); the dense write
     * instead reads first[] with R's columns (below) */
    if (!dense)
        seq(a, "compact the matches (first[], S's keys; output keys)", S * (4.0 + kb) * (multi ? 2 : 1) + M * kb);
    if (tr) {
        /* GFTR: transform the remaining column groups with the key, then
         * gather with clustered positions (Sec. 4.1.2; the paper moves one
         * column at a time, the code two 4-byte columns at once). */
        const int smj = impl == GJ_IMPL_SMJ_TR;
        for (int side = 0; side < 2; side++) {
            const double n = side ? S : R;
            const int p = side ? ps : pr;
            if (smj && (side ? w->s_sorted : w->r_sorted)) continue; /* left as it is */
            for (int i = 1, vb; (vb = gftr_group_bytes(p, pb, i)) > 0; i++) {
                gftr_group(a, impl == GJ_IMPL_SMJ_TR ? "sort payload columns with the key"
                                                     : "partition payload columns with the key",
                           impl, n, kb, pb, vb, bits, kbits, side ? hot_s : hot_r, side);
            }
        }
        if (dense) {
            /* R's columns through first[] (read once); S's transformed
             * columns are output columns, a packed pair unpacked (8 bytes
             * read, 8 written) unless the partition left it split, S's
             * sorted keys the output keys; a PHJ without partitions copies
             * S's key and columns */
            const int s_copied = (impl == GJ_IMPL_PHJ_TR && bits == 0) || (smj && w->s_sorted);
            const int unpacked = gftr_pairs(ps, pb) - s_split_pairs(impl, S, pb, ps, smj ? kbits : bits, kbits, hot_s);
            const double s_bytes = s_copied ? M * 2.0 * (kb + ps * pb) : M * 16.0 * unpacked;
            if (pr) seq(a, "R columns through first[]", M * (4.0 + 2.0 * pr * pb));
            if (s_bytes) seq(a, "S columns unpacked or copied", s_bytes);
        } else if (pr + ps) {
            gather_clustered(a, "clustered gathers", M * (pr + ps), pb);
            sparse_probe_reads(a, S, M, kb, pb, ps);
        }
    } else {
        /* GFUR: ids from transformed (PHJ-UR, SMJ-UR) or, for NPHJ and a
         * PHJ without partitions (R in one table: neither side is
         * transformed), the probe side's ids in order: S gathers are
         * clustered there. */
        /* in probe order (NPHJ; PHJ-UR's partitions keep S's order), S's
         * runs of equal keys read the same R row: 32 / run lines a warp */
        const int probe_order = impl == GJ_IMPL_NPHJ || impl == GJ_IMPL_PHJ_UR;
        /* SMJ-UR's output comes in key order: S's rows of one key read the
         * same R row (v35 grid: with S in key order at match ratio 1, 4 rows
         * a key, SMJ-UR was predicted 53% over at 32 lines a warp) */
        const int smj = impl == GJ_IMPL_SMJ_UR;
        const double u = fmax(1, 32 / (probe_order ? s_run_eff(w) : smj ? key_run(w) : 1));
        /* SMJ-UR with a side in key order (left as it is): its rows come in
         * the merge's order, its gathers clustered */
        const int ids = impl != GJ_IMPL_NPHJ && !(impl == GJ_IMPL_PHJ_UR && bits == 0); /* sides with row ids */
        if (pr && smj && w->r_sorted) {
            gather_clustered(a, "gathers of R columns (in key order)", M * pr, pb);
        } else if (pr) {
            const int rp = gfur_pairs(dense, ids, R, M, pr, pb);
            if (rp) {
                seq(a, "pack R's payload pairs", R * 16.0 * rp);
                gather_ws(a, "random gathers of R column pairs", M * rp, 8, R, u, w->zipf, R * pr * pb);
            }
            if (pr > 2 * rp)
                gather_ws(a, "random gathers of R columns", M * (pr - 2 * rp), pb, R, u, w->zipf, R * pr * pb);
        }
        if (ps) {
            if (impl == GJ_IMPL_NPHJ || (impl == GJ_IMPL_PHJ_UR && bits == 0) || (smj && w->s_sorted)) {
                gather_clustered(a, "gathers of S columns (in probe order)", M * ps, pb);
            } else { /* PHJ-UR's partition keeps S's runs of a key together (S in key order) */
                const double us = impl == GJ_IMPL_PHJ_UR && w->s_sorted ? run_lines(s_run_eff(w), pb) : 32;
                const int sp = gfur_pairs(dense, 1, S, M, ps, pb);
                if (sp) {
                    seq(a, "pack S's payload pairs", S * 16.0 * sp);
                    gather_ws(a, "random gathers of S column pairs", M * sp, 8, S,
                              impl == GJ_IMPL_PHJ_UR && w->s_sorted ? run_lines(s_run_eff(w), 8) : 32, 0,
                              S * ps * pb);
                }
                if (ps > 2 * sp)
                    gather_ws(a, "random gathers of S columns", M * (ps - 2 * sp), pb, S, us, 0, S * ps * pb);
            }
        }
    }
    join_host_work(a, impl, w, bits, kbits, dense, sparse, hot_r, hot_s, 2);
    overheads(a);
    join_finish(a, in + out, in, join_peak(impl, w, R, S, M, bits, kbits, hot_r, hot_s, dense, sparse));
}

/* ---- group-bys (T-GB-*) -------------------------------------------------- */

static int agg_reads_column(gj_agg g) { return g != GJ_AGG_COUNT; }

int gj_impl_supports_aggs(gj_impl impl, const gj_workload *w)
{
    if (impl == GJ_IMPL_SGB_UR || impl == GJ_IMPL_SGB_TR || impl == GJ_IMPL_SGB_DE_TR) return 1;
    for (int i = 0; i < w->n_aggs; i++)
        if (w->aggs[i] == GJ_AGG_COUNT_DISTINCT || w->aggs[i] == GJ_AGG_MEDIAN) return 0;
    return 1;
}

int gj_impl_sorts_output(gj_impl impl)
{
    return impl == GJ_IMPL_SGB_UR || impl == GJ_IMPL_SGB_TR || impl == GJ_IMPL_SGB_DE_TR;
}

/* Slots of HGB's one-pass block table in `budget` bytes of shared memory
 * (operators/groupby_api.cu hgb_onepass, bytes_for and fit): the largest
 * power of two from 64 whose keys and R copies of every accumulator's
 * slots (each array 16-byte aligned, one slot more for the empty key) fit;
 * 0 if not even 64 do. */
static double onepass_slots(double budget, int kb, const double *accw, int nacc, double copies)
{
    double best = 0;
    for (double ts = 64; ts <= 1 << 20; ts *= 2) {
        double b = ceil((ts + 1) * kb / 16) * 16;
        for (int j = 0; j < nacc; j++) b += ceil((ts + 1) * copies * accw[j] / 16) * 16;
        if (b > budget) break;
        best = ts;
    }
    return best;
}

/* Expected longest of 32 lanes' linear-probing searches (probe steps) in
 * a table at load alpha: simulated (tables of 2^13 slots filled to alpha
 * with random keys, 32 keys drawn, 16000 warps each). double_hash: PGB's
 * tables (operators/groupby_kernels.cuh pgb_slot), whose probes step by an
 * odd stride of the key's own: linear probing's figures times the ratio
 * the same simulation gives the two (8000 warps; at most 1/8 the two
 * agree within its noise). */
static const double probe_loads[] = {0, 1.0 / 64, 1.0 / 32, 1.0 / 16, 1.0 / 8, 3.0 / 16, 1.0 / 4, 3.0 / 8, 1.0 / 2,
                                     5.0 / 8, 3.0 / 4};
static double probe_longest_of(double alpha, int double_hash)
{
    static const double lin[] = {1, 1.159, 1.321, 1.743, 2.042, 2.480, 2.977, 4.374, 5.965, 9.134, 18.57};
    static const double dbl[] = {1, 1.159, 1.321, 1.743, 2.042, 2.244, 2.688, 3.661, 4.349, 5.668, 9.53};
    const double *xs = probe_loads, *ys = double_hash ? dbl : lin;
    const int n = sizeof probe_loads / sizeof probe_loads[0];
    if (alpha <= 0) return 1;
    for (int i = 1; i < n; i++)
        if (alpha <= xs[i]) return ys[i - 1] + (alpha - xs[i - 1]) / (xs[i] - xs[i - 1]) * (ys[i] - ys[i - 1]);
    return ys[n - 1];
}
static double probe_longest(double alpha) { return probe_longest_of(alpha, 0); }

/* ---- a group-by's device memory: the operators' allocations replayed ---- */

/* What the model planned that the allocations depend on (groupby_model
 * fills it as the operators decide): HGB's path, PGB's partitions and
 * chunk kernel. */
typedef struct {
    int onepass;  /* HGB: k_hgb_onepass, else Algorithm 1                    */
    int range;    /* HGB: the keys' range sampled first (dense or not)       */
    int bits;     /* PGB: partition bits                                     */
    double ts;    /* PGB: k_pgb_many's table slots; 0: k_pgb_chunk           */
    double smem;  /* PGB: a k_pgb_many table's bytes                         */
    double items; /* PGB: work items (pieces of partitions)                  */
    int merged;   /* PGB: cut partitions merge their pieces (k_pgb_merge)    */
    int claims;   /* PGB: the claimed pass (operators/shapes.h gj_part_claims) */
    int direct;   /* PGB: the direct plan (operators/shapes.h gj_pgb_direct)  */
    double part;  /* HGB dense: the blocks' rows of partials (bytes)         */
} gb_plan;

/* SGB-DE-TR's dictionary table (operators/groupby_kernels.cuh dict_slots,
 * DictSlot): 2^ceil(log2 2g) slots of 8 bytes, 16 with 8-byte keys. */
static double dict_table_bytes(double g, int kb) { return pow2_at_least(fmax(2, 2 * g)) * (kb == 4 ? 8 : 16); }

/* Peak device bytes of a group-by (the operator's own, the output
 * included, the inputs not), as operators/groupby_api.cu and
 * groupby_sort.cu allocate, every temporary held until its free:
 *   HGB one pass (hgb_onepass): a global table of 2 x 65536 slots (keys,
 *     ids), its counter, the 16-byte range of the keys when it is sampled,
 *     and the output of 65536 rows (alloc_out); the dense merge's rows of
 *     partials (pl->part) beside them;
 *   HGB Algorithm 1 (run_hgb): every row's group id (4 bytes whatever its
 *     width) and a counter, stage 1's table of 2^ceil(log2 2g) slots (at
 *     least 1024) beside the output keys (cap / 2 rows), then the output's
 *     aggregates of g rows;
 *   HASH-GLOBAL (run_hash_global): a table of 2^ceil(log2 2N) slots, the
 *     sparse accumulators of N rows each, the extracted keys and positions
 *     (N rows), then the output;
 *   SGB-* (run_sgb): the sorted keys and group ids (N rows
 *     each) with the sort's value column (UR: an iota and the row ids; TR:
 *     the first payload column) and CUB's scratch (gb_sort_scratch); then
 *     the output; DE-TR the codes; TR and DE-TR a junk key output and every
 *     further payload column sorted beside the ones before (DE-TR on the
 *     codes' ceil(log2 g) bits); count-distinct and median their two sorts
 *     of five more columns (sorted_special);
 *   PGB-* (run_pgb, pgb_partition, pgb_chunks): partition starts and the
 *     hashed keys, then per partition pass its value column (row ids, or a
 *     packed pair or one payload column) and the partition's scratch
 *     (gj_pgb_part_scratch); the work items' arrays, the output of
 *     min(cap / 2, N) rows, a global table of cap = 2^ceil(log2 2g) slots
 *     (at least 2048) and, for merged cut partitions, every piece's table.
 * The hash-based ones' sorted output (sort_output): row ids, the
 * permutation, the sorted keys and CUB's scratch, then each aggregate
 * column permuted into a new one. The output's key and aggregate columns
 * live outside the operators' arena (the caller frees them) but count in
 * gj_timing.peak_bytes (groupby_api.cu out_alloc), as here. CUB's scans (group
 * ids, PGB's work items) hold a few bytes a tile: left out. Assumes the
 * hint (w->groups) is right: no HGB or PGB round is repeated. */
static double groupby_peak(gj_impl impl, const gj_workload *w, const gb_plan *pl)
{
    const double n = (double)w->rows, g = fmax(1, fmin((double)w->groups, n));
    const int kb = w->key_bytes, pb = w->payload_bytes;
    /* the spec (build_spec): an accumulator per aggregate but count-distinct
     * and median (MIN/MAX at the payload width, the others 8 bytes), plus
     * the hidden 8-byte count of the AVGs; cols: those reading a column */
    double accb = 0, outb = 0; /* a group's accumulators; an output row's aggregates */
    int cols = 0, special = 0, any_avg = 0;
    for (int i = 0; i < w->n_aggs; i++) {
        const gj_agg a = w->aggs[i];
        const int width = a == GJ_AGG_MIN || a == GJ_AGG_MAX ? pb : 8;
        outb += width;
        if (a == GJ_AGG_COUNT_DISTINCT || a == GJ_AGG_MEDIAN) {
            special++;
            continue;
        }
        accb += width;
        cols += a != GJ_AGG_COUNT;
        any_avg |= a == GJ_AGG_AVG;
    }
    const double hid = any_avg ? 8 : 0;
    memsim m = {0, 0, 0};
    double key_rows = 0, agg_rows = 0; /* the output's capacity: keys, aggregates */

    if (impl == GJ_IMPL_HGB && pl->onepass) {
        const double lg = fmin(65536, n); /* the output's rows: the global table's limit */
        const double held = (pl->range ? 16 : 0) + pow2_at_least(2 * fmax(lg, 512)) * (kb + 4) + 8;
        ms_alloc(&m, held);
        ms_alloc(&m, lg * (kb + outb + hid));
        ms_touch(&m, pl->part); /* dense: the blocks' rows of partials */
        ms_free(&m, held);
        key_rows = agg_rows = lg;
    } else if (impl == GJ_IMPL_HGB) {
        const double cap = pow2_at_least(2 * fmax(g, 512));
        const double lim = fmin(cap / 2, g <= 255 ? 256 : g <= 65535 ? 65536 : 4294967280.0);
        ms_alloc(&m, 8 + n * 4); /* counter, group ids */
        ms_alloc(&m, cap * (kb + 4));
        ms_alloc(&m, lim * kb); /* the output keys, written by stage 1 */
        ms_free(&m, cap * (kb + 4));
        ms_alloc(&m, g * (kb + outb + hid)); /* alloc_out: its new key column is freed at once */
        ms_free(&m, g * kb);
        key_rows = lim;
        agg_rows = g;
    } else if (impl == GJ_IMPL_HASH_GLOBAL) {
        ms_alloc(&m, pow2_at_least(2 * fmax(n, 512)) * (kb + 4) + 8 + n * (accb + hid));
        ms_alloc(&m, n * (kb + 4)); /* the groups' keys and positions, extracted */
        ms_alloc(&m, g * (kb + outb + hid));
        key_rows = agg_rows = g;
    } else if (impl == GJ_IMPL_SGB_UR || impl == GJ_IMPL_SGB_TR || impl == GJ_IMPL_SGB_DE_TR) {
        const int tr = impl != GJ_IMPL_SGB_UR && cols > 0, de = impl == GJ_IMPL_SGB_DE_TR;
        const int ord = w->sorted_keys; /* rows in key order: no sort, the input's keys and columns */
        int bits = 1; /* the codes' bits */
        while (bits < 32 && ldexp(1, bits) < g) bits++;
        /* the tiles' group counts and their sum; sorted keys, group ids
         * (in order without the specials: neither) */
        if (ord) ms_alloc(&m, 8 * ceil(n / GJ_SGB_INORDER_TILE) + 4 + (special ? n * 4 : 0));
        else ms_alloc(&m, n * (kb + 4));
        if (ord) {
        } else if (tr) {
            ms_alloc(&m, n * pb);
            ms_touch(&m, cub_sort_scratch(n, kb, pb, 8 * kb));
        } else {
            ms_alloc(&m, n * 8); /* iota, row ids */
            ms_touch(&m, cub_sort_scratch(n, kb, 4, 8 * kb));
            ms_free(&m, n * 4);
        }
        ms_alloc(&m, g * (kb + outb + hid) + (special ? g * 4 : 0)); /* the output, group starts */
        if (de && (!ord || special)) { /* codes; the dictionary's table (at least 2g slots) while it encodes */
            ms_alloc(&m, n * 4);
            ms_touch(&m, dict_table_bytes(g, kb));
        }
        if (impl != GJ_IMPL_SGB_UR && !ord) {
            ms_alloc(&m, n * kb); /* the sorts' junk key output */
            for (int c = 1; c < cols; c++) {
                ms_alloc(&m, n * pb);
                ms_touch(&m, de ? cub_sort_scratch(n, 4, pb, bits) : cub_sort_scratch(n, kb, pb, 8 * kb));
            }
        }
        /* sorted_special: five columns, sorted by value, then stably by key or code */
        const int kw = de ? 4 : kb, eb = de ? bits : 8 * kb;
        const double sorts = fmax(cub_sort_scratch(n, pb, kw, 8 * pb), cub_sort_scratch(n, kw, pb, eb));
        for (int i = 0; i < special; i++) ms_touch(&m, n * (3 * pb + 2 * kw) + sorts);
    } else { /* PGB-UR, PGB-TR */
        const double parts = ldexp(1, pl->bits), hint = fmin((double)w->groups, n);
        /* a claimed pass's outputs hold its room, its words the bounds */
        const double rows = pl->claims ? gj_part_claim_room(n, pl->bits) : n;
        /* partition starts, hashed keys (a direct plan without partitions
         * reads the input's; a claimed one writes 2-byte residues) */
        const double hkb = pl->direct && pl->claims ? 2 : kb;
        ms_alloc(&m, (pl->claims ? 4 * parts + 2 : parts + 1) * 4 + (pl->direct && !pl->bits ? 0 : rows * hkb));
        if (pl->bits && (impl == GJ_IMPL_PGB_UR || !cols)) {
            ms_alloc(&m, rows * 4); /* row ids */
            ms_touch(&m, gj_pgb_part_scratch(n, kb, 4, pl->bits, pl->claims));
        } else if (pl->bits) { /* two 4-byte columns packed into one pass, else one a pass */
            for (int c = 0; c < cols; c += pb == 4 ? 2 : 1) {
                const int vb = pb == 4 && c + 1 < cols ? 8 : pb;
                ms_alloc(&m, rows * vb);
                ms_touch(&m, gj_pgb_part_scratch(n, kb, vb, pl->bits, pl->claims));
            }
        }
        ms_alloc(&m, parts * 4 + 32 + (pl->ts > 0 ? parts * 8 : 0)); /* pieces, counters, cut partitions */
        const double cap = fmin(pow2_at_least(2 * fmax(hint, 1024)), pow2_at_least(2 * fmax(n, 512)));
        key_rows = agg_rows = fmin(cap / 2, n);
        ms_alloc(&m, key_rows * (kb + outb + hid));
        ms_alloc(&m, cap * (kb + 4));
        if (pl->merged) ms_alloc(&m, pl->items * (pl->smem + 4)); /* the pieces' tables, their flags */
        ms_free(&m, cap * (kb + 4));
    }
    if (w->sorted_output && !gj_impl_sorts_output(impl) && g >= 2) {
        ms_alloc(&m, g * (8 + kb)); /* row ids, permutation, sorted keys */
        ms_touch(&m, cub_sort_scratch(g, kb, 4, 8 * kb));
        ms_free(&m, key_rows * kb);
        for (int i = 0; i < w->n_aggs; i++) { /* each column permuted into a new one */
            const int width = w->aggs[i] == GJ_AGG_MIN || w->aggs[i] == GJ_AGG_MAX ? pb : 8;
            ms_alloc(&m, g * width);
            ms_free(&m, agg_rows * width);
        }
    }
    return m.peak;
}

static void groupby_model(gj_impl impl, const gj_workload *w, acc *a)
{
    const gj_hw *hw = a->hw;
    const double N = (double)w->rows, g = (double)w->groups, z = w->zipf;
    const int kb = w->key_bytes, pb = w->payload_bytes, A = w->n_aggs;
    int P = 0;
    for (int i = 0; i < A; i++) P += agg_reads_column(w->aggs[i]);
    const double in = N * (kb + P * pb), out = g * (kb + A * 8.0);
    const double teff = gj_effective_targets(g, z);
    double slot = 0; /* bytes of one group's aggregate slots: min/max keep the payload width */
    for (int i = 0; i < A; i++)
        slot += (w->aggs[i] == GJ_AGG_MIN || w->aggs[i] == GJ_AGG_MAX) ? pb : 8;
    /* The hash operators' accumulators (operators/groupby_api.cu,
     * build_spec): one per aggregate (MIN/MAX at the payload width, the
     * others 8 bytes), plus a hidden 8-byte COUNT when any aggregate is an
     * AVG. HGB and HASH-GLOBAL update, store and flush all of them. */
    int nacc = A, any_avg = 0;
    for (int i = 0; i < A; i++) any_avg |= w->aggs[i] == GJ_AGG_AVG;
    nacc += any_avg;
    /* A row costs one shared-memory operation an accumulator: an 8-byte add
     * (sum, count, avg) is two 32-bit adds, the second only on a carry
     * (operators/groupby_kernels.cuh add64_shared). */
    const double accb = slot + 8.0 * any_avg;
    gb_plan plan = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

    /* HGB one pass (T-GB-HGB-1P; operators/groupby_api.cu hgb_onepass):
     * R copies of every aggregate slot for few groups (R g <= 1024); a
     * block's table takes every slot that fits its shared memory: ts2 slots
     * in half an SM (two blocks of 512 threads) if g <= ts2 / 2, else ts1
     * in all of it (one block of 1024) if g <= ts1 / 2, else, for g <= ts1,
     * the keys' range first and one pass if they are dense (the model takes
     * them to be; 8-byte keys up to a table of 4-byte key offsets, twice
     * ts1's slots), else 2^p passes of
     * one block an SM for g <= 2^p ts1 / 2 (p <= 1), each reading the whole
     * input and taking its part of the keys, else Algorithm 1. Reads the
     * input once a pass; shared-memory probes and atomics (with R copies,
     * conflicts only among warps); then every block merges its groups into
     * a global table. */
    double rcopies = 1;
    while (rcopies < 32 && 2 * rcopies * fmax(g, 1) <= 1024) rcopies *= 2;
    double accw[GJ_MAX_AGGS + 1];
    for (int i = 0; i < A; i++)
        accw[i] = (w->aggs[i] == GJ_AGG_MIN || w->aggs[i] == GJ_AGG_MAX) ? pb : 8;
    if (any_avg) accw[A] = 8;
    const double per_sm = hw->l1_bytes, reserve = 1024 + 128;
    const double ts2 = onepass_slots(per_sm / 2 - reserve, kb, accw, nacc, rcopies);
    const double big = fmin(hw->smem_per_block, per_sm - reserve) - 128;
    const double ts1 = onepass_slots(big, kb, accw, nacc, rcopies);
    /* 8-byte dense keys: a table of 4-byte key offsets, twice the slots */
    const double ts1o = kb == 8 ? onepass_slots(big, 4, accw, nacc, rcopies) : 0;
    int onepass_bps = ts2 > 0 && g <= ts2 / 2 ? 2 : ts1 > 0 && g <= ts1 / 2 ? 1 : 0;
    /* up to a full table: the range of a sample of the keys first, and
     * dense keys (as the model takes them) fill every slot without
     * probing, in one pass */
    const int dense = !onepass_bps && ts1 > 0 && g <= ts1;
    const int offs = !onepass_bps && !dense && ts1o > ts1 && g <= ts1o;
    const double tsu = offs ? ts1o : ts1; /* the table it takes */
    if (dense || offs) onepass_bps = 1;
    plan.range = dense || offs;
    /* up to 2^GJ_HGB_MAX_PBITS tables' worth of groups: a pass over the
     * input per table's worth */
    int pbits = 0;
    if (!onepass_bps && ts1 > 0 && g <= ldexp(ts1 / 2, GJ_HGB_MAX_PBITS)) {
        while (g > ts1 / 2 * (1 << pbits)) pbits++;
        onepass_bps = 1;
    }
    plan.onepass = onepass_bps > 0;
    if (impl == GJ_IMPL_HGB && onepass_bps) {
        const double passes = 1 << pbits;
        double blocks = hw->sm_count * onepass_bps;
        double gm = fmin(g, N); /* groups a block holds, at most, over its passes */
        begin(a, "group");
        if (plan.range) a->kernels++; /* the range of a sample of the keys */
        seq(a, passes > 1 ? "read keys and payloads once a pass" : "read keys and payloads once", in * passes);
        /* Linear probing: a warp's probe loop runs until its longest lane
         * finds its key, one shared-memory access a step for every lane, at
         * the rate of shared accesses spread over 1024 addresses (on the
         * H200 atom_s_t1k and bw_l1_rand / 4 agree within 2%). The raw keys
         * are hashed by Fibonacci hashing (operators/groupby_kernels.cuh
         * op_home), under which dense keys (the generator's, surrogate keys;
         * join_key_bits takes keys to be dense too) land on distinct home
         * slots: one step. probe_longest of random keys at load g/ts
         * over-predicted 2^11..2^13 groups by 15-30%; with one step, HGB's
         * held-out median error went 10.5% -> 7.2% on the v17 grid and
         * 11.3% -> 9.0% on v18 (bench/RESULTS.md, session 7). PGB's tables
         * hold hashed keys, so they keep probe_longest. */
        term(a, GJ_TERM_HASH, "shared-memory table probes (dense keys: one step)",
             N / (atom_shared(hw, 1024) * GB), 0);
        /* in key order a warp's 32 lanes (4 consecutive rows each) update
         * the slots of about inorder_targets groups, their copies spread
         * over the R copies (HGB in order, H200, 2^26 rows, sum: 0.54 ms at
         * 2^10 groups, 0.56 at 2^14; bench/RESULTS.md, session 11) */
        const double tgt = w->sorted_keys ? fmin(teff, inorder_targets(g, N, 32.0 * 4)) : teff;
        term(a, GJ_TERM_ATOMIC, "shared-memory atomics", N * nacc / (atom_shared(hw, fmax(tgt * rcopies, 1)) * GB), 0);
        /* the vectorised path covers two accumulators over 4-byte payloads;
         * others go through a generic per-row loop, without slot copies */
        if (nacc > 2 || (P && pb != 4))
            term(a, GJ_TERM_ATOMIC, "generic aggregation loop", N * nacc / (atom_shared(hw, fmax(tgt, 1)) * GB), 0);
        if (plan.range && tsu >= GJ_HGB_PART_MERGE_TS) {
            /* each block's slots to its row of partials (a flag byte and
             * the accumulators), one thread a slot combines the rows and
             * enters the group (operators/groupby_kernels.cuh
             * k_hgb_dense_merge): no contended atomics */
            plan.part = blocks * tsu * (1 + accb);
            seq(a, "blocks' rows of partials, written and combined", 2 * plan.part);
            term(a, GJ_TERM_HASH, "enter the groups into the global table", g / (hw->ht_build_l2 * GB), 0);
            counter(a, "output slots of new groups from one counter", g);
            atomics_global(a, "store the groups' aggregates", g * nacc, g, g * accb);
            a->kernels += 1;
            a->allocs += 1 + nacc;
        } else {
            term(a, GJ_TERM_HASH, "merge block tables into the global table", blocks * gm / (hw->ht_build_l2 * GB), 0);
            counter(a, "output slots of new groups from one counter", g);
            atomics_global(a, "merge block aggregates", blocks * gm * nacc, g, g * accb);
        }
        seq(a, "clear the global table, write groups", 2 * 65536.0 * (kb + 4) + out);
        a->kernels += 3 + passes;
        a->allocs += 3 + nacc;
        begin(a, "aggregate");
    } else if (impl == GJ_IMPL_HASH_GLOBAL) {
        /* cuDF (Sec. 3.2.1; operators/groupby_api.cu run_hash_global):
         * group: clear a table of 2^ceil(log2 2|R|) slots (keys and first
         * row ids in two arrays) and the sparse accumulator arrays of |R|
         * entries each, then one pass inserts every key and aggregates its
         * row into the sparse arrays by global atomics; aggregate: scan the
         * table for the g groups, compact them through one counter, gather
         * their aggregates. The g non-empty entries and each group's slot of
         * each sparse array sit in their own 32-byte sectors: g * 32 *
         * (accumulators + 1) bytes compete for the L2. */
        double table = pow2_at_least(2 * fmax(N, 512)) * (kb + 4);
        /* rows in key order (w->sorted_keys): a group's rows come together,
         * so the entries and slots in use at a time stay in the L2 */
        double spread = w->sorted_keys ? 0 : g * 32.0 * (nacc + 1);
        double rate = l2_blend(hw, hw->ht_build_l2, hw->ht_build_hbm, w->sorted_keys ? 0 : fmax(g * (kb + 4.0), spread));
        begin(a, "group");
        seq(a, "clear the table and the sparse arrays", table + N * accb);
        seq(a, "read keys and payload columns", N * (kb + P * pb));
        term(a, GJ_TERM_HASH, "hash-table insert-or-find", N / (rate * GB), 0);
        atomics_zipf(a, "global atomics into sparse arrays", N, nacc, g, 32 * g, 1, z, spread, 0);
        a->kernels += 3 + nacc;
        a->allocs += 3 + nacc;
        begin(a, "aggregate");
        seq(a, "scan the table for groups", pow2_at_least(2 * fmax(N, 512)) * 4.0 + g * (kb + 4.0));
        counter(a, "compact the groups through one counter", g);
        gather(a, "gather aggregates", g * nacc, 8, N, 32, 0);
        a->kernels += 2;
    } else if (impl == GJ_IMPL_HGB) {
        /* Algorithm 1 (operators/groupby_api.cu run_hgb). Stage 1 (group):
         * insert every key into a global table of 2^ceil(log2 2g) slots (at
         * least 1024; keys and group ids in two arrays), a new group's dense
         * id from one global counter, and write each row's group id (1, 2 or
         * 4 bytes by g); a per-block shared-memory cache of the first keys
         * a block sees answers repeated keys on chip. Its g non-empty
         * entries, a sector each, stay in L2 while they fit. */
        double cap = pow2_at_least(2 * fmax(g, 512));
        double table = cap * (kb + 4);
        double gw = g <= 255 ? 1 : g <= 65535 ? 2 : 4;
        /* the share of lookups the block cache answers (operators/shapes.h
         * GJ_HGB_CACHE: a block's first keys; blocks of 256 threads, at
         * most GJ_GB_GRID_PER_SM an SM, striding over the rows) */
        const double cslots = kb == 4 ? GJ_HGB_CACHE : GJ_HGB_CACHE / 2;
        const double brows = fmax(256, N / (hw->sm_count * (double)GJ_GB_GRID_PER_SM));
        const double cached = g <= cslots ? 1 : gj_cache_first_seen(g, cslots, brows, z);
        /* rows in key order: the entries in use at a time stay in the L2 */
        double rate = l2_blend(hw, hw->ht_build_l2, hw->ht_build_hbm, w->sorted_keys ? 0 : fmax(g * (kb + 4.0), g * 32.0));
        begin(a, "group");
        seq(a, "read keys, write group ids", N * (kb + gw));
        seq(a, "clear the table", table);
        term(a, GJ_TERM_HASH, "hash-table insert-or-find", N * (1 - cached) / (rate * GB), 0);
        if (cached > 0)
            term(a, GJ_TERM_HASH, "block cache lookups", N * cached / (atom_shared(hw, fmin(g, cslots)) * GB), 0);
        counter(a, "dense group ids from one counter", g);
        a->kernels += 1;
        a->allocs += 3;
        /* Stage 2 (aggregate): read the group ids and payloads in row order
         * (the table stores the id itself: no lookup), then shared-memory
         * atomics into R copies of the dense arrays when g accumulator slots
         * fit the 96 KB stage-2 budget (R doubles while 2 R g slots fit 24
         * KB), flushed by one global atomic per block, group and
         * accumulator; blocks per SM as many as fit the SM's shared memory
         * (at most 8 of 256 threads); else global atomics per row. */
        begin(a, "aggregate");
        seq(a, "read group ids and payload columns", N * (gw + P * pb));
        seq(a, "initialise the aggregates", g * accb);
        double copies = 0;
        if (g * accb <= 96 * 1024.0) {
            copies = 1;
            while (copies < 32 && 2 * copies * g * accb <= 24 * 1024.0) copies *= 2;
        }
        if (copies > 0) {
            double per_sm = fmax(1, fmin(8, floor(hw->l1_bytes / (copies * g * accb + 1024))));
            double blocks = hw->sm_count * per_sm;
            term(a, GJ_TERM_ATOMIC, "shared-memory atomics", N * nacc / (atom_shared(hw, teff * copies) * GB), 0);
            atomics_global(a, "flush block aggregates", blocks * g * nacc, g, g * accb);
        } else {
            atomics_zipf(a, "global atomics into dense arrays", N, nacc, g, g, 128.0 * nacc / accb, z,
                         w->sorted_keys ? 0 : g * accb, 1);
        }
        a->kernels += 2;
        a->allocs += nacc;
    } else if (impl == GJ_IMPL_SGB_UR || impl == GJ_IMPL_SGB_TR || impl == GJ_IMPL_SGB_DE_TR) {
        const int tr = impl != GJ_IMPL_SGB_UR;
        /* rows in key order (w->sorted_keys): run_sgb finds no descent in
         * one pass over the keys (which counts each tile's groups) and
         * skips every sort; the rows are the sorted positions (unordered
         * keys end that pass in its first wave: left out). Without
         * count-distinct or median (fused): no group-id array; the
         * reduction reads the keys again and finds every row's group
         * itself (operators/groupby_kernels.cuh k_inorder_reduce). */
        const int ord = w->sorted_keys;
        int spec = 0;
        for (int i = 0; i < A; i++) spec |= w->aggs[i] == GJ_AGG_COUNT_DISTINCT || w->aggs[i] == GJ_AGG_MEDIAN;
        const int fused = ord && !spec;
        begin(a, "group");
        if (ord) seq(a, "check the keys' order, count each tile's groups", N * kb);
        else sort_full(a, tr ? "sort (key, first column)" : "sort (key, row id)", N, kb, tr && P ? pb : 4);
        /* the inclusive sum of head flags computed from the keys as it
         * reads them (group ids + 1 written), then each group's key (the
         * keys and ids read again) */
        if (!fused) seq(a, "find group boundaries (group ids, group keys)", N * (2.0 * kb + 8) + g * kb);
        /* DE-TR's codes sort the payloads, or (rows in order) the specials */
        const int de = impl == GJ_IMPL_SGB_DE_TR && (!ord || spec);
        if (de) {
            /* Sec. 4.4: encode every key once (D), whatever the payloads,
             * through a hash table of the dictionary (operators/
             * groupby_kernels.cuh k_dict_build), zeroed first */
            seq(a, "zero the dictionary's table", dict_table_bytes(g, kb));
            double bm = gj_m44_bm(hw, g, kb) * GB;
            term(a, GJ_TERM_HASH, "dictionary-encode keys (D)", gj_m44_d(N, g, kb, hw->bw_seq * GB, bm),
                 (kb + 4.0) * (N + g) + N * 4);
        }
        /* run_sgb's host work in the group phase (the sorts' own launches
         * are in their rates): in order, the check (a memset,
         * k_inorder_heads, the tiles' scan of 2 kernels, a read-back); else
         * UR's iota; the group ids' scan (2 kernels), the group count read
         * back, k_group_keys, DE-TR's encoding (all but when fused);
         * allocations: the output, the tiles' counts and their scan's
         * scratch, the group ids and their scan's scratch, the sorted key
         * and column copies and their sorts' scratch */
        a->kernels += (ord ? 4 : !tr) + (fused ? 0 : 3) + 3 * de; /* the table's memset, build, encode */
        a->allocs += A + 1 + (ord ? 2 : 0) + (fused ? 0 : 2) + (ord ? 0 : tr ? 3 : 4) + 2 * de;
        a->syncs += 1 + (ord && !fused);
        begin(a, "aggregate");
        if (ord) {
        } else if (!tr) {
            /* Sec. 4.1.3: the permuted ids touch u lines a warp. */
            double u = gj_warp_distinct(g, z);
            for (int c = 0; c < P; c++) gather(a, "gather payloads by sorted row ids", N, pb, N, u, 0);
        } else if (impl == GJ_IMPL_SGB_TR) {
            for (int c = 1; c < P; c++) sort_full(a, "sort payload columns with the key", N, kb, pb);
        } else {
            /* then sort the remaining columns on ceil(log2 g) bits of the codes */
            int bits = g <= 1 ? 1 : (int)ceil(log2(g));
            for (int c = 1; c < P; c++)
                partition(a, "sort payload columns on the codes", N, 4, pb, bits, 0, 0);
        }
        /* k_sorted_reduce reads each row's group id (and SGB-UR's row id
         * when it sorted) beside the payloads; fused, the keys instead */
        seq(a, "segmented reduction", N * (fused ? kb : 4.0 + (!tr && !ord ? 4 : 0)) + N * P * pb + out);
        /* and in the aggregate phase: the aggregates' initialisation, the
         * reduction, AVG's division; TR's column sorts' copies and scratch */
        a->kernels += 2 + any_avg;
        a->allocs += tr && !ord && P > 1 ? 1 + 2 * (P - 1) : 0;
    } else { /* PGB-UR, PGB-TR (T-GB-PGB): operators/groupby_api.cu run_pgb */
        const int tr = impl == GJ_IMPL_PGB_TR && P > 0;
        /* Few groups (g <= 2048): k_pgb_chunk, whose shared tables (4096
         * hash slots filled to 5/8, 32 KB of aggregate slots: pgb_limit)
         * keep `limit` groups, counts a chunk's groups and then aggregates
         * into R copies. More: k_pgb_many, one pass over a table of ts
         * slots holding the keys and, at each key's slot, its aggregates
         * (the most slots up to 16384 in 200 KB: gj_pgb_many_tmax), partitions
         * averaging ts / 2 groups. At most 2^16 partitions (two 8-bit
         * passes). */
        const int many = g > GJ_PGB_FEW;
        /* one partition call of row ids or of a packed pair claims its bins
         * from a sample (operators/groupby_api.cu pgb_claims), up to
         * GJ_PART_CLAIM_MAX_BITS in one pass */
        const int one_call = !tr || (pb == 4 && P == 2);
        /* k_pgb_chunk's groups: its aggregate bytes, and its hash slots to 5/8
         * (operators/groupby_kernels.cuh pgb_limit) */
        const double chunk_limit = fmin(floor(GJ_PGB_AGG_BYTES / fmax(accb, 1)), GJ_PGB_TS * 5.0 / 8);
        double ts = 0, parts = 1;
        int bits = 0, direct = 0;
        if (many) {
            /* the operator's plan (operators/shapes.h gj_pgb_many_pick) with
             * tables for two blocks an SM (96 KB), or for one (200 KB, 1024
             * threads) where that saves a pass or, with as many, fills its
             * tables less; direct, keys of a known span (w->key_range)
             * partitioned on their own bits, each its own slot, where that
             * takes no more passes */
            const int claim_max = one_call && gj_part_claims(N, GJ_PART_CLAIM_MAX_BITS, 1, GJ_PART_CLAIM_MIN);
            direct = gj_pgb_many_pick(N, g, (double)w->key_range, gj_pgb_many_tmax(GJ_PGB_MANY_SMEM, kb, accw, nacc),
                                      gj_pgb_many_tmax(GJ_PGB_MANY_SMEM_BIG, kb, accw, nacc),
                                      gj_pgb_many_tmax(GJ_PGB_MANY_SMEM, 4, accw, nacc),
                                      gj_pgb_many_tmax(GJ_PGB_MANY_SMEM_BIG, 4, accw, nacc), hw->sm_count, !tr,
                                      claim_max, -1, &bits, &ts);
            parts = ldexp(1, bits);
        } else {
            const double per = floor(chunk_limit / 8) * 7;
            while (parts < 65536 && parts * per < g) parts *= 2, bits++;
        }
        const double limit = many ? ts : chunk_limit;
        /* Pieces of T rows, one block each: about 4 waves of full SMs (the
         * blocks of 512 threads that fit an SM's shared memory, at most 3
         * by registers), never under 4096 rows, and whole partitions of up
         * to 1.25 times the average with one table an SM, where they keep
         * the SMs 90% busy (operators/shapes.h gj_pgb_piece_rows). A
         * partition of at most T rows is one piece and writes its groups
         * straight to their output rows; a larger one is cut, and its
         * pieces merge (below). */
        /* (a direct plan's table keys take 4 bytes: groupby_kernels.cuh PgbTk) */
        const double smem = many ? gj_pgb_many_bytes(ts, direct ? 4 : kb, accw, nacc) : kb == 8 ? 81920 : 65536;
        const double occ = fmax(1, fmin(3, floor(hw->l1_bytes / (smem + 1024))));
        const double T = gj_pgb_piece_rows(N, parts, fmax(hw->sm_count, 1), occ, 1);
        const double np = N / parts, cut = np > T;
        const double items = parts * (cut ? ceil(np / T) : 1);
        /* Distinct groups a piece sees: its rows are drawn from its
         * partition's g / parts groups. */
        const double gp = fmax(1, g / parts), rows = fmin(np, T);
        const double gc = gp <= 1 ? 1 : fmax(1, gp * -expm1(rows * log1p(-1 / gp)));
        /* k_pgb_many sends a key to the global table when its first 32
         * probe slots are taken; at the loads a partition plans (1/2) none
         * is; past the table a chunk's keys overflow in proportion (a
         * direct table's keys have their own slots: past the table only) */
        const double room = many ? (direct ? ts : ts * 3 / 4) : limit;
        const double over = gc > room ? 1 - room / gc : 0;
        /* k_pgb_chunk aggregates into R copies of its slots */
        double copies = 1;
        if (!many)
            while (copies < 32 && 2 * copies * fmin(gc, limit) <= GJ_PGB_AGG_BYTES / fmax(accb, 1)) copies *= 2;
        /* one partition call of row ids or of a packed pair claims its bins
         * from a sample (operators/groupby_api.cu pgb_claims) */
        const int claims = bits && one_call && gj_part_claims(N, bits, 1, GJ_PART_CLAIM_MIN);
        begin(a, "group");
        /* the joins' partition hashes the keys as it reads them; without
         * partitions they are hashed first (a direct plan's are not) */
        if (bits == 0 && !direct) seq(a, "hash keys", 2.0 * N * kb);
        if (claims) /* one row in GJ_PART_CLAIM_SAMPLE, in runs of GJ_PART_CLAIM_RUN: a sector a run */
            gather(a, direct ? "sample of the keys (claimed pass)" : "sample of the hashed keys (claimed pass)",
                   ceil(N / (GJ_PART_CLAIM_SAMPLE * GJ_PART_CLAIM_RUN)) * ceil(GJ_PART_CLAIM_RUN * kb / 32.0), kb, N,
                   32, 0);
        /* the terms' names say what the partition takes its bits from: the
         * hashed keys, or a direct plan's keys themselves */
        if (bits && !tr) {
            /* the partition makes the row ids in its first pass */
            static const char *ids[2][2] = {{"partition (hash, row id)", "partition (hash, row id), claimed"},
                                            {"partition (key, row id)", "partition (key, row id), claimed"}};
            partition_claims(a, ids[direct][claims], N, kb, 4, bits, 1, 0, 1, claims, direct);
        } else if (bits) {
            /* the payload columns travel with the key, two 4-byte columns
             * packed into one 8-byte value as they are read */
            static const char *pairs[2][2] = {
                {"partition (hash, payload pair or 8-byte column)", "partition (hash, payload pair), claimed"},
                {"partition (key, payload pair or 8-byte column)", "partition (key, payload pair), claimed"}};
            int jobs = pb == 4 ? P / 2 : P, odd = pb == 4 ? P % 2 : 0;
            for (int c = 0; c < jobs; c++)
                partition_claims(a, pairs[direct][claims], N, kb, 8, bits, 1, pb == 4, 1, claims, direct);
            if (odd)
                partition_wide(a, direct ? "partition (key, last 4-byte column)" : "partition (hash, last 4-byte column)",
                               N, kb, 4, bits, 1, 0, 1);
        }
        /* one binary search per partition (bounds_kernel), but for a claimed
         * pass, which leaves its bins' bounds */
        if (!claims)
            gather(a, "partition bounds (binary searches)", (parts + 1) * ceil(log2(fmax(N, 2))), kb, N, 32, 0);
        begin(a, "aggregate");
        if (direct && claims) /* the claimed pass left 2-byte residues (GJ_PART_RES16) */
            seq(a, "read key residues once", 2.0 * N);
        else
            seq(a, many ? "read hashed keys once" : "read hashed keys twice (count, aggregate)", (many ? 1.0 : 2.0) * N * kb);
        if (!tr && bits) {
            /* ids are increasing inside a partition: a warp spans about as
             * many rows as there are non-empty partitions */
            double u = fmax(1, fmin(32, fmin(parts, g) * pb / 4.0));
            /* rows in key order (w->sorted_keys): a key's N / g rows are
             * adjacent, so a warp's 32 ids come in runs of them, each run
             * a line or more (v39 grid, gb-ordered: PGB-UR's aggregate
             * predicted 2x the measured at 2^16 and 2^20 groups at u = 32) */
            if (w->sorted_keys) u = fmin(u, run_lines(N / fmax(g, 1), pb));
            /* The blocks running at once (R, a wave) walk their row ids
             * in step: whole partitions from the first row up, a cut
             * partition's pieces in piece order (operators/groupby_api.cu
             * pgb_order), so a payload sector's rows, which belong to up
             * to 32 / pb partitions, are read while it is in the L2 by
             * every partition of the wave: it is fetched once a wave of
             * partitions (session 33: 2^22 groups, 256 whole partitions
             * in two waves, 4.4 ms; 2^23, four, 9.6). */
            const double R = fmax(hw->sm_count, 1) * occ, per_sector = 32.0 / pb;
            const double fetches = fmin(per_sector, ceil(parts / R));
            const double hit = 1 - fetches / per_sector;
            const double ws = hit > 0 ? fmin(N * pb, hw->l2_bytes / 2 / hit) : N * pb;
            seq(a, "read row ids", N * 4.0);
            for (int c = 0; c < P; c++)
                gather_ws(a, "gather payloads by partitioned row ids (a wave's rows in step)", N, pb, N, u, 0, ws);
        } else {
            seq(a, "read payloads", N * P * pb);
        }
        /* The load a warp's probes see: skewed keys are mostly the hot
         * ones, inserted first at their homes, so the effective number of
         * targets (inverse Simpson) stands for the groups. */
        const double gw = fmin(gc, gj_effective_targets(gc, z));
        /* k_pgb_many's lean tile (operators/groupby_kernels.cuh
         * pgb_lean_tile): PGB-TR's packed pair alone, each a 4-byte max, min
         * or sum, issues GJ_PGB_LEAN_WORK of the general tile's instructions
         * for the same probes and combines */
        int lean = many && tr && A == 2 && P == 2 && pb == 4;
        for (int i = 0; i < A; i++)
            lean = lean && (w->aggs[i] == GJ_AGG_MAX || w->aggs[i] == GJ_AGG_MIN || w->aggs[i] == GJ_AGG_SUM);
        const double work = lean ? GJ_PGB_LEAN_WORK : 1;
        if (many) /* as HGB's one pass: a warp waits for its longest probe (a direct table's: one) */
            term(a, GJ_TERM_HASH, "shared-memory table probes (a warp's longest)",
                 work * N * (direct ? 1 : probe_longest_of(fmin(gw, ts) / ts, 1)) / (atom_shared(hw, 1024) * GB),
                 0);
        else /* k_pgb_chunk probes its 4096 slots twice (count, aggregate), a
              * row a thread: a warp waits for its longest probe each time */
            term(a, GJ_TERM_HASH, "shared-memory table probes, twice (a warp's longest)",
                 2 * N * probe_longest(fmin(gw, limit) / GJ_PGB_TS) / (atom_shared(hw, 1024) * GB), 0);
        term(a, GJ_TERM_ATOMIC, "shared-memory aggregation",
             work * N * (1 - over) * nacc / (atom_shared(hw, fmin(gc, limit) * copies) * GB), 0);
        /* the narrow path covers two accumulators over 4-byte payloads */
        if (many && (nacc > 2 || (P && pb != 4)))
            term(a, GJ_TERM_ATOMIC, "generic aggregation loop", N * nacc / (atom_shared(hw, fmax(gc, 1)) * GB), 0);
        /* k_pgb_many's partitions cut into at most gj_pgb_merge_max pieces:
         * each piece leaves its table in global memory, and k_pgb_merge
         * reads a partition's tables back into one shared table and flushes
         * it as a whole partition. (The model's partitions all hold the
         * average rows: none is cut for skew, so the hashed plans' limit
         * for hot partitions never applies here.) */
        const int merged = many && cut && ceil(np / T) <= gj_pgb_merge_max(ceil(np / T), direct);
        const double spilled = merged ? items * fmin(gc, limit) : 0;
        plan.bits = bits;
        plan.claims = claims;
        plan.direct = direct;
        plan.ts = many ? ts : 0;
        plan.smem = smem;
        plan.items = items;
        plan.merged = merged;
        if (spilled > 0) {
            seq(a, "cut pieces' tables (written, read back)", 2 * items * smem);
            term(a, GJ_TERM_HASH, "merge cut pieces' groups in shared memory",
                 spilled * (direct ? 1 : probe_longest_of(fmin(gp, ts) / ts, 1)) / (atom_shared(hw, 1024) * GB), 0);
            term(a, GJ_TERM_ATOMIC, "combine cut pieces' aggregates",
                 spilled * nacc / (atom_shared(hw, fmin(gp, limit)) * GB), 0);
            a->kernels += 1;
        }
        /* Other cut partitions merge their groups into the global table,
         * and rows past a table's limit are aggregated there. */
        double merges = ((cut && !merged) || !bits ? items * fmin(gc, limit) : 0) + N * over;
        double rate = l2_blend(hw, hw->ht_build_l2, hw->ht_build_hbm, 2 * g * (kb + 4.0));
        if (merges > 0) {
            term(a, GJ_TERM_HASH, "global table inserts (piece merges, overflow rows)", merges / (rate * GB), 0);
            atomics_global(a, "global aggregation (piece merges, overflow rows)", merges * nacc, teff, g * accb);
        }
        counter(a, "output rows: one counter (per new group, or per whole partition)",
                (cut && !merged) || !bits ? g : merged ? parts : items);
        seq(a, "write groups", out);
    }
    if (w->sorted_output && !gj_impl_sorts_output(impl)) {
        /* Fig. 21's branch: the hash and partition outputs need a sort. */
        sort_full(a, "sort the output by key", g, kb, 4);
        for (int c = 0; c < A; c++) gather(a, "permute aggregates", g, 8, g, 32, 0);
    }
    overheads(a);
    finish(a, in + out, in + groupby_peak(impl, w, &plan));
}

int gj_model_estimate(gj_impl impl, const gj_workload *w, const gj_hw *hw, gj_estimate *out,
                      gj_ctx *ctx)
{
    return gj_model_estimate_fit(impl, w, hw, NULL, out, ctx);
}

/* One estimate: a join on its sides as given, or (cut) after the filter */
static void estimate_once(gj_impl impl, const gj_workload *w, const gj_hw *hw, const gj_fit *fit, int cut,
                          gj_estimate *out)
{
    memset(out, 0, sizeof *out);
    out->impl = impl;
    out->feasible = 1;
    out->filtered = cut;
    acc a = {.e = out, .hw = hw, .fit = fit && fit->set ? fit : NULL, .cut = cut};
    if (w->op == GJ_OP_JOIN)
        join_model(impl, w, &a);
    else {
        groupby_model(impl, w, &a);
        if (!gj_impl_supports_aggs(impl, w) && out->feasible) {
            out->feasible = 0;
            snprintf(out->why, sizeof out->why,
                     "count-distinct and median need a sort-based group-by (SGB-*)");
        }
    }
}

int gj_model_estimate_fit(gj_impl impl, const gj_workload *w, const gj_hw *hw, const gj_fit *fit,
                          gj_estimate *out, gj_ctx *ctx)
{
    int rc = gj_workload_check(w, ctx);
    if (rc != GJ_OK) return rc;
    if (!hw || !out) return gj_seterr(ctx, GJ_ERR_INVALID, "hw and out must not be NULL");
    if (impl < 0 || impl >= GJ_IMPL_COUNT)
        return gj_seterr(ctx, GJ_ERR_INVALID, "impl=%d: unknown implementation", (int)impl);
    if (gj_impl_op(impl) != w->op)
        return gj_seterr(ctx, GJ_ERR_INVALID, "impl=%s is not a %s implementation",
                         gj_impl_name(impl), w->op == GJ_OP_JOIN ? "join" : "group-by");
    if (!(hw->bw_seq > 0) || !(hw->bw_rand > 0) || !(hw->mem_bytes > 0))
        return gj_seterr(ctx, GJ_ERR_INVALID, "profile incomplete: bw_seq, bw_rand and mem_bytes "
                                              "must be set (gj_profile_complete)");
    const int mode = w->op == GJ_OP_JOIN ? filter_mode(w) : FILTER_NO;
    estimate_once(impl, w, hw, fit, mode == FILTER_YES, out);
    if (mode == FILTER_BEST) { /* the faster (feasible first) of with and without */
        gj_estimate cut;
        estimate_once(impl, w, hw, fit, 1, &cut);
        if (cut.feasible > out->feasible || (cut.feasible == out->feasible && cut.ms < out->ms)) *out = cut;
    }
    return GJ_OK;
}
