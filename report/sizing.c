/* The sizing table: for each scenario (one value of every swept axis but the
 * capacity and the random draws), the smallest swept capacity whose miss rate
 * is at or below the target.  The miss rate at a capacity is the worst over
 * the scenario's rows there (every random draw); a row where the model is
 * undefined (NaN) counts as not meeting the target.  Also the Theorem 5
 * capacity 2 sigma - 1 (C_share, or 2 lead - 1) where the file knows sigma.
 * Every row of the file is used, not the plotted sample.  Scenarios are kept
 * in the order they first appear, up to RP_MAX_SCENARIOS. */
#include "report/report_internal.h"

#include "sweeps/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rp_sizing {
    int naxes;                 /* scenario axes */
    int ax[RP_MAX_AXES];       /* their file axis indices */
    int64_t radix[RP_MAX_AXES]; /* their value counts */
    int cap;                   /* file axis index of the capacity */
    int64_t ncap;
    int64_t max_slots, nslots;
    int more;                  /* a scenario past max_slots was seen */
    int64_t hsize;             /* hash table size, a power of two */
    int64_t *hslot;            /* slot or -1 */
    uint64_t *key;             /* per slot: mixed-radix scenario id */
    double *worst;             /* slots x ncap: NaN no row, +inf undefined */
    double *blocks;            /* slots x ncap: C there */
    double *cshare;            /* per slot: Theorem 5 capacity, NaN unknown */
    /* The exact answers (sizing_exact.c), when exact is set. */
    int exact;
    char note[PASCAL_ERROR_MAX];   /* why not */
    double *exact_C, *exact_bytes, *exact_value; /* per slot; NaN: none */
};

void pascal_report_sizing_free(rp_sizing *s)
{
    if (!s)
        return;
    free(s->hslot);
    free(s->key);
    free(s->worst);
    free(s->blocks);
    free(s->cshare);
    free(s->exact_C);
    free(s->exact_bytes);
    free(s->exact_value);
    free(s);
}

static int alloc_tables(rp_sizing *s)
{
    size_t cells = (size_t)(s->max_slots * s->ncap);
    s->hsize = 1;
    while (s->hsize < 2 * s->max_slots)
        s->hsize *= 2;
    s->hslot = malloc((size_t)s->hsize * sizeof *s->hslot);
    s->key = malloc((size_t)s->max_slots * sizeof *s->key);
    s->worst = malloc(cells * sizeof *s->worst);
    s->blocks = malloc(cells * sizeof *s->blocks);
    s->cshare = malloc((size_t)s->max_slots * sizeof *s->cshare);
    if (!s->hslot || !s->key || !s->worst || !s->blocks || !s->cshare)
        return -1;
    for (int64_t i = 0; i < s->hsize; i++)
        s->hslot[i] = -1;
    for (size_t i = 0; i < cells; i++)
        s->worst[i] = s->blocks[i] = NAN;
    for (int64_t i = 0; i < s->max_slots; i++)
        s->cshare[i] = NAN;
    return 0;
}

int pascal_report_sizing_create(const rp_file *f, const rp_plan *p, rp_sizing **out,
                                pascal_error *err)
{
    rp_sizing *s;
    double ids = 1;
    *out = NULL;
    if (p->cap_axis < 0 || p->cap_proxy || p->metric < 0)
        return 0;
    if (!(s = calloc(1, sizeof *s)))
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    s->cap = p->cap_axis;
    s->ncap = f->axes[s->cap].count;
    for (int i = 0; i < f->naxes; i++)
        if (i != s->cap && f->axes[i].role == RP_DIM && f->axes[i].count > 1) {
            s->radix[s->naxes] = f->axes[i].count;
            s->ax[s->naxes++] = i;
            ids *= (double)f->axes[i].count;
        }
    if (ids > 1e18) { /* scenario ids would not fit 64 bits */
        pascal_report_sizing_free(s);
        return 0;
    }
    s->max_slots = RP_SCENARIO_CELLS / s->ncap;
    if (s->max_slots > RP_MAX_SCENARIOS)
        s->max_slots = RP_MAX_SCENARIOS;
    if (s->max_slots < 1)
        s->max_slots = 1;
    if (alloc_tables(s) != 0) {
        pascal_report_sizing_free(s);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    }
    *out = s;
    return 0;
}

/* Slot of scenario id, created on first sight; -1 when the table is full. */
static int64_t slot_of(rp_sizing *s, uint64_t id)
{
    uint64_t h = id * 0x9E3779B97F4A7C15ull;
    for (int64_t i = (int64_t)(h >> 20) & (s->hsize - 1);; i = (i + 1) & (s->hsize - 1)) {
        int64_t k = s->hslot[i];
        if (k >= 0 && s->key[k] == id)
            return k;
        if (k < 0) {
            if (s->nslots >= s->max_slots) {
                s->more = 1;
                return -1;
            }
            s->key[s->nslots] = id;
            s->hslot[i] = s->nslots;
            return s->nslots++;
        }
    }
}

void pascal_report_sizing_add(rp_sizing *s, const int64_t *idx, double metric, double cshare,
                              double blocks)
{
    uint64_t id = 0;
    int64_t k, at;
    double *w;
    for (int j = 0; j < s->naxes; j++) /* mixed radix over the scenario axes */
        id = id * (uint64_t)s->radix[j] + (uint64_t)idx[s->ax[j]];
    if ((k = slot_of(s, id)) < 0)
        return;
    at = k * s->ncap + idx[s->cap];
    w = &s->worst[at];
    if (isnan(metric))
        *w = INFINITY;
    else if (isnan(*w) || metric > *w)
        *w = metric;
    if (!isnan(blocks))
        s->blocks[at] = blocks;
    if (!isnan(cshare) && (isnan(s->cshare[k]) || cshare > s->cshare[k]))
        s->cshare[k] = cshare;
}

int64_t pascal_report_sizing_rows(const rp_sizing *s)
{
    return s ? s->nslots : 0;
}

/* One table row: [[scenario values], capacity, blocks, worst at the largest
 * capacity, Theorem 5 capacity]. */
static void row_json(const rp_sizing *s, const rp_file *f, const rp_plan *p, int64_t k, FILE *o)
{
    const rp_axis *cap = &f->axes[s->cap];
    uint64_t id = s->key[k];
    int64_t idx[RP_MAX_AXES], found = -1, largest = -1;
    for (int j = s->naxes - 1; j >= 0; j--) {
        idx[j] = (int64_t)(id % (uint64_t)s->radix[j]);
        id /= (uint64_t)s->radix[j];
    }
    fprintf(o, "[[");
    for (int j = 0; j < s->naxes; j++) {
        const rp_axis *a = &f->axes[s->ax[j]];
        fprintf(o, j ? "," : "");
        if (a->labels)
            pascal_report_json_str(o, a->labels[idx[j]]);
        else
            pascal_report_json_num(o, a->values[idx[j]], 17);
    }
    fprintf(o, "],");
    for (int64_t r = 0; r < cap->count; r++) { /* ascending capacity */
        int64_t c = cap->order[r];
        double w = s->worst[k * s->ncap + c];
        if (isnan(w))
            continue;
        largest = c;
        if (found < 0 && w <= p->target)
            found = c;
    }
    pascal_report_json_num(o, found >= 0 ? cap->values[found] : NAN, 17);
    fprintf(o, ",");
    pascal_report_json_num(o, found >= 0 ? s->blocks[k * s->ncap + found] : NAN, 17);
    fprintf(o, ",");
    if (largest >= 0 && isinf(s->worst[k * s->ncap + largest]))
        fprintf(o, "\"undefined\"");
    else
        pascal_report_json_num(o, largest >= 0 ? s->worst[k * s->ncap + largest] : NAN, 6);
    fprintf(o, ",");
    pascal_report_json_num(o, s->cshare[k], 17);
    if (s->exact) { /* [5..7]: exact C (blocks), its bytes, the metric there */
        fprintf(o, ",");
        pascal_report_json_num(o, s->exact_C[k], 17);
        fprintf(o, ",");
        pascal_report_json_num(o, s->exact_bytes[k], 17);
        fprintf(o, ",");
        pascal_report_json_num(o, s->exact_value[k], 6);
    }
    fprintf(o, "]");
}

void pascal_report_sizing_json(const rp_sizing *s, const rp_file *f, const rp_plan *p, FILE *o)
{
    int cshare = 0;
    fprintf(o, "{\"metric\":");
    pascal_report_json_str(o, p->cols[p->metric].name);
    fprintf(o, ",\"target\":");
    pascal_report_json_num(o, p->target, 17);
    fprintf(o, ",\"cap_axis\":");
    pascal_report_json_str(o, f->axes[s->cap].name);
    fprintf(o, ",\"axes\":[");
    for (int j = 0; j < s->naxes; j++) {
        fprintf(o, j ? "," : "");
        pascal_report_json_str(o, f->axes[s->ax[j]].name);
    }
    /* Workload terms: each scenario axis as an architect says it ("context
     * length"), and what the target means for a traffic ratio. */
    fprintf(o, "],\"axis_words\":[");
    for (int j = 0; j < s->naxes; j++) {
        const char *w = pascal_workload_phrase(pascal_param_from_name(f->axes[s->ax[j]].name));
        fprintf(o, j ? "," : "");
        pascal_report_json_str(o, w ? w : f->axes[s->ax[j]].name);
    }
    fprintf(o, "],\"traffic\":%s",
            pascal_report_is_traffic(p->cols[p->metric].name) ? "true" : "false");
    fprintf(o, ",\"averaged\":[");
    for (int i = 0, n = 0; i < f->naxes; i++)
        if (f->axes[i].role == RP_AGG) {
            fprintf(o, n++ ? "," : "");
            pascal_report_json_str(o, f->axes[i].name);
        }
    fprintf(o, "],\"rows\":[");
    for (int64_t k = 0; k < s->nslots; k++) {
        fprintf(o, k ? ",\n" : "");
        row_json(s, f, p, k, o);
        cshare |= !isnan(s->cshare[k]);
    }
    fprintf(o, "],\"more\":%s,\"has_cshare\":%s,\"exact\":%s,\"exact_note\":", s->more ? "true" : "false",
            cshare ? "true" : "false", s->exact ? "true" : "false");
    pascal_report_json_str(o, s->note);
    fprintf(o, "}");
}

/* Per slot, the draw that needs the most capacity, by bisection; the grid
 * column stays beside it. */
void pascal_report_sizing_exact(rp_sizing *s, const rp_file *f, const rp_plan *p,
                                const pascal_report_sizer *sizer)
{
    rp_sizing_view v = {s->cap, {0}};
    rp_exact *x = NULL;
    int64_t idx[RP_MAX_AXES];
    for (int j = 0; j < s->naxes; j++)
        v.in_scenario[s->ax[j]] = 1;
    if (pascal_report_exact_open(f, p, &v, s->nslots, sizer, &x, s->note, sizeof s->note) != 0)
        return;
    s->exact_C = malloc((size_t)(s->nslots ? s->nslots : 1) * sizeof *s->exact_C);
    s->exact_bytes = malloc((size_t)(s->nslots ? s->nslots : 1) * sizeof *s->exact_bytes);
    s->exact_value = malloc((size_t)(s->nslots ? s->nslots : 1) * sizeof *s->exact_value);
    s->exact = s->exact_C && s->exact_bytes && s->exact_value;
    for (int64_t k = 0; k < s->nslots && s->exact; k++) {
        rp_exact_result r;
        uint64_t id = s->key[k];
        int rc;
        for (int j = s->naxes - 1; j >= 0; j--) {
            idx[s->ax[j]] = (int64_t)(id % (uint64_t)s->radix[j]);
            id /= (uint64_t)s->radix[j];
        }
        rc = pascal_report_exact_scenario(x, f, &v, idx, &r);
        if (rc < 0) {
            s->exact = 0;
            snprintf(s->note, sizeof s->note, "a scenario could not be evaluated");
        }
        s->exact_C[k] = rc == 1 && r.C >= 0 ? (double)r.C : NAN;
        s->exact_bytes[k] = rc == 1 && r.C >= 0 ? r.bytes : NAN;
        s->exact_value[k] = rc == 1 ? r.value : NAN;
    }
    pascal_report_exact_free(x);
}
