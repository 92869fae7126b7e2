/* Reading a sweep file for the report: root attributes, the swept axes
 * (/axes, enum labels included), the names, units and descriptions of the
 * point and result columns, and the columns themselves in blocks of rows.
 * Everything the page needs is checked here, so a file that is not a
 * finished pascal sweep is rejected before any output exists. */
#include "report/report_internal.h"

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int h5_fail(pascal_error *err, const char *path, const char *what)
{
    H5Eclear2(H5E_DEFAULT);
    return pascal_error_set(err, PASCAL_EIO, "%s: %s failed", path, what);
}

/* A scalar string or number attribute of obj as malloc'd text; NULL when
 * absent or of another kind. */
static char *attr_text(hid_t obj, const char *key)
{
    hid_t a, t, m;
    H5T_class_t cls;
    char *out = NULL;
    if (H5Aexists(obj, key) <= 0 || (a = H5Aopen(obj, key, H5P_DEFAULT)) < 0)
        return NULL;
    t = H5Aget_type(a);
    cls = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    if (cls == H5T_STRING && H5Tis_variable_str(t) > 0) {
        char *vs = NULL;
        m = H5Tcopy(H5T_C_S1);
        H5Tset_size(m, H5T_VARIABLE);
        H5Tset_cset(m, H5Tget_cset(t)); /* ASCII <-> UTF-8 does not convert */
        if (H5Aread(a, m, &vs) >= 0)
            out = strdup(vs ? vs : "");
        if (vs)
            H5free_memory(vs);
        H5Tclose(m);
    } else if (cls == H5T_STRING) {
        size_t n = H5Tget_size(t);
        if ((out = calloc(n + 1, 1)) && H5Aread(a, t, out) < 0) {
            free(out);
            out = NULL;
        }
    } else if (cls == H5T_INTEGER || cls == H5T_FLOAT) {
        double d;
        char buf[64];
        if (H5Aread(a, H5T_NATIVE_DOUBLE, &d) >= 0) {
            snprintf(buf, sizeof buf, "%.17g", d);
            out = strdup(buf);
        }
    }
    if (t >= 0)
        H5Tclose(t);
    H5Aclose(a);
    H5Eclear2(H5E_DEFAULT);
    return out;
}

static void attr_copy(hid_t obj, const char *key, char *buf, size_t len)
{
    char *s = attr_text(obj, key);
    snprintf(buf, len, "%s", s ? s : "");
    free(s);
}

/* H5Aiterate2 callback: appends one root attribute (name and text). */
static herr_t add_attr(hid_t obj, const char *name, const H5A_info_t *info, void *data)
{
    rp_file *f = data;
    rp_attr *grown = realloc(f->attrs, (size_t)(f->nattrs + 1) * sizeof *f->attrs);
    (void)info;
    if (!grown)
        return -1;
    f->attrs = grown;
    grown[f->nattrs].key = strdup(name);
    grown[f->nattrs].value = attr_text(obj, name);
    if (!grown[f->nattrs].value)
        grown[f->nattrs].value = strdup("(not text)");
    f->nattrs++;
    return grown[f->nattrs - 1].key && grown[f->nattrs - 1].value ? 0 : -1;
}

static int read_root_attrs(hid_t file, rp_file *f, pascal_error *err)
{
    hsize_t idx = 0;
    if (H5Aiterate2(file, H5_INDEX_NAME, H5_ITER_INC, &idx, add_attr, f) < 0)
        return h5_fail(err, f->path, "reading root attributes");
    return 0;
}

/* Name of link i of group (name order). */
static int link_name(hid_t g, hsize_t i, char *buf, size_t len)
{
    ssize_t n = H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, buf, len, H5P_DEFAULT);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Length of a 1-D numeric dataset, or -1 (not 1-D, not numeric). */
static int64_t dataset_length(hid_t d)
{
    hid_t s = H5Dget_space(d), t = H5Dget_type(d);
    H5T_class_t cls = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    hsize_t dims[1] = {0};
    int64_t n = -1;
    if (s >= 0 && H5Sget_simple_extent_ndims(s) == 1 &&
        (cls == H5T_FLOAT || cls == H5T_INTEGER || cls == H5T_ENUM) &&
        H5Sget_simple_extent_dims(s, dims, NULL) >= 0)
        n = (int64_t)dims[0];
    if (s >= 0)
        H5Sclose(s);
    if (t >= 0)
        H5Tclose(t);
    return n;
}

/* Lists the datasets of /points or /results with their attributes, checking
 * that each has one value per row. */
static int read_columns(hid_t file, rp_file *f, const char *group, rp_column *cols, int *n,
                        pascal_error *err)
{
    H5G_info_t gi;
    hid_t g;
    int rc = 0;
    if (H5Lexists(file, group, H5P_DEFAULT) <= 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: /%s: expected a group of columns, got none",
                                f->path, group);
    if ((g = H5Gopen2(file, group, H5P_DEFAULT)) < 0 || H5Gget_info(g, &gi) < 0)
        return h5_fail(err, f->path, "opening a column group");
    for (hsize_t i = 0; rc == 0 && i < gi.nlinks; i++) {
        rp_column *c = &cols[*n];
        hid_t d;
        int64_t len;
        if (*n >= RP_MAX_COLUMNS)
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: /%s: expected at most %d columns",
                                  f->path, group, RP_MAX_COLUMNS);
        else if (link_name(g, i, c->name, sizeof c->name) != 0)
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: /%s: a column name is too long",
                                  f->path, group);
        else if ((d = H5Dopen2(g, c->name, H5P_DEFAULT)) < 0)
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: /%s/%s: expected a dataset",
                                  f->path, group, c->name);
        else {
            len = dataset_length(d);
            attr_copy(d, "units", c->units, sizeof c->units);
            attr_copy(d, "description", c->description, sizeof c->description);
            H5Dclose(d);
            if (len != f->rows)
                rc = pascal_error_set(err, PASCAL_EINPUT,
                                      "%s: /%s/%s: expected a numeric column of %lld rows, got "
                                      "%lld", f->path, group, c->name, (long long)f->rows,
                                      (long long)len);
            (*n)++;
        }
    }
    H5Gclose(g);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}

/* Enum labels of the listed values (codes already read as doubles). */
static int enum_labels(hid_t t, rp_axis *a)
{
    int nm = H5Tget_nmembers(t);
    hid_t super = H5Tget_super(t);
    size_t size = H5Tget_size(t);
    if (nm < 0 || super < 0 || size > 16 || !(a->labels = calloc((size_t)a->count, sizeof(char *))))
        return -1;
    for (int i = 0; i < nm; i++) {
        unsigned char raw[16] = {0};
        long long code = 0;
        char *name = H5Tget_member_name(t, (unsigned)i);
        if (!name || H5Tget_member_value(t, (unsigned)i, raw) < 0 ||
            H5Tconvert(super, H5T_NATIVE_LLONG, 1, raw, NULL, H5P_DEFAULT) < 0) {
            if (name)
                H5free_memory(name);
            return -1;
        }
        memcpy(&code, raw, sizeof code);
        for (int64_t k = 0; k < a->count; k++)
            if (a->values[k] == (double)code && !a->labels[k])
                a->labels[k] = strdup(name);
        H5free_memory(name);
    }
    H5Tclose(super);
    for (int64_t k = 0; k < a->count; k++)
        if (!a->labels[k])
            return -1;
    return 0;
}

/* /axes/<name>: values (and enum labels) of a dataset axis. */
static int read_axis_dataset(hid_t axes, rp_file *f, rp_axis *a, pascal_error *err)
{
    hid_t d = H5Dopen2(axes, a->name, H5P_DEFAULT), t;
    int rc = 0;
    if (d < 0)
        return h5_fail(err, f->path, "opening an axis");
    t = H5Dget_type(d);
    a->count = dataset_length(d);
    attr_copy(d, "units", a->units, sizeof a->units);
    if (a->count < 1)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: /axes/%s: expected a list of values",
                              f->path, a->name);
    else if (!(a->values = malloc((size_t)a->count * sizeof *a->values)))
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", f->path);
    else if (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, a->values) < 0)
        rc = h5_fail(err, f->path, "reading an axis");
    else if (H5Tget_class(t) == H5T_ENUM && enum_labels(t, a) != 0)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: /axes/%s: expected enum labels",
                              f->path, a->name);
    H5Tclose(t);
    H5Dclose(d);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}

/* /axes/phases as a group: swept list indices are its attribute `values`;
 * without it the lists are fixed and there is no axis.  Returns 1 when it is
 * an axis. */
static int read_phase_axis(hid_t axes, rp_file *f, rp_axis *a, pascal_error *err)
{
    hid_t g = H5Gopen2(axes, a->name, H5P_DEFAULT), at, s;
    int rc = 1;
    if (g < 0)
        return h5_fail(err, f->path, "opening /axes/phases");
    if (H5Aexists(g, "values") <= 0) {
        H5Gclose(g);
        return 0;
    }
    at = H5Aopen(g, "values", H5P_DEFAULT);
    s = at >= 0 ? H5Aget_space(at) : -1;
    a->count = s >= 0 ? H5Sget_simple_extent_npoints(s) : -1;
    if (a->count < 1 || !(a->values = malloc((size_t)a->count * sizeof *a->values)) ||
        H5Aread(at, H5T_NATIVE_DOUBLE, a->values) < 0)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: /axes/phases@values: expected list indices",
                              f->path);
    if (rc == 1 && (a->labels = calloc((size_t)a->count, sizeof(char *))))
        for (int64_t k = 0; k < a->count; k++) {
            char buf[40];
            snprintf(buf, sizeof buf, "list %.0f", a->values[k]);
            a->labels[k] = strdup(buf);
        }
    snprintf(a->units, sizeof a->units, "list");
    if (s >= 0)
        H5Sclose(s);
    if (at >= 0)
        H5Aclose(at);
    H5Gclose(g);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}

typedef struct rp_vi {
    double v;
    int64_t i;
} rp_vi;

static int cmp_vi(const void *x, const void *y)
{
    double a = ((const rp_vi *)x)->v, b = ((const rp_vi *)y)->v;
    return a < b ? -1 : a > b ? 1 : 0;
}

/* Sorted copy for value -> listed index lookups. */
static int index_axis(rp_file *f, rp_axis *a, pascal_error *err)
{
    rp_vi *vi = malloc((size_t)a->count * sizeof *vi);
    int rc = 0;
    a->sorted = malloc((size_t)a->count * sizeof *a->sorted);
    a->order = malloc((size_t)a->count * sizeof *a->order);
    if (!vi || !a->sorted || !a->order) {
        free(vi);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", f->path);
    }
    for (int64_t i = 0; i < a->count; i++)
        vi[i] = (rp_vi){a->values[i], i};
    qsort(vi, (size_t)a->count, sizeof *vi, cmp_vi);
    for (int64_t i = 0; i < a->count && rc == 0; i++) {
        a->sorted[i] = vi[i].v;
        a->order[i] = vi[i].i;
        if (isnan(vi[i].v) || (i > 0 && vi[i].v == vi[i - 1].v))
            rc = pascal_error_set(err, PASCAL_EINPUT,
                                  "%s: /axes/%s: expected distinct numbers, got %g twice or NaN",
                                  f->path, a->name, vi[i].v);
    }
    free(vi);
    return rc;
}

int64_t pascal_report_axis_index(const rp_axis *a, double v)
{
    int64_t lo = 0, hi = a->count - 1;
    while (lo <= hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (a->sorted[mid] < v)
            lo = mid + 1;
        else if (a->sorted[mid] > v)
            hi = mid - 1;
        else
            return a->order[mid];
    }
    return -1;
}

/* 1 when /axes/<name> is a group (the phase lists), 0 for a dataset. */
static int is_group(hid_t axes, const char *name)
{
    hid_t o = H5Oopen(axes, name, H5P_DEFAULT);
    int g = o >= 0 && H5Iget_type(o) == H5I_GROUP;
    if (o >= 0)
        H5Oclose(o);
    return g;
}

static int read_axes(hid_t file, rp_file *f, pascal_error *err)
{
    H5G_info_t gi;
    hid_t axes;
    int rc = 0;
    if (H5Lexists(file, "axes", H5P_DEFAULT) <= 0)
        return 0; /* a single point: no axes */
    if ((axes = H5Gopen2(file, "axes", H5P_DEFAULT)) < 0 || H5Gget_info(axes, &gi) < 0)
        return h5_fail(err, f->path, "opening /axes");
    for (hsize_t i = 0; rc == 0 && i < gi.nlinks; i++) {
        rp_axis *a = &f->axes[f->naxes];
        int r;
        if (f->naxes >= RP_MAX_AXES) {
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: /axes: expected at most %d axes",
                                  f->path, RP_MAX_AXES);
            break;
        }
        if (link_name(axes, i, a->name, sizeof a->name) != 0) {
            rc = h5_fail(err, f->path, "listing /axes");
            break;
        }
        r = is_group(axes, a->name) ? read_phase_axis(axes, f, a, err)
                                    : read_axis_dataset(axes, f, a, err) == 0 ? 1 : -1;
        if (r < 0)
            rc = err->code ? err->code : PASCAL_EIO;
        else if (r == 1) {
            f->naxes++;
            rc = index_axis(f, a, err);
        }
    }
    H5Gclose(axes);
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
    hid_t file;
    int rc;
    memset(f, 0, sizeof *f);
    f->path = path;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (!path || stat(path, &st) != 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: cannot open: %s", path ? path : "(none)",
                                path ? strerror(errno) : "no file given");
    if (H5Fis_hdf5(path) <= 0)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s: expected an HDF5 sweep file (pascal run -o FILE.h5), got "
                                "another kind of file", path);
    if ((file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) /* a damaged input */
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected an HDF5 sweep file, got one "
                                "that HDF5 cannot open (cut short or damaged)", path);
    rc = read_root_attrs(file, f, err);
    if (rc == 0)
        rc = check_format(f, err);
    if (rc == 0)
        rc = read_columns(file, f, "points", f->points, &f->npoints, err);
    if (rc == 0)
        rc = read_columns(file, f, "results", f->results, &f->nresults, err);
    if (rc == 0)
        rc = read_axes(file, f, err);
    if (rc == 0)
        rc = check_axes(f, err);
    H5Fclose(file);
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
