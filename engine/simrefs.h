/* Simulated reference runs for the dynamic model (`pascal measure-refs
 * --simulate`, docs/simulate.md): the open scan of every configuration
 * (o, path, d, m, N, W) through the progress simulator (model/sim.h) on a
 * device profile's timing, R repetitions each (repetition r draws the
 * per-SM differences with seed seed0 + r), K = K_H = A(H) / H per run.
 *
 * Runs go to the threads one at a time, longest first; each result lands in
 * its own slot, so the table is bit-identical on any thread count. */
#ifndef PASCAL_ENGINE_SIMREFS_H
#define PASCAL_ENGINE_SIMREFS_H

#include <stdint.h>

#include "common/error.h"
#include "model/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_simref {
    int64_t o;        /* occupancy */
    int path;         /* PASCAL_SIM_SYNC or PASCAL_SIM_TMA */
    int64_t d;        /* TMA depth; 0 for sync */
    int64_t m;        /* WMMA operations per block */
    int64_t N;
    double W;
    uint64_t seed;    /* per-SM draws of this run */
    double K;         /* result: K_H; NaN until simulated */
    double ns_per_round;
    int64_t C;        /* capacity, blocks; 0: the options' */
} pascal_simref;

typedef struct pascal_simrefs_opts {
    const pascal_sim_timing *tm;
    int64_t sms, C;
    double block_bytes;
    int threads;                 /* <= 0: OpenMP's default */
    /* Progress (the library never prints): runs done of total, first with
     * done = 0, then after every run, from one thread at a time.  NULL: not
     * called. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
    int (*should_stop)(void *ctx);
    void *stop_ctx;
} pascal_simrefs_opts;

/* Simulates every run of runs[0..n-1] (fills K and ns_per_round).  Returns
 * 0; PASCAL_EINTR when should_stop stopped it (the finished runs have K,
 * the others NaN); PASCAL_EINPUT naming the first run the simulator cannot
 * take; PASCAL_ENOMEM. */
int pascal_simrefs_run(const pascal_simrefs_opts *o, pascal_simref *runs, int64_t n,
                       pascal_error *err);

/* The reference CSV with its provenance as `#` comment lines first (each
 * line of `header`, which may hold several, prefixed "# "): the header
 * o,path,d,m,N,W,K (and C when a run has its own capacity), then one row per run with a K (runs without one are
 * left out), K to 17 significant digits.  Written to PATH.tmp.PID and renamed
 * when complete. */
int pascal_simrefs_write(const char *path, const char *header, const pascal_simref *runs,
                         int64_t n, pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
