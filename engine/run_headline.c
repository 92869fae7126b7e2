/* The run summary's headline (see run.h, pascal_run_stats): the range of
 * one metric, with the points of its extremes, and for a capacity sweep the
 * smallest swept capacity meeting the target per group.  The exact sizing
 * beside it is engine/run_sizing.c. */
#include "engine/run_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/run_sizing.h"
#include "sweeps/sample.h"

double pascal_run_default_target(int metric)
{
    return metric >= 0 && pascal_columns[metric].model == PASCAL_MODEL_TRAFFIC ? 1.2 : 0.05;
}

static uint64_t dim_stride(const pascal_spec *spec, int dim)
{
    uint64_t stride = 1;
    for (int d = dim + 1; d < pascal_spec_ndims(spec); d++)
        stride *= (uint64_t)pascal_spec_dim_size(spec, d);
    return stride;
}

int pascal_run_find_axis(const pascal_spec *spec, int p1, int p2, int64_t min, int64_t max)
{
    for (int a = 0; a < pascal_spec_naxes(spec); a++) {
        const pascal_axis *ax = pascal_spec_axis(spec, a);
        if ((ax->param == p1 || ax->param == p2) && ax->count >= min && ax->count <= max &&
            !pascal_spec_axis_sampled(spec, a)) /* a drawn axis has no grid position */
            return a;
    }
    return -1;
}

void pascal_run_headline_init(headline *h, const pascal_spec *spec, pascal_run_stats *st)
{
    /* A workload sweep is about its DRAM traffic against the ideal (the
     * exact kernel replay when asked for); a dynamic sweep about rho_dyn; a
     * static one about its most exact miss rate. */
    static const int prefer[] = {PASCAL_COL_ANSWER_TRAFFIC, PASCAL_COL_TRAFFIC_REPLAY, PASCAL_COL_TRAFFIC_LRU,
                                 PASCAL_COL_TRAFFIC_TTL, PASCAL_COL_TRAFFIC_DYN,
                                 PASCAL_COL_RHO_DYN, PASCAL_COL_RHO_LRU, PASCAL_COL_RHO_TTL,
                                 PASCAL_COL_RHO_SDCM, PASCAL_COL_RHO_BOUND, PASCAL_COL_RHO_CHE,
                                 PASCAL_COL_RHO_SIM};
    const int *cols = pascal_spec_columns(spec);
    unsigned models = pascal_spec_models(spec);
    size_t n;
    memset(h, 0, sizeof *h);
    h->slot = -1;
    h->band_slot = -1;
    for (size_t k = 0; k < sizeof prefer / sizeof prefer[0] && h->slot < 0; k++) {
        /* The replay and dynamic traffic columns are NaN without their models. */
        if ((prefer[k] == PASCAL_COL_TRAFFIC_REPLAY && !(models >> PASCAL_MODEL_LRU_REPLAY & 1u)) ||
            (prefer[k] == PASCAL_COL_TRAFFIC_DYN && !(models >> PASCAL_MODEL_DYNAMIC & 1u)))
            continue;
        for (int j = 0; j < pascal_spec_ncolumns(spec) && h->slot < 0; j++)
            if (cols[j] == prefer[k])
                h->slot = j;
    }
    st->metric = h->slot >= 0 ? cols[h->slot] : -1;
    st->min = st->max = NAN;
    /* The answer's band, sized beside it where the simulator answers. */
    for (int j = 0; st->metric == PASCAL_COL_ANSWER_TRAFFIC &&
                    pascal_answer_of_models(models) == PASCAL_ANSWER_SIMULATE &&
                    j < pascal_spec_ncolumns(spec); j++)
        if (cols[j] == PASCAL_COL_ANSWER_TRAFFIC_HI)
            h->band_slot = j;
    st->band = 0;
    h->cap_axis = h->slot >= 0
                      ? pascal_run_find_axis(spec, PASCAL_P_C, PASCAL_P_CAPACITY_BYTES, 2, 1 << 20)
                      : -1;
    /* A workload's traffic is sized per device of a device axis ("device
     * h200 needs ..."), else per value of its first swept workload field
     * ("context length 64k needs ..."), worst over the patterns; otherwise
     * per pattern. */
    h->group_axis = -1;
    /* A device axis first: the question is then what each chip needs. */
    if (st->metric >= 0 && pascal_columns[st->metric].model == PASCAL_MODEL_TRAFFIC)
        h->group_axis = pascal_run_find_axis(spec, PASCAL_P_DEVICE, PASCAL_P_DEVICE, 2,
                                             PASCAL_RUN_MAX_GROUPS);
    /* A model step's decode and prefill next: each asks its own question. */
    if (h->group_axis < 0 && st->metric >= 0 && pascal_columns[st->metric].model == PASCAL_MODEL_TRAFFIC)
        h->group_axis = pascal_run_find_axis(spec, PASCAL_P_PHASE, PASCAL_P_PHASE, 2,
                                             PASCAL_RUN_MAX_GROUPS);
    for (int a = 0; h->group_axis < 0 && st->metric >= 0 &&
                    pascal_columns[st->metric].model == PASCAL_MODEL_TRAFFIC &&
                    a < pascal_spec_naxes(spec); a++) {
        const pascal_axis *ax = pascal_spec_axis(spec, a);
        if (ax->param > PASCAL_P_WORKLOAD && ax->param <= PASCAL_P_WORKLOAD_LAST && ax->count >= 2 &&
            ax->count <= PASCAL_RUN_MAX_GROUPS && !pascal_spec_axis_sampled(spec, a))
            h->group_axis = a;
    }
    if (h->group_axis < 0)
        h->group_axis = pascal_run_find_axis(spec, PASCAL_P_PATTERN, PASCAL_P_PATTERN, 2,
                                             PASCAL_RUN_MAX_GROUPS);
    if (h->cap_axis < 0)
        return;
    h->cap_size = pascal_spec_axis(spec, h->cap_axis)->count;
    h->cap_stride = dim_stride(spec, pascal_spec_axis(spec, h->cap_axis)->dim);
    h->ngroups = h->group_axis >= 0 ? pascal_spec_axis(spec, h->group_axis)->count : 1;
    if (h->group_axis >= 0)
        h->group_stride = dim_stride(spec, pascal_spec_axis(spec, h->group_axis)->dim);
    n = (size_t)(h->ngroups * h->cap_size) * (h->band_slot >= 0 ? 2 : 1);
    h->worst = malloc(n * sizeof *h->worst);
    h->worst_at = malloc(n * sizeof *h->worst_at);
    if (!h->worst || !h->worst_at) { /* the headline is optional: skip it */
        free(h->worst), free(h->worst_at);
        h->worst = NULL, h->worst_at = NULL, h->cap_axis = -1, h->band_slot = -1;
        return;
    }
    st->band = h->band_slot >= 0;
    for (size_t k = 0; k < n; k++)
        h->worst[k] = NAN;
}

static int64_t cell(const headline *h, uint64_t i)
{
    int64_t k = (int64_t)((i / h->cap_stride) % (uint64_t)h->cap_size);
    if (h->group_axis >= 0)
        k += h->cap_size * (int64_t)((i / h->group_stride) % (uint64_t)h->ngroups);
    return k;
}

/* Called in index order, so ties keep the first index on any thread count. */
void pascal_run_headline_add(headline *h, pascal_run_stats *st, uint64_t i, double v)
{
    if (isnan(v))
        return;
    if (isnan(st->min) || v < st->min)
        st->min = v, h->imin = i;
    if (isnan(st->max) || v > st->max)
        st->max = v, h->imax = i;
    if (h->cap_axis >= 0) {
        int64_t k = cell(h, i);
        if (isnan(h->worst[k]) || v > h->worst[k])
            h->worst[k] = v, h->worst_at[k] = i;
    }
}

void pascal_run_headline_add_band(headline *h, uint64_t i, double v)
{
    if (isnan(v) || h->cap_axis < 0 || h->band_slot < 0)
        return;
    int64_t k = cell(h, i) + h->ngroups * h->cap_size;
    if (isnan(h->worst[k]) || v > h->worst[k])
        h->worst[k] = v, h->worst_at[k] = i;
}

/* The smallest swept capacity from which every larger one with a value
 * meets the target: a column that rises with C somewhere (the simulator's)
 * is not sized below a capacity that misses it. *rises: 1 when a capacity
 * meets the target below one that misses it. */
static int64_t smallest_from(const double *caps, const double *worst, int64_t n, double target,
                             int *rises)
{
    double miss = -INFINITY;
    int64_t best = -1;
    for (int64_t k = 0; k < n; k++)
        if (!isnan(worst[k]) && !(worst[k] <= target) && caps[k] > miss)
            miss = caps[k];
    *rises = 0;
    for (int64_t k = 0; k < n; k++) {
        if (isnan(worst[k]) || !(worst[k] <= target))
            continue;
        if (caps[k] < miss)
            *rises = 1;
        else if (best < 0 || caps[k] < caps[best])
            best = k;
    }
    return best;
}

static void sizing_finish(const headline *h, const pascal_spec *spec, int64_t g,
                          double target, pascal_run_sizing *out)
{
    const double *caps = pascal_spec_axis(spec, h->cap_axis)->values;
    const double *worst = h->worst + g * h->cap_size;
    int64_t best = smallest_from(caps, worst, h->cap_size, target, &out->rises), last = -1;
    for (int64_t k = 0; k < h->cap_size; k++)
        if (!isnan(worst[k]) && (last < 0 || caps[k] > caps[last]))
            last = k;
    out->group_value = h->group_axis >= 0 ? pascal_spec_axis(spec, h->group_axis)->values[g] : NAN;
    out->cap_value = best >= 0 ? caps[best] : NAN;
    out->cap_worst = last >= 0 ? worst[last] : NAN;
    if (last >= 0)
        pascal_spec_point(spec, h->worst_at[g * h->cap_size + last], &out->at_cap_worst, NULL);
    out->band_cap_value = out->band_cap_worst = NAN;
    if (h->band_slot >= 0) {
        const double *band = worst + h->ngroups * h->cap_size;
        int rises;
        best = smallest_from(caps, band, h->cap_size, target, &rises);
        out->band_cap_value = best >= 0 ? caps[best] : NAN;
        out->band_cap_worst = last >= 0 ? band[last] : NAN;
    }
}

void pascal_run_headline_finish(headline *h, const pascal_spec *spec, pascal_run_stats *st,
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
    if (h->z)
        run_sizing_finish(h->z, spec, st);
    run_sizing_free(h->z);
    h->z = NULL;
    free(h->worst);
    free(h->worst_at);
}
