/* Calibrating the dynamic model (paper section 4.5, DESIGN.md section 3):
 * reference measurements in, a frozen model file out.
 *
 *   refs   CSV with the header `o,path,d,m,N,W,K` and optionally `C`, the
 *          capacity (blocks) each run was measured at (columns in any order; '#'
 *          comment lines and blank lines skipped), or HDF5 with the same
 *          columns as datasets of /references (path: 0 = sync, 1 = tma, or
 *          an enum with those values).  Every malformed row is an error
 *          naming file:line:column (HDF5: file:/references/col[row]), the
 *          column, what was expected and what was found; nothing is dropped.
 *   fit    model/dynamic.h on all references.
 *   cv     leave-one-key-out: each key is removed at every N and W before
 *          any fitting, then predicted at its scored runs (W > w_min; the
 *          paper scores long runs, W > 1).  Key-balanced MAPE (eq. 26) per
 *          key and overall; the band radius is the 90th percentile of the
 *          out-of-fold |log(K / K_hat)|.  On the same folds, baselines that
 *          see the same references and static features (o, path, d, m,
 *          class, log x): aligned (K = 1), nearest reference key,
 *          inverse-distance k-NN and ridge regression on log K.
 *   file   output/calibration.h: provenance, curves, references with their
 *          out-of-fold predictions, the CV table. */
#ifndef PASCAL_CALIBRATE_CALIBRATE_H
#define PASCAL_CALIBRATE_CALIBRATE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "model/dynamic.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_refs {
    int64_t n;
    pascal_dyn_ref *rows;
    int64_t *line;          /* CSV line (1-based) or HDF5 row (0-based) of each row */
    int have_C;             /* the file has a C column: each run's capacity in blocks
                               (rows[i].C); else every C is NaN */
} pascal_refs;

/* Parses CSV text; `filename` names the file in messages.  When sms is not
 * NaN, K above M = sms * o (more fills than requests) is rejected too. */
int pascal_calibrate_parse_csv(const char *text, size_t len, const char *filename, double sms,
                               pascal_refs *out, pascal_error *err);
/* Reads CSV or HDF5 (told apart by the HDF5 signature). */
int pascal_calibrate_read_refs(const char *path, double sms, pascal_refs *out,
                               pascal_error *err);
void pascal_calibrate_refs_free(pascal_refs *r);

/* What a reference CSV's comment header says it was measured at, as
 * `pascal measure-refs --simulate` writes it ("# sms: 48, C: 1280 blocks of
 * 16384 bytes, ..."); have 0 when it says nothing (a measured file keeps
 * its provenance beside it; HDF5 references carry none). */
typedef struct pascal_refs_facts {
    int have;
    double sms, C, block_bytes;   /* C NaN: "C: per row" (the file's C column) */
    int64_t line;           /* of that comment, 1-based */
} pascal_refs_facts;
/* 0, facts filled in; an unreadable file is left to the reader. */
int pascal_calibrate_refs_facts(const char *path, pascal_refs_facts *facts);

/* A reference set's runs with W > w_min before any fit (a key and a
 * repetition group are at one capacity): how many have K
 * within PASCAL_REFS_NEAR_ONE of the lock-step answer, the key-balanced
 * eq. 26 MAPE of assuming K = 1, and over the groups of repeated runs (one
 * key, N and W, several seeds) the spread max K / min K. */
#define PASCAL_REFS_NEAR_ONE 1.005
typedef struct pascal_refs_dist {
    int64_t runs, keys;
    int64_t near_one;        /* runs with K <= PASCAL_REFS_NEAR_ONE */
    double aligned_mape;     /* %, key-balanced (the CV table's aligned column, no fold) */
    int64_t groups;          /* (key, N, W) with two runs or more */
    double spread_median, spread_p90, spread_max; /* max K / min K; NaN without groups */
} pascal_refs_dist;
int pascal_refs_distribution(const pascal_refs *refs, double w_min, pascal_refs_dist *out);

enum {
    PASCAL_CV_PASCAL = 0,
    PASCAL_CV_ALIGNED,
    PASCAL_CV_NEAREST,
    PASCAL_CV_KNN,
    PASCAL_CV_RIDGE,
    PASCAL_CV_FAMILY,      /* the same family's (o, path, d) key of nearest compute */
    PASCAL_CV_NMETHOD
};
/* "pascal", "aligned", "nearest", "knn", "ridge", "family" */
extern const char *const pascal_cv_method_names[PASCAL_CV_NMETHOD];

typedef struct pascal_cv_opts {
    double w_min;           /* runs with W > w_min are scored (default 1) */
    int baselines;          /* also evaluate the baselines */
    int knn_k;              /* k-NN neighbours (default 5) */
    double ridge_lambda;    /* ridge penalty on standardised features (default 1) */
    double band_quantile;   /* default 0.9 */
} pascal_cv_opts;

pascal_cv_opts pascal_cv_default_opts(void);

typedef struct pascal_cv_key {
    pascal_dyn_key key;
    double C;                          /* capacity (blocks) of a calibration over several;
                                          NaN for one */
    int64_t runs;                      /* scored runs n_z */
    double K_geomean;                  /* of those runs' measured K */
    double mape[PASCAL_CV_NMETHOD];    /* eq. 26 inner term, %; NaN: no prediction */
    double sle[PASCAL_CV_NMETHOD];     /* mean |ln(K_hat / K)| over the runs: symmetric in
                                          over- and under-prediction; NaN: no prediction */
    int code;                          /* PASCAL's rule (PASCAL_DYN_FB_* / _ERR_*) */
} pascal_cv_key;



typedef struct pascal_cv_result {
    int64_t nkeys;                     /* keys with at least one scored run */
    pascal_cv_key *keys;
    double *oof;                       /* per reference row: PASCAL's out-of-fold K (NaN
                                          when not scored or rejected) */
    int *oof_code;                     /* per row; -1 when not scored */
    int64_t keys_predicted;            /* keys PASCAL predicts */
    int64_t keys_rejected;             /* keys PASCAL rejects (family or class) */
    int64_t runs_scored;
    double mape[PASCAL_CV_NMETHOD];    /* eq. 26 over the keys PASCAL predicts */
    double mape_all[PASCAL_CV_NMETHOD];/* over every scored key (NaN for PASCAL when it
                                          rejects one) */
    double band_radius;                /* log radius r (NaN without scored runs) */
    double seconds;
} pascal_cv_result;

/* The keys' eq. 26 MAPE and mean |ln(K_hat / K)|, key-balanced, over the
 * keys PASCAL predicts whose rule is in `codes` (a bit per
 * PASCAL_DYN_FB_*): the split into bracketed keys (FB_NONE, FB_REFERENCE)
 * and fallbacks (FB_COMPUTE, FB_DEPTH).  *nkeys gets how many. */
void pascal_cv_split(const pascal_cv_result *r, unsigned codes, double *mape, double *sle,
                     int64_t *nkeys);

/* The overall figures (mape, mape_all) of r's keys, key-balanced. */
void pascal_cv_overall(pascal_cv_result *r);

int pascal_calibrate_cv(const pascal_refs *refs, const pascal_dyn_agg *agg,
                        const pascal_dyn_params *par, const pascal_cv_opts *o,
                        pascal_cv_result *out, pascal_error *err);
void pascal_calibrate_cv_free(pascal_cv_result *r);

/* Held-out test: the model fitted to every reference key (and, with
 * o->baselines, the baselines trained on every reference key) predicts each
 * run of `test` with W > o->w_min; key-balanced MAPE (eq. 26) per test key
 * and overall, in the layout of the cross-validation (band_radius NaN,
 * oof NULL).  No test run reaches the fit. */
int pascal_calibrate_holdout(const pascal_refs *refs, const pascal_dyn_agg *agg,
                             const pascal_dyn_model *model, const pascal_dyn_params *par,
                             const pascal_cv_opts *o, const pascal_refs *test,
                             pascal_cv_result *out, pascal_error *err);

/* Where a calibration came from. */
typedef struct pascal_cal_prov {
    char input[1024];
    char input_sha256[65];
    char device[128];
    char device_path[1024];
    char command_line[2048];
    char created[32];                  /* filled by load */
    int cv_baselines;                  /* the file has baseline columns */
    pascal_cv_opts cv;
} pascal_cal_prov;

/* Writes the model file (nothing is created on failure). */
struct pascal_calibrate_level;
/* lev[0..nlev-1]: the levels of a calibration over several capacities
 * (NULL, 0 for one). */
int pascal_calibrate_save(const char *path, const pascal_dyn_model *model,
                          const pascal_refs *refs, const pascal_cv_result *cv,
                          const struct pascal_calibrate_level *lev, int64_t nlev,
                          const pascal_cal_prov *prov, pascal_error *err);
/* Reads a model file written by pascal_calibrate_save; prov may be NULL. */
int pascal_calibrate_load(const char *path, pascal_dyn_model **model, pascal_cal_prov *prov,
                          pascal_error *err);

/* The whole of `pascal calibrate`: device facts, references, fit,
 * cross-validation (always, for the band; baselines on request), file. */
typedef struct pascal_calibrate_opts {
    const char *refs_path;
    const char *out_path;         /* NULL: fit and validate, write nothing */
    const char *device_path;      /* device profile, or NULL */
    double sms;                   /* NaN: from the profile */
    double C;                     /* blocks; NaN: capacity_bytes / block_bytes */
    double capacity_bytes;        /* NaN: the profile's effective L2 */
    double block_bytes;           /* bytes per block; NaN: the reference header's, else 16 KiB */
    double eta;                   /* eq. 23 weight */
    pascal_cv_opts cv;
    const char *command_line;
} pascal_calibrate_opts;

pascal_calibrate_opts pascal_calibrate_default_opts(void);

/* One capacity of a calibration over several (a reference file with a C
 * column and more than one value in it; docs/simulate.md section 7.1). */
typedef struct pascal_calibrate_level {
    double C;                     /* blocks */
    pascal_refs refs;             /* its runs (line numbers of the file) */
    int64_t *row;                 /* each one's row in the whole file */
    pascal_dyn_agg *agg;
    pascal_cv_result cv;          /* leave-one-key-out within this capacity */
    /* Leave-one-capacity-out (interior capacities only; nkeys 0 at the
     * ends): the ladder of the other capacities predicts this one's runs;
     * mape[PASCAL_CV_PASCAL] that, [PASCAL_CV_ALIGNED] K = 1,
     * [PASCAL_CV_NEAREST] the nearest other capacity (in log C) alone. */
    pascal_cv_result lcoo;
} pascal_calibrate_level;

typedef struct pascal_calibrate_result {
    pascal_refs refs;
    pascal_dyn_agg *agg;
    pascal_dyn_model *model;
    pascal_cv_result cv;
    pascal_cal_prov prov;
    pascal_dyn_params par;
    int64_t families, anchored, templated;
    double seconds;
    int64_t nlev;                 /* capacities: 0 for a calibration at one */
    pascal_calibrate_level *lev;  /* ascending C; the model is their ladder, cv merges their
                                     folds (keys carry C), agg pools every run by key */
} pascal_calibrate_result;

/* The fit over several capacities (calibrate/ladder.c): r->refs read,
 * r->par set but for C.  Fills r->lev, r->model, r->cv and r->agg. */
int pascal_calibrate_ladder(pascal_calibrate_result *r, const pascal_cv_opts *o,
                            pascal_error *err);
void pascal_calibrate_levels_free(pascal_calibrate_result *r);
/* Held-out test of a calibration over several capacities: each (key, C)
 * of `test` (which needs a C column) is a test key, its runs with
 * W > o->w_min predicted at their C by the ladder (PASCAL; NaN with code
 * PASCAL_DYN_ERR_CAPACITY outside the calibrated range), by the nearest
 * level in log C alone (PASCAL_CV_NEAREST) and by K = 1 (ALIGNED); eq. 26
 * per key and overall, key-balanced, in the layout of the CV. */
int pascal_calibrate_ladder_holdout(const pascal_calibrate_result *r, const pascal_cv_opts *o,
                                    const pascal_refs *test, pascal_cv_result *out,
                                    pascal_error *err);

int pascal_calibrate_run(const pascal_calibrate_opts *o, pascal_calibrate_result *r,
                         pascal_error *err);
void pascal_calibrate_result_free(pascal_calibrate_result *r);

/* The dynamic model's sweep columns at one point (v indexed by
 * pascal_param_id): K_dyn, rho_dyn, band_lo, band_hi, fallback, clamp_x,
 * clamp_compute, clamp_depth, in that order.  The key is (occupancy, path,
 * depth, compute); sync takes d = 0 whatever depth says (it has no prefetch
 * pipeline).  A point whose M, C or block_bytes differ from the
 * calibration's device gets NaN and code 13; a missing model (NULL) or TMA
 * without depth code 12.  flags: PASCAL_DYN_NO_HOLD refuses answers held at
 * the edge of the calibrated range (code 15). */
#define PASCAL_CALIBRATE_NCOLS 8
void pascal_calibrate_point(const pascal_dyn_model *m, const double *v, unsigned flags, double *out);
/* Index into pascal_calibrate_point's out of column `col` (a
 * pascal_column_id of the dynamic model), or -1. */
int pascal_calibrate_slot(int col);

#ifdef __cplusplus
}
#endif

#endif
