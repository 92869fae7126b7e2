/* Exact sizing by bisection on the capacity; see size.h.  The scenario
 * loop is an OpenMP loop over batches of scenarios, each thread with its
 * own evaluator, results handed to the caller in index order. */
#include "engine/size.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "engine/progress.h"
#include "sweeps/sample.h"

#define DEFAULT_BATCH 4096

int pascal_size_check(const pascal_spec *spec, const pascal_target *t, pascal_error *err)
{
    int model = pascal_columns[t->column].model;
    if (!(pascal_spec_models(spec) & (1u << model)))
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s: models: expected model %s for a target on %s, got models without it",
                                pascal_spec_filename(spec), pascal_models[model].name,
                                pascal_columns[t->column].name);
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
 * smallest capacity that meets it. */
int pascal_size_point(pascal_eval *ev, const pascal_point *p0, const pascal_target *t, int64_t lo,
                      int64_t hi, pascal_size_result *r)
{
    pascal_point p = *p0;
    int64_t a = lo - 1, b = hi;
    double v = NAN, vb;
    r->lo = lo, r->hi = hi, r->C = -1, r->capacity_bytes = NAN, r->value = NAN, r->evaluations = 0;
    r->point = p;
    if (hi < lo)
        return 0;
    if (value_at(ev, &p, t->column, hi, &v, &r->evaluations) != 0)
        return -1;
    r->value = vb = v;
    r->point = p;
    if (!pascal_target_meets(t, v))
        return 0;
    while (b - a > 1) {
        int64_t m = a + (b - a) / 2;
        if (value_at(ev, &p, t->column, m, &v, &r->evaluations) != 0)
            return -1;
        if (pascal_target_meets(t, v))
            b = m, vb = v;
        else
            a = m;
    }
    set_capacity(&p, b);
    r->C = b;
    r->value = vb;
    r->point = p;
    if (!isnan(p.v[PASCAL_P_BLOCK_BYTES]))
        r->capacity_bytes = (double)b * p.v[PASCAL_P_BLOCK_BYTES];
    return 0;
}

/* Every scenario point is checked before any result is emitted; the error
 * reported is the one at the smallest index. */
static int plan(const pascal_spec *spec, int threads, uint64_t n, pascal_error *err)
{
    uint64_t bad = UINT64_MAX;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : bad)
    for (uint64_t k = 0; k < n; k++) {
        pascal_point p;
        if (pascal_spec_point(spec, pascal_size_scenario_index(spec, k), &p, NULL) < 0 && k < bad)
            bad = k;
    }
    if (bad != UINT64_MAX) {
        pascal_point p;
        return pascal_spec_point(spec, pascal_size_scenario_index(spec, bad), &p, err);
    }
    return 0;
}

/* Orders results for the worst case: no answer first, then more bytes (or
 * blocks), ties to the smaller index (results arrive in index order). */
static int worse(const pascal_size_result *a, const pascal_size_result *b)
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
        if (!*have || worse(r, &st->worst))
            st->worst = *r, *have = 1;
        if (o->emit) {
            int rc = o->emit(o->emit_ctx, r);
            if (rc)
                return rc;
        }
    }
    return 0;
}

static int search_all(const pascal_spec *spec, const pascal_size_opts *o, int threads, uint64_t n,
                      pascal_size_stats *st, pascal_error *err)
{
    uint64_t bsize = (uint64_t)(o->batch > 0 ? o->batch : DEFAULT_BATCH);
    unsigned model = 1u << pascal_columns[o->target.column].model;
    int nomem = 0, failed = 0, rc = 0, stopped = 0, have = 0;
    slots s = {malloc(bsize * sizeof *s.res), malloc(bsize)};
    if (!s.res || !s.keep) {
        free(s.res), free(s.keep);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory for %llu scenarios",
                                (unsigned long long)bsize);
    }
#pragma omp parallel num_threads(threads)
    {
        pascal_eval *ev = pascal_eval_create(model);
        if (!ev) {
#pragma omp atomic write
            nomem = 1;
        }
#pragma omp barrier
        for (uint64_t b0 = 0; b0 < n && !nomem && !failed && !stopped && rc == 0; b0 += bsize) {
            uint64_t b1 = b0 + bsize < n ? b0 + bsize : n;
#pragma omp for schedule(dynamic, 16)
            for (uint64_t k = b0; k < b1; k++) {
                pascal_point p;
                int64_t lo, hi;
                uint64_t i = pascal_size_scenario_index(spec, k);
                s.keep[k - b0] = pascal_spec_point(spec, i, &p, NULL) == 1;
                if (!s.keep[k - b0])
                    continue;
                pascal_size_range(spec, &p, &lo, &hi);
                if (pascal_size_point(ev, &p, &o->target, lo, hi, &s.res[k - b0]) != 0) {
#pragma omp atomic write
                    failed = 1;
                }
                s.res[k - b0].index = i;
            }
#pragma omp single
            {
                if (!failed)
                    rc = fold(o, st, &s, b1 - b0, &have);
                if (o->should_stop && o->should_stop(o->stop_ctx))
                    stopped = b1 < n;
            }
        }
        pascal_eval_free(ev);
    }
    free(s.res), free(s.keep);
    if (rc)
        return pascal_error_set(err, rc, "the results could not be written");
    if (nomem || failed)
        return pascal_error_set(err, nomem ? PASCAL_ENOMEM : PASCAL_EINTERNAL,
                                nomem ? "out of memory for the evaluator"
                                      : "a planned scenario could not be evaluated");
    if (stopped)
        return pascal_error_set(err, PASCAL_EINTR, "stopped after %llu scenarios",
                                (unsigned long long)st->scenarios);
    return 0;
}

int pascal_size_run(const pascal_spec *spec, const pascal_size_opts *o, pascal_size_stats *st,
                    pascal_error *err)
{
    int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    uint64_t n = pascal_size_scenarios(spec);
    double t0 = pascal_now();
    int rc;
    memset(st, 0, sizeof *st);
    st->threads = threads;
    st->worst.C = -1;
    if ((rc = pascal_size_check(spec, &o->target, err)) || (rc = plan(spec, threads, n, err)))
        return rc;
    rc = search_all(spec, o, threads, n, st, err);
    st->seconds = pascal_now() - t0;
    return rc;
}
