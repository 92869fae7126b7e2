/* Running a sweep spec (pascal/spec.h) into an HDF5 or CSV file, as `pascal
 * run` does, and answering the sizing question, as `pascal size` does.
 *
 * A run checks every point before it creates any file, evaluates on OpenMP
 * threads in batches, writes rows in canonical order (bit-identical whatever
 * the thread count or sharding) to OUT.tmp.PID and renames it onto OUT when
 * complete; an HDF5 run stopped by should_stop keeps its finished rows as
 * OUT.partial for `resume` (docs/reliability.md).  The library installs no
 * signal handler: a program stops a run through should_stop. */
#ifndef PASCAL_RUN_H
#define PASCAL_RUN_H

#include <stdint.h>

#include "pascal/error.h"
#include "pascal/spec.h"
#include "pascal/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PASCAL_NO_COMPRESSION (-1)

typedef enum pascal_format {
    PASCAL_FORMAT_HDF5 = 0,
    PASCAL_FORMAT_CSV = 1
} pascal_format;

/* Zero-initialise, then set what you need. */
typedef struct pascal_run_options {
    const char *out_path;       /* destination file ("-": CSV on stdout) */
    pascal_format format;
    int threads;                /* <= 0: OpenMP's default (OMP_NUM_THREADS) */
    int compression;            /* 0: the spec's (deflate 1 by default); 1..9: deflate
                                   level; PASCAL_NO_COMPRESSION: none */
    int resume;                 /* continue OUT.partial (HDF5), or OUT.journal
                                   of a killed run; nothing there: start */
    int shard_index;            /* with shard_count > 1: evaluate slice
                                   shard_index (1-based) of shard_count */
    int shard_count;
    const char *command_line;   /* recorded in the file (NULL: "") */
    /* Called from one thread with the raw points done of total, first with
     * 0, then after every batch (NULL: not called). */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    /* Polled after every batch; nonzero stops the run: PASCAL_EINTR. */
    int (*should_stop)(void *ctx);
    void *ctx;                  /* given to progress and should_stop */
} pascal_run_options;

typedef struct pascal_run_summary {
    uint64_t raw_points;        /* of this shard, before `where` */
    uint64_t rows;              /* points kept by `where` */
    uint64_t rows_done;         /* rows in the file (rows, unless stopped) */
    uint64_t rows_resumed;      /* rows kept from an interrupted run */
    int threads;
    double plan_seconds, eval_seconds, total_seconds;
} pascal_run_summary;

/* Evaluates spec into opts->out_path.  PASCAL_EINPUT for a spec point the
 * planner refuses or an output that cannot be claimed (nothing is created),
 * PASCAL_EIO when writing fails (the destination is untouched), PASCAL_EINTR
 * when stopped.  summary may be NULL. */
PASCAL_API int pascal_run_sweep(const pascal_spec *spec, const pascal_run_options *opts,
                                pascal_run_summary *summary, pascal_error *err);

typedef struct pascal_size_answer {
    uint64_t scenarios;         /* searched (kept by `where`) */
    uint64_t met;               /* scenarios some capacity in range satisfies */
    uint64_t worst_index;       /* raw point index of the scenario needing the most */
    int64_t C;                  /* its smallest capacity meeting the target, in
                                   blocks; -1 when it meets it nowhere in range */
    double capacity_bytes;      /* C * block_bytes; NaN when none or unknown */
    double value;               /* the target's column there */
    double seconds;
} pascal_size_answer;

/* The smallest capacity meeting `target` ("rho_lru <= 0.05", or NULL for the
 * spec's search: section) in every scenario of the spec, exact to a block by
 * bisection on its capacity axis.  threads <= 0: OpenMP's default. */
PASCAL_API int pascal_size_worst(const pascal_spec *spec, const char *target, int threads,
                                 pascal_size_answer *answer, pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
