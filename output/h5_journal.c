/* The journal of an HDF5 sink (journal.h): where each whole chunk lies in
 * the file being written, so that a killed run can be recovered.
 *
 * Layout of "<dest>.journal": a text header, one "key value" per line,
 * ending with "end" (the file's name and identity, the boot it was written
 * in, the chunk layout, and the run's inputs, compared on recovery), then
 * binary records in the machine's byte order:
 *   chunk  u32 magic, u32 crc32 of what follows, u64 first row,
 *          per column: u64 file offset, u64 stored bytes, u32 filter mask,
 *          u32 zero
 *   sync   u32 magic, u32 crc32, u64 rows whose bytes are on disk
 *   closed u32 magic, u32 crc32, u64 rows; u64 bytes, i64 mtime seconds,
 *          i64 nanoseconds of the file once closed (the last record of an
 *          index only)
 * Each record is one write() on a descriptor opened with O_APPEND.
 *
 * The index: a run stopped cleanly (pascal_sink_suspend) closes its file,
 * so that it needs no journal, but its resume must journal every chunk
 * already there, and HDF5 1.10 finds chunk k's address by walking its
 * index from the start: quadratic in the chunks (9 s at 206 M rows, hours
 * at 10^10).  So the stop seals the journal instead of removing it: a
 * closed record with the file's size and modification time, and the
 * journal becomes "<dest>.partial.index".  The resume copies its records
 * when the partial file is still that file (device, inode, size, mtime,
 * layout, and each column's last chunk where HDF5 says it is), and looks
 * up only the chunks it lacks, reading the stop flag before each. */
#include "output/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "output/digest.h"
#include "output/journal_format.h"
#include "common/testpoint.h"
#include "output/fs/tmpfile.h"
#include "pascal/version.h"

#define SYNC_SECONDS 1.0

struct pascal_journal {
    int fd;            /* the journal */
    int data_fd;       /* the file it describes (read-only: for fdatasync) */
    char *path;        /* "<dest>.journal" */
    char *tmp;         /* where it is written until it is whole (start) */
    int placed;        /* renamed to path: close may remove it */
    int ncols;
    int64_t chunk, recorded; /* rows per chunk; rows recorded so far */
    double last_sync;  /* CLOCK_MONOTONIC seconds */
    unsigned char *rec;
    size_t rec_len;
    /* A resume: the records of the chunks 0 .. nknown-1 of its partial file,
     * from "<dest>.partial.index" (see seal), so that they need no walk of
     * HDF5's chunk index; and what is polled while the others are looked up. */
    unsigned char *known;
    int64_t nknown;
    const volatile sig_atomic_t *stop_flag;
    int (*should_stop)(void *ctx);
    void *stop_ctx;
};

static double mono_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void pascal_journal_boot_id(char *buf, size_t len)
{
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    snprintf(buf, len, "unknown");
    if (f) {
        if (fgets(buf, (int)len, f))
            buf[strcspn(buf, "\n")] = '\0';
        fclose(f);
    }
}

static int sync_mark(pascal_journal *j, pascal_error *err);
static int record_written(pascal_journal *j, pascal_sink *sink, pascal_error *err);

static int fail(pascal_error *err, const char *path)
{
    return pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", path, strerror(errno));
}

static int put(pascal_journal *j, const void *data, size_t n, pascal_error *err)
{
    ssize_t w = write(j->fd, data, n);
    if (w == (ssize_t)n)
        return 0;
    if (w >= 0)
        errno = ENOSPC; /* a short write to a regular file: the disk or quota is full */
    return fail(err, j->path);
}

/* One "key value" line; newlines in values become spaces. */
static void header_line(char **buf, size_t *len, size_t *cap, const char *key,
                        const char *value)
{
    size_t need = strlen(key) + strlen(value) + 3;
    char *at;
    if (!*buf)
        return;
    if (*len + need > *cap) {
        char *grown = realloc(*buf, *cap = 2 * (*cap + need));
        if (!grown) {
            free(*buf);
            *buf = NULL;
            return;
        }
        *buf = grown;
    }
    at = *buf + *len;
    *len += (size_t)sprintf(at, "%s %s\n", key, value);
    for (char *c = at + strlen(key) + 1; c < *buf + *len - 1; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
}

static char *make_header(const pascal_sink *sink, const pascal_sink_meta *meta,
                         const struct stat *st, size_t *len)
{
    size_t cap = 4096;
    char *buf = malloc(cap), num[96], hex[65], boot[64];
    const char *base = strrchr(sink->tmp, '/') ? strrchr(sink->tmp, '/') + 1 : sink->tmp;
    int64_t rows, chunk;
    int level, shuffle;
    *len = 0;
    pascal_h5sink_layout(sink, &rows, &chunk, &level, &shuffle);
    pascal_journal_boot_id(boot, sizeof boot);
    header_line(&buf, len, &cap, PASCAL_JOURNAL_MAGIC, "1");
    header_line(&buf, len, &cap, "file", base);
    snprintf(num, sizeof num, "%llu %llu", (unsigned long long)st->st_dev,
             (unsigned long long)st->st_ino);
    header_line(&buf, len, &cap, "inode", num);
    header_line(&buf, len, &cap, "boot", boot);
    snprintf(num, sizeof num, "%lld %d %d %d", (long long)chunk, level, shuffle,
             sink->npoint + sink->nresult);
    header_line(&buf, len, &cap, "layout", num);
    pascal_digest_bytes(meta->spec_text ? meta->spec_text : "",
                        strlen(meta->spec_text ? meta->spec_text : ""), hex);
    header_line(&buf, len, &cap, "spec", hex);
    header_line(&buf, len, &cap, "attr:pascal_version", PASCAL_VERSION_STRING);
    for (int i = 0; i < meta->nattrs; i++)
        if (pascal_journal_identity_key(meta->attrs[i].key)) {
            char key[128];
            snprintf(key, sizeof key, "attr:%s", meta->attrs[i].key);
            header_line(&buf, len, &cap, key, meta->attrs[i].value ? meta->attrs[i].value : "");
        }
    header_line(&buf, len, &cap, "end", "");
    return buf;
}

static int write_header(pascal_journal *j, const pascal_sink *sink,
                        const pascal_sink_meta *meta, pascal_error *err)
{
    struct stat st;
    size_t len;
    char *text;
    int rc;
    if (fstat(j->data_fd, &st) != 0)
        return fail(err, sink->tmp);
    if (!(text = make_header(sink, meta, &st, &len)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", j->path);
    rc = put(j, text, len, err);
    free(text);
    pascal_testpoint("journal-header");
    return rc;
}

int pascal_journal_record(const unsigned char *p, size_t len, size_t at, int ncols,
                          uint32_t *magic, uint64_t *row, size_t *size)
{
    uint32_t crc;
    if (at + PASCAL_JOURNAL_HEAD > len)
        return -1;
    memcpy(magic, p + at, 4);
    memcpy(&crc, p + at + 4, 4);
    memcpy(row, p + at + 8, 8);
    *size = *magic == PASCAL_JOURNAL_CHUNK    ? PASCAL_JOURNAL_HEAD + (size_t)ncols * PASCAL_JOURNAL_COL
            : *magic == PASCAL_JOURNAL_CLOSED ? PASCAL_JOURNAL_CLOSED_LEN
                                              : PASCAL_JOURNAL_HEAD;
    if ((*magic != PASCAL_JOURNAL_CHUNK && *magic != PASCAL_JOURNAL_SYNC &&
         *magic != PASCAL_JOURNAL_CLOSED) || at + *size > len ||
        crc != (uint32_t)crc32(0L, p + at + 8, (uInt)(*size - 8)))
        return -1;
    return 0;
}

/* "<dest>.partial.index" */
static char *index_name(const char *dest)
{
    return pascal_sink_suffixed(dest, ".partial.index");
}

/* The index bytes p[0, len), header parsed into h, describe the closed file
 * st: returns the number of chunk records, moved to the front of p, or -1. */
static int64_t index_chunks(const pascal_journal *j, const pascal_journal_header *h,
                            unsigned char *p, size_t len, const struct stat *st)
{
    size_t at = h->records, to = 0;
    int64_t n = 0;
    if (h->dev != (unsigned long long)st->st_dev || h->ino != (unsigned long long)st->st_ino ||
        h->chunk != j->chunk || h->ncols != j->ncols)
        return -1;
    for (;;) {
        uint32_t magic;
        uint64_t row;
        size_t size;
        if (pascal_journal_record(p, len, at, j->ncols, &magic, &row, &size) != 0)
            return -1;
        if (magic == PASCAL_JOURNAL_CLOSED) {
            uint64_t bytes;
            int64_t sec, nsec;
            memcpy(&bytes, p + at + 16, 8);
            memcpy(&sec, p + at + 24, 8);
            memcpy(&nsec, p + at + 32, 8);
            return at + size == len && row == (uint64_t)(n * j->chunk) &&
                           bytes == (uint64_t)st->st_size && sec == (int64_t)st->st_mtim.tv_sec &&
                           nsec == (int64_t)st->st_mtim.tv_nsec
                       ? n
                       : -1;
        }
        if (magic == PASCAL_JOURNAL_CHUNK) {
            if (row != (uint64_t)(n * j->chunk))
                return -1;
            memmove(p + to, p + at, size);
            to += size;
            n++;
        }
        at += size; /* no closed record: the reader fails at the end, -1 */
    }
}

/* Takes the records of "<dest>.partial.index" when it describes the file
 * being resumed, as it is now; otherwise none (each chunk is looked up). */
static void load_index(pascal_journal *j, const pascal_sink *sink)
{
    char *path = index_name(sink->dest);
    unsigned char *p = NULL;
    struct stat st, ist;
    pascal_journal_header h;
    int64_t rows, chunk, n = -1;
    int level, shuffle, fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    pascal_h5sink_layout(sink, &rows, &chunk, &level, &shuffle);
    /* an index is its header and one record a chunk: bounded by the file */
    if (fd >= 0 && fstat(fd, &ist) == 0 && S_ISREG(ist.st_mode) && fstat(j->data_fd, &st) == 0 &&
        ist.st_size < (off_t)1 << 40 && (p = malloc((size_t)ist.st_size + 1)) &&
        pread(fd, p, (size_t)ist.st_size, 0) == ist.st_size) {
        p[ist.st_size] = '\0';
        if (pascal_journal_parse_header((char *)p, (size_t)ist.st_size, &h) == 0)
            n = index_chunks(j, &h, p, (size_t)ist.st_size, &st);
    }
    if (n > rows / j->chunk)
        n = -1;
    /* HDF5 agrees on where each column's last indexed chunk lies */
    for (int c = 0; n > 0 && c < j->ncols; c++) {
        const unsigned char *at = p + (size_t)(n - 1) * j->rec_len + PASCAL_JOURNAL_HEAD +
                                  (size_t)c * PASCAL_JOURNAL_COL;
        unsigned mask = 0;
        uint64_t a = 0, sz = 0, ra, rs;
        uint32_t rm;
        memcpy(&ra, at, 8), memcpy(&rs, at + 8, 8), memcpy(&rm, at + 16, 4);
        if (pascal_h5sink_chunk_info(sink, c, (n - 1) * j->chunk, &mask, &a, &sz) != 0 ||
            a != ra || sz != rs || mask != rm)
            n = -1;
    }
    if (fd >= 0)
        close(fd);
    free(path);
    if (n > 0) {
        j->known = p, j->nknown = n;
    } else {
        free(p);
    }
}

int pascal_journal_seal(pascal_journal *j, const char *dest)
{
    unsigned char r[PASCAL_JOURNAL_CLOSED_LEN];
    uint32_t magic = PASCAL_JOURNAL_CLOSED, crc;
    uint64_t rows, bytes;
    int64_t sec, nsec;
    struct stat st;
    char *path = index_name(dest);
    int ok;
    if (!j || !j->placed || !path || fstat(j->data_fd, &st) != 0) {
        free(path);
        return -1;
    }
    rows = (uint64_t)j->recorded, bytes = (uint64_t)st.st_size;
    sec = (int64_t)st.st_mtim.tv_sec, nsec = (int64_t)st.st_mtim.tv_nsec;
    memcpy(r, &magic, 4);
    memcpy(r + 8, &rows, 8);
    memcpy(r + 16, &bytes, 8);
    memcpy(r + 24, &sec, 8);
    memcpy(r + 32, &nsec, 8);
    crc = (uint32_t)crc32(0L, r + 8, (uInt)(sizeof r - 8));
    memcpy(r + 4, &crc, 4);
    ok = write(j->fd, r, sizeof r) == (ssize_t)sizeof r && fdatasync(j->fd) == 0 &&
         rename(j->path, path) == 0;
    if (ok)
        j->placed = 0; /* it is the index now */
    pascal_testpoint("journal-sealed");
    free(path);
    return ok ? 0 : -1;
}

int pascal_journal_start(pascal_sink *sink, const pascal_sink_meta *meta, pascal_error *err)
{
    pascal_journal *j = calloc(1, sizeof *j);
    int64_t rows;
    int level, shuffle, rc;
    if (!j)
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", sink->dest);
    j->fd = j->data_fd = -1;
    sink->journal = j;
    j->ncols = sink->npoint + sink->nresult;
    j->stop_flag = meta->stop_flag;
    j->should_stop = meta->should_stop;
    j->stop_ctx = meta->stop_ctx;
    pascal_h5sink_layout(sink, &rows, &j->chunk, &level, &shuffle);
    j->rec_len = PASCAL_JOURNAL_HEAD + (size_t)j->ncols * PASCAL_JOURNAL_COL;
    if (!(j->path = malloc(strlen(sink->dest) + sizeof ".journal")) ||
        !(j->rec = calloc(1, j->rec_len)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", sink->dest);
    sprintf(j->path, "%s.journal", sink->dest);
    if ((j->data_fd = open(sink->tmp, O_RDONLY | O_CLOEXEC)) < 0)
        return fail(err, sink->tmp);
    if (rows > 0)
        load_index(j, sink);
    /* Written whole under a temporary name, then renamed into place: a kill
     * at any moment leaves no journal (the file is as the last run closed
     * it) or one that records every chunk already in the file.  A resumed
     * run opens its partial file for writing only after this. */
    if ((j->fd = pascal_tmpfile_create(j->path, &j->tmp, err)) < 0)
        return j->fd;
    if (fcntl(j->fd, F_SETFL, O_APPEND) != 0)
        return fail(err, j->path);
    if ((rc = write_header(j, sink, meta, err)))
        return rc;
    /* The chunks already there (a resumed file) are on disk: mark them so
     * at once, so that they count even after a reboot. */
    if ((rc = record_written(j, sink, err)) || (rc = sync_mark(j, err)))
        return rc;
    /* fdatasync'd by the mark; the rename and the folder survive a power cut */
    if ((rc = pascal_tmpfile_commit(j->tmp, j->path, err)))
        return rc;
    j->placed = 1;
    free(j->tmp);
    j->tmp = NULL;
    /* the journal holds every record now; the index of a stop, if any, is
     * spent (the file is about to change) */
    if (rows > 0) {
        char *index = index_name(sink->dest);
        if (index)
            unlink(index);
        free(index);
    }
    free(j->known);
    j->known = NULL;
    j->nknown = 0;
    return 0;
}

/* Appends the record of chunk k (rows k*chunk ...) of every column. */
static int record_chunk(pascal_journal *j, const pascal_sink *sink, int64_t k, pascal_error *err)
{
    unsigned char *r = j->rec;
    uint32_t magic = PASCAL_JOURNAL_CHUNK, crc;
    uint64_t row = (uint64_t)(k * j->chunk);
    hsize_t off[1] = {(hsize_t)row};
    memcpy(r, &magic, 4);
    memcpy(r + 8, &row, 8);
    for (int c = 0; c < j->ncols; c++) {
        unsigned char *at = r + PASCAL_JOURNAL_HEAD + (size_t)c * PASCAL_JOURNAL_COL;
        unsigned mask = 0;
        uint64_t a, s;
        uint32_t m, zero = 0;
        if (k < j->nknown) { /* from the index, as recorded */
            memcpy(r, j->known + (size_t)k * j->rec_len, j->rec_len);
            if (put(j, r, j->rec_len, err) != 0)
                return PASCAL_EIO;
            pascal_testpoint("journal-record");
            return 0;
        }
        if (pascal_h5sink_chunk_info(sink, c, (int64_t)off[0], &mask, &a, &s) != 0)
            return pascal_h5_fail(err, sink->dest, "locating a written chunk");
        m = (uint32_t)mask;
        memcpy(at, &a, 8), memcpy(at + 8, &s, 8), memcpy(at + 16, &m, 4), memcpy(at + 20, &zero, 4);
    }
    crc = (uint32_t)crc32(0L, r + 8, (uInt)(j->rec_len - 8));
    memcpy(r + 4, &crc, 4);
    if (put(j, r, j->rec_len, err) != 0)
        return PASCAL_EIO;
    pascal_testpoint("journal-record");
    return 0;
}

/* The file's bytes so far are on disk: say so in the journal, durably. */
static int sync_mark(pascal_journal *j, pascal_error *err)
{
    unsigned char r[PASCAL_JOURNAL_HEAD];
    uint32_t magic = PASCAL_JOURNAL_SYNC, crc;
    uint64_t rows = (uint64_t)j->recorded;
    if (fdatasync(j->data_fd) != 0)
        return fail(err, j->path);
    memcpy(r, &magic, 4);
    memcpy(r + 8, &rows, 8);
    crc = (uint32_t)crc32(0L, r + 8, 8);
    memcpy(r + 4, &crc, 4);
    if (put(j, r, sizeof r, err) != 0)
        return PASCAL_EIO;
    if (fdatasync(j->fd) != 0)
        return fail(err, j->path);
    j->last_sync = mono_seconds();
    return 0;
}

/* Records the whole chunks written since the last call. */
static int record_written(pascal_journal *j, pascal_sink *sink, pascal_error *err)
{
    int64_t rows, chunk;
    int level, shuffle, rc = 0;
    pascal_h5sink_layout(sink, &rows, &chunk, &level, &shuffle);
    rows -= rows % chunk; /* whole chunks only: finish writes a shorter last one */
    for (; rc == 0 && j->recorded < rows; j->recorded += chunk) {
        int64_t k = j->recorded / chunk;
        if (!j->placed && k >= j->nknown) {
            /* a resume without an index: each chunk is a walk of HDF5's
             * chunk index, a stop must not wait for them all */
            pascal_testpoint("journal-walk");
            if ((j->stop_flag && *j->stop_flag) ||
                (j->should_stop && j->should_stop(j->stop_ctx)))
                return pascal_error_set(err, PASCAL_EINTR, "stopped while finding where the "
                                        "%lld rows of %s lie; it is as it was: continue "
                                        "with --resume", (long long)rows, sink->tmp);
        }
        rc = record_chunk(j, sink, k, err);
    }
    return rc;
}

int pascal_journal_note(pascal_sink *sink, pascal_error *err)
{
    pascal_journal *j = sink->journal;
    int rc;
    if (!j)
        return 0;
    rc = record_written(j, sink, err);
    if (rc == 0 && mono_seconds() - j->last_sync >= SYNC_SECONDS)
        rc = sync_mark(j, err);
    return rc;
}

int pascal_journal_sync_due(const pascal_sink *sink)
{
    return sink->journal && mono_seconds() - sink->journal->last_sync >= SYNC_SECONDS;
}

int pascal_journal_note_synced(pascal_sink *sink, int synced, pascal_error *err)
{
    pascal_journal *j = sink->journal;
    int rc;
    if (!j)
        return 0;
    rc = record_written(j, sink, err);
    if (rc == 0 && synced)
        rc = sync_mark(j, err);
    return rc;
}

void pascal_journal_close(pascal_journal *j, int remove)
{
    if (!j)
        return;
    if (j->tmp) /* never whole: no journal at all */
        pascal_tmpfile_discard(j->tmp);
    if (remove && j->placed)
        unlink(j->path);
    if (j->fd >= 0)
        close(j->fd);
    if (j->data_fd >= 0)
        close(j->data_fd);
    free(j->path);
    free(j->tmp);
    free(j->rec);
    free(j->known);
    free(j);
}

/* ---- reading a journal's header (h5_recover.c, and the index below) ---- */

int pascal_journal_parse_header(char *text, size_t len, pascal_journal_header *h)
{
    char *line = text, *end = text + len, *nl;
    int have = 0;
    memset(h, 0, sizeof *h);
    while (line < end && (nl = memchr(line, '\n', (size_t)(end - line)))) {
        char *value = strchr(line, ' ');
        *nl = '\0';
        if (!value || value > nl)
            return -1;
        *value++ = '\0';
        if (strcmp(line, PASCAL_JOURNAL_MAGIC) == 0)
            have |= strcmp(value, "1") == 0;
        else if (strcmp(line, "file") == 0 && !strchr(value, '/'))
            have |= 2 * (snprintf(h->file, sizeof h->file, "%s", value) < (int)sizeof h->file);
        else if (strcmp(line, "inode") == 0)
            have |= 4 * (sscanf(value, "%llu %llu", &h->dev, &h->ino) == 2);
        else if (strcmp(line, "boot") == 0)
            snprintf(h->boot, sizeof h->boot, "%s", value);
        else if (strcmp(line, "layout") == 0)
            have |= 8 * (sscanf(value, "%lld %d %d %d", &h->chunk, &h->level, &h->shuffle,
                                &h->ncols) == 4 && h->chunk > 0 && h->ncols > 0);
        else if (strcmp(line, "spec") == 0)
            snprintf(h->spec, sizeof h->spec, "%s", value);
        else if (strncmp(line, "attr:", 5) == 0 && h->nattrs < PASCAL_JOURNAL_MAX_ATTRS)
            h->attrs[h->nattrs++] = (pascal_attr){line + 5, value};
        else if (strcmp(line, "end") == 0) {
            h->records = (size_t)(nl + 1 - text);
            return have == 15 ? 0 : -1;
        }
        line = nl + 1;
    }
    return -1;
}
