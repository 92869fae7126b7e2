/* A sweep run's batches: their size and memory, and the pipeline that
 * evaluates batch k on every thread (OpenMP worksharing inside the team that
 * engine/parallel.c starts) while one thread compacts batch k - 1 and
 * writes it to the sink, in index order.  See run.h for the guarantees. */
#include "engine/run_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/eval.h"
#include "engine/parallel.h"
#include "engine/run_sizing.h"

#define SCHED_CHUNK 512

int pascal_run_slow_spec(const pascal_spec *spec)
{
    return (pascal_spec_models(spec) >> PASCAL_MODEL_SIMULATE) & 1u;
}

void pascal_run_batch_free(batch *b)
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

int pascal_run_batch_alloc(batch *b, int64_t cap, int npc, int nrc)
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

/* Bytes pascal_run_batch_alloc takes for a batch of cap slots. */
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
                                : pascal_run_slow_spec(spec) ? SLOW_POINTS_PER_THREAD * threads
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
    return pascal_parallel_stop_seen(o->stop_flag, halt);
}

/* Evaluates raw indices [b0, b1) into the batch slots (parallel part). */
void pascal_run_eval_batch(const pascal_spec *spec, pascal_eval *ev, const sink_plan *sp,
                           batch *b, uint64_t b0, uint64_t b1, run_sizing *z, int64_t zoff,
                           int *failed, const pascal_run_opts *o, int *halt)
{
    const int *cols = pascal_spec_columns(spec);
    int nrc = pascal_spec_ncolumns(spec), chunk = pascal_run_slow_spec(spec) ? 1 : SCHED_CHUNK;
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
int64_t pascal_run_compact_batch(const sink_plan *sp, batch *b, uint64_t b0, uint64_t b1,
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
        if (h->band_slot >= 0)
            pascal_run_headline_add_band(h, i, b->rv[h->band_slot][s]);
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
int pascal_run_replay_resumed(const pascal_spec *spec, pascal_sink *sink, headline *h,
                              pascal_run_stats *st, uint64_t *start, pascal_error *err)
{
    enum { BLOCK = 65536 };
    uint64_t i = st->raw_begin, row = 0, have = 0, rows0 = st->rows_resumed;
    double *buf = h->slot >= 0 && rows0 ? malloc(2 * BLOCK * sizeof *buf) : NULL;
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
            if (rc == 0 && h->band_slot >= 0)
                rc = pascal_sink_read_result(sink, h->band_slot, (int64_t)row, (int64_t)k, buf + BLOCK,
                                             err);
            have += k;
        }
        if (buf && rc == 0) {
            pascal_run_headline_add(h, st, i, buf[row % BLOCK]);
            if (h->band_slot >= 0)
                pascal_run_headline_add_band(h, i, buf[BLOCK + row % BLOCK]);
        }
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
pascal_eval *pascal_run_make_eval(const pascal_spec *spec, const pascal_dyn_model *dyn,
                                  const pascal_sim_timing *tm, const pascal_run_opts *o)
{
    pascal_eval *ev = pascal_eval_create(pascal_spec_models(spec));
    if (ev) {
        pascal_eval_set_dynamic(ev, dyn);
        pascal_eval_set_dynamic_flags(ev, pascal_spec_extrapolation_nan(spec) ? PASCAL_DYN_NO_HOLD : 0);
        pascal_eval_set_sim(ev, tm, pascal_spec_ndevices(spec), sim_should_stop, (void *)o);
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
    kept = pascal_run_compact_batch(t->sp, b, b0, b1, &t->h, t->st, (int64_t)((k & 1) * t->bsize),
                                    &results);
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
    pascal_eval *ev = pascal_run_make_eval(t->spec, t->dyn, t->tm, t->o);
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
            pascal_run_eval_batch(t->spec, ev, t->sp, &t->b[k & 1], b0, b1, t->h.z,
                                  (int64_t)((k & 1) * t->bsize), &t->failed, t->o, &t->halt);
        }
#pragma omp barrier
    }
    pascal_eval_free(ev);
}

int pascal_run_batches(const pascal_spec *spec, const pascal_run_opts *o, int threads,
                       sink_plan *sp, pascal_sink *sink, pascal_run_stats *st,
                       const pascal_dyn_model *dyn, const pascal_sim_timing *tm,
                       pascal_error *err)
{
    batch_team t = {.spec = spec, .o = o, .dyn = dyn, .sp = sp, .sink = sink, .st = st, .err = err};
    uint64_t begin = st->raw_begin, n = st->raw_end;
    uint64_t bsize = run_batch_points(spec, o, threads, begin, n);
    int rc;
    if (pascal_run_batch_alloc(&t.b[0], (int64_t)bsize, sp->npc, pascal_spec_ncolumns(spec)) != 0 ||
        pascal_run_batch_alloc(&t.b[1], (int64_t)bsize, sp->npc, pascal_spec_ncolumns(spec)) != 0) {
        pascal_run_batch_free(&t.b[0]), pascal_run_batch_free(&t.b[1]);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory for a batch of %llu points",
                                (unsigned long long)bsize);
    }
    pascal_run_headline_init(&t.h, spec, st);
    st->target = o->target > 0 ? o->target : pascal_run_default_target(st->metric);
    t.h.z = run_sizing_create(spec, st->target, t.h.cap_axis, t.h.cap_stride, t.h.cap_size,
                              t.h.group_axis, t.h.group_stride, t.h.ngroups, 2 * (int64_t)bsize, st);
    if ((rc = pascal_run_replay_resumed(spec, sink, &t.h, st, &begin, err)) == 0 && t.h.z &&
        run_sizing_range(t.h.z, spec, st->raw_begin, begin, threads, dyn) != 0) {
        run_sizing_free(t.h.z);   /* optional, like the headline */
        t.h.z = NULL;
        snprintf(st->sizing_note, sizeof st->sizing_note, "the resumed rows could not be searched");
    }
    if (rc != 0) {
        pascal_run_headline_finish(&t.h, spec, st, st->target);
        pascal_run_batch_free(&t.b[0]), pascal_run_batch_free(&t.b[1]);
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
    pascal_run_batch_free(&t.b[0]), pascal_run_batch_free(&t.b[1]);
    st->rows_done = t.rows;
    return batches_outcome(t.rc, t.nomem, t.failed, t.stopped, st, err);
}
