/* Planning a sweep: what it will cost, and every check before any output.
 *
 * Estimate.  Before anything is checked, a sample of a few hundred points
 * (scattered over the slice) gives the cost of one check and the share of
 * points `where` keeps; a cost model of the requested models (docs/
 * limits.md) turns the points into an evaluation time.  It costs
 * milliseconds whatever the sweep's size; with a workload, up to eight of
 * the sampled points are also evaluated, to time their waves.
 *
 * Check pass.  A point can fail a check of pascal_spec_point (N, C and M at
 * least 1, a phase list that fits, each `require`) or a bound below.  Each
 * check reads a few parameters (sweeps/spec.h, pascal_spec_check_deps), set
 * by a few axes; whether a kept point fails it depends only on those axes
 * and the ones `where` reads.  So a check runs over the combinations of
 * those axes' values, the other axes held at their first value: a check on
 * N and M visits the distinct (N, M) pairs, not every point.  The first
 * failing point of such a walk is the failing point with the smallest index
 * (the raw index grows with the walk), so the error is the one a
 * point-by-point pass reports, on any thread count.  Only a check that
 * depends on (nearly) every axis, or a shard with a `where` that reads an
 * axis, needs a pass over every point of the slice; that pass reports its
 * progress through the callback when given one.  Every pass reads the stop
 * flag at least every 65536 points per thread.  The passes' threads start in
 * engine/parallel.c.
 *
 * Bounds (each the real limit of the code that would fail):
 *   M <= PASCAL_PLAN_MAX_M      the equal and clusters patterns compute
 *                               floor(a b / M) with a (b mod M) < M^2 < 2^63
 *   N M <= 2^63 - 1             Theorem 4's numerators sum to N M
 *   N <= PASCAL_REPLAY_MAX_N    lru_replay, belady: the LRU replay workspace
 *   rounds M <= 2^62            belady: request times (rounds default 6 N)
 *   memory                      pascal_eval_bytes(models, N, M) per thread,
 *                               times the threads, plus opts->reserved_bytes,
 *                               at most the machine's memory (or
 *                               opts->memory_bytes) */
#ifndef PASCAL_ENGINE_PLAN_H
#define PASCAL_ENGINE_PLAN_H

#include <signal.h>
#include <stdint.h>

#include "common/error.h"
#include "sweeps/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PASCAL_PLAN_MAX_M 3000000000.0

typedef struct pascal_plan_opts {
    int threads;                /* >= 1 */
    double memory_bytes;        /* memory the bounds allow; <= 0: this machine's */
    /* Progress of a per-point pass (as pascal_run_opts.progress: checks done
     * of total, first with 0; NULL: none).  A factored pass is not
     * reported: it takes milliseconds to seconds. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
    const volatile sig_atomic_t *stop_flag; /* nonzero stops with PASCAL_EINTR; NULL: none */
    double reserved_bytes;      /* held beside the workspaces for the whole run (the
                                   batch loop's buffers, pascal_run_buffer_bytes) */
} pascal_plan_opts;

typedef struct pascal_plan_estimate {
    uint64_t raw_points;        /* in the slice, before `where` */
    uint64_t check_evals;       /* point expansions the check pass makes */
    int per_point;              /* 1: the pass visits every point of the slice */
    char axes[256];             /* factored: the axes the checks read, "a, b" ("" none) */
    double kept_fraction;       /* share `where` keeps (exact without `where`) */
    double rows;                /* estimated rows */
    double check_seconds;       /* estimated wall time of the check pass */
    double run_seconds;         /* estimated wall time of the evaluation */
    double memory_bytes;        /* the memory the bounds allow */
} pascal_plan_estimate;

typedef struct pascal_plan_result {
    uint64_t rows;              /* kept points in the slice */
    int64_t max_M;              /* largest M of a kept point */
    uint64_t checked;           /* point expansions made */
} pascal_plan_result;

/* This machine's memory in bytes: physical memory, or the cgroup's limit
 * when it is lower. */
double pascal_plan_machine_memory(void);

/* The estimate for raw indices [begin, end); never fails. */
void pascal_plan_estimate_run(const pascal_spec *spec, uint64_t begin, uint64_t end,
                              const pascal_plan_opts *o, pascal_plan_estimate *out);

/* The check pass over raw indices [begin, end).  Returns 0; PASCAL_EINPUT
 * with the first failing point's error; PASCAL_EINTR when stopped. */
int pascal_plan_check(const pascal_spec *spec, uint64_t begin, uint64_t end,
                      const pascal_plan_opts *o, pascal_plan_result *out, pascal_error *err);

/* A dynamic sweep whose calibration supports none of its points is bad
 * input: every value would be NaN.  Walks the combinations of the axes the
 * dynamic model reads (stopping at the first supported point) and, when none
 * is supported, returns PASCAL_EINPUT located at the spec's `calibration`
 * key with the reasons counted.  0 without the dynamic model or with some
 * supported point; PASCAL_EINTR when stopped. */
struct pascal_dyn_model;
int pascal_plan_check_dynamic(const pascal_spec *spec, const struct pascal_dyn_model *dyn,
                              const pascal_plan_opts *o, pascal_error *err);

/* The simulator's timing from the spec's device profile when the spec asks
 * for the simulate model, else nothing (*have = 0); a run and a search load
 * it the same way.  tm holds PASCAL_SPEC_MAX_DEVICES: on a device axis
 * profile k's timing goes to tm[k] (*have = the profiles), else the one
 * profile's to tm[0] (*have = 1).  PASCAL_EINPUT names the spec when a
 * profile has none. */
struct pascal_sim_timing;
int pascal_run_load_sim_timing(const pascal_spec *spec, struct pascal_sim_timing *tm, int *have,
                               pascal_error *err);
/* The dynamic model's calibration when the spec asks for the dynamic model
 * and names one, else NULL; a bad file is the spec's error (PASCAL_EINPUT
 * naming its line).  The caller frees it (pascal_dyn_model_free). */
struct pascal_dyn_model;
int pascal_run_load_calibration(const pascal_spec *spec, struct pascal_dyn_model **dyn,
                                pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
