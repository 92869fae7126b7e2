/* One outcome for every rank of an MPI run (the MPI build only).
 *
 * The ranks of a run must take the same path after every step that can fail
 * (a collective HDF5 call made by some ranks and not others never returns),
 * and the message printed by rank 0 must be the one that names the actual
 * fault, wherever it happened. */
#ifndef PASCAL_COMMON_ERROR_MPI_H
#define PASCAL_COMMON_ERROR_MPI_H

#include <mpi.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over comm: each rank passes its status (0 or a PASCAL_E* code)
 * and its error.  Returns the status of the lowest-numbered rank that failed,
 * 0 when none did, and gives every rank that rank's error. */
int pascal_mpi_agree(MPI_Comm comm, int rc, pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
