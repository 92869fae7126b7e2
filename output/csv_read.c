/* A streaming CSV reader (output/csv_read.h).
 *
 * The run's CSV may hold ten million rows, so the file is read a line at a
 * time with getline and split in place: unquoted fields are pointers into
 * the line, quoted ones are unescaped over themselves (an unescaped field
 * is never longer than its quoted text). */
#include "output/csv_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pascal_csv_reader {
    FILE *fp;
    char *path;
    char *line;          /* the current line, split in place */
    size_t cap;
    int64_t lineno;
    long data_at;        /* file offset of the first row */
    int64_t data_line;   /* lines before it */
    int ncols;
    char **names;        /* header fields (copies) */
    const char **fields; /* scratch for splitting */
    int fcap;
};

/* Reads the next line that is not blank or a comment; 0 at end of file. */
static int next_line(pascal_csv_reader *r, size_t *len, pascal_error *err)
{
    ssize_t n;
    while ((n = getline(&r->line, &r->cap, r->fp)) >= 0) {
        r->lineno++;
        while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
            r->line[--n] = '\0';
        if (n > 0 && r->line[0] != '#') {
            *len = (size_t)n;
            return 1;
        }
    }
    if (ferror(r->fp))
        return pascal_error_set(err, PASCAL_EIO, "cannot read %s: %s", r->path, strerror(errno));
    return 0;
}

/* Splits the current line into r->fields; returns the field count or a
 * negative status. */
static int split(pascal_csv_reader *r, size_t len, pascal_error *err)
{
    char *p = r->line, *end = r->line + len;
    int n = 0;
    for (;;) {
        char *out = p;
        if (n == r->fcap) {
            int cap = r->fcap ? 2 * r->fcap : 16;
            const char **grown = realloc(r->fields, (size_t)cap * sizeof *grown);
            if (!grown)
                return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", r->path);
            r->fields = grown, r->fcap = cap;
        }
        r->fields[n++] = out;
        if (p < end && *p == '"') {
            for (p++;; p++) {
                if (p >= end)
                    return pascal_error_set(err, PASCAL_EINPUT, "%s:%lld: expected a closing "
                                            "quote, got the end of the line", r->path,
                                            (long long)r->lineno);
                if (*p == '"' && p + 1 < end && p[1] == '"')
                    *out++ = *p++;
                else if (*p == '"')
                    break;
                else
                    *out++ = *p;
            }
            p++;
            if (p < end && *p != ',')
                return pascal_error_set(err, PASCAL_EINPUT, "%s:%lld: expected a comma after a "
                                        "quoted field, got '%c'", r->path, (long long)r->lineno,
                                        *p);
        } else {
            while (p < end && *p != ',')
                *out++ = *p++;
        }
        if (p >= end) {
            *out = '\0';
            return n;
        }
        *out = '\0';   /* overwrites the comma or lies before it */
        p++;
    }
}

int pascal_csv_open(const char *path, pascal_csv_reader **out, pascal_error *err)
{
    pascal_csv_reader *r = calloc(1, sizeof *r);
    size_t len = 0;
    int rc, n;
    *out = NULL;
    if (!r || !(r->path = strdup(path))) {
        free(r);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    }
    if (!(r->fp = fopen(path, "rb"))) {
        rc = pascal_error_set(err, PASCAL_EIO, "cannot open %s: %s", path, strerror(errno));
        pascal_csv_close(r);
        return rc;
    }
    if ((rc = next_line(r, &len, err)) <= 0) {
        if (rc == 0)
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: expected a header line of column "
                                  "names, got an empty file", path);
        pascal_csv_close(r);
        return rc;
    }
    if ((n = split(r, len, err)) < 0 || !(r->names = calloc((size_t)n, sizeof *r->names))) {
        rc = n < 0 ? n : pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
        pascal_csv_close(r);
        return rc;
    }
    r->ncols = n;
    for (int j = 0; j < n; j++)
        if (!(r->names[j] = strdup(r->fields[j]))) {
            pascal_csv_close(r);
            return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
        }
    r->data_at = ftell(r->fp);
    r->data_line = r->lineno;
    *out = r;
    return 0;
}

int pascal_csv_ncols(const pascal_csv_reader *r)
{
    return r->ncols;
}

const char *pascal_csv_name(const pascal_csv_reader *r, int col)
{
    return col >= 0 && col < r->ncols ? r->names[col] : NULL;
}

int64_t pascal_csv_line(const pascal_csv_reader *r)
{
    return r->lineno;
}

int pascal_csv_next(pascal_csv_reader *r, const char **fields, pascal_error *err)
{
    size_t len = 0;
    int rc = next_line(r, &len, err), n;
    if (rc <= 0)
        return rc;
    if ((n = split(r, len, err)) < 0)
        return n;
    if (n != r->ncols)
        return pascal_error_set(err, PASCAL_EINPUT, "%s:%lld: expected %d fields as in the "
                                "header, got %d", r->path, (long long)r->lineno, r->ncols, n);
    memcpy(fields, r->fields, (size_t)n * sizeof *fields);
    return 1;
}

int pascal_csv_rewind(pascal_csv_reader *r, pascal_error *err)
{
    if (fseek(r->fp, r->data_at, SEEK_SET) != 0)
        return pascal_error_set(err, PASCAL_EIO, "cannot read %s again: %s", r->path,
                                strerror(errno));
    r->lineno = r->data_line;
    return 0;
}

void pascal_csv_close(pascal_csv_reader *r)
{
    if (!r)
        return;
    if (r->fp)
        fclose(r->fp);
    for (int j = 0; r->names && j < r->ncols; j++)
        free(r->names[j]);
    free(r->names);
    free(r->fields);
    free(r->line);
    free(r->path);
    free(r);
}
