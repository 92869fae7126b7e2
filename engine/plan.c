/* The planner's check pass (engine/plan.h): the walks over the
 * combinations of the axes each check reads, run on a team of threads, and
 * the first failing point they find.  See plan.h for why a walk over a few
 * axes finds the same first error as a pass over every point.  The bounds
 * a kept point must meet are plan_memory.c; the estimate (plan_estimate.c)
 * and the dynamic-model check (plan_dynamic.c) reuse these walks. */
#include "engine/plan_internal.h"

#include <string.h>

#include "engine/parallel.h"
#include "sweeps/sample.h"

/* 1 kept and within bounds, 0 dropped, -1 failing; *M gets a kept point's M. */
static int check_index(const plan_ctx *c, uint64_t i, double *M)
{
    pascal_point p;
    int rc = pascal_spec_point(c->spec, i, &p, NULL);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return 0;
    if (pascal_plan_check_bounds(c, &p, i, NULL) != 0)
        return -1;
    *M = p.v[PASCAL_P_M];
    return 1;
}

/* ---- walks ----------------------------------------------------------------- */

/* Dimensions of the axes that set any parameter of `params`. */
uint64_t pascal_plan_dims_of(const pascal_spec *spec, uint64_t params)
{
    uint64_t dims = 0;
    for (int a = 0; a < pascal_spec_naxes(spec); a++) {
        const pascal_axis *ax = pascal_spec_axis(spec, a);
        if (params & BIT(ax->param))
            dims |= BIT(ax->dim);
    }
    return dims;
}

uint64_t pascal_plan_combos(const pascal_spec *spec, uint64_t dims)
{
    uint64_t n = 1;
    for (int d = 0; d < pascal_spec_ndims(spec); d++)
        if (dims & BIT(d))
            n *= (uint64_t)pascal_spec_dim_size(spec, d);
    return n;
}

uint64_t pascal_plan_walk_index(const pascal_spec *spec, const walk_set *ws, const walk *w, uint64_t c)
{
    uint64_t i = 0;
    if (w->range)
        return w->begin + c;
    for (int d = pascal_spec_ndims(spec) - 1; d >= 0; d--)
        if (w->dims & BIT(d)) {
            uint64_t size = (uint64_t)pascal_spec_dim_size(spec, d);
            i += (c % size) * ws->stride[d];
            c /= size;
        }
    return i;
}

/* Raw-index stride of each dimension (mixed radix, last fastest). */
void pascal_plan_init_strides(const pascal_spec *spec, walk_set *ws)
{
    uint64_t stride = 1;
    for (int d = pascal_spec_ndims(spec) - 1; d >= 0; d--) {
        ws->stride[d] = stride;
        stride *= (uint64_t)pascal_spec_dim_size(spec, d);
    }
}

/* Keeps the largest sets: a walk over a superset of a check's dimensions
 * finds that check's first failure too, since every walk checks everything. */
static void add_walk(const pascal_spec *spec, walk_set *ws, uint64_t dims)
{
    for (int k = 0; k < ws->n; k++)
        if ((ws->w[k].dims & dims) == dims)
            return;
    for (int k = 0; k < ws->n;)
        if ((ws->w[k].dims & dims) == ws->w[k].dims)
            ws->w[k] = ws->w[--ws->n];
        else
            k++;
    ws->w[ws->n++] = (walk){dims, pascal_plan_combos(spec, dims), 0, 0};
}

/* The walks for [begin, end): one per maximal check-dimension set, or one
 * range walk when that is no cheaper, or when a shard's `where` reads an
 * axis (its kept count then needs every point of the slice). */
void pascal_plan_walks(const plan_ctx *c, uint64_t begin, uint64_t end, walk_set *ws)
{
    const pascal_spec *spec = c->spec;
    uint64_t masks[MAX_CHECKS], where = pascal_spec_where_deps(spec), total = 0;
    int n = pascal_spec_check_deps(spec, masks, MAX_CHECKS - 1);
    int whole = begin == 0 && end == pascal_spec_size(spec);
    masks[n++] = pascal_spec_param_deps(spec, pascal_plan_bound_params(c->models));
    memset(ws, 0, sizeof *ws);
    ws->where_dims = pascal_plan_dims_of(spec, where);
    pascal_plan_init_strides(spec, ws);
    for (int k = 0; k < n; k++)
        add_walk(spec, ws, pascal_plan_dims_of(spec, masks[k] | where));
    for (int k = 0; k < ws->n; k++)
        total += ws->w[k].count;
    /* A sampled spec's raw index is a draw, not a mixed-radix grid index
     * (sweeps/sample.h): only a pass over every point sees its values. */
    if (total >= end - begin || (!whole && ws->where_dims) || pascal_spec_sample(spec)) {
        ws->n = 1;
        ws->w[0] = (walk){~(uint64_t)0, end - begin, 1, begin};
        ws->per_point = 1;
    }
}

typedef struct walk_out {
    uint64_t bad;               /* smallest failing index, UINT64_MAX: none */
    uint64_t kept, checked;
    double max_M;
} walk_out;

/* One chunk [c0, c1) of a walk, on a team of threads (pascal_parallel):
 * each thread checks its share, then folds its counts in (sums, max and
 * min: the same on any thread count). */
typedef struct walk_team {
    const plan_ctx *c;
    const walk_set *ws;
    const walk *w;
    uint64_t c0, c1, kept, bad;
    double max_M;
} walk_team;

static void walk_body(void *ctx)
{
    walk_team *t = ctx;
    uint64_t kept = 0, bad = UINT64_MAX;
    double mm = 0;
#pragma omp for schedule(static) nowait
    for (uint64_t k = t->c0; k < t->c1; k++) {
        uint64_t i = pascal_plan_walk_index(t->c->spec, t->ws, t->w, k);
        double M = 0;
        int r = check_index(t->c, i, &M);
        if (r == 1) {
            kept++;
            mm = M > mm ? M : mm;
        } else if (r < 0 && i < bad) {
            bad = i;
        }
    }
#pragma omp critical(pascal_plan_walk)
    {
        t->kept += kept;
        t->max_M = mm > t->max_M ? mm : t->max_M;
        t->bad = bad < t->bad ? bad : t->bad;
    }
}

typedef struct walk_progress {
    const pascal_plan_opts *o;
    int on;                     /* report (a per-point pass with a callback) */
    uint64_t done, total;
} walk_progress;

/* One walk in chunks; stops early once past the best failure so far (the
 * raw index grows with the walk). */
static int run_walk(const plan_ctx *c, const walk_set *ws, const walk *w, walk_out *out,
                    walk_progress *pr)
{
    uint64_t chunk = (uint64_t)CHUNK_PER_THREAD * (uint64_t)c->o->threads;
    for (uint64_t c0 = 0; c0 < w->count; c0 += chunk) {
        walk_team t = {c, ws, w, c0, w->count - c0 < chunk ? w->count : c0 + chunk, 0, UINT64_MAX, 0};
        if (pascal_plan_walk_index(c->spec, ws, w, c0) > out->bad)
            return 0;
        pascal_parallel(c->o->threads, walk_body, &t);
        out->kept += t.kept;
        out->checked += t.c1 - c0;
        out->max_M = t.max_M > out->max_M ? t.max_M : out->max_M;
        if (t.bad < out->bad)
            out->bad = t.bad;
        pr->done += t.c1 - c0;
        if (pr->on)
            pr->o->progress(pr->o->progress_ctx, pr->done, pr->total);
        if (out->bad != UINT64_MAX)
            return 0;
        if (pascal_plan_stop_requested(c->o))
            return PASCAL_EINTR;
    }
    return 0;
}

/* The message of the failing point: the spec's own check, else a bound. */
static int report_bad(const plan_ctx *c, uint64_t i, pascal_error *err)
{
    pascal_point p;
    int rc = pascal_spec_point(c->spec, i, &p, err);
    if (rc < 0)
        return rc;
    rc = pascal_plan_check_bounds(c, &p, i, err);
    return rc ? rc : pascal_error_set(err, PASCAL_EINTERNAL, "point %llu failed a check that "
                                      "passes when repeated", (unsigned long long)i);
}

int pascal_plan_check(const pascal_spec *spec, uint64_t begin, uint64_t end,
                      const pascal_plan_opts *o, pascal_plan_result *out, pascal_error *err)
{
    plan_ctx c;
    walk_set ws;
    walk_out wo = {UINT64_MAX, 0, 0, 0};
    walk_progress pr = {o, 0, 0, 0};
    uint64_t kept0 = 0;
    int rc = 0;
    pascal_plan_ctx_init(&c, spec, o);
    pascal_plan_walks(&c, begin, end, &ws);
    memset(out, 0, sizeof *out);
    for (int k = 0; k < ws.n; k++)
        pr.total += ws.w[k].count;
    pr.on = o->progress && ws.per_point;
    if (pr.on)
        o->progress(o->progress_ctx, 0, pr.total);
    for (int k = 0; k < ws.n && rc == 0; k++) {
        uint64_t before = wo.kept;
        rc = run_walk(&c, &ws, &ws.w[k], &wo, &pr);
        if (k == 0)
            kept0 = wo.kept - before;
    }
    out->checked = wo.checked;
    if (wo.bad != UINT64_MAX)
        return report_bad(&c, wo.bad, err);
    if (rc == PASCAL_EINTR)
        return pascal_error_set(err, PASCAL_EINTR, "stopped while checking the spec: %llu of %llu "
                                "checks made, nothing written", (unsigned long long)pr.done,
                                (unsigned long long)pr.total);
    out->max_M = (int64_t)wo.max_M;
    if (ws.per_point)
        out->rows = kept0;
    else if (ws.where_dims == 0) /* `where` reads no axis: all or nothing */
        out->rows = kept0 ? end - begin : 0;
    else /* the whole sweep: the kept combinations times the other axes */
        out->rows = kept0 * (pascal_spec_size(spec) / ws.w[0].count);
    return 0;
}
