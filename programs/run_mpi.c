/* pascal-mpi run: `pascal run` as one rank of an MPI job (docs/scale.md).
 * MPI starts here, and pascal_run_mpi shares the run with the other ranks;
 * every rank parses the same arguments and reaches the same status, and
 * only rank 0 speaks: the others' output goes nowhere. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

#include "programs/cli.h"

int cli_run_mpi(int argc, char **argv)
{
    int provided = 0, rank = 0, rc;
    /* Only the thread that calls pascal_run makes MPI calls; OpenMP
     * threads evaluate between them. */
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "pascal run: MPI did not start (is this rank started by mpirun?)\n");
        return CLI_FAIL;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) {
        int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
        fflush(stdout);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
            close(null);
        }
    }
    rc = cli_run_ranks(argc, argv);
    fflush(stdout);
    fflush(stderr);
    /* mpirun ends the job when a rank exits with a nonzero status: the
     * others wait here until rank 0 has said everything and let go of the
     * output. */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
