/* The collective HDF5 sink of an MPI run (sink_mpi.h).
 *
 * The file is created and described by the one-process writer (h5_sink.c,
 * h5_meta.c), called on every rank with an MPI-IO file access list: every
 * rank makes the same metadata calls with the same values, as parallel HDF5
 * requires (the `created` and `threads` attributes come from rank 0).  Rows
 * are then written here, window by window, with collective H5Dwrite calls.
 * The suspend is the one-process one, made by every rank; the finish closes
 * the file on every rank, then rank 0 completes it in one process (the
 * /cube view holds label strings, which parallel HDF5 1.10 cannot write),
 * so that the view is the one a single process writes.  Only rank 0
 * touches the names beside the file. */
#include "output/sink_mpi.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error_mpi.h"
#include "output/journal.h"
#include "common/testpoint.h"
#include "output/sink_internal.h"
#include "output/fs/tmpfile.h"

/* A compressed window regrouped by chunk owner (to_owners). */
typedef struct owned {
    unsigned char *cols;       /* ncols blocks of cap rows of 8 bytes */
    int64_t cap;               /* rows */
    size_t cols_cap;           /* bytes */
    pascal_sink_range *ranges; /* one per owned chunk */
    int nranges, ranges_cap;
    unsigned char *send, *recv;
    size_t send_cap, recv_cap; /* bytes */
    int64_t *desc, *rdesc;     /* (row, n) of the parts sent and received */
    size_t desc_cap, rdesc_cap;/* int64s */
} regrouped;

struct pascal_mpisink {
    MPI_Comm comm;
    int rank, size;
    hid_t dxpl;            /* collective transfers (compressed columns) */
    unsigned char *narrow; /* enum codes narrowed to their stored width */
    size_t narrow_cap;     /* bytes */
    regrouped own;
};

static void free_mpisink(pascal_sink *sink)
{
    struct pascal_mpisink *m = sink->mpi;
    if (sink->fapl > 0)
        H5Pclose(sink->fapl);
    if (m) {
        if (m->dxpl > 0)
            H5Pclose(m->dxpl);
        MPI_Comm_free(&m->comm);
        free(m->narrow);
        free(m->own.cols), free(m->own.ranges), free(m->own.send), free(m->own.recv);
        free(m->own.desc), free(m->own.rdesc);
        free(m);
    }
    pascal_journal_close(sink->journal, 0);
    free(sink->tmp);
    free(sink->dest);
    free(sink);
}

/* The sink of every rank before any file exists: names, file access and
 * transfer lists. */
static int new_sink(MPI_Comm comm, const pascal_sink_meta *meta, int npoint, int nresult,
                    pascal_sink **out, pascal_error *err)
{
    pascal_sink *sink = calloc(1, sizeof *sink);
    struct pascal_mpisink *m = calloc(1, sizeof *m);
    *out = sink;
    if (!sink || !m) {
        free(m);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", meta->path);
    }
    sink->mpi = m;
    sink->format = PASCAL_SINK_HDF5;
    sink->npoint = npoint, sink->nresult = nresult;
    m->comm = MPI_COMM_NULL;
    MPI_Comm_dup(comm, &m->comm);
    MPI_Comm_rank(m->comm, &m->rank);
    MPI_Comm_size(m->comm, &m->size);
    if (!(sink->dest = strdup(meta->path)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", meta->path);
    if ((sink->fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0 ||
        H5Pset_fapl_mpio(sink->fapl, m->comm, MPI_INFO_NULL) < 0 ||
        (m->dxpl = H5Pcreate(H5P_DATASET_XFER)) < 0 ||
        H5Pset_dxpl_mpio(m->dxpl, H5FD_MPIO_COLLECTIVE) < 0)
        return pascal_h5_fail(err, meta->path, "setting up MPI-IO");
    return 0;
}

/* Rank 0 names the file (a new temporary file, or the partial file) and
 * every rank learns the name. */
static int share_name(pascal_sink *sink, int resume, pascal_error *err)
{
    struct pascal_mpisink *m = sink->mpi;
    int rc = 0, len = 0;
    if (m->rank == 0 && !resume) {
        int fd = pascal_tmpfile_create(sink->dest, &sink->tmp, err);
        rc = fd < 0 ? fd : 0;
        if (fd >= 0 && close(fd) != 0)
            rc = pascal_error_set(err, PASCAL_EIO, "cannot create %s: %s", sink->tmp,
                                  strerror(errno));
    } else if (m->rank == 0) {
        size_t n = strlen(sink->dest) + sizeof ".partial";
        if ((sink->tmp = malloc(n)))
            snprintf(sink->tmp, n, "%s.partial", sink->dest);
        else
            rc = pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    }
    if ((rc = pascal_mpi_agree(m->comm, rc, err)))
        return rc;
    if (m->rank == 0)
        len = (int)strlen(sink->tmp) + 1;
    MPI_Bcast(&len, 1, MPI_INT, 0, m->comm);
    if (m->rank != 0 && !(sink->tmp = malloc((size_t)len)))
        rc = pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    if ((rc = pascal_mpi_agree(m->comm, rc, err)))
        return rc;
    MPI_Bcast(sink->tmp, len, MPI_CHAR, 0, m->comm);
    return 0;
}

/* Parallel HDF5 1.10 writes collectively only into datasets whose chunks
 * are allocated early.  A compressed run stopped in one process allocated
 * them as written (h5_sink.c: early would cost it a deflated fill chunk per
 * chunk), so that one process continues it. */
static int check_early(pascal_sink *sink, pascal_error *err)
{
    hid_t dcpl = H5Dget_create_plist(pascal_h5sink_dataset(sink, 0));
    H5D_alloc_time_t when = H5D_ALLOC_TIME_ERROR;
    if (dcpl >= 0) {
        H5Pget_alloc_time(dcpl, &when);
        H5Pclose(dcpl);
    }
    if (when == H5D_ALLOC_TIME_EARLY)
        return 0;
    return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a partial file MPI-IO can "
                            "extend (chunks allocated early), got the compressed file of a "
                            "run stopped in one process; continue it in one process (pascal "
                            "run ... --resume), or run without --resume to start over",
                            sink->tmp);
}

/* Rank 0, resuming, in this process alone (read-only) before any rank
 * opens the partial file for writing: checks that MPI-IO can extend it, so
 * that a refusal changes and creates nothing, and journals it (every chunk
 * it holds; pascal_sink_resume says why), keeping the journal for the run. */
static int prepare_partial(pascal_sink *sink, const pascal_sink_meta *meta,
                         const pascal_column_desc *point_cols,
                         const pascal_column_desc *result_cols, pascal_error *err)
{
    int64_t rows = 0;
    int rc = pascal_h5sink_reopen(sink, meta, point_cols, result_cols, &rows, 0, err);
    if (rc == 0)
        rc = check_early(sink, err);
    if (rc == 0 && meta->journal)
        rc = pascal_journal_start(sink, meta, err);
    pascal_h5sink_free(sink->h5);
    sink->h5 = NULL;
    if (rc == 0)
        pascal_testpoint("resume-journaled");
    return rc;
}

int pascal_sink_mpi_open(MPI_Comm comm, const pascal_sink_meta *meta,
                         const pascal_column_desc *point_cols, int npoint,
                         const pascal_column_desc *result_cols, int nresult, int resume,
                         pascal_sink **out, int64_t *rows, pascal_error *err)
{
    pascal_sink *sink = NULL;
    int rc, opened = 0;
    *out = NULL;
    *rows = 0;
    pascal_h5_quiet();
    rc = new_sink(comm, meta, npoint, nresult, &sink, err);
    if (!sink)
        return rc;
    if ((rc = pascal_mpi_agree(sink->mpi ? sink->mpi->comm : comm, rc, err)) == 0)
        rc = share_name(sink, resume, err);
    if (rc == 0 && resume) {
        if (sink->mpi->rank == 0)
            rc = prepare_partial(sink, meta, point_cols, result_cols, err);
        rc = pascal_mpi_agree(sink->mpi->comm, rc, err);
    }
    if (rc == 0) {
        rc = resume ? pascal_h5sink_reopen(sink, meta, point_cols, result_cols, rows, 1, err)
                    : pascal_h5sink_open(sink, meta, point_cols, result_cols, err);
        if (rc == 0 && resume && sink->mpi->rank == 0)
            pascal_testpoint("resume-reopened");
        opened = 1;
        rc = pascal_mpi_agree(sink->mpi->comm, rc, err);
    }
    if (rc == 0 && sink->mpi->rank == 0 && meta->journal && !sink->journal)
        rc = pascal_journal_start(sink, meta, err);
    if (opened && rc == 0)
        rc = pascal_mpi_agree(sink->mpi->comm, rc, err);
    sink->resumed = resume;
    sink->rows = *rows;
    if (rc) {
        if (opened) {
            pascal_sink_mpi_abort(sink);
            return rc;
        }
        free_mpisink(sink);
        return rc;
    }
    *out = sink;
    return 0;
}

int64_t pascal_sink_mpi_chunk(const pascal_sink *sink)
{
    int64_t rows, chunk;
    int level, shuffle;
    pascal_h5sink_layout(sink, &rows, &chunk, &level, &shuffle);
    return chunk;
}

/* The memory type of column j (*owned: the caller closes it), and its
 * values as the file stores them: enum codes narrowed to their 1 or 2
 * bytes, as the one-process writer stores them. */
static int column_memory(pascal_sink *sink, int j, const void *src, int64_t n, hid_t *mtype,
                         int *owned, const void **data, pascal_error *err)
{
    struct pascal_mpisink *m = sink->mpi;
    hid_t ftype = H5Dget_type(pascal_h5sink_dataset(sink, j));
    H5T_class_t cls = ftype >= 0 ? H5Tget_class(ftype) : H5T_NO_CLASS;
    size_t es = ftype >= 0 ? H5Tget_size(ftype) : 0;
    *data = src;
    *owned = cls == H5T_ENUM;
    *mtype = cls == H5T_FLOAT ? H5T_NATIVE_DOUBLE : cls == H5T_INTEGER ? H5T_NATIVE_INT64 : ftype;
    if (!*owned && ftype >= 0)
        H5Tclose(ftype);
    if (cls != H5T_FLOAT && cls != H5T_INTEGER && !(cls == H5T_ENUM && (es == 1 || es == 2))) {
        if (*owned)
            H5Tclose(ftype);
        *owned = 0;
        return pascal_h5_fail(err, sink->dest, "reading a column's type");
    }
    if (cls != H5T_ENUM)
        return 0;
    if ((size_t)n * es > m->narrow_cap) {
        free(m->narrow);
        m->narrow_cap = (size_t)n * es;
        if (!(m->narrow = malloc(m->narrow_cap))) {
            m->narrow_cap = 0;
            H5Tclose(ftype);
            *owned = 0;
            return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", sink->dest);
        }
    }
    for (int64_t i = 0; i < n; i++) {
        const int64_t *codes = src;
        if (es == 1)
            ((int8_t *)m->narrow)[i] = (int8_t)codes[i];
        else
            ((int16_t *)m->narrow)[i] = (int16_t)codes[i];
    }
    *data = m->narrow;
    return 0;
}

/* Selects this rank's ranges in the file and in memory (nothing when it has
 * none: it still takes part in the collective call). */
static int select_ranges(hid_t fspace, hid_t mspace, const pascal_sink_range *r, int n)
{
    int ok = H5Sselect_none(fspace) >= 0 && H5Sselect_none(mspace) >= 0;
    for (int i = 0; ok && i < n; i++) {
        hsize_t fstart[1] = {(hsize_t)r[i].row}, mstart[1] = {(hsize_t)r[i].at};
        hsize_t count[1] = {(hsize_t)r[i].n};
        if (r[i].n > 0)
            ok = H5Sselect_hyperslab(fspace, H5S_SELECT_OR, fstart, NULL, count, NULL) >= 0 &&
                 H5Sselect_hyperslab(mspace, H5S_SELECT_OR, mstart, NULL, count, NULL) >= 0;
    }
    return ok ? 0 : -1;
}

/* Extends column j to `rows` and writes this rank's ranges of it: each rank
 * on its own (dxpl H5P_DEFAULT), or all together (collective). */
static int write_column(pascal_sink *sink, int j, int64_t rows, const pascal_sink_range *r,
                        int nr, const void *src, hid_t dxpl, pascal_error *err)
{
    hid_t dset = pascal_h5sink_dataset(sink, j), fspace = -1, mspace = -1, mtype = -1;
    hsize_t size[1] = {(hsize_t)rows}, mdims[1] = {1};
    const void *data = NULL;
    int64_t held = 0;
    int rc, ok, owned = 0;
    for (int i = 0; i < nr; i++)
        if (r[i].at + r[i].n > held)
            held = r[i].at + r[i].n;
    mdims[0] = (hsize_t)(held > 0 ? held : 1);
    if ((rc = column_memory(sink, j, src, held, &mtype, &owned, &data, err)))
        return rc;
    ok = H5Dset_extent(dset, size) >= 0;
    if (ok && (held > 0 || dxpl != H5P_DEFAULT))
        ok = (fspace = H5Dget_space(dset)) >= 0 &&
             (mspace = H5Screate_simple(1, mdims, NULL)) >= 0 &&
             select_ranges(fspace, mspace, r, nr) == 0 &&
             H5Dwrite(dset, mtype, mspace, fspace, dxpl, data) >= 0;
    if (fspace >= 0)
        H5Sclose(fspace);
    if (mspace >= 0)
        H5Sclose(mspace);
    if (owned)
        H5Tclose(mtype);
    if (!ok) {
        char what[300];
        snprintf(what, sizeof what, "writing column %d", j);
        return pascal_h5_fail(err, sink->dest, what);
    }
    return 0;
}

static int reserve(void *pbuf, size_t *cap, size_t need)
{
    void **buf = pbuf, *grown;
    if (need <= *cap)
        return 0;
    if (!(grown = realloc(*buf, need)))
        return -1;
    *buf = grown;
    *cap = need;
    return 0;
}

/* The parts of this rank's ranges, cut at chunk boundaries, each with the
 * rank that owns its chunk: f(part, dest, arg) in range order. */
static void for_parts(const pascal_sink_range *r, int nr, int64_t rows, int64_t chunk,
                      int64_t c0, int size,
                      void (*f)(const pascal_sink_range *part, int dest, void *arg), void *arg)
{
    for (int i = 0; i < nr; i++) {
        int64_t end = r[i].row + r[i].n < rows ? r[i].row + r[i].n : rows;
        for (int64_t row = r[i].row, next; row < end; row = next) {
            int64_t c = row / chunk;
            pascal_sink_range part;
            next = (c + 1) * chunk < end ? (c + 1) * chunk : end;
            part = (pascal_sink_range){row, next - row, r[i].at + row - r[i].row};
            f(&part, (int)((c - c0) % size), arg);
        }
    }
}

typedef struct packing {
    int ncols, *nparts, *sent_parts;
    int64_t *nrows, *sent_rows, *desc, *part_at;
    size_t *block;             /* byte offset of each destination's block */
    unsigned char *send;
    const void *const *src;    /* ncols column arrays */
} packing;

static void count_part(const pascal_sink_range *part, int dest, void *arg)
{
    packing *p = arg;
    p->nparts[dest]++;
    p->nrows[dest] += part->n;
}

/* Appends a part to its destination's block: the (row, n) descriptor, and
 * per column its values, columns one after another. */
static void pack_part(const pascal_sink_range *part, int dest, void *arg)
{
    packing *p = arg;
    int64_t k = p->part_at[dest] + p->sent_parts[dest]++;
    p->desc[2 * k] = part->row, p->desc[2 * k + 1] = part->n;
    for (int j = 0; j < p->ncols; j++)
        memcpy(p->send + p->block[dest] + (size_t)(j * p->nrows[dest] + p->sent_rows[dest]) * 8,
               (const char *)p->src[j] + (size_t)part->at * 8, (size_t)part->n * 8);
    p->sent_rows[dest] += part->n;
}

/* The chunks this rank owns in a window ending at `rows`: chunk c of the
 * window belongs to rank (c - c0) mod size, at rows k * chunk of its arrays. */
static int own_chunks(struct pascal_mpisink *m, int64_t rows, int64_t chunk, int64_t c0,
                      int ncols)
{
    regrouped *o = &m->own;
    int64_t c1 = (rows + chunk - 1) / chunk;
    size_t need;
    o->nranges = 0;
    for (int64_t c = c0 + m->rank; c < c1; c += m->size) {
        if (o->nranges == o->ranges_cap) {
            int cap = 2 * o->ranges_cap + 8;
            pascal_sink_range *g = realloc(o->ranges, (size_t)cap * sizeof *g);
            if (!g)
                return -1;
            o->ranges = g, o->ranges_cap = cap;
        }
        o->ranges[o->nranges] = (pascal_sink_range){c * chunk, rows - c * chunk < chunk ?
                                                    rows - c * chunk : chunk,
                                                    o->nranges * chunk};
        o->nranges++;
    }
    o->cap = o->nranges * chunk;
    need = (size_t)o->cap * (size_t)ncols * 8;
    return reserve(&o->cols, &o->cols_cap, need);
}

/* Each part received from rank s to its place in this rank's arrays: chunk
 * c is this rank's ((c - c0) / P)th; a part's columns come one after
 * another in s's block. */
static void place_parts(regrouped *o, int P, int ncols, int64_t c0, int64_t chunk,
                        const int *rparts, const int64_t *rdispl, const int64_t *rrows,
                        const size_t *rblock)
{
    for (int s = 0; s < P; s++) {
        int64_t off = 0;
        for (int k = 0; k < rparts[s]; k++) {
            int64_t row = o->rdesc[2 * (rdispl[s] + k)], n = o->rdesc[2 * (rdispl[s] + k) + 1];
            int64_t c = row / chunk, at = (c - c0) / P * chunk + row - c * chunk;
            for (int j = 0; j < ncols; j++)
                memcpy(o->cols + ((size_t)j * (size_t)o->cap + (size_t)at) * 8,
                       o->recv + rblock[s] + (size_t)(j * rrows[s] + off) * 8, (size_t)n * 8);
            off += n;
        }
    }
}

/* A compressed window: every chunk must reach the file from one rank, so
 * that HDF5 compresses it where it is (a chunk written by several ranks is
 * first gathered by HDF5 on one of them, slowly and, in 1.10, by a path
 * with a history of bugs).  The ranks send each other the rows of chunks
 * they do not own (MPI_Alltoallv), and each writes whole chunks. */
static int to_owners(pascal_sink *sink, int64_t have, int64_t rows, int64_t chunk,
                     const pascal_sink_range *r, int nr, const void *const *src,
                     pascal_error *err)
{
    struct pascal_mpisink *m = sink->mpi;
    regrouped *o = &m->own;
    int P = m->size, ncols = sink->npoint + sink->nresult, rc = 0;
    int64_t c0 = have / chunk, *rrows, *rdispl;
    int *counts = calloc((size_t)P * 8, sizeof *counts), *rparts, *sc, *sd, *rc_, *rd;
    int64_t *rows64 = calloc((size_t)P * 6, sizeof *rows64);
    size_t *rblock = calloc((size_t)P, sizeof *rblock), sbytes = 0, rbytes = 0;
    packing p = {ncols, counts, counts + P, rows64, rows64 + P, NULL, rows64 + 2 * P,
                 calloc((size_t)P, sizeof(size_t)), NULL, src};
    int64_t nparts = 0, rparts_all = 0;
    if (!counts || !rows64 || !rblock || !p.block)
        rc = -1;
    rparts = counts + 2 * P, sc = counts + 3 * P, sd = counts + 4 * P;
    rc_ = counts + 5 * P, rd = counts + 6 * P;
    rrows = rows64 + 3 * P, rdispl = rows64 + 4 * P;
    if (rc == 0)
        for_parts(r, nr, rows, chunk, c0, P, count_part, &p);
    if (rc == 0) { /* every rank learns what it receives */
        MPI_Alltoall(p.nparts, 1, MPI_INT, rparts, 1, MPI_INT, m->comm);
        MPI_Alltoall(p.nrows, 1, MPI_INT64_T, rrows, 1, MPI_INT64_T, m->comm);
    }
    for (int d = 0; rc == 0 && d < P; d++) {
        p.part_at[d] = nparts, nparts += p.nparts[d];
        p.block[d] = sbytes, sbytes += (size_t)p.nrows[d] * (size_t)ncols * 8;
        rdispl[d] = rparts_all, rparts_all += rparts[d];
        rblock[d] = rbytes, rbytes += (size_t)rrows[d] * (size_t)ncols * 8;
    }
    if (rc == 0 && (sbytes > INT32_MAX || rbytes > INT32_MAX || 2 * rparts_all > INT32_MAX))
        rc = pascal_error_set(err, PASCAL_EINTERNAL, "%s: a window of %zu bytes for one rank",
                              sink->dest, sbytes > rbytes ? sbytes : rbytes);
    else if (rc == 0 &&
             (reserve(&o->send, &o->send_cap, sbytes + 1) ||
              reserve(&o->recv, &o->recv_cap, rbytes + 1) ||
              reserve(&o->desc, &o->desc_cap, (size_t)(2 * nparts + 2) * 8) ||
              reserve(&o->rdesc, &o->rdesc_cap, (size_t)(2 * rparts_all + 2) * 8) ||
              own_chunks(m, rows, chunk, c0, ncols)))
        rc = -1;
    if (rc == -1)
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", sink->dest);
    if (rc == 0) {
        p.desc = o->desc, p.send = o->send;
        for_parts(r, nr, rows, chunk, c0, P, pack_part, &p);
    }
    if ((rc = pascal_mpi_agree(m->comm, rc, err)) == 0) {
        for (int d = 0; d < P; d++) {
            sc[d] = 2 * p.nparts[d], sd[d] = 2 * (int)p.part_at[d];
            rc_[d] = 2 * rparts[d], rd[d] = 2 * (int)rdispl[d];
        }
        MPI_Alltoallv(o->desc, sc, sd, MPI_INT64_T, o->rdesc, rc_, rd, MPI_INT64_T, m->comm);
        for (int d = 0; d < P; d++) {
            sc[d] = (int)(p.nrows[d] * ncols * 8), sd[d] = (int)p.block[d];
            rc_[d] = (int)(rrows[d] * ncols * 8), rd[d] = (int)rblock[d];
        }
        MPI_Alltoallv(o->send, sc, sd, MPI_BYTE, o->recv, rc_, rd, MPI_BYTE, m->comm);
        place_parts(o, P, ncols, c0, chunk, rparts, rdispl, rrows, rblock);
    }
    free(counts), free(rows64), free(rblock), free(p.block);
    return rc;
}

int pascal_sink_mpi_write(pascal_sink *sink, int64_t rows, const pascal_sink_range *ranges,
                          int nranges, const void *const *points,
                          const double *const *results, pascal_error *err)
{
    struct pascal_mpisink *m = sink->mpi;
    int ncols = sink->npoint + sink->nresult, rc = 0, due = 0, level, shuffle;
    const void **src = calloc((size_t)ncols + 1, sizeof *src);
    int64_t have, chunk;
    hid_t dxpl = H5P_DEFAULT;
    pascal_h5_quiet();
    pascal_h5sink_layout(sink, &have, &chunk, &level, &shuffle);
    if (!src)
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", sink->dest);
    for (int j = 0; src && j < ncols; j++)
        src[j] = j < sink->npoint ? points[j] : (const void *)results[j - sink->npoint];
    /* Uncompressed chunks are allocated when the extent grows: each rank
     * writes its rows on its own, with no exchange.  Compressed chunks are
     * added by HDF5 in collective writes, one owner each (to_owners). */
    if ((rc = pascal_mpi_agree(m->comm, rc, err)) == 0 && level > 0) {
        rc = to_owners(sink, have, rows, chunk, ranges, nranges, src, err);
        ranges = m->own.ranges, nranges = m->own.nranges, dxpl = m->dxpl;
        for (int j = 0; j < ncols; j++)
            src[j] = m->own.cols + (size_t)j * (size_t)m->own.cap * 8;
    }
    /* Every rank makes every collective call (the extents, the compressed
     * writes), whatever failed on it before: a collective call that some
     * ranks skip never returns.  The first failure is kept. */
    for (int j = 0, first = 0; rc == 0 && j < ncols; j++) {
        int c = write_column(sink, j, rows, ranges, nranges, src[j], dxpl, first ? NULL : err);
        first = first ? first : c;
        if (j == ncols - 1)
            rc = first;
    }
    free(src);
    if ((rc = pascal_mpi_agree(m->comm, rc, err)))
        return rc;
    pascal_h5sink_set_rows(sink, rows);
    /* A sync mark says the recorded chunks are on disk: every rank's bytes,
     * which on several nodes only a collective flush makes sure of. */
    if (m->rank == 0)
        due = pascal_journal_sync_due(sink);
    MPI_Bcast(&due, 1, MPI_INT, 0, m->comm);
    if (due && H5Fflush(pascal_h5sink_dataset(sink, 0), H5F_SCOPE_GLOBAL) < 0)
        rc = pascal_h5_fail(err, sink->dest, "flushing");
    /* The agreement also means every rank's writes have returned: only then
     * may the journal name the chunks. */
    if ((rc = pascal_mpi_agree(m->comm, rc, err)))
        return rc;
    if (m->rank == 0)
        rc = pascal_journal_note_synced(sink, due, err);
    return pascal_mpi_agree(m->comm, rc, err);
}

int pascal_sink_mpi_finish(pascal_sink *sink, pascal_error *err)
{
    struct pascal_mpisink *m = sink->mpi;
    int64_t rows = 0;
    int rc;
    pascal_h5_quiet();
    /* Every rank closes the file (collective), then rank 0 alone completes
     * it as one process does (pascal_h5sink_complete: the /cube view). */
    rc = pascal_h5sink_suspend(sink, &rows, err); /* frees sink->h5 */
    sink->h5 = NULL;
    if ((rc = pascal_mpi_agree(m->comm, rc, err)) == 0 && m->rank == 0)
        rc = pascal_h5sink_complete(sink->tmp, sink->dest, rows, err);
    if ((rc = pascal_mpi_agree(m->comm, rc, err)) == 0 && m->rank == 0)
        rc = pascal_sink_publish(sink, err);
    if ((rc = pascal_mpi_agree(m->comm, rc, err)) == 0) {
        if (m->rank == 0)
            pascal_journal_close(sink->journal, 1); /* its file is complete */
        sink->journal = NULL;
        free_mpisink(sink);
        return 0;
    }
    pascal_sink_mpi_abort(sink);
    return rc;
}

int pascal_sink_mpi_suspend(pascal_sink *sink, int64_t *rows, pascal_error *err)
{
    struct pascal_mpisink *m = sink->mpi;
    size_t n = strlen(sink->dest) + sizeof ".partial";
    char *partial = malloc(n);
    int rc;
    pascal_h5_quiet();
    rc = pascal_h5sink_suspend(sink, rows, err); /* frees the writer */
    sink->h5 = NULL;
    if (!partial && rc == 0)
        rc = pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    if (partial)
        snprintf(partial, n, "%s.partial", sink->dest);
    if ((rc = pascal_mpi_agree(m->comm, rc, err)) == 0 && m->rank == 0)
        rc = strcmp(sink->tmp, partial) != 0 ? pascal_tmpfile_commit(sink->tmp, partial, err)
                                              : pascal_tmpfile_sync(partial, err);
    free(partial);
    rc = pascal_mpi_agree(m->comm, rc, err);
    if (m->rank == 0)
        /* A partial file closed and on disk needs no journal: it becomes the
         * index of the file's chunks, for the resume; one that could not be
         * kept is removed, unless it is the resumed one. */
        pascal_journal_close(sink->journal,
                             rc == 0 && pascal_journal_seal(sink->journal, sink->dest) != 0);
    if (m->rank == 0 && rc != 0 && !sink->resumed)
        pascal_tmpfile_discard(sink->tmp);
    sink->journal = NULL;
    free_mpisink(sink);
    return rc;
}

void pascal_sink_mpi_abort(pascal_sink *sink)
{
    if (!sink)
        return;
    pascal_h5_quiet();
    pascal_h5sink_free(sink->h5); /* closes the file: collective */
    sink->h5 = NULL;
    if (sink->mpi->rank == 0) {
        /* A resumed run keeps its partial file, and the journal that
         * describes it (its metadata may not have reached the disk). */
        pascal_journal_close(sink->journal, !sink->resumed);
        if (!sink->resumed && sink->tmp)
            pascal_tmpfile_discard(sink->tmp);
    }
    sink->journal = NULL;
    free_mpisink(sink);
}
