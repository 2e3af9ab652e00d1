/* Statistics of repeated calibration runs, with GSL: median, quartiles,
 * relative interquartile spread. Plain C, no GPU: tested on the CPU. */
#include "calibrate/calibrate.h"

#include <ctype.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int gj_cal_summarize(const double *x, int n, gj_cal_stat *out)
{
    int rc = GJ_OK;
    double *s = NULL;
    if (!x || !out || n < 1) {
        rc = GJ_ERR_INVALID;
        goto done;
    }
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) {
            rc = GJ_ERR_INVALID;
            goto done;
        }
    if (!(s = malloc((size_t)n * sizeof *s))) {
        rc = GJ_ERR_NOMEM;
        goto done;
    }
    memcpy(s, x, (size_t)n * sizeof *s);
    gsl_sort(s, 1, (size_t)n);
    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    out->median = gsl_stats_median_from_sorted_data(s, 1, (size_t)n);
    out->q1 = gsl_stats_quantile_from_sorted_data(s, 1, (size_t)n, 0.25);
    out->q3 = gsl_stats_quantile_from_sorted_data(s, 1, (size_t)n, 0.75);
    out->spread = out->median != 0 ? fabs((out->q3 - out->q1) / out->median) : 0;
done:
    free(s);
    return rc;
}

int gj_cal_pick(const gj_cal_stat *a, const gj_cal_stat *b)
{
    if (!b) return 0;
    if (!a) return 1;
    return b->spread < a->spread ? 1 : 0;
}

void gj_cal_profile_name(const char *device_name, char *out, size_t n)
{
    char buf[128];
    size_t k = 0;
    int dash = 0;
    if (!out || n == 0) return;
    for (const char *c = device_name ? device_name : ""; *c && k + 1 < sizeof buf; c++) {
        unsigned char ch = (unsigned char)tolower((unsigned char)*c);
        if (isalnum(ch) || ch == '.') {
            if (dash && k > 0) buf[k++] = '-';
            if (k + 1 < sizeof buf) buf[k++] = (char)ch;
            dash = 0;
        } else {
            dash = 1;
        }
    }
    buf[k] = 0;
    const char *start = buf;
    if (!strncmp(start, "nvidia-", 7) && start[7]) start += 7;
    if (!*start) start = "gpu";
    size_t cap = n - 1 < 63 ? n - 1 : 63;
    size_t len = strlen(start);
    if (len > cap) len = cap;
    memcpy(out, start, len);
    out[len] = 0;
    while (len > 0 && (out[len - 1] == '-' || out[len - 1] == '.')) out[--len] = 0;
    if (!len) gj_strlcpy(out, "gpu", n);
}
