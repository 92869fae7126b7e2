/* The vocabulary of a sweep spec: the parameters a point has, the models a
 * spec can ask for, and the result columns each model produces.  Everything
 * that names a parameter, a model or a column (spec parser, evaluator, HDF5
 * and CSV writers, `pascal point`) looks it up here, so the names, units and
 * descriptions are written once. */
#ifndef PASCAL_SWEEPS_PARAMS_H
#define PASCAL_SWEEPS_PARAMS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Point parameters.  A point stores every one as a double (integers up to
 * 2^53 exactly); NaN means "not set". */
typedef enum pascal_param_id {
    PASCAL_P_N = 0,          /* blocks in the scanned ring */
    PASCAL_P_M,              /* concurrent workers (CTAs) */
    PASCAL_P_C,              /* cache capacity, blocks */
    PASCAL_P_DATA_BYTES,     /* scanned bytes; N = data_bytes / block_bytes */
    PASCAL_P_CAPACITY_BYTES, /* cache bytes; C = capacity_bytes / block_bytes */
    PASCAL_P_BLOCK_BYTES,    /* bytes per block */
    PASCAL_P_SMS,            /* streaming multiprocessors; M = sms * occupancy */
    PASCAL_P_OCCUPANCY,      /* resident CTAs per SM */
    PASCAL_P_PATTERN,        /* phase pattern (pascal_pattern_kind) */
    PASCAL_P_CLUSTERS,       /* clusters pattern: k */
    PASCAL_P_SPREAD,         /* clusters pattern: spread in blocks */
    PASCAL_P_SIGMA,          /* gaussian pattern: sd in blocks */
    PASCAL_P_LAG,            /* lag pattern: blocks between workers */
    PASCAL_P_PHASES,         /* explicit pattern: index of a phase list */
    PASCAL_P_SEED,           /* random patterns: seed */
    PASCAL_P_ASSOC,          /* SDCM: ways A (B = C lines) */
    PASCAL_P_HORIZON,        /* residency bound: finite trace of H rounds */
    PASCAL_P_EPS,            /* Prop. 7: gap perturbation, blocks */
    PASCAL_P_LEAD,           /* Theorem 5: largest lead sigma, requests */
    PASCAL_P_ALPHA,          /* Theorem 6: issue-to-wait cost */
    PASCAL_P_BETA,           /* Theorem 6: release-to-refill cost */
    PASCAL_P_LAMBDA_HIT,     /* Theorem 6: hit latency */
    PASCAL_P_LAMBDA_MISS,    /* Theorem 6: miss latency */
    PASCAL_P_DEPTH,          /* Theorem 6: pipeline depth d (buffers) */
    PASCAL_P_ROUNDS,         /* belady: empty-cache trace length, rounds */
    PASCAL_P_PATH,           /* dynamic: load path (sync 0, tma 1) */
    PASCAL_P_COMPUTE,        /* dynamic: compute m per block */
    PASCAL_P_W,              /* dynamic: horizon, CTA scans per resident worker */
    PASCAL_NPARAM
} pascal_param_id;

typedef enum pascal_param_type {
    PASCAL_T_INT,     /* integer */
    PASCAL_T_REAL,    /* real number */
    PASCAL_T_SIZE,    /* bytes; accepts units B, KiB, MiB, GiB, TiB, KB, MB, GB */
    PASCAL_T_PATTERN, /* a pattern name */
    PASCAL_T_PHASES,  /* a list of phases */
    PASCAL_T_PATH     /* a load path name: sync (0) or tma (1) */
} pascal_param_type;

enum {
    PASCAL_PF_INNER = 1u,   /* capacity-like: does not change the phase vector,
                               so its axis is evaluated innermost */
    PASCAL_PF_POSITIVE = 2u,/* must be > 0 */
    PASCAL_PF_NONNEG = 4u   /* must be >= 0 */
};

typedef struct pascal_param_info {
    const char *name;        /* spec key and HDF5 column name */
    pascal_param_type type;
    unsigned flags;          /* PASCAL_PF_* */
    const char *units;       /* "blocks", "bytes", "" ... */
    const char *description;
} pascal_param_info;

extern const pascal_param_info pascal_params[PASCAL_NPARAM];
/* Parameter id for a name, or -1. */
int pascal_param_from_name(const char *name);

/* Models a spec can request ("models: [ttl, lru]"). */
typedef enum pascal_model_id {
    PASCAL_MODEL_TTL = 0,    /* Lemma 1, eq. 3, Theorem 2 */
    PASCAL_MODEL_LRU_BAND,   /* Theorem 3 certificate */
    PASCAL_MODEL_LRU,        /* exact LRU from symbolic reuse distances, eq. 15 */
    PASCAL_MODEL_SDCM,       /* eq. 6 with B = C lines, A = assoc ways */
    PASCAL_MODEL_RESIDENCY,  /* Theorem 4 */
    PASCAL_MODEL_CHE,        /* Che / IRM baseline */
    PASCAL_MODEL_MARGIN,     /* Proposition 7 */
    PASCAL_MODEL_SHARING,    /* Theorem 5 */
    PASCAL_MODEL_CATCHUP,    /* Theorem 6 */
    PASCAL_MODEL_LRU_REPLAY, /* exact LRU by trace replay (steady state) */
    PASCAL_MODEL_BELADY,     /* Belady/OPT replay, empty-cache finite trace */
    PASCAL_MODEL_DYNAMIC,    /* section 4: calibrated prediction (needs `calibration`) */
    PASCAL_MODEL_SIMULATE,   /* progress simulator on the device's timing (slow) */
    PASCAL_NMODEL
} pascal_model_id;

typedef struct pascal_model_info {
    const char *name;
    const char *description;
    /* Parameters the model needs set at every point (terminated by -1). */
    int needs[6];
} pascal_model_info;

extern const pascal_model_info pascal_models[PASCAL_NMODEL];
int pascal_model_from_name(const char *name);

/* Result columns, all float64 (NaN where a point is outside a theorem's
 * conditions). */
typedef enum pascal_column_id {
    PASCAL_COL_D = 0,     /* ttl: distinct phases */
    PASCAL_COL_THETA,     /* ttl: water-filling root */
    PASCAL_COL_T_STAR,    /* ttl */
    PASCAL_COL_K_TTL,     /* ttl: misses per round */
    PASCAL_COL_RHO_TTL,   /* ttl: misses per request */
    PASCAL_COL_K_LRU_LO,  /* lru_band */
    PASCAL_COL_K_LRU_HI,  /* lru_band */
    PASCAL_COL_K_LRU,     /* lru */
    PASCAL_COL_RHO_LRU,   /* lru */
    PASCAL_COL_K_SDCM,    /* sdcm */
    PASCAL_COL_RHO_SDCM,  /* sdcm */
    PASCAL_COL_V,         /* residency */
    PASCAL_COL_K_BOUND,   /* residency */
    PASCAL_COL_RHO_BOUND, /* residency */
    PASCAL_COL_RHO_CHE,   /* che */
    PASCAL_COL_K_CHE,     /* che */
    PASCAL_COL_MARGIN,    /* margin */
    PASCAL_COL_C_SHARE,   /* sharing: 2 sigma - 1 */
    PASCAL_COL_SHARES,    /* sharing: 1 when C >= 2 sigma - 1 */
    PASCAL_COL_P_HIT,     /* catchup: P_d(lambda_hit) */
    PASCAL_COL_P_MISS,    /* catchup: P_d(lambda_miss) */
    PASCAL_COL_G,         /* catchup: G_d */
    PASCAL_COL_K_LRU_REPLAY,  /* lru_replay */
    PASCAL_COL_RHO_LRU_REPLAY,/* lru_replay */
    PASCAL_COL_K_BELADY,      /* belady */
    PASCAL_COL_RHO_BELADY,    /* belady */
    PASCAL_COL_K_DYN,     /* dynamic: K_H */
    PASCAL_COL_RHO_DYN,   /* dynamic: K_H / M */
    PASCAL_COL_BAND_LO,   /* dynamic: band, rate */
    PASCAL_COL_BAND_HI,   /* dynamic: band, rate */
    PASCAL_COL_FALLBACK,  /* dynamic: rule code */
    PASCAL_COL_K_SIM,     /* simulate: K_H */
    PASCAL_COL_RHO_SIM,   /* simulate: K_H / M */
    PASCAL_COL_NS_PER_ROUND_SIM, /* simulate: time per round */
    PASCAL_NCOLUMN
} pascal_column_id;

typedef struct pascal_column_info {
    const char *name;
    pascal_model_id model;
    const char *units;
    const char *description;
} pascal_column_info;

extern const pascal_column_info pascal_columns[PASCAL_NCOLUMN];
int pascal_column_from_name(const char *name);

/* Parses a size such as "20MiB", "16 KiB", "4096", "1.5GiB" into bytes.
 * Binary units (KiB = 1024) and decimal ones (KB = 1000); a bare number is
 * bytes.  Returns 0, or -1 when the text is not a positive size or the value
 * is not a whole number of bytes. */
int pascal_size_parse(const char *text, double *bytes);

/* Load path names by code (PASCAL_T_PATH values): "sync" (0), "tma" (1).
 * Pattern names are pascal_pattern_names in model/phases.h. */
#define PASCAL_PATH_COUNT 2
extern const char *const pascal_path_names[PASCAL_PATH_COUNT];
/* Formats bytes with the largest binary unit that divides it exactly. */
void pascal_size_format(double bytes, char *buf, int len);

#ifdef __cplusplus
}
#endif

#endif
