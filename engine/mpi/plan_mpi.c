/* The distributed parts of an MPI run that come before and after the
 * writes (run_mpi_internal.h): the plan, the table of where each chunk's
 * rows start among the raw indices, and the headline of all ranks. */
#include "engine/mpi/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_mpi.h"
#include "engine/plan.h"
#include "engine/run_sizing.h"

/* Raw points planned at a time; the chunk table keeps one count per block.
 * Small enough that finding a chunk start inside a block that `where`
 * thins costs a fraction of evaluating the chunk. */
#define PLAN_BLOCK 8192

/* Rank 0: the estimate of the whole run, for the caller to show (the
 * ranks share its evaluation, which the estimate does not divide). */
static void estimate(const pascal_mpi_run *r, const pascal_plan_opts *po)
{
    pascal_plan_estimate e;
    if (r->rank != 0 || !r->o->on_estimate)
        return;
    pascal_plan_estimate_run(r->spec, r->st->raw_begin, r->st->raw_end, po, &e);
    r->o->on_estimate(r->o->estimate_ctx, &e);
}

/* This rank's slice in blocks, in index order, stopping at the first bad
 * one (engine/plan.h: each block's check reports the smallest failing
 * index it finds, so the lowest rank that fails has the run's first).
 * Rank 0 reports its slice's progress as the run's. */
static int plan_slice(pascal_mpi_run *r, const pascal_plan_opts *po, uint64_t *local,
                      int64_t *max_M, pascal_error *err)
{
    const pascal_run_opts *o = r->o;
    int report = r->rank == 0 && o->check_progress, rc = 0;
    uint64_t n = r->slice1 - r->slice0;
    if (report)
        o->check_progress(o->progress_ctx, 0, n);
    for (int64_t b = 0; rc == 0 && b < r->nblocks; b++) {
        uint64_t b0 = r->slice0 + (uint64_t)b * PLAN_BLOCK;
        uint64_t b1 = b0 + PLAN_BLOCK < r->slice1 ? b0 + PLAN_BLOCK : r->slice1;
        pascal_plan_result res;
        rc = pascal_plan_check(r->spec, b0, b1, po, &res, err);
        r->kept[b] = (uint32_t)res.rows;
        *local += res.rows;
        *max_M = res.max_M > *max_M ? res.max_M : *max_M;
        if (report && rc == 0)
            o->check_progress(o->progress_ctx, b1 - r->slice0, n);
    }
    return rc;
}

int pascal_run_mpi_plan(pascal_mpi_run *r, pascal_error *err)
{
    pascal_plan_opts po = {r->st->threads, r->o->memory_bytes, NULL, NULL, r->o->stop_flag, 0};
    uint64_t n = r->st->raw_end - r->st->raw_begin, local = 0, total = 0, before = 0;
    int64_t max_M = 0, all_M = 0;
    int rc = 0;
    r->slice0 = r->st->raw_begin + (uint64_t)((unsigned __int128)n * (unsigned)r->rank /
                                              (unsigned)r->size);
    r->slice1 = r->st->raw_begin + (uint64_t)((unsigned __int128)n * (unsigned)(r->rank + 1) /
                                              (unsigned)r->size);
    r->nblocks = (int64_t)((r->slice1 - r->slice0 + PLAN_BLOCK - 1) / PLAN_BLOCK);
    estimate(r, &po);
    if (!(r->kept = calloc((size_t)(r->nblocks > 0 ? r->nblocks : 1), sizeof *r->kept)))
        rc = pascal_error_set(err, PASCAL_ENOMEM, "out of memory for the plan");
    if (rc == 0)
        rc = plan_slice(r, &po, &local, &max_M, err);
    if ((rc = pascal_mpi_agree(r->comm, rc, err)))
        return rc;
    MPI_Exscan(&local, &before, 1, MPI_UINT64_T, MPI_SUM, r->comm);
    MPI_Allreduce(&local, &total, 1, MPI_UINT64_T, MPI_SUM, r->comm);
    MPI_Allreduce(&max_M, &all_M, 1, MPI_INT64_T, MPI_MAX, r->comm);
    r->row0 = r->rank == 0 ? 0 : before; /* MPI_Exscan leaves rank 0's undefined */
    r->slice_rows = local;
    r->st->raw_points = n;
    r->st->rows = total;
    r->st->max_M = all_M;
    /* Every rank makes the same checks on the same counts. */
    return pascal_mpi_agree(r->comm, pascal_run_work_check(r->w, err), err);
}

/* The raw index of row t (0-based, counting kept points) of block b, which
 * holds it: arithmetic when `where` dropped nothing there, else a scan. */
static uint64_t row_in_block(const pascal_mpi_run *r, int64_t b, uint64_t t)
{
    uint64_t b0 = r->slice0 + (uint64_t)b * PLAN_BLOCK;
    uint64_t b1 = b0 + PLAN_BLOCK < r->slice1 ? b0 + PLAN_BLOCK : r->slice1;
    if (r->kept[b] == b1 - b0)
        return b0 + t;
    for (uint64_t i = b0; i < b1; i++) {
        pascal_point p;
        if (pascal_spec_point(r->spec, i, &p, NULL) == 1 && t-- == 0)
            return i;
    }
    return b1; /* not reached: the plan counted the block's rows */
}

int pascal_run_mpi_chunks(pascal_mpi_run *r, pascal_error *err)
{
    uint64_t rows = r->st->rows, chunk = (uint64_t)r->chunk, first, last, seen = 0;
    int64_t b = 0;
    int *counts = NULL, *displs = NULL, mine, rc = 0;
    uint64_t *local = NULL;
    r->nchunks = (int64_t)((rows + chunk - 1) / chunk);
    /* The chunks whose first row this rank planned. */
    first = (r->row0 + chunk - 1) / chunk;
    last = (r->row0 + r->slice_rows + chunk - 1) / chunk;
    mine = (int)(last - first);
    r->cstart = malloc((size_t)(r->nchunks + 1) * sizeof *r->cstart);
    local = malloc((size_t)(mine > 0 ? mine : 1) * sizeof *local);
    counts = malloc((size_t)r->size * sizeof *counts);
    displs = malloc((size_t)r->size * sizeof *displs);
    if (!r->cstart || !local || !counts || !displs)
        rc = pascal_error_set(err, PASCAL_ENOMEM, "out of memory for %lld chunk starts",
                              (long long)r->nchunks);
    for (uint64_t c = first; rc == 0 && c < last; c++) {
        uint64_t t = c * chunk - r->row0; /* row within this slice */
        while (seen + r->kept[b] <= t)
            seen += r->kept[b++];
        local[c - first] = row_in_block(r, b, t - seen);
    }
    if ((rc = pascal_mpi_agree(r->comm, rc, err)) == 0) {
        MPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, r->comm);
        displs[0] = 0;
        for (int k = 1; k < r->size; k++)
            displs[k] = displs[k - 1] + counts[k - 1];
        MPI_Allgatherv(local, mine, MPI_UINT64_T, r->cstart, counts, displs, MPI_UINT64_T,
                       r->comm);
        /* Points `where` drops before the first row belong to chunk 0. */
        r->cstart[0] = r->st->raw_begin;
        r->cstart[r->nchunks] = r->st->raw_end;
    }
    free(local), free(counts), free(displs);
    return rc;
}

/* (value, raw index) pairs reduced as one process would have seen them in
 * index order: NaN is no value, ties go to the smaller index. */
typedef struct vi {
    double v;
    uint64_t i;
} vi;

static void pick(vi *in, vi *inout, int *len, int smaller)
{
    for (int k = 0; k < *len; k++) {
        vi a = in[k], *b = &inout[k];
        if (isnan(a.v))
            continue;
        if (isnan(b->v) || (smaller ? a.v < b->v : a.v > b->v) || (a.v == b->v && a.i < b->i))
            *b = a;
    }
}

static void op_min(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    pick(in, inout, len, 1);
}

static void op_max(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    pick(in, inout, len, 0);
}

static void op_best(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    for (int k = 0; k < *len; k++)
        run_sizing_pick(&((const run_sizing_best *)in)[k], &((run_sizing_best *)inout)[k]);
}

/* The exact sizing's answers (engine/run_sizing.h): each rank searched the
 * scenarios of its pieces; the answer of a group is the one a process
 * folding every scenario in index order keeps.  A rank without a search
 * (out of memory) turns it off on every rank. */
static void combine_sizing(pascal_mpi_run *r)
{
    int64_t n = 0;
    run_sizing_best *best = pascal_run_work_sizing(r->w, &n);
    int all = best != NULL;
    MPI_Datatype t;
    MPI_Op op;
    MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, r->comm);
    if (!all) {
        if (best)
            pascal_run_work_sizing_off(r->w, "a rank could not search");
        return;
    }
    MPI_Type_contiguous((int)sizeof *best, MPI_BYTE, &t);
    MPI_Type_commit(&t);
    MPI_Op_create(op_best, 1, &op);
    MPI_Allreduce(MPI_IN_PLACE, best, (int)n, t, op, r->comm);
    for (int64_t k = 0; k < n; k++)
        best[k].r.point.phases = NULL; /* another process's pointer: the answer's values are its axes */
    MPI_Op_free(&op);
    MPI_Type_free(&t);
}

int pascal_run_mpi_headline(pascal_mpi_run *r, pascal_error *err)
{
    pascal_run_extremes x;
    MPI_Datatype pair;
    MPI_Op lo, hi;
    vi ext[2], *worst;
    pascal_run_work_extremes(r->w, &x);
    if (!(worst = malloc((size_t)(x.nworst > 0 ? x.nworst : 1) * sizeof *worst)))
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory for the headline");
    MPI_Type_contiguous((int)sizeof(vi), MPI_BYTE, &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(op_min, 1, &lo);
    MPI_Op_create(op_max, 1, &hi);
    ext[0] = (vi){*x.min, *x.imin};
    MPI_Allreduce(MPI_IN_PLACE, &ext[0], 1, pair, lo, r->comm);
    ext[1] = (vi){*x.max, *x.imax};
    MPI_Allreduce(MPI_IN_PLACE, &ext[1], 1, pair, hi, r->comm);
    *x.min = ext[0].v, *x.imin = ext[0].i;
    *x.max = ext[1].v, *x.imax = ext[1].i;
    for (int64_t k = 0; k < x.nworst; k++)
        worst[k] = (vi){x.worst[k], x.worst_at[k]};
    /* In pieces: a count is an int. */
    for (int64_t k = 0; k < x.nworst; k += 1 << 20) {
        int n = (int)(x.nworst - k < (1 << 20) ? x.nworst - k : 1 << 20);
        MPI_Allreduce(MPI_IN_PLACE, worst + k, n, pair, hi, r->comm);
    }
    for (int64_t k = 0; k < x.nworst; k++)
        x.worst[k] = worst[k].v, x.worst_at[k] = worst[k].i;
    MPI_Op_free(&lo);
    MPI_Op_free(&hi);
    MPI_Type_free(&pair);
    free(worst);
    combine_sizing(r);
    pascal_run_work_finish(r->w);
    return 0;
}
