/* Spot-check arithmetic: bytes to the model's K, errors, the effective
 * capacity of a capacity scan, and the seeded choice of points.  See
 * spot.h; nothing here touches CUDA. */
#include "spot/spot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/phases.h"

const char *const pascal_spot_start_names[2] = {"cold", "warm"};

/* Algorithm 1 runs H rounds; every round each of the M CTAs requests one
 * block, so fills per round are the fill-equivalent blocks over H. */
double pascal_spot_k_static(double fill_bytes, double block_bytes, int64_t rounds)
{
    if (!(block_bytes > 0) || rounds < 1)
        return NAN;
    return fill_bytes / (block_bytes * (double)rounds);
}

/* Eq. 14: A(H) = V(H) / b fill-equivalent blocks, H = W N, K_H = A(H) / H. */
double pascal_spot_k_dynamic(double fill_bytes, double block_bytes, int64_t N, int64_t W)
{
    if (!(block_bytes > 0) || N < 1 || W < 1)
        return NAN;
    return fill_bytes / block_bytes / ((double)W * (double)N);
}

/* Figure 2's vertical axis: off-chip fills per scanned (footprint) byte. */
double pascal_spot_fill_ratio(double fill_bytes, double footprint_bytes)
{
    if (!(footprint_bytes > 0))
        return NAN;
    return fill_bytes / footprint_bytes;
}

double pascal_spot_abs_err(double measured, double predicted)
{
    return fabs(measured - predicted);
}

double pascal_spot_rel_err(double measured, double predicted)
{
    if (isnan(measured) || isnan(predicted) || measured == 0)
        return NAN;
    return fabs(measured - predicted) / fabs(measured);
}

int pascal_spot_mean_sd(const double *x, int n, double *mean, double *sd)
{
    double s = 0, ss = 0, m;
    int used = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(x[i]))
            s += x[i], used++;
    *mean = used ? s / used : NAN;
    *sd = NAN;
    if (used < 2)
        return used;
    m = *mean;
    for (int i = 0; i < n; i++)
        if (!isnan(x[i]))
            ss += (x[i] - m) * (x[i] - m);
    *sd = sqrt(ss / (used - 1));
    return used;
}

int pascal_spot_effective_capacity(const double *footprints, const double *ratio, int n,
                                   double threshold, double *eff_bytes, int *crossed,
                                   pascal_error *err)
{
    *eff_bytes = NAN;
    *crossed = 0;
    if (n < 1)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "capacity scan: expected at least one footprint, got none");
    for (int i = 1; i < n; i++)
        if (!(footprints[i] > footprints[i - 1]))
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "capacity scan: footprints must ascend, got %.17g after %.17g",
                                    footprints[i], footprints[i - 1]);
    for (int i = 0; i < n; i++) {
        if (ratio[i] > threshold) {
            *crossed = 1;
            return 0;
        }
        *eff_bytes = footprints[i];
    }
    return 0;
}

/* ---- seeded sample: k smallest keys, kept in a max-heap ----------------- */

typedef struct keyed {
    uint64_t key;
    int64_t ordinal;
} keyed;

static int keyed_less(keyed a, keyed b)
{
    return a.key < b.key || (a.key == b.key && a.ordinal < b.ordinal);
}

static void heap_sift_down(keyed *h, int64_t n, int64_t i)
{
    for (;;) {
        int64_t l = 2 * i + 1, r = l + 1, big = i;
        keyed t;
        if (l < n && keyed_less(h[big], h[l]))
            big = l;
        if (r < n && keyed_less(h[big], h[r]))
            big = r;
        if (big == i)
            return;
        t = h[i], h[i] = h[big], h[big] = t;
        i = big;
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int pascal_spot_sample(int64_t n, int64_t k, uint64_t seed, int64_t *out, pascal_error *err)
{
    keyed *h;
    if (k < 1 || k > n)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "--sample: expected a count from 1 to %lld (the points kept by "
                                "the spec), got %lld",
                                (long long)n, (long long)k);
    h = malloc((size_t)k * sizeof *h);
    if (!h)
        return pascal_error_set(err, PASCAL_ENOMEM, "sample: out of memory");
    for (int64_t i = 0; i < k; i++)
        h[i] = (keyed){pascal_rng_u64(seed, PASCAL_SPOT_SAMPLE_KEY, (uint64_t)i), i};
    for (int64_t i = k / 2 - 1; i >= 0; i--)
        heap_sift_down(h, k, i);
    for (int64_t i = k; i < n; i++) {
        keyed c = {pascal_rng_u64(seed, PASCAL_SPOT_SAMPLE_KEY, (uint64_t)i), i};
        if (keyed_less(c, h[0])) {
            h[0] = c;
            heap_sift_down(h, k, 0);
        }
    }
    for (int64_t i = 0; i < k; i++)
        out[i] = h[i].ordinal;
    free(h);
    qsort(out, (size_t)k, sizeof *out, cmp_i64);
    return 0;
}

/* ---- explicit selection "0,3,5-9" ---------------------------------------- */

static int parse_ordinal(const char **s, int64_t *v)
{
    char *end;
    long long x;
    if (**s < '0' || **s > '9')
        return -1;
    errno = 0;
    x = strtoll(*s, &end, 10);
    if (errno)
        return -1;
    *v = x;
    *s = end;
    return 0;
}

static int append_range(int64_t **list, int64_t *count, int64_t *cap, int64_t lo, int64_t hi)
{
    if (hi - lo + 1 > (int64_t)1 << 26 || *count + (hi - lo + 1) > (int64_t)1 << 26)
        return -1;
    while (*count + (hi - lo + 1) > *cap) {
        int64_t ncap = *cap ? *cap * 2 : 64;
        int64_t *p = realloc(*list, (size_t)ncap * sizeof *p);
        if (!p)
            return -2;
        *list = p, *cap = ncap;
    }
    for (int64_t v = lo; v <= hi; v++)
        (*list)[(*count)++] = v;
    return 0;
}

/* One item "a" or "a-b"; returns 0 or an error code. */
static int parse_item(const char **s, const char *text, int64_t n, int64_t *lo, int64_t *hi,
                      pascal_error *err)
{
    const char *start = *s;
    int len;
    if (parse_ordinal(s, lo) != 0)
        goto bad;
    *hi = *lo;
    if (**s == '-') {
        (*s)++;
        if (parse_ordinal(s, hi) != 0 || *hi < *lo)
            goto bad;
    }
    if (**s != ',' && **s != 0)
        goto bad;
    if (*hi >= n)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "--select: expected point numbers below %lld (the points kept "
                                "by the spec), got %lld",
                                (long long)n, (long long)*hi);
    return 0;
bad:
    len = (int)strcspn(start, ",");
    return pascal_error_set(err, PASCAL_EINPUT,
                            "--select: expected a point number or a range like 5-9, got \"%.*s\" "
                            "in \"%s\"",
                            len, start, text);
}

int pascal_spot_parse_select(const char *text, int64_t n, int64_t **out, int64_t *count,
                             pascal_error *err)
{
    int64_t *list = NULL, cap = 0, lo = 0, hi = 0;
    const char *s = text;
    int rc;
    *out = NULL, *count = 0;
    if (!*s)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "--select: expected point numbers like 0,3,5-9, got nothing");
    for (;;) {
        if ((rc = parse_item(&s, text, n, &lo, &hi, err)) != 0)
            goto fail;
        if ((rc = append_range(&list, count, &cap, lo, hi)) != 0) {
            rc = rc == -2 ? pascal_error_set(err, PASCAL_ENOMEM, "--select: out of memory")
                          : pascal_error_set(err, PASCAL_EINPUT,
                                             "--select: expected at most 67108864 points, got "
                                             "more in \"%s\"", text);
            goto fail;
        }
        if (!*s)
            break;
        s++;
    }
    qsort(list, (size_t)*count, sizeof *list, cmp_i64);
    for (int64_t i = 1; i < *count; i++)
        if (list[i] == list[i - 1]) {
            rc = pascal_error_set(err, PASCAL_EINPUT,
                                  "--select: expected each point once, got %lld twice in \"%s\"",
                                  (long long)list[i], text);
            goto fail;
        }
    *out = list;
    return 0;
fail:
    free(list);
    *count = 0;
    return rc;
}
