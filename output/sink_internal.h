/* Pieces shared by the files of the output module (not part of the public
 * API in output/sink.h).
 *
 * sink.c owns the protocol every format shares: validating the column
 * descriptions, creating the temporary file beside the destination, renaming
 * it into place on success and removing it otherwise.  h5_sink.c and
 * csv_sink.c write the bytes; each keeps its state behind one pointer in
 * struct pascal_sink. */
#ifndef PASCAL_OUTPUT_SINK_INTERNAL_H
#define PASCAL_OUTPUT_SINK_INTERNAL_H

#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>

#include "output/sink.h"

typedef struct pascal_h5sink pascal_h5sink;
typedef struct pascal_csvsink pascal_csvsink;

struct pascal_sink {
    pascal_sink_format format;
    char *dest;          /* destination path */
    char *tmp;           /* temporary path; NULL when writing to stdout */
    int npoint, nresult;
    int failed;          /* an append failed: finish must not publish */
    int64_t rows;        /* rows appended so far */
    pascal_h5sink *h5;   /* format == PASCAL_SINK_HDF5 */
    pascal_csvsink *csv; /* format == PASCAL_SINK_CSV */
    struct pascal_journal *journal; /* crash safety (journal.h); NULL when off */
    int resumed;         /* tmp is "<dest>.partial", reopened by resume */
    /* MPI runs (h5_sink_mpi.c): the HDF5 file access list the file is
     * created or opened with (H5P_DEFAULT, which is 0, or an MPI-IO one),
     * and the state of the collective writer (NULL in one process). */
    hid_t fapl;
    struct pascal_mpisink *mpi;
};

/* HDF5 (h5_sink.c, h5_meta.c).  open creates the file at sink->tmp, which
 * already exists and is empty. */
int pascal_h5sink_open(pascal_sink *sink, const pascal_sink_meta *meta,
                       const pascal_column_desc *point_cols,
                       const pascal_column_desc *result_cols,
                       pascal_error *err);
int pascal_h5sink_append(pascal_sink *sink, int64_t nrows,
                         const void *const *points,
                         const double *const *results, pascal_error *err);
/* Writes the buffered rows and the final attributes, then closes the file. */
int pascal_h5sink_finish(pascal_sink *sink, pascal_error *err);
/* Closes everything without writing; NULL is a no-op. */
void pascal_h5sink_free(pascal_h5sink *h5);
/* Drops buffered rows and closes the file; *rows = rows in the file. */
int pascal_h5sink_suspend(pascal_sink *sink, int64_t *rows, pascal_error *err);
/* Opens the partial file sink->tmp (see pascal_sink_resume): for appending
 * when write, else read-only in this process (H5P_DEFAULT access: no MPI-IO)
 * and unchanged.  HDF5 marks a file opened for writing in its superblock,
 * and a file left so marked by a killed process cannot be opened again: a
 * partial file is opened for writing only while a journal names it. */
int pascal_h5sink_reopen(pascal_sink *sink, const pascal_sink_meta *meta,
                         const pascal_column_desc *point_cols,
                         const pascal_column_desc *result_cols, int64_t *rows, int write,
                         pascal_error *err);
int pascal_h5sink_read(pascal_sink *sink, int col, int64_t from, int64_t n, double *out,
                       pascal_error *err);
/* Rows now in the file, for a writer that wrote the columns itself (the
 * collective writer of an MPI run, h5_sink_mpi.c). */
void pascal_h5sink_set_rows(pascal_sink *sink, int64_t rows);
/* Completes the closed file tmp of `rows` rows as pascal_h5sink_finish
 * does (the /cube view, `points`, `complete`), in one process; path names
 * it in messages.  For the MPI writer, after every rank closed the file. */
int pascal_h5sink_complete(const char *tmp, const char *path, int64_t rows, pascal_error *err);

/* CSV (csv_sink.c).  open takes ownership of fp (stdout is never closed). */
int pascal_csvsink_open(pascal_sink *sink, FILE *fp,
                        const pascal_column_desc *point_cols,
                        const pascal_column_desc *result_cols,
                        pascal_error *err);
int pascal_csvsink_append(pascal_sink *sink, int64_t nrows,
                          const void *const *points,
                          const double *const *results, pascal_error *err);
int pascal_csvsink_finish(pascal_sink *sink, pascal_error *err);
void pascal_csvsink_free(pascal_csvsink *csv);

/* Reading files that may be damaged (h5_vet.c, pascal_h5_vet in sink.h):
 * pascal_h5_open_read vets, then opens read-only: a negative id on
 * failure, PASCAL_H5_DAMAGED (err set) when the vetting refused the file,
 * else HDF5's own failure (err untouched: the caller says what it
 * expected). */
#define PASCAL_H5_DAMAGED (-2)
hid_t pascal_h5_open_read(const char *path, pascal_error *err);

/* Shared HDF5 helpers (h5_util.c). */
#include <hdf5.h>

/* Turns off HDF5's printing of its error stack (once per process). */
void pascal_h5_quiet(void);
/* Sets err to "<path>: <what> failed (<innermost HDF5 message>)". */
int pascal_h5_fail(pascal_error *err, const char *path, const char *what);
/* A variable-length UTF-8 string type; caller closes it. */
hid_t pascal_h5_str_type(void);
/* Writes a scalar string attribute (NULL writes ""). */
int pascal_h5_attr_str(hid_t obj, const char *key, const char *value,
                       const char *path, pascal_error *err);
/* A root attribute of an open file as malloc'd text (numbers in decimal). */
int pascal_h5_attr_text(hid_t file, const char *path, const char *key, char **out,
                        pascal_error *err);
/* Writes or overwrites a scalar int64 attribute. */
int pascal_h5_attr_i64(hid_t obj, const char *key, int64_t value,
                       const char *path, pascal_error *err);
/* An enum type over int8 (up to 127 labels) or int16 with member i named
 * labels[i], into *out; caller closes it. */
int pascal_h5_enum_type(const char *const *labels, int nlabels, const char *path,
                        const char *name, hid_t *out, pascal_error *err);

/* "<dest><suffix>", malloc'd; NULL when out of memory (sink.c). */
char *pascal_sink_suffixed(const char *dest, const char *suffix);

/* File and chunk layout (h5_chunks.c). */
/* Creates (truncates) an HDF5 sweep file in the 1.10 format with the
 * caller's file access list (H5P_DEFAULT, or an MPI-IO one; base is not
 * modified); < 0 on failure. */
hid_t pascal_h5_create_fapl(const char *path, hid_t base);
/* A copy of base (H5P_DEFAULT: a new list) with the settings every open for
 * writing needs (h5_chunks.c); the caller closes it.  -1 on failure. */
hid_t pascal_h5_write_fapl(hid_t base);
/* Rows per chunk: requested (<= 0: the default), at most the rows the run
 * writes (expected > 0) and at most PASCAL_H5_MAX_CHUNK_ROWS. */
#define PASCAL_H5_DEFAULT_CHUNK_ROWS 65536
#define PASCAL_H5_MAX_CHUNK_ROWS (1 << 20)
int64_t pascal_h5_chunk_rows(int64_t requested, int64_t expected);

/* Root attributes and /axes (h5_meta.c); path names the file in errors. */
int pascal_h5meta_root(hid_t file, const pascal_sink_meta *meta, const char *path,
                       pascal_error *err);
int pascal_h5meta_axes(hid_t file, const pascal_sink_meta *meta, const char *path,
                       pascal_error *err);

/* The /cube view (h5_cube.c).  At creation: records each axis's sweep
 * dimension and canonical position (/axes/<name>@dim, @order).  When the
 * rows are complete: (re)writes /cube from the file's axes and columns. */
int pascal_h5cube_axes(hid_t file, const pascal_sink_meta *meta, const char *path,
                       pascal_error *err);
int pascal_h5cube_write(hid_t file, int64_t rows, const char *path, pascal_error *err);

/* Renames the finished file into place (output/sink.c).  A resumed run's
 * file is the partial file itself, which a failure here must not remove. */
int pascal_sink_publish(pascal_sink *sink, pascal_error *err);

#endif
