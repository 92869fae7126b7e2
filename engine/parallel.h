/* Where the engine's threads start.  Every OpenMP team of the library is
 * launched here, as BLIS keeps its thread launch in one function: the
 * engine's parallel parts (run_batch.c, run_work.c, validate*.c) pass a
 * body, and worksharing inside it (omp for, single, barrier, atomic) binds
 * to this team.  An embedding program sees one place that decides how many
 * threads run and can be changed (a thread pool, a cap) without touching
 * the callers. */
#ifndef PASCAL_ENGINE_PARALLEL_H
#define PASCAL_ENGINE_PARALLEL_H

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

#ifdef __cplusplus
}
#endif

#endif
