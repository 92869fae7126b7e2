/* Sweep execution: plan, evaluate in OpenMP batches, stream to a sink.
 * See run.h for the guarantees (canonical order, determinism, bounded
 * memory).  This file plans the run and puts its steps in order; the
 * batches are run_batch.c, the summary's headline run_headline.c, the
 * sink's setup run_sink.c and the MPI driver's pieces run_work.c, which
 * share engine/run_private.h. */
#include "engine/run.h"

#include <string.h>

#include "calibrate/calibrate.h"
#include "common/clock.h"
#include "engine/parallel.h"
#include "engine/plan.h"
#include "engine/run_guard.h"
#include "engine/run_private.h"
#include "model/sim.h"
#include "devices/sim_timing.h"

/* The checks of the whole run once its points are counted: a shard may
 * hold no kept point, the whole sweep must hold one; a dynamic sweep needs
 * a supported point. */
int pascal_run_plan_whole(const pascal_spec *spec, const pascal_plan_opts *po,
                          const pascal_dyn_model *dyn, const pascal_run_stats *st,
                          pascal_error *err)
{
    int whole = st->raw_begin == 0 && st->raw_end == pascal_spec_size(spec);
    if (st->rows == 0 && whole)
        return pascal_spec_where_error(spec, err, "expected at least one point to pass `where`, got "
                                       "none of the %llu points", (unsigned long long)st->raw_points);
    return pascal_plan_check_dynamic(spec, dyn, po, err);
}

/* Pass 1 (engine/plan.h): the estimate, then every check before any output
 * exists.  The reported error is the one at the smallest index, whatever
 * the thread count. */
static int plan(const pascal_spec *spec, int threads, const pascal_run_opts *o,
                const pascal_dyn_model *dyn, pascal_run_stats *st, pascal_error *err)
{
    pascal_plan_opts po = {threads, o->memory_bytes, o->check_progress, o->progress_ctx, o->stop_flag,
                           pascal_run_buffer_bytes(spec, o, st->raw_begin, st->raw_end)};
    pascal_plan_estimate e;
    pascal_plan_result r;
    int rc;
    if (o->on_estimate) {
        pascal_plan_estimate_run(spec, st->raw_begin, st->raw_end, &po, &e);
        o->on_estimate(o->estimate_ctx, &e);
    }
    if ((rc = pascal_plan_check(spec, st->raw_begin, st->raw_end, &po, &r, err)) != 0)
        return rc;
    st->raw_points = st->raw_end - st->raw_begin;
    st->rows = r.rows;
    st->max_M = r.max_M;
    return pascal_run_plan_whole(spec, &po, dyn, st, err);
}

/* The dynamic model's calibration, loaded once per run and shared
 * read-only by every thread; a bad file is the spec's error. */
int pascal_run_load_calibration(const pascal_spec *spec, pascal_dyn_model **dyn, pascal_error *err)
{
    int line, col, rc;
    const char *path = pascal_spec_calibration(spec, &line, &col);
    pascal_error sub = {0};
    *dyn = NULL;
    if (!(pascal_spec_models(spec) & (1u << PASCAL_MODEL_DYNAMIC)) || !path[0])
        return 0;
    if ((rc = pascal_calibrate_load(path, dyn, NULL, &sub)) == 0)
        return 0;
    return pascal_error_set(err, rc == PASCAL_ENOMEM ? rc : PASCAL_EINPUT, "%s:%d:%d: calibration: %s",
                            pascal_spec_filename(spec), line, col, sub.msg);
}

static int run_loaded(const pascal_spec *spec, const pascal_run_opts *o, pascal_run_stats *st,
                      const pascal_dyn_model *dyn, const pascal_sim_timing *tm,
                      pascal_error *err);

/* The simulator's timing from the spec's device profile, when the spec asks
 * for the simulate model. */
int pascal_run_load_sim_timing(const pascal_spec *spec, pascal_sim_timing *tm, int *have,
                               pascal_error *err)
{
    const char *text = pascal_spec_device_text(spec);
    pascal_error sub = {0};
    *have = 0;
    if (!pascal_run_slow_spec(spec))
        return 0;
    if (!text[0])
        return pascal_error_set(err, PASCAL_EINPUT, "%s: models: simulate needs a device profile "
                                "with a sim section: expected a top-level key device: PROFILE, "
                                "got none", pascal_spec_filename(spec));
    if (pascal_device_sim_parse(text, strlen(text), pascal_spec_device_path(spec), tm, &sub) != 0)
        return pascal_error_set(err, sub.code == PASCAL_ENOMEM ? sub.code : PASCAL_EINPUT,
                                "%s: models: simulate needs the device's timing: %s",
                                pascal_spec_filename(spec), sub.msg);
    *have = 1;
    return 0;
}

void pascal_run_shard_range(uint64_t size, int k, int n, uint64_t *begin, uint64_t *end)
{
    *begin = (uint64_t)((unsigned __int128)size * (unsigned)(k - 1) / (unsigned)n);
    *end = (uint64_t)((unsigned __int128)size * (unsigned)k / (unsigned)n);
}

int pascal_run(const pascal_spec *spec, const pascal_run_opts *o, pascal_run_stats *st,
               pascal_error *err)
{
    pascal_dyn_model *dyn = NULL;
    pascal_lock *lock = NULL;
    pascal_sim_timing tm;
    int rc, have_tm;
    memset(st, 0, sizeof *st);
    if ((rc = pascal_run_load_sim_timing(spec, &tm, &have_tm, err)) != 0)
        return rc;
    /* Before any work: the output is not an input and no one else writes it. */
    if ((rc = pascal_run_claim(spec, o, &lock, err)) != 0)
        return rc;
    if ((rc = pascal_run_load_calibration(spec, &dyn, err)) == 0)
        rc = run_loaded(spec, o, st, dyn, have_tm ? &tm : NULL, err);
    pascal_dyn_model_free(dyn);
    pascal_output_release(lock);
    return rc;
}

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
    rc = plan(spec, threads, o, dyn, st, err);
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
