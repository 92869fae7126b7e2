/* Spot checks on a real GPU: the host-side driver beside the engine (the
 * arithmetic, the choice of points, the tables), free of CUDA so that it
 * builds and is tested on any machine.  It uses the engine and output/; the
 * GPU runner in kernels/ only fills the measurement types of
 * kernels/measure.h, so no include or link runs from kernels/ up to here.
 *
 * The kernels (kernels/cuda/, docs/kernels.md) report the bytes read from
 * off-chip memory into L2 during one launch.  This module turns those bytes
 * into the model's quantities, chooses which sweep points to measure, and
 * writes measured-vs-predicted rows:
 *   - static scan (paper Algorithm 1): K = bytes / (block_bytes * rounds),
 *     fills per round of M requests, comparable to Theorem 2's K(T*);
 *   - open scan (Algorithm 2, eq. 14): A(H) = bytes / block_bytes fill
 *     equivalents over a horizon H = W N, K_H = A(H) / H;
 *   - capacity scan (Figure 2): R = bytes / footprint after `passes` sweeps
 *     from a cold L2; R stays near 1 while the footprint fits and rises
 *     towards `passes` once it does not.
 * Every measurement records whether its launch started cold (L2 flushed just
 * before) or warm (an identical launch just before, no flush). */
#ifndef PASCAL_SPOT_SPOT_H
#define PASCAL_SPOT_SPOT_H

#include <stdint.h>

#include "common/error.h"
#include "kernels/measure.h"
#include "output/sink.h"
#include "sweeps/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Names of pascal_spot_start values (kernels/measure.h). */
extern const char *const pascal_spot_start_names[2]; /* "cold", "warm" */

/* Static scan, Algorithm 1: fills per round.  NaN unless block_bytes > 0
 * and rounds >= 1. */
double pascal_spot_k_static(double fill_bytes, double block_bytes, int64_t rounds);
/* Open scan, eq. 14: K_H = A(H) / H with A = fill_bytes / block_bytes and
 * H = W N.  NaN unless block_bytes > 0, N >= 1 and W >= 1. */
double pascal_spot_k_dynamic(double fill_bytes, double block_bytes, int64_t N, int64_t W);
/* Capacity scan, Figure 2: off-chip fill bytes per footprint byte. */
double pascal_spot_fill_ratio(double fill_bytes, double footprint_bytes);

/* Absolute and relative error of a prediction against a measurement; the
 * relative error divides by the measurement (the paper's MAPE convention)
 * and is NaN when the measurement is 0 or either value is NaN. */
double pascal_spot_abs_err(double measured, double predicted);
double pascal_spot_rel_err(double measured, double predicted);

/* Mean and sample standard deviation of the non-NaN values of x[0..n-1];
 * NaN when there are none (sd: fewer than two).  Returns how many were used. */
int pascal_spot_mean_sd(const double *x, int n, double *mean, double *sd);

/* Effective capacity from a capacity scan: footprints[0..n-1] ascending,
 * ratio[i] the mean R at footprints[i].  The effective capacity is the
 * largest footprint before the first one whose ratio exceeds `threshold`.
 * *eff_bytes is NaN when the very first footprint already exceeds it;
 * *crossed is 0 when no footprint exceeded it (the scan stopped short).
 * Returns 0, or PASCAL_EINPUT when n < 1 or the footprints do not ascend. */
int pascal_spot_effective_capacity(const double *footprints, const double *ratio, int n,
                                   double threshold, double *eff_bytes, int *crossed,
                                   pascal_error *err);

/* Seeded sample of k of the n points (ordinals 0..n-1): the k ordinals with
 * the smallest keys pascal_rng_u64(seed, PASCAL_SPOT_SAMPLE_KEY, ordinal),
 * ties broken by the smaller ordinal, written to out[0..k-1] in ascending
 * order.  The draw depends only on (seed, n, k).  PASCAL_EINPUT when k < 1
 * or k > n. */
#define PASCAL_SPOT_SAMPLE_KEY 0x73706f74636b6bULL
int pascal_spot_sample(int64_t n, int64_t k, uint64_t seed, int64_t *out, pascal_error *err);

/* Parses an explicit selection such as "0,3,5-9" (ordinals, ranges
 * inclusive) into a malloc'd ascending list; every ordinal must be < n and
 * appear once.  Errors name the offending item. */
int pascal_spot_parse_select(const char *text, int64_t n, int64_t **out, int64_t *count,
                             pascal_error *err);

/* ---- Static spot-check plan: the chosen points of a sweep spec ---------- */

/* Model predictions stored with each point, in this order. */
enum {
    PASCAL_SPOT_PRED_K_TTL = 0,   /* Theorem 2, PASCAL's prediction */
    PASCAL_SPOT_PRED_K_LRU,       /* exact LRU, eq. 15 */
    PASCAL_SPOT_PRED_K_LRU_LO,    /* Theorem 3 band */
    PASCAL_SPOT_PRED_K_LRU_HI,
    PASCAL_SPOT_PRED_K_SDCM,      /* eq. 6, NaN unless the point sets assoc */
    PASCAL_SPOT_PRED_K_BOUND,     /* Theorem 4, horizon = rounds */
    PASCAL_SPOT_PRED_K_CHE,       /* Che/IRM baseline */
    PASCAL_SPOT_NPRED
};
extern const int pascal_spot_pred_columns[PASCAL_SPOT_NPRED]; /* pascal_column_id */

typedef struct pascal_spot_point {
    int64_t ordinal;       /* row of this point in `pascal run`'s output */
    uint64_t raw_index;    /* index before `where` */
    pascal_point point;    /* expanded parameters (phases pointer: the spec's) */
    int64_t N, M, C;
    double block_bytes;
    int64_t *phases;       /* M phases in [0, N), owned by the plan */
    double pred[PASCAL_SPOT_NPRED];
} pascal_spot_point;

typedef struct pascal_spot_plan {
    const pascal_spec *spec; /* borrowed */
    int64_t kept;            /* points of the spec after `where` */
    int64_t rounds;          /* H, rounds per launch */
    int64_t npoints;
    pascal_spot_point *points;
} pascal_spot_plan;

/* Builds the plan for the given ordinals (ascending, each < the number of
 * kept points): expands each point, generates its phases and evaluates the
 * static model with horizon = rounds.  Every point must set block_bytes, a
 * multiple of 16 bytes (one 16-byte lane per thread).  Errors are
 * PASCAL_EINPUT naming the point. */
int pascal_spot_plan_build(const pascal_spec *spec, const int64_t *ordinals, int64_t n,
                           int64_t rounds, pascal_spot_plan **out, pascal_error *err);
/* Counts the spec's kept points (those `pascal run` writes). */
int pascal_spot_count_kept(const pascal_spec *spec, int64_t *kept, pascal_error *err);
void pascal_spot_plan_free(pascal_spot_plan *plan);

/* ---- Tables ------------------------------------------------------------ */

/* Writes a spot-check table: one row per (point, repetition), meas[i * reps
 * + r] being point i's repetition r.  Columns: point (ordinal), rep, start,
 * rounds, the spec's point columns and block_bytes; results fill_bytes,
 * K_meas (this repetition), K_meas_mean and K_meas_sd (over the point's
 * repetitions), the predictions (K_ttl ... K_che), K_pred (= K_ttl),
 * abs_err and rel_err (of K_meas_mean against K_pred), elapsed_ms.  Root
 * attributes carry the device, clocks, driver, cache operator, metric and
 * the extra attrs given.  Written to PATH.tmp.PID and renamed when done. */
int pascal_spot_write(const char *path, const pascal_spot_plan *plan, int reps,
                      const pascal_spot_measure *meas, const pascal_spot_device *dev,
                      const char *command_line, const pascal_attr *extra, int nextra,
                      pascal_error *err);

/* A capacity scan: nfoot footprints, reps repetitions each (meas[i * reps +
 * r]), `passes` sweeps per launch.  Rows (footprint, rep); results
 * fill_bytes, R, R_mean, elapsed_ms; the root attribute effective_l2_bytes
 * ("" when not found) and threshold. */
typedef struct pascal_spot_capacity {
    int nfoot, reps, passes;
    const double *footprints;        /* bytes, ascending */
    const pascal_spot_measure *meas;
    double threshold;
    double effective_bytes;          /* NaN when not found */
    int crossed;
} pascal_spot_capacity;

int pascal_spot_capacity_write(const char *path, const pascal_spot_capacity *cap,
                               const pascal_spot_device *dev, const char *command_line,
                               pascal_error *err);

/* One reference run of the open scan (Algorithm 2) for the dynamic model. */
typedef struct pascal_spot_ref {
    int occupancy;          /* o: resident CTAs per SM */
    pascal_spot_path path;
    int depth;              /* d: TMA stages; 0 for sync */
    int compute;            /* m: WMMA operations per block per warp */
    int64_t N, W;
    double K;               /* K_H = A(H) / H */
} pascal_spot_ref;

/* Writes the dynamic model's reference CSV: header `o,path,d,m,N,W,K`, one
 * row per run (repetitions are separate rows), K to 17 significant digits,
 * nothing else (the calibration reader takes exactly these columns).
 * Written to PATH.tmp.PID and renamed when done. */
int pascal_spot_refs_write(const char *path, const pascal_spot_ref *refs, int64_t n,
                           pascal_error *err);

/* Writes provenance as `key: value` lines (device, clocks, driver, meter,
 * metric, cache operator, date, command line, then the extra pairs) to
 * path, atomically as above (output/fs/tmpfile.h: PATH.tmp.PID, renamed
 * when complete, removed on failure).  Used beside CSV outputs, which have
 * no room for it. */
int pascal_spot_provenance_write(const char *path, const pascal_spot_device *dev,
                                 const char *command_line, const pascal_attr *extra,
                                 int nextra, pascal_error *err);
/* The same for provenance already put into words (a simulated reference
 * set, which has no measured device): text, then a newline unless it ends
 * with one. */
int pascal_spot_provenance_write_text(const char *path, const char *text, pascal_error *err);

/* The provenance pairs of a device as root attributes: fills attrs[0..] (at
 * most PASCAL_SPOT_DEVICE_ATTRS) with strings kept in buf and returns the
 * count. */
#define PASCAL_SPOT_DEVICE_ATTRS 16
typedef struct pascal_spot_attr_buf {
    char text[PASCAL_SPOT_DEVICE_ATTRS][320];
} pascal_spot_attr_buf;
int pascal_spot_device_attrs(const pascal_spot_device *dev, pascal_attr *attrs,
                             pascal_spot_attr_buf *buf);

#ifdef __cplusplus
}
#endif

#endif
