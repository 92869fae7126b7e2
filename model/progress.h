/* Evolving progress (paper section 3.5 and 3.6): the Theorem 5 capacity
 * condition for preserving sharing, and the Theorem 6 catch-up limit for a
 * depth-d copy pipeline. */
#ifndef PASCAL_MODEL_PROGRESS_H
#define PASCAL_MODEL_PROGRESS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Theorem 5: if no worker ever leads another by more than sigma requests,
 * capacity C >= 2 sigma - 1 preserves all sharing (sharp).  Returns
 * 2 sigma - 1 for sigma >= 1, else -1. */
int64_t pascal_thm5_capacity(int64_t sigma);

/* sigma_E (eq. 8) of a progress history: events[0..E-1] are worker ids in
 * [0, M); the largest lead, in requests, of any worker over any other at any
 * prefix.  counts is caller scratch of M entries.  -1 on bad input. */
int64_t pascal_thm5_sigma(const int32_t *events, int64_t E, int32_t M,
                          int64_t *counts);

/* Writes the Theorem 5 sharpness history for s >= 2 (two workers, N = 2s):
 * worker 0 requests 0..s-1, worker 1 requests 0..s-2, worker 0 requests
 * s..2s-2, worker 1 requests s-1.  out needs 3s - 1 entries; returns the
 * number written (3s - 1), or -1 for s < 2.  At C = 2s - 2 the last request
 * misses. */
int64_t pascal_thm5_sharpness_history(int64_t s, int32_t *out);

/* Theorem 6, eq. 11: P_d(lambda) = max(alpha + beta, (lambda + beta)/(d - 1)),
 * the asymptotic issue period of a depth-d pipeline (d >= 2) with fixed costs
 * alpha >= 0, beta > 0 and constant copy latency lambda.  NaN when d < 2. */
double pascal_thm6_period(double alpha, double beta, double lambda, int64_t d);
/* Eq. 13: G_d = ([lambda_m - th]+ - [lambda_h - th]+)/(d - 1) with
 * th = (d - 1)(alpha + beta) - beta: the most time per request that turning
 * every miss into a hit can save.  NaN when d < 2. */
double pascal_thm6_gain(double alpha, double beta, double lambda_hit,
                        double lambda_miss, int64_t d);
/* Eq. 12 divergence test for two workers: returns
 * eps = P_2(lambda_hit_2) - P_1(lambda_miss_1); eps > 0 means worker 2 falls
 * behind without bound whatever the cache does. */
double pascal_thm6_divergence(double alpha1, double beta1, double lambda_miss1,
                              int64_t d1, double alpha2, double beta2,
                              double lambda_hit2, int64_t d2);
/* The issue-time recurrence (eq. 10) iterated for n copies with constant
 * latency lambda, r = d - 1 and initial issue times I_0..I_{r-1} all 0;
 * returns I_n / n, which tends to P_d.  scratch holds d doubles.  NaN when
 * d < 2 or n < d. */
double pascal_thm6_simulate(double alpha, double beta, double lambda,
                            int64_t d, int64_t n, double *scratch);

#ifdef __cplusplus
}
#endif

#endif
