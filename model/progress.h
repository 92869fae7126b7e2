/* Evolving progress (paper section 3.5 and 3.6): the Theorem 5 capacity
 * condition for preserving sharing, and the Theorem 6 catch-up limit for a
 * depth-d copy pipeline. */
#ifndef PASCAL_MODEL_PROGRESS_H
#define PASCAL_MODEL_PROGRESS_H

#include <stdint.h>

#include "pascal/model.h"

#ifdef __cplusplus
extern "C" {
#endif

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
