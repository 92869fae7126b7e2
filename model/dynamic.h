/* The dynamic PASCAL model (paper section 4, DESIGN.md section 3): predicts
 * the whole-run fill count K_H = A(H) / H of an unseen configuration from
 * reference measurements, with no target trace, timing or counters.
 *
 * A configuration key is z = (o, path, d, m): occupancy (CTAs per SM), load
 * path (sync or TMA), prefetch depth (0 for sync) and compute per block.  A
 * family f = (o, path, d) varies only m.  The horizon is W (CTA scans per
 * resident worker); x = W N / N0 is the work coordinate (N0 = 4096).
 *
 * Pipeline (fitted once, then frozen):
 *   1. per key and horizon, the geometric mean of the measured K;
 *   2. Y_j = log(x_j K_j), isotonic least squares (pool-adjacent-violators,
 *      equal knot weights), PCHIP (Fritsch-Butland) over t = log x;
 *      L(x) = S(log x) - log x estimates log K; the average K is held at the
 *      endpoints outside the observed range (eq. 19);
 *   3. sparse-horizon completion: a key whose first horizon comes after its
 *      family's first gets an initial anchor interpolated across compute from
 *      the family keys observed there; a key left with two knots borrows the
 *      normalised shape of the nearest well-observed key (>= 3 horizons);
 *   4. encoding a = log((exp L - 1)+ + eps), eps = 0.01 (eq. 20);
 *   5. execution class s(m) = min(m mod 4, 2); anchored harmonic
 *      interpolation (eq. 23-24, eta = 4) between the nearest same-class
 *      references, blended with the pooled estimate p across every compute;
 *      endpoint-clamped fallbacks across compute, then across depth;
 *      unsupported (o, path) families and unsampled classes (Prop. 8) are
 *      rejected, never extrapolated;
 *   6. decoding K = min(M, 1 + (exp a - eps)+) (eq. 21-22) and the band
 *      [K e^-r, min(M, K e^r)] / M from the out-of-fold log radius r.
 *
 * Pure: no I/O, no globals; the fitted model is read-only and may be shared
 * by any number of threads.  pascal_dyn_predict allocates nothing. */
#ifndef PASCAL_MODEL_DYNAMIC_H
#define PASCAL_MODEL_DYNAMIC_H

#include <stdint.h>

#include "pascal/model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PASCAL_DYN_EPS 0.01  /* eq. 20 */
#define PASCAL_DYN_ETA 4.0   /* eq. 23: the single global weight eta_g */
#define PASCAL_DYN_MAX_KNOTS 4096 /* horizons per key */
#define PASCAL_DYN_MAX_LEVELS 64  /* capacities of one calibration */
#define PASCAL_DYN_REGIME 1.25    /* fallback 4: held and neighbouring answers this far apart */

/* Per-key completion flags. */
enum { PASCAL_DYN_ANCHORED = 1u, PASCAL_DYN_TEMPLATED = 2u };

/* One measured run. */
typedef struct pascal_dyn_ref {
    int64_t o;   /* resident CTAs per SM */
    int path;    /* PASCAL_DYN_SYNC or PASCAL_DYN_TMA */
    int64_t d;   /* prefetch depth; 0 for sync */
    int64_t m;   /* compute (WMMA operations) per block */
    double N;    /* blocks scanned per CTA */
    double W;    /* CTA scans per resident worker */
    double K;    /* measured fill-equivalent blocks per unit work, A(H)/H */
    double C;    /* cache capacity it was measured at, blocks; NaN: the
                    calibration's one capacity */
} pascal_dyn_ref;

typedef struct pascal_dyn_key {
    int64_t o;
    int path;
    int64_t d, m;
} pascal_dyn_key;

/* Orders keys by (o, path, d, m). */
int pascal_dyn_key_cmp(const pascal_dyn_key *a, const pascal_dyn_key *b);

/* Calibration constants and the device facts the model was measured on. */
typedef struct pascal_dyn_params {
    double eta;          /* eq. 23 weight (PASCAL_DYN_ETA) */
    double eps;          /* eq. 20 offset (PASCAL_DYN_EPS) */
    double N0;           /* work unit, blocks (PASCAL_DYN_N0) */
    double sms;          /* streaming multiprocessors: M = sms * o */
    double C;            /* cache capacity, blocks */
    double block_bytes;  /* bytes per block */
} pascal_dyn_params;

/* Defaults: eta 4, eps 0.01, N0 4096; device facts NaN. */
pascal_dyn_params pascal_dyn_default_params(void);

/* ---- pipeline stages (exported for tests) ---------------------------- */

/* Execution class s(m) = min(m mod 4, 2) (section 4.4). */
int pascal_dyn_class(int64_t m);
/* Geometric mean of K[0..n-1] (all > 0). */
double pascal_dyn_geomean(const double *K, int64_t n);
/* Isotonic (non-decreasing) least-squares projection of y[0..n-1] with equal
 * weights, by pool-adjacent-violators, into out (may alias y).  work holds
 * n ints.  O(n). */
void pascal_dyn_isotonic(const double *y, int n, double *out, int *work);
/* Fritsch-Butland PCHIP slopes for knots t (increasing), y: the weighted
 * harmonic mean of neighbouring secants inside (zero at a local extremum),
 * the shape-preserving three-point formula at the ends; n = 2 is linear,
 * n = 1 flat. */
void pascal_dyn_pchip_slopes(const double *t, const double *y, int n, double *s);
/* The cubic Hermite interpolant at tq; outside [t_0, t_{n-1}] the end value. */
double pascal_dyn_pchip_eval(const double *t, const double *y, const double *s, int n,
                             double tq);
/* eq. 20: a = log((exp L - 1)+ + eps). */
double pascal_dyn_encode(double L, double eps);
/* eq. 21: K = min(M, 1 + (exp a - eps)+). */
double pascal_dyn_decode(double a, double eps, double M);
/* eq. 24: the minimiser of eq. 23,
 *   (c0 p + eta aL/dL + eta aR/dR) / (c0 + eta/dL + eta/dR),
 * with *lambda (may be NULL) the weight of the within-class linear estimate. */
double pascal_dyn_harmonic(double p, double aL, double aR, double dL, double dR, double c0,
                           double eta, double *lambda);
/* q-quantile (0..1) of v[0..n-1] by linear interpolation between order
 * statistics (h = (n - 1) q); sorts v.  NaN when n = 0. */
double pascal_dyn_quantile(double *v, int64_t n, double q);

/* ---- aggregation: per key, per horizon geometric means ---------------- */

typedef struct pascal_dyn_agg {
    int64_t nkeys;
    pascal_dyn_key *keys;   /* sorted, distinct */
    int64_t *off;           /* nkeys + 1 offsets into x, K, count */
    double *x;              /* horizons of each key, increasing */
    double *K;              /* geometric mean of the runs at that horizon */
    int64_t *count;         /* runs pooled into it */
} pascal_dyn_agg;

/* Groups refs[0..n-1] (validated: o >= 1, path 0/1, d >= 0, m >= 0, N, W,
 * K > 0 and finite) by key and x = W N / N0.  Returns 0, -1 when n < 1 or a
 * key has more than PASCAL_DYN_MAX_KNOTS horizons, -2 out of memory. */
int pascal_dyn_aggregate(const pascal_dyn_ref *refs, int64_t n, double N0,
                         pascal_dyn_agg **out);
void pascal_dyn_agg_free(pascal_dyn_agg *agg);
/* Index of key k in agg, or -1. */
int64_t pascal_dyn_agg_find(const pascal_dyn_agg *agg, const pascal_dyn_key *k);

/* ---- the fitted model -------------------------------------------------- */

/* Fits every key of agg except key index `exclude` (-1: none), so that a
 * leave-one-key-out fold never sees the held-out key at any N or W.
 * Returns 0, -1 when no key remains, -2 out of memory. */
int pascal_dyn_fit(const pascal_dyn_agg *agg, int64_t exclude, const pascal_dyn_params *par,
                   pascal_dyn_model **out);

/* Rebuilds a model from frozen curves: nkeys sorted distinct keys, key i
 * with knots t[off[i]..off[i+1]) (increasing) and y (non-decreasing), flags
 * per key (may be NULL).  Returns 0, or -1 when the curves are not valid. */
int pascal_dyn_model_build(const pascal_dyn_params *par, int64_t nkeys,
                           const pascal_dyn_key *keys, const int64_t *off, const double *t,
                           const double *y, const unsigned *flags, pascal_dyn_model **out);

const pascal_dyn_params *pascal_dyn_model_params(const pascal_dyn_model *m);
int64_t pascal_dyn_model_nkeys(const pascal_dyn_model *m);
/* Key i's curve: knots t = log x and y = S(t) (fitted log(x K)). */
void pascal_dyn_model_curve(const pascal_dyn_model *m, int64_t i, pascal_dyn_key *key,
                            const double **t, const double **y, int *n, unsigned *flags);
/* A calibration over several capacities: levels[0..n-1] (1 <= n <=
 * PASCAL_DYN_MAX_LEVELS), each fitted at its own par.C, all with the same
 * sms, block_bytes, eta, eps and N0 and distinct C.  On success *out owns
 * the levels (in ascending C) and 0 is returned; else -1 and the caller
 * keeps them.  pascal_dyn_predict_at answers between the levels; the
 * ladder's own params have C = NaN and it has no keys of its own. */
int pascal_dyn_ladder(pascal_dyn_model **levels, int64_t n, pascal_dyn_model **out);
/* Levels of a model (1 for a model fitted at one capacity) and level i
 * (the model itself for such a model). */
int64_t pascal_dyn_model_levels(const pascal_dyn_model *m);
/* The capacities a model answers at, in blocks: a ladder's smallest and
 * largest level (it answers at every C between); a one-capacity model's C
 * for both. */
void pascal_dyn_model_capacities(const pascal_dyn_model *m, double *lo, double *hi);
/* A ladder's prediction at C without level `level` (an interior one, 0 <
 * level < levels - 1): what the other capacities say of it, for a
 * leave-one-capacity-out check.  Else PASCAL_DYN_ERR_CAPACITY. */
int pascal_dyn_predict_without(const pascal_dyn_model *m, int64_t level,
                               const pascal_dyn_query *q, double C, pascal_dyn_pred *out);
const pascal_dyn_model *pascal_dyn_model_level(const pascal_dyn_model *m, int64_t i);
/* Log band radius r (NaN: no band). */
void pascal_dyn_model_set_band(pascal_dyn_model *m, double r);
double pascal_dyn_model_band(const pascal_dyn_model *m);

#ifdef __cplusplus
}
#endif

#endif
