/* pascal info: what kind of pascal file a path is, and what it holds.
 *
 * Kinds (pascal_file_info.kind):
 *   sweep        a finished `pascal run` (or `pascal merge`) HDF5 file
 *   shard        a finished `pascal run --shard K/N` file (N > 1)
 *   partial      an unfinished run: OUT.partial after Ctrl-C, or OUT.tmp.PID
 *   journal      OUT.journal of a killed run: rows = what --resume recovers
 *   killed       a killed run's own file, which HDF5 cannot open: described
 *                by the OUT.journal that names it
 *   calibration  a `pascal calibrate` model file
 *   reference    a CSV of reference runs (o,path,d,m,N,W,K) for calibrate
 *   sweep-csv    a `pascal run --format csv` table
 * For sweep, shard and partial files, journal/partial say what a stopped
 * or killed run of the same output left beside it.  Anything else is
 * PASCAL_EINPUT, the message saying what the file is. */
#ifndef PASCAL_INFO_INFO_H
#define PASCAL_INFO_INFO_H

#include "common/error.h"
#include "output/h5_info.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills *out (free with pascal_file_info_free).  Sweep CSV and reference
 * files are read once, row by row (column ranges); HDF5 files only for
 * their metadata and axes. */
int pascal_info_describe(const char *path, pascal_file_info *out, pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
