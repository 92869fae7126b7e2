/* Evolving progress (paper sections 3.5 and 3.6): the Theorem 5 capacity
 * that preserves sharing between workers whose lead is bounded, with its
 * sharpness witness, and the Theorem 6 pipeline limit: the asymptotic issue
 * period of a depth-d copy pipeline, the most a hit can save, the divergence
 * test, and the recurrence itself for checking them.  Times are in whatever
 * unit the caller uses for alpha, beta and lambda (all the same). */
#include "model/progress.h"

#include <math.h>

/* Theorem 5: C >= 2 sigma - 1 keeps every intervening request index inside
 * [k + 1 - sigma, k + sigma - 1] minus k itself, 2 sigma - 2 blocks. */
int64_t pascal_thm5_capacity(int64_t sigma)
{
    return sigma >= 1 ? 2 * sigma - 1 : -1;
}

/* Eq. 8: sigma_E = max over prefixes u <= E of max_i n_i(u) - min_i n_i(u).
 * Counts only grow by one per event, so the minimum rises by at most one at
 * a time; it is recounted (O(M)) only when the last worker at the minimum
 * moves, which happens at most E / M times: O(E + M) in all. */
int64_t pascal_thm5_sigma(const int32_t *events, int64_t E, int32_t M,
                          int64_t *counts)
{
    if (E < 0 || M < 1 || !counts || (E > 0 && !events))
        return -1;
    for (int32_t i = 0; i < M; i++)
        counts[i] = 0;
    int64_t hi = 0, lo = 0, at_lo = M, sigma = 0;
    for (int64_t u = 0; u < E; u++) {
        int32_t w = events[u];
        if (w < 0 || w >= M)
            return -1;
        if (counts[w]++ == lo && --at_lo == 0) {
            lo++;
            for (int32_t i = 0; i < M; i++)
                at_lo += counts[i] == lo;
        }
        if (counts[w] > hi)
            hi = counts[w];
        if (hi - lo > sigma)
            sigma = hi - lo;
    }
    return sigma;
}

/* Theorem 5 sharpness (N = 2s): between worker 0's request to s - 1 and
 * worker 1's, the cache sees 0..s-2 (worker 1) and s..2s-2 (worker 0):
 * 2s - 2 other blocks, so capacity 2s - 2 misses while sigma = s.
 * The history has s + (s - 1) + (s - 1) + 1 = 3s - 1 events. */
int64_t pascal_thm5_sharpness_history(int64_t s, int32_t *out)
{
    if (s < 2 || !out)
        return -1;
    int64_t e = 0;
    for (int64_t i = 0; i < s; i++)
        out[e++] = 0;          /* worker 0: 0 .. s-1 */
    for (int64_t i = 0; i + 1 < s; i++)
        out[e++] = 1;          /* worker 1: 0 .. s-2 */
    for (int64_t i = 0; i + 1 < s; i++)
        out[e++] = 0;          /* worker 0: s .. 2s-2 */
    out[e++] = 1;              /* worker 1: s-1 */
    return e;
}

/* Eq. 11: the recurrence has a one-index edge of weight alpha + beta and a
 * (d-1)-index edge of weight lambda + beta; the slower cycle sets the rate. */
double pascal_thm6_period(double alpha, double beta, double lambda, int64_t d)
{
    if (d < 2)
        return NAN;
    double a = alpha + beta, b = (lambda + beta) / (double)(d - 1);
    return a > b ? a : b;
}

static double positive_part(double x) { return x > 0.0 ? x : 0.0; }

/* Eq. 13: P_d(lambda) = (alpha + beta) + [lambda - th]+ / (d - 1), so the
 * difference between miss and hit latency is the gain. */
double pascal_thm6_gain(double alpha, double beta, double lambda_hit,
                        double lambda_miss, int64_t d)
{
    if (d < 2)
        return NAN;
    double th = (double)(d - 1) * (alpha + beta) - beta;
    return (positive_part(lambda_miss - th) - positive_part(lambda_hit - th)) /
           (double)(d - 1);
}

/* Eq. 12: worker 2 at its fastest against worker 1 at its slowest. */
double pascal_thm6_divergence(double alpha1, double beta1, double lambda_miss1,
                              int64_t d1, double alpha2, double beta2,
                              double lambda_hit2, int64_t d2)
{
    return pascal_thm6_period(alpha2, beta2, lambda_hit2, d2) -
           pascal_thm6_period(alpha1, beta1, lambda_miss1, d1);
}

/* Eq. 10 with r = d - 1: I_{k+r} = max(I_{k+r-1} + alpha, I_k + lambda) +
 * beta.  A ring of r values suffices: I_{k+r} overwrites I_k, the oldest. */
double pascal_thm6_simulate(double alpha, double beta, double lambda,
                            int64_t d, int64_t n, double *scratch)
{
    if (d < 2 || n < d || !scratch)
        return NAN;
    int64_t r = d - 1;
    for (int64_t i = 0; i < r; i++)
        scratch[i] = 0.0;
    double last = 0.0;   /* I_{k+r-1} */
    for (int64_t k = 0; k + r <= n; k++) {
        double *oldest = &scratch[k % r];   /* I_k */
        double a = last + alpha, b = *oldest + lambda;
        last = (a > b ? a : b) + beta;
        *oldest = last;
    }
    return last / (double)n;
}
