/* Planning a report from a scanned sweep file: which columns are plotted,
 * which axes are plot dimensions and which are averaged, how far each axis is
 * down-sampled, and which plots the page has (with their default axes and
 * columns).  Nothing here reads rows.
 *
 * Miss rates come from the file's rho_* columns; a missing rho_x is derived
 * as K_x / M, so the Theorem 3 band K_lru_lo..K_lru_hi becomes
 * rho_lru_lo..rho_lru_hi on the same per-request scale as the exact LRU rate,
 * the Theorem 4 bound and the Che/IRM baseline.
 *
 * The capacity axis is capacity_bytes or C; failing both, a swept
 * block_bytes under a fixed cache, which sweeps C = capacity_bytes /
 * block_bytes (plotted in blocks only, and without a sizing table, since
 * the blocks themselves change). */
#include "report/report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int add_source(rp_plan *p, const char *group, const char *name)
{
    p->src[p->nsrc].group = group;
    p->src[p->nsrc].name = name;
    return p->nsrc++;
}

int pascal_report_col(const rp_plan *p, const char *name)
{
    for (int i = 0; i < p->ncols; i++)
        if (strcmp(p->cols[i].name, name) == 0)
            return i;
    return -1;
}

int pascal_report_is_traffic(const char *name)
{
    return strncmp(name, "traffic_", 8) == 0 || strncmp(name, "answer_traffic", 14) == 0;
}

double pascal_report_default_target(const char *name)
{
    return pascal_report_is_traffic(name) ? 1.2 : 0.05;
}

int pascal_report_is_metric(const char *name)
{
    size_t n = strlen(name);
    /* A Theorem 3 band's edges are drawn around their rate, not sized;
     * the answer's band (answer_traffic_lo, _hi) is sized like the answer. */
    int edge = n > 3 && (strcmp(name + n - 3, "_lo") == 0 || strcmp(name + n - 3, "_hi") == 0) &&
               strncmp(name, "answer_traffic", 14) != 0;
    return (strncmp(name, "rho_", 4) == 0 || pascal_report_is_traffic(name)) && !edge;
}

static int add_col(rp_plan *p, const char *name, const char *units, const char *desc, int src,
                   int div_m)
{
    rp_pcol *c;
    if (p->ncols >= RP_MAX_COLUMNS)
        return -1;
    c = &p->cols[p->ncols];
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->units, sizeof c->units, "%s", units);
    snprintf(c->description, sizeof c->description, "%s", desc);
    c->src = src;
    c->div_m = div_m;
    return p->ncols++;
}

/* Result columns, then rho_x = K_x / M for every K_x without its rho_x, then
 * the block count C when the capacity axis is in bytes. */
static int plan_columns(const rp_file *f, rp_plan *p)
{
    int c_point = pascal_report_find_point(f, "C");
    for (int i = 0; i < f->nresults; i++) {
        const rp_column *r = &f->results[i];
        int s = add_source(p, "results", r->name);
        if (add_col(p, r->name, r->units, r->description, s, 0) < 0)
            return -1;
        if (strcmp(r->name, "C_share") == 0)
            p->cshare_src = s;
    }
    for (int i = 0; i < f->nresults && p->m_src >= 0; i++) {
        const rp_column *r = &f->results[i];
        char rho[RP_NAME + 8], desc[RP_TEXT];
        if (strncmp(r->name, "K_", 2) != 0)
            continue;
        snprintf(rho, sizeof rho, "rho_%s", r->name + 2);
        if (strlen(rho) >= RP_NAME || pascal_report_find_result(f, rho) >= 0)
            continue;
        snprintf(desc, sizeof desc, "%s / M (derived by the report): %.400s", r->name,
                 r->description);
        if (add_col(p, rho, "misses/request", desc, p->cols[i].src, 1) < 0)
            return -1;
    }
    if (c_point >= 0 && p->cap_axis >= 0 && strcmp(f->axes[p->cap_axis].name, "C") != 0) {
        p->blocks = add_col(p, "C", f->points[c_point].units, f->points[c_point].description,
                            p->c_src, 0);
        if (p->blocks < 0)
            return -1;
    }
    return 0;
}

/* The first of the named columns that is plotted, or -1. */
static int first_col(const rp_plan *p, const char *const *names)
{
    for (; *names; names++) {
        int c = pascal_report_col(p, *names);
        if (c >= 0)
            return c;
    }
    return -1;
}

static int swept(const rp_file *f, const char *name)
{
    int a = pascal_report_find_axis(f, name);
    return a >= 0 && f->axes[a].role == RP_DIM && f->axes[a].count >= 2 ? a : -1;
}

static void plan_capacity_plot(const rp_file *f, rp_plan *p)
{
    /* A workload's DRAM traffic against the ideal comes first: its answer
     * (docs/workloads.md section 3.1), as the run summary and size. */
    static const char *const metrics[] = {"answer_traffic", "traffic_lru", "traffic_ttl", "rho_lru", "rho_sdcm",
                                          "rho_ttl", "rho_dyn", "rho_bound", "rho_che", NULL};
    static const char *const series[] = {"pattern", "clusters", "path", NULL};
    p->metric = first_col(p, metrics);
    for (int i = 0; p->metric < 0 && i < p->ncols; i++)
        if (strncmp(p->cols[i].name, "rho_", 4) == 0)
            p->metric = i;
    p->band_lo = pascal_report_col(p, "rho_lru_lo");
    p->band_hi = pascal_report_col(p, "rho_lru_hi");
    p->bound = pascal_report_col(p, "rho_bound");
    p->che = pascal_report_col(p, "rho_che");
    for (int i = 0; series[i] && p->series_axis < 0; i++)
        p->series_axis = swept(f, series[i]);
    for (int i = 0; i < f->naxes && p->series_axis < 0; i++) {
        const rp_axis *a = &f->axes[i];
        if (i != p->cap_axis && i != p->w_axis && a->role == RP_DIM && a->count >= 2 &&
            a->count <= 12)
            p->series_axis = i;
    }
}

/* What each capacity costs: its area, then the costs it trades that area
 * for (docs/workloads.md sections 10 and 10.1), those the file has.  A
 * block_bytes proxy is one cache size, one area: no trade-off. */
static void plan_costs(rp_plan *p)
{
    static const char *const costs[] = {"area_l2_mm2", "energy_j", "time_bound_s", "time_sim_s", NULL};
    if (p->cap_axis < 0 || p->cap_proxy)
        return;
    p->area = pascal_report_col(p, "area_l2_mm2");
    for (int i = 0; costs[i]; i++) {
        int c = pascal_report_col(p, costs[i]);
        if (c >= 0)
            p->costs[p->ncosts++] = c;
    }
}

/* The prediction against the horizon, and the simulator's K beside it
 * (`simulate` in the same sweep); a sweep with simulated K only plots that. */
static void plan_dynamic_plot(const rp_file *f, rp_plan *p)
{
    int k = pascal_report_col(p, "K_dyn"), rho = pascal_report_col(p, "rho_dyn");
    int ks = pascal_report_col(p, "K_sim"), rs = pascal_report_col(p, "rho_sim");
    int w = pascal_report_find_axis(f, "W");
    if ((k < 0 && ks < 0) || w < 0 || f->axes[w].role != RP_DIM)
        return;
    p->w_axis = w;
    if (k < 0) {
        p->dyn_metric = rs >= 0 ? rs : ks;
        return;
    }
    p->dyn_lo = pascal_report_col(p, "band_lo");
    p->dyn_hi = pascal_report_col(p, "band_hi");
    /* The band is drawn around the prediction with the same units. */
    p->dyn_metric = rho >= 0 ? rho : k;
    if (p->dyn_lo >= 0 && strcmp(p->cols[p->dyn_lo].units, p->cols[k].units) == 0)
        p->dyn_metric = k;
    p->dyn_sim = p->dyn_metric == k ? ks : rs;
}

/* Heatmap: occupancy x depth when both are swept, else capacity (or the
 * longest axis) against occupancy (or the next axis). */
static void plan_heatmap(const rp_file *f, rp_plan *p)
{
    int occ = swept(f, "occupancy"), depth = swept(f, "depth");
    if (occ >= 0 && depth >= 0) {
        p->heat_x = depth;
        p->heat_y = occ;
        return;
    }
    p->heat_x = p->cap_axis;
    for (int i = 0; i < f->naxes && p->heat_x < 0; i++)
        if (swept(f, f->axes[i].name) >= 0 &&
            (p->heat_x < 0 || f->axes[i].count > f->axes[p->heat_x].count))
            p->heat_x = i;
    p->heat_y = occ != p->heat_x ? occ : -1;
    for (int i = 0; i < f->naxes && p->heat_y < 0; i++)
        if (i != p->heat_x && swept(f, f->axes[i].name) >= 0)
            p->heat_y = i;
    if (p->heat_y < 0)
        p->heat_x = -1;
}

/* Evenly spaced `keep` of the axis's plotted values (first and last kept). */
int pascal_report_thin_axis(rp_axis *a, int64_t keep, pascal_error *err)
{
    int64_t n = a->nkeep, *kept;
    if (keep >= n)
        return 0;
    if (keep < 1)
        keep = 1;
    if (!(kept = malloc((size_t)keep * sizeof *kept)))
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    for (int64_t j = 0; j < keep; j++)
        kept[j] = a->kept[keep == 1 ? 0 : (j * (n - 1) + (keep - 1) / 2) / (keep - 1)];
    for (int64_t i = 0; i < a->count; i++)
        a->keep_of[i] = -1;
    for (int64_t j = 0; j < keep; j++)
        a->keep_of[kept[j]] = j;
    free(a->kept);
    a->kept = kept;
    a->nkeep = keep;
    return 0;
}

/* Plotted values of each axis: all, in value order (enum axes: as listed),
 * then at most RP_AXIS_CAP, then halved (other axes before the capacity and
 * horizon axes) until the dense cells fit RP_DENSE_CELLS. */
static int plan_sampling(rp_file *f, rp_plan *p, pascal_error *err)
{
    double cells = 1;
    for (int d = 0; d < p->ndims; d++) {
        rp_axis *a = &f->axes[p->dims[d]];
        a->kept = malloc((size_t)a->count * sizeof *a->kept);
        a->keep_of = malloc((size_t)a->count * sizeof *a->keep_of);
        if (!a->kept || !a->keep_of)
            return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
        for (int64_t i = 0; i < a->count; i++) {
            a->kept[i] = a->labels ? i : a->order[i];
            a->keep_of[a->kept[i]] = i;
        }
        a->nkeep = a->count;
        if (pascal_report_thin_axis(a, RP_AXIS_CAP, err))
            return err->code;
    }
    for (;;) {
        int pick;
        cells = 1;
        for (int d = 0; d < p->ndims; d++)
            cells *= (double)f->axes[p->dims[d]].nkeep;
        if (cells <= RP_DENSE_CELLS || (pick = pascal_report_axis_to_thin(f, p)) < 0)
            return 0;
        if (pascal_report_thin_axis(&f->axes[pick], (f->axes[pick].nkeep + 1) / 2, err))
            return err->code;
    }
}

/* The plotted axis to halve next: the longest one with more than two values,
 * sparing the plots' x axes (capacity, horizon) until nothing else is left. */
int pascal_report_axis_to_thin(const rp_file *f, const rp_plan *p)
{
    int pick = -1;
    for (int pass = 0; pass < 2 && pick < 0; pass++)
        for (int d = 0; d < p->ndims; d++) {
            int i = p->dims[d];
            int x = i == p->cap_axis || i == p->w_axis;
            if ((pass == 1 || !x) && f->axes[i].nkeep > 2 &&
                (pick < 0 || f->axes[i].nkeep > f->axes[pick].nkeep))
                pick = i;
        }
    return pick;
}

int pascal_report_plan(rp_file *f, double target, rp_plan *p, pascal_error *err)
{
    memset(p, 0, sizeof *p);
    p->target = target;
    p->m_src = p->c_src = p->lead_src = p->cshare_src = -1;
    p->cap_axis = p->w_axis = p->metric = p->series_axis = p->heat_x = p->heat_y = -1;
    p->dyn_metric = p->dyn_lo = p->dyn_hi = p->dyn_sim = -1;
    p->band_lo = p->band_hi = p->bound = p->che = p->blocks = p->area = -1;
    for (int i = 0; i < f->naxes; i++) {
        rp_axis *a = &f->axes[i];
        a->role = strcmp(a->name, "seed") == 0 && a->count > 1 ? RP_AGG : RP_DIM;
        a->col = add_source(p, "points", a->name);
        if (a->role == RP_DIM)
            p->dims[p->ndims++] = i;
    }
    if (pascal_report_find_point(f, "M") >= 0)
        p->m_src = add_source(p, "points", "M");
    if (pascal_report_find_point(f, "C") >= 0)
        p->c_src = add_source(p, "points", "C");
    if (pascal_report_find_point(f, "lead") >= 0)
        p->lead_src = add_source(p, "points", "lead");
    p->cap_axis = swept(f, "capacity_bytes");
    if (p->cap_axis < 0)
        p->cap_axis = swept(f, "C");
    /* A fixed cache in bytes with swept block sizes still sweeps C blocks
     * (the paper's cluster sweep, Figure 3a): plot against C, no sizing. */
    if (p->cap_axis < 0 && p->c_src >= 0 && (p->cap_axis = swept(f, "block_bytes")) >= 0)
        p->cap_proxy = 1;
    if (plan_columns(f, p) != 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: /results: expected at most %d columns",
                                f->path, RP_MAX_COLUMNS / 2);
    plan_dynamic_plot(f, p);
    plan_capacity_plot(f, p);
    plan_costs(p);
    if (isnan(p->target))   /* the metric's default */
        p->target = pascal_report_default_target(p->metric >= 0 ? p->cols[p->metric].name : "");
    plan_heatmap(f, p);
    return plan_sampling(f, p, err);
}
