/* The CSV writer behind pascal_sink.
 *
 * One header line (point column names, then result column names), then one
 * line per row: integers as integers, doubles as "%.17g" so that strtod gives
 * back the same bits, NaN (null) as an empty field, enum codes as their
 * labels.  Fields containing a comma, quote or line break are quoted as in
 * RFC 4180.  Rows are formatted into a 1 MiB buffer written with one fwrite
 * per block, and doubles go through pascal_fmt_g17 (output/fmt.h) because
 * printf would dominate the run time of a large sweep. */
#include "output/sink_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/fmt.h"

#define CSV_BUF_BYTES (1u << 20)
#define NUMBER_MAX PASCAL_FMT_G17_MAX /* also covers any int64 */

typedef struct csvcol {
    pascal_coltype type;
    int nlabels;
    char **labels;  /* ENUM: labels, already quoted when needed */
    size_t *lens;
} csvcol;

struct pascal_csvsink {
    FILE *fp;
    int own;           /* fp is ours to close (not stdout) */
    const char *path;  /* for messages */
    char *buf;
    size_t len;
    size_t row_max;    /* longest possible row, with separators */
    int ncols;         /* point columns, then result columns */
    csvcol *cols;
};

/* A malloc'd copy of s, quoted if it holds a comma, quote or line break. */
static char *csv_field(const char *s)
{
    size_t n = strlen(s), extra = 0;
    char *out, *p;
    if (!strpbrk(s, ",\"\r\n"))
        return strdup(s);
    for (const char *c = s; *c; c++)
        extra += *c == '"';
    if (!(out = p = malloc(n + extra + 3)))
        return NULL;
    *p++ = '"';
    for (const char *c = s; *c; c++) {
        if (*c == '"')
            *p++ = '"';
        *p++ = *c;
    }
    *p++ = '"';
    *p = '\0';
    return out;
}

static int write_block(pascal_csvsink *csv, pascal_error *err)
{
    if (csv->len && fwrite(csv->buf, 1, csv->len, csv->fp) != csv->len)
        return pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", csv->path,
                                strerror(errno));
    csv->len = 0;
    return 0;
}

/* Appends text to the buffer, writing it out first when it is full. */
static int put_text(pascal_csvsink *csv, const char *s, size_t n, pascal_error *err)
{
    while (n > 0) {
        size_t room = CSV_BUF_BYTES - csv->len, k = n < room ? n : room;
        int rc;
        memcpy(csv->buf + csv->len, s, k);
        csv->len += k;
        s += k;
        n -= k;
        if (n > 0 && (rc = write_block(csv, err)))
            return rc;
    }
    return 0;
}

static int copy_labels(csvcol *col, const pascal_column_desc *c, size_t *widest)
{
    col->nlabels = c->nlabels;
    if (!(col->labels = calloc((size_t)c->nlabels, sizeof *col->labels)) ||
        !(col->lens = calloc((size_t)c->nlabels, sizeof *col->lens)))
        return PASCAL_ENOMEM;
    for (int i = 0; i < c->nlabels; i++) {
        if (!(col->labels[i] = csv_field(c->labels[i])))
            return PASCAL_ENOMEM;
        col->lens[i] = strlen(col->labels[i]);
        if (col->lens[i] > *widest)
            *widest = col->lens[i];
    }
    return 0;
}

/* Copies the column types and labels and writes the header line. */
static int setup_columns(pascal_csvsink *csv, const pascal_column_desc *cols, int n,
                         csvcol *out, pascal_error *err)
{
    for (int i = 0; i < n; i++) {
        size_t widest = NUMBER_MAX;
        char *name;
        int rc;
        out[i].type = cols[i].type;
        if (cols[i].type == PASCAL_COLTYPE_ENUM && copy_labels(&out[i], &cols[i], &widest))
            return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", csv->path);
        csv->row_max += widest + 1;
        if (!(name = csv_field(cols[i].name)))
            return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", csv->path);
        rc = put_text(csv, name, strlen(name), err);
        free(name);
        if (rc == 0 && csv->len + 1 > CSV_BUF_BYTES)
            rc = write_block(csv, err);
        if (rc)
            return rc;
        csv->buf[csv->len++] = ',';
    }
    return 0;
}

int pascal_csvsink_open(pascal_sink *sink, FILE *fp, const pascal_column_desc *point_cols,
                        const pascal_column_desc *result_cols, pascal_error *err)
{
    pascal_csvsink *csv = calloc(1, sizeof *csv);
    int n = sink->npoint + sink->nresult, rc;
    if (!csv) {
        if (fp != stdout)
            fclose(fp);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", sink->tmp);
    }
    sink->csv = csv;
    csv->fp = fp;
    csv->own = fp != stdout;
    csv->path = sink->tmp ? sink->dest : "stdout"; /* messages name the destination */
    csv->ncols = n;
    csv->row_max = 1;
    if (!(csv->buf = malloc(CSV_BUF_BYTES)) ||
        !(csv->cols = calloc((size_t)(n > 0 ? n : 1), sizeof *csv->cols)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", csv->path);
    if ((rc = setup_columns(csv, point_cols, sink->npoint, csv->cols, err)) ||
        (rc = setup_columns(csv, result_cols, sink->nresult, csv->cols + sink->npoint, err)))
        return rc;
    if (n > 0)
        csv->len--; /* the last comma */
    if (csv->row_max > CSV_BUF_BYTES)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: rows of up to %zu bytes are too long",
                                csv->path, csv->row_max);
    return put_text(csv, "\n", 1, err);
}

static size_t put_i64(int64_t v, char *out)
{
    char tmp[24];
    uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
    size_t n = 0, len;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[n++] = '-';
    len = n;
    while (n)
        *out++ = tmp[--n];
    return len;
}

/* Formats one field at p; returns its length, or -1 for a bad enum code. */
static long put_field(const csvcol *col, const void *src, int64_t row, char *p)
{
    if (col->type == PASCAL_COLTYPE_F64) {
        double v = ((const double *)src)[row];
        return isnan(v) ? 0 : pascal_fmt_g17(v, p);
    }
    int64_t v = ((const int64_t *)src)[row];
    if (col->type == PASCAL_COLTYPE_I64)
        return (long)put_i64(v, p);
    if (v < 0 || v >= col->nlabels)
        return -1;
    memcpy(p, col->labels[v], col->lens[v]);
    return (long)col->lens[v];
}

int pascal_csvsink_append(pascal_sink *sink, int64_t nrows, const void *const *points,
                          const double *const *results, pascal_error *err)
{
    pascal_csvsink *csv = sink->csv;
    for (int64_t i = 0; i < nrows; i++) {
        int rc;
        if (CSV_BUF_BYTES - csv->len < csv->row_max && (rc = write_block(csv, err)))
            return rc;
        for (int j = 0; j < csv->ncols; j++) {
            const void *src = j < sink->npoint ? points[j] : (const void *)results[j - sink->npoint];
            long n = put_field(&csv->cols[j], src, i, csv->buf + csv->len);
            if (n < 0)
                return pascal_error_set(err, PASCAL_EINTERNAL,
                                        "%s: point column %d: row %lld: code %lld is not in 0..%d",
                                        csv->path, j, (long long)(sink->rows + i),
                                        (long long)((const int64_t *)src)[i],
                                        csv->cols[j].nlabels - 1);
            csv->len += (size_t)n;
            csv->buf[csv->len++] = ',';
        }
        if (csv->ncols > 0)
            csv->len--;
        csv->buf[csv->len++] = '\n';
    }
    return 0;
}

int pascal_csvsink_finish(pascal_sink *sink, pascal_error *err)
{
    pascal_csvsink *csv = sink->csv;
    int rc = write_block(csv, err);
    if (rc == 0 && (fflush(csv->fp) != 0 || ferror(csv->fp)))
        rc = pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", csv->path, strerror(errno));
    if (csv->own) {
        if (fclose(csv->fp) != 0 && rc == 0)
            rc = pascal_error_set(err, PASCAL_EIO, "cannot close %s: %s", csv->path,
                                  strerror(errno));
        csv->fp = NULL;
    }
    pascal_csvsink_free(csv);
    sink->csv = NULL;
    return rc;
}

void pascal_csvsink_free(pascal_csvsink *csv)
{
    if (!csv)
        return;
    if (csv->own && csv->fp)
        fclose(csv->fp);
    for (int j = 0; csv->cols && j < csv->ncols; j++) {
        for (int i = 0; csv->cols[j].labels && i < csv->cols[j].nlabels; i++)
            free(csv->cols[j].labels[i]);
        free(csv->cols[j].labels);
        free(csv->cols[j].lens);
    }
    free(csv->cols);
    free(csv->buf);
    free(csv);
}
