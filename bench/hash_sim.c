/* How evenly a multiplier spreads dense keys over PGB's tables (session 28,
 * bench/RESULTS.md "Fibonacci hashing for the partitions and tables"): a
 * CPU simulation of operators/groupby_kernels.cuh pgb_slot (double hashing
 * from the home hash_frac(k, bits) >> sh, an odd step from the 16 bits
 * below, at most 32 probes, then the global table) for keys 0..g-1 hashed
 * as operators/hash.cuh hash_key does with multiplier M (0: murmur's
 * finaliser, the hash before), over PGB's plans (groups, partition bits,
 * table slots). Prints per plan the mean over warps of 32 random keys of
 * the longest search (1.00: no two keys share a home), over 4 partitions.
 *
 *   make build/bench/hash_sim (or make bench-tools)
 *   build/bench/hash_sim [M ...]      the plans below for each M (hex)
 *   build/bench/hash_sim --search N SEED    N random odd M whose continued
 *                                     fraction M / 2^32 has partial
 *                                     quotients <= 3 up to 2^30; prints
 *                                     each that lowers the worst plan */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t fmix(uint32_t h)
{
    h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
    return h;
}

/* the product whose top bits partition and whose next bits give the home */
static uint32_t product(uint32_t M, uint32_t k) { return M ? k * M : fmix(k); }

/* PGB's plans (operators/shapes.h gj_pgb_plan at 2^26..2^28 rows, 4-byte
 * keys, two 4-byte aggregates): groups, partition bits, table slots */
static const uint32_t plans[][3] = {
    {2048, 0, 4096},    {4096, 0, 16384},   {4096, 1, 4096},    {1u << 17, 5, 8192}, {1u << 18, 6, 8192},
    {1u << 19, 7, 8192}, {1u << 20, 8, 8192}, {1u << 21, 8, 16384}, {1u << 22, 9, 16384}, {1u << 23, 10, 16384},
    {1u << 24, 12, 8192}, {1u << 25, 13, 8192}, {1u << 26, 14, 8192}, {1000000, 7, 16384}, {3000000, 9, 16384}};
enum { NPLANS = sizeof plans / sizeof plans[0], PARTS = 4, MAXP = 32 };

static uint32_t keys[1u << 22], tab[16384];
static int steps[1u << 22];

static double warp_longest(uint32_t M, uint32_t g, int bits, uint32_t ts)
{
    const int sh = 64 - __builtin_ctz(ts);
    double sum = 0;
    long warps = 0;
    for (int q = 0; q < PARTS; q++) {
        const uint32_t part = bits ? (5u + 97u * (uint32_t)q) & ((1u << bits) - 1) : 0;
        uint32_t n = 0;
        for (uint32_t k = 0; k < g; k++)
            if (!bits || product(M, k) >> (32 - bits) == part) keys[n++] = k;
        for (uint32_t i = n - 1; n && i > 0; i--) { /* rows arrive in random order */
            const uint32_t j = (uint32_t)rand() % (i + 1), t = keys[i];
            keys[i] = keys[j], keys[j] = t;
        }
        memset(tab, 0xff, sizeof tab);
        for (uint32_t i = 0; i < n; i++) {
            const uint64_t f = (uint64_t)(bits ? product(M, keys[i]) << bits : product(M, keys[i])) << 32;
            const uint32_t step = ((uint32_t)(f >> (sh - 16)) | 1u) & (ts - 1);
            uint32_t s = (uint32_t)(f >> sh);
            int st = 1;
            while (tab[s] != 0xffffffffu && st <= MAXP) s = (s + step) & (ts - 1), st++;
            if (st <= MAXP) tab[s] = keys[i];
            else st = 2 * MAXP; /* past the bound: the global table */
            steps[i] = st;
        }
        for (uint32_t w = 0; w + 32 <= n; w += 32) {
            int m = 0;
            for (int i = 0; i < 32; i++) m = steps[w + i] > m ? steps[w + i] : m;
            sum += m, warps++;
        }
    }
    return warps ? sum / warps : 0;
}

/* the largest partial quotient of M / 2^32 among convergents up to 2^30 */
static unsigned max_quotient(uint32_t M)
{
    uint64_t num = M, den = 1ull << 32, q0 = 0, q1 = 1;
    unsigned mx = 0;
    for (int first = 1; den; first = 0) {
        const uint64_t t = num / den, r = num - t * den, q2 = t * q1 + q0;
        num = den, den = r;
        if (!first) {
            if (q1 > (1ull << 30)) break;
            mx = t > mx ? (unsigned)t : mx;
        }
        q0 = q1, q1 = q2;
    }
    return mx;
}

static double report(uint32_t M, int print)
{
    double worst = 0;
    if (print) printf("M=%08x (largest partial quotient %u):", M, M ? max_quotient(M) : 0);
    for (int c = 0; c < NPLANS; c++) {
        const double w = warp_longest(M, plans[c][0], (int)plans[c][1], plans[c][2]);
        worst = w > worst ? w : worst;
        if (print) printf(" %.2f", w);
    }
    if (print) printf("  worst %.2f\n", worst);
    return worst;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--search")) {
        const long n = atol(argv[2]);
        double best = 1e9;
        srand((unsigned)atoi(argv[3]));
        for (long i = 0; i < n; i++) {
            uint32_t M;
            do M = ((uint32_t)rand() << 16 ^ (uint32_t)rand()) | 1u;
            while (max_quotient(M) > 3);
            const double w = report(M, 0);
            if (w < best) best = w, report(M, 1);
        }
        return 0;
    }
    printf("plans (groups/bits/slots):");
    for (int c = 0; c < NPLANS; c++) printf(" %u/%u/%u", plans[c][0], plans[c][1], plans[c][2]);
    printf("\n");
    if (argc < 2) {
        report(0, 1);
        report(0x9E3779B1u, 1);
        report(0xC8199275u, 1);
    }
    for (int i = 1; i < argc; i++) report((uint32_t)strtoul(argv[i], NULL, 16), 1);
    return 0;
}
