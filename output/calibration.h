/* Calibration files: the frozen dynamic model (paper section 4.5) as HDF5,
 * (the SHA-256 of its input, output/digest.h, is recorded as provenance).
 *
 * This module writes and reads named tables and root attributes; what the
 * tables mean (curves, references, cross-validation) is engine/calibrate's
 * business.  A file is written as "<dest>.tmp.<pid>" beside the destination
 * and renamed over it only when complete, so a failed write never leaves a
 * partial file or damages an existing one.
 *
 * Layout: root attributes (strings, float64 numbers, int64 integers), and
 * one group per table with one 1-D dataset per column (float64, int64, or an
 * HDF5 enum for labelled codes), each with `units` and `description`
 * attributes.  h5py reads everything without this project. */
#ifndef PASCAL_OUTPUT_CALIBRATION_H
#define PASCAL_OUTPUT_CALIBRATION_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "output/sink.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A root attribute: text when `text` is not NULL, else the number `num`
 * (written as int64 when `integer` is set, else float64). */
typedef struct pascal_cal_attr {
    const char *key;
    const char *text;
    double num;
    int integer;
} pascal_cal_attr;

/* A table: `ncols` columns of `nrows` rows.  data[j] is double* for F64 and
 * int64_t* for I64 and ENUM columns (ENUM codes 0..nlabels-1). */
typedef struct pascal_cal_table {
    const char *group;               /* group name under the root, no '/' */
    int64_t nrows;
    int ncols;
    const pascal_column_desc *cols;
    const void *const *data;
} pascal_cal_table;

/* Writes the file; PASCAL_EIO (naming the path) when the destination cannot
 * be created, PASCAL_EINPUT for bad table descriptions. */
int pascal_calibration_write(const char *path, const char *format, int64_t format_version,
                             const pascal_cal_attr *attrs, int nattrs,
                             const pascal_cal_table *tables, int ntables, pascal_error *err);

/* Reads columns names[0..n-1] of /group as float64 (enum codes by value)
 * into cols[j] (malloc'd; caller frees each); every column must have the
 * same length, returned in *nrows. */
int pascal_calibration_read_table(const char *path, const char *group, const char *const *names,
                                  int n, double **cols, int64_t *nrows, pascal_error *err);
/* A root attribute as a number (text attributes are parsed); PASCAL_EINPUT
 * when it is missing or not a number. */
int pascal_calibration_read_num(const char *path, const char *key, double *out,
                                pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
