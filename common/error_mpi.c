/* One outcome for every rank (error_mpi.h). */
#include "common/error_mpi.h"

#include <string.h>

int pascal_mpi_agree(MPI_Comm comm, int rc, pascal_error *err)
{
    struct {
        int rc;
        pascal_error e;
    } msg;
    int rank, size, mine, first;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    mine = rc != 0 ? rank : size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == size)
        return 0;
    memset(&msg, 0, sizeof msg);
    if (rank == first) {
        msg.rc = rc;
        if (err)
            msg.e = *err;
    }
    MPI_Bcast(&msg, (int)sizeof msg, MPI_BYTE, first, comm);
    if (err)
        *err = msg.e;
    if (err && !err->msg[0]) /* a failing rank always sets one; never leave it empty */
        pascal_error_set(err, msg.rc, "rank %d failed (status %d)", first, msg.rc);
    return msg.rc;
}
