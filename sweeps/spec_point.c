/* Lazy expansion: raw index -> point.  The index is mixed-radix over the
 * dimensions, last dimension fastest.  Order of work for one point:
 *   1. fixed values, then each axis's value at its coordinate;
 *   2. pattern defaults (pattern aligned, clusters 1, spread 0, sigma 0,
 *      lag 1, seed 1);
 *   3. derivations where not given: N = floor(data_bytes / block_bytes),
 *      M = length of the explicit phase list, else sms * occupancy,
 *      C = floor(capacity_bytes / block_bytes);
 *   4. `where` filters (a dropped point is never checked further, so a
 *      filter can drop combinations that would be invalid);
 *   5. validity (N, M, C >= 1, explicit lists of length M with phases < N);
 *   6. `require` assertions.
 * Reads only the spec, allocates nothing: safe from any number of threads. */
#include "sweeps/spec_internal.h"

#include "devices/profile.h"
#include "sweeps/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIT(p) ((uint64_t)1 << (p))

/* C or N derived by floor(bytes / block_bytes) came out below 1. */
static int fail_floor(const pascal_spec *spec, const double *v, uint64_t i, int target, int bytes,
                      pascal_error *err)
{
    char where[512];
    spec_describe_point(spec, v, i, BIT(bytes) | BIT(PASCAL_P_BLOCK_BYTES), where, sizeof where);
    return yml_fail_mark(err, &spec->src[bytes], PASCAL_EINPUT,
                          "expected %s >= 1, got %s = floor(%s / block_bytes) = floor(%.0f / %.0f) = %.0f at %s",
                          pascal_params[target].name, pascal_params[target].name, pascal_params[bytes].name,
                          v[bytes], v[PASCAL_P_BLOCK_BYTES], v[target], where);
}

/* Steps 5: the values a model may assume. */
static int check_point(const pascal_spec *spec, pascal_point *p, uint64_t i, int derived_n, int derived_c,
                       const int64_t *list, int64_t list_len, pascal_error *err)
{
    double *v = p->v;
    char where[512];
    if (!(v[PASCAL_P_N] >= 1))
        return derived_n ? fail_floor(spec, v, i, PASCAL_P_N, PASCAL_P_DATA_BYTES, err)
                         : yml_fail_mark(err, &spec->src[PASCAL_P_N], PASCAL_EINPUT, "expected N >= 1");
    if (!(v[PASCAL_P_C] >= 1))
        return derived_c ? fail_floor(spec, v, i, PASCAL_P_C, PASCAL_P_CAPACITY_BYTES, err)
                         : yml_fail_mark(err, &spec->src[PASCAL_P_C], PASCAL_EINPUT, "expected C >= 1");
    if (!(v[PASCAL_P_M] >= 1)) {
        spec_describe_point(spec, v, i, BIT(PASCAL_P_SMS) | BIT(PASCAL_P_OCCUPANCY), where, sizeof where);
        return yml_fail_mark(err, &spec->src[PASCAL_P_PATTERN], PASCAL_EINPUT,
                              "expected M, or sms and occupancy, got M unset at %s", where);
    }
    if (list) {
        if (v[PASCAL_P_M] != (double)list_len) {
            spec_describe_point(spec, v, i, BIT(PASCAL_P_M), where, sizeof where);
            return yml_fail_mark(err, &spec->src[PASCAL_P_PHASES], PASCAL_EINPUT,
                                  "expected a phase list of M = %.0f phases, got %lld phases at %s", v[PASCAL_P_M],
                                  (long long)list_len, where);
        }
        for (int64_t m = 0; m < list_len; m++)
            if ((double)list[m] >= v[PASCAL_P_N]) {
                spec_describe_point(spec, v, i, BIT(PASCAL_P_N), where, sizeof where);
                return yml_fail_mark(err, &spec->src[PASCAL_P_PHASES], PASCAL_EINPUT,
                                      "expected phases < N = %.0f, got phase %lld (worker %lld) at %s", v[PASCAL_P_N],
                                      (long long)list[m], (long long)m, where);
            }
    }
    return 0;
}

static int fail_rule(const pascal_spec *spec, const spec_rule *r, const double *v, uint64_t i, pascal_error *err)
{
    char where[640], vals[384], val[64];
    size_t off = 0;
    uint64_t used = pascal_expr_params(r->expr);
    spec_describe_point(spec, v, i, 0, where, sizeof where);
    vals[0] = '\0';
    for (int p = 0; p < PASCAL_NPARAM && off < sizeof vals; p++)
        if (used & BIT(p)) {
            spec_format_value(spec, p, v[p], val, sizeof val);
            off += (size_t)snprintf(vals + off, sizeof vals - off, "%s%s=%s", off ? ", " : " with ",
                                    pascal_params[p].name, val);
        }
    return yml_fail_mark(err, &r->mark, PASCAL_EINPUT, "expected \"%s\" at every point, got false at %s%s", r->text,
                          where, vals);
}

/* Whether the point fits the device's limits (docs/workloads.md section
 * 9): occupancy against the resident CTAs per SM, and the buffers the
 * model assumes, depth stages of one step's blocks (units x block_bytes;
 * none on the sync path, one when neither path nor depth is given),
 * against shared memory per CTA and per SM.
 * 0: it fits (or nothing to check); 1: it does not, *what says why. */
static int infeasible(const pascal_spec *spec, const double *v, char *what, size_t len, int *limit)
{
    const spec_device *dv = spec_point_device(spec, v);
    const double *lim = dv ? dv->limit : spec->limit;
    double occ = v[PASCAL_P_OCCUPANCY], units = 1, kernel_smem = 0;
    if (isnan(occ) && !isnan(v[PASCAL_P_SMS]) && !isnan(v[PASCAL_P_M]) && v[PASCAL_P_SMS] >= 1)
        occ = ceil(v[PASCAL_P_M] / v[PASCAL_P_SMS]);
    if (!isnan(v[PASCAL_P_WORKLOAD])) {
        pascal_workload w;
        if (pascal_workload_of_point(v, &w) == 0)
            units = (double)w.units, kernel_smem = (double)w.smem_bytes;
    }
    /* The sync path loads through registers (__ldcg): no stage; the TMA
     * path holds depth stages; a tiled kernel with neither given holds at
     * least its current step. */
    double stages = v[PASCAL_P_PATH] == 0 ? 0
                    : !isnan(v[PASCAL_P_DEPTH]) && v[PASCAL_P_DEPTH] >= 1 ? v[PASCAL_P_DEPTH] : 1;
    double cta = stages * units * v[PASCAL_P_BLOCK_BYTES];
    /* A named kernel holds what its library allocates (flash-attn-2: a Q,
     * a K and a V tile), whatever the path and depth. */
    if (kernel_smem > 0)
        cta = kernel_smem;
    if (!isnan(lim[0]) && !isnan(occ) && occ > lim[0]) {
        snprintf(what, len, "occupancy %g, more than the device's %g resident CTAs per SM", occ,
                 lim[0]);
        *limit = 0;
        return 1;
    }
    if (!isnan(lim[2]) && !isnan(cta) && cta > lim[2]) {
        if (kernel_smem > 0)
            snprintf(what, len, "%.0f bytes of shared memory per CTA (the kernel's Q, K and V "
                     "tiles), more than the device's %g", cta, lim[2]);
        else
            snprintf(what, len, "%g stage%s of %g x %g bytes = %.0f bytes of shared memory per CTA, "
                     "more than the device's %g", stages, stages == 1 ? "" : "s", units,
                     v[PASCAL_P_BLOCK_BYTES], cta, lim[2]);
        *limit = 2;
        return 1;
    }
    double threads = v[PASCAL_P_THREADS];
    if (!isnan(lim[3]) && !isnan(threads) && !isnan(occ) && occ * threads > lim[3]) {
        snprintf(what, len, "occupancy %g x %g threads per CTA = %g threads per SM, more than the "
                 "device's %g", occ, threads, occ * threads, lim[3]);
        *limit = 3;
        return 1;
    }
    if (!isnan(lim[1]) && !isnan(cta) && !isnan(occ) && occ * cta > lim[1]) {
        snprintf(what, len, "occupancy %g x %.0f bytes per CTA = %.0f bytes of shared memory per SM, "
                 "more than the device's %g", occ, cta, occ * cta, lim[1]);
        *limit = 1;
        return 1;
    }
    return 0;
}

int pascal_spec_point(const pascal_spec *spec, uint64_t i, pascal_point *p, pascal_error *err)
{
    int64_t idx[PASCAL_NPARAM];
    double *v = p->v;
    const int64_t *list = NULL;
    int64_t list_len = 0;
    int derived_n = 0, derived_c = 0, rc;
    uint64_t r = i;
    if (i >= spec->size)
        return pascal_error_set(err, PASCAL_EINTERNAL, "%s: point %llu is outside the sweep's %llu points",
                                spec->filename, (unsigned long long)i, (unsigned long long)spec->size);
    memcpy(v, spec->fixed.v, sizeof p->v);
    p->phases = NULL;
    if (spec->sample) {
        spec_sample_values(spec, i, v);
    } else {
        for (int d = spec->ndims - 1; d >= 0; d--) {
            idx[d] = (int64_t)(r % (uint64_t)spec->dim_size[d]);
            r /= (uint64_t)spec->dim_size[d];
        }
        for (int a = 0; a < spec->naxes; a++)
            v[spec->axes[a].param] = spec->axes[a].values[idx[spec->axes[a].dim]];
    }

    /* A device axis: the point's profile gives what the spec leaves to it. */
    const spec_device *dv = spec_point_device(spec, v);
    if (dv && spec->source[PASCAL_P_SMS] == SRC_DEVICE)
        v[PASCAL_P_SMS] = dv->sms;
    if (dv && spec->source[PASCAL_P_CAPACITY_BYTES] == SRC_DEVICE)
        v[PASCAL_P_CAPACITY_BYTES] = dv->capacity_bytes;
    if (isnan(v[PASCAL_P_PATTERN]))
        v[PASCAL_P_PATTERN] = 0;
    if (isnan(v[PASCAL_P_CLUSTERS]))
        v[PASCAL_P_CLUSTERS] = 1;
    if (isnan(v[PASCAL_P_SPREAD]))
        v[PASCAL_P_SPREAD] = 0;
    if (isnan(v[PASCAL_P_SIGMA]))
        v[PASCAL_P_SIGMA] = 0;
    if (isnan(v[PASCAL_P_LAG]))
        v[PASCAL_P_LAG] = 1;
    if (isnan(v[PASCAL_P_SEED]))
        v[PASCAL_P_SEED] = 1;
    if (v[PASCAL_P_PATTERN] == PASCAL_PATTERN_EXPLICIT && !isnan(v[PASCAL_P_PHASES]))
        list = pascal_spec_phase_list(spec, (int64_t)v[PASCAL_P_PHASES], &list_len);
    /* A workload derives N and block_bytes; a refused shape is an error
     * only if `where` keeps the point. */
    int wl_rc = spec->step ? spec_model_point(spec, v, i, err)
                : isnan(v[PASCAL_P_WORKLOAD]) ? 0 : spec_workload_point(spec, v, i, err);

    /* The device's rates, unless the spec gives them: tensor FLOP/s at the
     * workload's dtype, L2 and DRAM bandwidth; on a device axis the
     * point's profile's. */
    const double *rate = dv ? dv->rate : spec->rate;
    if (isnan(v[PASCAL_P_FLOPS_PER_S]) && !isnan(v[PASCAL_P_DTYPE]) && v[PASCAL_P_DTYPE] >= 0 &&
        v[PASCAL_P_DTYPE] < PASCAL_RATE_L2)
        v[PASCAL_P_FLOPS_PER_S] = rate[(int)v[PASCAL_P_DTYPE]];
    if (isnan(v[PASCAL_P_L2_BYTES_PER_S]))
        v[PASCAL_P_L2_BYTES_PER_S] = rate[PASCAL_RATE_L2];
    if (isnan(v[PASCAL_P_DRAM_BYTES_PER_S]))
        v[PASCAL_P_DRAM_BYTES_PER_S] = rate[PASCAL_RATE_DRAM];
    /* and its costs: energy per byte read, L2 area per MiB. */
    const double *cost = dv ? dv->cost : spec->cost;
    static const int cost_param[3] = {PASCAL_P_DRAM_PJ_PER_BYTE, PASCAL_P_L2_PJ_PER_BYTE,
                                      PASCAL_P_L2_MM2_PER_MIB};
    for (int k = 0; k < 3; k++)
        if (isnan(v[cost_param[k]]))
            v[cost_param[k]] = cost[k];
    if (isnan(v[PASCAL_P_N])) {
        v[PASCAL_P_N] = floor(v[PASCAL_P_DATA_BYTES] / v[PASCAL_P_BLOCK_BYTES]);
        derived_n = 1;
    }
    if (isnan(v[PASCAL_P_M]))
        v[PASCAL_P_M] = list ? (double)list_len : v[PASCAL_P_SMS] * v[PASCAL_P_OCCUPANCY];
    if (isnan(v[PASCAL_P_C])) {
        v[PASCAL_P_C] = floor(v[PASCAL_P_CAPACITY_BYTES] / v[PASCAL_P_BLOCK_BYTES]);
        derived_c = 1;
    }

    for (int k = 0; k < spec->nwhere; k++)
        if (!pascal_expr_truth(pascal_expr_eval(spec->where[k].expr, v)))
            return 0;
    if (wl_rc)
        return wl_rc;
    rc = check_point(spec, p, i, derived_n, derived_c, list, list_len, err);
    if (rc)
        return rc;
    for (int k = 0; k < spec->nrequire; k++)
        if (!pascal_expr_truth(pascal_expr_eval(spec->require[k].expr, v)))
            return fail_rule(spec, &spec->require[k], v, i, err);
    char what[320], where[512];
    int limit = 0;
    if (infeasible(spec, v, what, sizeof what, &limit)) {
        if (spec->infeasible_skip)
            return 0;
        int threads = limit == PASCAL_LIMIT_THREADS;
        spec_describe_point(spec, v, i,
                            BIT(PASCAL_P_OCCUPANCY) |
                                (threads ? BIT(PASCAL_P_THREADS) : limit ? BIT(PASCAL_P_DEPTH) : 0),
                            where, sizeof where);
        /* At what the spec set: the occupancy, else the threads or the
         * depth, else the workload whose blocks fill the stages. */
        int at = PASCAL_P_OCCUPANCY;
        if (threads && spec->source[at] == SRC_NONE)
            at = PASCAL_P_THREADS;
        else if (limit != 0 && !threads && spec->source[PASCAL_P_DEPTH] != SRC_NONE)
            at = PASCAL_P_DEPTH;
        else if (spec->source[at] == SRC_NONE && !isnan(v[PASCAL_P_WORKLOAD]))
            at = PASCAL_P_WORKLOAD;
        return yml_fail_mark(err, &spec->src[at], PASCAL_EINPUT,
                              "expected a point the device can run, got %s at %s (limits.%s in %s: "
                              "%s; `infeasible: skip` in the spec drops such points)",
                              what, where, pascal_device_limit_keys[limit],
                              dv ? dv->path : spec->device_path,
                              dv ? dv->limit_source[limit] : spec->limit_source[limit]);
    }
    p->phases = list;
    return 1;
}
