/* Recovering a killed run (pascal_sink_recover, journal.h): the whole chunks
 * its journal recorded are copied, stored bytes as they are, from its file
 * into a new one that becomes "<dest>.partial". */
#include "output/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/digest.h"
#include "output/h5_info.h"
#include "output/journal_format.h"
#include "common/testpoint.h"

static const char *meta_attr(const pascal_sink_meta *m, const char *key)
{
    for (int i = 0; i < m->nattrs; i++)
        if (strcmp(m->attrs[i].key, key) == 0)
            return m->attrs[i].value ? m->attrs[i].value : "";
    return "";
}

/* The killed run must have computed the same thing as this one. */
static int check_identity(const pascal_journal_header *h, const pascal_sink_meta *m, const char *jpath,
                          int ncols, pascal_error *err)
{
    static const char *const exact[] = {"raw_range", "shard"};
    char hex[65], label[600], change[200];
    const char *text = m->spec_text ? m->spec_text : "";
    pascal_digest_bytes(text, strlen(text), hex);
    if (strcmp(hex, h->spec) != 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a killed run of this spec, "
                                "got one of another spec text; run without --resume to start "
                                "over", jpath);
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) {
        const char *was = "";
        for (int k = 0; k < h->nattrs; k++)
            if (strcmp(h->attrs[k].key, exact[i]) == 0)
                was = h->attrs[k].value;
        if (strcmp(was, meta_attr(m, exact[i])) != 0)
            return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a killed run with %s = "
                                    "%s, got %s", jpath, exact[i], meta_attr(m, exact[i]), was);
    }
    if (pascal_digest_diff(h->attrs, h->nattrs, m->attrs, m->nattrs, label, sizeof label,
                           change, sizeof change))
        return pascal_error_set(err, PASCAL_EINPUT, "%s: %s changed since the run was killed "
                                "(%s); run without --resume to start over", jpath, label,
                                change);
    if (h->ncols != ncols)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a killed run with %d columns, "
                                "got %d", jpath, ncols, h->ncols);
    return 0;
}

/* Whole chunks 0, 1, ... recorded in a row with valid CRCs; from another
 * boot, only up to the last sync mark.  Returns the number of chunks. */
static int64_t trusted_chunks(const pascal_journal_header *h, const unsigned char *p, size_t len)
{
    size_t at = h->records;
    int64_t n = 0, synced = 0;
    char boot[64];
    pascal_journal_boot_id(boot, sizeof boot);
    for (;;) {
        uint32_t magic;
        uint64_t row;
        size_t size;
        if (pascal_journal_record(p, len, at, h->ncols, &magic, &row, &size) != 0 ||
            magic == PASCAL_JOURNAL_CLOSED)
            break; /* torn by the kill: the end (or an index's last record) */
        if (magic == PASCAL_JOURNAL_SYNC && row == (uint64_t)(n * h->chunk))
            synced = n;
        else if (magic == PASCAL_JOURNAL_CHUNK && row == (uint64_t)(n * h->chunk))
            n++;
        else if (magic == PASCAL_JOURNAL_CHUNK)
            break;
        at += size;
    }
    return strcmp(boot, h->boot) == 0 && strcmp(boot, "unknown") != 0 ? n : synced;
}

/* Reads "<dest>.journal" whole; *text NULL when there is none. */
static int read_journal(const char *path, char **text, size_t *len, pascal_error *err)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
    *text = NULL;
    if (fd < 0)
        return errno == ENOENT ? 0 : pascal_error_set(err, PASCAL_EIO, "cannot read %s: %s",
                                                      path, strerror(errno));
    if (fstat(fd, &st) != 0 || !(*text = malloc((size_t)st.st_size + 1)) ||
        pread(fd, *text, (size_t)st.st_size, 0) != st.st_size) {
        rc = pascal_error_set(err, PASCAL_EIO, "cannot read %s: %s", path,
                              errno ? strerror(errno) : "short read");
        free(*text);
        *text = NULL;
    } else {
        *len = (size_t)st.st_size;
        (*text)[*len] = '\0';
    }
    close(fd);
    return rc;
}

/* Copies chunks [0, n) of the killed run's file (fd) into the new sink. */
static int copy_chunks(pascal_sink *sink, const pascal_journal_header *h, const unsigned char *p, int64_t n,
                       int fd, const char *from, pascal_error *err)
{
    size_t rec = PASCAL_JOURNAL_HEAD + (size_t)h->ncols * PASCAL_JOURNAL_COL;
    void **bytes = calloc((size_t)h->ncols, sizeof *bytes);
    size_t *sizes = calloc((size_t)h->ncols, sizeof *sizes), *caps = calloc((size_t)h->ncols, sizeof *caps);
    unsigned *masks = calloc((size_t)h->ncols, sizeof *masks);
    struct stat st;
    int rc = bytes && sizes && caps && masks ? 0 : pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    if (rc == 0 && fstat(fd, &st) != 0)
        rc = pascal_error_set(err, PASCAL_EIO, "cannot read %s: %s", from, strerror(errno));
    for (size_t at = h->records, step; rc == 0 && n > 0; at += step) {
        uint32_t magic;
        memcpy(&magic, p + at, 4);
        step = magic == PASCAL_JOURNAL_CHUNK ? rec : PASCAL_JOURNAL_HEAD;
        if (magic != PASCAL_JOURNAL_CHUNK)
            continue; /* a sync mark */
        for (int c = 0; rc == 0 && c < h->ncols; c++) {
            const unsigned char *col = p + at + PASCAL_JOURNAL_HEAD + (size_t)c * PASCAL_JOURNAL_COL;
            uint64_t addr, size;
            uint32_t mask;
            memcpy(&addr, col, 8), memcpy(&size, col + 8, 8), memcpy(&mask, col + 16, 4);
            if (addr > (uint64_t)st.st_size || size > (uint64_t)st.st_size - addr)
                rc = pascal_error_set(err, PASCAL_EINPUT, "%s: a recorded chunk lies past its "
                                      "end (%llu bytes): not the killed run's file", from,
                                      (unsigned long long)st.st_size);
            else if (size > caps[c] && !(bytes[c] = realloc(bytes[c], caps[c] = (size_t)size)))
                rc = pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
            else if (pread(fd, bytes[c], (size_t)size, (off_t)addr) != (ssize_t)size)
                rc = pascal_error_set(err, PASCAL_EIO, "cannot read %s: %s", from, strerror(errno));
            sizes[c] = (size_t)size, masks[c] = mask;
        }
        if (rc == 0)
            rc = pascal_h5sink_put_chunk(sink, (const void *const *)bytes, sizes, masks, err);
        pascal_testpoint("recover-copied");
        n--;
    }
    for (int c = 0; bytes && c < h->ncols; c++)
        free(bytes[c]);
    free(bytes), free(sizes), free(caps), free(masks);
    return rc;
}

/* "<dir of dest>/<name>" */
static char *beside(const char *dest, const char *name)
{
    const char *slash = strrchr(dest, '/');
    size_t dir = slash ? (size_t)(slash - dest) + 1 : 0;
    char *p = malloc(dir + strlen(name) + 1);
    if (p) {
        memcpy(p, dest, dir);
        strcpy(p + dir, name);
    }
    return p;
}

/* Writes the recovered file and renames it to "<dest>.partial". */
static int rebuild(const pascal_sink_meta *meta, const pascal_journal_header *h, const unsigned char *p,
                   int64_t n, int fd, const char *from, const pascal_column_desc *pc, int np,
                   const pascal_column_desc *rc_cols, int nr, int64_t *rows, pascal_error *err)
{
    pascal_sink_meta m = *meta;
    pascal_sink *sink = NULL;
    int64_t have, chunk;
    int level, shuffle, rc;
    m.compression = h->level;
    m.shuffle = h->shuffle;
    m.chunk_rows = h->chunk;
    m.expected_rows = 0; /* the killed run's chunk length exactly, not capped again */
    m.journal = 0;
    m.early_chunks = 1; /* so that an MPI run can continue it too */
    if ((rc = pascal_sink_open(&m, pc, np, rc_cols, nr, &sink, err)))
        return rc;
    pascal_h5sink_layout(sink, &have, &chunk, &level, &shuffle);
    if (chunk != h->chunk || level != h->level || shuffle != h->shuffle)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: cannot rebuild its layout (chunks of "
                              "%lld rows, deflate %d)", from, h->chunk, h->level);
    if (rc == 0)
        rc = copy_chunks(sink, h, p, n, fd, from, err);
    if (rc) {
        pascal_sink_abort(sink);
        return rc;
    }
    return pascal_sink_suspend(sink, rows, err);
}

int pascal_sink_recover(const pascal_sink_meta *meta,
                        const pascal_column_desc *point_cols, int npoint,
                        const pascal_column_desc *result_cols, int nresult,
                        int64_t *rows, pascal_error *err)
{
    char *jpath = NULL, *text = NULL, *from = NULL, *partial = NULL;
    size_t len = 0;
    struct stat st;
    pascal_journal_header h;
    int rc = 0, fd = -1;
    int64_t n = 0;
    *rows = -1;
    if (!meta || !meta->path || meta->format != PASCAL_SINK_HDF5)
        return 0;
    pascal_h5_quiet();
    jpath = malloc(strlen(meta->path) + 16);
    partial = malloc(strlen(meta->path) + 24);
    if (!jpath || !partial) {
        free(jpath), free(partial);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    }
    sprintf(jpath, "%s.journal", meta->path);
    sprintf(partial, "%s.partial", meta->path);
    if ((rc = read_journal(jpath, &text, &len, err)) || !text)
        goto done;
    if (pascal_journal_parse_header(text, len, &h) != 0 || !(from = beside(meta->path, h.file)) ||
        stat(from, &st) != 0 || st.st_dev != h.dev || st.st_ino != h.ino) {
        unlink(jpath); /* torn header, or its file is gone or replaced: nothing to recover */
        goto done;
    }
    if ((rc = check_identity(&h, meta, jpath, npoint + nresult, err)))
        goto done;
    n = trusted_chunks(&h, (const unsigned char *)text, len);
    if (n > 0 && (fd = open(from, O_RDONLY | O_CLOEXEC)) < 0)
        rc = pascal_error_set(err, PASCAL_EIO, "cannot read %s: %s", from, strerror(errno));
    if (rc == 0 && n > 0)
        rc = rebuild(meta, &h, (const unsigned char *)text, n, fd, from, point_cols, npoint,
                     result_cols, nresult, rows, err);
    if (rc == 0) { /* the rows are safe in the partial file (or there were none) */
        pascal_testpoint("recover-renamed");
        unlink(jpath);
        pascal_testpoint("recover-journal-removed");
        if (strcmp(from, partial) != 0)
            unlink(from);
        if (n > 0) { /* a new partial file: an index of the old one is spent */
            strcat(partial, ".index");
            unlink(partial);
        }
    }
done:
    if (fd >= 0)
        close(fd);
    free(text), free(from), free(jpath), free(partial);
    return rc;
}

void pascal_sink_forget(const char *dest)
{
    char *jpath = dest ? malloc(strlen(dest) + 16) : NULL;
    if (jpath) {
        sprintf(jpath, "%s.journal", dest);
        unlink(jpath);
    }
    free(jpath);
}

/* ---- pascal info ------------------------------------------------------------ */

static int info_attr(pascal_file_info *d, const char *key, const char *value)
{
    pascal_info_attr *a = realloc(d->attrs, (size_t)(d->nattrs + 1) * sizeof *a);
    if (!a)
        return -1;
    d->attrs = a;
    a[d->nattrs].key = strdup(key);
    a[d->nattrs].value = strdup(value ? value : "");
    d->nattrs++;
    return a[d->nattrs - 1].key && a[d->nattrs - 1].value ? 0 : -1;
}

/* 1 when path starts with the journal's first header line. */
static int is_journal(const char *path)
{
    static const char first[] = PASCAL_JOURNAL_MAGIC " 1\n";
    char head[sizeof first] = "";
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, head, sizeof first - 1) : -1;
    if (fd >= 0)
        close(fd);
    return n == (ssize_t)sizeof first - 1 && memcmp(head, first, sizeof first - 1) == 0;
}

/* The header's layout, identity and recoverable rows as info attributes. */
static int journal_attrs(const pascal_journal_header *h, int present, int this_boot, pascal_file_info *d)
{
    char num[64];
    int rc = info_attr(d, "file", h->file) || info_attr(d, "file_present", present ? "1" : "0");
    snprintf(num, sizeof num, "%lld", h->chunk);
    rc = rc || info_attr(d, "chunk_rows", num);
    snprintf(num, sizeof num, "%d", h->level);
    rc = rc || info_attr(d, "compression", num);
    snprintf(num, sizeof num, "%d", h->shuffle);
    rc = rc || info_attr(d, "shuffle", num);
    snprintf(num, sizeof num, "%d", h->ncols);
    rc = rc || info_attr(d, "columns", num) ||
         info_attr(d, "boot", this_boot ? "this" : "another");
    for (int i = 0; rc == 0 && i < h->nattrs; i++)
        rc = info_attr(d, h->attrs[i].key, h->attrs[i].value);
    if (rc == 0 && !pascal_info_attr_value(d, "sha256_spec"))
        rc = info_attr(d, "sha256_spec", h->spec);
    return rc;
}

/* "<dest>.partial.index" (h5_journal.c): a journal sealed by a stop, whose
 * last record holds the size and modification time of the partial file it
 * describes.  1 when path is one (d filled in, *rc set), else 0. */
static int is_index(const char *path, const pascal_journal_header *h, const unsigned char *p,
                    size_t len, pascal_file_info *d, int *rc)
{
    static const char tail[] = ".partial.index";
    size_t n = strlen(path), k = sizeof tail - 1;
    uint32_t magic;
    uint64_t bytes, rows;
    size_t size;
    int64_t sec, nsec;
    struct stat st;
    char *partial;
    const char *base;
    int current;
    if (n <= k || strcmp(path + n - k, tail) != 0 || len < h->records + PASCAL_JOURNAL_CLOSED_LEN)
        return 0;
    if (pascal_journal_record(p, len, len - PASCAL_JOURNAL_CLOSED_LEN, h->ncols, &magic, &rows,
                              &size) != 0 || magic != PASCAL_JOURNAL_CLOSED)
        return 0;
    p += len - PASCAL_JOURNAL_CLOSED_LEN;
    memcpy(&bytes, p + 16, 8), memcpy(&sec, p + 24, 8), memcpy(&nsec, p + 32, 8);
    if (!(partial = strdup(path)))
        return *rc = -1, 1;
    partial[n - strlen(".index")] = '\0';
    current = stat(partial, &st) == 0 && (unsigned long long)st.st_dev == h->dev &&
              (unsigned long long)st.st_ino == h->ino && (uint64_t)st.st_size == bytes &&
              st.st_mtim.tv_sec == sec && st.st_mtim.tv_nsec == nsec;
    d->rows = trusted_chunks(h, p - (len - PASCAL_JOURNAL_CLOSED_LEN), len) * h->chunk;
    base = strrchr(partial, '/') ? strrchr(partial, '/') + 1 : partial;
    *rc = info_attr(d, "index", "1") || info_attr(d, "partial", base) ||
          info_attr(d, "describes_partial", current ? "1" : "0") ||
          journal_attrs(h, current, 1, d) ? -1 : 0;
    free(partial);
    return 1;
}

int pascal_journal_describe(const char *path, pascal_file_info *d, pascal_error *err)
{
    char *text = NULL, *from = NULL, boot[64];
    size_t len = 0;
    struct stat st;
    pascal_journal_header h;
    int rc, present;
    memset(d, 0, sizeof *d);
    if (!is_journal(path))
        return pascal_error_set(err, PASCAL_EINPUT, "%s: not a pascal journal", path);
    if ((rc = read_journal(path, &text, &len, err)) || !text)
        return rc ? rc : pascal_error_set(err, PASCAL_EIO, "cannot read %s", path);
    if (pascal_journal_parse_header(text, len, &h) != 0) { /* killed while starting: nothing to recover */
        free(text);
        if (info_attr(d, "header", "torn") == 0)
            return 0;
        pascal_file_info_free(d);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    }
    if (is_index(path, &h, (const unsigned char *)text, len, d, &rc)) {
        free(text);
        if (rc == 0)
            return 0;
        pascal_file_info_free(d);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    }
    from = beside(path, h.file);
    present = from && stat(from, &st) == 0 && st.st_dev == h.dev && st.st_ino == h.ino;
    pascal_journal_boot_id(boot, sizeof boot);
    d->rows = present ? trusted_chunks(&h, (const unsigned char *)text, len) * h.chunk : 0;
    if (journal_attrs(&h, present, strcmp(boot, h.boot) == 0 && strcmp(boot, "unknown") != 0,
                      d) != 0) {
        pascal_file_info_free(d);
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    }
    free(from);
    free(text);
    return rc;
}
