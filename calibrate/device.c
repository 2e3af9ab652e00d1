/* Device discovery and identity through the CUDA runtime's C API. */
#include "common/internal.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

int gj_gpu_count(int *n, gj_ctx *ctx)
{
    int count = 0;
    if (!n) return gj_seterr(ctx, GJ_ERR_INVALID, "n is NULL");
    *n = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        cudaGetLastError(); /* clear */
        return gj_seterr(ctx, GJ_ERR_NODEVICE, "no CUDA device: %s", cudaGetErrorString(e));
    }
    *n = count;
    return count > 0 ? GJ_OK : gj_seterr(ctx, GJ_ERR_NODEVICE, "no CUDA device present");
}

static int attr(int *v, enum cudaDeviceAttr a, int dev)
{
    *v = 0;
    if (cudaDeviceGetAttribute(v, a, dev) != cudaSuccess) {
        cudaGetLastError();
        *v = 0;
        return -1;
    }
    return 0;
}

int gj_gpu_identify(int ordinal, gj_device *out, gj_ctx *ctx)
{
    int n = 0, rc = gj_gpu_count(&n, ctx);
    if (rc != GJ_OK) return rc;
    if (!out || ordinal < 0 || ordinal >= n)
        return gj_seterr(ctx, GJ_ERR_INVALID, "device=%d: allowed 0 to %d", ordinal, n - 1);
    struct cudaDeviceProp prop;
    cudaError_t e = cudaGetDeviceProperties(&prop, ordinal);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return gj_seterr(ctx, GJ_ERR_CUDA, "cudaGetDeviceProperties(%d): %s", ordinal,
                         cudaGetErrorString(e));
    }
    memset(out, 0, sizeof *out);
    gj_strlcpy(out->name, prop.name, sizeof out->name);
    const unsigned char *u = (const unsigned char *)prop.uuid.bytes;
    snprintf(out->uuid, sizeof out->uuid,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    out->cc_major = prop.major;
    out->cc_minor = prop.minor;
    out->sm_count = prop.multiProcessorCount;
    out->mem_bytes = prop.totalGlobalMem;
    out->l2_bytes = (uint64_t)prop.l2CacheSize;
    out->smem_per_block = prop.sharedMemPerBlockOptin;
    out->smem_per_sm = prop.sharedMemPerMultiprocessor;
    out->mem_bus_bits = prop.memoryBusWidth;
    int khz;
    if (!attr(&khz, cudaDevAttrClockRate, ordinal)) out->clock_mhz = khz / 1000;
    if (!attr(&khz, cudaDevAttrMemoryClockRate, ordinal)) out->mem_clock_mhz = khz / 1000;
    cudaDriverGetVersion(&out->driver_version);
    cudaRuntimeGetVersion(&out->runtime_version);
    cudaGetLastError();
    return GJ_OK;
}
