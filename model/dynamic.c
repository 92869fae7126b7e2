/* Dynamic PASCAL, the numerical stages (paper section 4): geometric means,
 * isotonic regression, Fritsch-Butland PCHIP, the encoding of eq. 20-21,
 * execution classes, the anchored harmonic interpolation of eq. 24, and the
 * per-key, per-horizon aggregation of reference runs.  See dynamic.h. */
#include "model/dynamic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *pascal_dyn_code_name(int code)
{
    switch (code) {
    case PASCAL_DYN_FB_NONE: return "none";
    case PASCAL_DYN_FB_REFERENCE: return "reference";
    case PASCAL_DYN_FB_COMPUTE: return "compute";
    case PASCAL_DYN_FB_DEPTH: return "depth";
    case PASCAL_DYN_FB_REGIME: return "regime";
    case PASCAL_DYN_ERR_FAMILY: return "family";
    case PASCAL_DYN_ERR_CLASS: return "class";
    case PASCAL_DYN_ERR_INVALID: return "invalid";
    case PASCAL_DYN_ERR_DEVICE: return "device";
    case PASCAL_DYN_ERR_WORKLOAD: return "workload";
    case PASCAL_DYN_ERR_CLAMPED: return "clamped";
    case PASCAL_DYN_ERR_CAPACITY: return "capacity";
    default: return "?";
    }
}

pascal_dyn_params pascal_dyn_default_params(void)
{
    pascal_dyn_params p;
    p.eta = PASCAL_DYN_ETA;
    p.eps = PASCAL_DYN_EPS;
    p.N0 = PASCAL_DYN_N0;
    p.sms = p.C = p.block_bytes = NAN;
    return p;
}

int pascal_dyn_key_cmp(const pascal_dyn_key *a, const pascal_dyn_key *b)
{
    if (a->o != b->o)
        return a->o < b->o ? -1 : 1;
    if (a->path != b->path)
        return a->path < b->path ? -1 : 1;
    if (a->d != b->d)
        return a->d < b->d ? -1 : 1;
    if (a->m != b->m)
        return a->m < b->m ? -1 : 1;
    return 0;
}

/* Section 4.4: m = 16q + 8b8 + 4b4 + r; remainders 2 and 3 share the tail. */
int pascal_dyn_class(int64_t m)
{
    int64_t r = m % 4;
    if (r < 0)
        r += 4;
    return r < 2 ? (int)r : 2;
}

double pascal_dyn_geomean(const double *K, int64_t n)
{
    double s = 0;
    if (n < 1)
        return NAN;
    for (int64_t i = 0; i < n; i++)
        s += log(K[i]);
    return exp(s / (double)n);
}

/* Pool-adjacent-violators with equal weights: blocks are kept as (mean,
 * length) on a stack; a new value merges backwards while it is below the
 * block before it. */
void pascal_dyn_isotonic(const double *y, int n, double *out, int *work)
{
    int top = 0;
    for (int i = 0; i < n; i++) {
        double v = y[i];
        int len = 1;
        while (top > 0 && out[top - 1] > v) {
            int l2 = work[top - 1];
            v = (out[top - 1] * l2 + v * len) / (l2 + len);
            len += l2;
            top--;
        }
        out[top] = v;
        work[top] = len;
        top++;
    }
    /* Expand the blocks from the back so the stack is never overwritten
     * before it is read (block k starts at or after position k). */
    for (int k = top - 1, end = n; k >= 0; k--) {
        double v = out[k];
        int len = work[k];
        for (int i = end - len; i < end; i++)
            out[i] = v;
        end -= len;
    }
}

static double sign(double v)
{
    return (v > 0) - (v < 0);
}

/* Shape-preserving three-point end slope (Fritsch-Butland / Moler). */
static double end_slope(double h0, double h1, double d0, double d1)
{
    double s = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
    if (sign(s) != sign(d0))
        return 0;
    if (sign(d0) != sign(d1) && fabs(s) > fabs(3 * d0))
        return 3 * d0;
    return s;
}

void pascal_dyn_pchip_slopes(const double *t, const double *y, int n, double *s)
{
    if (n == 1) {
        s[0] = 0;
        return;
    }
    if (n == 2) {
        s[0] = s[1] = (y[1] - y[0]) / (t[1] - t[0]);
        return;
    }
    for (int k = 1; k < n - 1; k++) {
        double h0 = t[k] - t[k - 1], h1 = t[k + 1] - t[k];
        double d0 = (y[k] - y[k - 1]) / h0, d1 = (y[k + 1] - y[k]) / h1;
        if (d0 * d1 <= 0) {
            s[k] = 0;
        } else {
            /* Fritsch-Butland: weighted harmonic mean, weights 2h1 + h0 and
             * h1 + 2h0; never above 3 min(d0, d1), hence monotone. */
            double w1 = 2 * h1 + h0, w2 = h1 + 2 * h0;
            s[k] = (w1 + w2) / (w1 / d0 + w2 / d1);
        }
    }
    s[0] = end_slope(t[1] - t[0], t[2] - t[1], (y[1] - y[0]) / (t[1] - t[0]),
                     (y[2] - y[1]) / (t[2] - t[1]));
    s[n - 1] = end_slope(t[n - 1] - t[n - 2], t[n - 2] - t[n - 3],
                         (y[n - 1] - y[n - 2]) / (t[n - 1] - t[n - 2]),
                         (y[n - 2] - y[n - 3]) / (t[n - 2] - t[n - 3]));
}

double pascal_dyn_pchip_eval(const double *t, const double *y, const double *s, int n,
                             double tq)
{
    int lo = 0, hi = n - 1;
    double h, u, u2, u3;
    if (tq <= t[0])
        return y[0];
    if (tq >= t[n - 1])
        return y[n - 1];
    while (hi - lo > 1) { /* t[lo] < tq < t[hi] */
        int mid = (lo + hi) / 2;
        if (t[mid] <= tq)
            lo = mid;
        else
            hi = mid;
    }
    h = t[hi] - t[lo];
    u = (tq - t[lo]) / h;
    u2 = u * u;
    u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * y[lo] + (u3 - 2 * u2 + u) * h * s[lo] +
           (-2 * u3 + 3 * u2) * y[hi] + (u3 - u2) * h * s[hi];
}

double pascal_dyn_encode(double L, double eps)
{
    return log(fmax(exp(L) - 1, 0) + eps);
}

double pascal_dyn_decode(double a, double eps, double M)
{
    return fmin(M, 1 + fmax(exp(a) - eps, 0));
}

double pascal_dyn_harmonic(double p, double aL, double aR, double dL, double dR, double c0,
                           double eta, double *lambda)
{
    double wl = eta / dL, wr = eta / dR, den = c0 + wl + wr;
    if (lambda)
        *lambda = (wl + wr) / den;
    return (c0 * p + wl * aL + wr * aR) / den;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double pascal_dyn_quantile(double *v, int64_t n, double q)
{
    double h;
    int64_t i;
    if (n < 1)
        return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    h = (double)(n - 1) * q;
    i = (int64_t)floor(h);
    if (i >= n - 1)
        return v[n - 1];
    return v[i] + (h - (double)i) * (v[i + 1] - v[i]);
}

/* ---- aggregation ------------------------------------------------------ */

typedef struct ref_slot {
    pascal_dyn_key key;
    double x, logK;
} ref_slot;

static int cmp_slot(const void *a, const void *b)
{
    const ref_slot *p = a, *q = b;
    int c = pascal_dyn_key_cmp(&p->key, &q->key);
    if (c)
        return c;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->logK > q->logK) - (p->logK < q->logK); /* a total order: deterministic sums */
}

void pascal_dyn_agg_free(pascal_dyn_agg *agg)
{
    if (!agg)
        return;
    free(agg->keys);
    free(agg->off);
    free(agg->x);
    free(agg->K);
    free(agg->count);
    free(agg);
}

static pascal_dyn_agg *agg_alloc(int64_t nkeys, int64_t nh)
{
    pascal_dyn_agg *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->keys = malloc((size_t)(nkeys ? nkeys : 1) * sizeof *a->keys);
    a->off = malloc((size_t)(nkeys + 1) * sizeof *a->off);
    a->x = malloc((size_t)(nh ? nh : 1) * sizeof *a->x);
    a->K = malloc((size_t)(nh ? nh : 1) * sizeof *a->K);
    a->count = malloc((size_t)(nh ? nh : 1) * sizeof *a->count);
    if (!a->keys || !a->off || !a->x || !a->K || !a->count) {
        pascal_dyn_agg_free(a);
        return NULL;
    }
    return a;
}

/* Fills agg from slots sorted by (key, x). */
static int agg_fill(pascal_dyn_agg *a, const ref_slot *s, int64_t n)
{
    int64_t k = -1, h = -1, run = 0;
    double sum = 0;
    for (int64_t i = 0; i < n; i++) {
        int newkey = i == 0 || pascal_dyn_key_cmp(&s[i].key, &s[i - 1].key) != 0;
        if (newkey || s[i].x != s[i - 1].x) {
            if (h >= 0)
                a->K[h] = exp(sum / (double)run), a->count[h] = run;
            h++, run = 0, sum = 0;
            a->x[h] = s[i].x;
        }
        if (newkey) {
            a->keys[++k] = s[i].key;
            a->off[k] = h;
        }
        sum += s[i].logK;
        run++;
    }
    a->K[h] = exp(sum / (double)run), a->count[h] = run;
    a->nkeys = k + 1;
    a->off[a->nkeys] = h + 1;
    for (int64_t j = 0; j < a->nkeys; j++)
        if (a->off[j + 1] - a->off[j] > PASCAL_DYN_MAX_KNOTS)
            return -1;
    return 0;
}

int pascal_dyn_aggregate(const pascal_dyn_ref *refs, int64_t n, double N0,
                         pascal_dyn_agg **out)
{
    ref_slot *s;
    int64_t nkeys = 0, nh = 0;
    pascal_dyn_agg *a;
    int rc;
    *out = NULL;
    if (n < 1)
        return -1;
    if (!(s = malloc((size_t)n * sizeof *s)))
        return -2;
    for (int64_t i = 0; i < n; i++) {
        s[i].key = (pascal_dyn_key){refs[i].o, refs[i].path, refs[i].d, refs[i].m};
        s[i].x = refs[i].W * refs[i].N / N0;
        s[i].logK = log(refs[i].K);
    }
    qsort(s, (size_t)n, sizeof *s, cmp_slot);
    for (int64_t i = 0; i < n; i++) {
        int newkey = i == 0 || pascal_dyn_key_cmp(&s[i].key, &s[i - 1].key) != 0;
        nkeys += newkey;
        nh += newkey || s[i].x != s[i - 1].x;
    }
    if (!(a = agg_alloc(nkeys, nh))) {
        free(s);
        return -2;
    }
    rc = agg_fill(a, s, n);
    free(s);
    if (rc) {
        pascal_dyn_agg_free(a);
        return rc;
    }
    *out = a;
    return 0;
}

int64_t pascal_dyn_agg_find(const pascal_dyn_agg *agg, const pascal_dyn_key *k)
{
    int64_t lo = 0, hi = agg->nkeys;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        int c = pascal_dyn_key_cmp(&agg->keys[mid], k);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}
