/* Planning a sweep: the estimate, the factored check pass and the bounds.
 * See plan.h for what is checked and why a walk over a few axes finds the
 * same first error as a pass over every point. */
#include "engine/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate/calibrate.h"
#include "engine/eval.h"
#include "engine/eval_sim.h"
#include "engine/eval_workload.h"
#include "common/clock.h"
#include "engine/parallel.h"
#include "model/phases.h"
#include "model/replay.h"
#include "sweeps/sample.h"
#include "sweeps/workload.h"

#define BIT(p) ((uint64_t)1 << (p))
#define CHUNK_PER_THREAD 65536 /* points between two reads of the stop flag */
#define SAMPLE 512             /* points the estimate expands */
#define MAX_CHECKS 72

/* Models that build a phase vector (all but sharing, catchup, dynamic and
 * workload, whose columns are derived without one, and simulate, which
 * runs the open scan from aligned starts). */
static unsigned phased_models(unsigned models)
{
    return models & ~((1u << PASCAL_MODEL_SHARING) | (1u << PASCAL_MODEL_CATCHUP) |
                      (1u << PASCAL_MODEL_DYNAMIC) | (1u << PASCAL_MODEL_WORKLOAD) |
                      (1u << PASCAL_MODEL_SIMULATE));
}

static unsigned replay_models(unsigned models)
{
    return models & ((1u << PASCAL_MODEL_LRU_REPLAY) | (1u << PASCAL_MODEL_BELADY));
}

/* ---- machine memory -------------------------------------------------------- */

double pascal_plan_machine_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    double bytes = pages > 0 && size > 0 ? (double)pages * (double)size : INFINITY;
    FILE *f = fopen("/sys/fs/cgroup/memory.max", "r"); /* cgroup v2; "max" when unlimited */
    double lim;
    if (f) {
        if (fscanf(f, "%lf", &lim) == 1 && lim > 0 && lim < bytes)
            bytes = lim;
        fclose(f);
    }
    return bytes;
}

/* ---- bounds ---------------------------------------------------------------- */

typedef struct plan_ctx {
    const pascal_spec *spec;
    const pascal_plan_opts *o;
    unsigned models;
    double memory;              /* bytes the bounds allow */
} plan_ctx;

static void human_bytes(double b, char *buf, size_t len)
{
    static const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int k = 0;
    while (b >= 1024 && k < 6)
        b /= 1024, k++;
    snprintf(buf, len, k ? "%.1f %s" : "%.0f %s", b, u[k]);
}

static int64_t belady_rounds(const double *v)
{
    return isnan(v[PASCAL_P_ROUNDS]) ? 6 * (int64_t)v[PASCAL_P_N] : (int64_t)v[PASCAL_P_ROUNDS];
}

/* Parameters the bounds read (before closing them under derivation). */
static uint64_t bound_params(unsigned models)
{
    uint64_t m = BIT(PASCAL_P_N) | BIT(PASCAL_P_M);
    if (models & (1u << PASCAL_MODEL_BELADY))
        m |= BIT(PASCAL_P_ROUNDS);
    return m;
}

static int fail_memory(const plan_ctx *c, const pascal_point *p, uint64_t i, double need,
                       pascal_error *err)
{
    char per[32], all[32], have[32], held[32], plus[64] = "";
    int threads = c->o->threads, wl = !isnan(p->v[PASCAL_P_WORKLOAD]);
    int rp = replay_models(c->models) != 0 && !wl;
    human_bytes(need, per, sizeof per);
    human_bytes(need * threads, all, sizeof all);
    human_bytes(c->memory, have, sizeof have);
    if (c->o->reserved_bytes > 0) {
        human_bytes(c->o->reserved_bytes, held, sizeof held);
        snprintf(plus, sizeof plus, " plus %s of batch buffers", held);
    }
    return pascal_spec_point_error(c->spec, rp || wl ? PASCAL_P_N : PASCAL_P_M, p, i,
                                   BIT(PASCAL_P_N) | BIT(PASCAL_P_M), err,
                                   "expected the models' workspaces to fit in memory (%s%s), got %s per "
                                   "thread at N = %.0f, M = %.0f, %s for %d threads%s (fewer --threads, or "
                                   "smaller %s)",
                                   have, c->o->memory_bytes > 0 ? ", --memory" : " on this machine", per,
                                   p->v[PASCAL_P_N], p->v[PASCAL_P_M], all, threads, plus,
                                   rp ? "N" : wl ? "M or workload (its waves hold M units requests each)" : "M");
}

/* The bounds of plan.h at a kept, valid point; err may be NULL.  A
 * workload point's waves take the pattern's phases for M slots on rings of
 * N blocks, as a plain point does; the replay models are NaN there (the
 * kernel replay of lru_replay has its own limits and gives NaN past them),
 * and its memory is the wave evaluator's (eval_workload.h). */
static int check_bounds(const plan_ctx *c, const pascal_point *p, uint64_t i, pascal_error *err)
{
    double N = p->v[PASCAL_P_N], M = p->v[PASCAL_P_M], need;
    uint64_t nm = BIT(PASCAL_P_N) | BIT(PASCAL_P_M);
    int wl = !isnan(p->v[PASCAL_P_WORKLOAD]);
    int wl_sim = wl && (c->models & (1u << PASCAL_MODEL_SIMULATE));
    if (!(wl ? pascal_wl_wave_models(c->models) || wl_sim : phased_models(c->models)))
        return 0;
    if (M > PASCAL_PLAN_MAX_M)
        return pascal_spec_point_error(c->spec, PASCAL_P_M, p, i, BIT(PASCAL_P_M), err,
                                       "expected M <= %.0f workers (the patterns' exact integer "
                                       "arithmetic), got M = %.0f", PASCAL_PLAN_MAX_M, M);
    if (N * M > 9223372036854775807.0)
        return pascal_spec_point_error(c->spec, PASCAL_P_N, p, i, nm, err,
                                       "expected N * M <= 2^63 - 1 (Theorem 4's interval numerators "
                                       "sum to N M), got N * M = %.0f * %.0f = %.4g", N, M, N * M);
    if (!wl && replay_models(c->models) && N > (double)PASCAL_REPLAY_MAX_N)
        return pascal_spec_point_error(c->spec, PASCAL_P_N, p, i, BIT(PASCAL_P_N), err,
                                       "expected N <= %lld blocks (2^28, the largest ring the %s "
                                       "model's LRU replay holds), got N = %.0f",
                                       (long long)PASCAL_REPLAY_MAX_N,
                                       (c->models & (1u << PASCAL_MODEL_BELADY)) ? "belady" : "lru_replay",
                                       N);
    if (!wl && (c->models & (1u << PASCAL_MODEL_BELADY)) &&
        (double)belady_rounds(p->v) * M > 4611686018427387904.0)
        return pascal_spec_point_error(c->spec, isnan(p->v[PASCAL_P_ROUNDS]) ? PASCAL_P_N : PASCAL_P_ROUNDS,
                                       p, i, nm | BIT(PASCAL_P_ROUNDS), err,
                                       "expected rounds * M <= 2^62 (belady's request times), got "
                                       "%lld * %.0f", (long long)belady_rounds(p->v), M);
    need = wl ? pascal_eval_bytes(0, 0, 0) + pascal_wl_eval_bytes(c->models, p->v) +
                    (wl_sim ? pascal_wl_sim_bytes(p->v) : 0)
              : pascal_eval_bytes(c->models, (int64_t)N, (int64_t)M);
    if (need * c->o->threads + c->o->reserved_bytes > c->memory)
        return fail_memory(c, p, i, need, err);
    return 0;
}

/* 1 kept and within bounds, 0 dropped, -1 failing; *M gets a kept point's M. */
static int check_index(const plan_ctx *c, uint64_t i, double *M)
{
    pascal_point p;
    int rc = pascal_spec_point(c->spec, i, &p, NULL);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return 0;
    if (check_bounds(c, &p, i, NULL) != 0)
        return -1;
    *M = p.v[PASCAL_P_M];
    return 1;
}

/* ---- walks ----------------------------------------------------------------- */

/* The combinations of some dimensions' values, the others at index 0
 * (factored), or the raw indices [begin, begin + count) (range). */
typedef struct walk {
    uint64_t dims;              /* bit d: dimension d varies */
    uint64_t count;
    int range;
    uint64_t begin;
} walk;

typedef struct walk_set {
    int n;
    walk w[MAX_CHECKS];
    uint64_t stride[PASCAL_NPARAM];
    int per_point;
    uint64_t where_dims;
} walk_set;

/* Dimensions of the axes that set any parameter of `params`. */
static uint64_t dims_of(const pascal_spec *spec, uint64_t params)
{
    uint64_t dims = 0;
    for (int a = 0; a < pascal_spec_naxes(spec); a++) {
        const pascal_axis *ax = pascal_spec_axis(spec, a);
        if (params & BIT(ax->param))
            dims |= BIT(ax->dim);
    }
    return dims;
}

static uint64_t combos(const pascal_spec *spec, uint64_t dims)
{
    uint64_t n = 1;
    for (int d = 0; d < pascal_spec_ndims(spec); d++)
        if (dims & BIT(d))
            n *= (uint64_t)pascal_spec_dim_size(spec, d);
    return n;
}

static uint64_t walk_index(const pascal_spec *spec, const walk_set *ws, const walk *w, uint64_t c)
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
static void init_strides(const pascal_spec *spec, walk_set *ws)
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
    ws->w[ws->n++] = (walk){dims, combos(spec, dims), 0, 0};
}

/* The walks for [begin, end): one per maximal check-dimension set, or one
 * range walk when that is no cheaper, or when a shard's `where` reads an
 * axis (its kept count then needs every point of the slice). */
static void plan_walks(const plan_ctx *c, uint64_t begin, uint64_t end, walk_set *ws)
{
    const pascal_spec *spec = c->spec;
    uint64_t masks[MAX_CHECKS], where = pascal_spec_where_deps(spec), total = 0;
    int n = pascal_spec_check_deps(spec, masks, MAX_CHECKS - 1);
    int whole = begin == 0 && end == pascal_spec_size(spec);
    masks[n++] = pascal_spec_param_deps(spec, bound_params(c->models));
    memset(ws, 0, sizeof *ws);
    ws->where_dims = dims_of(spec, where);
    init_strides(spec, ws);
    for (int k = 0; k < n; k++)
        add_walk(spec, ws, dims_of(spec, masks[k] | where));
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

static int stop_requested(const pascal_plan_opts *o)
{
    return o->stop_flag && *o->stop_flag;
}

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
        uint64_t i = walk_index(t->c->spec, t->ws, t->w, k);
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
        if (walk_index(c->spec, ws, w, c0) > out->bad)
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
        if (stop_requested(c->o))
            return PASCAL_EINTR;
    }
    return 0;
}

static void init_ctx(plan_ctx *c, const pascal_spec *spec, const pascal_plan_opts *o)
{
    c->spec = spec;
    c->o = o;
    c->models = pascal_spec_models(spec);
    c->memory = o->memory_bytes > 0 ? o->memory_bytes : pascal_plan_machine_memory();
}

/* The message of the failing point: the spec's own check, else a bound. */
static int report_bad(const plan_ctx *c, uint64_t i, pascal_error *err)
{
    pascal_point p;
    int rc = pascal_spec_point(c->spec, i, &p, err);
    if (rc < 0)
        return rc;
    rc = check_bounds(c, &p, i, err);
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
    init_ctx(&c, spec, o);
    plan_walks(&c, begin, end, &ws);
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

/* ---- estimate -------------------------------------------------------------- */

/* Consecutive points that share a phase vector: the product of the sizes of
 * the dimensions after the last one that changes it (the evaluator keeps
 * the last vector, eval.c). */
static double points_per_vector(const pascal_spec *spec)
{
    uint64_t key = BIT(PASCAL_P_N) | BIT(PASCAL_P_M) | BIT(PASCAL_P_PATTERN) | BIT(PASCAL_P_CLUSTERS) |
                   BIT(PASCAL_P_SPREAD) | BIT(PASCAL_P_SIGMA) | BIT(PASCAL_P_LAG) | BIT(PASCAL_P_PHASES) |
                   BIT(PASCAL_P_SEED);
    uint64_t dims = dims_of(spec, pascal_spec_param_deps(spec, key));
    const pascal_sample_info *si = pascal_spec_sample(spec);
    double n = 1;
    if (si) /* each draw builds its vector; inner: grid shares it over the grid */
        return si->inner_grid ? (double)si->inner : 1.0;
    for (int d = pascal_spec_ndims(spec) - 1; d >= 0 && !(dims & BIT(d)); d--)
        n *= (double)pascal_spec_dim_size(spec, d);
    return n;
}

/* The progress simulator's cost per block request, by CTAs per SM: the
 * slowest configuration of each occupancy in `bench_sim ... 1` (one core of
 * this project's machine, docs/simulate.md section 8) took 19 ns at
 * occupancy 1, 30 at 2, 33 at 4 and 43 at 8; rounded up. */
static double sim_request_ns(double occupancy)
{
    double o = isnan(occupancy) ? 1 : occupancy;
    return o <= 1 ? 20 : o <= 2 ? 30 : o <= 4 ? 35 : 45;
}

/* Cost model of one kept point on one thread, nanoseconds (docs/limits.md:
 * fitted to bench/ runs on the 2-core development machine; a guide to the
 * order of magnitude, not a promise). */
static double point_cost_ns(const plan_ctx *c, const pascal_point *p, double ppv)
{
    unsigned m = c->models;
    double N = p->v[PASCAL_P_N], M = p->v[PASCAL_P_M], lg = log2(M + 2);
    double ns = 150 + 6.0 * pascal_spec_ncolumns(c->spec), vec = 0;
    if (phased_models(m)) {
        vec = M * lg * (12 + ((m & ((1u << PASCAL_MODEL_LRU) | (1u << PASCAL_MODEL_SDCM))) ? 25 : 0) +
                        ((m & (1u << PASCAL_MODEL_RESIDENCY)) ? 12 : 0));
        if (m & (1u << PASCAL_MODEL_LRU_REPLAY))
            vec += (N + 1) * M * 15;
        ns += vec / ppv;
    }
    if (m & (1u << PASCAL_MODEL_SDCM))
        ns += 35 * M * (isnan(p->v[PASCAL_P_ASSOC]) ? 1 : p->v[PASCAL_P_ASSOC]);
    if (m & (1u << PASCAL_MODEL_BELADY))
        ns += (double)belady_rounds(p->v) * M * 15;
    if (m & (1u << PASCAL_MODEL_DYNAMIC))
        ns += 100;
    /* One simulation of W M N requests */
    if (m & (1u << PASCAL_MODEL_SIMULATE)) {
        double W = p->v[PASCAL_P_W];
        ns += sim_request_ns(p->v[PASCAL_P_OCCUPANCY]) * (isnan(W) ? 1 : W) * M * N;
    }
    return ns;
}

/* The simulation of a workload point's kernel, every block request at the
 * simulator's cost per request (point_cost_ns); the timed sample below
 * runs without the simulator's timing, so it leaves this out. */
static double workload_sim_ns(const plan_ctx *c, const pascal_point *p)
{
    pascal_workload w;
    if (!(c->models & (1u << PASCAL_MODEL_SIMULATE)) || pascal_workload_of_point(p->v, &w) != 0)
        return 0;
    return sim_request_ns(p->v[PASCAL_P_OCCUPANCY]) * (double)w.requests;
}

/* A workload point's waves are not modelled but timed (docs/limits.md): at
 * up to WL_SAMPLE sampled points within the bounds, one evaluation builds
 * the waves and a second at the same point reuses them, as the evaluator
 * does for the points that share a phase-defining key.  *vec_ns gets the
 * mean build time, *pt_ns the mean time of a point once built; both stay
 * 0 when no sampled point could be timed. */
#define WL_SAMPLE 8

static void workload_costs(const plan_ctx *c, const uint64_t *idx, int n, double *vec_ns, double *pt_ns)
{
    const int *cols = pascal_spec_columns(c->spec);
    int ncols = pascal_spec_ncolumns(c->spec), timed = 0;
    double out[PASCAL_NCOLUMN];
    *vec_ns = *pt_ns = 0;
    for (int k = 0; k < n && timed < WL_SAMPLE; k++) {
        pascal_point p;
        pascal_eval *ev;
        if (pascal_spec_point(c->spec, idx[k], &p, NULL) != 1 || check_bounds(c, &p, idx[k], NULL) != 0 ||
            !(ev = pascal_eval_create(c->models)))
            continue;
        double t0 = pascal_now();
        pascal_eval_point(ev, &p, cols, ncols, out);
        double t1 = pascal_now();
        pascal_eval_point(ev, &p, cols, ncols, out);
        double t2 = pascal_now();
        pascal_eval_free(ev);
        *pt_ns += (t2 - t1) * 1e9;
        *vec_ns += (t1 - t0 > t2 - t1 ? (t1 - t0) - (t2 - t1) : 0) * 1e9;
        timed++;
    }
    if (timed) {
        *vec_ns /= timed;
        *pt_ns /= timed;
    }
}

/* "capacity_bytes x occupancy": the axes a walk runs over. */
static void name_dims(const pascal_spec *spec, uint64_t dims, char *buf, size_t len)
{
    size_t off = 0;
    buf[0] = 0;
    for (int a = 0; a < pascal_spec_naxes(spec) && off < len; a++) {
        const pascal_axis *ax = pascal_spec_axis(spec, a);
        if (dims & BIT(ax->dim))
            off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
                                    pascal_params[ax->param].name);
    }
}

void pascal_plan_estimate_run(const pascal_spec *spec, uint64_t begin, uint64_t end,
                              const pascal_plan_opts *o, pascal_plan_estimate *out)
{
    plan_ctx c;
    walk_set ws;
    uint64_t range = end - begin, n = range < SAMPLE ? range : SAMPLE, kept = 0, valid = 0, wl[8];
    double t0, t_check, cost = 0, ppv, vec_ns, pt_ns;
    int nwl = 0, kept_wl = 0;
    init_ctx(&c, spec, o);
    plan_walks(&c, begin, end, &ws);
    memset(out, 0, sizeof *out);
    out->raw_points = range;
    out->per_point = ws.per_point;
    out->memory_bytes = c.memory;
    for (int k = 0; k < ws.n; k++)
        out->check_evals += ws.w[k].count;
    if (!ws.per_point) {
        uint64_t all = 0;
        for (int k = 0; k < ws.n; k++)
            all |= ws.w[k].dims;
        name_dims(spec, all, out->axes, sizeof out->axes);
    }
    ppv = points_per_vector(spec);
    t0 = pascal_now();
    for (uint64_t k = 0; k < n; k++) {
        pascal_point p;
        /* Scattered, not evenly spaced: an even stride can fall in step
         * with the axes and see one value of an inner axis only. */
        uint64_t i = n == range ? begin + k : begin + pascal_rng_u64(1, 0x706c616eULL, k) % range;
        int rc = pascal_spec_point(spec, i, &p, NULL);
        valid += rc >= 0;
        if (rc == 1 && !isnan(p.v[PASCAL_P_WORKLOAD])) {
            kept++;
            kept_wl++;
            cost += workload_sim_ns(&c, &p);
            if (nwl < 8)
                wl[nwl++] = i;
        } else if (rc == 1) {
            kept++;
            cost += point_cost_ns(&c, &p, ppv);
        }
    }
    t_check = n ? (pascal_now() - t0) / (double)n : 0;
    if (kept_wl) {
        workload_costs(&c, wl, nwl, &vec_ns, &pt_ns);
        cost += kept_wl * (pt_ns + vec_ns / ppv);
    }
    out->kept_fraction = ws.where_dims == 0 || valid == 0 ? 1.0 : (double)kept / (double)valid;
    out->rows = out->kept_fraction * (double)range;
    out->check_seconds = (double)out->check_evals * t_check * 1.2 / o->threads;
    /* The evaluator expands every raw point (those `where` drops too),
     * then evaluates the kept ones. */
    out->run_seconds = ((double)range * t_check + (kept ? out->rows * cost / (double)kept * 1e-9 : 0)) /
                       o->threads;
}

/* ---- a calibration that supports no point ---------------------------------- */

#define NCODES 16

/* The dynamic model's code at raw index i, or -1 when the point is dropped. */
static int dyn_code(const pascal_spec *spec, const struct pascal_dyn_model *dyn, uint64_t i)
{
    pascal_point p;
    double out[PASCAL_CALIBRATE_NCOLS];
    if (pascal_spec_point(spec, i, &p, NULL) != 1)
        return -1;
    pascal_eval_dynamic(dyn, pascal_spec_extrapolation_nan(spec) ? PASCAL_DYN_NO_HOLD : 0, p.v, out);
    return (int)out[pascal_calibrate_slot(PASCAL_COL_FALLBACK)];
}

/* One chunk [c0, c1) of the walk on a team (pascal_parallel): each thread
 * counts the codes of its share, then adds them in. */
typedef struct dyn_team {
    const pascal_spec *spec;
    const struct pascal_dyn_model *dyn;
    const walk_set *ws;
    const walk *w;
    uint64_t c0, c1;
    uint64_t *count;            /* [NCODES] */
} dyn_team;

static void dyn_body(void *ctx)
{
    dyn_team *t = ctx;
    uint64_t count[NCODES] = {0};
#pragma omp for schedule(static) nowait
    for (uint64_t k = t->c0; k < t->c1; k++) {
        int code = dyn_code(t->spec, t->dyn, walk_index(t->spec, t->ws, t->w, k));
        if (code >= 0 && code < NCODES)
            count[code]++;
    }
#pragma omp critical(pascal_plan_dynamic)
    for (int k = 0; k < NCODES; k++)
        t->count[k] += count[k];
}

/* "1200 device (...), 40 family": the codes counted, most frequent first. */
static void describe_codes(const uint64_t *count, const struct pascal_dyn_model *dyn, char *buf,
                           size_t len)
{
    const pascal_dyn_params *par = pascal_dyn_model_params(dyn);
    size_t off = 0;
    int used[NCODES] = {0};
    buf[0] = 0;
    for (int round = 0; round < NCODES && off < len; round++) {
        int best = -1;
        for (int k = 0; k < NCODES; k++)
            if (!used[k] && count[k] && (best < 0 || count[k] > count[best]))
                best = k;
        if (best < 0)
            break;
        used[best] = 1;
        off += (size_t)snprintf(buf + off, len - off, "%s%llu %s", off ? ", " : "",
                                (unsigned long long)count[best], pascal_dyn_code_name(best));
        if (best == PASCAL_DYN_ERR_DEVICE && off < len)
            off += (size_t)snprintf(buf + off, len - off, " (M, C or block_bytes differ from the "
                                    "calibration's device: M = %.0f x occupancy, C = %.0f blocks "
                                    "of %.0f bytes)", par->sms, par->C, par->block_bytes);
    }
}

int pascal_plan_check_dynamic(const pascal_spec *spec, const struct pascal_dyn_model *dyn,
                              const pascal_plan_opts *o, pascal_error *err)
{
    uint64_t reads = BIT(PASCAL_P_OCCUPANCY) | BIT(PASCAL_P_PATH) | BIT(PASCAL_P_DEPTH) |
                     BIT(PASCAL_P_COMPUTE) | BIT(PASCAL_P_W) | BIT(PASCAL_P_N) | BIT(PASCAL_P_M) |
                     BIT(PASCAL_P_C) | BIT(PASCAL_P_BLOCK_BYTES);
    uint64_t dims, size = pascal_spec_size(spec), chunk, count[NCODES] = {0}, seen = 0;
    walk_set ws;
    walk w;
    int found = 0, line, col;
    char why[768];
    if (!dyn || !(pascal_spec_models(spec) & (1u << PASCAL_MODEL_DYNAMIC)))
        return 0;
    dims = dims_of(spec, pascal_spec_param_deps(spec, reads) | pascal_spec_where_deps(spec));
    memset(&ws, 0, sizeof ws);
    init_strides(spec, &ws);
    w = (walk){dims, combos(spec, dims), 0, 0};
    chunk = (uint64_t)CHUNK_PER_THREAD * (uint64_t)o->threads;
    for (uint64_t c0 = 0; c0 < w.count && !found; c0 += chunk) {
        dyn_team t = {spec, dyn, &ws, &w, c0, w.count - c0 < chunk ? w.count : c0 + chunk, count};
        pascal_parallel(o->threads, dyn_body, &t);
        for (int k = 0; k < PASCAL_DYN_UNSUPPORTED; k++)
            found |= count[k] != 0;
        if (!found && stop_requested(o))
            return pascal_error_set(err, PASCAL_EINTR, "stopped while checking the calibration; "
                                    "nothing written");
    }
    if (found)
        return 0;
    for (int k = 0; k < NCODES; k++)
        seen += count[k];
    if (seen == 0) /* nothing kept: the `where` check reports it */
        return 0;
    describe_codes(count, dyn, why, sizeof why);
    pascal_spec_calibration(spec, &line, &col);
    return pascal_error_set(err, PASCAL_EINPUT, "%s:%d:%d: calibration: expected a calibration that "
                            "supports some point of the sweep, got none of %llu distinct points "
                            "(%s): %s", pascal_spec_filename(spec), line, col,
                            (unsigned long long)seen, w.count < size ? "over the axes it reads" : "every point",
                            why);
}
