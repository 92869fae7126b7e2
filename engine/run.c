/* Sweep execution: plan, evaluate in OpenMP batches, stream to a sink.
 * See run.h for the guarantees (canonical order, determinism, bounded
 * memory). */
#include "engine/run.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/calibrate.h"
#include "engine/eval.h"
#include "engine/progress.h"
#include "model/phases.h"
#include "model/sim.h"
#include "sweeps/device.h"

#define DEFAULT_BATCH 65536
#define SCHED_CHUNK 512
/* A slow model (a simulation per point): a few points per thread per
 * batch, handed out one at a time, so the bar moves and Ctrl-C is heard. */
#define SLOW_POINTS_PER_THREAD 2

static int slow_spec(const pascal_spec *spec)
{
    return (pascal_spec_models(spec) >> PASCAL_MODEL_SIMULATE) & 1u;
}

int pascal_run_point_params(const pascal_spec *spec, int ids[PASCAL_NPARAM])
{
    int n = 0, seen[PASCAL_NPARAM] = {0};
    static const int derived[] = {PASCAL_P_N, PASCAL_P_M, PASCAL_P_C};
    for (int i = 0; i < pascal_spec_naxes(spec); i++) {
        int id = pascal_spec_axis(spec, i)->param;
        seen[id] = 1;
        ids[n++] = id;
    }
    for (int k = 0; k < 3; k++)
        if (!seen[derived[k]])
            ids[n++] = derived[k];
    return n;
}

static pascal_coltype param_coltype(int id)
{
    switch (pascal_params[id].type) {
    case PASCAL_T_REAL: return PASCAL_COLTYPE_F64;
    case PASCAL_T_PATTERN: return PASCAL_COLTYPE_ENUM;
    case PASCAL_T_PATH: return PASCAL_COLTYPE_ENUM;
    default: return PASCAL_COLTYPE_I64;
    }
}

/* Pass 1: every point is expanded and checked before any output exists.  The
 * reported error is the one at the smallest index, whatever the thread count. */
static int plan(const pascal_spec *spec, int threads, pascal_run_stats *st,
                pascal_error *err)
{
    uint64_t begin = st->raw_begin, end = st->raw_end, kept = 0, bad = UINT64_MAX;
    int64_t max_M = 0;
#pragma omp parallel for num_threads(threads) schedule(static) \
    reduction(+ : kept) reduction(max : max_M) reduction(min : bad)
    for (uint64_t i = begin; i < end; i++) {
        pascal_point p;
        int rc = pascal_spec_point(spec, i, &p, NULL);
        if (rc == 1) {
            kept++;
            if ((int64_t)p.v[PASCAL_P_M] > max_M)
                max_M = (int64_t)p.v[PASCAL_P_M];
        } else if (rc < 0 && i < bad) {
            bad = i;
        }
    }
    if (bad != UINT64_MAX) {
        pascal_point p;
        return pascal_spec_point(spec, bad, &p, err);
    }
    st->raw_points = end - begin;
    st->rows = kept;
    st->max_M = max_M;
    return 0;
}

/* Per-batch slot storage, indexed by (raw index - batch start). */
typedef struct batch {
    int64_t cap;
    int npc, nrc;
    unsigned char *keep;
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
    free(b->pv), free(b->rv), free(b->out_p), free(b->out_r), free(b->keep);
}

static int batch_alloc(batch *b, int64_t cap, int npc, int nrc)
{
    size_t n = (size_t)cap;
    int ok = 1;
    memset(b, 0, sizeof *b);
    b->cap = cap, b->npc = npc, b->nrc = nrc;
    b->keep = malloc(n);
    b->pv = calloc((size_t)npc + 1, sizeof *b->pv);
    b->out_p = calloc((size_t)npc + 1, sizeof *b->out_p);
    b->rv = calloc((size_t)nrc + 1, sizeof *b->rv);
    b->out_r = calloc((size_t)nrc + 1, sizeof *b->out_r);
    ok = b->keep && b->pv && b->out_p && b->rv && b->out_r;
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

/* The headline: range of one miss-rate metric and, for a capacity sweep, the
 * smallest capacity whose worst case over all other axes meets the target,
 * per value of the pattern axis when the pattern is swept. */
typedef struct headline {
    int slot;                  /* index into the spec's columns, -1 if none */
    uint64_t imin, imax;       /* raw indices of the extremes */
    int cap_axis, group_axis;
    uint64_t cap_stride, group_stride;
    int64_t cap_size, ngroups;
    double *worst;             /* [group][capacity value]: worst metric */
    uint64_t *worst_at;
} headline;

static uint64_t dim_stride(const pascal_spec *spec, int dim)
{
    uint64_t stride = 1;
    for (int d = dim + 1; d < pascal_spec_ndims(spec); d++)
        stride *= (uint64_t)pascal_spec_dim_size(spec, d);
    return stride;
}

static int find_axis(const pascal_spec *spec, int p1, int p2, int64_t min, int64_t max)
{
    for (int a = 0; a < pascal_spec_naxes(spec); a++) {
        const pascal_axis *ax = pascal_spec_axis(spec, a);
        if ((ax->param == p1 || ax->param == p2) && ax->count >= min && ax->count <= max)
            return a;
    }
    return -1;
}

static void headline_init(headline *h, const pascal_spec *spec, pascal_run_stats *st)
{
    /* A dynamic sweep is about rho_dyn; a static one about its most exact
     * miss rate. */
    static const int prefer[] = {PASCAL_COL_RHO_DYN, PASCAL_COL_RHO_LRU, PASCAL_COL_RHO_TTL,
                                 PASCAL_COL_RHO_SDCM, PASCAL_COL_RHO_BOUND, PASCAL_COL_RHO_CHE,
                                 PASCAL_COL_RHO_SIM};
    const int *cols = pascal_spec_columns(spec);
    size_t n;
    memset(h, 0, sizeof *h);
    h->slot = -1;
    for (size_t k = 0; k < sizeof prefer / sizeof prefer[0] && h->slot < 0; k++)
        for (int j = 0; j < pascal_spec_ncolumns(spec) && h->slot < 0; j++)
            if (cols[j] == prefer[k])
                h->slot = j;
    st->metric = h->slot >= 0 ? cols[h->slot] : -1;
    st->min = st->max = NAN;
    h->cap_axis = h->slot >= 0 ? find_axis(spec, PASCAL_P_C, PASCAL_P_CAPACITY_BYTES, 2, 1 << 20) : -1;
    h->group_axis = find_axis(spec, PASCAL_P_PATTERN, PASCAL_P_PATTERN, 2, PASCAL_RUN_MAX_GROUPS);
    if (h->cap_axis < 0)
        return;
    h->cap_size = pascal_spec_axis(spec, h->cap_axis)->count;
    h->cap_stride = dim_stride(spec, pascal_spec_axis(spec, h->cap_axis)->dim);
    h->ngroups = h->group_axis >= 0 ? pascal_spec_axis(spec, h->group_axis)->count : 1;
    if (h->group_axis >= 0)
        h->group_stride = dim_stride(spec, pascal_spec_axis(spec, h->group_axis)->dim);
    n = (size_t)(h->ngroups * h->cap_size);
    h->worst = malloc(n * sizeof *h->worst);
    h->worst_at = malloc(n * sizeof *h->worst_at);
    if (!h->worst || !h->worst_at) { /* the headline is optional: skip it */
        free(h->worst), free(h->worst_at);
        h->worst = NULL, h->worst_at = NULL, h->cap_axis = -1;
        return;
    }
    for (size_t k = 0; k < n; k++)
        h->worst[k] = NAN;
}

/* Called in index order, so ties keep the first index on any thread count. */
static void headline_add(headline *h, pascal_run_stats *st, uint64_t i, double v)
{
    if (isnan(v))
        return;
    if (isnan(st->min) || v < st->min)
        st->min = v, h->imin = i;
    if (isnan(st->max) || v > st->max)
        st->max = v, h->imax = i;
    if (h->cap_axis >= 0) {
        int64_t k = (int64_t)((i / h->cap_stride) % (uint64_t)h->cap_size);
        if (h->group_axis >= 0)
            k += h->cap_size * (int64_t)((i / h->group_stride) % (uint64_t)h->ngroups);
        if (isnan(h->worst[k]) || v > h->worst[k])
            h->worst[k] = v, h->worst_at[k] = i;
    }
}

static void sizing_finish(const headline *h, const pascal_spec *spec, int64_t g,
                          double target, pascal_run_sizing *out)
{
    const double *caps = pascal_spec_axis(spec, h->cap_axis)->values;
    const double *worst = h->worst + g * h->cap_size;
    int64_t best = -1, last = -1;
    for (int64_t k = 0; k < h->cap_size; k++) {
        if (isnan(worst[k]))
            continue;
        if (worst[k] <= target && (best < 0 || caps[k] < caps[best]))
            best = k;
        if (last < 0 || caps[k] > caps[last])
            last = k;
    }
    out->group_value = h->group_axis >= 0 ? pascal_spec_axis(spec, h->group_axis)->values[g] : NAN;
    out->cap_value = best >= 0 ? caps[best] : NAN;
    out->cap_worst = last >= 0 ? worst[last] : NAN;
    if (last >= 0)
        pascal_spec_point(spec, h->worst_at[g * h->cap_size + last], &out->at_cap_worst, NULL);
}

static void headline_finish(headline *h, const pascal_spec *spec, pascal_run_stats *st,
                            double target)
{
    if (!isnan(st->min)) {
        pascal_spec_point(spec, h->imin, &st->at_min, NULL);
        pascal_spec_point(spec, h->imax, &st->at_max, NULL);
    }
    if (h->cap_axis >= 0) {
        st->cap_axis = h->cap_axis;
        st->group_axis = h->group_axis;
        st->ngroups = (int)h->ngroups;
        for (int64_t g = 0; g < h->ngroups; g++)
            sizing_finish(h, spec, g, target, &st->sizing[g]);
    }
    free(h->worst);
    free(h->worst_at);
}

/* Column and axis descriptions for the sink, borrowed from the vocabulary. */
typedef struct sink_plan {
    int pids[PASCAL_NPARAM], npc;
    pascal_column_desc pcols[PASCAL_NPARAM];
    pascal_column_desc rcols[PASCAL_NCOLUMN];
    pascal_axis_desc axes[PASCAL_NPARAM];
} sink_plan;

static void describe_param(pascal_column_desc *d, int id)
{
    d->name = pascal_params[id].name;
    d->units = pascal_params[id].units;
    d->description = pascal_params[id].description;
    d->type = param_coltype(id);
    int is_path = pascal_params[id].type == PASCAL_T_PATH;
    d->labels = d->type != PASCAL_COLTYPE_ENUM ? NULL : is_path ? pascal_path_names : pascal_pattern_names;
    d->nlabels = d->type != PASCAL_COLTYPE_ENUM ? 0 : is_path ? PASCAL_PATH_COUNT : PASCAL_PATTERN_COUNT;
}

/* The sink's parallel_for: called from the batch loop's single thread, its
 * tasks run on the team's other threads, which wait at that construct's
 * barrier; outside a parallel region it runs in the calling thread. */
static void team_parallel_for(int n, void (*body)(void *arg, int i), void *arg)
{
#pragma omp taskloop grainsize(1)
    for (int i = 0; i < n; i++)
        body(arg, i);
}

static void plan_columns(const pascal_spec *spec, sink_plan *sp)
{
    const int *cols = pascal_spec_columns(spec);
    sp->npc = pascal_run_point_params(spec, sp->pids);
    for (int j = 0; j < sp->npc; j++)
        describe_param(&sp->pcols[j], sp->pids[j]);
    for (int j = 0; j < pascal_spec_ncolumns(spec); j++) {
        const pascal_column_info *c = &pascal_columns[cols[j]];
        sp->rcols[j] = (pascal_column_desc){c->name, c->units, c->description,
                                            PASCAL_COLTYPE_F64, NULL, 0};
    }
}

/* A new file, or (resume) the partial file of the interrupted run, which a
 * refused resume leaves as it was. */
static int attach_sink(const pascal_sink_meta *m, const sink_plan *sp, int nres, int resume,
                       pascal_run_stats *st, pascal_sink **sink, pascal_error *err)
{
    int64_t kept = 0;
    int rc;
    if (!resume)
        return pascal_sink_open(m, sp->pcols, sp->npc, sp->rcols, nres, sink, err);
    rc = pascal_sink_resume(m, sp->pcols, sp->npc, sp->rcols, nres, sink, &kept, err);
    st->rows_resumed = (uint64_t)kept;
    if (rc == 0 && st->rows_resumed > st->rows) {
        pascal_sink_suspend(*sink, &kept, NULL);
        *sink = NULL;
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s.partial: holds %llu rows, this run has "
                              "%llu", m->path, (unsigned long long)st->rows_resumed,
                              (unsigned long long)st->rows);
    }
    return rc;
}

static int open_sink(const pascal_spec *spec, const pascal_run_opts *o,
                     pascal_run_stats *st, sink_plan *sp, pascal_sink **sink,
                     pascal_error *err)
{
    char shard[64], range[64];
    pascal_spec_output so = pascal_spec_output_options(spec);
    pascal_sink_meta m;
    int64_t nl = pascal_spec_nphase_lists(spec);
    const int64_t **lists = NULL;
    int64_t *lens = NULL;
    int rc;
    pascal_attr attrs[] = {
        {"shard", shard},
        {"raw_range", range},
        {"spec_name", pascal_spec_name(spec)},
        {"device", pascal_spec_device_text(spec)},
        {"calibration", pascal_spec_calibration(spec, NULL, NULL)},
        {"row_order", "canonical: mixed-radix over /axes in listed order, last fastest; "
                      "capacity-like axes innermost; `where` drops rows"},
    };
    /* Shard k/n of the raw indices [begin, end): pascal_h5_merge checks these. */
    snprintf(shard, sizeof shard, "%d/%d", o->shard_count > 1 ? o->shard_index : 1,
             o->shard_count > 1 ? o->shard_count : 1);
    snprintf(range, sizeof range, "%llu %llu", (unsigned long long)st->raw_begin,
             (unsigned long long)st->raw_end);
    for (int a = 0; a < pascal_spec_naxes(spec); a++) {
        const pascal_axis *ax = pascal_spec_axis(spec, a);
        pascal_column_desc d;
        describe_param(&d, ax->param);
        sp->axes[a] = (pascal_axis_desc){d.name, d.type, d.units, d.labels, d.nlabels,
                                         ax->count, ax->values};
    }
    if (nl > 0) {
        lists = malloc((size_t)nl * sizeof *lists);
        lens = malloc((size_t)nl * sizeof *lens);
        if (!lists || !lens) {
            free(lists), free(lens);
            return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
        }
        for (int64_t i = 0; i < nl; i++)
            lists[i] = pascal_spec_phase_list(spec, i, &lens[i]);
    }
    memset(&m, 0, sizeof m);
    m.format = o->format;
    m.path = o->out_path;
    m.compression = o->compression >= 0 ? o->compression : so.compression;
    m.shuffle = so.shuffle;
    m.chunk_rows = so.chunk_rows;
    m.spec_text = pascal_spec_text(spec);
    m.spec_path = pascal_spec_filename(spec);
    m.command_line = o->command_line ? o->command_line : "";
    m.threads = st->threads;
    m.attrs = attrs;
    m.nattrs = (int)(sizeof attrs / sizeof attrs[0]);
    m.axes = sp->axes;
    m.naxes = pascal_spec_naxes(spec);
    m.nphase_lists = nl;
    m.phase_lists = lists;
    m.phase_list_lens = lens;
    m.parallel_for = team_parallel_for;
    rc = attach_sink(&m, sp, pascal_spec_ncolumns(spec), o->resume, st, sink, err);
    free(lists);
    free(lens);
    return rc;
}

/* Evaluates raw indices [b0, b1) into the batch slots (parallel part).
 * *interrupted is set when a stop request cut a simulation short. */
static void eval_batch(const pascal_spec *spec, pascal_eval *ev, const sink_plan *sp,
                       batch *b, uint64_t b0, uint64_t b1, int *failed, int *interrupted)
{
    const int *cols = pascal_spec_columns(spec);
    int nrc = pascal_spec_ncolumns(spec), chunk = slow_spec(spec) ? 1 : SCHED_CHUNK;
#pragma omp for schedule(dynamic, chunk)
    for (uint64_t i = b0; i < b1; i++) {
        pascal_point p;
        double out[PASCAL_NCOLUMN];
        size_t s = (size_t)(i - b0);
        b->keep[s] = pascal_spec_point(spec, i, &p, NULL) == 1;
        if (!b->keep[s])
            continue;
        /* The plan checked every point, so a phase vector that cannot be
         * built here is out of memory or a bug: stop rather than write NaN. */
        int rc = pascal_eval_point(ev, &p, cols, nrc, out);
        if (rc < 0) {
#pragma omp atomic write
            *failed = 1;
        } else if (rc > 0) {
#pragma omp atomic write
            *interrupted = 1;
        }
        for (int j = 0; j < sp->npc; j++)
            b->pv[j][s] = p.v[sp->pids[j]];
        for (int j = 0; j < nrc; j++)
            b->rv[j][s] = out[j];
    }
}

/* Compacts kept slots into typed columns, in index order (serial part). */
static int64_t compact_batch(const sink_plan *sp, batch *b, uint64_t b0, uint64_t b1,
                             headline *h, pascal_run_stats *st)
{
    int64_t n = 0;
    for (uint64_t i = b0; i < b1; i++) {
        size_t s = (size_t)(i - b0);
        if (!b->keep[s])
            continue;
        for (int j = 0; j < sp->npc; j++) {
            if (sp->pcols[j].type == PASCAL_COLTYPE_F64)
                ((double *)b->out_p[j])[n] = b->pv[j][s];
            else
                ((int64_t *)b->out_p[j])[n] = (int64_t)b->pv[j][s];
        }
        for (int j = 0; j < b->nrc; j++)
            b->out_r[j][n] = b->rv[j][s];
        if (h->slot >= 0)
            headline_add(h, st, i, b->rv[h->slot][s]);
        n++;
    }
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
            headline_add(h, st, i, buf[row % BLOCK]);
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

static int run_batches(const pascal_spec *spec, const pascal_run_opts *o, int threads,
                       sink_plan *sp, pascal_sink *sink, pascal_run_stats *st,
                       const pascal_dyn_model *dyn, const pascal_sim_timing *tm,
                       pascal_error *err)
{
    uint64_t begin = st->raw_begin, n = st->raw_end;
    uint64_t bsize = (uint64_t)(o->batch_points > 0 ? o->batch_points
                                : slow_spec(spec) ? SLOW_POINTS_PER_THREAD * threads
                                                  : DEFAULT_BATCH);
    int failed = 0, nomem = 0, rc = 0, stopped = 0, interrupted = 0;
    uint64_t rows = st->rows_resumed;
    batch b;
    headline h;
    pascal_progress pr;
    if (bsize > n - begin)
        bsize = n > begin ? n - begin : 1;
    if (batch_alloc(&b, (int64_t)bsize, sp->npc, pascal_spec_ncolumns(spec)) != 0) {
        batch_free(&b);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory for a batch of %llu points",
                                (unsigned long long)bsize);
    }
    headline_init(&h, spec, st);
    if ((rc = replay_resumed(spec, sink, &h, st, &begin, err)) != 0) {
        headline_finish(&h, spec, st, 0.05);
        batch_free(&b);
        return rc;
    }
    pascal_progress_start(&pr, o->progress, n - begin);
#pragma omp parallel num_threads(threads)
    {
        pascal_eval *ev = pascal_eval_create(pascal_spec_models(spec));
        if (ev) {
            pascal_eval_set_dynamic(ev, dyn);
            pascal_eval_set_sim(ev, tm, o->should_stop, o->stop_ctx);
        }
        if (!ev) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp barrier
        for (uint64_t b0 = begin; b0 < n && !nomem && !failed && !stopped && rc == 0;
             b0 += bsize) {
            uint64_t b1 = b0 + bsize < n ? b0 + bsize : n;
            eval_batch(spec, ev, sp, &b, b0, b1, &failed, &interrupted);
#pragma omp single
            {
                /* A batch a stop request cut short is not kept: --resume
                 * evaluates it again. */
                int64_t k = failed || interrupted ? 0 : compact_batch(sp, &b, b0, b1, &h, st);
                if (k > 0 && sink)
                    rc = pascal_sink_append(sink, k, (const void *const *)b.out_p,
                                            (const double *const *)b.out_r, err);
                rows += (uint64_t)k;
                pascal_progress_update(&pr, b1 - begin);
                if (interrupted || (o->should_stop && o->should_stop(o->stop_ctx)))
                    stopped = 1;
            }
        }
        pascal_eval_free(ev);
    }
    pascal_progress_finish(&pr, n - begin);
    headline_finish(&h, spec, st, o->target > 0 ? o->target : 0.05);
    batch_free(&b);
    st->rows_done = rows;
    return batches_outcome(rc, nomem, failed, stopped, st, err);
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
    pascal_sim_timing tm;
    int rc, have_tm;
    memset(st, 0, sizeof *st);
    if ((rc = load_sim_timing(spec, &tm, &have_tm, err)) != 0 ||
        (rc = load_calibration(spec, &dyn, err)) != 0)
        return rc;
    rc = run_loaded(spec, o, st, dyn, have_tm ? &tm : NULL, err);
    pascal_dyn_model_free(dyn);
    return rc;
}

static int run_loaded(const pascal_spec *spec, const pascal_run_opts *o, pascal_run_stats *st,
                      const pascal_dyn_model *dyn, const pascal_sim_timing *tm,
                      pascal_error *err)
{
    int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
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
    rc = plan(spec, threads, st, err);
    t1 = pascal_now();
    st->plan_seconds = t1 - t0;
    if (rc != 0 || o->dry_run) {
        st->total_seconds = st->plan_seconds;
        return rc;
    }
    plan_columns(spec, &sp);
    if (o->out_path) /* without a path: evaluate only (benchmarks) */
        rc = open_sink(spec, o, st, &sp, &sink, err);
    if (rc == PASCAL_EIO) /* an unwritable destination is bad input: nothing ran */
        err->code = rc = PASCAL_EINPUT;
    if (rc != 0)
        return rc;
    rc = run_batches(spec, o, threads, &sp, sink, st, dyn, tm, err);
    st->eval_seconds = pascal_now() - t1;
    if (rc == PASCAL_EINTR && sink) { /* keep the whole chunks for --resume */
        int64_t kept = 0;
        pascal_error sub = {0};
        if (pascal_sink_suspend(sink, &kept, &sub) != 0)
            return pascal_error_set(err, PASCAL_EINTR, "stopped; nothing kept: %s", sub.msg);
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
