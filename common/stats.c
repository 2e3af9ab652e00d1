/* Small statistics every module needs, with GSL. */
#include "common/internal.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>

double gj_median(double *v, int n)
{
    if (!v || n <= 0) return NAN;
    gsl_sort(v, 1, (size_t)n);
    return gsl_stats_median_from_sorted_data(v, 1, (size_t)n);
}
