/* The validation campaign: re-derives the paper's section 5.2 abstract
 * evidence by checking every closed form of the static model against exact
 * replay, plus Theorems 5 and 6 against simulated histories and the
 * issue-time recurrence.
 *
 * Static cases: the exhaustive enumeration N = 2..6, M = 1..3, every one of
 * the N^M phase vectors, 1 <= C < N (2254 cases), then `seeded_cases` seeded
 * larger ones (N <= max_N, M <= max_M).  For each case:
 *   RD     eq. 15 symbolic reuse distances = trace-derived ones after N
 *          warm-up rounds (stack-distance replay)
 *   LRU    K_lru from the symbolic distances = exact LRU replay, misses in
 *          a steady-state round
 *   SDCM   SDCM-FA (eq. 6 with A = B = C) = exact LRU replay
 *   SET    a set-associative LRU with one set of C ways (an independent
 *          simulator) = the stack-distance replay
 *   BAND   Theorem 3, where D <= C: K(T*+1) <= LRU replay <= K(T*-1)
 *   TTL    Theorem 2: K(T*) = slotted-TTL replay with window T*, and the
 *          boundary occupancy equals U(T*) <= C
 *   BELADY Theorem 4: Belady on the empty-cache trace of H = 6N rounds
 *          misses at least M - V(C) - N/H per round
 * Progress checks:
 *   THM5   random progress histories (bounded lead) replayed through an
 *          empty LRU of C = 2 sigma_E - 1 blocks: every request to an index
 *          some worker already requested hits, and eq. 9 holds
 *   THM5_SHARP  the sharpness history (N = 2s) misses its last request at
 *          C = 2s - 2 and hits it at C = 2s - 1, sigma_E = s
 *   THM6   eq. 10 iterated numerically: I_n / n -> P_d (eq. 11) within the
 *          proof's O(1)/n bounds, for zero and for random initial issue times
 * Multi-stream cases (model/static_multi.h: S streams sharing one cache):
 * the exhaustive enumeration S = 2 (N_s = 1..3, M_s = 1..2) and S = 3
 * (N_s = 1..2, one request each), every phase
 * vector, every interleaving of the streams in the round, every
 * 1 <= C < N_total (7752 cases), then `multi_seeded_cases` seeded larger
 * ones (S = 2..multi_max_S, N_s <= multi_max_N, M_s <= 8, random order).
 *   MS_RD      multi-stream eq. 15 distances = trace-derived ones
 *   MS_LRU     K_lru = exact LRU replay, and each stream's share of it
 *   MS_TTL     Theorem 2 with the shared window T*: K(T*) = slotted-TTL
 *              replay, occupancy = U(T*) = sum of the streams' footprints <= C
 *   MS_BAND    Theorem 3 where D <= C, over all streams and per stream
 *   MS_BELADY  Theorem 4: Belady on the empty-cache trace of 6 Nmax rounds
 *              >= R - V(C) - N_total / H
 *   MS_ONE     every single-stream static case prepared as one stream of a
 *              multi-stream description gives the same gaps, distances,
 *              intervals and answers (S = 1 reduces exactly)
 *
 * Determinism: every case and history is a pure function of (seed, index),
 * so results are identical whatever the thread count.  All OpenMP is inside
 * pascal_validate_run. */
#ifndef PASCAL_VALIDATE_VALIDATE_H
#define PASCAL_VALIDATE_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pascal_vcheck {
    PASCAL_VCHECK_RD = 0,
    PASCAL_VCHECK_LRU,
    PASCAL_VCHECK_SDCM,
    PASCAL_VCHECK_SET,
    PASCAL_VCHECK_BAND,
    PASCAL_VCHECK_TTL,
    PASCAL_VCHECK_BELADY,
    PASCAL_VCHECK_THM5,
    PASCAL_VCHECK_THM5_SHARP,
    PASCAL_VCHECK_THM6,
    PASCAL_VCHECK_MS_RD,
    PASCAL_VCHECK_MS_LRU,
    PASCAL_VCHECK_MS_TTL,
    PASCAL_VCHECK_MS_BAND,
    PASCAL_VCHECK_MS_BELADY,
    PASCAL_VCHECK_MS_ONE,
    PASCAL_VCHECK_COUNT
} pascal_vcheck;

/* Short name ("rd", "lru", ..., "thm6") and one-line description. */
extern const char *const pascal_vcheck_names[PASCAL_VCHECK_COUNT];
extern const char *const pascal_vcheck_descriptions[PASCAL_VCHECK_COUNT];
/* Check id for a short name, or -1. */
int pascal_vcheck_from_name(const char *name);

/* Per-case values (the HDF5 result columns). */
typedef enum pascal_vcol {
    PASCAL_VCOL_RD_MISMATCH = 0, /* workers whose symbolic and trace RD differ */
    PASCAL_VCOL_K_LRU,           /* eq. 15 misses per round */
    PASCAL_VCOL_K_LRU_REPLAY,    /* stack-distance LRU replay, steady round */
    PASCAL_VCOL_K_SDCM_FA,       /* eq. 6 with A = B = C */
    PASCAL_VCOL_K_SET_REPLAY,    /* one-set, C-way LRU replay */
    PASCAL_VCOL_K_LRU_LO,        /* Theorem 3 K(T*+1); NaN when D > C */
    PASCAL_VCOL_K_LRU_HI,        /* Theorem 3 K(T*-1); NaN when D > C */
    PASCAL_VCOL_T_STAR,          /* floor(theta), rounds */
    PASCAL_VCOL_K_TTL,           /* Theorem 2 K(T*) */
    PASCAL_VCOL_K_TTL_REPLAY,    /* slotted-TTL replay with window T* */
    PASCAL_VCOL_OCCUPANCY,       /* its boundary occupancy, blocks */
    PASCAL_VCOL_U_TSTAR,         /* U(T*), blocks */
    PASCAL_VCOL_HORIZON,         /* H = 6N rounds */
    PASCAL_VCOL_K_BELADY,        /* Belady misses / H on the empty-cache trace */
    PASCAL_VCOL_K_BOUND,         /* M - V(C) - N/H (Theorem 4) */
    PASCAL_VCOL_COUNT
} pascal_vcol;

extern const char *const pascal_vcol_names[PASCAL_VCOL_COUNT];
extern const char *const pascal_vcol_units[PASCAL_VCOL_COUNT];
extern const char *const pascal_vcol_descriptions[PASCAL_VCOL_COUNT];

enum { PASCAL_VFAMILY_EXHAUSTIVE = 0, PASCAL_VFAMILY_SEEDED = 1,
       PASCAL_VFAMILY_MULTI_EXHAUSTIVE = 2, PASCAL_VFAMILY_MULTI_SEEDED = 3 };

typedef struct pascal_vcase {
    int family;              /* PASCAL_VFAMILY_* */
    int64_t N, M, C, D;      /* multi-stream: N = N_total, M = R requests */
    int64_t phase_off;       /* phases at result->phases[phase_off ..+ M);
                                multi-stream: at result->mdata[phase_off]
                                the S ring sizes, then R stream indices,
                                then R phases */
    int64_t S;               /* streams (1 for the single-stream cases) */
    double v[PASCAL_VCOL_COUNT];
    uint32_t failed;         /* bit (1u << pascal_vcheck) per failed check */
} pascal_vcase;

typedef struct pascal_validate_opts {
    uint64_t seed;           /* seeded cases, histories, initial times */
    int threads;             /* <= 0: OpenMP's default */
    int64_t seeded_cases;    /* 500 */
    int64_t max_N, max_M;    /* seeded sizes: 256, 32 */
    int64_t histories;       /* Theorem 5 random histories: 200 */
    int64_t sharp_max_s;     /* sharpness for s = 2..sharp_max_s: 32 */
    int64_t thm6_steps;      /* recurrence length n: 100000 */
    int64_t multi_seeded_cases; /* 300 */
    int64_t multi_max_S, multi_max_N; /* seeded multi-stream sizes: 6, 48 */
    const char *out_path;    /* HDF5 file to write, or NULL */
    const char *command_line;/* recorded in the file */
    int fault;               /* 0, or 1 + a pascal_vcheck: corrupts the model
                                side of that check in every static case with
                                N >= 4 and D >= 2 (or every THM6 point), to
                                exercise the failure report */
} pascal_validate_opts;

typedef struct pascal_validate_result {
    pascal_validate_opts opts;
    int threads;
    int64_t n_exhaustive, n_seeded, ncases;
    pascal_vcase *cases;     /* ncases, exhaustive first */
    int64_t *phases;         /* every case's phase vector, concatenated */
    int64_t nm_exhaustive, nm_seeded, nmcases;
    pascal_vcase *mcases;    /* multi-stream cases, exhaustive first */
    int64_t *mdata;          /* their descriptions, concatenated */
    int64_t msmallest;       /* the smallest failing multi-stream case (by
                                N_total, R, C, S, then the description),
                                -1 when none */
    int64_t checked[PASCAL_VCHECK_COUNT], failed[PASCAL_VCHECK_COUNT];
    double belady_min_slack; /* min over cases of K_belady - K_bound */
    double thm6_max_error;   /* max |I_n/n - P_d| over the grid */
    int64_t thm5_events;     /* events replayed over all histories */
    int64_t smallest;        /* the smallest failing static case (by N, M,
                                C, then phases), -1 when none */
    char progress_failure[512]; /* first failing Theorem 5/6 item, "" none */
    double static_seconds, progress_seconds, seconds;
    int ok;                  /* 1 when every check holds */
} pascal_validate_result;

/* The figures: seed 1, 500 seeded cases up to N = 256, M = 32. */
void pascal_validate_defaults(pascal_validate_opts *o);

/* Runs the campaign.  Returns 0 with *out filled (whether or not every
 * check held: see (*out)->ok), PASCAL_EINPUT for bad options or an
 * unwritable out_path (checked before any work: the sink's temporary file is
 * created first), PASCAL_ENOMEM, or PASCAL_EIO when writing fails.  Free
 * *out with pascal_validate_free.
 *
 * With out_path, one HDF5 row per static case is written through
 * output/sink.h: points case, family (enum exhaustive|seeded), N, M, C, D,
 * phases (the index i of /axes/phases/<i>, the case's phase vector);
 * results the pascal_vcol columns plus `failed` (the bit mask) and `pass`;
 * root attributes with the counts, the seed and the Theorem 5/6 outcome.
 * The file appears under its name only when complete. */
int pascal_validate_run(const pascal_validate_opts *o,
                        pascal_validate_result **out, pascal_error *err);
void pascal_validate_free(pascal_validate_result *r);

/* One static case, computed into c (family, N, M, C, phase_off preset by the
 * caller) from phases[0..M-1]: every value, then every verdict.  Workspaces
 * from pascal_vws_create, one per thread. */
typedef struct pascal_vws pascal_vws;
pascal_vws *pascal_vws_create(int64_t max_N, int64_t max_M);
void pascal_vws_free(pascal_vws *w);
int pascal_validate_case(pascal_vws *w, const int64_t *phases, int fault,
                         pascal_vcase *c);
/* The verdicts alone, from c->v (sets c->failed). */
void pascal_validate_judge(pascal_vcase *c);

/* The multi-stream half (validate_multi.c): builds r's multi-stream cases
 * from r->opts, checks them and the S = 1 reduction on r's single-stream
 * cases (which must be evaluated first); fills the MS_* counts and
 * msmallest.  Returns 0, PASCAL_ENOMEM or PASCAL_EINTERNAL. */
int pascal_validate_multi(pascal_validate_result *r, int threads);
/* Multi-stream case i in words: "S = 2, N = [3, 2], order 0,1,0, phases
 * 0,1,2, C = 3". */
void pascal_validate_multi_describe(const pascal_validate_result *r, int64_t i,
                                    char *buf, size_t len);

/* The progress checks alone (THM5, THM5_SHARP, THM6) into r: their checked
 * and failed counts, thm5_events, thm6_max_error and progress_failure.
 * Returns 0 or PASCAL_ENOMEM. */
int pascal_validate_progress(const pascal_validate_opts *o, int threads,
                             pascal_validate_result *r);

/* The HDF5 file of a finished campaign (layout under pascal_validate_run),
 * and the check made before any work: that path's temporary file can be
 * created (it is removed again).  PASCAL_EINPUT for an unwritable path. */
int pascal_validate_write(const pascal_validate_result *r, const char *path,
                          const char *command_line, pascal_error *err);
int pascal_validate_probe(const char *path, pascal_error *err);

/* Writes case i as a `pascal point` command line:
 *   pascal point --N 5 --C 2 --phases 0,3,1 --assoc 2 --horizon 30 */
void pascal_validate_point_command(const pascal_validate_result *r, int64_t i,
                                   char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
