/* Pieces shared by the files of the report module (not public API).
 *
 *   scan.c    reads a sweep file's metadata (root attributes, /axes, column
 *             names, units, descriptions) and its columns in blocks of rows
 *   scan_csv.c the same from the CSV of pascal run --format csv
 *   axis.c    an axis's value -> listed index lookup, for both readers
 *   plan.c    decides the roles of the axes, the plotted columns and the
 *             down-sampling, and which plots the page has
 *   cube.c    accumulates rows into plot cells (means over random draws) and
 *             thins the cells to the page's budget
 *   sizing.c  the sizing table, from every row
 *   json.c    JSON text
 *   data.c    the page's data block: provenance, axes, plot cells, plots
 *   page.c    the HTML page: template, inlined libraries, data
 *   assets    the embedded web sources (generated at build time by
 *             report/tools/embed.c from web/ and the npm packages) */
#ifndef PASCAL_REPORT_REPORT_INTERNAL_H
#define PASCAL_REPORT_REPORT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "report/report.h"

#define RP_NAME 64
#define RP_TEXT 512
#define RP_MAX_COLUMNS 128
#define RP_MAX_AXES 32
#define RP_AXIS_CAP 256          /* most values of one axis in the plots */
#define RP_DENSE_CELLS (1 << 19) /* most plot cells accumulated */
#define RP_DEFAULT_VALUES 600000 /* default page budget, cells x columns */
#define RP_MAX_SCENARIOS 2000    /* sizing-table rows */
#define RP_SCENARIO_CELLS 4000000 /* scenarios x capacities x metrics tracked */
#define RP_MAX_SIZING_METRICS 12 /* metrics sized (the page's metric menu) */
#define RP_MAX_COSTS 4           /* area_l2_mm2, energy_j, time_bound_s, time_sim_s */

/* Embedded files (generated source). */
typedef struct rp_asset {
    const char *name;
    const unsigned char *data;
    size_t len;
} rp_asset;
extern const rp_asset pascal_report_assets[];
extern const int pascal_report_nassets;
const rp_asset *pascal_report_asset(const char *name);

enum { RP_DIM = 0, RP_AGG = 1 };

typedef struct rp_axis {
    char name[RP_NAME];
    char units[RP_NAME];
    int64_t count;
    double *values;     /* listed order */
    double *sorted;     /* ascending copy, for lookups */
    int64_t *order;     /* position in sorted -> listed index */
    char **labels;      /* enum axes: label of each listed value; else NULL */
    int role;           /* RP_DIM (a plot dimension) or RP_AGG (averaged) */
    int col;            /* its column among the columns read */
    int64_t changes;    /* value changes between consecutive rows */
    int64_t nkeep;      /* plotted values */
    int64_t *keep_of;   /* listed index -> plotted position, or -1 */
    int64_t *kept;      /* plotted position -> listed index */
} rp_axis;

typedef struct rp_column {
    char name[RP_NAME];
    char units[RP_NAME];
    char description[RP_TEXT];
} rp_column;

typedef struct rp_attr {
    char *key, *value;
} rp_attr;

typedef struct rp_file {
    const char *path;
    int64_t rows;
    rp_attr *attrs;
    int nattrs;
    rp_axis axes[RP_MAX_AXES];
    int naxes;
    rp_column points[RP_MAX_COLUMNS];
    int npoints;
    rp_column results[RP_MAX_COLUMNS];
    int nresults;
    int csv;            /* read from the CSV of pascal run --format csv */
} rp_file;

/* scan.c */
int pascal_report_scan(const char *path, rp_file *f, pascal_error *err);
void pascal_report_scan_free(rp_file *f);
const char *pascal_report_attr(const rp_file *f, const char *key); /* or NULL */
int pascal_report_find_axis(const rp_file *f, const char *name);   /* or -1 */
int pascal_report_find_point(const rp_file *f, const char *name);  /* or -1 */
int pascal_report_find_result(const rp_file *f, const char *name); /* or -1 */

/* axis.c */
/* Listed index of value v on axis a, or -1. */
int64_t pascal_report_axis_index(const rp_axis *a, double v);
/* Builds a->sorted and a->order; the values must be distinct numbers. */
int pascal_report_index_axis(rp_file *f, rp_axis *a, pascal_error *err);

/* scan_csv.c: the same description from the CSV of pascal run --format csv
 * (used by pascal_report_scan for a file that is not HDF5), and its rows. */
int pascal_report_scan_csv(const char *path, rp_file *f, pascal_error *err);

/* Reading columns in blocks of rows: from HDF5 through output/h5_file.h,
 * or parsed from a CSV (scan_csv.c). */
typedef struct rp_reader rp_reader;
typedef struct rp_source {
    const char *group;  /* "points" or "results" */
    const char *name;
} rp_source;
int pascal_report_reader_open(const rp_file *f, const rp_source *src, int n,
                              rp_reader **out, pascal_error *err);
/* Reads rows [start, start + count) of every source into bufs[i]. */
int pascal_report_reader_read(rp_reader *r, int64_t start, int64_t count,
                              double *const *bufs, pascal_error *err);
void pascal_report_reader_close(rp_reader *r);
typedef struct rp_csv_rows rp_csv_rows;
int pascal_report_csv_rows_open(const rp_file *f, const rp_source *src, int n, rp_csv_rows **out,
                                pascal_error *err);
int pascal_report_csv_rows_read(rp_csv_rows *c, int64_t start, int64_t count, double *const *bufs,
                                pascal_error *err);
void pascal_report_csv_rows_close(rp_csv_rows *c);

/* A plotted column: read from the file, or K_x / M for a missing rho_x. */
typedef struct rp_pcol {
    char name[RP_NAME];
    char units[RP_NAME];
    char description[RP_TEXT];
    int src;            /* source index of the value (or of K) */
    int div_m;          /* divide by M (source m_src) */
} rp_pcol;

/* plan.c: everything decided before the rows are read. */
typedef struct rp_plan {
    rp_source src[RP_MAX_COLUMNS + RP_MAX_AXES + 4];
    int nsrc;
    int m_src;                  /* source of M, or -1 */
    int c_src;                  /* source of points/C, or -1 */
    int lead_src;               /* source of points/lead, or -1 */
    int cshare_src;             /* source of results/C_share, or -1 */
    rp_pcol cols[RP_MAX_COLUMNS];
    int ncols;
    int dims[RP_MAX_AXES];      /* axes in the cube (RP_DIM, count >= 1) */
    int ndims;
    int cap_axis;               /* capacity_bytes or C axis, or -1 */
    int cap_proxy;              /* cap_axis is block_bytes: capacity in blocks
                                   C = capacity_bytes / block_bytes only */
    int w_axis;                 /* W axis with K_dyn or K_sim, or -1 */
    int metric;                 /* default miss-rate column (cols index), or -1 */
    int series_axis;            /* default lines-by axis, or -1 */
    int heat_x, heat_y;         /* default heatmap axes, or -1 */
    int dyn_metric, dyn_lo, dyn_hi; /* dynamic plot columns, or -1 */
    int dyn_sim;                /* simulated K beside the prediction (K_sim or
                                   rho_sim, in its units), or -1 */
    int band_lo, band_hi, bound, che, blocks; /* capacity plot columns, or -1 */
    /* What a capacity costs (docs/workloads.md section 10.1): area_l2_mm2
     * first when present, then energy_j, time_bound_s, time_sim_s, those
     * the file has (cols indices); the Pareto plot and the sizing table's
     * "there" columns.  Not with a block_bytes proxy (a fixed cache has
     * one area). */
    int costs[RP_MAX_COSTS];
    int ncosts;
    int area;                   /* cols index of area_l2_mm2, or -1 */
    double target;
} rp_plan;

int pascal_report_plan(rp_file *f, double target, rp_plan *p, pascal_error *err);
int pascal_report_col(const rp_plan *p, const char *name); /* cols index or -1 */
/* A workload's traffic ratio (traffic_* or answer_traffic): sized against
 * 1.2x ideal, not a miss rate. */
int pascal_report_is_traffic(const char *name);
/* The sizing target of a metric when --target does not apply to it: 1.2
 * (x ideal) for a traffic ratio, 0.05 for a miss rate. */
double pascal_report_default_target(const char *name);
/* A column the page's metric menu offers: a miss rate (rho_*) or traffic
 * ratio, but not a band edge (*_lo, *_hi). */
int pascal_report_is_metric(const char *name);
/* Evenly spaced subset of `keep` of an axis's current plotted values. */
int pascal_report_thin_axis(rp_axis *a, int64_t keep, pascal_error *err);
/* Index of the plotted axis to halve next, or -1 when none can be thinned. */
int pascal_report_axis_to_thin(const rp_file *f, const rp_plan *p);

/* cube.c */
typedef struct rp_cube {
    int64_t cells;              /* dense cells: product of nkeep over dims */
    int ncols;
    double *sum;                /* cells x ncols */
    uint32_t *cnt;              /* cells x ncols: non-NaN values */
    uint32_t *rows;             /* cells: rows accumulated */
    int64_t stride[RP_MAX_AXES];  /* per plan dimension */
    int64_t *acc_kept[RP_MAX_AXES]; /* per plan dimension: plotted position at
                                       accumulation -> listed index */
    int64_t acc_n[RP_MAX_AXES];
} rp_cube;

int pascal_report_cube_init(rp_cube *c, const rp_file *f, const rp_plan *p, pascal_error *err);
void pascal_report_cube_add(rp_cube *c, int64_t cell, const double *v);
/* Thins plotted axes until non-empty cells x columns <= budget. */
int pascal_report_cube_fit(rp_cube *c, rp_file *f, const rp_plan *p, int64_t budget,
                           pascal_error *err);
int64_t pascal_report_cube_nonempty(const rp_cube *c, const rp_file *f, const rp_plan *p);
/* Writes "dims", "shape", "cells" and "columns" (JSON members) of the
 * plotted cells; returns the number of cells written. */
int64_t pascal_report_cube_json(const rp_cube *c, const rp_file *f, const rp_plan *p, FILE *o);
void pascal_report_cube_free(rp_cube *c);
/* Column col has a value in some plotted cell. */
int pascal_report_cube_has(const rp_cube *c, const rp_file *f, const rp_plan *p, int col);

/* sizing.c: one table per metric of the page's menu (the plan's metric
 * first), as many as RP_SCENARIO_CELLS holds. */
typedef struct rp_sizing rp_sizing;
int pascal_report_sizing_create(const rp_file *f, const rp_plan *p, rp_sizing **out,
                                pascal_error *err);
/* One row: listed axis indices (per file axis), the plotted columns' values
 * (p->cols order), Theorem 5 capacity (NaN when unknown) and C (NaN when
 * unknown). */
void pascal_report_sizing_add(rp_sizing *s, const int64_t *idx, const double *vals, double cshare,
                              double blocks);
int64_t pascal_report_sizing_rows(const rp_sizing *s);
void pascal_report_sizing_json(const rp_sizing *s, const rp_file *f, const rp_plan *p, FILE *o);
void pascal_report_sizing_free(rp_sizing *s);
/* Makes the table exact where the file's spec can be searched again with
 * the caller's sizer (sizing_exact.c); otherwise records why in the
 * table's note. */
void pascal_report_sizing_exact(rp_sizing *s, const rp_file *f, const rp_plan *p,
                                const pascal_report_sizer *sizer);

/* sizing_exact.c: re-evaluating the file's spec. */
typedef struct rp_exact_result {
    int64_t C;                             /* blocks; -1: none in range */
    double bytes;                          /* C * block_bytes; NaN unknown or none */
    double value;                          /* the metric at C (at the range's top when none) */
} rp_exact_result;
typedef struct rp_sizing_view {
    int cap;                               /* file axis of the capacity */
    unsigned char in_scenario[RP_MAX_AXES];/* file axes that make a scenario */
} rp_sizing_view;
typedef struct rp_exact rp_exact;
/* NULL (with note) when the file cannot be searched again. */
int pascal_report_exact_open(const rp_file *f, const rp_plan *p, const rp_sizing_view *v, int64_t nscen,
                             const pascal_report_sizer *sizer, rp_exact **out, char *note, size_t len);
/* The draw that needs the most capacity in the scenario whose scenario
 * axes are at idx (idx is used as scratch for the others).  Returns 1, 0
 * when every draw is dropped by `where`, -1 on failure. */
int pascal_report_exact_scenario(rp_exact *x, const rp_file *f, const rp_sizing_view *v, int64_t *idx,
                                 rp_exact_result *best);
void pascal_report_exact_free(rp_exact *x);

/* json.c */
void pascal_report_json_str(FILE *o, const char *s);
void pascal_report_json_num(FILE *o, double v, int digits);
/* Writes a Vega-safe key: "name": */
void pascal_report_json_key(FILE *o, const char *k);

/* report.c: one report being made. */
typedef struct rp_run {
    const pascal_report_opts *opts;
    rp_file file;
    rp_plan plan;
    rp_cube cube;
    rp_sizing *sizing;
    int64_t cells;              /* plotted cells */
} rp_run;

/* data.c: the page's JSON data (ctx is an rp_run). */
void pascal_report_data(FILE *o, void *ctx);
/* The Pareto plot's costs (p->costs after the area) with a plotted value,
 * into out (cols indices); 0 when the plot is not drawn (no area). */
int pascal_report_pareto_costs(const rp_run *r, int *out);

/* page.c: the whole document around the JSON written by `data`. */
typedef void (*rp_data_fn)(FILE *o, void *ctx);
int pascal_report_page(FILE *o, const char *title, rp_data_fn data, void *ctx,
                       pascal_error *err);

#endif
