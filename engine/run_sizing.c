/* The run summary's exact sizing; see run_sizing.h. */
#include "engine/run_sizing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "engine/parallel.h"
#include "engine/size.h"

#define RANGE_BATCH 4096

struct run_sizing {
    const pascal_spec *spec;
    pascal_target target;
    uint64_t cap_stride, group_stride;
    int64_t cap_size, ngroups;
    int group_axis;
    int64_t nslots;
    pascal_size_result *slot;   /* per batch slot: the search of its scenario */
    unsigned char *searched;    /* per slot: 1 when slot[] holds a search */
    run_sizing_best best[PASCAL_RUN_MAX_GROUPS];
};

void run_sizing_free(run_sizing *z)
{
    if (!z)
        return;
    free(z->slot);
    free(z->searched);
    free(z);
}

double run_sizing_bytes(int64_t batch)
{
    return (double)sizeof(run_sizing) + (double)batch * (sizeof(pascal_size_result) + 1.0);
}

/* The target: the spec's search: section, else the headline's. */
static int choose_target(const pascal_spec *spec, double target, pascal_run_stats *st, pascal_target *t)
{
    const pascal_search *s = pascal_spec_search(spec);
    const pascal_monotone_info *m;
    if (s) {
        *t = s->target;
        return 0;
    }
    if (st->metric < 0)
        return -1;
    *t = (pascal_target){st->metric, PASCAL_TARGET_LE, target};
    m = pascal_search_monotone_of(st->metric);
    if (!m || m->direction != PASCAL_MONO_DOWN) {
        snprintf(st->sizing_note, sizeof st->sizing_note, "%s is not monotone in C (%s)",
                 pascal_columns[st->metric].name, m ? m->why : "not stated");
        return -1;
    }
    return 0;
}

run_sizing *run_sizing_create(const pascal_spec *spec, double target, int cap_axis, uint64_t cap_stride,
                              int64_t cap_size, int group_axis, uint64_t group_stride, int64_t ngroups,
                              int64_t batch, pascal_run_stats *st)
{
    pascal_error err = {0};
    pascal_target t;
    run_sizing *z;
    st->sizing_exact = 0;
    if (cap_axis < 0 || choose_target(spec, target, st, &t) != 0)
        return NULL;
    st->sizing_target = t;
    /* A probed column (the simulator's) takes a score of simulations per
     * scenario: `pascal size` searches it, the summary sizes on the grid. */
    if (pascal_search_probed(t.column, pascal_spec_models(spec))) {
        snprintf(st->sizing_note, sizeof st->sizing_note, "%s is the simulator's, not shown monotone "
                 "in C: pascal size probes it", pascal_columns[t.column].name);
        return NULL;
    }
    if (cap_axis != pascal_search_capacity_axis(spec) || pascal_search_check(spec, &t, &err) != 0) {
        snprintf(st->sizing_note, sizeof st->sizing_note, "%s",
                 err.msg[0] ? err.msg : "the sweep has both a C and a capacity_bytes axis");
        return NULL;
    }
    if (!(z = calloc(1, sizeof *z)) || !(z->slot = malloc((size_t)batch * sizeof *z->slot)) ||
        !(z->searched = calloc((size_t)batch, 1))) {
        run_sizing_free(z);   /* optional, like the headline: skip it */
        snprintf(st->sizing_note, sizeof st->sizing_note, "out of memory");
        return NULL;
    }
    z->spec = spec;
    z->target = t;
    z->cap_stride = cap_stride, z->cap_size = cap_size;
    z->group_axis = group_axis, z->group_stride = group_stride, z->ngroups = ngroups;
    z->nslots = batch;
    return z;
}

static int first_row(const run_sizing *z, uint64_t i)
{
    return (i / z->cap_stride) % (uint64_t)z->cap_size == 0;
}

int run_sizing_search(run_sizing *z, pascal_eval *ev, uint64_t i, int64_t s, const pascal_point *p)
{
    int64_t lo, hi;
    z->searched[s] = 0;
    if (!first_row(z, i))
        return 0;
    pascal_size_range(z->spec, p, &lo, &hi);
    if (pascal_size_point(ev, p, &z->target, lo, hi, &z->slot[s]) != 0)
        return -1;
    z->slot[s].index = i;
    z->searched[s] = 1;
    return 0;
}

static void fold_result(run_sizing *z, uint64_t i, const pascal_size_result *r)
{
    int64_t g = z->group_axis >= 0 ? (int64_t)((i / z->group_stride) % (uint64_t)z->ngroups) : 0;
    run_sizing_best *b = &z->best[g];
    if (!b->have || pascal_size_needs_more(r, &b->r))
        b->r = *r, b->have = 1;
}

run_sizing_best *run_sizing_bests(run_sizing *z, int64_t *n)
{
    *n = z->ngroups < PASCAL_RUN_MAX_GROUPS ? z->ngroups : PASCAL_RUN_MAX_GROUPS;
    return z->best;
}

void run_sizing_pick(const run_sizing_best *from, run_sizing_best *into)
{
    if (!from->have)
        return;
    if (!into->have || pascal_size_needs_more(&from->r, &into->r) ||
        (!pascal_size_needs_more(&into->r, &from->r) && from->r.index < into->r.index))
        *into = *from;
}

void run_sizing_fold(run_sizing *z, uint64_t i, int64_t s)
{
    if (z->searched[s])
        fold_result(z, i, &z->slot[s]);
}

/* One parallel pass of run_sizing_range: scenarios [k0, k1) of the range. */
typedef struct range_team {
    run_sizing *z;
    const pascal_spec *spec;
    const struct pascal_dyn_model *dyn;
    uint64_t begin, end, first, step, k0, k1;
    pascal_size_result *res;
    unsigned char *keep;
    int failed;
} range_team;

static void range_body(void *ctx)
{
    range_team *t = ctx;
    const run_sizing *z = t->z;
    pascal_eval *ev = pascal_eval_create(pascal_spec_models(t->spec));
    if (ev) {
        pascal_eval_set_dynamic(ev, t->dyn);
        pascal_eval_set_dynamic_flags(ev, pascal_spec_extrapolation_nan(t->spec) ? PASCAL_DYN_NO_HOLD : 0);
    }
#pragma omp for schedule(dynamic, 16)
    for (uint64_t k = t->k0; k < t->k1; k++) {
        uint64_t i = t->first + k / z->cap_stride * t->step + k % z->cap_stride;
        pascal_size_result *r = &t->res[k - t->k0];
        pascal_point p;
        int64_t lo, hi;
        t->keep[k - t->k0] = i >= t->begin && i < t->end && pascal_spec_point(t->spec, i, &p, NULL) == 1;
        if (!t->keep[k - t->k0])
            continue;
        pascal_size_range(t->spec, &p, &lo, &hi);
        if (!ev || pascal_size_point(ev, &p, &z->target, lo, hi, r) != 0) {
#pragma omp atomic write
            t->failed = 1;
        }
        r->index = i;
    }
    pascal_eval_free(ev);
}

/* Scenario first rows of [begin, end), searched in parallel batches and
 * folded in index order. */
int run_sizing_range(run_sizing *z, const pascal_spec *spec, uint64_t begin, uint64_t end, int threads,
                     const struct pascal_dyn_model *dyn)
{
    range_team t = {.z = z, .spec = spec, .dyn = dyn, .begin = begin, .end = end};
    uint64_t nscen = 0;
    t.step = z->cap_stride * (uint64_t)z->cap_size;
    t.first = begin / t.step * t.step;
    t.res = malloc(RANGE_BATCH * sizeof *t.res);
    t.keep = malloc(RANGE_BATCH);
    if (!t.res || !t.keep) {
        free(t.res), free(t.keep);
        return -1;
    }
    /* Scenario k of the range: the block of `step` rows starting at first,
     * offset by k mod cap_stride (capacity digit 0). */
    if (end > t.first)
        nscen = (end - t.first + t.step - 1) / t.step * z->cap_stride;
    for (t.k0 = 0; t.k0 < nscen && !t.failed; t.k0 += RANGE_BATCH) {
        t.k1 = t.k0 + RANGE_BATCH < nscen ? t.k0 + RANGE_BATCH : nscen;
        pascal_parallel(threads, range_body, &t);
        for (uint64_t k = t.k0; k < t.k1 && !t.failed; k++)
            if (t.keep[k - t.k0])
                fold_result(z, t.res[k - t.k0].index, &t.res[k - t.k0]);
    }
    free(t.res), free(t.keep);
    return t.failed ? -1 : 0;
}

void run_sizing_finish(run_sizing *z, const pascal_spec *spec, pascal_run_stats *st)
{
    (void)spec;
    for (int64_t g = 0; g < z->ngroups && g < PASCAL_RUN_MAX_GROUPS; g++) {
        pascal_run_sizing *out = &st->sizing[g];
        const run_sizing_best *b = &z->best[g];
        out->exact_C = b->have ? b->r.C : -1;
        out->exact_bytes = b->have ? b->r.capacity_bytes : NAN;
        out->exact_value = b->have ? b->r.value : NAN;
        if (b->have)
            out->at_exact = b->r.point;
    }
    st->sizing_exact = 1;
}
