/* What the files of `pascal info` share (internal to info/): info.c
 * decides a file's kind and hands a text file to csv.c; leftovers.c says
 * what a stopped or killed run left beside a sweep file.  Neither calls
 * info.c. */
#ifndef PASCAL_INFO_INFO_INTERNAL_H
#define PASCAL_INFO_INFO_INTERNAL_H

#include "common/error.h"
#include "output/h5_info.h"

#define NOT_ONE "not a pascal sweep, shard, partial run, calibration or reference file"

/* ---- csv.c ---- */
/* A text file: reference runs, a sweep table written with --format csv, or
 * PASCAL_EINPUT saying it is neither. */
int pascal_info_describe_csv(const char *path, pascal_file_info *d, pascal_error *err);

/* ---- leftovers.c ---- */
/* DEST.journal (the rows --resume would recover) and DEST.partial (its
 * rows) when they exist and are not path itself; DEST is the output path
 * belongs to (OUT for OUT, OUT.partial and a killed run's OUT.tmp.PID). */
void pascal_info_note_beside(const char *path, pascal_file_info *d);
/* A killed run's own file, whose HDF5 metadata was never closed (HDF5 may
 * refuse to open it): described by DEST.journal when the journal names it.
 * 0 and *d filled, or -1 when no journal names it. */
int pascal_info_describe_killed(const char *path, pascal_file_info *d);
/* An output that does not exist yet may have a killed run's journal beside
 * it: err's message then says so.  Returns err->code. */
int pascal_info_missing_output(const char *path, pascal_error *err);

#endif
