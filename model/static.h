/* The static PASCAL model (paper section 3): exact closed forms and bounds for
 * M workers scanning a ring of N blocks with fixed phases, sharing a cache of C
 * blocks.  In round k worker m reads block (k + s_m) mod N; within a round the
 * workers are ordered by index m = 0..M-1.
 *
 * Usage: one pascal_static workspace per thread.  pascal_static_prepare() does
 * the per-phase-vector work once (sort, gaps, prefix sums, and on request the
 * exact reuse distances and residency intervals); every per-capacity query
 * after that is O(log M) (SDCM is O(M A)).  Nothing here allocates after
 * pascal_static_create(), prints, or touches global state.
 *
 * Conventions: capacities, gaps, windows and reuse distances are in blocks
 * (or rounds, the same integers); "misses per round" counts fills per round of
 * M requests; rates are per request (divide by M).  A query outside a
 * theorem's conditions returns NaN, never a wrong number. */
#ifndef PASCAL_MODEL_STATIC_H
#define PASCAL_MODEL_STATIC_H

#include <stdint.h>

#include "pascal/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes pascal_static_create(max_M) allocates (planners bound memory with
 * it before creating anything). */
double pascal_static_bytes(int64_t max_M);

int64_t pascal_static_N(const pascal_static *ws);
int64_t pascal_static_M(const pascal_static *ws);

/* Theorems 2 and 3 at one capacity from a single water-filling search:
 * exactly what pascal_static_theta, _tstar, _k_ttl and _lru_band return
 * (the sweep's evaluator asks for several of them at every point). */
typedef struct pascal_static_win {
    double theta;           /* eq. 3; NaN where pascal_static_theta is NaN */
    int64_t tstar;          /* floor(theta); -1 where theta is NaN */
    int64_t k_ttl;          /* Theorem 2, misses per round */
    double band_lo, band_hi;/* Theorem 3; NaN where D > C */
} pascal_static_win;
void pascal_static_window(const pascal_static *ws, int64_t C, pascal_static_win *w);

/* Theorem 4 residency intervals delta_m, as integer numerators in units of
 * 1/M round: delta_m = num_m / M, sum_m num_m = N M.  Needs
 * PASCAL_STATIC_DELTA; NULL otherwise. */
const int64_t *pascal_static_delta_num(const pascal_static *ws);

#ifdef __cplusplus
}
#endif

#endif
