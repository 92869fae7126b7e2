/* The sizing table made exact: the spec stored in the file is parsed again
 * and each scenario of the table is searched by bisection on whole blocks
 * (engine/size.h, through the caller's pascal_report_sizer) for every random draw (the averaged axes), the table's
 * answer being the draw that needs the most capacity, just as the grid's
 * column takes the worst draw at each swept capacity.  Each draw costs one
 * phase vector and about log2(C range) capacity queries.
 *
 * The file alone cannot always be re-evaluated: the spec may not parse here
 * (a device profile or calibration file that is not at hand), the file may
 * be sampled (its rows are draws, not grid positions), the metric may lack
 * a monotonicity in C or come from a replay model (too slow to redo), or a
 * rule may read the capacity; or the program gave no sizer.  Then the
 * table keeps the swept capacities and the page says why. */
#include "report/report_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweeps/search.h"
#include "sweeps/spec.h"

#define MAX_SEARCHES 2000000   /* draws x scenarios re-evaluated, at most */

struct rp_exact {
    pascal_spec *spec;
    const pascal_report_sizer *sizer;
    void *searcher;
    int spec_axis[RP_MAX_AXES];   /* file axis -> spec axis */
    int64_t combos;               /* draws per scenario (product of the other axes) */
    uint64_t stride[PASCAL_NPARAM];
    int file_cap;
};

void pascal_report_exact_free(rp_exact *x)
{
    if (!x)
        return;
    if (x->searcher)
        x->sizer->close(x->searcher);
    pascal_spec_free(x->spec);
    free(x);
}

static int parse_spec(const rp_file *f, rp_exact *x, char *note, size_t len)
{
    const char *text = pascal_report_attr(f, "spec"), *path = pascal_report_attr(f, "spec_path");
    pascal_error err = {0};
    if (pascal_report_attr(f, "sample_method")) {
        snprintf(note, len, "a sampled file: its rows are draws, not positions of a grid to search");
        return -1;
    }
    if (!text || pascal_spec_parse(text, strlen(text), path, &x->spec, &err) != 0) {
        snprintf(note, len, "the file's spec does not parse here: %s", text ? err.msg : "no spec attribute");
        return -1;
    }
    return 0;
}

static int choose_target(const rp_plan *p, rp_exact *x, char *note, size_t len)
{
    int col = pascal_column_from_name(p->cols[p->metric].name), model;
    const pascal_monotone_info *m = col >= 0 ? pascal_search_monotone_of(col) : NULL;
    if (!m || m->direction != PASCAL_MONO_DOWN) {
        snprintf(note, len, "%s is not monotone in C (%s)", p->cols[p->metric].name, m ? m->why : "not stated");
        return -1;
    }
    model = pascal_columns[col].model;
    if (model == PASCAL_MODEL_LRU_REPLAY || model == PASCAL_MODEL_BELADY) {
        snprintf(note, len, "%s replays traces: too slow to redo for every scenario and draw", p->cols[p->metric].name);
        return -1;
    }
    x->searcher = x->sizer->open(x->spec, col, p->target, note, len);
    return x->searcher ? 0 : -1;
}

/* File axes are the spec's axes, by name, in the same listed order. */
static int map_axes(const rp_file *f, const rp_sizing_view *v, rp_exact *x, char *note, size_t len)
{
    const pascal_spec *spec = x->spec;
    int cap = pascal_search_capacity_axis(spec);
    x->combos = 1;
    for (int i = 0; i < f->naxes; i++) {
        x->spec_axis[i] = -1;
        for (int a = 0; a < pascal_spec_naxes(spec); a++)
            if (strcmp(pascal_params[pascal_spec_axis(spec, a)->param].name, f->axes[i].name) == 0 &&
                pascal_spec_axis(spec, a)->count == f->axes[i].count)
                x->spec_axis[i] = a;
        if (x->spec_axis[i] < 0) {
            snprintf(note, len, "axis %s of the file is not an axis of its spec", f->axes[i].name);
            return -1;
        }
        if (i != v->cap && !v->in_scenario[i])
            x->combos *= f->axes[i].count;
    }
    if (x->spec_axis[v->cap] != cap) {
        snprintf(note, len, "the table's capacity axis is not the one a search varies");
        return -1;
    }
    for (int d = 0; d < pascal_spec_ndims(spec); d++) {
        x->stride[d] = 1;
        for (int e = d + 1; e < pascal_spec_ndims(spec); e++)
            x->stride[d] *= (uint64_t)pascal_spec_dim_size(spec, e);
    }
    x->file_cap = v->cap;
    return 0;
}

int pascal_report_exact_open(const rp_file *f, const rp_plan *p, const rp_sizing_view *v, int64_t nscen,
                             const pascal_report_sizer *sizer, rp_exact **out, char *note, size_t len)
{
    rp_exact *x;
    *out = NULL;
    if (!sizer) {
        snprintf(note, len, "this program gave the report no model to search with");
        return -1;
    }
    if (!(x = calloc(1, sizeof *x))) {
        snprintf(note, len, "out of memory");
        return -1;
    }
    x->sizer = sizer;
    if (parse_spec(f, x, note, len) || choose_target(p, x, note, len) || map_axes(f, v, x, note, len)) {
        pascal_report_exact_free(x);
        return -1;
    }
    if ((double)x->combos * (double)nscen > MAX_SEARCHES) {
        snprintf(note, len, "%lld scenarios x %lld draws is more than the %d searches the report redoes",
                 (long long)nscen, (long long)x->combos, MAX_SEARCHES);
        pascal_report_exact_free(x);
        return -1;
    }
    *out = x;
    return 0;
}

/* More capacity (bytes when known, else blocks); no answer beats all. */
static int needs_more(const rp_exact_result *a, const rp_exact_result *b)
{
    if ((a->C < 0) != (b->C < 0))
        return a->C < 0;
    if (a->C < 0)
        return 0;
    if (!isnan(a->bytes) && !isnan(b->bytes))
        return a->bytes > b->bytes;
    return a->C > b->C;
}

/* idx holds the listed index of every scenario axis; the other axes are
 * walked (mixed radix), the capacity held at its first value. */
int pascal_report_exact_scenario(rp_exact *x, const rp_file *f, const rp_sizing_view *v, int64_t *idx,
                                 rp_exact_result *best)
{
    int have = 0;
    for (int64_t c = 0; c < x->combos; c++) {
        int64_t r = c;
        uint64_t raw = 0;
        rp_exact_result res;
        int rc;
        for (int i = f->naxes - 1; i >= 0; i--)
            if (i == v->cap)
                idx[i] = 0;
            else if (!v->in_scenario[i]) {
                idx[i] = r % f->axes[i].count;
                r /= f->axes[i].count;
            }
        unsigned char seen[PASCAL_NPARAM] = {0};
        for (int i = 0; i < f->naxes; i++) {
            int dim = pascal_spec_axis(x->spec, x->spec_axis[i])->dim;
            if (!seen[dim]++)   /* zip members share a dimension and, in a row, an index */
                raw += (uint64_t)idx[i] * x->stride[dim];
        }
        if ((rc = x->sizer->at(x->searcher, raw, &res.C, &res.bytes, &res.value)) < 0)
            return -1;
        if (rc == 0)
            continue;
        if (!have || needs_more(&res, best))
            *best = res, have = 1;
    }
    return have ? 1 : 0;
}
