/* The meter when CUPTI was not found at configure time: it cannot count, and
 * says so, so that the runner falls back to ncu. */
#include "kernels/cuda/meter.h"

#ifndef PASCAL_HAVE_CUPTI

int pascal_meter_create(int device, int cc_major, const char *metric, pascal_meter **out,
                        char *metric_used, size_t len, pascal_error *err)
{
    (void)device, (void)cc_major, (void)metric, (void)metric_used, (void)len;
    *out = NULL;
    return pascal_error_set(err, -1, "CUPTI was not found when pascal was built");
}

int pascal_meter_begin(pascal_meter *m, pascal_error *err)
{
    (void)m;
    return pascal_error_set(err, -1, "CUPTI was not found when pascal was built");
}

int pascal_meter_end(pascal_meter *m, double *bytes, pascal_error *err)
{
    (void)m, (void)bytes;
    return pascal_error_set(err, -1, "CUPTI was not found when pascal was built");
}

void pascal_meter_free(pascal_meter *m)
{
    (void)m;
}

#else
typedef int pascal_meter_none_unused;
#endif
