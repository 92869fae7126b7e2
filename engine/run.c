/* Sweep execution: plan, evaluate in OpenMP batches, stream to a sink.
 * See run.h for the guarantees (canonical order, determinism, bounded
 * memory).  This file is the one-process run: it puts the steps in order.
 * The plan and the inputs are run_plan.c, the batches run_batch.c, the
 * summary's headline run_headline.c and the sink's setup run_sink.c, which
 * share engine/run_private.h; the MPI driver takes the same steps through
 * run_work.c (engine/run_work.h). */
#include "engine/run.h"

#include <string.h>

#include "common/clock.h"
#include "engine/parallel.h"
#include "engine/run_guard.h"
#include "engine/run_private.h"

static int run_loaded(const pascal_spec *spec, const pascal_run_opts *o, pascal_run_stats *st,
                      const pascal_dyn_model *dyn, const pascal_sim_timing *tm,
                      pascal_error *err)
{
    int threads = pascal_parallel_threads(o->threads);
    double t0 = pascal_now(), t1;
    pascal_sink *sink = NULL;
    sink_plan sp;
    int rc;
    memset(st, 0, sizeof *st);
    st->threads = threads;
    st->metric = -1;
    st->cap_axis = st->group_axis = -1;
    st->raw_begin = 0;
    st->raw_end = pascal_spec_size(spec);
    if (o->shard_count > 1)
        pascal_run_shard_range(st->raw_end, o->shard_index, o->shard_count, &st->raw_begin,
                               &st->raw_end);
    rc = pascal_run_plan(spec, threads, o, dyn, st, err);
    t1 = pascal_now();
    st->plan_seconds = t1 - t0;
    if (rc != 0 || o->dry_run) {
        st->total_seconds = st->plan_seconds;
        return rc;
    }
    pascal_run_plan_columns(spec, &sp);
    if (o->out_path) /* without a path: evaluate only (benchmarks) */
        rc = pascal_run_open_sink(spec, o, st, &sp, &sink, err);
    /* An unwritable destination was refused by the claim (bad input); a
     * failure to write here is a failure while running. */
    if (rc != 0)
        return rc;
    rc = pascal_run_batches(spec, o, threads, &sp, sink, st, dyn, tm, err);
    st->eval_seconds = pascal_now() - t1;
    if (rc == PASCAL_EINTR && sink) { /* keep the whole chunks for --resume */
        int64_t kept = 0;
        pascal_error sub = {0};
        if (pascal_sink_suspend(sink, &kept, &sub) != 0) {
            st->rows_done = 0; /* nothing to continue from */
            /* A file that could not be kept (a full disk) is a failure;
             * CSV, which cannot be kept, is a stop. */
            return pascal_error_set(err, sub.code == PASCAL_EINPUT ? PASCAL_EINTR : sub.code,
                                    "stopped; nothing kept: %s", sub.msg);
        }
        st->rows_done = (uint64_t)kept;
        return pascal_error_set(err, PASCAL_EINTR, "stopped: %lld of %llu rows kept in "
                                "%s.partial; continue with --resume", (long long)kept,
                                (unsigned long long)st->rows, o->out_path);
    }
    if (rc != 0) {
        pascal_sink_abort(sink);
        return rc;
    }
    rc = sink ? pascal_sink_finish(sink, err) : 0;
    st->total_seconds = pascal_now() - t0;
    return rc;
}

int pascal_run(const pascal_spec *spec, const pascal_run_opts *o, pascal_run_stats *st,
               pascal_error *err)
{
    pascal_dyn_model *dyn = NULL;
    pascal_lock *lock = NULL;
    pascal_sim_timing tm[PASCAL_SPEC_MAX_DEVICES];
    int rc, have_tm;
    memset(st, 0, sizeof *st);
    if ((rc = pascal_run_load_sim_timing(spec, tm, &have_tm, err)) != 0)
        return rc;
    /* Before any work: the output is not an input and no one else writes it. */
    if ((rc = pascal_run_claim(spec, o, &lock, err)) != 0)
        return rc;
    if ((rc = pascal_run_load_calibration(spec, &dyn, err)) == 0)
        rc = run_loaded(spec, o, st, dyn, have_tm ? tm : NULL, err);
    pascal_dyn_model_free(dyn);
    pascal_output_release(lock);
    return rc;
}
