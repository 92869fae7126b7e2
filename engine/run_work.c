/* The pieces of a sweep run that the MPI driver (engine/mpi/run_mpi.c) puts
 * together in its own order (engine/run_work.h): the plan's last
 * checks, the columns, the output's description, the evaluation of a
 * piece and the headline that pascal_run uses, held per rank in one
 * pascal_run_work. */
#include "engine/run_work.h"

#include <stdio.h>
#include <stdlib.h>

#include "engine/eval.h"
#include "engine/parallel.h"
#include "engine/plan.h"
#include "engine/run_private.h"
#include "engine/run_sizing.h"

struct pascal_run_work {
    const pascal_spec *spec;
    const pascal_run_opts *o;
    pascal_run_stats *st;
    pascal_dyn_model *dyn;
    pascal_sim_timing tm[PASCAL_SPEC_MAX_DEVICES];   /* per profile (plan.h) */
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
    if ((rc = pascal_run_load_sim_timing(spec, w->tm, &w->have_tm, err)) != 0 ||
        (rc = pascal_run_load_calibration(spec, &w->dyn, err)) != 0)
        return rc;
    if (pascal_run_batch_alloc(&w->b, (int64_t)w->bsize, w->sp.npc,
                               pascal_spec_ncolumns(spec)) != 0)
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
    return pascal_run_plan_whole(w->spec, &po, w->dyn, w->st, err);
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
        *ev = pascal_run_make_eval(w->spec, w->dyn, w->have_tm ? w->tm : NULL, w->o);
    if (!ev || !*ev) {
#pragma omp atomic write
        t->nomem = 1;
    }
#pragma omp barrier
    if (!t->nomem)
        pascal_run_eval_batch(w->spec, *ev, &w->sp, &w->b, t->b0, t->b1, w->h.z, 0, &t->failed,
                              w->o, &t->halt);
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
    x->nworst = w->h.worst ? w->h.ngroups * w->h.cap_size * (w->h.band_slot >= 0 ? 2 : 1) : 0;
}

void pascal_run_work_finish(pascal_run_work *w)
{
    pascal_run_stats *st = w->st;
    st->target = w->o->target > 0 ? w->o->target : pascal_run_default_target(st->metric);
    pascal_run_headline_finish(&w->h, w->spec, st, st->target);
    w->h.worst = NULL, w->h.worst_at = NULL; /* freed by pascal_run_headline_finish */
}
