/* Result sinks: HDF5 (DESIGN.md section 5) and CSV.
 *
 * A sink receives a table in canonical row order, batch by batch: "point"
 * columns (the parameters of each row) and "result" columns (float64, NaN
 * for null).  It knows nothing of the model: it writes named columns with the
 * units and descriptions it is given.  Files are written under a temporary
 * name beside the destination and renamed over it only by a successful
 * pascal_sink_finish(); pascal_sink_abort() removes the temporary file and
 * leaves any existing destination untouched.
 *
 * HDF5 layout:
 *   /                 attributes: format = "pascal-sweep", format_version,
 *                     pascal_version, spec (full text), spec_path,
 *                     command_line, threads, complete (0 until finish, then 1),
 *                     points (rows), created (ISO 8601 UTC), plus any extra
 *                     string attributes passed in pascal_sink_meta
 *   /axes/<name>      each swept axis's values (float64 or int64; pattern
 *                     axes as an HDF5 enum; phase lists as /axes/phases/<i>,
 *                     and a swept "phases" axis, whose values index those
 *                     lists, as the int64 attribute /axes/phases@values)
 *   /points/<name>    one column per point column, one row per point
 *   /results/<name>   one float64 column per result, attributes `units` and
 *                     `description`
 *   /cube             the same columns as a labelled N-D view for netCDF-4
 *                     tools (virtual datasets, no copy); see output/h5_cube.c
 * Datasets are chunked (chunk_rows, at most expected_rows), extendible,
 * optionally shuffled and deflated. */
#ifndef PASCAL_OUTPUT_SINK_H
#define PASCAL_OUTPUT_SINK_H

#include <signal.h>
#include <stdint.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_sink pascal_sink;

typedef enum pascal_sink_format {
    PASCAL_SINK_HDF5 = 0,
    PASCAL_SINK_CSV = 1
} pascal_sink_format;

typedef enum pascal_coltype {
    PASCAL_COLTYPE_F64 = 0,  /* double */
    PASCAL_COLTYPE_I64 = 1,  /* int64_t */
    PASCAL_COLTYPE_ENUM = 2  /* int64_t codes 0..nlabels-1; HDF5 enum, CSV label */
} pascal_coltype;

typedef struct pascal_column_desc {
    const char *name;
    const char *units;
    const char *description;
    pascal_coltype type;
    const char *const *labels; /* ENUM: label of each code */
    int nlabels;
} pascal_column_desc;

typedef struct pascal_attr {
    const char *key;
    const char *value;
} pascal_attr;

typedef struct pascal_axis_desc {
    const char *name;
    pascal_coltype type;
    const char *units;
    const char *const *labels; /* ENUM */
    int nlabels;
    int64_t count;
    const double *values;      /* count values (ENUM: codes) */
} pascal_axis_desc;

typedef struct pascal_sink_meta {
    pascal_sink_format format;
    const char *path;          /* destination; "-" for stdout (CSV only) */
    int compression;           /* 0: none, 1..9: deflate level (HDF5) */
    int shuffle;               /* HDF5 byte shuffle */
    int64_t chunk_rows;        /* HDF5 chunk length; <= 0 chooses */
    const char *spec_text;
    const char *spec_path;
    const char *command_line;
    int threads;
    const pascal_attr *attrs;  /* extra root attributes */
    int nattrs;
    const pascal_axis_desc *axes;
    int naxes;
    /* explicit phase lists for /axes/phases (may be 0) */
    int64_t nphase_lists;
    const int64_t *const *phase_lists;
    const int64_t *phase_list_lens;
    /* Optional: runs body(arg, i) for i in [0, n), possibly in parallel, and
     * returns when all are done.  The HDF5 sink compresses the columns of a
     * chunk through it; NULL runs them one after another. */
    void (*parallel_for)(int n, void (*body)(void *arg, int i), void *arg);
    /* HDF5: keep "<path>.journal" while writing, so that a run killed
     * outright can be recovered (pascal_sink_recover). */
    int journal;
    /* Optional: read while a resume journals the chunks of a partial file
     * that has no index, the flag first (a signal handler's), else polled:
     * nonzero stops it with PASCAL_EINTR. */
    const volatile sig_atomic_t *stop_flag;
    int (*should_stop)(void *ctx);
    void *stop_ctx;
    /* Rows the caller will append (0: unknown).  A chunk never holds more
     * rows than this, so a small sweep makes a small file. */
    int64_t expected_rows;
    /* Optional: the sweep dimension of each of the naxes axes (the axes of
     * a zip group share one), non-decreasing; NULL gives each axis its own
     * dimension.  With it, finish writes the /cube view (output/h5_cube.c).
     * -1 marks an axis whose values are drawn (a sampled sweep): no grid
     * dimension, so /cube is a point list. */
    const int *axis_dims;
    /* HDF5: the `created` attribute (ISO 8601 UTC); NULL: now.  The ranks
     * of an MPI run write one file and must record the same time. */
    const char *created;
    /* HDF5: allocate compressed chunks when the extent grows, as parallel
     * HDF5 needs to continue the file under mpirun (uncompressed ones always
     * are); costs a deflated fill chunk per chunk. */
    int early_chunks;
} pascal_sink_meta;

/* Opens a sink; the temporary file is created now, so an unwritable
 * destination fails here (PASCAL_EIO, err names the path and the reason)
 * before any work is done. */
int pascal_sink_open(const pascal_sink_meta *meta,
                     const pascal_column_desc *point_cols, int npoint,
                     const pascal_column_desc *result_cols, int nresult,
                     pascal_sink **out, pascal_error *err);

/* Appends nrows rows.  points[j] points to nrows values of point column j
 * (double for F64, int64_t for I64 and ENUM); results[j] to nrows doubles. */
int pascal_sink_append(pascal_sink *sink, int64_t nrows,
                       const void *const *points, const double *const *results,
                       pascal_error *err);

/* Interrupted runs (HDF5 only).  suspend keeps the whole chunks already in
 * the file (rows still buffered are dropped: the run re-evaluates them),
 * closes it and renames it "<dest>.partial"; *rows receives the rows kept.
 * Frees sink.  A CSV sink cannot be suspended: it is aborted and
 * PASCAL_EINPUT says so. */
int pascal_sink_suspend(pascal_sink *sink, int64_t *rows, pascal_error *err);
/* Reopens "<meta->path>.partial" to continue it: it must be an incomplete
 * file of the same spec text, shard and columns.  Chunking and filters come
 * from the file.  *rows receives the rows already there; appends continue
 * after them and finish renames the file to meta->path.  On failure the
 * partial file is left as it was.  With meta->journal the file is opened
 * for writing only once "<meta->path>.journal" names it; without, it is
 * opened read-only, to read its rows (pascal_sink_read_result) and close
 * it again (pascal_sink_suspend), not to append. */
int pascal_sink_resume(const pascal_sink_meta *meta,
                       const pascal_column_desc *point_cols, int npoint,
                       const pascal_column_desc *result_cols, int nresult,
                       pascal_sink **out, int64_t *rows, pascal_error *err);
/* Hard kills (HDF5 with meta->journal; see output/journal.h).  When
 * "<meta->path>.journal" describes the file of a run that was killed, copies
 * its recorded whole chunks into a new "<meta->path>.partial" (replacing an
 * older one) and removes the killed run's file and journal; *rows receives
 * the rows recovered, or -1 when there was no journal to recover (none, or
 * one whose file is gone).  PASCAL_EINPUT, leaving everything as it was,
 * when the killed run had other inputs (spec text, device profile,
 * calibration, columns, version, shard: the message names which).  Only
 * for a caller holding the destination's claim (output/fs/lock.h). */
int pascal_sink_recover(const pascal_sink_meta *meta,
                        const pascal_column_desc *point_cols, int npoint,
                        const pascal_column_desc *result_cols, int nresult,
                        int64_t *rows, pascal_error *err);
/* Removes "<dest>.journal" (a fresh run starts over); same condition. */
void pascal_sink_forget(const char *dest);

/* Reads rows [from, from + n) of result column j of an open HDF5 sink (rows
 * already in the file), e.g. to summarise the part a resumed run skips. */
int pascal_sink_read_result(pascal_sink *sink, int j, int64_t from, int64_t n, double *out,
                            pascal_error *err);

/* Marks the file complete, closes it and renames it into place. Frees sink. */
int pascal_sink_finish(pascal_sink *sink, pascal_error *err);
/* Closes and removes the temporary file.  Frees sink; NULL is a no-op. */
void pascal_sink_abort(pascal_sink *sink);

/* Before reading a file someone else may have damaged: its metadata, and
 * its data up to a budget, are read in a child process first; a crash or
 * a hang there refuses it (PASCAL_EINPUT, "expected an HDF5 file pascal
 * can read, got a damaged one ...") and cannot take this process down.
 * 0 otherwise, even when HDF5 merely reports errors, which the real reader
 * then meets and names (output/h5_vet.c). */
int pascal_h5_vet(const char *path, pascal_error *err);

/* Reading back (tests, `pascal report`): the row count and one column of a
 * finished HDF5 file.  group is "points" or "results".  *values is malloc'd
 * (float64; I64/ENUM columns converted); caller frees. */
int pascal_h5_read_column(const char *path, const char *group, const char *name,
                          double **values, int64_t *nrows, pascal_error *err);
/* A root string attribute into buf. */
int pascal_h5_read_attr(const char *path, const char *key, char *buf, int len,
                        pascal_error *err);
/* The same for a value of any length: *value is malloc'd; caller frees.
 * Integer attributes come back in decimal, floats as "%.17g". */
int pascal_h5_read_attr_alloc(const char *path, const char *key, char **value,
                              pascal_error *err);

/* Concatenates the finished shard files of one sweep (`pascal run --shard
 * k/n`, any order on the command line) into dest, in shard order, so its
 * /points and /results equal a single run's.  Every shard must be present
 * once, complete, from the same spec text.  dest is written under a
 * temporary name and renamed into place; on failure nothing is left. */
int pascal_h5_merge(const char *dest, const char *const *inputs, int n, pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
