/* The static workspace's sort (model/static_ws.h), below every file that
 * prepares a workspace: static.c (groups and gaps), static_rd.c (reuse
 * distances, residency intervals) and static_multi.c (several streams)
 * call it, and it calls none of them. */
#include "model/static_ws.h"

#include <string.h>

/* Ascending sort of plain int64 values: insertion sort on runs of 16, then
 * bottom-up merges through tmp.  Not qsort: glibc's may allocate, and
 * composite keys (phase, index) are packed into one value by the callers so
 * no comparator or indirection is needed. */
void pascal_static_sort_(int64_t *a, int64_t n, int64_t *tmp)
{
    enum { RUN = 16 };
    for (int64_t lo = 0; lo < n; lo += RUN) {
        int64_t hi = lo + RUN < n ? lo + RUN : n;
        for (int64_t i = lo + 1; i < hi; i++) {
            int64_t v = a[i], j = i;
            for (; j > lo && a[j - 1] > v; j--)
                a[j] = a[j - 1];
            a[j] = v;
        }
    }
    int64_t *src = a, *dst = tmp;
    for (int64_t width = RUN; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                dst[o++] = src[j] < src[i] ? src[j++] : src[i++];
            while (i < mid)
                dst[o++] = src[i++];
            while (j < hi)
                dst[o++] = src[j++];
        }
        int64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, (size_t)n * sizeof *a);
}
