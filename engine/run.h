/* Running a sweep: plan (check every point before any output exists), then
 * evaluate in batches with OpenMP and stream rows, in canonical order, into
 * an HDF5 or CSV sink.  Its threads start in engine/parallel.c.
 *
 * Determinism: a point's results depend only on the point (random phases are
 * keyed by the phase-defining coordinates), every batch is written in index
 * order, and the only cross-thread reductions are order-independent (counts,
 * min/max with ties broken by the smaller index), so any thread count gives
 * bit-identical files apart from the `threads` and `created` attributes.
 * Memory is bounded by the batch size, whatever the sweep size. */
#ifndef PASCAL_ENGINE_RUN_H
#define PASCAL_ENGINE_RUN_H

#include <signal.h>
#include <stdint.h>

#include "common/error.h"
#include "output/sink.h"
#include "sweeps/search.h"
#include "sweeps/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pascal_plan_estimate;

typedef struct pascal_run_opts {
    const char *out_path;       /* destination file; NULL evaluates without
                                   writing (benchmarks) */
    pascal_sink_format format;
    int threads;                /* <= 0: OpenMP's default */
    /* Progress, for a bar or a log (the library never prints): called from
     * one thread with the raw points done of total (this shard's slice, less
     * the rows a resumed run kept), first with done = 0 before evaluating,
     * then after every batch.  NULL: not called. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
    int compression;            /* < 0: the spec's choice; 0..9 overrides */
    const char *command_line;   /* recorded in the file */
    int64_t batch_points;       /* raw points per batch; <= 0 chooses */
    int dry_run;                /* plan only: count and check, write nothing */
    double target;              /* sizing target for the headline metric; <= 0:
                                   0.05 for a miss rate, 1.2 for a traffic
                                   ratio (x ideal) */
    int shard_index;            /* with shard_count > 1: evaluate shard
                                   shard_index (1-based) of shard_count equal
                                   slices of the raw index range */
    int shard_count;
    /* Continue the run interrupted earlier into out_path + ".partial"
     * (HDF5 only); the rows there are kept, the rest is evaluated.  A run
     * killed outright is recovered first from out_path + ".journal"; with
     * nothing to continue, the run starts from the first point. */
    int resume;
    /* Polled after every batch; nonzero stops the run cleanly: an HDF5
     * output keeps its finished rows as out_path + ".partial" and
     * pascal_run returns PASCAL_EINTR. */
    int (*should_stop)(void *ctx);
    void *stop_ctx;
    /* A signal handler's flag (NULL: none), read by the check pass every
     * 65536 checks per thread and by the evaluator before every point:
     * nonzero stops the run (planning: nothing written; evaluating: within
     * a point, dropping the unfinished batch, as should_stop does after
     * it). */
    const volatile sig_atomic_t *stop_flag;
    /* Planning (engine/plan.h): the memory the bounds allow (<= 0: this
     * machine's), and a callback that receives the estimate before the
     * check pass starts (NULL: none is made). */
    double memory_bytes;
    void (*on_estimate)(void *ctx, const struct pascal_plan_estimate *e);
    void *estimate_ctx;
    /* Progress of a check pass that visits every point (engine/plan.h),
     * with progress_ctx: checks done of total, first with done = 0, then
     * every 65536 checks per thread; a factored pass, which is quick, is
     * not reported.  NULL: not called.  `progress` reports the
     * evaluation only. */
    void (*check_progress)(void *ctx, uint64_t done, uint64_t total);
} pascal_run_opts;

#define PASCAL_RUN_MAX_GROUPS 16

/* The sizing target a metric gets when the options give none: 1.2 for a
 * workload's traffic ratio (traffic_*: DRAM traffic at most 1.2x the ideal),
 * 0.05 for a miss rate. */
double pascal_run_default_target(int metric);

/* Sizing for one scenario (one value of the group axis, or the whole sweep):
 * the smallest swept capacity whose worst case over every other axis meets
 * the target. */
typedef struct pascal_run_sizing {
    double group_value;         /* group-axis value (a pattern code); NaN when ungrouped */
    double cap_value;           /* smallest such capacity; NaN when none does */
    double cap_worst;           /* worst metric at the largest capacity */
    int rises;                  /* a capacity meets the target below one that misses it:
                                   cap_value is above both */
    double band_cap_value;      /* with band: the same for answer_traffic_hi; NaN none */
    double band_cap_worst;      /* with band: answer_traffic_hi's worst at the largest capacity */
    pascal_point at_cap_worst;  /* where that worst case is */
    /* With sizing_exact: the group's scenario that needs the most capacity
     * to meet sizing_target, by bisection on whole blocks (engine/size.h). */
    int64_t exact_C;            /* blocks; -1 when a scenario meets it nowhere in range */
    double exact_bytes;         /* exact_C * block_bytes; NaN when unknown or none */
    double exact_value;         /* the target column there (at the range's top when none) */
    pascal_point at_exact;      /* that scenario, at exact_C */
} pascal_run_sizing;

/* What the summary says: counts, timings and the headline finding. */
typedef struct pascal_run_stats {
    uint64_t raw_points;        /* before `where` (this shard's slice) */
    uint64_t raw_begin, raw_end;/* the slice of raw indices evaluated */
    uint64_t rows_resumed;      /* rows kept from an interrupted run */
    uint64_t rows_done;         /* rows in the file (== rows unless stopped) */
    uint64_t rows;              /* points kept and written */
    int threads;
    int64_t max_M;
    double plan_seconds, eval_seconds, total_seconds;
    int metric;                 /* pascal_column_id of the headline metric, -1 if none */
    double min, max;            /* over all rows (NaN ignored) */
    pascal_point at_min, at_max;
    int cap_axis;               /* axis index of the capacity axis, -1 if none */
    int group_axis;             /* the pattern axis when swept (<= 16 values), else -1 */
    int ngroups;                /* sizing rows: one per group-axis value, or 1 */
    pascal_run_sizing sizing[PASCAL_RUN_MAX_GROUPS];
    double target;              /* the target the sizing used */
    int band;                   /* 1: sizing[].band_* size the answer's band's high end
                                   (answer_traffic_hi) on the same target */
    /* What earlier runs of this output left (docs/reliability.md). */
    uint64_t rows_recovered;    /* rows a killed run's journal gave back */
    uint64_t temporaries_removed; /* files of killed runs removed */
    int resumed_nothing;        /* --resume found nothing: ran from the start */
    /* A run shared by the ranks of an MPI job (the MPI build under mpirun,
     * docs/scale.md); ranks is 0 in one process. */
    int ranks;
    uint64_t rows_rank_min, rows_rank_max; /* rows evaluated by the least and
                                              the most busy rank */
    double write_seconds;       /* rank 0's time in collective writes */
    uint64_t write_bytes;       /* row bytes handed to those writes (all ranks) */
    double rank_rows_per_s;     /* rows a rank evaluates per second of
                                   evaluating (mean over the ranks) */
    double rank_cpu_min, rank_cpu_max; /* CPU seconds a rank (all its
                                   threads) spent evaluating: the balance */
    int sizing_exact;           /* 1: sizing[].exact_* are set (engine/run_sizing.h) */
    pascal_target sizing_target;/* what they answer: the spec's search: target, else
                                   metric <= opts.target */
    char sizing_note[PASCAL_ERROR_MAX]; /* why not, when sizing_exact is 0 ("" if no capacity axis) */
} pascal_run_stats;

/* In the MPI build, a process started by mpirun (MPI initialised) shares
 * the run with the other ranks: the same file, bit for bit, apart from the
 * `created`, `threads` and `ranks` attributes (engine/mpi/run_mpi.h). */
int pascal_run(const pascal_spec *spec, const pascal_run_opts *opts,
               pascal_run_stats *stats, pascal_error *err);

/* Bytes the batch loop holds for the whole run beside the evaluators'
 * workspaces: two batches of point and result slots (one evaluated while
 * the other is written) and, for a sweep with a capacity axis, the exact
 * sizing's per-slot results.  The planner counts them in its memory bound. */
double pascal_run_buffer_bytes(const pascal_spec *spec, const pascal_run_opts *opts, uint64_t begin,
                               uint64_t end);

/* Shard k (1-based) of n: raw indices [floor(size (k-1) / n), floor(size k / n)).
 * Shards in order cover every index once, so concatenating their rows gives
 * the single run's rows (pascal_h5_merge). */
void pascal_run_shard_range(uint64_t size, int k, int n, uint64_t *begin, uint64_t *end);

/* Point columns a sweep writes: every axis in canonical order, then N, M and
 * C when they are not axes.  Fills ids (pascal_param_id) and returns the count. */
int pascal_run_point_params(const pascal_spec *spec, int ids[PASCAL_NPARAM]);

#ifdef __cplusplus
}
#endif

#endif
