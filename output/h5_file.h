/* Reading an HDF5 file by walking its layout: the HDF5 access of readers
 * outside output/ (the report), so that HDF5 is reached only through this
 * module.  Names are paths inside the file ("axes/phases", "points/C";
 * "/" or "." is the root).  Every call reports failure by its return value
 * and never prints an HDF5 error stack.  Not installed: readers of sweep
 * files use pascal_h5_read_column and pascal_h5_read_attr (sink.h).
 *
 *   pascal_h5_file      one file open read-only: objects, links, attributes,
 *                       whole 1-D numeric datasets and enum labels
 *   pascal_h5_columns   1-D datasets read in blocks of rows as float64
 *                       (integer and enum codes converted), so memory is
 *                       bounded by the block size */
#ifndef PASCAL_OUTPUT_H5_FILE_H
#define PASCAL_OUTPUT_H5_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_h5_file pascal_h5_file;

/* 1 when path holds an HDF5 file, 0 when it holds something else or
 * cannot be read. */
int pascal_h5_is_hdf5(const char *path);

/* Opens path read-only; PASCAL_EIO naming the path when it cannot. */
int pascal_h5_file_open(const char *path, pascal_h5_file **out, pascal_error *err);
void pascal_h5_file_close(pascal_h5_file *f); /* NULL is a no-op */

enum { PASCAL_H5_NONE = 0, PASCAL_H5_GROUP = 1, PASCAL_H5_DATASET = 2 };
/* What `name` is: PASCAL_H5_NONE (absent, or another kind), _GROUP or
 * _DATASET. */
int pascal_h5_file_kind(pascal_h5_file *f, const char *name);

/* Links of group `group` in name order: their count (-1 when the group
 * cannot be read), and the name of link i into buf (0, or -1 when it does
 * not fit or cannot be read). */
int64_t pascal_h5_file_nlinks(pascal_h5_file *f, const char *group);
int pascal_h5_file_link(pascal_h5_file *f, const char *group, int64_t i, char *buf,
                        size_t len);

/* Attribute `key` of object `name` as malloc'd text: a string as stored, a
 * scalar number as "%.17g"; NULL when absent or of another kind. */
char *pascal_h5_file_attr_text(pascal_h5_file *f, const char *name, const char *key);
/* Every attribute of object `name` in name order: fn(ctx, key, text), text
 * as pascal_h5_file_attr_text gives it (NULL when not text).  A nonzero
 * return from fn stops the walk and is returned; -1 when the object's
 * attributes cannot be listed. */
int pascal_h5_file_attrs(pascal_h5_file *f, const char *name,
                         int (*fn)(void *ctx, const char *key, const char *text), void *ctx);
/* A numeric attribute of any shape: its number of values (-1 when absent
 * or not numeric), and the values as float64 into out. */
int64_t pascal_h5_file_attr_count(pascal_h5_file *f, const char *name, const char *key);
int pascal_h5_file_attr_doubles(pascal_h5_file *f, const char *name, const char *key,
                                double *out);

/* Length of a 1-D float, integer or enum dataset; -1 for anything else. */
int64_t pascal_h5_file_length(pascal_h5_file *f, const char *dset);
/* The whole 1-D dataset as float64 into out (length values). */
int pascal_h5_file_read(pascal_h5_file *f, const char *dset, double *out);
/* For an enum dataset: labels[k] gets the malloc'd name of code values[k]
 * (k < n).  Returns 0; 1 when the dataset is not an enum (labels
 * untouched); -1 when it cannot be read or a value names no member (the
 * labels written so far are the caller's to free). */
int pascal_h5_file_enum_labels(pascal_h5_file *f, const char *dset, const double *values,
                               int64_t n, char **labels);

typedef struct pascal_h5_columns pascal_h5_columns;

/* Opens path and the n 1-D datasets names[0..n-1] for reading by rows;
 * PASCAL_EIO naming the path or the dataset on failure. */
int pascal_h5_columns_open(const char *path, const char *const *names, int n,
                           pascal_h5_columns **out, pascal_error *err);
/* Rows [start, start + count) of dataset i into bufs[i] as float64. */
int pascal_h5_columns_read(pascal_h5_columns *c, int64_t start, int64_t count,
                           double *const *bufs, pascal_error *err);
void pascal_h5_columns_close(pascal_h5_columns *c); /* NULL is a no-op */

#ifdef __cplusplus
}
#endif

#endif
