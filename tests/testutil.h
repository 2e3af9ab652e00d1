/* Small additions to cmocka shared by the tests. */
#ifndef GJ_TESTUTIL_H
#define GJ_TESTUTIL_H

#include <math.h>

/* |a - b| <= eps, with both values in the failure message. */
#define assert_double_equal(a, b, eps)                                                     \
    do {                                                                                   \
        double a_ = (a), b_ = (b);                                                         \
        if (!(fabs(a_ - b_) <= (eps)))                                                     \
            fail_msg("%s = %.17g, expected %s = %.17g (eps %g)", #a, a_, #b, b_, (double)(eps)); \
    } while (0)

#endif
