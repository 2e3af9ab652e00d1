/* Workload generators (gen.h): counter-based, deterministic per seed.
 * Kernels first, then the extern "C" dispatch (the only code with <<<). */
extern "C" {
#include "common/internal.h" /* C linkage: internal.h has no extern "C" guard */
}
#include "operators/common.cuh"
#include "operators/gen.h"
#include "operators/hash.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <math.h>

namespace {

/* ---- counter-based random numbers and the keyed bijection -------------- */

__host__ __device__ inline uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

__device__ inline uint64_t rnd(uint64_t seed, uint64_t i, uint64_t stream)
{
    return mix64(mix64(seed ^ (stream * 0xd1b54a32d192ed03ULL)) + i);
}

/* uniform double in [0, 1) from 53 random bits */
__device__ inline double rnd01(uint64_t seed, uint64_t i, uint64_t stream)
{
    return (double)(rnd(seed, i, stream) >> 11) * (1.0 / 9007199254740992.0);
}

/* A bijection on [0, 2^bits): every step (multiply by odd, xor with a right
 * shift, add a constant, all modulo 2^bits) is invertible. */
struct Perm {
    uint64_t n, mask;
    int bits, shift;
    uint64_t mul[4], add[4];
};

Perm make_perm(uint64_t n, uint64_t seed)
{
    Perm p;
    p.n = n;
    p.bits = 0;
    while (p.bits < 64 && (1ULL << p.bits) < n) p.bits++;
    p.mask = p.bits == 64 ? ~0ULL : (1ULL << p.bits) - 1;
    p.shift = p.bits / 2 > 0 ? (p.bits + 1) / 2 : 1;
    for (int r = 0; r < 4; r++) {
        p.mul[r] = mix64(seed * 4 + r) | 1;
        p.add[r] = mix64(~seed * 4 + r);
    }
    return p;
}

__device__ inline uint64_t perm_step(const Perm &p, uint64_t x)
{
#pragma unroll
    for (int r = 0; r < 4; r++) {
        x = (x * p.mul[r]) & p.mask;
        x ^= x >> p.shift;
        x = (x + p.add[r]) & p.mask;
    }
    return x;
}

/* cycle-walk into [0, n): expected < 2 steps since 2^bits < 2n */
__device__ inline uint64_t perm_apply(const Perm &p, uint64_t x)
{
    if (p.n <= 1) return 0;
    do x = perm_step(p, x); while (x >= p.n);
    return x;
}

template <typename T>
__global__ void shuffled_kernel(T *out, uint64_t n, Perm p)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        out[i] = (T)perm_apply(p, i);
}

template <typename T>
__global__ void uniform_kernel(T *out, uint64_t n, uint64_t domain, uint64_t seed)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        out[i] = (T)__umul64hi(rnd(seed, i, 1), domain); /* Lemire: floor(r * domain / 2^64) */
}

/* ---- Zipf by rejection-inversion (Hoermann and Derflinger 1996) -------- */

struct Zipf {
    double s, n, hx1, hn, sq;
};

__host__ __device__ inline double helper1(double x) /* log1p(x)/x */
{
    return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}
__host__ __device__ inline double helper2(double x) /* expm1(x)/x */
{
    return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x * (1.0 / 3) * (1 + 0.25 * x));
}
__host__ __device__ inline double zh(double s, double x) { return exp(-s * log(x)); }
__host__ __device__ inline double zH(double s, double x)
{
    double lx = log(x);
    return helper2((1 - s) * lx) * lx;
}
__host__ __device__ inline double zHinv(double s, double x)
{
    double t = x * (1 - s);
    if (t < -1) t = -1;
    return exp(helper1(t) * x);
}

Zipf make_zipf(uint64_t n, double s)
{
    Zipf z;
    z.s = s;
    z.n = (double)n;
    z.hx1 = zH(s, 1.5) - 1;
    z.hn = zH(s, z.n + 0.5);
    z.sq = 2 - zHinv(s, zH(s, 2.5) - zh(s, 2));
    return z;
}

template <typename T>
__global__ void zipf_kernel(T *out, uint64_t n, Zipf z, Perm p, uint64_t seed)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t k = 1;
        for (uint64_t a = 0;; a++) {
            double u = z.hn + rnd01(seed, i, 16 + a) * (z.hx1 - z.hn);
            double x = zHinv(z.s, u);
            double kd = floor(x + 0.5);
            if (kd < 1) kd = 1;
            else if (kd > z.n) kd = z.n;
            if (kd - x <= z.sq || u >= zH(z.s, kd + 0.5) - zh(z.s, kd)) {
                k = (uint64_t)kd;
                break;
            }
        }
        out[i] = (T)perm_apply(p, k - 1);
    }
}

template <typename T>
__global__ void int_values_kernel(T *out, uint64_t n, uint64_t seed)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        out[i] = (T)rnd(seed, i, 2);
}

template <typename F>
__global__ void float_values_kernel(F *out, uint64_t n, uint64_t seed)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        out[i] = (F)(rnd01(seed, i, 3) * 2000.0 - 1000.0);
}

template <typename T>
__global__ void offset_kernel(T *k, uint64_t n, uint64_t off, int mix)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        const T v = (T)(k[i] + (T)off);
        k[i] = !mix ? v : sizeof(T) == 4 ? (T)gjh::fmix((uint32_t)v) : (T)gjh::fmix((uint64_t)v); /* murmur's */
    }
}

template <typename T>
__global__ void mismatch_kernel(T *k, uint64_t n, uint64_t keep)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        if ((uint64_t)k[i] >= keep) k[i] = (T)(k[i] + n);
}

template <typename T>
__global__ void runs_kernel(T *k, uint64_t n, uint64_t run)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        if (i % run) k[i] = k[i - i % run]; /* the runs' first rows are not written */
}

const uint64_t ZIPF_PERM_SEED = 0x5eedf00dULL; /* the fixed rank -> key bijection */

int grid_for(uint64_t n)
{
    uint64_t b = (n + 255) / 256;
    return (int)(b < 4096 ? (b ? b : 1) : 4096);
}

int check(int width, uint64_t n, const void *p, gj_ctx *ctx)
{
    if (width != 4 && width != 8)
        return gj_seterr(ctx, GJ_ERR_INVALID, "width=%d: allowed 4 or 8", width);
    if (n && !p) return gj_seterr(ctx, GJ_ERR_INVALID, "column pointer is NULL");
    return GJ_OK;
}

} // namespace

/* ---- dispatch ----------------------------------------------------------- */

#define GJ_GEN_LAUNCH(kern, ptr, ...)                                                       \
    do {                                                                                    \
        if (width == 4)                                                                     \
            kern<uint32_t><<<grid_for(n), 256, 0, s>>>((uint32_t *)(ptr), __VA_ARGS__);     \
        else                                                                                \
            kern<uint64_t><<<grid_for(n), 256, 0, s>>>((uint64_t *)(ptr), __VA_ARGS__);     \
        GJ_LAUNCHED();                                                                      \
    } while (0)

extern "C" int gj_gen_shuffled_keys(void *d_keys, int width, uint64_t n, uint64_t seed,
                                    cudaStream_t s, gj_ctx *ctx)
{
    int rc = check(width, n, d_keys, ctx);
    if (rc != GJ_OK || n == 0) goto done;
    if (width == 4 && n > (1ULL << 32)) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "n=%llu: 4-byte keys allow at most 2^32",
                       (unsigned long long)n);
        goto done;
    }
    GJ_GEN_LAUNCH(shuffled_kernel, d_keys, n, make_perm(n, seed));
done:
    return rc;
}

extern "C" int gj_gen_uniform_keys(void *d_keys, int width, uint64_t n, uint64_t domain,
                                   uint64_t seed, cudaStream_t s, gj_ctx *ctx)
{
    int rc = check(width, n, d_keys, ctx);
    if (rc != GJ_OK) goto done;
    if (domain == 0 || (width == 4 && domain > (1ULL << 32))) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "domain=%llu: allowed 1 to 2^%d",
                       (unsigned long long)domain, width == 4 ? 32 : 64);
        goto done;
    }
    if (n == 0) goto done;
    GJ_GEN_LAUNCH(uniform_kernel, d_keys, n, domain, seed);
done:
    return rc;
}

extern "C" int gj_gen_zipf_keys(void *d_keys, int width, uint64_t n, uint64_t domain, double z,
                                uint64_t seed, cudaStream_t s, gj_ctx *ctx)
{
    int rc = check(width, n, d_keys, ctx);
    if (rc != GJ_OK) goto done;
    if (!(z >= 0) || !isfinite(z) || z > 100) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "zipf=%g: allowed 0 to 100", z);
        goto done;
    }
    if (z == 0) {
        rc = gj_gen_uniform_keys(d_keys, width, n, domain, seed, s, ctx);
        goto done;
    }
    if (domain == 0 || (width == 4 && domain > (1ULL << 32)) || domain > (1ULL << 53)) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "domain=%llu: allowed 1 to 2^%d",
                       (unsigned long long)domain, width == 4 ? 32 : 53);
        goto done;
    }
    if (n == 0) goto done;
    GJ_GEN_LAUNCH(zipf_kernel, d_keys, n, make_zipf(domain, z), make_perm(domain, ZIPF_PERM_SEED),
                  seed);
done:
    return rc;
}

extern "C" int gj_gen_values(void *d_col, int width, gj_dtype type, uint64_t n, uint64_t seed,
                             cudaStream_t s, gj_ctx *ctx)
{
    int rc = check(width, n, d_col, ctx);
    if (rc != GJ_OK || n == 0) goto done;
    if (type == GJ_DT_FLOAT) {
        if (width == 4) float_values_kernel<float><<<grid_for(n), 256, 0, s>>>((float *)d_col, n, seed);
        else float_values_kernel<double><<<grid_for(n), 256, 0, s>>>((double *)d_col, n, seed);
        GJ_LAUNCHED();
    } else if (type == GJ_DT_INT) {
        GJ_GEN_LAUNCH(int_values_kernel, d_col, n, seed);
    } else {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "type=%d: allowed int or float", (int)type);
    }
done:
    return rc;
}

extern "C" int gj_gen_offset_keys(void *d_keys, int width, uint64_t n, uint64_t offset, int mix,
                                  cudaStream_t s, gj_ctx *ctx)
{
    int rc = check(width, n, d_keys, ctx);
    if (rc != GJ_OK || n == 0) goto done;
    GJ_GEN_LAUNCH(offset_kernel, d_keys, n, offset, mix);
done:
    return rc;
}

template <typename K> static int sort_keys(K *keys, uint64_t n, cudaStream_t s, gj_ctx *ctx)
{
    int rc = GJ_OK;
    size_t bytes = 0;
    void *tmp = NULL;
    K *out = NULL;
    GJ_CUDA(cub::DeviceRadixSort::SortKeys(NULL, bytes, keys, out, (int)n, 0, 8 * (int)sizeof(K), s));
    GJ_CUDA(cudaMalloc(&tmp, bytes));
    GJ_CUDA(cudaMalloc((void **)&out, n * sizeof(K)));
    GJ_CUDA(cub::DeviceRadixSort::SortKeys(tmp, bytes, keys, out, (int)n, 0, 8 * (int)sizeof(K), s));
    GJ_CUDA(cudaMemcpyAsync(keys, out, n * sizeof(K), cudaMemcpyDeviceToDevice, s));
    GJ_CUDA(cudaStreamSynchronize(s));
done:
    cudaFree(tmp);
    cudaFree(out);
    return rc;
}

extern "C" int gj_gen_sort_keys(void *d_keys, int width, uint64_t n, cudaStream_t s, gj_ctx *ctx)
{
    int rc = check(width, n, d_keys, ctx);
    if (rc != GJ_OK || n < 2) return rc;
    if (n > 0x7fffffffull)
        return gj_seterr(ctx, GJ_ERR_INVALID, "gj_gen_sort_keys: n=%llu: allowed at most 2^31-1",
                         (unsigned long long)n);
    return width == 4 ? sort_keys((uint32_t *)d_keys, n, s, ctx) : sort_keys((uint64_t *)d_keys, n, s, ctx);
}

extern "C" int gj_gen_runs(void *d_keys, int width, uint64_t n, uint64_t run, cudaStream_t s,
                           gj_ctx *ctx)
{
    int rc = check(width, n, d_keys, ctx);
    if (rc != GJ_OK) goto done;
    if (run == 0) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "run=0: allowed 1 or more");
        goto done;
    }
    if (n == 0 || run == 1) goto done;
    GJ_GEN_LAUNCH(runs_kernel, d_keys, n, run);
done:
    return rc;
}

extern "C" int gj_gen_mismatch_keys(void *d_keys, int width, uint64_t n, uint64_t keep,
                                    cudaStream_t s, gj_ctx *ctx)
{
    int rc = check(width, n, d_keys, ctx);
    if (rc != GJ_OK || n == 0 || keep >= n) goto done;
    if (width == 4 && 2 * n > (1ULL << 32)) {
        rc = gj_seterr(ctx, GJ_ERR_INVALID, "n=%llu: 4-byte keys allow at most 2^31 here",
                       (unsigned long long)n);
        goto done;
    }
    GJ_GEN_LAUNCH(mismatch_kernel, d_keys, n, keep);
done:
    return rc;
}
