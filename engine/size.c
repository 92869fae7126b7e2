/* Exact sizing by bisection on the capacity; see size.h.  The scenario
 * loop is an OpenMP loop over batches of scenarios, each thread with its
 * own evaluator, results handed to the caller in index order. */
#include "engine/size.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "engine/parallel.h"
#include "engine/plan.h"
#include "devices/sim_timing.h"
#include "model/dynamic.h"
#include "sweeps/sample.h"

#define DEFAULT_BATCH 4096

/* The models that compute column: its own, for a workload's kernel
 * replay (a traffic column) the lru_replay that does the replaying, and
 * for the answer the spec's models that answer (traffic, lru_replay,
 * simulate: the same answer as the run's). */
static unsigned column_models(const pascal_spec *spec, int column)
{
    unsigned m = 1u << pascal_columns[column].model;
    if (column == PASCAL_COL_FILL_BYTES_REPLAY || column == PASCAL_COL_TRAFFIC_REPLAY ||
        column == PASCAL_COL_FILL_BYTES_REPLAY_ANY || column == PASCAL_COL_TRAFFIC_REPLAY_ANY ||
        (column >= PASCAL_COL_FILL_BYTES_EXACT && column <= PASCAL_COL_WRITE_BYTES_EXACT))
        m |= 1u << PASCAL_MODEL_LRU_REPLAY;
    if (column == PASCAL_COL_ANSWER_FILL_BYTES || column == PASCAL_COL_ANSWER_TRAFFIC ||
        column == PASCAL_COL_ANSWER_SOURCE || column == PASCAL_COL_ANSWER_TRAFFIC_LO ||
        column == PASCAL_COL_ANSWER_TRAFFIC_HI)
        m |= pascal_spec_models(spec) & ((1u << PASCAL_MODEL_LRU_REPLAY) |
                                         (1u << PASCAL_MODEL_SIMULATE));
    if (column == PASCAL_COL_FILL_BYTES_SIM || column == PASCAL_COL_TRAFFIC_SIM ||
        column == PASCAL_COL_ANSWER_TRAFFIC_HI)
        m |= 1u << PASCAL_MODEL_SIMULATE;
    /* A model step's columns sum its kernels' (traffic, lru_replay). */
    if (pascal_spec_is_step(spec))
        m |= pascal_spec_models(spec);
    return m;
}

int pascal_size_check(const pascal_spec *spec, const pascal_target *t, pascal_error *err)
{
    unsigned need = column_models(spec, t->column);
    for (int model = 0; model < PASCAL_NMODEL; model++)
        if ((need >> model & 1u) && !(pascal_spec_models(spec) & (1u << model)))
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "%s: models: expected model %s for a target on %s, got models "
                                    "without it", pascal_spec_filename(spec),
                                    pascal_models[model].name, pascal_columns[t->column].name);
    return pascal_search_check(spec, t, err);
}

/* The capacity axis when it is enumerated (its grid position says which
 * capacity a raw index has), else -1. */
static int grid_capacity_axis(const pascal_spec *spec)
{
    int a = pascal_search_capacity_axis(spec);
    return a >= 0 && !pascal_spec_axis_sampled(spec, a) ? a : -1;
}

static uint64_t stride_after(const pascal_spec *spec, int dim)
{
    uint64_t s = 1;
    for (int d = dim + 1; d < pascal_spec_ndims(spec); d++)
        s *= (uint64_t)pascal_spec_dim_size(spec, d);
    return s;
}

uint64_t pascal_size_scenarios(const pascal_spec *spec)
{
    int a = grid_capacity_axis(spec);
    return a < 0 ? pascal_spec_size(spec) : pascal_spec_size(spec) / (uint64_t)pascal_spec_axis(spec, a)->count;
}

/* Scenario k's raw index: the mixed-radix index with the capacity digit 0. */
uint64_t pascal_size_scenario_index(const pascal_spec *spec, uint64_t k)
{
    int a = grid_capacity_axis(spec);
    uint64_t stride, size;
    if (a < 0)
        return k;
    stride = stride_after(spec, pascal_spec_axis(spec, a)->dim);
    size = (uint64_t)pascal_spec_axis(spec, a)->count;
    return (k / stride) * stride * size + k % stride;
}

void pascal_size_range(const pascal_spec *spec, const pascal_point *p, int64_t *lo, int64_t *hi)
{
    int a = pascal_search_capacity_axis(spec);
    const pascal_axis *ax = a >= 0 ? pascal_spec_axis(spec, a) : NULL;
    double vmin = INFINITY, vmax = -INFINITY;
    if (!ax) {
        *lo = 1;
        *hi = (int64_t)p->v[PASCAL_P_N];
        return;
    }
    for (int64_t k = 0; k < ax->count; k++) {
        vmin = fmin(vmin, ax->values[k]);
        vmax = fmax(vmax, ax->values[k]);
    }
    if (ax->param == PASCAL_P_CAPACITY_BYTES) {
        vmin = floor(vmin / p->v[PASCAL_P_BLOCK_BYTES]);
        vmax = floor(vmax / p->v[PASCAL_P_BLOCK_BYTES]);
    }
    *lo = vmin < 1 ? 1 : (int64_t)vmin;
    *hi = (int64_t)vmax;
}

/* C blocks; capacity_bytes follows when it is set. */
static void set_capacity(pascal_point *p, int64_t C)
{
    p->v[PASCAL_P_C] = (double)C;
    if (!isnan(p->v[PASCAL_P_CAPACITY_BYTES]) && !isnan(p->v[PASCAL_P_BLOCK_BYTES]))
        p->v[PASCAL_P_CAPACITY_BYTES] = (double)C * p->v[PASCAL_P_BLOCK_BYTES];
}

/* The target column at capacity C. */
static int value_at(pascal_eval *ev, pascal_point *p, int col, int64_t C, double *v, int *n)
{
    set_capacity(p, C);
    (*n)++;
    return pascal_eval_point(ev, p, &col, 1, v);
}

/* Invariant: the target fails at a (or a = lo - 1, below the range) and
 * holds at b; halve until they are adjacent.  Monotonicity makes b the
 * smallest capacity that meets it.  Every capacity evaluated goes to
 * seen (when not NULL). */
typedef struct probes {
    int n;
    int64_t C[PASCAL_SIZE_MAX_PROBES];
    double v[PASCAL_SIZE_MAX_PROBES];
} probes;

static int probe(pascal_eval *ev, pascal_point *p, const pascal_target *t, int64_t C, double *v,
                 pascal_size_result *r, probes *seen)
{
    if (value_at(ev, p, t->column, C, v, &r->evaluations) != 0)
        return -1;
    if (seen && seen->n < PASCAL_SIZE_MAX_PROBES)
        seen->C[seen->n] = C, seen->v[seen->n++] = *v;
    return 0;
}

static int bisect(pascal_eval *ev, pascal_point *p, const pascal_target *t, int64_t a, int64_t b,
                  double vb, pascal_size_result *r, probes *seen)
{
    double v;
    while (b - a > 1) {
        int64_t m = a + (b - a) / 2;
        if (probe(ev, p, t, m, &v, r, seen) != 0)
            return -1;
        if (pascal_target_meets(t, v))
            b = m, vb = v;
        else
            a = m;
    }
    set_capacity(p, b);
    r->C = b;
    r->value = vb;
    r->point = *p;
    if (!isnan(p->v[PASCAL_P_BLOCK_BYTES]))
        r->capacity_bytes = (double)b * p->v[PASCAL_P_BLOCK_BYTES];
    return 0;
}

static int cmp_probe(const void *x, const void *y)
{
    const int64_t *a = x, *b = y;
    return (*a > *b) - (*a < *b);
}

/* Where a probed column rises with C: over the capacities evaluated, in
 * order of C, the largest step up between neighbours (ties: the first). */
static void find_rise(probes *seen, pascal_size_result *r)
{
    struct { int64_t C; double v; } e[PASCAL_SIZE_MAX_PROBES];
    int n = seen->n;
    for (int k = 0; k < n; k++)
        e[k].C = seen->C[k], e[k].v = seen->v[k];
    qsort(e, (size_t)n, sizeof e[0], cmp_probe);   /* C leads the struct */
    r->monotone = 1;
    r->probes = n;
    for (int k = 0; k + 1 < n; k++) {
        double up = e[k + 1].v - e[k].v;
        if (e[k + 1].C == e[k].C || !(up > 0) || (!r->monotone && up <= r->rise_v[1] - r->rise_v[0]))
            continue;
        r->monotone = 0;
        r->rise_C[0] = e[k].C, r->rise_v[0] = e[k].v;
        r->rise_C[1] = e[k + 1].C, r->rise_v[1] = e[k + 1].v;
    }
}

/* A column not shown monotone (pascal_search_probed): PROBES capacities
 * spread evenly in log C over [lo, hi] first; the answer lies above the
 * largest probe that misses the target, so bisection runs between it and
 * the next probe.  Every capacity evaluated at or above the answer then
 * meets the target (bisection only evaluates above a miss it keeps as its
 * lower end), and the rises among all of them are reported. */
#define PROBES 17
static int probe_search(pascal_eval *ev, pascal_point *p, const pascal_target *t, int64_t lo,
                        int64_t hi, pascal_size_result *r)
{
    probes seen = {0};
    int64_t last = lo - 1, a = lo - 1, b = -1;
    double v, vb = NAN;
    for (int k = 0; k < PROBES; k++) {
        int64_t C = k == PROBES - 1 ? hi
                    : (int64_t)llround((double)lo * pow((double)hi / (double)lo, (double)k / (PROBES - 1)));
        if (C <= last)
            continue;
        last = C;
        if (probe(ev, p, t, C, &v, r, &seen) != 0)
            return -1;
        if (!pascal_target_meets(t, v))
            a = C, b = -1;
        else if (b < 0)
            b = C, vb = v;
    }
    r->value = v;
    r->point = *p;
    if (b >= 0 && bisect(ev, p, t, a, b, vb, r, &seen) != 0)
        return -1;
    find_rise(&seen, r);
    return 0;
}

/* The dynamic model answers only at its calibration's capacities (NaN
 * elsewhere): between a ladder's smallest and largest, at a one-capacity
 * calibration's C.  A search on its columns stays inside them. */
static void dynamic_range(const pascal_eval *ev, int column, int64_t *lo, int64_t *hi)
{
    const pascal_dyn_model *m = pascal_eval_dynamic_model(ev);
    double a, b;
    if ((column != PASCAL_COL_K_DYN && column != PASCAL_COL_RHO_DYN) || !m)
        return;
    pascal_dyn_model_capacities(m, &a, &b);
    if (ceil(a) > (double)*lo)
        *lo = (int64_t)ceil(a);
    if (floor(b) < (double)*hi)
        *hi = (int64_t)floor(b);
}

int pascal_size_point(pascal_eval *ev, const pascal_point *p0, const pascal_target *t, int64_t lo,
                      int64_t hi, pascal_size_result *r)
{
    pascal_point p = *p0;
    double v = NAN;
    dynamic_range(ev, t->column, &lo, &hi);
    memset(r, 0, sizeof *r);
    r->lo = lo, r->hi = hi, r->C = -1, r->capacity_bytes = NAN, r->value = NAN;
    r->monotone = -1;
    r->point = p;
    if (hi < lo)
        return 0;
    if (pascal_search_probed(t->column, pascal_eval_models(ev)))
        return probe_search(ev, &p, t, lo, hi, r);
    if (value_at(ev, &p, t->column, hi, &v, &r->evaluations) != 0)
        return -1;
    r->value = v;
    r->point = p;
    if (!pascal_target_meets(t, v))
        return 0;
    return bisect(ev, &p, t, lo - 1, hi, v, r, NULL);
}

/* What a search's evaluators borrow: the simulator's timing for a search
 * that runs it, the dynamic model's calibration for one that asks it. */
typedef struct sim_timing_box {
    pascal_sim_timing tm[PASCAL_SPEC_MAX_DEVICES];   /* per profile (plan.h) */
    int have;
    pascal_dyn_model *dyn;                           /* NULL: none */
} sim_timing_box;

/* Loads both for spec; on failure nothing is kept. */
static int load_box(const pascal_spec *spec, sim_timing_box *box, pascal_error *err)
{
    int rc = pascal_run_load_sim_timing(spec, box->tm, &box->have, err);
    return rc ? rc : pascal_run_load_calibration(spec, &box->dyn, err);
}

static int stop_flagged(void *ctx)
{
    const volatile sig_atomic_t *flag = ctx;
    return flag && *flag;
}

static pascal_eval *make_eval(const pascal_spec *spec, int column, const sim_timing_box *box,
                              const volatile sig_atomic_t *stop_flag)
{
    pascal_eval *ev = pascal_eval_create(column_models(spec, column));
    if (ev && box->have)
        pascal_eval_set_sim(ev, box->tm, pascal_spec_ndevices(spec), stop_flagged, (void *)stop_flag);
    if (ev && box->dyn) {
        pascal_eval_set_dynamic(ev, box->dyn);
        pascal_eval_set_dynamic_flags(ev, pascal_spec_extrapolation_nan(spec) ? PASCAL_DYN_NO_HOLD : 0);
    }
    return ev;
}

typedef struct searcher {
    const pascal_spec *spec;
    pascal_target target;
    sim_timing_box box;
    pascal_eval *ev;
} searcher;

void *pascal_size_searcher_open(const pascal_spec *spec, int column, double target, char *note, size_t len)
{
    pascal_error err = {0};
    pascal_target t = {column, PASCAL_TARGET_LE, target};
    searcher *s;
    if (pascal_size_check(spec, &t, &err) != 0) {
        snprintf(note, len, "%s", err.msg);
        return NULL;
    }
    if (!(s = calloc(1, sizeof *s))) {
        snprintf(note, len, "out of memory for the evaluator");
        return NULL;
    }
    if (load_box(spec, &s->box, &err) != 0) {
        snprintf(note, len, "%s", err.msg);
        free(s);
        return NULL;
    }
    if (!(s->ev = make_eval(spec, column, &s->box, NULL))) {
        pascal_dyn_model_free(s->box.dyn);
        free(s);
        snprintf(note, len, "out of memory for the evaluator");
        return NULL;
    }
    s->spec = spec;
    s->target = t;
    return s;
}

int pascal_size_searcher_at(void *ctx, uint64_t raw, int64_t *C, double *bytes, double *value)
{
    searcher *s = ctx;
    pascal_point p;
    pascal_size_result r;
    int64_t lo, hi;
    int rc = pascal_spec_point(s->spec, raw, &p, NULL);
    if (rc != 1)
        return rc == 0 ? 0 : -1;
    pascal_size_range(s->spec, &p, &lo, &hi);
    if (pascal_size_point(s->ev, &p, &s->target, lo, hi, &r) != 0)
        return -1;
    *C = r.C;
    *bytes = r.capacity_bytes;
    *value = r.value;
    return 1;
}

void pascal_size_searcher_free(void *ctx)
{
    searcher *s = ctx;
    if (!s)
        return;
    pascal_eval_free(s->ev);
    pascal_dyn_model_free(s->box.dyn);
    free(s);
}

/* Every point is checked as `pascal run` checks it (engine/plan.h: the
 * spec's checks and the bounds, factored over the axes they read) before
 * any result is emitted; the error reported is the one at the smallest
 * index. */
static int plan(const pascal_spec *spec, const pascal_size_opts *o, int threads, pascal_error *err)
{
    double batch = (double)(o->batch > 0 ? o->batch : DEFAULT_BATCH);
    pascal_plan_opts po = {threads, 0, NULL, NULL, o->stop_flag,
                           batch * (sizeof(pascal_size_result) + 1.0)}; /* search_all's slots */
    pascal_plan_result r;
    return pascal_plan_check(spec, 0, pascal_spec_size(spec), &po, &r, err);
}

/* The worst case keeps the result that needs more capacity; on a tie the
 * first, of the smaller index (results arrive in index order). */
int pascal_size_needs_more(const pascal_size_result *a, const pascal_size_result *b)
{
    if ((a->C < 0) != (b->C < 0))
        return a->C < 0;
    if (a->C < 0)
        return 0;
    if (!isnan(a->capacity_bytes) && !isnan(b->capacity_bytes))
        return a->capacity_bytes > b->capacity_bytes;
    return a->C > b->C;
}

typedef struct slots {
    pascal_size_result *res;
    unsigned char *keep;
} slots;

/* The serial part of a batch: statistics, worst case, emit in order. */
static int fold(const pascal_size_opts *o, pascal_size_stats *st, slots *s, uint64_t n, int *have)
{
    for (uint64_t k = 0; k < n; k++) {
        const pascal_size_result *r = &s->res[k];
        if (!s->keep[k])
            continue;
        st->scenarios++;
        st->met += r->C >= 0;
        st->evaluations += (uint64_t)r->evaluations;
        st->grid_points += r->hi >= r->lo ? (uint64_t)(r->hi - r->lo + 1) : 0;
        if (!*have || pascal_size_needs_more(r, &st->worst))
            st->worst = *r, *have = 1;
        if (o->emit) {
            int rc = o->emit(o->emit_ctx, r);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* The scenario loop's team: every thread searches its share of a batch,
 * one thread (omp single) folds it in index order. */
typedef struct size_team {
    const pascal_spec *spec;
    sim_timing_box box;
    const pascal_size_opts *o;
    pascal_size_stats *st;
    slots s;
    uint64_t n, bsize;
    int nomem, failed, rc, stopped, have;
    int halt;                /* the stop flag was seen inside a batch */
} size_team;

/* The stop flag is read before every scenario, as the run reads it before
 * every point, so that Ctrl-C is not held up by a batch of slow ones. */
static int stop_now(const pascal_size_opts *o, int *halt)
{
    return pascal_parallel_stop_seen(o->stop_flag, halt);
}

/* The band's high end on the same bound, into r's band fields. */
static int band_search(const pascal_size_opts *o, pascal_eval *ev, const pascal_point *p, int64_t lo,
                       int64_t hi, pascal_size_result *r)
{
    pascal_target b = {o->band_column, PASCAL_TARGET_LE, o->target.value};
    pascal_size_result h;
    r->band_C = -2;
    if (o->band_column <= 0)
        return 0;
    if (pascal_size_point(ev, p, &b, lo, hi, &h) != 0)
        return -1;
    r->band_C = h.C, r->band_bytes = h.capacity_bytes, r->band_value = h.value;
    r->band_monotone = h.monotone;
    r->evaluations += h.evaluations;
    return 0;
}

static void search_batch(size_team *t, pascal_eval *ev, uint64_t b0, uint64_t b1)
{
#pragma omp for schedule(dynamic, 16)
    for (uint64_t k = b0; k < b1; k++) {
        pascal_point p;
        int64_t lo, hi;
        uint64_t i = pascal_size_scenario_index(t->spec, k);
        t->s.keep[k - b0] = 0;
        if (stop_now(t->o, &t->halt) || pascal_spec_point(t->spec, i, &p, NULL) != 1)
            continue;
        t->s.keep[k - b0] = 1;
        pascal_size_range(t->spec, &p, &lo, &hi);
        if (pascal_size_point(ev, &p, &t->o->target, lo, hi, &t->s.res[k - b0]) != 0 ||
            band_search(t->o, ev, &p, lo, hi, &t->s.res[k - b0]) != 0) {
#pragma omp atomic write
            t->failed = 1;
        }
        t->s.res[k - b0].index = i;
    }
}

static void search_body(void *ctx)
{
    size_team *t = ctx;
    const pascal_size_opts *o = t->o;
    int column = o->band_column > 0 ? o->band_column : o->target.column;
    pascal_eval *ev = make_eval(t->spec, column, &t->box, o->stop_flag);
    if (!ev) {
#pragma omp atomic write
        t->nomem = 1;
    }
#pragma omp barrier
    for (uint64_t b0 = 0; b0 < t->n && !t->nomem && !t->failed && !t->stopped && t->rc == 0;
         b0 += t->bsize) {
        uint64_t b1 = b0 + t->bsize < t->n ? b0 + t->bsize : t->n;
        search_batch(t, ev, b0, b1);
#pragma omp single
        {
            if (t->halt)
                t->stopped = 1;   /* the batch is unfinished: nothing of it is emitted */
            else if (!t->failed)
                t->rc = fold(o, t->st, &t->s, b1 - b0, &t->have);
            if (o->should_stop && o->should_stop(o->stop_ctx))
                t->stopped = t->stopped || b1 < t->n;
        }
    }
    pascal_eval_free(ev);
}

static int search_all(const pascal_spec *spec, const pascal_size_opts *o, int threads, uint64_t n,
                      pascal_size_stats *st, pascal_error *err)
{
    size_team t = {.spec = spec, .o = o, .st = st, .n = n};
    int rc = load_box(spec, &t.box, err);
    if (rc)
        return rc;
    t.bsize = (uint64_t)(o->batch > 0 ? o->batch : DEFAULT_BATCH);
    t.s = (slots){malloc(t.bsize * sizeof *t.s.res), malloc(t.bsize)};
    if (!t.s.res || !t.s.keep) {
        free(t.s.res), free(t.s.keep);
        pascal_dyn_model_free(t.box.dyn);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory for %llu scenarios",
                                (unsigned long long)t.bsize);
    }
    pascal_parallel(threads, search_body, &t);
    free(t.s.res), free(t.s.keep);
    pascal_dyn_model_free(t.box.dyn);
    if (t.rc)
        return pascal_error_set(err, t.rc, "the results could not be written");
    if (t.nomem || t.failed)
        return pascal_error_set(err, t.nomem ? PASCAL_ENOMEM : PASCAL_EINTERNAL,
                                t.nomem ? "out of memory for the evaluator"
                                        : "a planned scenario could not be evaluated");
    if (t.stopped)
        return pascal_error_set(err, PASCAL_EINTR, "stopped after %llu scenarios",
                                (unsigned long long)st->scenarios);
    return 0;
}

int pascal_size_run(const pascal_spec *spec, const pascal_size_opts *o, pascal_size_stats *st,
                    pascal_error *err)
{
    int threads = pascal_parallel_threads(o->threads);
    uint64_t n = pascal_size_scenarios(spec);
    double t0 = pascal_now();
    int rc;
    memset(st, 0, sizeof *st);
    st->threads = threads;
    st->worst.C = -1;
    pascal_target band = {o->band_column, PASCAL_TARGET_LE, o->target.value};
    if ((rc = pascal_size_check(spec, &o->target, err)) ||
        (o->band_column > 0 && (rc = pascal_size_check(spec, &band, err))) ||
        (rc = plan(spec, o, threads, err)))
        return rc;
    rc = search_all(spec, o, threads, n, st, err);
    st->seconds = pascal_now() - t0;
    return rc;
}
