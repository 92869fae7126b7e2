/* The sizing table: for each scenario (one value of every swept axis but the
 * capacity and the random draws), the smallest swept capacity from which
 * every larger one has its miss rate at or below the target.  The miss rate at a capacity is the worst over
 * the scenario's rows there (every random draw); a row where the model is
 * undefined (NaN) counts as not meeting the target.  Also the Theorem 5
 * capacity 2 sigma - 1 (C_share, or 2 lead - 1) where the file knows sigma.
 * Every row of the file is used, not the plotted sample.  Scenarios are kept
 * in the order they first appear, up to RP_MAX_SCENARIOS.
 *
 * One table per metric the page's menu can show (the plan's metric first,
 * then the other miss rates and traffic ratios in column order), so the
 * table follows the menu; the scenarios, their capacities in blocks and
 * Theorem 5 are shared.  Each metric costs scenarios x capacities doubles:
 * metrics past what RP_SCENARIO_CELLS holds are not sized (the page names
 * them), but the plan's metric always keeps as many scenarios as it would
 * alone.
 *
 * Beside each answer, what it buys: the plan's costs (area_l2_mm2,
 * energy_j, time_bound_s, time_sim_s) at the required capacity, the worst
 * over the scenario's draws there (unknown when a draw's is).  Every table
 * shows them, so they are tracked before the other metrics, in the same
 * RP_SCENARIO_CELLS, and dropped (the page says so) only when they would
 * not fit beside the plan's metric. */
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
    int nmetrics;              /* sized metrics; [0] is the plan's */
    int metric[RP_MAX_SIZING_METRICS];    /* their plan columns */
    double target[RP_MAX_SIZING_METRICS];
    int defined[RP_MAX_SIZING_METRICS];   /* some row has a value */
    int nunsized;              /* menu metrics left out by the cell bound */
    int unsized[RP_MAX_COLUMNS];
    double *worst;             /* metrics x slots x ncap: NaN no row, +inf undefined */
    double *blocks;            /* slots x ncap: C there */
    double *cshare;            /* per slot: Theorem 5 capacity, NaN unknown */
    int ncosts;                /* tracked costs (plan columns) */
    int cost[RP_MAX_COSTS];
    int cost_defined[RP_MAX_COSTS];   /* some row has a value */
    int costs_dropped;         /* the plan had costs the cell bound left out */
    double *costv;             /* costs x slots x ncap: worst draw; NaN no row, +inf unknown */
    /* The exact answers (sizing_exact.c) for the plan's metric, when exact
     * is set: a search per scenario and draw is too costly to repeat for
     * every metric. */
    int exact;
    char note[PASCAL_ERROR_MAX];   /* why not */
    double *exact_C, *exact_bytes, *exact_value; /* per slot; NaN: none */
};

static double *worst_at(const rp_sizing *s, int m, int64_t k)
{
    return &s->worst[((size_t)m * (size_t)s->max_slots + (size_t)k) * (size_t)s->ncap];
}

static double *cost_at(const rp_sizing *s, int j, int64_t k)
{
    return &s->costv[((size_t)j * (size_t)s->max_slots + (size_t)k) * (size_t)s->ncap];
}

void pascal_report_sizing_free(rp_sizing *s)
{
    if (!s)
        return;
    free(s->hslot);
    free(s->key);
    free(s->worst);
    free(s->blocks);
    free(s->cshare);
    free(s->costv);
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
    s->worst = malloc(cells * (size_t)s->nmetrics * sizeof *s->worst);
    s->blocks = malloc(cells * sizeof *s->blocks);
    s->cshare = malloc((size_t)s->max_slots * sizeof *s->cshare);
    s->costv = malloc((cells * (size_t)s->ncosts + 1) * sizeof *s->costv);
    if (!s->hslot || !s->key || !s->worst || !s->blocks || !s->cshare || !s->costv)
        return -1;
    for (size_t i = 0; i < cells * (size_t)s->ncosts; i++)
        s->costv[i] = NAN;
    for (int64_t i = 0; i < s->hsize; i++)
        s->hslot[i] = -1;
    for (size_t i = 0; i < cells * (size_t)s->nmetrics; i++)
        s->worst[i] = NAN;
    for (size_t i = 0; i < cells; i++)
        s->blocks[i] = NAN;
    for (int64_t i = 0; i < s->max_slots; i++)
        s->cshare[i] = NAN;
    return 0;
}

/* --target is stated for the plan's metric; a metric of the other kind
 * (a miss rate beside a traffic ratio) gets its own default. */
static double target_of(const rp_plan *p, int col)
{
    const char *name = p->cols[col].name, *main = p->cols[p->metric].name;
    if (pascal_report_is_traffic(name) == pascal_report_is_traffic(main))
        return p->target;
    return pascal_report_default_target(name);
}

/* The plan's metric, its costs, then the menu's others while the cells
 * allow. */
static void choose_metrics(rp_sizing *s, const rp_plan *p)
{
    int64_t fit = RP_SCENARIO_CELLS / (s->max_slots * s->ncap);
    s->metric[0] = p->metric;
    s->nmetrics = 1;
    if (p->ncosts > 0 && 1 + p->ncosts <= fit) {
        s->ncosts = p->ncosts;
        memcpy(s->cost, p->costs, sizeof s->cost);
    } else {
        s->costs_dropped = p->ncosts > 0;
    }
    for (int c = 0; c < p->ncols; c++) {
        if (c == p->metric || !pascal_report_is_metric(p->cols[c].name))
            continue;
        if (s->nmetrics < RP_MAX_SIZING_METRICS && s->nmetrics + s->ncosts < fit)
            s->metric[s->nmetrics++] = c;
        else
            s->unsized[s->nunsized++] = c;
    }
    for (int m = 0; m < s->nmetrics; m++)
        s->target[m] = target_of(p, s->metric[m]);
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
    /* No more slots than scenarios: a small sweep leaves room for every
     * metric. */
    s->max_slots = RP_SCENARIO_CELLS / s->ncap;
    if (s->max_slots > RP_MAX_SCENARIOS)
        s->max_slots = RP_MAX_SCENARIOS;
    if ((double)s->max_slots > ids)
        s->max_slots = (int64_t)ids;
    if (s->max_slots < 1)
        s->max_slots = 1;
    choose_metrics(s, p);
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

void pascal_report_sizing_add(rp_sizing *s, const int64_t *idx, const double *vals, double cshare,
                              double blocks)
{
    uint64_t id = 0;
    int64_t k, c = idx[s->cap];
    for (int j = 0; j < s->naxes; j++) /* mixed radix over the scenario axes */
        id = id * (uint64_t)s->radix[j] + (uint64_t)idx[s->ax[j]];
    if ((k = slot_of(s, id)) < 0)
        return;
    for (int m = 0; m < s->nmetrics; m++) {
        double v = vals[s->metric[m]], *w = &worst_at(s, m, k)[c];
        if (isnan(v))
            *w = INFINITY;
        else if (isnan(*w) || v > *w)
            *w = v;
        s->defined[m] |= !isnan(v);
    }
    for (int j = 0; j < s->ncosts; j++) {
        double v = vals[s->cost[j]], *w = &cost_at(s, j, k)[c];
        if (isnan(v))
            *w = INFINITY;
        else if (isnan(*w) || v > *w)
            *w = v;
        s->cost_defined[j] |= !isnan(v);
    }
    if (!isnan(blocks))
        s->blocks[k * s->ncap + c] = blocks;
    if (!isnan(cshare) && (isnan(s->cshare[k]) || cshare > s->cshare[k]))
        s->cshare[k] = cshare;
}

int64_t pascal_report_sizing_rows(const rp_sizing *s)
{
    return s ? s->nslots : 0;
}

/* Listed capacity index of slot k's answer for metric m, or -1 (none
 * swept meets the target); *largest: the largest capacity with rows. */
static int64_t required_at(const rp_sizing *s, const rp_file *f, int m, int64_t k, int64_t *largest)
{
    const rp_axis *cap = &f->axes[s->cap];
    const double *worst = worst_at(s, m, k);
    int64_t found = -1;
    *largest = -1;
    for (int64_t r = 0; r < cap->count; r++) { /* ascending capacity */
        int64_t c = cap->order[r];
        if (isnan(worst[c]))
            continue;
        *largest = c;
        /* The smallest capacity from which every larger one meets the
         * target, as the run summary sizes: a column that rises with C
         * somewhere (the simulator's) is not sized below a miss. */
        if (!(worst[c] <= s->target[m]))
            found = -1;
        else if (found < 0)
            found = c;
    }
    return found;
}

/* One table row of metric m: [[scenario values], capacity, blocks, worst at
 * the largest capacity, Theorem 5 capacity], and for the plan's metric,
 * when exact, [exact C (blocks), its bytes, the metric there]. */
static void row_json(const rp_sizing *s, const rp_file *f, int m, int64_t k, FILE *o)
{
    const rp_axis *cap = &f->axes[s->cap];
    const double *worst = worst_at(s, m, k);
    uint64_t id = s->key[k];
    int64_t idx[RP_MAX_AXES], largest, found = required_at(s, f, m, k, &largest);
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
    pascal_report_json_num(o, found >= 0 ? cap->values[found] : NAN, 17);
    fprintf(o, ",");
    pascal_report_json_num(o, found >= 0 ? s->blocks[k * s->ncap + found] : NAN, 17);
    fprintf(o, ",");
    if (largest >= 0 && isinf(worst[largest]))
        fprintf(o, "\"undefined\"");
    else
        pascal_report_json_num(o, largest >= 0 ? worst[largest] : NAN, 6);
    fprintf(o, ",");
    pascal_report_json_num(o, s->cshare[k], 17);
    if (m == 0 && s->exact) {
        fprintf(o, ",");
        pascal_report_json_num(o, s->exact_C[k], 17);
        fprintf(o, ",");
        pascal_report_json_num(o, s->exact_bytes[k], 17);
        fprintf(o, ",");
        pascal_report_json_num(o, s->exact_value[k], 6);
    }
    fprintf(o, "]");
}

/* "costs": the tracked costs with a value in some row, and "costs_at": per
 * table row, each of them at that row's answer (null: no answer, or a
 * draw without the cost); "costs_note" when the cell bound dropped them. */
static void costs_json(const rp_sizing *s, const rp_file *f, const rp_plan *p, int m, FILE *o)
{
    fprintf(o, ",\"costs\":[");
    for (int j = 0, n = 0; j < s->ncosts; j++)
        if (s->cost_defined[j]) {
            fprintf(o, n++ ? "," : "");
            pascal_report_json_str(o, p->cols[s->cost[j]].name);
        }
    fprintf(o, "],\"costs_at\":[");
    for (int64_t k = 0; k < s->nslots; k++) {
        int64_t largest, found = required_at(s, f, m, k, &largest);
        fprintf(o, k ? ",[" : "[");
        for (int j = 0, n = 0; j < s->ncosts; j++)
            if (s->cost_defined[j]) {
                fprintf(o, n++ ? "," : "");
                pascal_report_json_num(o, found >= 0 ? cost_at(s, j, k)[found] : NAN, 17);
            }
        fprintf(o, "]");
    }
    fprintf(o, "],\"costs_note\":");
    pascal_report_json_str(o, s->costs_dropped ? "the area and cost columns are not shown: the "
                           "scenarios x capacities of this sweep leave no room beside the metric"
                                               : "");
}

static void names_json(FILE *o, const rp_file *f, const rp_sizing *s, int words)
{
    for (int j = 0; j < s->naxes; j++) {
        const char *name = f->axes[s->ax[j]].name;
        const char *w = words ? pascal_workload_phrase(pascal_param_from_name(name)) : NULL;
        fprintf(o, j ? "," : "");
        pascal_report_json_str(o, w ? w : name);
    }
}

/* The table of metric m, with what the page needs to title it. */
static void table_json(const rp_sizing *s, const rp_file *f, const rp_plan *p, int m, FILE *o)
{
    const char *name = p->cols[s->metric[m]].name;
    int cshare = 0, exact = m == 0 && s->exact;
    char note[PASCAL_ERROR_MAX + 64];
    fprintf(o, "{\"metric\":");
    pascal_report_json_str(o, name);
    fprintf(o, ",\"target\":");
    pascal_report_json_num(o, s->target[m], 17);
    fprintf(o, ",\"cap_axis\":");
    pascal_report_json_str(o, f->axes[s->cap].name);
    fprintf(o, ",\"axes\":[");
    names_json(o, f, s, 0);
    /* Workload terms: each scenario axis as an architect says it ("context
     * length"), and what the target means for a traffic ratio. */
    fprintf(o, "],\"axis_words\":[");
    names_json(o, f, s, 1);
    fprintf(o, "],\"traffic\":%s", pascal_report_is_traffic(name) ? "true" : "false");
    fprintf(o, ",\"averaged\":[");
    for (int i = 0, n = 0; i < f->naxes; i++)
        if (f->axes[i].role == RP_AGG) {
            fprintf(o, n++ ? "," : "");
            pascal_report_json_str(o, f->axes[i].name);
        }
    fprintf(o, "],\"rows\":[");
    for (int64_t k = 0; k < s->nslots; k++) {
        fprintf(o, k ? ",\n" : "");
        row_json(s, f, m, k, o);
        cshare |= !isnan(s->cshare[k]);
    }
    if (m == 0)
        snprintf(note, sizeof note, "%s", s->note);
    else
        snprintf(note, sizeof note, "searched for %s only, the report's default metric",
                 p->cols[s->metric[0]].name);
    fprintf(o, "],\"more\":%s,\"has_cshare\":%s,\"exact\":%s,\"exact_note\":", s->more ? "true" : "false",
            cshare ? "true" : "false", exact ? "true" : "false");
    pascal_report_json_str(o, note);
    costs_json(s, f, p, m, o);
    fprintf(o, "}");
}

/* {"default": the plan's metric, "metrics": those sized (a metric without a
 * value in any row is left out), "unsized": those the cell bound left out,
 * "max_cells", "by_metric": {name: table}}. */
void pascal_report_sizing_json(const rp_sizing *s, const rp_file *f, const rp_plan *p, FILE *o)
{
    fprintf(o, "{\"default\":");
    pascal_report_json_str(o, p->cols[s->metric[0]].name);
    fprintf(o, ",\"metrics\":[");
    for (int m = 0, n = 0; m < s->nmetrics; m++)
        if (m == 0 || s->defined[m]) {
            fprintf(o, n++ ? "," : "");
            pascal_report_json_str(o, p->cols[s->metric[m]].name);
        }
    fprintf(o, "],\"unsized\":[");
    for (int u = 0; u < s->nunsized; u++) {
        fprintf(o, u ? "," : "");
        pascal_report_json_str(o, p->cols[s->unsized[u]].name);
    }
    fprintf(o, "],\"max_cells\":%d,\"by_metric\":{", RP_SCENARIO_CELLS);
    for (int m = 0, n = 0; m < s->nmetrics; m++)
        if (m == 0 || s->defined[m]) {
            fprintf(o, n++ ? ",\n" : "");
            pascal_report_json_key(o, p->cols[s->metric[m]].name);
            table_json(s, f, p, m, o);
        }
    fprintf(o, "}}");
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
