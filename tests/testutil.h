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

/* murmur3's finalisers, as operators/hash.cuh hashes keys (and the claimed
 * partition offsets its sample rows: operators/shapes.h): for inputs whose
 * hashed keys a test must choose on the host. */
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

#endif
