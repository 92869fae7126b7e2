/* Sweep execution: plan, evaluate in OpenMP batches, stream to a sink.
 * See run.h for the guarantees (canonical order, determinism, bounded
 * memory). */
#include "engine/run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/calibrate.h"
#include "engine/clock.h"
#include "engine/eval.h"
#include "engine/parallel.h"
#include "engine/plan.h"
#include "engine/run_guard.h"
#include "engine/run_internal.h"
#include "engine/run_private.h"
#include "engine/run_sizing.h"
#include "model/phases.h"
#include "model/sim.h"
#include "sweeps/device.h"
#include "sweeps/sample.h"
#ifdef PASCAL_MPI
#include "engine/run_mpi.h"
#endif

/* The checks of the whole run once its points are counted: a shard may
 * hold no kept point, the whole sweep must hold one; a dynamic sweep needs
 * a supported point. */
static int plan_whole(const pascal_spec *spec, const pascal_plan_opts *po,
                      const pascal_dyn_model *dyn, const pascal_run_stats *st, pascal_error *err)
{
    int whole = st->raw_begin == 0 && st->raw_end == pascal_spec_size(spec);
    if (st->rows == 0 && whole)
        return pascal_spec_where_error(spec, err, "expected at least one point to pass `where`, got "
                                       "none of the %llu points", (unsigned long long)st->raw_points);
    return pascal_plan_check_dynamic(spec, dyn, po, err);
}

/* Pass 1 (engine/plan.c): the estimate, then every check before any output
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
    return plan_whole(spec, &po, dyn, st, err);
}

/* The dynamic model's calibration, loaded once per run and shared
 * read-only by every thread; a bad file is the spec's error. */
static int load_calibration(const pascal_spec *spec, pascal_dyn_model **dyn, pascal_error *err)
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
static int load_sim_timing(const pascal_spec *spec, pascal_sim_timing *tm, int *have,
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
#ifdef PASCAL_MPI
    /* Started by mpirun: the ranks share the run (engine/run_mpi.c). */
    if (pascal_run_mpi_active())
        return pascal_run_mpi(spec, o, st, err);
#endif
    if ((rc = load_sim_timing(spec, &tm, &have_tm, err)) != 0)
        return rc;
    /* Before any work: the output is not an input and no one else writes it. */
    if ((rc = pascal_run_claim(spec, o, &lock, err)) != 0)
        return rc;
    if ((rc = load_calibration(spec, &dyn, err)) == 0)
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

/* ---- the pieces the MPI driver puts together (engine/run_internal.h) ---- */

struct pascal_run_work {
    const pascal_spec *spec;
    const pascal_run_opts *o;
    pascal_run_stats *st;
    pascal_dyn_model *dyn;
    pascal_sim_timing tm;
    int have_tm;
    sink_plan sp;
    run_meta rm;
    int have_meta;
    batch b;
    headline h;
    uint64_t bsize;
    int threads;
    pascal_eval **ev;  /* a pool of one per thread, made on first use */
};

int pascal_run_work_create(const pascal_spec *spec, const pascal_run_opts *o,
                           pascal_run_stats *st, pascal_run_work **out, pascal_error *err)
{
    pascal_run_work *w = calloc(1, sizeof *w);
    int rc;
    *out = w;
    if (!w || !(w->ev = calloc((size_t)st->threads, sizeof *w->ev)))
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    w->spec = spec, w->o = o, w->st = st;
    w->threads = st->threads;
    w->bsize = o->batch_points > 0 ? (uint64_t)o->batch_points
               : pascal_run_slow_spec(spec) ? SLOW_POINTS_PER_THREAD * (uint64_t)w->threads
                                            : DEFAULT_BATCH;
    pascal_run_plan_columns(spec, &w->sp);
    pascal_run_headline_init(&w->h, spec, st);
    /* Each rank searches the scenarios of its pieces; the ranks' answers
     * are combined as the extremes are (pascal_run_work_sizing). */
    w->h.z = run_sizing_create(spec, o->target > 0 ? o->target : pascal_run_default_target(st->metric),
                               w->h.cap_axis, w->h.cap_stride, w->h.cap_size, w->h.group_axis,
                               w->h.group_stride, w->h.ngroups, (int64_t)w->bsize, st);
    if ((rc = load_sim_timing(spec, &w->tm, &w->have_tm, err)) != 0 ||
        (rc = load_calibration(spec, &w->dyn, err)) != 0)
        return rc;
    if (pascal_run_batch_alloc(&w->b, (int64_t)w->bsize, w->sp.npc, pascal_spec_ncolumns(spec)) != 0)
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory for a batch of %llu points",
                                (unsigned long long)w->bsize);
    return 0;
}

void pascal_run_work_free(pascal_run_work *w)
{
    if (!w)
        return;
    for (int t = 0; w->ev && t < w->threads; t++)
        pascal_eval_free(w->ev[t]);
    free(w->ev);
    pascal_run_batch_free(&w->b);
    free(w->h.worst);
    free(w->h.worst_at);
    run_sizing_free(w->h.z);
    free(w->rm.lists);
    free(w->rm.lens);
    pascal_dyn_model_free(w->dyn);
    free(w);
}

uint64_t pascal_run_work_batch(const pascal_run_work *w)
{
    return w->bsize;
}

int pascal_run_work_check(pascal_run_work *w, pascal_error *err)
{
    pascal_plan_opts po = {w->threads, w->o->memory_bytes, NULL, NULL, w->o->stop_flag, 0};
    return plan_whole(w->spec, &po, w->dyn, w->st, err);
}

int pascal_run_work_meta(pascal_run_work *w, pascal_sink_meta **meta,
                         const pascal_column_desc **points, int *npoint,
                         const pascal_column_desc **results, int *nresult, pascal_error *err)
{
    int rc = w->have_meta ? 0 : pascal_run_make_meta(w->spec, w->o, w->st, &w->sp, &w->rm, err);
    w->have_meta = rc == 0;
    *meta = &w->rm.m;
    *points = w->sp.pcols, *npoint = w->sp.npc;
    *results = w->sp.rcols, *nresult = pascal_spec_ncolumns(w->spec);
    return rc;
}

/* One piece on a team (pascal_parallel): each thread takes an evaluator of
 * the pool (which one does not matter: they keep no results) and its
 * share of the points. */
typedef struct work_team {
    pascal_run_work *w;
    uint64_t b0, b1;
    int next, failed, nomem, halt;
} work_team;

static void work_body(void *ctx)
{
    work_team *t = ctx;
    pascal_run_work *w = t->w;
    pascal_eval **ev = NULL;
    int k;
#pragma omp atomic capture
    k = t->next++;
    if (k < w->threads && !*(ev = &w->ev[k]))
        *ev = pascal_run_make_eval(w->spec, w->dyn, w->have_tm ? &w->tm : NULL, w->o);
    if (!ev || !*ev) {
#pragma omp atomic write
        t->nomem = 1;
    }
#pragma omp barrier
    if (!t->nomem)
        pascal_run_eval_batch(w->spec, *ev, &w->sp, &w->b, t->b0, t->b1, w->h.z, 0, &t->failed, w->o,
                              &t->halt);
}

int pascal_run_work_eval(pascal_run_work *w, uint64_t b0, uint64_t b1, int64_t *rows,
                         const void *const **points, const double *const **results,
                         pascal_error *err)
{
    work_team t = {.w = w, .b0 = b0, .b1 = b1};
    double **res;
    *rows = 0;
    if (b1 - b0 > w->bsize)
        return pascal_error_set(err, PASCAL_EINTERNAL, "a batch of %llu points, at most %llu",
                                (unsigned long long)(b1 - b0), (unsigned long long)w->bsize);
    pascal_parallel(w->threads, work_body, &t);
    if (t.nomem || t.failed)
        return pascal_error_set(err, t.nomem ? PASCAL_ENOMEM : PASCAL_EINTERNAL,
                                t.nomem ? "out of memory for the evaluator"
                                        : "a planned point could not be evaluated");
    if (t.halt) /* the unfinished piece is dropped */
        return pascal_error_set(err, PASCAL_EINTR, "stopped within a piece");
    *rows = pascal_run_compact_batch(&w->sp, &w->b, b0, b1, &w->h, w->st, 0, &res);
    *points = (const void *const *)w->b.out_p;
    *results = (const double *const *)res;
    return 0;
}

int pascal_run_work_replay(pascal_run_work *w, pascal_sink *sink, pascal_error *err)
{
    uint64_t start;
    int rc = pascal_run_replay_resumed(w->spec, sink, &w->h, w->st, &start, err);
    if (rc == 0 && w->h.z &&
        run_sizing_range(w->h.z, w->spec, w->st->raw_begin, start, w->threads, w->dyn) != 0)
        pascal_run_work_sizing_off(w, "the resumed rows could not be searched");
    return rc;
}

run_sizing_best *pascal_run_work_sizing(pascal_run_work *w, int64_t *n)
{
    *n = 0;
    return w->h.z ? run_sizing_bests(w->h.z, n) : NULL;
}

void pascal_run_work_sizing_off(pascal_run_work *w, const char *why)
{
    run_sizing_free(w->h.z);   /* optional, like the headline */
    w->h.z = NULL;
    snprintf(w->st->sizing_note, sizeof w->st->sizing_note, "%s", why);
}

void pascal_run_work_extremes(pascal_run_work *w, pascal_run_extremes *x)
{
    x->min = &w->st->min, x->max = &w->st->max;
    x->imin = &w->h.imin, x->imax = &w->h.imax;
    x->worst = w->h.worst, x->worst_at = w->h.worst_at;
    x->nworst = w->h.worst ? w->h.ngroups * w->h.cap_size : 0;
}

void pascal_run_work_finish(pascal_run_work *w)
{
    pascal_run_stats *st = w->st;
    st->target = w->o->target > 0 ? w->o->target : pascal_run_default_target(st->metric);
    pascal_run_headline_finish(&w->h, w->spec, st, st->target);
    w->h.worst = NULL, w->h.worst_at = NULL; /* freed by pascal_run_headline_finish */
}
