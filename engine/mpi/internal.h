/* State shared by the files of the MPI driver (run_mpi.c, plan_mpi.c);
 * internal to engine/. */
#ifndef PASCAL_ENGINE_MPI_INTERNAL_H
#define PASCAL_ENGINE_MPI_INTERNAL_H

#include <mpi.h>
#include <stdint.h>

#include "engine/run_work.h"
#include "engine/mpi/run_mpi.h"

typedef struct pascal_mpi_run {
    MPI_Comm comm;
    int rank, size;
    const pascal_spec *spec;
    const pascal_run_opts *o;
    pascal_run_stats *st;
    pascal_run_work *w;
    /* The plan: this rank's slice of the raw indices, the points kept in
     * each of its blocks, and the rows (kept points) of the slices before. */
    uint64_t slice0, slice1, row0, slice_rows;
    uint32_t *kept;
    int64_t nblocks;
    /* Chunk c holds rows [c * chunk, (c + 1) * chunk), whose points lie in
     * raw indices [cstart[c], cstart[c + 1]); cstart[nchunks] = raw_end. */
    int64_t chunk, nchunks;
    uint64_t *cstart;
} pascal_mpi_run;

/* Plans this rank's slice (collective): st->rows, raw_points and max_M of
 * the whole run; on bad points, the error of the smallest bad index. */
int pascal_run_mpi_plan(pascal_mpi_run *r, pascal_error *err);
/* Fills cstart for r->chunk rows per chunk (collective). */
int pascal_run_mpi_chunks(pascal_mpi_run *r, pascal_error *err);
/* Combines the ranks' headlines and finishes it on every rank (collective). */
int pascal_run_mpi_headline(pascal_mpi_run *r, pascal_error *err);

#endif
