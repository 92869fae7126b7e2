/* Where the engine's threads start.  Every OpenMP team of the library is
 * launched here, as BLIS keeps its thread launch in one function: the
 * engine's parallel parts (run_batch.c, run_work.c, validate*.c) pass a
 * body, and worksharing inside it (omp for, single, barrier, atomic) binds
 * to this team.  An embedding program sees one place that decides how many
 * threads run and can be changed (a thread pool, a cap) without touching
 * the callers. */
#ifndef PASCAL_ENGINE_PARALLEL_H
#define PASCAL_ENGINE_PARALLEL_H

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The thread count a request means: requested when > 0, else OpenMP's
 * default (OMP_NUM_THREADS, or the cores). */
int pascal_parallel_threads(int requested);

/* The cores available to this process (OpenMP's count). */
int pascal_parallel_cores(void);

/* Runs body(ctx) on every thread of a team of pascal_parallel_threads(
 * threads) threads and returns when all are done. */
void pascal_parallel(int threads, void (*body)(void *ctx), void *ctx);

/* 1 once a stop was asked for: *halt, shared by the team and set here the
 * first time a thread sees *flag (may be NULL) set.  Read before every
 * point or scenario, so that a batch of slow ones does not hold up Ctrl-C;
 * the loops then leave at a batch boundary that every thread agrees on. */
int pascal_parallel_stop_seen(const volatile sig_atomic_t *flag, int *halt);

#ifdef __cplusplus
}
#endif

#endif
