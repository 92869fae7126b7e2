/* What a file holds, for `pascal info`: its root attributes, its columns
 * with units, the swept axes with their ranges and the /cube view.
 *
 * output/h5_info.c fills it from any HDF5 file (a sweep, shard, partial
 * run or calibration file; no check of which); info/info.c decides the
 * kind, info/csv.c adds the CSV kinds. */
#ifndef PASCAL_OUTPUT_H5_INFO_H
#define PASCAL_OUTPUT_H5_INFO_H

#include <stdint.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PASCAL_INFO_NAME 128
#define PASCAL_INFO_TEXT 512

typedef struct pascal_info_attr {
    char *key, *value;           /* value as text: numbers in decimal */
} pascal_info_attr;

typedef struct pascal_info_column {
    char group[PASCAL_INFO_NAME];       /* "points", "results", a calibration table */
    char name[PASCAL_INFO_NAME];
    char units[PASCAL_INFO_NAME];
    char description[PASCAL_INFO_TEXT];
    int64_t rows;
    double min, max;                    /* NaN when not computed or no number */
    char labels[PASCAL_INFO_TEXT];      /* labelled columns of a CSV: "a, b" */
} pascal_info_column;

typedef struct pascal_info_axis {
    char name[PASCAL_INFO_NAME];
    char units[PASCAL_INFO_NAME];
    int64_t count;
    double min, max;                    /* numeric axes; NaN for labels */
    char labels[PASCAL_INFO_TEXT];      /* enum axes: "a, b, c" (cut with "...") */
    int64_t dim, order;                 /* sweep dimension and canonical position;
                                           -1 in files of format version 1 */
} pascal_info_axis;

typedef struct pascal_file_info {
    const char *kind;                   /* "sweep", "shard", "partial", "calibration",
                                           "reference", "sweep-csv" (info/info.h) */
    int64_t rows;                       /* rows of the table (sweep: its points) */
    pascal_info_attr *attrs;            /* root attributes in name order */
    int nattrs;
    pascal_info_column *cols;
    int ncols;
    pascal_info_axis *axes;             /* swept axes in canonical order */
    int naxes;
    char view[PASCAL_INFO_TEXT];        /* "/cube: cube (pattern x seed x C)"; "" when none */
    /* What a stopped or killed run of the same destination left beside it
     * (sweep, shard and partial kinds; info/leftovers.c): "" and -1 when none. */
    char journal[PASCAL_INFO_TEXT];     /* "<dest>.journal" of a killed run */
    int64_t journal_rows;               /* rows `run --resume` would recover from it */
    char partial[PASCAL_INFO_TEXT];     /* "<dest>.partial", when not this file */
    int64_t partial_rows;               /* rows kept in it */
} pascal_file_info;

/* Reads an HDF5 file: root attributes; every 1-D dataset of the root's
 * groups but /axes and /cube as a column (group/name, units, description,
 * rows); /axes with ranges; the /cube layout.  PASCAL_EINPUT when the file
 * is not HDF5 (err says so), PASCAL_EIO when it cannot be read. */
int pascal_h5_describe(const char *path, pascal_file_info *out, pascal_error *err);
/* Reads a killed run's journal ("<dest>.journal", output/journal.h) as
 * `run --resume` would, without recovering anything: rows = the rows it
 * would recover (0 when the file it describes is gone or replaced);
 * attributes: file (the killed run's file), file_present (1 or 0),
 * chunk_rows, compression, shuffle, columns, boot ("this" or "another":
 * from another boot only chunks synced to disk count), and the run's
 * inputs (sha256_spec, sha256_device, ..., spec_path, device_path,
 * calibration, shard, raw_range, pascal_version); only header = "torn"
 * when the run was killed while starting it.  PASCAL_EINPUT when the
 * file is not a journal, PASCAL_EIO when it cannot be read. */
int pascal_journal_describe(const char *path, pascal_file_info *out, pascal_error *err);
/* The value of a root attribute, or NULL. */
const char *pascal_info_attr_value(const pascal_file_info *info, const char *key);
void pascal_file_info_free(pascal_file_info *info);

#ifdef __cplusplus
}
#endif

#endif
