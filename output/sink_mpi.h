/* The HDF5 sink of an MPI run (the MPI build only; docs/scale.md): every
 * rank of a communicator writes one file through parallel HDF5 (MPI-IO),
 * with the layout, chunking and filters of output/sink.h, so that the file
 * holds exactly the rows one process writes.
 *
 * Every function here is collective: all ranks call it, in the same order,
 * with the same arguments except the rows each rank contributes, and all get
 * the same status (common/error_mpi.h).  Rank 0 owns what lies beside the
 * file: the temporary name, the rename into place, "<dest>.partial" and the
 * journal (output/journal.h); the caller holds the output's claim on rank 0.
 *
 * How ranks write chunks.  Parallel HDF5 1.10 adds a chunk to a file only
 * in a call in which every rank makes the same change to the chunk index.
 *   - Uncompressed columns: chunks are allocated when the extent grows (a
 *     collective call, once per window), so each rank then writes its own
 *     rows with independent H5Dwrite calls: no exchange, no waiting.
 *   - Compressed columns: H5Dwrite_chunk (the direct chunk write the
 *     one-process sink compresses for) is a change one rank makes alone:
 *     under MPI-IO it leaves the ranks' views of the chunk index apart, and
 *     the file unreadable or its close hung (a collective transfer list makes
 *     it fail instead).  So rows go through collective H5Dwrite calls, and
 *     HDF5's filters compress, each rank the chunks it owns: the ranks first
 *     send each other the rows of chunks they do not own, so that no chunk
 *     is written by two ranks (HDF5 would gather it on one, slower, by a path
 *     with a history of bugs in 1.10). */
#ifndef PASCAL_OUTPUT_SINK_MPI_H
#define PASCAL_OUTPUT_SINK_MPI_H

#include <mpi.h>
#include <stdint.h>

#include "output/sink.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rows [row, row + n) of the file, held at rows [at, at + n) of this rank's
 * column arrays.  A rank's ranges are in increasing row and `at` order. */
typedef struct pascal_sink_range {
    int64_t row, n, at;
} pascal_sink_range;

/* Creates the file (rank 0 makes the temporary name beside meta->path and
 * tells the others), or with resume reopens "<meta->path>.partial", which
 * rank 0 has already checked with pascal_sink_resume; *rows receives the rows
 * already there (0 for a new file).  Rank 0 starts the journal when
 * meta->journal is set. */
int pascal_sink_mpi_open(MPI_Comm comm, const pascal_sink_meta *meta,
                         const pascal_column_desc *point_cols, int npoint,
                         const pascal_column_desc *result_cols, int nresult, int resume,
                         pascal_sink **out, int64_t *rows, pascal_error *err);

/* Rows per chunk of the open file. */
int64_t pascal_sink_mpi_chunk(const pascal_sink *sink);

/* Extends every column to `rows` rows and writes this rank's ranges (points
 * and results as pascal_sink_append takes them).  Afterwards the file holds
 * rows [0, rows): every row below must have been written by some rank, now
 * or before.  Rank 0 then records the whole chunks in the journal, after a
 * collective flush when a sync mark is due. */
int pascal_sink_mpi_write(pascal_sink *sink, int64_t rows, const pascal_sink_range *ranges,
                          int nranges, const void *const *points,
                          const double *const *results, pascal_error *err);

/* Completes the file and renames it into place.  Frees sink. */
int pascal_sink_mpi_finish(pascal_sink *sink, pascal_error *err);
/* Keeps the rows written so far (whole chunks: the caller wrote only those)
 * as "<dest>.partial" for --resume.  Frees sink. */
int pascal_sink_mpi_suspend(pascal_sink *sink, int64_t *rows, pascal_error *err);
/* Closes the file and removes it (a resumed run keeps its partial file and
 * journal).  Frees sink; NULL is a no-op. */
void pascal_sink_mpi_abort(pascal_sink *sink);

#ifdef __cplusplus
}
#endif

#endif
