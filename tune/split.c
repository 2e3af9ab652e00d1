/* The train/held-out split shared by tune and validate (tune/tune.h). */
#include "tune/tune.h"

#include <stdint.h>

int gj_holdout(const gj_workload *w)
{
    char *json = NULL;
    if (!w || gj_workload_to_json(w, &json) != GJ_OK) return 0;
    uint64_t h = 1469598103934665603ULL; /* FNV-1a, 64 bit */
    for (const unsigned char *p = (const unsigned char *)json; *p; p++) {
        h ^= *p;
        h *= 1099511628211ULL;
    }
    gj_free(json);
    /* the top bits mix best */
    return (int)(h >> 63);
}
