/* The longest of a warp's 32 successful searches in an open-addressing
 * table at load alpha (bench/RESULTS.md, Group-by, session 14): linear
 * probing over buckets of B slots from a random home bucket, a bucket read
 * being one (vector) load; B = 1 is plain linear probing, the model's
 * probe_longest (model/time.c). Tables of 8192 slots, 300 tables and 100
 * warps of 32 searches (of random keys in the table) at every load.
 *   make bench-tools; build/bench/probe_lengths */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
static uint64_t s = 88172645463325252ull;
static uint64_t rnd(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
int main(void)
{
    enum { TS = 8192 };
    static int used[TS], dist[TS];
    const double alphas[] = {0.125, 0.25, 0.375, 0.5, 0.625, 0.75};
    const int Bs[] = {1, 2, 4, 8};
    printf("alpha  B=1 (slot reads)  B=2  B=4  B=8   (mean longest of 32 lanes, in reads)\n");
    for (int ai = 0; ai < 6; ai++) {
        printf("%.3f", alphas[ai]);
        for (int bi = 0; bi < 4; bi++) {
            const int B = Bs[bi], NB = TS / B, n = (int)(alphas[ai] * TS);
            double sum = 0;
            long cnt = 0;
            for (int t = 0; t < 300; t++) {
                memset(used, 0, sizeof used);
                for (int i = 0; i < n; i++) {
                    int h = (int)((rnd() >> 11) % NB), b = h;
                    for (;; b = (b + 1) % NB) {
                        int j;
                        for (j = 0; j < B && used[b * B + j]; j++) ;
                        if (j < B) { used[b * B + j] = 1; break; }
                    }
                    dist[i] = (b - h + NB) % NB + 1;
                }
                for (int w = 0; w < 100; w++) {
                    int mx = 0;
                    for (int l = 0; l < 32; l++) { int d = dist[(int)((rnd() >> 11) % n)]; if (d > mx) mx = d; }
                    sum += mx; cnt++;
                }
            }
            printf("  %6.2f", sum / cnt);
        }
        printf("\n");
    }
    return 0;
}
