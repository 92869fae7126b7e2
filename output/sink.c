/* The sink protocol shared by every output format (output/sink.h).
 *
 * A run must never leave a half-written file under the destination's name,
 * nor damage a file already there: rows go to "<dest>.tmp.<pid>" in the same
 * directory (so rename() is atomic), which pascal_sink_open() creates at once
 * so that an unwritable destination fails before any work is done.  Only
 * pascal_sink_finish() renames it over the destination; every failure and
 * pascal_sink_abort() unlink it.  The format files (h5_sink.c, csv_sink.c)
 * write into the temporary file and know nothing of this. */
#include "output/digest.h"
#include "output/journal.h"
#include "output/sink_internal.h"
#include "common/testpoint.h"
#include "output/fs/tmpfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Names become HDF5 link names and CSV header fields. */
static int check_name(const char *group, int i, const char *name, pascal_error *err)
{
    if (!name || !name[0])
        return pascal_error_set(err, PASCAL_EINPUT, "%s column %d: empty name", group, i);
    if (strchr(name, '/') || strcmp(name, ".") == 0)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s column %d: name \"%s\" may not contain '/' or be \".\"",
                                group, i, name);
    return 0;
}

static int check_labels(const char *what, const char *const *labels, int nlabels,
                        pascal_error *err)
{
    if (!labels || nlabels < 1)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: an enum needs at least one label",
                                what);
    for (int i = 0; i < nlabels; i++) {
        if (!labels[i] || !labels[i][0])
            return pascal_error_set(err, PASCAL_EINPUT, "%s: label %d is empty", what, i);
        for (int j = 0; j < i; j++)
            if (strcmp(labels[i], labels[j]) == 0)
                return pascal_error_set(err, PASCAL_EINPUT,
                                        "%s: label \"%s\" appears twice", what, labels[i]);
    }
    return 0;
}

static int check_columns(const char *group, const pascal_column_desc *cols, int n,
                         int results, pascal_error *err)
{
    if (n < 0 || (n > 0 && !cols))
        return pascal_error_set(err, PASCAL_EINPUT, "%s: bad column count %d", group, n);
    for (int i = 0; i < n; i++) {
        char what[300];
        int rc = check_name(group, i, cols[i].name, err);
        if (rc)
            return rc;
        snprintf(what, sizeof what, "%s/%s", group, cols[i].name);
        for (int j = 0; j < i; j++)
            if (strcmp(cols[i].name, cols[j].name) == 0)
                return pascal_error_set(err, PASCAL_EINPUT, "%s: duplicate column name", what);
        if (results && cols[i].type != PASCAL_COLTYPE_F64)
            return pascal_error_set(err, PASCAL_EINPUT, "%s: result columns must be F64",
                                    what);
        if (cols[i].type < PASCAL_COLTYPE_F64 || cols[i].type > PASCAL_COLTYPE_ENUM)
            return pascal_error_set(err, PASCAL_EINPUT, "%s: unknown column type %d", what,
                                    (int)cols[i].type);
        if (cols[i].type == PASCAL_COLTYPE_ENUM &&
            (rc = check_labels(what, cols[i].labels, cols[i].nlabels, err)))
            return rc;
    }
    return 0;
}

static int check_meta(const pascal_sink_meta *meta, pascal_error *err)
{
    if (!meta || !meta->path || !meta->path[0])
        return pascal_error_set(err, PASCAL_EINPUT, "output: no destination path");
    if (meta->format != PASCAL_SINK_HDF5 && meta->format != PASCAL_SINK_CSV)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: unknown output format %d",
                                meta->path, (int)meta->format);
    if (meta->format == PASCAL_SINK_HDF5 && strcmp(meta->path, "-") == 0)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "-: HDF5 output needs a file name, not stdout");
    if (meta->compression < 0 || meta->compression > 9)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s: compression level %d, expected 0 (none) to 9",
                                meta->path, meta->compression);
    return 0;
}

/* Opens the format writer on sink->tmp (or stdout for CSV "-"). */
static int open_writer(pascal_sink *sink, const pascal_sink_meta *meta,
                       const pascal_column_desc *point_cols,
                       const pascal_column_desc *result_cols, pascal_error *err)
{
    int fd;
    FILE *fp;
    if (meta->format == PASCAL_SINK_CSV && strcmp(meta->path, "-") == 0)
        return pascal_csvsink_open(sink, stdout, point_cols, result_cols, err);
    if (!(sink->dest = strdup(meta->path)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", meta->path);
    if ((fd = pascal_tmpfile_create(sink->dest, &sink->tmp, err)) < 0)
        return fd;
    if (meta->format == PASCAL_SINK_HDF5) {
        if (close(fd) != 0)
            return pascal_error_set(err, PASCAL_EIO, "cannot create %s: %s", sink->tmp,
                                    strerror(errno));
        return pascal_h5sink_open(sink, meta, point_cols, result_cols, err);
    }
    if (!(fp = fdopen(fd, "wb"))) {
        int e = errno;
        close(fd);
        return pascal_error_set(err, PASCAL_EIO, "cannot open %s: %s", sink->tmp, strerror(e));
    }
    return pascal_csvsink_open(sink, fp, point_cols, result_cols, err);
}

int pascal_sink_open(const pascal_sink_meta *meta,
                     const pascal_column_desc *point_cols, int npoint,
                     const pascal_column_desc *result_cols, int nresult,
                     pascal_sink **out, pascal_error *err)
{
    pascal_sink *sink;
    int rc;
    if (!out)
        return pascal_error_set(err, PASCAL_EINTERNAL, "pascal_sink_open: out is NULL");
    *out = NULL;
    pascal_h5_quiet();
    if ((rc = check_meta(meta, err)))
        return rc;
    if ((rc = check_columns("points", point_cols, npoint, 0, err)) ||
        (rc = check_columns("results", result_cols, nresult, 1, err))) {
        pascal_error_prefix(err, "%s", meta->path);
        return rc;
    }
    if (!(sink = calloc(1, sizeof *sink)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", meta->path);
    sink->format = meta->format;
    sink->npoint = npoint;
    sink->nresult = nresult;
    if ((rc = open_writer(sink, meta, point_cols, result_cols, err)) ||
        (meta->journal && sink->h5 && (rc = pascal_journal_start(sink, meta, err)))) {
        pascal_sink_abort(sink);
        return rc;
    }
    *out = sink;
    return 0;
}

int pascal_sink_append(pascal_sink *sink, int64_t nrows, const void *const *points,
                       const double *const *results, pascal_error *err)
{
    int rc;
    if (!sink)
        return pascal_error_set(err, PASCAL_EINTERNAL, "pascal_sink_append: sink is NULL");
    if (sink->failed)
        return pascal_error_set(err, PASCAL_EINTERNAL, "%s: append after a failed append",
                                sink->dest ? sink->dest : "-");
    if (nrows == 0)
        return 0;
    if (nrows < 0 || (sink->npoint > 0 && !points) || (sink->nresult > 0 && !results))
        return pascal_error_set(err, PASCAL_EINTERNAL, "pascal_sink_append: bad arguments");
    for (int j = 0; j < sink->npoint; j++)
        if (!points[j])
            return pascal_error_set(err, PASCAL_EINTERNAL,
                                    "pascal_sink_append: point column %d is NULL", j);
    for (int j = 0; j < sink->nresult; j++)
        if (!results[j])
            return pascal_error_set(err, PASCAL_EINTERNAL,
                                    "pascal_sink_append: result column %d is NULL", j);
    pascal_h5_quiet(); /* on this thread: sinks are driven from OpenMP threads */
    rc = sink->format == PASCAL_SINK_HDF5
             ? pascal_h5sink_append(sink, nrows, points, results, err)
             : pascal_csvsink_append(sink, nrows, points, results, err);
    if (rc == 0)
        rc = pascal_journal_note(sink, err);
    if (rc)
        sink->failed = 1;
    else
        sink->rows += nrows;
    return rc;
}

/* Renames the finished file into place.  A resumed run's file is the
 * partial file itself, which a failure here must not remove. */
int pascal_sink_publish(pascal_sink *sink, pascal_error *err)
{
    int rc;
    if (!sink->resumed)
        return pascal_tmpfile_commit(sink->tmp, sink->dest, err);
    if ((rc = pascal_tmpfile_sync(sink->tmp, err)))
        return rc;
    pascal_testpoint("publish-closed");
    if ((rc = pascal_files_publish(sink->tmp, sink->dest, err)))
        return rc;
    return pascal_tmpfile_sync(sink->dest, err);
}

int pascal_sink_finish(pascal_sink *sink, pascal_error *err)
{
    int rc;
    if (!sink)
        return pascal_error_set(err, PASCAL_EINTERNAL, "pascal_sink_finish: sink is NULL");
    pascal_h5_quiet();
    if (sink->failed)
        rc = pascal_error_set(err, PASCAL_EINTERNAL, "%s: not finished: an append failed",
                              sink->dest ? sink->dest : "-");
    else if (sink->format == PASCAL_SINK_HDF5)
        rc = pascal_h5sink_finish(sink, err);
    else
        rc = pascal_csvsink_finish(sink, err);
    if (rc == 0 && sink->tmp)
        rc = pascal_sink_publish(sink, err);
    if (rc == 0) {
        pascal_testpoint("publish-renamed");
        free(sink->tmp);
        sink->tmp = NULL;
        pascal_journal_close(sink->journal, 1); /* its file is complete */
        sink->journal = NULL;
    } else if (sink->resumed) {
        sink->failed = 1; /* keep the partial file and its journal */
    }
    pascal_sink_abort(sink);
    return rc;
}

/* A resumed run that fails keeps "<dest>.partial": closed cleanly when it
 * can be (the journal is then not needed), else left to the journal. */
static void abort_resumed(pascal_sink *sink)
{
    int64_t rows;
    int tried = !sink->failed && sink->h5; /* suspend frees h5 either way */
    int clean = tried && pascal_h5sink_suspend(sink, &rows, NULL) == 0;
    if (!tried)
        pascal_h5sink_free(sink->h5);
    sink->h5 = NULL;
    pascal_journal_close(sink->journal, clean);
    sink->journal = NULL;
    free(sink->tmp);
    sink->tmp = NULL;
}

void pascal_sink_abort(pascal_sink *sink)
{
    if (!sink)
        return;
    pascal_h5_quiet();
    if (sink->resumed && sink->tmp)
        abort_resumed(sink);
    pascal_h5sink_free(sink->h5);
    pascal_csvsink_free(sink->csv);
    pascal_journal_close(sink->journal, 1);
    if (sink->tmp)
        pascal_tmpfile_discard(sink->tmp);
    free(sink->tmp);
    free(sink->dest);
    free(sink);
}

char *pascal_sink_suffixed(const char *dest, const char *suffix)
{
    size_t n = strlen(dest) + strlen(suffix) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s", dest, suffix);
    return p;
}

/* "<dest>.partial": where an interrupted run waits to be resumed. */
static char *partial_name(const char *dest)
{
    return pascal_sink_suffixed(dest, ".partial");
}

int pascal_sink_suspend(pascal_sink *sink, int64_t *rows, pascal_error *err)
{
    char *partial;
    pascal_error unused;
    int rc, noted;
    *rows = 0;
    if (!sink || sink->format != PASCAL_SINK_HDF5 || !sink->tmp) {
        if (sink)
            pascal_error_set(err, PASCAL_EINPUT, "%s: a CSV run cannot be resumed; nothing kept",
                             sink->dest ? sink->dest : "-");
        pascal_sink_abort(sink);
        return PASCAL_EINPUT;
    }
    pascal_h5_quiet();
    /* every whole chunk recorded, for the index the journal becomes */
    noted = sink->journal && pascal_journal_note(sink, &unused) == 0;
    rc = pascal_h5sink_suspend(sink, rows, err);
    sink->h5 = NULL;
    if (rc == 0 && !(partial = partial_name(sink->dest)))
        rc = pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    if (rc == 0) {
        if (strcmp(sink->tmp, partial) != 0)
            rc = pascal_tmpfile_commit(sink->tmp, partial, err);
        else
            rc = pascal_tmpfile_sync(partial, err);
        free(partial);
        if (rc == 0 || sink->resumed) {
            free(sink->tmp);   /* kept on disk, under its partial name */
            sink->tmp = NULL;
        }
        /* A partial file that is closed and on disk needs no journal: it
         * becomes the index of the file's chunks, for the resume. */
        if (rc == 0 && sink->journal && (!noted || pascal_journal_seal(sink->journal, sink->dest) != 0))
            pascal_journal_close(sink->journal, 1);
        else
            pascal_journal_close(sink->journal, rc == 0);
        sink->journal = NULL;
    } else if (sink->resumed) {
        sink->failed = 1;
    }
    pascal_sink_abort(sink);
    return rc;
}

/* The stopped run must have had the inputs of this one (digest.h). */
static int check_inputs(const char *partial, const pascal_sink_meta *meta, pascal_error *err)
{
    pascal_attr was[2 * PASCAL_DIGEST_NKEYS];
    char label[600], change[200];
    int n = pascal_digest_read_file(partial, was, 2 * PASCAL_DIGEST_NKEYS, err), differ;
    if (n < 0)
        return n;
    if (!pascal_digest_recorded(was, n)) {
        pascal_digest_free(was, n);
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a stopped run that records the "
                                "digests of its inputs, got one written before pascal recorded "
                                "them; run without --resume to start over", partial);
    }
    differ = pascal_digest_diff(was, n, meta->attrs, meta->nattrs, label, sizeof label, change,
                                sizeof change);
    pascal_digest_free(was, n);
    if (differ)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: %s changed since the stop (%s); run "
                                "without --resume to start over", partial, label, change);
    return 0;
}

/* The partial file, open read-only, is journaled (every chunk it holds),
 * then opened for writing: HDF5 marks a file open for writing, and a file
 * left so marked by a kill cannot be opened again, so that from then on only
 * the journal can bring back its rows.  Once the file may have been opened
 * for writing, a failure keeps the journal. */
static int reopen_journaled(pascal_sink *sink, const pascal_sink_meta *meta,
                            const pascal_column_desc *point_cols,
                            const pascal_column_desc *result_cols, int64_t *rows,
                            pascal_error *err)
{
    int64_t kept = *rows;
    int rc = pascal_journal_start(sink, meta, err);
    if (rc)
        return rc;
    pascal_testpoint("resume-journaled");
    pascal_h5sink_free(sink->h5);
    sink->h5 = NULL;
    rc = pascal_h5sink_reopen(sink, meta, point_cols, result_cols, rows, 1, err);
    if (rc == 0 && *rows != kept)
        rc = pascal_error_set(err, PASCAL_EINTERNAL, "%s: %lld rows, then %lld once reopened",
                              sink->tmp, (long long)kept, (long long)*rows);
    if (rc == 0)
        pascal_testpoint("resume-reopened");
    if (rc) {
        pascal_journal_close(sink->journal, 0);
        sink->journal = NULL;
    }
    return rc;
}

int pascal_sink_resume(const pascal_sink_meta *meta,
                       const pascal_column_desc *point_cols, int npoint,
                       const pascal_column_desc *result_cols, int nresult,
                       pascal_sink **out, int64_t *rows, pascal_error *err)
{
    pascal_sink *sink;
    int rc;
    *out = NULL;
    if ((rc = check_meta(meta, err)))
        return rc;
    if (meta->format != PASCAL_SINK_HDF5)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: only HDF5 runs can be resumed",
                                meta->path);
    if (!(sink = calloc(1, sizeof *sink)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", meta->path);
    sink->format = meta->format;
    sink->npoint = npoint;
    sink->nresult = nresult;
    if (!(sink->dest = strdup(meta->path)) || !(sink->tmp = partial_name(meta->path)))
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", meta->path);
    else
        rc = pascal_h5sink_reopen(sink, meta, point_cols, result_cols, rows, 0, err);
    if (rc == 0)
        rc = check_inputs(sink->tmp, meta, err);
    pascal_testpoint("resume-opened");
    if (rc == 0 && meta->journal)
        rc = reopen_journaled(sink, meta, point_cols, result_cols, rows, err);
    sink->resumed = 1;
    if (rc) {
        free(sink->tmp);   /* never remove the partial file on a failed resume */
        sink->tmp = NULL;
        pascal_sink_abort(sink);
        return rc;
    }
    sink->rows = *rows;
    *out = sink;
    return 0;
}

int pascal_sink_read_result(pascal_sink *sink, int j, int64_t from, int64_t n, double *out,
                            pascal_error *err)
{
    if (!sink || !sink->h5 || j < 0 || j >= sink->nresult)
        return pascal_error_set(err, PASCAL_EINTERNAL, "pascal_sink_read_result: bad arguments");
    pascal_h5_quiet();
    return pascal_h5sink_read(sink, sink->npoint + j, from, n, out, err);
}
