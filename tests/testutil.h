/* Small additions to cmocka shared by the tests. */
#ifndef GJ_TESTUTIL_H
#define GJ_TESTUTIL_H

#include <math.h>
#include <stdint.h>

/* |a - b| <= eps, with both values in the failure message. */
#define assert_double_equal(a, b, eps)                                                     \
    do {                                                                                   \
        double a_ = (a), b_ = (b);                                                         \
        if (!(fabs(a_ - b_) <= (eps)))                                                     \
            fail_msg("%s = %.17g, expected %s = %.17g (eps %g)", #a, a_, #b, b_, (double)(eps)); \
    } while (0)

/* murmur3's finalisers (operators/hash.cuh fmix), as the generator mixes
 * sparse keys: for inputs a test must make on the host as it does. */
static inline uint32_t test_fmix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}
static inline uint64_t test_fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

/* A uniform draw in [0, 1) from xorshift64 state *x (nonzero): for tests
 * that play a rule on random inputs. */
static inline double test_uniform01(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return (double)(*x >> 11) / 9007199254740992.0;
}

/* operators/hash.cuh hash_key: the Fibonacci product of a key of kw bytes,
 * bit-reversed, as the partitions (PGB, PHJ on skewed keys) hash keys: for
 * inputs whose hashed keys a test must choose on the host. */
static inline uint64_t test_hash_key(int kw, uint64_t k)
{
    uint64_t p = kw == 4 ? (uint32_t)((uint32_t)k * 0xC8199275u) : k * 0x9E3779B97F4A7C15ull, r = 0;
    for (int i = 0; i < 8 * kw; i++, p >>= 1) r = r << 1 | (p & 1);
    return r;
}

#endif
