/* Device-machine driver for the group-by operators, for use while
 * bin/gjadvise does not link yet: the same code as `gjadvise run groupby` /
 * `gjadvise bench groupby` (cli/run_groupby.c), plus `bg`, which measures
 * B_G as a device-to-device copy (bytes read + written), median of 9 after
 * a warm-up, CUDA events.
 *   build/bench/groupby_bench run   [run groupby flags]
 *   build/bench/groupby_bench bench [bench groupby flags]
 *   build/bench/groupby_bench bg [BYTES]
 * Built by the command at the top of bench/groupby_device.sh. */
#include "cli/cli.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_f(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

static int bg(uint64_t bytes)
{
    void *a = NULL, *b = NULL;
    cudaEvent_t e0, e1;
    float ms[9];
    if (cudaMalloc(&a, bytes) || cudaMalloc(&b, bytes)) { fprintf(stderr, "bg: cudaMalloc failed\n"); return 1; }
    cudaMemset(a, 1, bytes);
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
    for (int i = 0; i < 9; i++) {
        cudaEventRecord(e0, 0);
        cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0);
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms[i], e0, e1);
    }
    qsort(ms, 9, sizeof ms[0], cmp_f);
    printf("B_G device-to-device copy of %.2f GB: median %.4f ms, %.1f GB/s (read + write), min %.4f max %.4f\n",
           bytes / 1e9, ms[4], 2.0 * bytes / (ms[4] * 1e6), ms[0], ms[8]);
    cudaFree(a);
    cudaFree(b);
    return cudaGetLastError() != cudaSuccess;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "run")) return gj_cli_run_groupby(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "bench")) return gj_cli_bench_groupby(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "bg")) return bg(argc > 2 ? strtoull(argv[2], NULL, 0) : (4ull << 30));
    fprintf(stderr, "usage: groupby_bench run|bench|bg ...\n");
    return 2;
}
