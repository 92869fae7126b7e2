/* A sweep run shared by the ranks of an MPI job (the MPI build only;
 * docs/scale.md).  `mpirun -n P pascal-mpi run SPEC -o OUT.h5`: every rank
 * plans a slice of the points, then the ranks take windows of whole chunks
 * of rows piece by piece from a shared counter (so that slow points do not
 * leave ranks idle), each piece on the rank's OpenMP threads, and write each
 * window collectively into one HDF5 file (output/sink_mpi.h).  The file is
 * the one a single process writes, dataset for dataset and attribute for
 * attribute, bit for bit, apart from `created`, `threads` (rank 0's) and
 * `ranks`, whatever the number of ranks and of threads per rank.
 *
 * Rank 0 holds the output's claim, prints (through the CLI) and owns the
 * journal; every rank returns the same status and statistics. */
#ifndef PASCAL_ENGINE_MPI_RUN_MPI_H
#define PASCAL_ENGINE_MPI_RUN_MPI_H

#include "engine/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pascal_run over MPI_COMM_WORLD, which the program has initialised;
 * collective. */
int pascal_run_mpi(const pascal_spec *spec, const pascal_run_opts *o, pascal_run_stats *st,
                   pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
