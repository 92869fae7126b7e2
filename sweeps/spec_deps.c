/* What a point's checks read, and point errors for callers outside sweeps/.
 *
 * A planner (engine/plan.c) runs each check over the values of the axes it
 * depends on, not over every point: a check that reads only N and M needs
 * one evaluation per distinct (N, M) combination.  That is sound only if the
 * masks here name every parameter a check's outcome can depend on, so they
 * follow spec_point.c step by step: derived N, M and C add what they are
 * derived from, and every check of a kept point adds the `where` filters'
 * parameters (the planner does that). */
#include "sweeps/spec_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#define BIT(p) ((uint64_t)1 << (p))

static int is_set(const pascal_spec *spec, int param)
{
    return spec->source[param] != SRC_NONE;
}

/* The workload kind and every field of either kind (sweeps/workload.h),
 * and sms: flash-attn-2 takes its KV splits from the SM count, flashinfer
 * from sms x occupancy. */
static uint64_t workload_fields(void)
{
    uint64_t m = BIT(PASCAL_P_SMS) | BIT(PASCAL_P_OCCUPANCY);
    for (int p = PASCAL_P_WORKLOAD; p <= PASCAL_P_WORKLOAD_LAST; p++)
        m |= BIT(p);
    /* a model step's own fields (sweeps/workload.c, spec_model_point) */
    for (int p = PASCAL_P_PHASE; p <= PASCAL_P_VOCAB; p++)
        m |= BIT(p);
    return m;
}

/* Step 3 of spec_point.c: what a derived value is computed from.  A
 * workload derives N and block_bytes from its fields (spec_workload_point),
 * and C then from capacity_bytes and that block_bytes. */
static uint64_t derived_from(const pascal_spec *spec, int param)
{
    int wl = is_set(spec, PASCAL_P_WORKLOAD);
    switch (param) {
    case PASCAL_P_N:
        return wl ? workload_fields() : BIT(PASCAL_P_DATA_BYTES) | BIT(PASCAL_P_BLOCK_BYTES);
    case PASCAL_P_BLOCK_BYTES:
        return wl ? workload_fields() : 0;
    case PASCAL_P_C:
        return BIT(PASCAL_P_CAPACITY_BYTES) | BIT(PASCAL_P_BLOCK_BYTES);
    case PASCAL_P_M:
        /* The explicit pattern's M is its list's length. */
        return BIT(PASCAL_P_SMS) | BIT(PASCAL_P_OCCUPANCY) |
               (is_set(spec, PASCAL_P_PHASES) ? BIT(PASCAL_P_PATTERN) | BIT(PASCAL_P_PHASES) : 0);
    default:
        return 0;
    }
}

uint64_t pascal_spec_param_deps(const pascal_spec *spec, uint64_t params)
{
    static const int derivable[] = {PASCAL_P_N, PASCAL_P_M, PASCAL_P_C, PASCAL_P_BLOCK_BYTES};
    uint64_t out = params, before;
    /* To a fixed point: C comes from block_bytes, which a workload derives. */
    do {
        before = out;
        for (int k = 0; k < 4; k++)
            if ((out & BIT(derivable[k])) && !is_set(spec, derivable[k]))
                out |= derived_from(spec, derivable[k]);
        /* A device axis gives each point its profile's sms and capacity. */
        for (int p = 0; p < 2 && spec->ndevices; p++) {
            int param = p ? PASCAL_P_CAPACITY_BYTES : PASCAL_P_SMS;
            if ((out & BIT(param)) && spec->source[param] == SRC_DEVICE)
                out |= BIT(PASCAL_P_DEVICE);
        }
    } while (out != before);
    return out;
}

/* What the device's limits check reads (spec_point.c, infeasible). */
static uint64_t limit_params(const pascal_spec *spec)
{
    int any = 0;
    for (int j = 0; j < PASCAL_NLIMITS; j++)
        any |= !isnan(spec->limit[j]);
    for (int k = 0; k < spec->ndevices; k++)
        for (int j = 0; j < PASCAL_NLIMITS; j++)
            any |= !isnan(spec->devices[k].limit[j]);
    if (!any)
        return 0;
    /* On a device axis each point has its profile's limits. */
    uint64_t m = BIT(PASCAL_P_OCCUPANCY) | BIT(PASCAL_P_SMS) | BIT(PASCAL_P_M) |
                 BIT(PASCAL_P_DEPTH) | BIT(PASCAL_P_PATH) | BIT(PASCAL_P_BLOCK_BYTES) |
                 BIT(PASCAL_P_THREADS) |
                 (spec->ndevices ? BIT(PASCAL_P_DEVICE) : 0);
    return is_set(spec, PASCAL_P_WORKLOAD) || spec->step ? m | workload_fields() : m;
}

uint64_t pascal_spec_where_deps(const pascal_spec *spec)
{
    uint64_t m = 0;
    for (int k = 0; k < spec->nwhere; k++)
        m |= pascal_expr_params(spec->where[k].expr);
    /* `infeasible: skip` drops points as `where` does. */
    if (spec->infeasible_skip)
        m |= limit_params(spec);
    return pascal_spec_param_deps(spec, m);
}

int pascal_spec_check_deps(const pascal_spec *spec, uint64_t *masks, int max)
{
    uint64_t list = BIT(PASCAL_P_PATTERN) | BIT(PASCAL_P_PHASES) | BIT(PASCAL_P_M) | BIT(PASCAL_P_N);
    int n = 0;
    if (max < 6)
        return 0;
    masks[n++] = pascal_spec_param_deps(spec, BIT(PASCAL_P_N));
    masks[n++] = pascal_spec_param_deps(spec, BIT(PASCAL_P_C));
    masks[n++] = pascal_spec_param_deps(spec, BIT(PASCAL_P_M));
    if (is_set(spec, PASCAL_P_PHASES))
        masks[n++] = pascal_spec_param_deps(spec, list);
    /* A workload's shape is refused, or its waves bounded, from its fields
     * and the models (spec_workload_point). */
    if (is_set(spec, PASCAL_P_WORKLOAD) || spec->step)
        masks[n++] = pascal_spec_param_deps(spec, workload_fields());
    if (limit_params(spec) && !spec->infeasible_skip)
        masks[n++] = pascal_spec_param_deps(spec, limit_params(spec));
    for (int k = 0; k < spec->nrequire; k++) {
        uint64_t d = pascal_spec_param_deps(spec, pascal_expr_params(spec->require[k].expr));
        /* More rules than slots: the last slot takes the union (a superset
         * of a check's parameters is still sound). */
        if (n < max)
            masks[n++] = d;
        else
            masks[max - 1] |= d;
    }
    return n;
}

/* The parameter whose mark locates a message about `param`: itself when it
 * is given; for a derived N, M or C, what it comes from, an axis first. */
static int mark_param(const pascal_spec *spec, int param)
{
    uint64_t from;
    int first = -1;
    if (is_set(spec, param))
        return param;
    from = derived_from(spec, param);
    for (int p = 0; p < PASCAL_NPARAM; p++) {
        if (!(from & BIT(p)) || !is_set(spec, p))
            continue;
        if (spec->source[p] == SRC_AXIS)
            return p;
        if (first < 0)
            first = p;
    }
    return first >= 0 ? first : param;
}

int pascal_spec_point_error(const pascal_spec *spec, int param, const pascal_point *p,
                            uint64_t i, uint64_t extra, pascal_error *err, const char *fmt, ...)
{
    char msg[PASCAL_ERROR_MAX], where[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    spec_describe_point(spec, p->v, i, extra, where, sizeof where);
    return yml_fail_mark(err, &spec->src[mark_param(spec, param)], PASCAL_EINPUT, "%s at %s", msg, where);
}

int pascal_spec_where_error(const pascal_spec *spec, pascal_error *err, const char *fmt, ...)
{
    char msg[PASCAL_ERROR_MAX];
    yml_mark top = {spec->filename, 1, 1, "where"};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return yml_fail_mark(err, spec->nwhere ? &spec->where[0].mark : &top, PASCAL_EINPUT, "%s", msg);
}
