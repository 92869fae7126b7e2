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

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_static pascal_static;

/* What pascal_static_prepare computes beyond the gaps (always computed). */
enum {
    PASCAL_STATIC_RD = 1u,    /* exact LRU reuse distances (eq. 15): K_lru, SDCM */
    PASCAL_STATIC_DELTA = 2u  /* residency intervals delta_m (Theorem 4): V, K_bound */
};

/* A workspace for phase vectors of up to max_M workers; NULL on allocation
 * failure or max_M < 1. */
pascal_static *pascal_static_create(int64_t max_M);
void pascal_static_free(pascal_static *ws);
/* Bytes pascal_static_create(max_M) allocates (planners bound memory with
 * it before creating anything). */
double pascal_static_bytes(int64_t max_M);

/* Prepares ws for phases[0..M-1] on a ring of N blocks.  Requires
 * 1 <= M <= max_M, N >= 1, N M <= INT64_MAX (the Theorem 4 numerators sum
 * to N M) and 0 <= phases[m] < N; returns 0, or -1 when these do not hold
 * (ws is then unusable until the next successful prepare).
 * `what` is a mask of PASCAL_STATIC_* flags.  Cost O(M log M) for the gaps,
 * plus O(M log M) for DELTA and O(M log M) for RD. */
int pascal_static_prepare(pascal_static *ws, const int64_t *phases, int64_t M,
                          int64_t N, unsigned what);

int64_t pascal_static_N(const pascal_static *ws);
int64_t pascal_static_M(const pascal_static *ws);
/* D: number of distinct phases. */
int64_t pascal_static_D(const pascal_static *ws);
/* The cyclic gaps g_1..g_D (Lemma 1) in ring order, starting at the smallest
 * phase: g_i = y_{i+1} - y_i, g_D = y_1 + N - y_D; a single phase gives N. */
const int64_t *pascal_static_gaps(const pascal_static *ws);

/* Footprint U(t) = sum_i min(g_i, t) for t >= 0 (Lemma 1); 0 for t <= 0. */
int64_t pascal_static_U(const pascal_static *ws, int64_t t);
/* K(t) = #{i : g_i > t}; K(t) = D for t < 0. */
int64_t pascal_static_K(const pascal_static *ws, int64_t t);

/* Water-filling root (eq. 3): theta with U(theta) = C, for 1 <= C < N;
 * NaN when C >= N (no finite window) or C < 1. */
double pascal_static_theta(const pascal_static *ws, int64_t C);
/* T* = floor(theta), computed in exact integer arithmetic; -1 when theta is
 * NaN. */
int64_t pascal_static_tstar(const pascal_static *ws, int64_t C);

/* Theorem 2: slotted-TTL misses per round K(T*) for C < N; 0 for C >= N
 * (everything stays resident in steady state); D for C < 1 (no boundary
 * storage: every distinct phase misses). */
int64_t pascal_static_k_ttl(const pascal_static *ws, int64_t C);

/* Theorem 3 certificate for fully associative LRU, valid when D <= C:
 * K(T*+1) <= K_lru <= K(T*-1).  Writes NaN to both when D > C.  For C >= N
 * both are 0. */
void pascal_static_lru_band(const pascal_static *ws, int64_t C, double *lo,
                            double *hi);

/* Exact steady-state reuse distances (eq. 15), one per worker m in index
 * order: distinct blocks strictly between worker m's request and the previous
 * request to the same block.  Needs PASCAL_STATIC_RD; NULL otherwise. */
const int64_t *pascal_static_rd(const pascal_static *ws);
/* Exact fully associative LRU misses per round: #{m : RD_m >= C}.  A request
 * hits iff RD < C (Mattson).  NaN without PASCAL_STATIC_RD. */
double pascal_static_k_lru(const pascal_static *ws, int64_t C);

/* SDCM (eq. 6) for an A-way cache of B lines: P(hit | R) =
 * sum_{a=0}^{A-1} binom(R, a) p^a (1-p)^(R-a), p = A/B; A >= B gives the fully
 * associative limit 1{R < B}.  NaN for A < 1, B < 1 or R < 0. */
double pascal_sdcm_hit_probability(int64_t R, int64_t A, int64_t B);
/* Expected misses per round: sum over workers of 1 - P(hit | RD_m).
 * Needs PASCAL_STATIC_RD; NaN otherwise. */
double pascal_static_k_sdcm(const pascal_static *ws, int64_t A, int64_t B);

/* Theorem 4 residency intervals delta_m, as integer numerators in units of
 * 1/M round: delta_m = num_m / M, sum_m num_m = N M.  Needs
 * PASCAL_STATIC_DELTA; NULL otherwise. */
const int64_t *pascal_static_delta_num(const pascal_static *ws);
/* V(C) = max sum x_m, 0 <= x_m <= 1, sum delta_m x_m <= C (fractional
 * knapsack).  V = M for C >= N.  NaN without PASCAL_STATIC_DELTA. */
double pascal_static_residency(const pascal_static *ws, int64_t C);
/* K_bound = M - V(C): misses per round no demand-paging policy (Belady
 * included) can avoid in the long run; an H-round finite trace loosens it by
 * N / H (pass H <= 0 for the long-run bound).  Never below 0. */
double pascal_static_k_bound(const pascal_static *ws, int64_t C, double H);

/* Proposition 7 margin count: #{i : |g_i - theta| <= (D + 1) eps}, for
 * C < N and eps >= 0; NaN otherwise. */
double pascal_static_margin(const pascal_static *ws, int64_t C, double eps);

/* Che / IRM baseline: uniform independent references predict the miss rate
 * 1 - C/N for C < N and 0 for C >= N (per request; phase-blind). */
double pascal_che_miss_rate(int64_t C, int64_t N);

#ifdef __cplusplus
}
#endif

#endif
