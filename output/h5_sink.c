/* The HDF5 writer behind pascal_sink (layout in output/sink.h).
 *
 * Sweeps reach ten million rows, so appending must cost little more than the
 * bytes written.  Every column is a 1-D chunked dataset that stays open for
 * the whole run, and rows are written only in whole chunks: a batch that
 * starts on a chunk boundary goes straight from the caller's arrays, the rest
 * is gathered in one chunk-sized buffer per column.  HDF5 then never reads a
 * chunk back to merge a partial write, compresses each chunk once, and needs
 * no chunk cache (it is set to zero, so no data is copied twice).  Only
 * finish writes the last, partial chunk.  Compressed columns bypass HDF5's
 * single-threaded filter pipeline: the sink shuffles and deflates each
 * chunk itself, exactly as the dataset's filters would, spreading the
 * columns over the caller's parallel_for, and stores the result with
 * H5Dwrite_chunk; any HDF5 reader decodes it through the declared filters. */
#include "output/journal.h"
#include "output/sink_internal.h"

#include "common/testpoint.h"
#include "output/zchunk.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Chunks whose file address is remembered per column (put_chunk), in a ring
 * keyed by chunk number: the journal notes them after every append, so the
 * ring grows to hold every chunk of the largest append (a batch of 65536
 * rows in chunks of 8 is 8192 chunks), up to LOC_MAX; a chunk it no longer
 * holds is looked up, a walk of HDF5's chunk index.  With a ring of 64, a
 * run in short chunks walked the index for nearly every chunk: quadratic
 * (12,500 chunks of 8 rows: 50 s, of which 47 s walking). */
#define LOC_MIN 64
#define LOC_MAX ((int64_t)1 << 20)

typedef struct h5col {
    hid_t dset;
    pascal_zchunk *z;    /* compressed path: the chunk encoder */
    const unsigned char *zout; /* its last chunk, zlen bytes */
    size_t zlen;
    int zfail;
    hid_t mtype;         /* memory type (an enum type is owned) */
    pascal_coltype type;
    int nlabels;         /* ENUM */
    size_t esize;        /* bytes per stored value */
    unsigned char *buf;  /* chunk rows waiting for a full chunk */
    char *name;          /* "points/x", for messages */
    struct chunk_loc {   /* where recent chunks went (put_chunk) */
        uint64_t row1;   /* first row + 1; 0: empty */
        uint64_t addr, size;
        unsigned mask;
    } *locs;             /* nloc of them (a power of two), or NULL */
} h5col;

struct pascal_h5sink {
    hid_t file;
    const char *path;    /* the temporary file, for messages */
    int64_t chunk;       /* rows per chunk */
    int64_t nbuf;        /* rows waiting in the column buffers */
    int64_t nfile;       /* rows already in the datasets */
    int ncols;           /* point columns, then result columns */
    int64_t nloc;        /* entries in each column's ring of locations */
    h5col *cols;
    /* Compressed datasets: chunks are shuffled and deflated here, one column
     * per task through parallel_for, and stored with H5Dwrite_chunk, so
     * compression uses every core instead of HDF5's one. */
    int level, shuffle, direct;
    /* Uncompressed, and memory order is the file's: whole chunks go as they
     * are through H5Dwrite_chunk too, so that put_chunk knows where each
     * went (H5Dwrite places a chunk when HDF5's cache evicts it). */
    int raw;
    void (*parallel_for)(int n, void (*body)(void *arg, int i), void *arg);
    /* The chunk being compressed: column sources and its row count. */
    const void **zsrc;
    int64_t zrows;
    /* Chunk addresses (put_chunk): the file's descriptor under the
     * sec2 driver (-1: not known), and a buffer to read a chunk back. */
    int fd;
    unsigned char *vbuf;
    size_t vcap;
};

/* Chunked, extendible, optionally shuffled and deflated.  Parallel HDF5
 * 1.10 writes collectively only into datasets whose chunks are allocated
 * when the extent grows (early; it makes its own so), so that a file
 * stopped in one process can be continued under mpirun (docs/scale.md).
 * Uncompressed chunks cost nothing more so; a compressed one would cost a
 * deflated fill chunk each, so it is early only when asked. */
static hid_t column_dcpl(int64_t chunk, const pascal_sink_meta *meta)
{
    hsize_t dims[1] = {(hsize_t)chunk};
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    int early = meta->compression == 0 || meta->early_chunks;
    if (dcpl < 0)
        return dcpl;
    if (H5Pset_chunk(dcpl, 1, dims) < 0 || H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) < 0 ||
        (early && H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY) < 0) ||
        (meta->compression > 0 && meta->shuffle && H5Pset_shuffle(dcpl) < 0) ||
        (meta->compression > 0 && H5Pset_deflate(dcpl, (unsigned)meta->compression) < 0)) {
        H5Pclose(dcpl);
        return -1;
    }
    return dcpl;
}

/* Sets the memory and file types of col; returns the file type. */
static int column_types(h5col *col, const pascal_column_desc *c, const char *path,
                        hid_t *ftype, pascal_error *err)
{
    col->type = c->type;
    col->mtype = -1;
    if (c->type == PASCAL_COLTYPE_ENUM) {
        int rc = pascal_h5_enum_type(c->labels, c->nlabels, path, col->name, &col->mtype, err);
        col->nlabels = c->nlabels;
        col->esize = c->nlabels > INT8_MAX ? 2 : 1;
        *ftype = col->mtype;
        return rc;
    }
    col->esize = 8;
    *ftype = c->type == PASCAL_COLTYPE_I64 ? H5T_STD_I64LE : H5T_IEEE_F64LE;
    return 0;
}

static int create_column(pascal_h5sink *h5, hid_t group, const char *gname,
                         const pascal_column_desc *c, const pascal_sink_meta *meta,
                         h5col *col, pascal_error *err)
{
    hsize_t dims[1] = {0}, maxdims[1] = {H5S_UNLIMITED};
    hid_t ftype, space = -1, dcpl = -1, dapl = -1;
    size_t len = strlen(gname) + strlen(c->name) + 2;
    int rc;
    if (!(col->name = malloc(len)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", h5->path);
    snprintf(col->name, len, "%s/%s", gname, c->name);
    if ((rc = column_types(col, c, h5->path, &ftype, err)))
        return rc;
    if (!(col->buf = malloc((size_t)h5->chunk * col->esize)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", h5->path);
    if (h5->direct &&
        !(col->z = pascal_zchunk_new((size_t)h5->chunk, col->esize, h5->level, h5->shuffle)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", h5->path);
    space = H5Screate_simple(1, dims, maxdims);
    dcpl = column_dcpl(h5->chunk, meta);
    dapl = H5Pcreate(H5P_DATASET_ACCESS);
    if (space >= 0 && dcpl >= 0 && dapl >= 0 &&
        H5Pset_chunk_cache(dapl, H5D_CHUNK_CACHE_NSLOTS_DEFAULT, 0, 1.0) >= 0)
        col->dset = H5Dcreate2(group, c->name, ftype, space, H5P_DEFAULT, dcpl, dapl);
    if (space >= 0)
        H5Sclose(space);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (dapl >= 0)
        H5Pclose(dapl);
    if (col->dset < 0) {
        char what[300];
        snprintf(what, sizeof what, "creating dataset %s", col->name);
        return pascal_h5_fail(err, h5->path, what);
    }
    if ((rc = pascal_h5_attr_str(col->dset, "units", c->units, h5->path, err)))
        return rc;
    return pascal_h5_attr_str(col->dset, "description", c->description, h5->path, err);
}

static int create_group_columns(pascal_h5sink *h5, const char *gname,
                                const pascal_column_desc *cols, int n, h5col *out,
                                const pascal_sink_meta *meta, pascal_error *err)
{
    int rc = 0;
    hid_t group = H5Gcreate2(h5->file, gname, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (group < 0) {
        char what[300];
        snprintf(what, sizeof what, "creating group /%s", gname);
        return pascal_h5_fail(err, h5->path, what);
    }
    for (int i = 0; rc == 0 && i < n; i++)
        rc = create_column(h5, group, gname, &cols[i], meta, &out[i], err);
    if (H5Gclose(group) < 0 && rc == 0)
        rc = pascal_h5_fail(err, h5->path, "closing a group");
    return rc;
}

/* The file's descriptor when it is a plain POSIX file (the sec2 driver),
 * else -1: chunk addresses are then left to the index lookup. */
static int sec2_fd(hid_t file)
{
    hid_t fapl = H5Fget_access_plist(file);
    void *handle = NULL;
    int fd = -1;
    if (fapl < 0)
        return -1;
    if (H5Pget_driver(fapl) == H5FD_SEC2 && H5Fget_vfd_handle(file, fapl, &handle) >= 0 && handle)
        fd = *(int *)handle;
    H5Pclose(fapl);
    return fd;
}

int pascal_h5sink_open(pascal_sink *sink, const pascal_sink_meta *meta,
                       const pascal_column_desc *point_cols,
                       const pascal_column_desc *result_cols, pascal_error *err)
{
    pascal_h5sink *h5 = calloc(1, sizeof *h5);
    int n = sink->npoint + sink->nresult, rc;
    if (!h5 || !(h5->cols = calloc((size_t)(n > 0 ? n : 1), sizeof *h5->cols))) {
        free(h5);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", sink->tmp);
    }
    sink->h5 = h5;
    h5->path = sink->dest; /* messages name the file the user asked for */
    h5->chunk = pascal_h5_chunk_rows(meta->chunk_rows, meta->expected_rows);
    h5->ncols = n;
    h5->file = -1;
    h5->fd = -1;
    h5->level = meta->compression;
    h5->shuffle = meta->shuffle;
    h5->parallel_for = meta->parallel_for;
    /* Direct chunk writes store memory bytes as they are: only where memory
     * order is the files' little-endian order (else HDF5 compresses).  Not
     * under MPI-IO, where only HDF5's collective writes may add chunks. */
    h5->direct = h5->level > 0 && H5Tequal(H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE) > 0 &&
                 H5Tequal(H5T_NATIVE_INT64, H5T_STD_I64LE) > 0 && !sink->mpi;
    h5->raw = h5->level == 0 && H5Tequal(H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE) > 0 &&
              H5Tequal(H5T_NATIVE_INT64, H5T_STD_I64LE) > 0 && !sink->mpi;
    for (int i = 0; i < n; i++)
        h5->cols[i].dset = h5->cols[i].mtype = -1;
    if (h5->direct && !(h5->zsrc = calloc((size_t)(n > 0 ? n : 1), sizeof *h5->zsrc)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", sink->tmp);
    if ((h5->file = pascal_h5_create_fapl(sink->tmp, sink->fapl)) < 0)
        return pascal_h5_fail(err, sink->dest, "creating the HDF5 file");
    h5->fd = sec2_fd(h5->file);
    if ((rc = pascal_h5meta_root(h5->file, meta, h5->path, err)) ||
        (rc = pascal_h5meta_axes(h5->file, meta, h5->path, err)) ||
        (rc = pascal_h5cube_axes(h5->file, meta, h5->path, err)) ||
        (rc = create_group_columns(h5, "points", point_cols, sink->npoint, h5->cols, meta,
                                   err)))
        return rc;
    return create_group_columns(h5, "results", result_cols, sink->nresult,
                                h5->cols + sink->npoint, meta, err);
}

/* Appends n rows of data (memory type col->mtype) at row offset h5->nfile. */
static int write_rows(pascal_h5sink *h5, h5col *col, const void *data, int64_t n,
                      pascal_error *err)
{
    hsize_t start[1] = {(hsize_t)h5->nfile}, count[1] = {(hsize_t)n};
    hsize_t size[1] = {(hsize_t)(h5->nfile + n)};
    hid_t mtype = col->type == PASCAL_COLTYPE_F64   ? H5T_NATIVE_DOUBLE
                  : col->type == PASCAL_COLTYPE_I64 ? H5T_NATIVE_INT64
                                                    : col->mtype;
    hid_t fspace = -1, mspace = -1;
    int ok = H5Dset_extent(col->dset, size) >= 0 && (fspace = H5Dget_space(col->dset)) >= 0 &&
             H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
             (mspace = H5Screate_simple(1, count, NULL)) >= 0 &&
             H5Dwrite(col->dset, mtype, mspace, fspace, H5P_DEFAULT, data) >= 0;
    if (fspace >= 0)
        H5Sclose(fspace);
    if (mspace >= 0)
        H5Sclose(mspace);
    if (!ok) {
        char what[300];
        snprintf(what, sizeof what, "writing %s", col->name);
        return pascal_h5_fail(err, h5->path, what);
    }
    return 0;
}

/* Copies n rows of src into col->buf at row `at`, narrowing enum codes. */
static void gather(h5col *col, int64_t at, const void *src, int64_t n)
{
    if (col->type != PASCAL_COLTYPE_ENUM) {
        memcpy(col->buf + (size_t)at * 8, src, (size_t)n * 8);
    } else if (col->esize == 1) {
        const int64_t *s = src;
        int8_t *d = (int8_t *)col->buf + at;
        for (int64_t i = 0; i < n; i++)
            d[i] = (int8_t)s[i];
    } else {
        const int64_t *s = src;
        int16_t *d = (int16_t *)col->buf + at;
        for (int64_t i = 0; i < n; i++)
            d[i] = (int16_t)s[i];
    }
}

/* Row `row` of column j: point columns hold 8-byte values, results doubles. */
static const void *column_src(int j, int npoint, const void *const *points,
                              const double *const *results, int64_t row)
{
    if (j < npoint)
        return (const char *)points[j] + (size_t)row * 8;
    return results[j - npoint] + row;
}

/* One column's chunk as HDF5's shuffle and deflate filters would store it
 * (a task of parallel_for; output/zchunk.h). */
static void deflate_column(void *arg, int j)
{
    pascal_h5sink *h5 = arg;
    h5col *col = &h5->cols[j];
    col->zfail = pascal_zchunk_encode(col->z, h5->zsrc[j], (size_t)h5->zrows, &col->zout,
                                      &col->zlen) != 0;
}

/* Compresses the chunk of h5->zrows rows from h5->zsrc (all columns, in
 * parallel where a parallel_for was given) and stores it at row h5->nfile. */
/* 1 when the len bytes at addr in the file are bytes. */
static int bytes_at(pascal_h5sink *h5, uint64_t addr, const void *bytes, size_t len)
{
    if (len > h5->vcap) {
        unsigned char *b = realloc(h5->vbuf, len);
        if (!b)
            return 0;
        h5->vbuf = b, h5->vcap = len;
    }
    return pread(h5->fd, h5->vbuf, len, (off_t)addr) == (ssize_t)len &&
           memcmp(h5->vbuf, bytes, len) == 0;
}

/* H5Dwrite_chunk, remembering where the chunk went for the journal: HDF5
 * 1.10's H5Dget_chunk_info_by_coord walks the chunk index from its start
 * (measured: 0.1 us per chunk before it), which made a 10^9-row run's
 * journal quadratic, hundreds of CPU seconds.  Files are created without
 * free-space reuse (pascal_h5_create_fapl), so a new chunk lands at the end
 * of the allocated space: where it ended before the extent grew (hint; an
 * uncompressed chunk is allocated then, early), or before the write, or
 * last before the new end (the write first grew the chunk index).  The
 * bytes there are read back and compared, and only a chunk found there is
 * remembered (the rest are looked up). */
static int put_chunk(pascal_h5sink *h5, h5col *col, hsize_t row, unsigned mask,
                     const void *bytes, size_t len, haddr_t hint)
{
    haddr_t eoa = HADDR_UNDEF, end = HADDR_UNDEF, at = HADDR_UNDEF;
    if (h5->fd >= 0 && H5Fget_eoa(h5->file, &eoa) < 0)
        eoa = HADDR_UNDEF;
    if (H5Dwrite_chunk(col->dset, H5P_DEFAULT, mask, &row, len, bytes) < 0)
        return -1;
    if (col->locs && eoa != HADDR_UNDEF) {
        if (hint != HADDR_UNDEF && bytes_at(h5, (uint64_t)hint, bytes, len))
            at = hint;
        else if (bytes_at(h5, (uint64_t)eoa, bytes, len))
            at = eoa;
        else if (H5Fget_eoa(h5->file, &end) >= 0 && end != HADDR_UNDEF && end >= eoa + len &&
                 bytes_at(h5, (uint64_t)(end - len), bytes, len))
            at = end - len;
    }
    if (at != HADDR_UNDEF)
        col->locs[(int64_t)(row / (hsize_t)h5->chunk) & (h5->nloc - 1)] =
            (struct chunk_loc){(uint64_t)row + 1, (uint64_t)at, (uint64_t)len, mask};
    return 0;
}

static int write_compressed(pascal_h5sink *h5, int64_t n, pascal_error *err)
{
    hsize_t off[1] = {(hsize_t)h5->nfile}, size[1] = {(hsize_t)(h5->nfile + n)};
    h5->zrows = n;
    if (h5->parallel_for)
        h5->parallel_for(h5->ncols, deflate_column, h5);
    else
        for (int j = 0; j < h5->ncols; j++)
            deflate_column(h5, j);
    for (int j = 0; j < h5->ncols; j++) {
        h5col *col = &h5->cols[j];
        if (col->zfail || H5Dset_extent(col->dset, size) < 0 ||
            put_chunk(h5, col, off[0], 0, col->zout, col->zlen, HADDR_UNDEF) < 0) {
            char what[300];
            snprintf(what, sizeof what, "writing %s", col->name);
            return pascal_h5_fail(err, h5->path, what);
        }
    }
    return 0;
}

/* The whole chunk src of col, stored as it is (h5->raw). */
static int write_raw_chunk(pascal_h5sink *h5, h5col *col, const void *src, pascal_error *err)
{
    hsize_t size[1] = {(hsize_t)(h5->nfile + h5->chunk)};
    haddr_t before = HADDR_UNDEF;
    if (h5->fd >= 0 && H5Fget_eoa(h5->file, &before) < 0)
        before = HADDR_UNDEF;
    if (H5Dset_extent(col->dset, size) < 0 ||
        put_chunk(h5, col, (hsize_t)h5->nfile, 0, src, (size_t)h5->chunk * col->esize,
                  before) < 0) {
        char what[300];
        snprintf(what, sizeof what, "writing %s", col->name);
        return pascal_h5_fail(err, h5->path, what);
    }
    return 0;
}

/* Writes the whole chunk of rows [row, row + chunk) of every column. */
static int write_chunk(pascal_h5sink *h5, int npoint, const void *const *points,
                       const double *const *results, int64_t row, pascal_error *err)
{
    if (h5->direct) {
        int rc;
        for (int j = 0; j < h5->ncols; j++) {
            h5->zsrc[j] = column_src(j, npoint, points, results, row);
            if (h5->cols[j].type == PASCAL_COLTYPE_ENUM) {
                gather(&h5->cols[j], 0, h5->zsrc[j], h5->chunk);
                h5->zsrc[j] = h5->cols[j].buf;
            }
        }
        if ((rc = write_compressed(h5, h5->chunk, err)))
            return rc;
        h5->nfile += h5->chunk;
        return 0;
    }
    for (int j = 0; j < h5->ncols; j++) {
        h5col *col = &h5->cols[j];
        const void *src = column_src(j, npoint, points, results, row);
        int rc;
        if (col->type == PASCAL_COLTYPE_ENUM) {
            gather(col, 0, src, h5->chunk);
            src = col->buf;
        }
        if ((rc = h5->raw ? write_raw_chunk(h5, col, src, err)
                          : write_rows(h5, col, src, h5->chunk, err)))
            return rc;
    }
    h5->nfile += h5->chunk;
    return 0;
}

/* Writes the buffered rows (a whole chunk, or the tail at finish). */
static int flush_buffers(pascal_h5sink *h5, pascal_error *err)
{
    if (h5->direct) {
        int rc;
        for (int j = 0; j < h5->ncols; j++)
            h5->zsrc[j] = h5->cols[j].buf;
        if ((rc = write_compressed(h5, h5->nbuf, err)))
            return rc;
        h5->nfile += h5->nbuf;
        h5->nbuf = 0;
        return 0;
    }
    for (int j = 0; j < h5->ncols; j++) {
        int rc = h5->raw && h5->nbuf == h5->chunk
                     ? write_raw_chunk(h5, &h5->cols[j], h5->cols[j].buf, err)
                     : write_rows(h5, &h5->cols[j], h5->cols[j].buf, h5->nbuf, err);
        if (rc)
            return rc;
    }
    h5->nfile += h5->nbuf;
    h5->nbuf = 0;
    return 0;
}

/* Enum codes must name a label; checked before anything is written. */
static int check_codes(pascal_h5sink *h5, int64_t nrows, const void *const *points,
                       int npoint, pascal_error *err)
{
    for (int j = 0; j < npoint; j++) {
        const int64_t *codes = points[j];
        if (h5->cols[j].type != PASCAL_COLTYPE_ENUM)
            continue;
        for (int64_t i = 0; i < nrows; i++)
            if (codes[i] < 0 || codes[i] >= h5->cols[j].nlabels)
                return pascal_error_set(err, PASCAL_EINTERNAL,
                                        "%s: %s: row %lld: code %lld is not in 0..%d", h5->path,
                                        h5->cols[j].name, (long long)(h5->nfile + h5->nbuf + i),
                                        (long long)codes[i], h5->cols[j].nlabels - 1);
    }
    return 0;
}

/* Grows every column's ring of locations to hold the chunks of an append of
 * nrows (and the one it may complete); rings that cannot grow stay. */
static void grow_locs(pascal_h5sink *h5, int64_t nrows)
{
    int64_t want = LOC_MIN;
    struct chunk_loc **grown;
    while (want < LOC_MAX && want < nrows / h5->chunk + 2)
        want *= 2;
    if (want <= h5->nloc || !(grown = calloc((size_t)h5->ncols, sizeof *grown)))
        return;
    for (int j = 0; j < h5->ncols; j++)
        if (!(grown[j] = calloc((size_t)want, sizeof **grown))) {
            while (j-- > 0)
                free(grown[j]);
            free(grown);
            return;
        }
    for (int j = 0; j < h5->ncols; j++) {
        h5col *col = &h5->cols[j];
        for (int64_t i = 0; col->locs && i < h5->nloc; i++)
            if (col->locs[i].row1)
                grown[j][((int64_t)(col->locs[i].row1 - 1) / h5->chunk) & (want - 1)] =
                    col->locs[i];
        free(col->locs);
        col->locs = grown[j];
    }
    free(grown);
    h5->nloc = want;
}

int pascal_h5sink_append(pascal_sink *sink, int64_t nrows, const void *const *points,
                         const double *const *results, pascal_error *err)
{
    pascal_h5sink *h5 = sink->h5;
    int rc = check_codes(h5, nrows, points, sink->npoint, err);
    grow_locs(h5, nrows);
    for (int64_t done = 0, n; rc == 0 && done < nrows; done += n) {
        n = h5->chunk - h5->nbuf;
        if (n > nrows - done)
            n = nrows - done;
        if (h5->nbuf == 0 && n == h5->chunk) {
            rc = write_chunk(h5, sink->npoint, points, results, done, err);
            continue;
        }
        for (int j = 0; j < h5->ncols; j++)
            gather(&h5->cols[j], h5->nbuf,
                   column_src(j, sink->npoint, points, results, done), n);
        h5->nbuf += n;
        if (h5->nbuf == h5->chunk)
            rc = flush_buffers(h5, err);
    }
    return rc;
}

/* What a complete file has beyond its rows: the /cube view, the row
 * count and the completion flag. */
static int complete_file(hid_t file, int64_t rows, const char *path, pascal_error *err)
{
    int rc = pascal_h5cube_write(file, rows, path, err);
    if (rc == 0)
        rc = pascal_h5_attr_i64(file, "points", rows, path, err);
    if (rc == 0)
        rc = pascal_h5_attr_i64(file, "complete", 1, path, err);
    return rc;
}

int pascal_h5sink_finish(pascal_sink *sink, pascal_error *err)
{
    pascal_h5sink *h5 = sink->h5;
    int rc = 0;
    if (h5->nbuf > 0)
        rc = flush_buffers(h5, err);
    if (rc == 0 && h5->nfile != sink->rows)
        rc = pascal_error_set(err, PASCAL_EINTERNAL, "%s: wrote %lld rows of %lld", h5->path,
                              (long long)h5->nfile, (long long)sink->rows);
    if (rc == 0)
        rc = complete_file(h5->file, h5->nfile, h5->path, err);
    for (int j = 0; j < h5->ncols; j++) {
        if (h5->cols[j].dset >= 0 && H5Dclose(h5->cols[j].dset) < 0 && rc == 0)
            rc = pascal_h5_fail(err, h5->path, "closing a dataset");
        h5->cols[j].dset = -1;
    }
    /* HDF5 releases the identifier even when the close fails (a full disk
     * at the last flush): it must not be closed again. */
    if (rc == 0) {
        herr_t closed = H5Fclose(h5->file);
        h5->file = -1;
        if (closed < 0)
            rc = pascal_h5_fail(err, h5->path, "closing the file");
    }
    pascal_h5sink_free(h5);
    sink->h5 = NULL;
    return rc;
}

void pascal_h5sink_free(pascal_h5sink *h5)
{
    if (!h5)
        return;
    for (int j = 0; j < h5->ncols; j++) {
        free(h5->cols[j].locs);
        if (h5->cols[j].dset >= 0)
            H5Dclose(h5->cols[j].dset);
        if (h5->cols[j].mtype >= 0)
            H5Tclose(h5->cols[j].mtype);
        free(h5->cols[j].buf);
        pascal_zchunk_free(h5->cols[j].z);
        free(h5->cols[j].name);
    }
    free(h5->zsrc);
    free(h5->vbuf);
    if (h5->file >= 0)
        H5Fclose(h5->file);
    free(h5->cols);
    free(h5);
}

/* ---- interrupted runs ---------------------------------------------------- */

/* Every finished row is kept: the buffered tail is written as the last,
 * shorter chunk, as finish writes it, and a resume reads it back into the
 * buffers (pascal_h5sink_reopen).  A journal records whole chunks only, so
 * a kill after the resume loses at most that tail, which is redone. */
int pascal_h5sink_suspend(pascal_sink *sink, int64_t *rows, pascal_error *err)
{
    pascal_h5sink *h5 = sink->h5;
    int rc = h5->nbuf > 0 ? flush_buffers(h5, err) : 0;
    h5->nbuf = 0;
    *rows = h5->nfile;
    for (int j = 0; j < h5->ncols; j++) {
        if (h5->cols[j].dset >= 0 && H5Dclose(h5->cols[j].dset) < 0 && rc == 0)
            rc = pascal_h5_fail(err, h5->path, "closing a dataset");
        h5->cols[j].dset = -1;
    }
    if (H5Fclose(h5->file) < 0 && rc == 0)
        rc = pascal_h5_fail(err, h5->path, "closing the file");
    h5->file = -1;
    pascal_h5sink_free(h5);
    return rc;
}

/* Chunk length, deflate level and shuffle of an existing column. */
static int read_layout(pascal_h5sink *h5, hid_t dset)
{
    hid_t dcpl = H5Dget_create_plist(dset);
    hsize_t dims[1];
    int n, ok = dcpl >= 0 && H5Pget_chunk(dcpl, 1, dims) == 1;
    h5->chunk = ok ? (int64_t)dims[0] : 0;
    h5->level = h5->shuffle = 0;
    n = ok ? H5Pget_nfilters(dcpl) : 0;
    for (int i = 0; i < n; i++) {
        unsigned flags, cd[4] = {0};
        size_t ncd = 4;
        H5Z_filter_t f = H5Pget_filter2(dcpl, (unsigned)i, &flags, &ncd, cd, 0, NULL, NULL);
        if (f == H5Z_FILTER_DEFLATE)
            h5->level = ncd > 0 ? (int)cd[0] : 6;
        else if (f == H5Z_FILTER_SHUFFLE)
            h5->shuffle = 1;
        else
            ok = 0;
    }
    if (dcpl >= 0)
        H5Pclose(dcpl);
    return ok ? 0 : -1;
}

/* Opens one existing column and checks it is the one this run writes. */
static int reopen_column(pascal_h5sink *h5, const char *gname, const pascal_column_desc *c,
                         h5col *col, int64_t *rows, pascal_error *err)
{
    size_t len = strlen(gname) + strlen(c->name) + 2;
    hid_t ftype, dt = -1, sp = -1;
    hsize_t dims[1] = {0};
    int rc, ok;
    if (!(col->name = malloc(len)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", h5->path);
    snprintf(col->name, len, "%s/%s", gname, c->name);
    if ((rc = column_types(col, c, h5->path, &ftype, err)))
        return rc;
    col->dset = H5Dopen2(h5->file, col->name, H5P_DEFAULT);
    ok = col->dset >= 0 && (dt = H5Dget_type(col->dset)) >= 0 && H5Tequal(dt, ftype) > 0 &&
         (sp = H5Dget_space(col->dset)) >= 0 && H5Sget_simple_extent_dims(sp, dims, NULL) == 1 &&
         (*rows < 0 || (int64_t)dims[0] == *rows);
    if (dt >= 0) H5Tclose(dt);
    if (sp >= 0) H5Sclose(sp);
    if (!ok)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a column %s of this run's "
                                "type and %lld rows, got another", h5->path, col->name,
                                (long long)*rows);
    *rows = (int64_t)dims[0];
    if (!(col->buf = malloc((size_t)h5->chunk * col->esize)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", h5->path);
    if (h5->direct &&
        !(col->z = pascal_zchunk_new((size_t)h5->chunk, col->esize, h5->level, h5->shuffle)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", h5->path);
    return 0;
}

/* The partial file must belong to this run: incomplete, same spec text, and
 * for a sharded run the same slice. */
static int check_partial(pascal_h5sink *h5, const pascal_sink_meta *meta, pascal_error *err)
{
    const char *want[3][2] = {{"complete", "0"}, {"spec", meta->spec_text}, {NULL, NULL}};
    int rc = 0, n = 2;
    for (int i = 0; i < meta->nattrs && n < 3; i++)
        if (strcmp(meta->attrs[i].key, "raw_range") == 0)
            want[n][0] = "raw_range", want[n][1] = meta->attrs[i].value, n++;
    for (int i = 0; rc == 0 && i < n; i++) {
        char *got = NULL;
        if ((rc = pascal_h5_attr_text(h5->file, h5->path, want[i][0], &got, err)) == 0 &&
            strcmp(got, want[i][1] ? want[i][1] : "") != 0)
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: expected an interrupted run of this "
                                  "spec (%s = %.40s), got %s = %.40s", h5->path, want[i][0],
                                  i == 1 ? "the same text" : want[i][1], want[i][0],
                                  i == 1 ? "another text" : got);
        free(got);
    }
    return rc;
}

/* Reads rows [nfile, nfile + n) of every column into its buffer, stored
 * as the file stores them (enum codes narrowed). */
static int read_tail(pascal_h5sink *h5, int64_t n, pascal_error *err)
{
    for (int j = 0; j < h5->ncols; j++) {
        h5col *col = &h5->cols[j];
        hid_t mtype = col->type == PASCAL_COLTYPE_F64   ? H5T_NATIVE_DOUBLE
                      : col->type == PASCAL_COLTYPE_I64 ? H5T_NATIVE_INT64
                                                        : col->mtype;
        hsize_t start[1] = {(hsize_t)h5->nfile}, count[1] = {(hsize_t)n};
        hid_t fs = H5Dget_space(col->dset), ms = H5Screate_simple(1, count, NULL);
        int ok = fs >= 0 && ms >= 0 &&
                 H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
                 H5Dread(col->dset, mtype, ms, fs, H5P_DEFAULT, col->buf) >= 0;
        if (fs >= 0) H5Sclose(fs);
        if (ms >= 0) H5Sclose(ms);
        if (!ok)
            return pascal_error_set(err, PASCAL_EINPUT, "%s: expected the stopped run's last "
                                    "rows of %s, got a column that cannot be read", h5->path,
                                    col->name);
    }
    h5->nbuf = n;
    return 0;
}

int pascal_h5sink_reopen(pascal_sink *sink, const pascal_sink_meta *meta,
                         const pascal_column_desc *point_cols,
                         const pascal_column_desc *result_cols, int64_t *rows, int write,
                         pascal_error *err)
{
    pascal_h5sink *h5 = calloc(1, sizeof *h5);
    int n = sink->npoint + sink->nresult, rc = 0;
    hid_t first;
    if (!h5 || !(h5->cols = calloc((size_t)(n > 0 ? n : 1), sizeof *h5->cols)) ||
        !(h5->zsrc = calloc((size_t)(n > 0 ? n : 1), sizeof *h5->zsrc))) {
        pascal_h5sink_free(h5);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", sink->tmp);
    }
    sink->h5 = h5;
    h5->path = sink->tmp;
    h5->ncols = n;
    h5->fd = -1;
    h5->parallel_for = meta->parallel_for;
    for (int i = 0; i < n; i++)
        h5->cols[i].dset = h5->cols[i].mtype = -1;
    pascal_h5_quiet();
    /* Read-only: in this process alone, and without marking the file open
     * for writing (journal.h: a resumed run writes only once journaled). */
    if (write) {
        hid_t fapl = pascal_h5_write_fapl(sink->fapl);
        h5->file = fapl >= 0 ? H5Fopen(sink->tmp, H5F_ACC_RDWR, fapl) : -1;
        if (fapl >= 0)
            H5Pclose(fapl);
    } else if ((h5->file = pascal_h5_open_read(sink->tmp, err)) == PASCAL_H5_DAMAGED) {
        return PASCAL_EINPUT;
    }
    if (h5->file < 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected the file an interrupted run "
                                "left (pascal run ... -o %s, stopped), got none or a damaged one",
                                sink->tmp, sink->dest);
    if ((rc = check_partial(h5, meta, err)))
        return rc;
    h5->fd = sec2_fd(h5->file);
    first = n > 0 ? H5Dopen2(h5->file, "points/N", H5P_DEFAULT) : -1;
    if (first < 0 || read_layout(h5, first) != 0 || h5->chunk < 1)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: expected this run's chunked columns, got "
                              "another layout", sink->tmp);
    if (first >= 0)
        H5Dclose(first);
    h5->direct = h5->level > 0 && H5Tequal(H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE) > 0 &&
                 H5Tequal(H5T_NATIVE_INT64, H5T_STD_I64LE) > 0 && !sink->mpi;
    h5->raw = h5->level == 0 && H5Tequal(H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE) > 0 &&
              H5Tequal(H5T_NATIVE_INT64, H5T_STD_I64LE) > 0 && !sink->mpi;
    *rows = -1;
    for (int j = 0; rc == 0 && j < n; j++)
        rc = reopen_column(h5, j < sink->npoint ? "points" : "results",
                           j < sink->npoint ? &point_cols[j] : &result_cols[j - sink->npoint],
                           &h5->cols[j], rows, err);
    h5->nfile = rc == 0 ? *rows - *rows % h5->chunk : 0;
    /* A stop's last, shorter chunk goes back into the buffers, to be
     * written whole once it fills (pascal_h5sink_suspend), when the file is
 * open for writing.  Under MPI the
     * ranks write whole chunks only: the run continues at the last whole
     * chunk and writes the tail again. */
    if (rc == 0 && *rows > h5->nfile) {
        if (sink->mpi)
            *rows = h5->nfile;
        else if (write) /* a read-only look writes nothing back */
            rc = read_tail(h5, *rows - h5->nfile, err);
    }
    return rc;
}

int pascal_h5sink_read(pascal_sink *sink, int col, int64_t from, int64_t n, double *out,
                       pascal_error *err)
{
    h5col *c = &sink->h5->cols[col];
    hsize_t start[1] = {(hsize_t)from}, count[1] = {(hsize_t)n};
    hid_t fs = H5Dget_space(c->dset), ms = H5Screate_simple(1, count, NULL);
    int ok = fs >= 0 && ms >= 0 &&
             H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
             H5Dread(c->dset, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, out) >= 0;
    if (fs >= 0) H5Sclose(fs);
    if (ms >= 0) H5Sclose(ms);
    return ok ? 0 : pascal_h5_fail(err, sink->tmp, c->name);
}

/* ---- crash safety (output/journal.h) --------------------------------------- */

void pascal_h5sink_layout(const pascal_sink *sink, int64_t *rows, int64_t *chunk, int *level,
                          int *shuffle)
{
    const pascal_h5sink *h5 = sink->h5;
    *rows = h5->nfile;
    *chunk = h5->chunk;
    *level = h5->level;
    *shuffle = h5->shuffle;
}

hid_t pascal_h5sink_dataset(const pascal_sink *sink, int j)
{
    return sink->h5->cols[j].dset;
}

int pascal_h5sink_chunk_info(const pascal_sink *sink, int j, int64_t row, unsigned *mask,
                             uint64_t *addr, uint64_t *size)
{
    const pascal_h5sink *h5 = sink->h5;
    const h5col *col = &h5->cols[j];
    const struct chunk_loc *l = col->locs ? &col->locs[(row / h5->chunk) & (h5->nloc - 1)] : NULL;
    hsize_t off[1] = {(hsize_t)row}, sz = 0;
    haddr_t a = HADDR_UNDEF;
    if (l && l->row1 == (uint64_t)row + 1) {
        *mask = l->mask, *addr = l->addr, *size = l->size;
        return 0;
    }
    if (row > 0) /* a walk over the chunks before it */
        pascal_testpoint("chunk-index-walk");
    if (H5Dget_chunk_info_by_coord(col->dset, off, mask, &a, &sz) < 0 || a == HADDR_UNDEF)
        return -1;
    *addr = (uint64_t)a, *size = (uint64_t)sz;
    return 0;
}

int pascal_h5sink_put_chunk(pascal_sink *sink, const void *const *bytes, const size_t *sizes,
                            const unsigned *masks, pascal_error *err)
{
    pascal_h5sink *h5 = sink->h5;
    hsize_t off[1] = {(hsize_t)h5->nfile}, size[1] = {(hsize_t)(h5->nfile + h5->chunk)};
    grow_locs(h5, h5->chunk);
    for (int j = 0; j < h5->ncols; j++) {
        h5col *col = &h5->cols[j];
        if (H5Dset_extent(col->dset, size) < 0 ||
            put_chunk(h5, col, off[0], masks[j], bytes[j], sizes[j], HADDR_UNDEF) < 0) {
            char what[300];
            snprintf(what, sizeof what, "writing %s", col->name);
            return pascal_h5_fail(err, h5->path, what);
        }
    }
    h5->nfile += h5->chunk;
    sink->rows = h5->nfile;
    return 0;
}

/* The collective writer of an MPI run (h5_sink_mpi.c) writes the columns
 * itself and then says how many rows the file holds. */
void pascal_h5sink_set_rows(pascal_sink *sink, int64_t rows)
{
    sink->h5->nfile = rows;
    sink->rows = rows;
}

/* The MPI writer closes the file on every rank, then one rank completes it
 * here in one process: the /cube view copies label strings, which parallel
 * HDF5 cannot write, and this way it is written exactly as pascal_h5sink_
 * finish writes it. */
int pascal_h5sink_complete(const char *tmp, const char *path, int64_t rows, pascal_error *err)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), file = -1;
    int rc;
    if (fapl >= 0 && H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_V110) >= 0)
        file = H5Fopen(tmp, H5F_ACC_RDWR, fapl);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (file < 0)
        return pascal_h5_fail(err, path, "reopening the file to complete it");
    rc = complete_file(file, rows, path, err);
    if (H5Fclose(file) < 0 && rc == 0)
        rc = pascal_h5_fail(err, path, "closing the file");
    return rc;
}
