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

#define DEFAULT_BATCH 65536
#define SCHED_CHUNK 512
/* A slow model (a simulation per point): a few points per thread per
 * batch, handed out one at a time, so the bar moves and Ctrl-C is heard. */
#define SLOW_POINTS_PER_THREAD 2

static int slow_spec(const pascal_spec *spec)
{
    return (pascal_spec_models(spec) >> PASCAL_MODEL_SIMULATE) & 1u;
}

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

/* Per-batch slot storage, indexed by (raw index - batch start). */
typedef struct batch {
    int64_t cap;
    int npc, nrc;
    unsigned char *keep;
    size_t *idx;           /* slots of the kept rows, in order */
    double **pv;           /* npc arrays of point values */
    double **rv;           /* nrc arrays of results */
    void **out_p;          /* compacted point columns (double or int64) */
    double **out_r;        /* compacted results */
} batch;

static void batch_free(batch *b)
{
    if (!b)
        return;
    for (int j = 0; j < b->npc; j++) {
        if (b->pv) free(b->pv[j]);
        if (b->out_p) free(b->out_p[j]);
    }
    for (int j = 0; j < b->nrc; j++) {
        if (b->rv) free(b->rv[j]);
        if (b->out_r) free(b->out_r[j]);
    }
    free(b->pv), free(b->rv), free(b->out_p), free(b->out_r), free(b->keep), free(b->idx);
}

static int batch_alloc(batch *b, int64_t cap, int npc, int nrc)
{
    size_t n = (size_t)cap;
    int ok = 1;
    memset(b, 0, sizeof *b);
    b->cap = cap, b->npc = npc, b->nrc = nrc;
    b->keep = malloc(n);
    b->idx = malloc(n * sizeof *b->idx);
    b->pv = calloc((size_t)npc + 1, sizeof *b->pv);
    b->out_p = calloc((size_t)npc + 1, sizeof *b->out_p);
    b->rv = calloc((size_t)nrc + 1, sizeof *b->rv);
    b->out_r = calloc((size_t)nrc + 1, sizeof *b->out_r);
    ok = b->keep && b->idx && b->pv && b->out_p && b->rv && b->out_r;
    for (int j = 0; ok && j < npc; j++) {
        b->pv[j] = malloc(n * sizeof(double));
        b->out_p[j] = malloc(n * 8); /* double or int64_t */
        ok = b->pv[j] && b->out_p[j];
    }
    for (int j = 0; ok && j < nrc; j++) {
        b->rv[j] = malloc(n * sizeof(double));
        b->out_r[j] = malloc(n * sizeof(double));
        ok = b->rv[j] && b->out_r[j];
    }
    return ok ? 0 : -1;
}

/* Bytes batch_alloc takes for a batch of cap slots. */
static double batch_bytes(int64_t cap, int npc, int nrc)
{
    double n = (double)cap;
    return n * (1.0 + sizeof(size_t)) + 2.0 * n * sizeof(double) * (npc + nrc) +
           2.0 * sizeof(void *) * (npc + nrc + 2);
}

/* Raw points per batch: the option (or the default: a few per thread for a
 * slow model), at most the slice. */
static uint64_t run_batch_points(const pascal_spec *spec, const pascal_run_opts *o, int threads,
                                 uint64_t begin, uint64_t end)
{
    uint64_t bsize = (uint64_t)(o->batch_points > 0 ? o->batch_points
                                : slow_spec(spec) ? SLOW_POINTS_PER_THREAD * threads
                                                  : DEFAULT_BATCH);
    if (bsize > end - begin)
        bsize = end > begin ? end - begin : 1;
    return bsize;
}

double pascal_run_buffer_bytes(const pascal_spec *spec, const pascal_run_opts *o, uint64_t begin,
                               uint64_t end)
{
    int ids[PASCAL_NPARAM];
    int64_t bsize = (int64_t)run_batch_points(spec, o, pascal_parallel_threads(o->threads), begin, end);
    double bytes = 2 * batch_bytes(bsize, pascal_run_point_params(spec, ids), pascal_spec_ncolumns(spec));
    /* The exact sizing's slots, when the sweep has a capacity axis it may
     * search (run_sizing_create decides; this counts them whenever it may). */
    if (pascal_run_find_axis(spec, PASCAL_P_C, PASCAL_P_CAPACITY_BYTES, 2, 1 << 20) >= 0)
        bytes += run_sizing_bytes(2 * bsize);
    return bytes;
}

/* The stop flag is read before every point, so that a batch of slow points
 * does not hold up Ctrl-C; the unfinished batch is then dropped.  *halt is
 * written inside the batch only; the batch loop's condition reads the
 * `stopped` that the single thread sets from it, so every thread leaves
 * the loop at the same batch. */
static int stop_now(const pascal_run_opts *o, int *halt)
{
    int s;
#pragma omp atomic read
    s = *halt;
    if (!s && o->stop_flag && *o->stop_flag) {
#pragma omp atomic write
        *halt = 1;
        s = 1;
    }
    return s;
}

/* Evaluates raw indices [b0, b1) into the batch slots (parallel part). */
static void eval_batch(const pascal_spec *spec, pascal_eval *ev, const sink_plan *sp,
                       batch *b, uint64_t b0, uint64_t b1, run_sizing *z, int64_t zoff,
                       int *failed, const pascal_run_opts *o, int *halt)
{
    const int *cols = pascal_spec_columns(spec);
    int nrc = pascal_spec_ncolumns(spec), chunk = slow_spec(spec) ? 1 : SCHED_CHUNK;
    /* nowait: a thread done here joins the other batch's write, or waits at
     * the caller's barrier */
#pragma omp for schedule(dynamic, chunk) nowait
    for (uint64_t i = b0; i < b1; i++) {
        pascal_point p;
        double out[PASCAL_NCOLUMN];
        size_t s = (size_t)(i - b0);
        if (stop_now(o, halt))
            continue;
        b->keep[s] = pascal_spec_point(spec, i, &p, NULL) == 1;
        if (!b->keep[s])
            continue;
        /* The plan checked every point, so a phase vector that cannot be
         * built here is out of memory or a bug: stop rather than write NaN. */
        int rc = pascal_eval_point(ev, &p, cols, nrc, out);
        if (rc == 0 && z && run_sizing_search(z, ev, i, zoff + (int64_t)s, &p) != 0)
            rc = -1;
        if (rc < 0) {
#pragma omp atomic write
            *failed = 1;
        } else if (rc > 0) { /* a stop request cut a simulation short */
#pragma omp atomic write
            *halt = 1;
        }
        for (int j = 0; j < sp->npc; j++)
            b->pv[j][s] = p.v[sp->pids[j]];
        for (int j = 0; j < nrc; j++)
            b->rv[j][s] = out[j];
    }
}

/* Compacts kept slots into typed columns, in index order (serial part):
 * the summary sees the rows in order, then each column is gathered in one
 * pass.  When every row is kept the result arrays go to the sink as they
 * are (*results then points at b->rv rather than b->out_r). */
static int64_t compact_batch(const sink_plan *sp, batch *b, uint64_t b0, uint64_t b1,
                             headline *h, pascal_run_stats *st, int64_t zoff,
                             double ***results)
{
    int64_t n = 0;
    for (uint64_t i = b0; i < b1; i++) {
        size_t s = (size_t)(i - b0);
        if (!b->keep[s])
            continue;
        b->idx[n++] = s;
        if (h->slot >= 0)
            pascal_run_headline_add(h, st, i, b->rv[h->slot][s]);
        if (h->z)
            run_sizing_fold(h->z, i, zoff + (int64_t)s);
    }
    for (int j = 0; j < sp->npc; j++) {
        const double *src = b->pv[j];
        if (sp->pcols[j].type == PASCAL_COLTYPE_F64) {
            double *d = b->out_p[j];
            for (int64_t k = 0; k < n; k++)
                d[k] = src[b->idx[k]];
        } else {
            int64_t *d = b->out_p[j];
            for (int64_t k = 0; k < n; k++)
                d[k] = (int64_t)src[b->idx[k]];
        }
    }
    *results = b->rv;
    if (n == (int64_t)(b1 - b0))
        return n;
    for (int j = 0; j < b->nrc; j++)
        for (int64_t k = 0; k < n; k++)
            b->out_r[j][k] = b->rv[j][b->idx[k]];
    *results = b->out_r;
    return n;
}

/* A resumed run: finds the raw index after the rows already in the file and
 * feeds their headline metric, read back from the file, to the headline in
 * index order, so the summary covers the whole run. */
static int replay_resumed(const pascal_spec *spec, pascal_sink *sink, headline *h,
                          pascal_run_stats *st, uint64_t *start, pascal_error *err)
{
    enum { BLOCK = 65536 };
    uint64_t i = st->raw_begin, row = 0, have = 0, rows0 = st->rows_resumed;
    double *buf = h->slot >= 0 && rows0 ? malloc(BLOCK * sizeof *buf) : NULL;
    int rc = 0;
    if (h->slot >= 0 && rows0 && !buf)
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    for (; row < rows0 && i < st->raw_end && rc == 0; i++) {
        pascal_point p;
        if (pascal_spec_point(spec, i, &p, NULL) != 1)
            continue;
        if (buf && row == have) {
            uint64_t k = rows0 - row < BLOCK ? rows0 - row : BLOCK;
            rc = pascal_sink_read_result(sink, h->slot, (int64_t)row, (int64_t)k, buf, err);
            have += k;
        }
        if (buf && rc == 0)
            pascal_run_headline_add(h, st, i, buf[row % BLOCK]);
        row++;
    }
    free(buf);
    *start = i;
    return rc;
}

/* How the batch loop ended, as a status. */
static int batches_outcome(int rc, int nomem, int failed, int stopped,
                           const pascal_run_stats *st, pascal_error *err)
{
    if (rc != 0)
        return rc;
    if (stopped && !failed && !nomem)
        return pascal_error_set(err, PASCAL_EINTR, "stopped after %llu of %llu rows",
                                (unsigned long long)st->rows_done, (unsigned long long)st->rows);
    if (nomem || failed)
        return pascal_error_set(err, nomem ? PASCAL_ENOMEM : PASCAL_EINTERNAL,
                                nomem ? "out of memory for the evaluator"
                                      : "a planned point could not be evaluated");
    if (st->rows_done != st->rows)
        return pascal_error_set(err, PASCAL_EINTERNAL, "wrote %llu rows, planned %llu",
                                (unsigned long long)st->rows_done, (unsigned long long)st->rows);
    return 0;
}

/* The batch loop's team.  Batch k is evaluated into b[k & 1] by every
 * thread while one thread writes batch k - 1 from the other buffer. */
typedef struct batch_team {
    const pascal_spec *spec;
    const pascal_run_opts *o;
    const pascal_dyn_model *dyn;
    const pascal_sim_timing *tm;
    sink_plan *sp;
    pascal_sink *sink;
    pascal_run_stats *st;
    pascal_error *err;
    batch b[2];                /* batch k is evaluated into b[k & 1] */
    headline h;
    uint64_t begin, n, bsize, nbatches, rows;
    int failed, nomem, rc, stopped;
    int halt;                   /* the stop flag was seen inside a batch (stop_now) */
} batch_team;

/* A simulation (model simulate) polls this while it runs, so that a stop
 * request is heard within a point. */
static int sim_should_stop(void *ctx)
{
    const pascal_run_opts *o = ctx;
    if (o->stop_flag && *o->stop_flag)
        return 1;
    return o->should_stop && o->should_stop(o->stop_ctx);
}

/* A thread's evaluator, with the run's calibration and the simulator's
 * timing (NULL without model simulate); NULL: out of memory. */
static pascal_eval *make_eval(const pascal_spec *spec, const pascal_dyn_model *dyn,
                              const pascal_sim_timing *tm, const pascal_run_opts *o)
{
    pascal_eval *ev = pascal_eval_create(pascal_spec_models(spec));
    if (ev) {
        pascal_eval_set_dynamic(ev, dyn);
        pascal_eval_set_dynamic_flags(ev, pascal_spec_extrapolation_nan(spec) ? PASCAL_DYN_NO_HOLD : 0);
        pascal_eval_set_sim(ev, tm, sim_should_stop, (void *)o);
    }
    return ev;
}

static void batch_range(const batch_team *t, uint64_t k, uint64_t *b0, uint64_t *b1)
{
    *b0 = t->begin + k * t->bsize;
    *b1 = *b0 + t->bsize < t->n ? *b0 + t->bsize : t->n;
}

/* Batch k's serial part: summary, compaction, sink, progress, stop. */
static void write_batch(batch_team *t, uint64_t k)
{
    const pascal_run_opts *o = t->o;
    uint64_t b0, b1;
    double **results;
    batch *b = &t->b[k & 1];
    int64_t kept;
    batch_range(t, k, &b0, &b1);
    kept = compact_batch(t->sp, b, b0, b1, &t->h, t->st, (int64_t)((k & 1) * t->bsize), &results);
    if (kept > 0 && t->sink)
        t->rc = pascal_sink_append(t->sink, kept, (const void *const *)b->out_p,
                                   (const double *const *)results, t->err);
    t->rows += (uint64_t)kept;
    if (o->progress)
        o->progress(o->progress_ctx, b1 - t->begin, t->n - t->begin);
    if (o->should_stop && o->should_stop(o->stop_ctx))
        t->stopped = 1;
}

/* Pipelined: while the team evaluates batch k into one buffer, one thread
 * writes batch k - 1 from the other and then joins the evaluation, so the
 * serial part (compaction, compression, the HDF5 write) overlaps the
 * parallel one.  Rows still reach the sink in index order.  A stop, a
 * failure or a sink error ends the loop at the next batch boundary; the
 * batch evaluated meanwhile is dropped (a resume evaluates it again), and
 * so is a batch the stop flag cut short (halt). */
static void batch_body(void *ctx)
{
    batch_team *t = ctx;
    pascal_eval *ev = make_eval(t->spec, t->dyn, t->tm, t->o);
    if (!ev) {
#pragma omp atomic write
        t->nomem = 1;
    }
#pragma omp barrier
    for (uint64_t k = 0; k <= t->nbatches; k++) {
        uint64_t b0, b1;
        int go = !(t->nomem || t->failed || t->stopped || t->halt || t->rc != 0);
        /* Every thread has read the flags before this batch's writer or
         * evaluation can change them, so all take the same branch. */
#pragma omp barrier
        if (!go)
            break;
#pragma omp single nowait
        if (k > 0)
            write_batch(t, k - 1);
        if (k < t->nbatches) {
            batch_range(t, k, &b0, &b1);
            eval_batch(t->spec, ev, t->sp, &t->b[k & 1], b0, b1, t->h.z,
                       (int64_t)((k & 1) * t->bsize), &t->failed, t->o, &t->halt);
        }
#pragma omp barrier
    }
    pascal_eval_free(ev);
}

static int run_batches(const pascal_spec *spec, const pascal_run_opts *o, int threads,
                       sink_plan *sp, pascal_sink *sink, pascal_run_stats *st,
                       const pascal_dyn_model *dyn, const pascal_sim_timing *tm,
                       pascal_error *err)
{
    batch_team t = {.spec = spec, .o = o, .dyn = dyn, .sp = sp, .sink = sink, .st = st, .err = err};
    uint64_t begin = st->raw_begin, n = st->raw_end;
    uint64_t bsize = run_batch_points(spec, o, threads, begin, n);
    int rc;
    if (batch_alloc(&t.b[0], (int64_t)bsize, sp->npc, pascal_spec_ncolumns(spec)) != 0 ||
        batch_alloc(&t.b[1], (int64_t)bsize, sp->npc, pascal_spec_ncolumns(spec)) != 0) {
        batch_free(&t.b[0]), batch_free(&t.b[1]);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory for a batch of %llu points",
                                (unsigned long long)bsize);
    }
    pascal_run_headline_init(&t.h, spec, st);
    st->target = o->target > 0 ? o->target : pascal_run_default_target(st->metric);
    t.h.z = run_sizing_create(spec, st->target, t.h.cap_axis, t.h.cap_stride, t.h.cap_size,
                              t.h.group_axis, t.h.group_stride, t.h.ngroups, 2 * (int64_t)bsize, st);
    if ((rc = replay_resumed(spec, sink, &t.h, st, &begin, err)) == 0 && t.h.z &&
        run_sizing_range(t.h.z, spec, st->raw_begin, begin, threads, dyn) != 0) {
        run_sizing_free(t.h.z);   /* optional, like the headline */
        t.h.z = NULL;
        snprintf(st->sizing_note, sizeof st->sizing_note, "the resumed rows could not be searched");
    }
    if (rc != 0) {
        pascal_run_headline_finish(&t.h, spec, st, st->target);
        batch_free(&t.b[0]), batch_free(&t.b[1]);
        return rc;
    }
    t.tm = tm;
    t.begin = begin, t.n = n, t.bsize = bsize, t.rows = st->rows_resumed;
    t.nbatches = n > begin ? (n - begin + bsize - 1) / bsize : 0;
    if (o->progress)
        o->progress(o->progress_ctx, 0, n - begin);
    pascal_parallel(threads, batch_body, &t);
    if (t.halt)
        t.stopped = 1;
    pascal_run_headline_finish(&t.h, spec, st, st->target);
    batch_free(&t.b[0]), batch_free(&t.b[1]);
    st->rows_done = t.rows;
    return batches_outcome(t.rc, t.nomem, t.failed, t.stopped, st, err);
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
    if (!slow_spec(spec))
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
    rc = run_batches(spec, o, threads, &sp, sink, st, dyn, tm, err);
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
               : slow_spec(spec) ? SLOW_POINTS_PER_THREAD * (uint64_t)w->threads
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
    if (batch_alloc(&w->b, (int64_t)w->bsize, w->sp.npc, pascal_spec_ncolumns(spec)) != 0)
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
    batch_free(&w->b);
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
        *ev = make_eval(w->spec, w->dyn, w->have_tm ? &w->tm : NULL, w->o);
    if (!ev || !*ev) {
#pragma omp atomic write
        t->nomem = 1;
    }
#pragma omp barrier
    if (!t->nomem)
        eval_batch(w->spec, *ev, &w->sp, &w->b, t->b0, t->b1, w->h.z, 0, &t->failed, w->o, &t->halt);
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
    *rows = compact_batch(&w->sp, &w->b, b0, b1, &w->h, w->st, 0, &res);
    *points = (const void *const *)w->b.out_p;
    *results = (const double *const *)res;
    return 0;
}

int pascal_run_work_replay(pascal_run_work *w, pascal_sink *sink, pascal_error *err)
{
    uint64_t start;
    int rc = replay_resumed(w->spec, sink, &w->h, w->st, &start, err);
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
