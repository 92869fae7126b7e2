/* The vocabulary of a sweep spec: the parameters a point has, the models a
 * spec can ask for, and the result columns each model produces.  Everything
 * that names a parameter, a model or a column (spec parser, evaluator, HDF5
 * and CSV writers, `pascal point`) looks it up here, so the names, units and
 * descriptions are written once. */
#ifndef PASCAL_VOCAB_PARAMS_H
#define PASCAL_VOCAB_PARAMS_H

#include <stddef.h>
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
    /* Workloads (docs/workloads.md): set by the `workload:` section, each
     * usable as an axis. */
    PASCAL_P_WORKLOAD,       /* kind: attention (0) or gemm (1) */
    PASCAL_P_BATCH,          /* attention: batch */
    PASCAL_P_Q_HEADS,        /* attention: query heads */
    PASCAL_P_KV_HEADS,       /* attention: KV heads (GQA, MQA) */
    PASCAL_P_SEQ_Q,          /* attention: query sequence length, tokens */
    PASCAL_P_SEQ_KV,         /* attention: KV sequence length, tokens */
    PASCAL_P_HEAD_DIM,       /* attention: head dimension */
    PASCAL_P_DTYPE,          /* element type (pascal_dtype) */
    PASCAL_P_TILE_Q,         /* attention: query tile, rows */
    PASCAL_P_TILE_KV,        /* attention: KV tile, rows */
    PASCAL_P_CAUSAL,         /* attention: causal mask (0 false, 1 true) */
    PASCAL_P_GEMM_M,         /* gemm: M */
    PASCAL_P_GEMM_N,         /* gemm: N */
    PASCAL_P_GEMM_K,         /* gemm: K */
    PASCAL_P_TILE_M,         /* gemm: output tile rows */
    PASCAL_P_TILE_N,         /* gemm: output tile columns */
    PASCAL_P_TILE_K,         /* gemm: K step */
    PASCAL_P_RASTER,         /* gemm: raster order (pascal_raster) */
    PASCAL_P_SWIZZLE,        /* gemm: tile rows per swizzled group */
    PASCAL_P_SPLIT_K,        /* gemm: split-K slices */
    PASCAL_P_KERNEL,         /* the kernel's launch (pascal_kernel): model, flash-attn-2 */
    PASCAL_P_NUM_SPLITS,     /* attention, flash-attn-2: KV splits (0: the library's heuristic) */
    PASCAL_P_FLOPS_PER_S,    /* tensor FLOP/s at the point's dtype (device rates) */
    PASCAL_P_L2_BYTES_PER_S, /* L2 read bandwidth, bytes/s */
    PASCAL_P_DRAM_BYTES_PER_S, /* DRAM read bandwidth, bytes/s */
    PASCAL_P_BAND_SEEDS,     /* simulate: seeds of the answer's band, <= PASCAL_MAX_BAND_SEEDS */
    PASCAL_P_DEVICE,         /* a device axis: index of the spec's profile (its labels are the spec's) */
    PASCAL_P_DRAM_PJ_PER_BYTE, /* DRAM energy per byte read (device costs) */
    PASCAL_P_L2_PJ_PER_BYTE, /* L2 energy per byte read (device costs) */
    PASCAL_P_L2_MM2_PER_MIB, /* L2 area per MiB (device costs) */
    PASCAL_P_THREADS,        /* threads per CTA (the device's threads_per_sm limit) */
    /* A whole model step (the `model:` section, docs/workloads.md section
     * 11; its other fields are the workload parameters above). */
    PASCAL_P_PHASE,          /* model: decode (0) or prefill (1); set marks a step point */
    PASCAL_P_LAYERS,         /* model: decoder layers */
    PASCAL_P_HIDDEN,         /* model: hidden size */
    PASCAL_P_INTERMEDIATE,   /* model: MLP intermediate size */
    PASCAL_P_VOCAB,          /* model: vocabulary size (the LM head's N) */
    PASCAL_NPARAM
} pascal_param_id;

/* The last of the workload's fields (PASCAL_P_WORKLOAD + 1 .. this). */
#define PASCAL_P_WORKLOAD_LAST PASCAL_P_NUM_SPLITS

typedef enum pascal_param_type {
    PASCAL_T_INT,     /* integer */
    PASCAL_T_REAL,    /* real number */
    PASCAL_T_SIZE,    /* bytes; accepts units PASCAL_SIZE_UNITS */
    PASCAL_T_PATTERN, /* a pattern name */
    PASCAL_T_PHASES,  /* a list of phases */
    PASCAL_T_PATH,    /* a load path name: sync (0) or tma (1) */
    PASCAL_T_NAME     /* one of the parameter's `labels`, stored as its index */
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
    const char *const *labels; /* PASCAL_T_NAME: the names, by value */
    int nlabels;
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
    PASCAL_MODEL_WORKLOAD,   /* a workload's derived streams, grid and ideal traffic */
    PASCAL_MODEL_TRAFFIC,    /* a workload's DRAM fill bytes and their ratio to ideal */
    PASCAL_MODEL_SIMULATE,   /* progress simulator on the device's timing (slow) */
    PASCAL_MODEL_STEP,       /* a whole model step's totals per token (the `model:` section) */
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
    PASCAL_COL_STREAMS,   /* workload: unit streams */
    PASCAL_COL_UNITS,     /* workload: requests per CTA per round */
    PASCAL_COL_CTAS,      /* workload: CTAs in the grid */
    PASCAL_COL_SHARERS_A, /* workload: CTAs per stream of the first operand */
    PASCAL_COL_SHARERS_B, /* workload: CTAs per stream of the second operand */
    PASCAL_COL_WAVES,     /* workload: ceil(ctas / M) */
    PASCAL_COL_REQUESTS,  /* workload: block requests in the kernel */
    PASCAL_COL_IDEAL_BYTES,  /* workload: every block fetched once */
    PASCAL_COL_TENSOR_BYTES, /* workload: the shared operands' exact bytes */
    PASCAL_COL_FILL_BYTES_LRU, /* traffic: exact LRU, per-wave steady state */
    PASCAL_COL_TRAFFIC_LRU,    /* traffic: / ideal */
    PASCAL_COL_FILL_BYTES_TTL, /* traffic: Theorem 2 */
    PASCAL_COL_TRAFFIC_TTL,
    PASCAL_COL_FILL_BYTES_BOUND, /* traffic: Theorem 4 floor */
    PASCAL_COL_TRAFFIC_BOUND,
    PASCAL_COL_FILL_BYTES_DYN,   /* traffic: dynamic model over the real horizon */
    PASCAL_COL_TRAFFIC_DYN,
    PASCAL_COL_FILL_BYTES_REPLAY, /* traffic: exact LRU replay of the kernel's trace */
    PASCAL_COL_TRAFFIC_REPLAY,
    PASCAL_COL_CLAMP_X,       /* dynamic: nearest calibrated horizon when held */
    PASCAL_COL_CLAMP_COMPUTE, /* dynamic: nearest calibrated compute when held */
    PASCAL_COL_CLAMP_DEPTH,   /* dynamic: nearest calibrated depth when held */
    PASCAL_COL_K_SIM,     /* simulate: K_H */
    PASCAL_COL_RHO_SIM,   /* simulate: K_H / M */
    PASCAL_COL_NS_PER_ROUND_SIM, /* simulate: time per round */
    PASCAL_COL_FILL_BYTES_SIM,   /* traffic: the simulator over the kernel (with simulate) */
    PASCAL_COL_TRAFFIC_SIM,
    PASCAL_COL_ANSWER_FILL_BYTES, /* traffic: the most faithful model present (docs/workloads.md 3.1) */
    PASCAL_COL_ANSWER_TRAFFIC,
    PASCAL_COL_ANSWER_SOURCE,     /* traffic: which one answered (PASCAL_ANSWER_*) */
    PASCAL_COL_FILL_BYTES_REPLAY_ANY, /* traffic: the replay, CTAs in any order per round */
    PASCAL_COL_TRAFFIC_REPLAY_ANY,
    PASCAL_COL_FLOPS,             /* time: the kernel's useful FLOPs */
    PASCAL_COL_TIME_COMPUTE_S,    /* time: flops / flops_per_s */
    PASCAL_COL_TIME_L2_S,         /* time: requested bytes / l2_bytes_per_s */
    PASCAL_COL_TIME_DRAM_S,       /* time: answer_fill_bytes / dram_bytes_per_s */
    PASCAL_COL_TIME_BOUND_S,      /* time: the largest of the three (roofline) */
    PASCAL_COL_BOUND_TERM,        /* time: 1 compute, 2 L2, 3 DRAM */
    PASCAL_COL_ANSWER_TRAFFIC_LO, /* traffic: the band's low end, lock-step (docs/workloads.md 3.1) */
    PASCAL_COL_ANSWER_TRAFFIC_HI, /* traffic: the band's high end, free-running p90 */
    PASCAL_COL_TIME_SIM_S,        /* time: the simulator's makespan of the kernel */
    PASCAL_COL_ENERGY_DRAM_J,     /* energy: answer_fill_bytes x dram_pj_per_byte */
    PASCAL_COL_ENERGY_L2_J,       /* energy: requested bytes x l2_pj_per_byte */
    PASCAL_COL_ENERGY_J,          /* energy: the two */
    PASCAL_COL_AREA_L2_MM2,       /* area: capacity x l2_mm2_per_mib */
    PASCAL_COL_KV_SPLITS,         /* workload: KV splits the attention kernel launches */
    PASCAL_COL_PARTIAL_BYTES,     /* workload: split-KV partial outputs written and read back */
    PASCAL_COL_FILL_BYTES_EXACT,  /* traffic: sector-exact replay, Q and outputs (lru_replay) */
    PASCAL_COL_TRAFFIC_EXACT,     /* traffic: / ideal_bytes_exact */
    PASCAL_COL_IDEAL_BYTES_EXACT, /* traffic: every byte read once, sector-exact */
    PASCAL_COL_WRITE_BYTES_EXACT, /* traffic: output bytes written, sector-exact */
    PASCAL_COL_STEP_TOKENS,       /* step: tokens the step computes */
    PASCAL_COL_TOKENS_PER_S_BOUND,/* step: step_tokens / time_bound_s */
    PASCAL_COL_FILL_BYTES_PER_TOKEN, /* step: answer_fill_bytes / step_tokens */
    PASCAL_COL_ENERGY_PER_TOKEN_J,   /* step: energy_j / step_tokens */
    PASCAL_COL_FILL_BYTES_PER_SEQUENCE, /* step: answer_fill_bytes / batch */
    PASCAL_COL_ENERGY_PER_SEQUENCE_J,   /* step: energy_j / batch */
    PASCAL_COL_FILL_BYTES_QKV_PROJ,     /* step: each kernel's fills over the step */
    PASCAL_COL_FILL_BYTES_ATTENTION,
    PASCAL_COL_FILL_BYTES_O_PROJ,
    PASCAL_COL_FILL_BYTES_GATE_UP_PROJ,
    PASCAL_COL_FILL_BYTES_DOWN_PROJ,
    PASCAL_COL_FILL_BYTES_LM_HEAD,
    PASCAL_COL_FILL_BYTES_CHAINED, /* step: sector-exact, what a kernel leaves reused by the next */
    PASCAL_COL_TRAFFIC_CHAINED,    /* step: / ideal_bytes_exact */
    PASCAL_COL_REUSE_BYTES,        /* step: fill_bytes_exact - fill_bytes_chained */
    PASCAL_NCOLUMN
} pascal_column_id;

/* Most simulations behind one point's band (band_seeds). */
#define PASCAL_MAX_BAND_SEEDS 64

/* Who answers a workload point's traffic, most faithful first; the value
 * of answer_source (docs/workloads.md section 3.1). */
enum {
    PASCAL_ANSWER_SIMULATE = 1,   /* fill_bytes_sim: the simulator (model simulate) */
    PASCAL_ANSWER_REPLAY = 2,     /* fill_bytes_replay: exact lock-step replay (lru_replay) */
    PASCAL_ANSWER_ESTIMATE = 3,   /* fill_bytes_lru: the per-wave closed forms (traffic) */
    PASCAL_ANSWER_COUNT = 4
};
/* [PASCAL_ANSWER_*]: "simulate", "lru_replay", "estimate" ([0] ""). */
extern const char *const pascal_answer_names[PASCAL_ANSWER_COUNT];
/* The column each answer takes its fills from ([0]: -1). */
extern const int pascal_answer_columns[PASCAL_ANSWER_COUNT];
/* The first answer a spec's models can give (PASCAL_ANSWER_*), 0 for
 * none; a point whose first answer is NaN takes the next. */
int pascal_answer_of_models(unsigned models);
/* "lru_replay (fill_bytes_replay), else estimate (fill_bytes_lru)": who
 * answers under these models, in order; returns the first (0: none, buf
 * ""). */
int pascal_answer_describe(unsigned models, char *buf, size_t len);

typedef struct pascal_column_info {
    const char *name;
    pascal_model_id model;
    const char *units;
    const char *description;
} pascal_column_info;

extern const pascal_column_info pascal_columns[PASCAL_NCOLUMN];
int pascal_column_from_name(const char *name);
/* Whether a model step (the `model:` section) gives column col: the step
 * model's, and the traffic columns that sum over its kernels (fills,
 * bytes, FLOPs, time floors, energy, area, their ratios). */
int pascal_step_column(int col);

/* Parses a size such as "20MiB", "16 KiB", "4096", "1.5GiB" into bytes.
 * Binary units (KiB = 1024) and decimal ones (kB = KB = 1000); a bare number
 * is bytes.  The value is computed exactly (decimal digits times the unit,
 * no rounding): it must be a whole number of bytes from 1 to 2^53.  Returns
 * 0, or a PASCAL_SIZE_* code saying what is wrong (all negative). */
enum {
    PASCAL_SIZE_BAD = -1,      /* not a positive decimal size (sign, hexadecimal, ...) */
    PASCAL_SIZE_UNIT = -2,     /* a number with a unit that is not one of PASCAL_SIZE_UNITS */
    PASCAL_SIZE_BIG = -3,      /* more than 2^53 bytes */
    PASCAL_SIZE_FRACTION = -4  /* not a whole number of bytes */
};
#define PASCAL_SIZE_UNITS "B, KiB, MiB, GiB, TiB, kB, KB, MB, GB, TB"
int pascal_size_parse(const char *text, double *bytes);
/* Why pascal_size_parse refused text, for a message ("unknown unit ..."),
 * or "" when there is nothing to add. */
void pascal_size_explain(int code, const char *text, char *buf, int len);

/* Labels of a parameter whose values are names (pattern, path, or a
 * PASCAL_T_NAME parameter): *n gets their count; NULL for other types. */
const char *const *pascal_param_labels(int param, int *n);

/* Load path names by code (PASCAL_T_PATH values): "sync" (0), "tma" (1).
 * Pattern names are pascal_pattern_names in model/phases.h. */
#define PASCAL_PATH_COUNT 2
extern const char *const pascal_path_names[PASCAL_PATH_COUNT];
/* Formats bytes with the largest binary unit that divides it exactly. */
void pascal_size_format(double bytes, char *buf, int len);

/* For discovery (`pascal list`): where each parameter, model, column and
 * pattern comes from in the paper ("" for pascal's own additions), and what a
 * parameter is when a spec leaves it unset.  Parallel to the tables above,
 * indexed by id. */
extern const char *const pascal_param_refs[PASCAL_NPARAM];
extern const char *const pascal_param_defaults[PASCAL_NPARAM];
extern const char *const pascal_model_refs[PASCAL_NMODEL];
extern const char *const pascal_column_refs[PASCAL_NCOLUMN];

/* The units that parameters and columns are given in (their `units`
 * strings), each with its meaning; and the size suffixes a spec accepts.
 * Both return 0 for i in range, -1 past the end. */
typedef struct pascal_unit_info {
    const char *name;     /* as in pascal_params[].units, pascal_columns[].units */
    const char *meaning;
} pascal_unit_info;
int pascal_unit(int i, pascal_unit_info *out);
int pascal_size_unit(int i, const char **suffix, double *bytes);

/* The load path table above is the only place path names are spelled:
 * parsers go through pascal_path_from_name (the code, or -1), writers index
 * pascal_path_names, and messages listing the valid names use
 * PASCAL_PATH_LIST (tests check it against the table). */
#define PASCAL_PATH_LIST "sync, tma"
int pascal_path_from_name(const char *name);

#ifdef __cplusplus
}
#endif

#endif
