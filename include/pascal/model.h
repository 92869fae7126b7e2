/* libpascal_model: the PASCAL model of shared-cache traffic for parallel
 * scans, as pure functions (no I/O, no globals, no third-party library: link
 * libpascal_model alone, or libpascal, which contains it).
 *
 * M workers (CTAs) scan a ring of N blocks with fixed phases s_m and share
 * a cache of C blocks; in round k worker m reads block (k + s_m) mod N, the
 * workers in index order within a round.  Capacities, gaps, windows and
 * reuse distances are in blocks; "misses per round" counts fills per round
 * of M requests; rates are per request (divide by M).  A query outside a
 * theorem's conditions returns NaN, never a wrong number.
 *
 * Workspaces (pascal_static, pascal_replay) are created once per thread and
 * reused: nothing allocates after *_create.  The paper's equations are named
 * beside each function; docs/library.md has a worked example. */
#ifndef PASCAL_MODEL_H
#define PASCAL_MODEL_H

#include <stdint.h>

#include "pascal/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the static model (paper section 3) ---------------------------------- */

typedef struct pascal_static pascal_static;

/* What pascal_static_prepare computes beyond the gaps (always computed). */
enum {
    PASCAL_STATIC_RD = 1u,    /* exact LRU reuse distances (eq. 15): K_lru, SDCM */
    PASCAL_STATIC_DELTA = 2u  /* residency intervals delta_m (Theorem 4): V, K_bound */
};

/* A workspace for phase vectors of up to max_M workers; NULL on allocation
 * failure or max_M < 1. */
PASCAL_API pascal_static *pascal_static_create(int64_t max_M);

PASCAL_API void pascal_static_free(pascal_static *ws);

/* Prepares ws for phases[0..M-1] on a ring of N blocks.  Requires
 * 1 <= M <= max_M, N >= 1, N M <= INT64_MAX (the Theorem 4 numerators sum
 * to N M) and 0 <= phases[m] < N; returns 0, or -1 when these do not hold
 * (ws is then unusable until the next successful prepare).
 * `what` is a mask of PASCAL_STATIC_* flags.  Cost O(M log M) for the gaps,
 * plus O(M log M) for DELTA and O(M log M) for RD. */
PASCAL_API int pascal_static_prepare(pascal_static *ws, const int64_t *phases, int64_t M,
                                     int64_t N, unsigned what);

/* D: number of distinct phases. */
PASCAL_API int64_t pascal_static_D(const pascal_static *ws);

/* The cyclic gaps g_1..g_D (Lemma 1) in ring order, starting at the smallest
 * phase: g_i = y_{i+1} - y_i, g_D = y_1 + N - y_D; a single phase gives N. */
PASCAL_API const int64_t *pascal_static_gaps(const pascal_static *ws);

/* Footprint U(t) = sum_i min(g_i, t) for t >= 0 (Lemma 1); 0 for t <= 0. */
PASCAL_API int64_t pascal_static_U(const pascal_static *ws, int64_t t);

/* K(t) = #{i : g_i > t}; K(t) = D for t < 0. */
PASCAL_API int64_t pascal_static_K(const pascal_static *ws, int64_t t);

/* Water-filling root (eq. 3): theta with U(theta) = C, for 1 <= C < N;
 * NaN when C >= N (no finite window) or C < 1. */
PASCAL_API double pascal_static_theta(const pascal_static *ws, int64_t C);

/* T* = floor(theta), computed in exact integer arithmetic; -1 when theta is
 * NaN. */
PASCAL_API int64_t pascal_static_tstar(const pascal_static *ws, int64_t C);

/* Theorem 2: slotted-TTL misses per round K(T*) for C < N; 0 for C >= N
 * (everything stays resident in steady state); D for C < 1 (no boundary
 * storage: every distinct phase misses). */
PASCAL_API int64_t pascal_static_k_ttl(const pascal_static *ws, int64_t C);

/* Theorem 3 certificate for fully associative LRU, valid when D <= C:
 * K(T*+1) <= K_lru <= K(T*-1).  Writes NaN to both when D > C.  For C >= N
 * both are 0. */
PASCAL_API void pascal_static_lru_band(const pascal_static *ws, int64_t C, double *lo,
                                       double *hi);

/* Exact steady-state reuse distances (eq. 15), one per worker m in index
 * order: distinct blocks strictly between worker m's request and the previous
 * request to the same block.  Needs PASCAL_STATIC_RD; NULL otherwise. */
PASCAL_API const int64_t *pascal_static_rd(const pascal_static *ws);

/* Exact fully associative LRU misses per round: #{m : RD_m >= C}.  A request
 * hits iff RD < C (Mattson).  NaN without PASCAL_STATIC_RD. */
PASCAL_API double pascal_static_k_lru(const pascal_static *ws, int64_t C);

/* SDCM (eq. 6) for an A-way cache of B lines: P(hit | R) =
 * sum_{a=0}^{A-1} binom(R, a) p^a (1-p)^(R-a), p = A/B; A >= B gives the fully
 * associative limit 1{R < B}.  NaN for A < 1, B < 1 or R < 0. */
PASCAL_API double pascal_sdcm_hit_probability(int64_t R, int64_t A, int64_t B);

/* Expected misses per round: sum over workers of 1 - P(hit | RD_m).
 * Needs PASCAL_STATIC_RD; NaN otherwise. */
PASCAL_API double pascal_static_k_sdcm(const pascal_static *ws, int64_t A, int64_t B);

/* V(C) = max sum x_m, 0 <= x_m <= 1, sum delta_m x_m <= C (fractional
 * knapsack).  V = M for C >= N.  NaN without PASCAL_STATIC_DELTA. */
PASCAL_API double pascal_static_residency(const pascal_static *ws, int64_t C);

/* K_bound = M - V(C): misses per round no demand-paging policy (Belady
 * included) can avoid in the long run; an H-round finite trace loosens it by
 * N / H (pass H <= 0 for the long-run bound).  Never below 0. */
PASCAL_API double pascal_static_k_bound(const pascal_static *ws, int64_t C, double H);

/* Proposition 7 margin count: #{i : |g_i - theta| <= (D + 1) eps}, for
 * C < N and eps >= 0; NaN otherwise. */
PASCAL_API double pascal_static_margin(const pascal_static *ws, int64_t C, double eps);

/* Che / IRM baseline: uniform independent references predict the miss rate
 * 1 - C/N for C < N and 0 for C >= N (per request; phase-blind). */
PASCAL_API double pascal_che_miss_rate(int64_t C, int64_t N);

/* ---- phase patterns (paper section 5.2) ---------------------------------- */

typedef enum pascal_pattern_kind {
    PASCAL_PATTERN_ALIGNED = 0,   /* every phase 0 */
    PASCAL_PATTERN_CLUSTERS = 1,  /* k equal clusters, optional spread */
    PASCAL_PATTERN_EQUAL = 2,     /* equally spaced: s_m = floor(m N / M) */
    PASCAL_PATTERN_UNIFORM = 3,   /* independent uniform on [0, N) */
    PASCAL_PATTERN_GAUSSIAN = 4,  /* wrapped Gaussian, mean 0, sd sigma */
    PASCAL_PATTERN_LAG = 5,       /* constant lag: s_m = (m lag) mod N */
    PASCAL_PATTERN_EXPLICIT = 6,  /* a given list */
    PASCAL_PATTERN_COUNT = 7
} pascal_pattern_kind;

/* Kind for a name, or -1. */
PASCAL_API int pascal_pattern_from_name(const char *name);

typedef struct pascal_pattern {
    pascal_pattern_kind kind;
    int64_t clusters;        /* CLUSTERS: k >= 1; worker m joins cluster m mod k,
                                whose centre is floor(c N / k) */
    int64_t spread;          /* CLUSTERS: the q-th of n members of a cluster sits
                                floor(q spread / n) blocks ahead of its centre;
                                0 puts them all on the centre */
    double sigma;            /* GAUSSIAN: standard deviation in blocks, >= 0 */
    int64_t lag;             /* LAG: blocks between consecutive workers */
    uint64_t seed;           /* UNIFORM, GAUSSIAN: generator seed */
    uint64_t key;            /* UNIFORM, GAUSSIAN: stream key (see above) */
    const int64_t *explicit_phases; /* EXPLICIT: M values, borrowed */
} pascal_pattern;

/* Writes M phases in [0, N) to out.  Returns 0, or -1 when the pattern's
 * parameters are invalid for (N, M) (k < 1, spread < 0, sigma < 0, N < 1,
 * M < 1, an explicit phase outside [0, N), or a missing explicit list). */
PASCAL_API int pascal_phases_generate(const pascal_pattern *pat, int64_t N, int64_t M,
                                      int64_t *out);

/* ---- exact replay of the phase ring (the closed forms' reference) -------- */

typedef struct pascal_replay pascal_replay;

/* Workspaces for rings of up to max_N blocks and up to max_M workers. */
PASCAL_API pascal_replay *pascal_replay_create(int64_t max_N, int64_t max_M);

PASCAL_API void pascal_replay_free(pascal_replay *rp);

/* Exact fully associative LRU in steady state: replays rounds 0..N-1 to warm
 * up, then round N.  rd_out (optional, M entries) receives worker m's
 * trace-derived reuse distance in round N.  Returns the misses of a C-block
 * cache in round N (misses per round in steady state), -1 on bad input. */
PASCAL_API int64_t pascal_replay_lru_steady(pascal_replay *rp, const int64_t *phases,
                                            int64_t M, int64_t N, int64_t C,
                                            int64_t *rd_out);

/* Slotted TTL with window T in steady state: the misses in round N after N
 * warm-up rounds; *occupancy (optional) gets the boundary occupancy before
 * round N.  -1 on bad input. */
PASCAL_API int64_t pascal_replay_ttl_steady(pascal_replay *rp, const int64_t *phases,
                                            int64_t M, int64_t N, int64_t T,
                                            int64_t *occupancy);

/* Belady's MIN on the empty-cache trace of rounds 0..rounds-1 with a cache of
 * C blocks: the total misses (cold ones included).  Next uses come from the
 * phases (each worker's next request to its block is a fixed number of
 * requests later), so no trace is stored: memory O(N + M) for any number of
 * rounds.  -1 on bad input. */
PASCAL_API int64_t pascal_replay_belady(pascal_replay *rp, const int64_t *phases,
                                        int64_t M, int64_t N, int64_t rounds, int64_t C);

/* ---- progress bounds (Theorems 5 and 6) ---------------------------------- */

/* Theorem 5: if no worker ever leads another by more than sigma requests,
 * capacity C >= 2 sigma - 1 preserves all sharing (sharp).  Returns
 * 2 sigma - 1 for sigma >= 1, else -1. */
PASCAL_API int64_t pascal_thm5_capacity(int64_t sigma);

/* Theorem 6, eq. 11: P_d(lambda) = max(alpha + beta, (lambda + beta)/(d - 1)),
 * the asymptotic issue period of a depth-d pipeline (d >= 2) with fixed costs
 * alpha >= 0, beta > 0 and constant copy latency lambda.  NaN when d < 2. */
PASCAL_API double pascal_thm6_period(double alpha, double beta, double lambda, int64_t d);

/* Eq. 13: G_d = ([lambda_m - th]+ - [lambda_h - th]+)/(d - 1) with
 * th = (d - 1)(alpha + beta) - beta: the most time per request that turning
 * every miss into a hit can save.  NaN when d < 2. */
PASCAL_API double pascal_thm6_gain(double alpha, double beta, double lambda_hit,
                                   double lambda_miss, int64_t d);

/* ---- the dynamic model's predictions (paper section 4) ------------------- */
/* A fitted model comes from a calibration file (pascal/calibrate.h). */

#define PASCAL_DYN_N0 4096.0 /* work coordinate x = W N / N0 (section 4.2) */
enum { PASCAL_DYN_SYNC = 0, PASCAL_DYN_TMA = 1 };

/* Which rule produced a prediction; codes >= PASCAL_DYN_UNSUPPORTED give NaN. */
enum {
    PASCAL_DYN_FB_NONE = 0,      /* same-class bracket: eq. 24 */
    PASCAL_DYN_FB_REFERENCE = 1, /* the query is a reference key: its own curve */
    PASCAL_DYN_FB_COMPUTE = 2,   /* no same-class bracket: nearest same-class
                                    reference in compute (endpoint clamp) */
    PASCAL_DYN_FB_DEPTH = 3,     /* class absent at this depth: linear across
                                    the nearest depths that have it, clamped */
    PASCAL_DYN_FB_REGIME = 4,    /* a compute or depth fallback whose same-class
                                    answer and the neighbouring computes of other
                                    classes at the query's depth differ by more
                                    than a factor 1.25: kept, the band widened to
                                    span both (K_alt) */
    PASCAL_DYN_UNSUPPORTED = 10,
    PASCAL_DYN_ERR_FAMILY = 10,  /* no reference for this (occupancy, path) */
    PASCAL_DYN_ERR_CLASS = 11,   /* Prop. 8: class unsampled at every depth */
    PASCAL_DYN_ERR_INVALID = 12, /* not a configuration (TMA without depth, ...) */
    PASCAL_DYN_ERR_DEVICE = 13,  /* M, C or block size differ from the calibration */
    PASCAL_DYN_ERR_WORKLOAD = 14, /* (sweeps) a workload point that is not one open
                                     scan (engine/eval_workload.h); never
                                     returned by pascal_dyn_predict */
    PASCAL_DYN_ERR_CLAMPED = 15, /* PASCAL_DYN_NO_HOLD: the answer would be held at
                                    the edge of the calibrated range */
    PASCAL_DYN_ERR_CAPACITY = 16 /* a calibration over several capacities: C outside
                                    the smallest and largest calibrated */
};

/* Query flags. */
enum {
    /* Outside the calibrated range the paper holds the nearest calibrated
     * answer (endpoint clamp in horizon, compute and depth); with this flag
     * such a query is refused instead: NaN and PASCAL_DYN_ERR_CLAMPED. */
    PASCAL_DYN_NO_HOLD = 1u
};

/* "none", "reference", "compute", "depth", "family", "class", "invalid",
 * "device", "workload", "clamped", "capacity"; "regime" for 4; "?" for anything
 * else. */
PASCAL_API const char *pascal_dyn_code_name(int code);

typedef struct pascal_dyn_model pascal_dyn_model;

PASCAL_API void pascal_dyn_model_free(pascal_dyn_model *m);

typedef struct pascal_dyn_query {
    int64_t o;
    int path;
    int64_t d;   /* 0 for sync */
    int64_t m;
    double N, W;
    double M;    /* workers for the clamp; NaN: sms * o */
    unsigned flags; /* PASCAL_DYN_* query flags (0: the paper's fallbacks) */
} pascal_dyn_query;

typedef struct pascal_dyn_pred {
    double K;        /* fill-equivalent blocks per unit work; NaN when unsupported */
    double rho;      /* K / M */
    double band_lo;  /* K e^-r / M */
    double band_hi;  /* min(M, K e^r) / M */
    double a;        /* encoded coordinate */
    int cls;         /* execution class s(m) */
    int code;        /* PASCAL_DYN_FB_* or PASCAL_DYN_ERR_* */
    /* How far outside the calibration the answer lies: for each coordinate
     * that was clamped, the nearest calibrated value the answer was held
     * at; NaN where the query is inside.  x = W N / N0 (the horizon held
     * by a curve whose knots do not reach it; with several such curves the
     * one nearest the query), m (no same-class reference beyond the query's
     * compute), d (no depth with the class beyond the query's depth). */
    double near_x, near_m, near_d;
    /* PASCAL_DYN_FB_REGIME: what the family's neighbouring computes of any
     * class say (the band spans it and K); NaN otherwise. */
    double K_alt;
} pascal_dyn_pred;

/* Predicts one configuration; returns out->code.  Thread-safe. */
PASCAL_API int pascal_dyn_predict(const pascal_dyn_model *m, const pascal_dyn_query *q,
                                  pascal_dyn_pred *out);
/* The same at cache capacity C (blocks).  A model calibrated at one
 * capacity ignores C (the caller checks it is that one); a calibration
 * over several capacities interpolates between the two that bracket C
 * (docs/simulate.md section 7.1) and refuses a C outside them
 * (PASCAL_DYN_ERR_CAPACITY; so does pascal_dyn_predict on it). */
PASCAL_API int pascal_dyn_predict_at(const pascal_dyn_model *m, const pascal_dyn_query *q,
                                     double C, pascal_dyn_pred *out);

#ifdef __cplusplus
}
#endif

#endif
