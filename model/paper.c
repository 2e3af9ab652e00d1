/* Paper 000's cost models, exactly as printed (IDs in model/MODEL.md).
 * Bandwidths here are bytes/s; results are seconds unless said otherwise. */
#include "common/internal.h"

#include <math.h>

/* M-411-BR. Both GATHERs read the map and write the output sequentially
 * (2 x 4 bytes at B_G); the clustered one reads the input at B_G, the
 * unclustered at B_R. With s = T_u / T_c:  8/B_G + 4/B_R = s * 12/B_G, so
 * B_G/B_R = (12 s - 8) / 4 = 3 s - 2. Table 1: s = 8.52, B_G ~ 24 B_R. */
double gj_m411_bg_over_br(double cycles_unclustered, double cycles_clustered)
{
    if (!(cycles_clustered > 0) || !(cycles_unclustered > 0)) return NAN;
    return 3.0 * (cycles_unclustered / cycles_clustered) - 2.0;
}

/* M-413-CS: histogram + 4 passes of (key, payload) = 17 x 4 bytes a tuple. */
double gj_m413_cs(double n, double bg) { return 68.0 * n / bg; }

/* M-413-CP: read IDs and write results at B_G, read payloads at
 * max(B_G/u, B_G/24) with u = min(32, g): (4 min(24, g) + 8) N / B_G. */
double gj_m413_cp(double n, double g, double bg) { return (4.0 * fmin(24.0, g) + 8.0) * n / bg; }

/* Smallest whole g with C_S < C_P, for B_G/B_R = ratio (the paper's 24).
 * INFINITY when sorting never wins. */
double gj_m413_group_threshold(double ratio)
{
    for (double g = 1; g <= 64; g++)
        if (68.0 < 4.0 * fmin(ratio, g) + 8.0) return g;
    return INFINITY;
}

/* M-414-C1: (2 x 4 M) / B_G + 4 M / (B_G / ratio). */
double gj_m414_c1(double m, double bg, double ratio) { return (8.0 + 4.0 * ratio) * m / bg; }

/* M-414-C2: histogram (4N) + 2 partition passes of (key, column) read and
 * written (2 x 4 x 4N), then a clustered gather (3 x 4M). */
double gj_m414_c2(double n, double m, double bg) { return (36.0 * n + 12.0 * m) / bg; }

/* Generalised M-414 threshold. Per materialised column, GFUR costs
 * (4 + pb) M / B_G sequential + pb M ratio / B_G random; GFTR costs a
 * partition of (key, column): kb N + passes x 2 (kb + pb) N, plus a clustered
 * gather (4 + 2 pb) M. With p columns and the first partitioned for free
 * (it rides with the key), GFTR wins for
 *     M/N > (p - free) (kb + 2 passes (kb + pb)) / (p pb (ratio - 1)).
 * p = 1, no free column, 4-byte, 2 passes, ratio 24: 36 / 92 = 0.39;
 * p = 2 with the free column: 36 / 184 = 0.196 ~ 0.2 (Sec. 4.1.4). */
double gj_m414_threshold(int p, int first_free, int kb, int pb, int passes, double ratio)
{
    if (p < 1 || ratio <= 1) return NAN;
    double partition = kb + 2.0 * passes * (kb + pb);
    double cols = p - (first_free ? 1 : 0);
    return cols * partition / (p * pb * (ratio - 1.0));
}

/* Passes to sort dictionary codes of g groups: ceil(log2(g) / 8). */
static double code_passes(double g) { return g <= 1 ? 0 : ceil(log2(g) / 8.0); }

/* M-44-C1: p columns sorted with k-byte keys in k passes. */
double gj_m44_c1(double n, int p, int k, double bg)
{
    return p * (k * n + k * n * 2.0 * (k + 4)) / bg;
}

/* M-44-D: build (g entries) + probe (N keys); the table's random accesses at
 * B_M / min(g, 24). */
double gj_m44_d(double n, double g, int k, double bg, double bm)
{
    double u = fmin(g, 24.0);
    double build = k * g / bg + (k + 4.0) * g / (bm / u);
    double probe = (k * n + 4.0 * n) / bg + (k + 4.0) * n / (bm / u);
    return build + probe;
}

/* M-44-C2: encode, then p columns sorted on the codes' ceil(log2 g) bits. */
double gj_m44_c2(double n, double g, int p, int k, double bg, double bm)
{
    return gj_m44_d(n, g, k, bg, bm) + p * (4.0 * n + code_passes(g) * n * 2.0 * (4 + 4)) / bg;
}

/* The memory level a dictionary of g (k+4)-byte entries fits in (Sec. 4.4:
 * "non-empty entries fit into a certain type of memory"). */
double gj_m44_bm(const gj_hw *hw, double g, int k)
{
    double bytes = g * (k + 4.0);
    if (bytes <= hw->l1_bytes) return hw->bw_l1;
    if (bytes <= hw->l2_bytes) return hw->bw_l2;
    return hw->bw_seq;
}

int gj_m44_min_payloads(const gj_hw *hw, double n, double g, int k)
{
    double bg = hw->bw_seq * 1e9, bm = gj_m44_bm(hw, g, k) * 1e9;
    for (int p = 1; p <= 64; p++)
        if (gj_m44_c2(n, g, p, k, bg, bm) < gj_m44_c1(n, p, k, bg)) return p;
    return 0;
}
