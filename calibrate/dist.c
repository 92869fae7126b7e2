/* What a reference set says before any fit (calibrate.h,
 * pascal_refs_distribution): how many of its long runs a lock-step model
 * already gets right (K near 1), what assuming K = 1 costs, and how far
 * repeated runs of one configuration spread (several seeds). */
#include "calibrate/calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A run's capacity for grouping: runs at different capacities are different
 * configurations, not repetitions (NaN: the file's one capacity). */
static double cap(const pascal_dyn_ref *r)
{
    return isnan(r->C) ? -1 : r->C;
}

static int cmp_row(const void *x, const void *y)
{
    const pascal_dyn_ref *a = *(const pascal_dyn_ref *const *)x, *b = *(const pascal_dyn_ref *const *)y;
    double ka[7] = {cap(a), (double)a->o, a->path, (double)a->d, (double)a->m, a->N, a->W};
    double kb[7] = {cap(b), (double)b->o, b->path, (double)b->d, (double)b->m, b->N, b->W};
    for (int k = 0; k < 7; k++)
        if (ka[k] != kb[k])
            return ka[k] < kb[k] ? -1 : 1;
    return (a->K > b->K) - (a->K < b->K);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static int same_run(const pascal_dyn_ref *a, const pascal_dyn_ref *b)
{
    return cap(a) == cap(b) && a->o == b->o && a->path == b->path && a->d == b->d &&
           a->m == b->m && a->N == b->N && a->W == b->W;
}

static int same_key(const pascal_dyn_ref *a, const pascal_dyn_ref *b)
{
    return cap(a) == cap(b) && a->o == b->o && a->path == b->path && a->d == b->d && a->m == b->m;
}

/* Linear between order statistics at q (n - 1). */
static double quantile(const double *v, int64_t n, double q)
{
    double at = q * (double)(n - 1);
    int64_t i = (int64_t)floor(at);
    return i + 1 < n ? v[i] + (at - (double)i) * (v[i + 1] - v[i]) : v[i];
}

int pascal_refs_distribution(const pascal_refs *refs, double w_min, pascal_refs_dist *out)
{
    const pascal_dyn_ref **row = malloc((size_t)(refs->n > 0 ? refs->n : 1) * sizeof *row);
    double *spread = malloc((size_t)(refs->n > 0 ? refs->n : 1) * sizeof *spread);
    int64_t n = 0, keys = 0;
    double key_sum = 0, key_err = 0, key_runs = 0;
    memset(out, 0, sizeof *out);
    out->spread_median = out->spread_p90 = out->spread_max = out->aligned_mape = NAN;
    if (!row || !spread) {
        free(row), free(spread);
        return PASCAL_ENOMEM;
    }
    for (int64_t i = 0; i < refs->n; i++)
        if (refs->rows[i].W > w_min)
            row[n++] = &refs->rows[i];
    qsort(row, (size_t)n, sizeof *row, cmp_row);
    out->runs = n;
    for (int64_t i = 0; i < n; i++) {
        out->near_one += row[i]->K <= PASCAL_REFS_NEAR_ONE;
        /* eq. 26's inner term for K = 1, key by key */
        if (i > 0 && !same_key(row[i], row[i - 1])) {
            key_sum += key_err / key_runs, keys++;
            key_err = key_runs = 0;
        }
        key_err += fabs(1 / row[i]->K - 1), key_runs++;
        /* a group of repeated runs: every row of one (key, N, W) */
        if (i > 0 && same_run(row[i], row[i - 1]))
            continue;
        int64_t j = i;
        while (j + 1 < n && same_run(row[j + 1], row[i]))
            j++;
        if (j > i) /* sorted by K within the group */
            spread[out->groups++] = row[j]->K / row[i]->K;
    }
    if (key_runs > 0)
        key_sum += key_err / key_runs, keys++;
    out->keys = keys;
    out->aligned_mape = keys ? 100 * key_sum / (double)keys : NAN;
    if (out->groups > 0) {
        qsort(spread, (size_t)out->groups, sizeof *spread, cmp_double);
        out->spread_median = quantile(spread, out->groups, 0.5);
        out->spread_p90 = quantile(spread, out->groups, 0.9);
        out->spread_max = spread[out->groups - 1];
    }
    free(row), free(spread);
    return 0;
}
