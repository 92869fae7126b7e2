/* Reading the files pascal writes: a sweep file's columns (/points: the
 * axes and derived parameters; /results: one column per model output),
 * their units and its root attributes (the spec text, provenance, digests
 * of the inputs; docs/hdf5.md), and joining the shards of one sweep.  The
 * files are plain HDF5: h5py, pandas and xarray read them too. */
#ifndef PASCAL_SINK_H
#define PASCAL_SINK_H

#include <stdint.h>

#include "pascal/error.h"
#include "pascal/version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_sweep_file pascal_sweep_file;

/* Opens a finished sweep, shard or partial file (or a calibration file) for
 * reading.  PASCAL_EINPUT when it is not such a file, PASCAL_EIO when it
 * cannot be read. */
PASCAL_API int pascal_sweep_file_open(const char *path, pascal_sweep_file **out,
                                      pascal_error *err);
PASCAL_API void pascal_sweep_file_close(pascal_sweep_file *f);

/* Rows of its table (a sweep: its points). */
PASCAL_API int64_t pascal_sweep_file_rows(const pascal_sweep_file *f);
/* Its columns: k in [0, pascal_sweep_file_columns) gives the name, and its
 * group ("points", "results", ...) and units when those are not NULL;
 * NULL for k out of range.  The strings live as long as f. */
PASCAL_API int pascal_sweep_file_columns(const pascal_sweep_file *f);
PASCAL_API const char *pascal_sweep_file_column(const pascal_sweep_file *f, int k,
                                                const char **group, const char **units);
/* A root attribute as text (numbers in decimal), or NULL when absent. */
PASCAL_API const char *pascal_sweep_file_attr(const pascal_sweep_file *f, const char *key);
/* Column group/name as float64 (integer and label columns converted):
 * *values is malloc'd (free it), *n its length. */
PASCAL_API int pascal_sweep_file_read(const pascal_sweep_file *f, const char *group,
                                      const char *name, double **values, int64_t *n,
                                      pascal_error *err);

/* Joins the n finished shard files of one sweep (`run` with shard_count n,
 * in any order) into dest, whose rows are then those one run writes.  Every
 * shard must be present once, complete and from the same spec and inputs;
 * nothing is left at dest on failure. */
PASCAL_API int pascal_sweep_merge(const char *dest, const char *const *shards, int n,
                                  pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
