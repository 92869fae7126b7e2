/* Reading a sweep file for the report: root attributes, the swept axes
 * (/axes, enum labels included), the names, units and descriptions of the
 * point and result columns, and the columns themselves in blocks of rows.
 * Everything the page needs is checked here, so a file that is not a
 * finished pascal sweep is rejected before any output exists. */
#include "report/report_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/h5_file.h"

static int h5_fail(pascal_error *err, const char *path, const char *what)
{
    return pascal_error_set(err, PASCAL_EIO, "%s: %s failed", path, what);
}

/* Attribute key of object name as text into buf ("" when absent). */
static void attr_copy(pascal_h5_file *h, const char *name, const char *key, char *buf, size_t len)
{
    char *s = pascal_h5_file_attr_text(h, name, key);
    snprintf(buf, len, "%s", s ? s : "");
    free(s);
}

/* pascal_h5_file_attrs callback: appends one root attribute (name and text). */
static int add_attr(void *data, const char *name, const char *text)
{
    rp_file *f = data;
    rp_attr *grown = realloc(f->attrs, (size_t)(f->nattrs + 1) * sizeof *f->attrs);
    if (!grown)
        return -1;
    f->attrs = grown;
    grown[f->nattrs].key = strdup(name);
    grown[f->nattrs].value = strdup(text ? text : "(not text)");
    f->nattrs++;
    return grown[f->nattrs - 1].key && grown[f->nattrs - 1].value ? 0 : -1;
}

static int read_root_attrs(pascal_h5_file *h, rp_file *f, pascal_error *err)
{
    if (pascal_h5_file_attrs(h, "/", add_attr, f) != 0)
        return h5_fail(err, f->path, "reading root attributes");
    return 0;
}

/* Lists the datasets of /points or /results with their attributes, checking
 * that each has one value per row. */
static int read_columns(pascal_h5_file *h, rp_file *f, const char *group, rp_column *cols, int *n,
                        pascal_error *err)
{
    int64_t nlinks;
    int rc = 0;
    if (pascal_h5_file_kind(h, group) == PASCAL_H5_NONE)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: /%s: expected a group of columns, got none",
                                f->path, group);
    if (pascal_h5_file_kind(h, group) != PASCAL_H5_GROUP ||
        (nlinks = pascal_h5_file_nlinks(h, group)) < 0)
        return h5_fail(err, f->path, "opening a column group");
    for (int64_t i = 0; rc == 0 && i < nlinks; i++) {
        rp_column *c = &cols[*n];
        char link[2 * RP_NAME + 8];
        int64_t len;
        if (*n >= RP_MAX_COLUMNS)
            return pascal_error_set(err, PASCAL_EINPUT, "%s: /%s: expected at most %d columns",
                                    f->path, group, RP_MAX_COLUMNS);
        if (pascal_h5_file_link(h, group, i, c->name, sizeof c->name) != 0)
            return pascal_error_set(err, PASCAL_EINPUT, "%s: /%s: a column name is too long",
                                    f->path, group);
        snprintf(link, sizeof link, "%s/%s", group, c->name);
        if (pascal_h5_file_kind(h, link) != PASCAL_H5_DATASET)
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: /%s/%s: expected a dataset",
                                  f->path, group, c->name);
        else {
            len = pascal_h5_file_length(h, link);
            attr_copy(h, link, "units", c->units, sizeof c->units);
            attr_copy(h, link, "description", c->description, sizeof c->description);
            if (len != f->rows)
                rc = pascal_error_set(err, PASCAL_EINPUT,
                                      "%s: /%s/%s: expected a numeric column of %lld rows, got "
                                      "%lld", f->path, group, c->name, (long long)f->rows,
                                      (long long)len);
            (*n)++;
        }
    }
    return rc;
}

/* /axes/<name>: values (and enum labels) of a dataset axis. */
static int read_axis_dataset(pascal_h5_file *h, rp_file *f, rp_axis *a, pascal_error *err)
{
    char link[RP_NAME + 8];
    int r;
    snprintf(link, sizeof link, "axes/%s", a->name);
    if (pascal_h5_file_kind(h, link) != PASCAL_H5_DATASET)
        return h5_fail(err, f->path, "opening an axis");
    a->count = pascal_h5_file_length(h, link);
    attr_copy(h, link, "units", a->units, sizeof a->units);
    if (a->count < 1)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: /axes/%s: expected a list of values",
                                f->path, a->name);
    if (!(a->values = malloc((size_t)a->count * sizeof *a->values)) ||
        !(a->labels = calloc((size_t)a->count, sizeof(char *))))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", f->path);
    if (pascal_h5_file_read(h, link, a->values) != 0)
        return h5_fail(err, f->path, "reading an axis");
    r = pascal_h5_file_enum_labels(h, link, a->values, a->count, a->labels);
    if (r == 1) { /* not an enum: no labels */
        free(a->labels);
        a->labels = NULL;
    } else if (r != 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: /axes/%s: expected enum labels",
                                f->path, a->name);
    return 0;
}

/* /axes/phases as a group: swept list indices are its attribute `values`;
 * without it the lists are fixed and there is no axis.  Returns 1 when it is
 * an axis. */
static int read_phase_axis(pascal_h5_file *h, rp_file *f, rp_axis *a, pascal_error *err)
{
    char link[RP_NAME + 8];
    snprintf(link, sizeof link, "axes/%s", a->name);
    a->count = pascal_h5_file_attr_count(h, link, "values");
    if (a->count < 0) { /* absent, or present but not numbers */
        char *text = pascal_h5_file_attr_text(h, link, "values");
        int present = text != NULL;
        free(text);
        if (!present)
            return 0;
    }
    if (a->count < 1 || !(a->values = malloc((size_t)a->count * sizeof *a->values)) ||
        pascal_h5_file_attr_doubles(h, link, "values", a->values) != 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: /axes/phases@values: expected list indices",
                                f->path);
    if ((a->labels = calloc((size_t)a->count, sizeof(char *))))
        for (int64_t k = 0; k < a->count; k++) {
            char buf[40];
            snprintf(buf, sizeof buf, "list %.0f", a->values[k]);
            a->labels[k] = strdup(buf);
        }
    snprintf(a->units, sizeof a->units, "list");
    return 1;
}

static int read_axes(pascal_h5_file *h, rp_file *f, pascal_error *err)
{
    int64_t nlinks;
    int rc = 0;
    if (pascal_h5_file_kind(h, "axes") == PASCAL_H5_NONE)
        return 0; /* a single point: no axes */
    if ((nlinks = pascal_h5_file_nlinks(h, "axes")) < 0)
        return h5_fail(err, f->path, "opening /axes");
    for (int64_t i = 0; rc == 0 && i < nlinks; i++) {
        rp_axis *a = &f->axes[f->naxes];
        char link[RP_NAME + 8];
        int r;
        if (f->naxes >= RP_MAX_AXES) {
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: /axes: expected at most %d axes",
                                  f->path, RP_MAX_AXES);
            break;
        }
        if (pascal_h5_file_link(h, "axes", i, a->name, sizeof a->name) != 0) {
            rc = h5_fail(err, f->path, "listing /axes");
            break;
        }
        snprintf(link, sizeof link, "axes/%s", a->name);
        r = pascal_h5_file_kind(h, link) == PASCAL_H5_GROUP
                ? read_phase_axis(h, f, a, err)
                : read_axis_dataset(h, f, a, err) == 0 ? 1 : -1;
        if (r < 0)
            rc = err->code ? err->code : PASCAL_EIO;
        else if (r == 1) {
            f->naxes++;
            rc = pascal_report_index_axis(f, a, err);
        }
    }
    return rc;
}

/* The file must say it is a finished pascal sweep. */
static int check_format(rp_file *f, pascal_error *err)
{
    const char *fmt = pascal_report_attr(f, "format");
    const char *complete = pascal_report_attr(f, "complete");
    const char *points = pascal_report_attr(f, "points");
    if (!fmt || strcmp(fmt, "pascal-sweep") != 0)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s: /@format: expected \"pascal-sweep\" (a file written by "
                                "pascal run), got %s%s%s", f->path, fmt ? "\"" : "",
                                fmt ? fmt : "none", fmt ? "\"" : "");
    if (complete && strcmp(complete, "1") != 0)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s: /@complete: expected 1 (a finished run), got %s", f->path,
                                complete);
    f->rows = points ? strtoll(points, NULL, 10) : -1;
    if (f->rows < 1)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: /@points: expected at least one point, "
                                "got %s", f->path, points ? points : "none");
    return 0;
}

/* Every axis must have its point column. */
static int check_axes(rp_file *f, pascal_error *err)
{
    for (int i = 0; i < f->naxes; i++)
        if (pascal_report_find_point(f, f->axes[i].name) < 0)
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "%s: /points/%s: expected a column for axis %s, got none",
                                    f->path, f->axes[i].name, f->axes[i].name);
    if (f->nresults == 0)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s: /results: expected at least one result column, got none",
                                f->path);
    return 0;
}

int pascal_report_scan(const char *path, rp_file *f, pascal_error *err)
{
    struct stat st;
    pascal_h5_file *h;
    int rc;
    memset(f, 0, sizeof *f);
    f->path = path;
    if (!path || stat(path, &st) != 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: cannot open: %s", path ? path : "(none)",
                                path ? strerror(errno) : "no file given");
    if (!pascal_h5_is_hdf5(path)) { /* the CSV of pascal run --format csv, or bad input */
        if ((rc = pascal_report_scan_csv(path, f, err)) == 0)
            rc = check_axes(f, err);
        return rc;
    }
    if ((rc = pascal_h5_file_open(path, &h, err)) != 0)
        return rc;
    rc = read_root_attrs(h, f, err);
    if (rc == 0)
        rc = check_format(f, err);
    if (rc == 0)
        rc = read_columns(h, f, "points", f->points, &f->npoints, err);
    if (rc == 0)
        rc = read_columns(h, f, "results", f->results, &f->nresults, err);
    if (rc == 0)
        rc = read_axes(h, f, err);
    if (rc == 0)
        rc = check_axes(f, err);
    pascal_h5_file_close(h);
    return rc;
}

void pascal_report_scan_free(rp_file *f)
{
    for (int i = 0; i < f->nattrs; i++) {
        free(f->attrs[i].key);
        free(f->attrs[i].value);
    }
    free(f->attrs);
    for (int i = 0; i < RP_MAX_AXES; i++) { /* a failed scan may leave a partial axis */
        rp_axis *a = &f->axes[i];
        if (a->labels)
            for (int64_t k = 0; k < a->count; k++)
                free(a->labels[k]);
        free(a->labels);
        free(a->values);
        free(a->sorted);
        free(a->order);
        free(a->keep_of);
        free(a->kept);
    }
    memset(f, 0, sizeof *f);
}

const char *pascal_report_attr(const rp_file *f, const char *key)
{
    for (int i = 0; i < f->nattrs; i++)
        if (strcmp(f->attrs[i].key, key) == 0)
            return f->attrs[i].value;
    return NULL;
}

int pascal_report_find_axis(const rp_file *f, const char *name)
{
    for (int i = 0; i < f->naxes; i++)
        if (strcmp(f->axes[i].name, name) == 0)
            return i;
    return -1;
}

int pascal_report_find_point(const rp_file *f, const char *name)
{
    for (int i = 0; i < f->npoints; i++)
        if (strcmp(f->points[i].name, name) == 0)
            return i;
    return -1;
}

int pascal_report_find_result(const rp_file *f, const char *name)
{
    for (int i = 0; i < f->nresults; i++)
        if (strcmp(f->results[i].name, name) == 0)
            return i;
    return -1;
}

/* The rows of an HDF5 sweep (output/h5_file.h) or of a CSV one (scan_csv.c). */
struct rp_reader {
    pascal_h5_columns *h5;
    rp_csv_rows *csv;
};

int pascal_report_reader_open(const rp_file *f, const rp_source *src, int n,
                              rp_reader **out, pascal_error *err)
{
    rp_reader *r = calloc(1, sizeof *r);
    char (*links)[2 * RP_NAME + 8] = malloc((size_t)(n > 0 ? n : 1) * sizeof *links);
    const char **names = malloc((size_t)(n > 0 ? n : 1) * sizeof *names);
    int rc;
    if (!r || !links || !names) {
        free(r);
        free(links);
        free(names);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", f->path);
    }
    for (int i = 0; i < n; i++) {
        snprintf(links[i], sizeof links[i], "%s/%s", src[i].group, src[i].name);
        names[i] = links[i];
    }
    rc = f->csv ? pascal_report_csv_rows_open(f, src, n, &r->csv, err)
                : pascal_h5_columns_open(f->path, names, n, &r->h5, err);
    free(links);
    free(names);
    if (rc)
        free(r);
    else
        *out = r;
    return rc;
}

int pascal_report_reader_read(rp_reader *r, int64_t start, int64_t count,
                              double *const *bufs, pascal_error *err)
{
    if (r->csv)
        return pascal_report_csv_rows_read(r->csv, start, count, bufs, err);
    return pascal_h5_columns_read(r->h5, start, count, bufs, err);
}

void pascal_report_reader_close(rp_reader *r)
{
    if (!r)
        return;
    pascal_report_csv_rows_close(r->csv);
    pascal_h5_columns_close(r->h5);
    free(r);
}
