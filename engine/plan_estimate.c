/* The planner's estimate (engine/plan.h): from a few hundred points
 * scattered over the slice, the cost of one check and the share `where`
 * keeps; a cost model of the requested models (docs/limits.md) turns the
 * kept points into an evaluation time, and a workload's waves are timed at
 * up to eight sampled points.  It counts the check pass's walks (plan.c)
 * and skips points outside the bounds (plan_memory.c). */
#include "engine/plan_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "engine/eval.h"
#include "model/phases.h"
#include "sweeps/sample.h"
#include "sweeps/workload.h"

#define SAMPLE 512             /* points the estimate expands */

/* Consecutive points that share a phase vector: the product of the sizes of
 * the dimensions after the last one that changes it (the evaluator keeps
 * the last vector, eval.c). */
static double points_per_vector(const pascal_spec *spec)
{
    uint64_t key = BIT(PASCAL_P_N) | BIT(PASCAL_P_M) | BIT(PASCAL_P_PATTERN) | BIT(PASCAL_P_CLUSTERS) |
                   BIT(PASCAL_P_SPREAD) | BIT(PASCAL_P_SIGMA) | BIT(PASCAL_P_LAG) | BIT(PASCAL_P_PHASES) |
                   BIT(PASCAL_P_SEED);
    uint64_t dims = pascal_plan_dims_of(spec, pascal_spec_param_deps(spec, key));
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
    if (pascal_plan_phased_models(m)) {
        vec = M * lg * (12 + ((m & ((1u << PASCAL_MODEL_LRU) | (1u << PASCAL_MODEL_SDCM))) ? 25 : 0) +
                        ((m & (1u << PASCAL_MODEL_RESIDENCY)) ? 12 : 0));
        if (m & (1u << PASCAL_MODEL_LRU_REPLAY))
            vec += (N + 1) * M * 15;
        ns += vec / ppv;
    }
    if (m & (1u << PASCAL_MODEL_SDCM))
        ns += 35 * M * (isnan(p->v[PASCAL_P_ASSOC]) ? 1 : p->v[PASCAL_P_ASSOC]);
    if (m & (1u << PASCAL_MODEL_BELADY))
        ns += (double)pascal_plan_belady_rounds(p->v) * M * 15;
    if (m & (1u << PASCAL_MODEL_DYNAMIC))
        ns += 100;
    /* One simulation of W M N requests */
    if (m & (1u << PASCAL_MODEL_SIMULATE)) {
        double W = p->v[PASCAL_P_W];
        ns += sim_request_ns(p->v[PASCAL_P_OCCUPANCY]) * (isnan(W) ? 1 : W) * M * N;
    }
    return ns;
}

/* The simulations of a workload point's kernel, every block request at the
 * simulator's cost per request (point_cost_ns): band_seeds of them for the
 * answer and its band (answer_traffic_hi, in the default columns); the
 * timed sample below runs without the simulator's timing, so it leaves
 * this out. */
static double workload_sim_ns(const plan_ctx *c, const pascal_point *p)
{
    pascal_workload w;
    double runs = isnan(p->v[PASCAL_P_BAND_SEEDS]) ? 5 : p->v[PASCAL_P_BAND_SEEDS];
    if (!(c->models & (1u << PASCAL_MODEL_SIMULATE)) || pascal_workload_of_point(p->v, &w) != 0)
        return 0;
    return sim_request_ns(p->v[PASCAL_P_OCCUPANCY]) * (double)w.requests * runs;
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
        if (pascal_spec_point(c->spec, idx[k], &p, NULL) != 1 || pascal_plan_check_bounds(c, &p, idx[k], NULL) != 0 ||
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
    pascal_plan_ctx_init(&c, spec, o);
    pascal_plan_walks(&c, begin, end, &ws);
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
