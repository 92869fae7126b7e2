/* The page's data block (one JSON object read by web/report.js): provenance,
 * the axes with their plotted values, the plotted columns, the plot cells,
 * which plots exist (with defaults) and why the others do not, the sizing
 * table, notes on averaging and down-sampling, and the cache lab's limits.
 * The output depends only on the input file and the options: no clock. */
#include "report/report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/lab.h"
#include "pascal/version.h"


/* The heatmap's colour: a dynamic sweep without a capacity axis is about the
 * dynamic miss rate; otherwise the capacity plot's metric. */
static int heat_metric(const rp_plan *p)
{
    int rho = pascal_report_col(p, "rho_dyn");
    if (p->dyn_metric >= 0 && p->cap_axis < 0)
        return rho >= 0 ? rho : p->dyn_metric;
    return p->metric >= 0 ? p->metric : p->dyn_metric >= 0 ? p->dyn_metric : 0;
}

static void key_str(FILE *o, const char *k, const char *v)
{
    pascal_report_json_key(o, k);
    if (v)
        pascal_report_json_str(o, v);
    else
        fputs("null", o);
    fputc(',', o);
}

static const char *col_name(const rp_plan *p, int c)
{
    return c >= 0 ? p->cols[c].name : NULL;
}

static const char *axis_name(const rp_file *f, int a)
{
    return a >= 0 ? f->axes[a].name : NULL;
}

/* Axes in canonical order (fewest value changes between rows first). */
static void sorted_axes(const rp_file *f, int *order)
{
    for (int i = 0; i < f->naxes; i++)
        order[i] = i;
    for (int i = 1; i < f->naxes; i++)
        for (int j = i; j > 0 && f->axes[order[j]].changes < f->axes[order[j - 1]].changes; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

static int log_scale(const rp_axis *a)
{
    double lo = INFINITY, hi = -INFINITY;
    if (a->labels)
        return 0;
    for (int64_t j = 0; j < a->nkeep; j++) {
        double v = a->values[a->kept[j]];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    return lo > 0 && hi / lo >= 16;
}

static void axes_json(FILE *o, const rp_file *f)
{
    int order[RP_MAX_AXES];
    sorted_axes(f, order);
    fputs("\"axes\":[", o);
    for (int n = 0; n < f->naxes; n++) {
        const rp_axis *a = &f->axes[order[n]];
        int plot = a->role == RP_DIM;
        fputs(n ? ",\n{" : "{", o);
        key_str(o, "name", a->name);
        key_str(o, "units", a->units);
        key_str(o, "role", plot ? "plot" : "averaged");
        fprintf(o, "\"count\":%lld,\"log\":%s,\"values\":[", (long long)a->count,
                plot && log_scale(a) ? "true" : "false");
        for (int64_t j = 0; plot && j < a->nkeep; j++) {
            fputs(j ? "," : "", o);
            pascal_report_json_num(o, a->values[a->kept[j]], 17);
        }
        fputs("],\"labels\":", o);
        if (!a->labels || !plot)
            fputs("null", o);
        for (int64_t j = 0; a->labels && plot && j < a->nkeep; j++) {
            fputs(j ? "," : "[", o);
            pascal_report_json_str(o, a->labels[a->kept[j]]);
        }
        fputs(a->labels && plot ? "]}" : "}", o);
    }
    fputs("],\n", o);
}

static void columns_json(FILE *o, const rp_plan *p)
{
    fputs("\"columns\":[", o);
    for (int j = 0; j < p->ncols; j++) {
        fputs(j ? ",\n{" : "{", o);
        key_str(o, "name", p->cols[j].name);
        key_str(o, "units", p->cols[j].units);
        pascal_report_json_key(o, "description");
        pascal_report_json_str(o, p->cols[j].description);
        fputs("}", o);
    }
    fputs("],\n", o);
}

static void notes_json(FILE *o, const rp_run *r)
{
    const rp_file *f = &r->file;
    char buf[512];
    int n = 0, thinned = 0;
    fputs("\"notes\":[", o);
    for (int i = 0; i < f->naxes; i++) {
        const rp_axis *a = &f->axes[i];
        if (a->role == RP_AGG)
            snprintf(buf, sizeof buf, "%s: %lld random draws per point; the plots show their "
                     "mean, the sizing table their worst case.", a->name, (long long)a->count);
        else if (a->nkeep < a->count)
            snprintf(buf, sizeof buf, "%s: %lld of %lld values plotted (evenly spaced); the "
                     "sizing table uses all of them.", a->name, (long long)a->nkeep,
                     (long long)a->count);
        else
            continue;
        thinned |= a->role == RP_DIM;
        fputs(n++ ? "," : "", o);
        pascal_report_json_str(o, buf);
    }
    if (n) {
        snprintf(buf, sizeof buf, "The plots are %s: %lld plotted cells stand for %lld rows.",
                 thinned ? "down-sampled" : "aggregated", (long long)r->cells,
                 (long long)f->rows);
        fputs(",", o);
        pascal_report_json_str(o, buf);
    }
    fputs("],\n", o);
}

/* A default lines-by axis for the dynamic plot. */
static int dynamic_series(const rp_file *f, const rp_plan *p)
{
    static const char *const names[] = {"depth", "path", "occupancy", "compute", NULL};
    for (int i = 0; names[i]; i++) {
        int a = pascal_report_find_axis(f, names[i]);
        if (a >= 0 && a != p->w_axis && f->axes[a].role == RP_DIM && f->axes[a].count > 1)
            return a;
    }
    return -1;
}

int pascal_report_pareto_costs(const rp_run *r, int *out)
{
    const rp_plan *p = &r->plan;
    int n = 0;
    if (p->area < 0 || !pascal_report_cube_has(&r->cube, &r->file, p, p->area))
        return 0;
    for (int j = 0; j < p->ncosts; j++)
        if (p->costs[j] != p->area && pascal_report_cube_has(&r->cube, &r->file, p, p->costs[j]))
            out[n++] = p->costs[j];
    return n;
}

/* The cost against the area, per scenario (web/pareto.js): the capacity
 * axis, the area column, the costs with data (the first is the default),
 * and the capacity plot's lines-by axis. */
static void pareto_json(FILE *o, const rp_run *r)
{
    const rp_plan *p = &r->plan;
    int costs[RP_MAX_COSTS], n = pascal_report_pareto_costs(r, costs);
    fputs(",\n\"pareto\":", o);
    if (!n) {
        fputs("null", o);
        return;
    }
    fputc('{', o);
    key_str(o, "x", axis_name(&r->file, p->cap_axis));
    key_str(o, "area", col_name(p, p->area));
    key_str(o, "series", axis_name(&r->file, p->series_axis));
    fputs("\"costs\":[", o);
    for (int j = 0; j < n; j++) {
        fputs(j ? "," : "", o);
        pascal_report_json_str(o, col_name(p, costs[j]));
    }
    fputs("]}", o);
}

static void plots_json(FILE *o, const rp_run *r)
{
    const rp_file *f = &r->file;
    const rp_plan *p = &r->plan;
    fputs("\"plots\":{\"capacity\":", o);
    if (p->cap_axis >= 0 && p->metric >= 0) {
        fputc('{', o);
        key_str(o, "x", axis_name(f, p->cap_axis));
        key_str(o, "blocks", col_name(p, p->blocks));
        fprintf(o, "\"blocks_only\":%s,", p->cap_proxy ? "true" : "false");
        key_str(o, "band_lo", col_name(p, p->band_lo));
        key_str(o, "band_hi", col_name(p, p->band_hi));
        key_str(o, "bound", col_name(p, p->bound));
        key_str(o, "che", col_name(p, p->che));
        key_str(o, "series", axis_name(f, p->series_axis));
        pascal_report_json_key(o, "metric");
        pascal_report_json_str(o, col_name(p, p->metric));
        fputs("}", o);
    } else {
        fputs("null", o);
    }
    fputs(",\n\"heatmap\":", o);
    if (p->heat_x >= 0) {
        fputc('{', o);
        key_str(o, "x", axis_name(f, p->heat_x));
        key_str(o, "y", axis_name(f, p->heat_y));
        pascal_report_json_key(o, "metric");
        pascal_report_json_str(o, col_name(p, heat_metric(p)));
        fputs("}", o);
    } else {
        fputs("null", o);
    }
    fputs(",\n\"dynamic\":", o);
    if (p->w_axis >= 0) {
        fputc('{', o);
        key_str(o, "x", axis_name(f, p->w_axis));
        key_str(o, "band_lo", col_name(p, p->dyn_lo));
        key_str(o, "band_hi", col_name(p, p->dyn_hi));
        key_str(o, "series", axis_name(f, dynamic_series(f, p)));
        key_str(o, "sim", col_name(p, p->dyn_sim));
        pascal_report_json_key(o, "metric");
        pascal_report_json_str(o, col_name(p, p->dyn_metric));
        fputs("}", o);
    } else {
        fputs("null", o);
    }
    pareto_json(o, r);
    fputs("},\n", o);
}

static void why_not_json(FILE *o, const rp_run *r)
{
    const rp_plan *p = &r->plan;
    int costs[RP_MAX_COSTS];
    fputs("\"why_not\":{", o);
    key_str(o, "capacity", p->cap_axis < 0 ? "no capacity axis (capacity_bytes, C or block_bytes) "
                                             "is swept"
                           : p->metric < 0 ? "no miss-rate column (rho_*) in the results"
                                           : NULL);
    key_str(o, "heatmap", p->heat_x < 0 ? "fewer than two swept axes (random draws, which are "
                                          "averaged, do not count)" : NULL);
    key_str(o, "pareto", p->cap_axis < 0 || p->cap_proxy
                             ? "no capacity axis (capacity_bytes or C) is swept"
                         : pascal_report_pareto_costs(r, costs) ? NULL
                             : "no area_l2_mm2 beside an energy_j, time_bound_s or time_sim_s "
                               "with data (workload points with the traffic model and a device "
                               "profile's costs and rates, docs/workloads.md section 10)");
    pascal_report_json_key(o, "dynamic");
    pascal_report_json_str(o, p->w_axis < 0 ? "no dynamic predictions (a K_dyn or K_sim column "
                                              "with a W axis)" : "");
    fputs("},\n", o);
}

static void provenance_json(FILE *o, const rp_run *r)
{
    const rp_file *f = &r->file;
    const char *base = strrchr(f->path, '/');
    fputc('{', o);
    key_str(o, "title", pascal_report_attr(f, "spec_name") ? pascal_report_attr(f, "spec_name")
                                                           : (base ? base + 1 : f->path));
    key_str(o, "file", base ? base + 1 : f->path);
    key_str(o, "spec", pascal_report_attr(f, "spec"));
    key_str(o, "device", pascal_report_attr(f, "device"));
    key_str(o, "report_command", r->opts->command_line);
    key_str(o, "report_version", PASCAL_VERSION_STRING);
    fprintf(o, "\"points\":%lld,\"target\":", (long long)f->rows);
    pascal_report_json_num(o, r->plan.target, 17);
    fputs(",\n\"attrs\":[", o);
    for (int i = 0, n = 0; i < f->nattrs; i++) {
        if (strcmp(f->attrs[i].key, "spec") == 0 || strcmp(f->attrs[i].key, "device") == 0)
            continue;
        fputs(n++ ? "," : "", o);
        fputc('[', o);
        pascal_report_json_str(o, f->attrs[i].key);
        fputc(',', o);
        pascal_report_json_str(o, f->attrs[i].value);
        fputc(']', o);
    }
    fputs("],\n", o);
}

void pascal_report_data(FILE *o, void *ctx)
{
    const rp_run *r = ctx;
    provenance_json(o, r);
    fprintf(o, "\"lab\":{\"start\":%d,\"capacity\":%d,\"stride\":%d,\"max_capacity\":%d,"
               "\"max_stride\":%d,\"max_requests\":%d},\n", PASCAL_LAB_START,
            PASCAL_LAB_DEFAULT_CAPACITY, PASCAL_LAB_DEFAULT_STRIDE, PASCAL_LAB_MAX_CAPACITY,
            PASCAL_LAB_MAX_STRIDE, PASCAL_LAB_MAX_REQUESTS);
    axes_json(o, &r->file);
    columns_json(o, &r->plan);
    notes_json(o, r);
    plots_json(o, r);
    why_not_json(o, r);
    fputs("\"sizing\":", o);
    if (r->sizing)
        pascal_report_sizing_json(r->sizing, &r->file, &r->plan, o);
    else
        fputs("null", o);
    fputs(",\n\"cube\":{", o);
    pascal_report_cube_json(&r->cube, &r->file, &r->plan, o);
    fputs("}}", o);
}
