/* The report's lookups from an axis value to its listed index (report/
 * report_internal.h): a sorted copy of the axis's values, built once per
 * axis by either reader of a sweep (scan.c for HDF5, scan_csv.c for CSV),
 * then a binary search per row.  Calls neither reader. */
#include "report/report_internal.h"

#include <math.h>
#include <stdlib.h>

typedef struct rp_vi {
    double v;
    int64_t i;
} rp_vi;

static int cmp_vi(const void *x, const void *y)
{
    double a = ((const rp_vi *)x)->v, b = ((const rp_vi *)y)->v;
    return a < b ? -1 : a > b ? 1 : 0;
}

/* Sorted copy for value -> listed index lookups. */
int pascal_report_index_axis(rp_file *f, rp_axis *a, pascal_error *err)
{
    rp_vi *vi = malloc((size_t)a->count * sizeof *vi);
    int rc = 0;
    a->sorted = malloc((size_t)a->count * sizeof *a->sorted);
    a->order = malloc((size_t)a->count * sizeof *a->order);
    if (!vi || !a->sorted || !a->order) {
        free(vi);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", f->path);
    }
    for (int64_t i = 0; i < a->count; i++)
        vi[i] = (rp_vi){a->values[i], i};
    qsort(vi, (size_t)a->count, sizeof *vi, cmp_vi);
    for (int64_t i = 0; i < a->count && rc == 0; i++) {
        a->sorted[i] = vi[i].v;
        a->order[i] = vi[i].i;
        if (isnan(vi[i].v) || (i > 0 && vi[i].v == vi[i - 1].v))
            rc = pascal_error_set(err, PASCAL_EINPUT,
                                  "%s: /axes/%s: expected distinct numbers, got %g twice or NaN",
                                  f->path, a->name, vi[i].v);
    }
    free(vi);
    return rc;
}

int64_t pascal_report_axis_index(const rp_axis *a, double v)
{
    int64_t lo = 0, hi = a->count - 1;
    while (lo <= hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (a->sorted[mid] < v)
            lo = mid + 1;
        else if (a->sorted[mid] > v)
            hi = mid - 1;
        else
            return a->order[mid];
    }
    return -1;
}
