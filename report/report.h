/* pascal report: one self-contained HTML page from a sweep file.
 *
 * The page inlines its plotting library (Vega, Vega-Lite and vega-embed,
 * installed from the npm registry at build time and embedded into the
 * library) and its data as JSON, so it opens offline.  What it shows is chosen
 * from the file's axes and result columns:
 *   - miss rate vs capacity (bytes or blocks), one line per phase pattern or
 *     cluster count, with the Theorem 3 LRU band shaded, the Theorem 4
 *     residency lower bound and the Che/IRM baseline, when a capacity axis is
 *     swept;
 *   - a heatmap over any two swept axes, the others fixed by selectors;
 *   - dynamic predictions vs the horizon W with their band, when the file has
 *     K_dyn and a W axis;
 *   - a sizing table: per scenario the smallest swept capacity whose miss
 *     rate (worst over random draws) is at or below a target, and the
 *     Theorem 5 capacity 2 sigma - 1 where sigma (`lead`) is known, for
 *     each metric of the page's menu; and that required capacity plotted
 *     against a scenario axis, with a pivot table over two of them;
 *   - the spec, provenance and point count, and the cache lab panel.
 *
 * Plot data are averaged over random draws (the `seed` axis) and, when the
 * sweep is large, down-sampled to evenly spaced axis values; the page says
 * which.  The sizing table always uses every row.  The file is read in
 * blocks of rows, so memory does not grow with the sweep. */
#ifndef PASCAL_REPORT_REPORT_H
#define PASCAL_REPORT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pascal_spec;

/* Exact sizing for the sizing table, supplied by a program that links the
 * engine (report/ sits beside the engine and does not call it): the CLI
 * passes engine/size.h's pascal_size_searcher_open, _at and _free.  open
 * checks that "column <= target" can be searched on the file's spec and
 * returns a searcher (NULL, with the reason in note, when it cannot); at
 * searches the scenario at a raw index of that spec: 1 with the smallest C
 * meeting the target (blocks, -1 when none in range), its bytes (NaN when
 * unknown) and the column there, 0 when `where` drops the point, -1 on
 * failure. */
typedef struct pascal_report_sizer {
    void *(*open)(const struct pascal_spec *spec, int column, double target, char *note, size_t len);
    int (*at)(void *searcher, uint64_t raw, int64_t *C, double *bytes, double *value);
    void (*close)(void *searcher);
} pascal_report_sizer;

typedef struct pascal_report_opts {
    const char *in_path;       /* a finished HDF5 sweep file */
    const char *out_path;      /* the HTML page; written as OUT.tmp.PID, then renamed */
    double target;             /* sizing target, >= 0; NaN: the metric's default,
                                  0.05 for a miss rate, 1.2 for a workload's
                                  traffic ratio (x ideal) */
    int64_t max_values;        /* plot budget: cells x columns in the page; <= 0 chooses */
    int64_t block_rows;        /* rows read per block; <= 0 chooses */
    const char *command_line;  /* recorded in the page (may be NULL) */
    const pascal_report_sizer *sizer; /* exact sizing; NULL: swept capacities only */
} pascal_report_opts;

typedef struct pascal_report_stats {
    int64_t rows;              /* points in the file */
    int64_t cells;             /* plotted cells (after averaging and down-sampling) */
    int ncolumns;              /* plotted columns per cell */
    int downsampled;           /* some axis plotted at fewer values than swept */
    int averaged;              /* some axis (random draws) averaged */
    int plots;                 /* plots in the page */
    int64_t scenarios;         /* sizing-table rows */
    int64_t bytes;             /* size of the page */
    double seconds;
} pascal_report_stats;

/* Writes the page.  Returns 0; PASCAL_EINPUT when the input is not a
 * finished pascal sweep file or an option is out of range (err says which,
 * as "FILE: /path: expected X, got Y"); PASCAL_EIO when a file cannot be read
 * or written.  On failure no output file is created or replaced. */
int pascal_report_write(const pascal_report_opts *opts, pascal_report_stats *stats,
                        pascal_error *err);

/* 1 when this build embeds the plotting library (npm was available when it
 * was built), else 0: pascal_report_write then fails with PASCAL_EIO. */
int pascal_report_has_plot_library(void);

#ifdef __cplusplus
}
#endif

#endif
