/* Describing an HDF5 file for `pascal info` (output/h5_info.h).
 *
 * Only metadata and the small /axes datasets are read, so describing a
 * ten-million-row sweep takes milliseconds.  Anything unexpected (a group
 * that is not a table, a dataset that is not 1-D) is skipped rather than
 * refused: deciding what the file is belongs to info/info.c. */
#include "output/h5_info.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/sink_internal.h"

static int grow(void **arr, int n, size_t size)
{
    void *p = realloc(*arr, (size_t)(n + 1) * size);
    if (!p)
        return -1;
    *arr = p;
    memset((char *)p + (size_t)n * size, 0, size);
    return 0;
}

/* H5Aiterate2 callback: one root attribute as text. */
static herr_t add_attr(hid_t obj, const char *name, const H5A_info_t *ai, void *data)
{
    pascal_file_info *d = data;
    pascal_error sub = {0};
    char *text = NULL;
    (void)ai;
    if (pascal_h5_attr_text(obj, "", name, &text, &sub) != 0)
        text = strdup("(not text or a number)");
    if (!text || grow((void **)&d->attrs, d->nattrs, sizeof *d->attrs) != 0) {
        free(text);
        return -1;
    }
    d->attrs[d->nattrs].key = strdup(name);
    d->attrs[d->nattrs++].value = text;
    return d->attrs[d->nattrs - 1].key ? 0 : -1;
}

/* A string attribute of obj into buf ("" when absent). */
static void attr_copy(hid_t obj, const char *key, char *buf, size_t len)
{
    pascal_error sub = {0};
    char *text = NULL;
    buf[0] = '\0';
    if (H5Aexists(obj, key) > 0 && pascal_h5_attr_text(obj, "", key, &text, &sub) == 0)
        snprintf(buf, len, "%s", text);
    free(text);
}

/* Rows of a 1-D dataset, or -1. */
static int64_t rows_of(hid_t d)
{
    hid_t s = H5Dget_space(d);
    hsize_t n = 0;
    int ok = s >= 0 && H5Sget_simple_extent_ndims(s) == 1 &&
             H5Sget_simple_extent_dims(s, &n, NULL) == 1;
    if (s >= 0)
        H5Sclose(s);
    return ok ? (int64_t)n : -1;
}

/* Every 1-D dataset of group g as a column. */
static int add_group(hid_t file, const char *g, pascal_file_info *d)
{
    H5G_info_t gi;
    hid_t grp = H5Gopen2(file, g, H5P_DEFAULT);
    if (grp < 0 || H5Gget_info(grp, &gi) < 0) {
        if (grp >= 0)
            H5Gclose(grp);
        return 0;
    }
    for (hsize_t i = 0; i < gi.nlinks; i++) {
        char name[PASCAL_INFO_NAME];
        hid_t ds;
        int64_t rows;
        if (H5Lget_name_by_idx(grp, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name,
                               H5P_DEFAULT) < 0 ||
            H5Oexists_by_name(grp, name, H5P_DEFAULT) <= 0 ||
            (ds = H5Dopen2(grp, name, H5P_DEFAULT)) < 0)
            continue;
        if ((rows = rows_of(ds)) >= 0) {
            pascal_info_column *c;
            if (grow((void **)&d->cols, d->ncols, sizeof *d->cols) != 0) {
                H5Dclose(ds);
                H5Gclose(grp);
                return -1;
            }
            c = &d->cols[d->ncols++];
            snprintf(c->group, sizeof c->group, "%s", g);
            snprintf(c->name, sizeof c->name, "%s", name);
            attr_copy(ds, "units", c->units, sizeof c->units);
            attr_copy(ds, "description", c->description, sizeof c->description);
            c->rows = rows;
            c->min = c->max = NAN;
        }
        H5Dclose(ds);
    }
    H5Gclose(grp);
    H5Eclear2(H5E_DEFAULT);
    return 0;
}

/* H5Literate2 callback over the root: tables are groups other than /axes and
 * /cube. */
static herr_t add_table(hid_t file, const char *name, const H5L_info_t *li, void *data)
{
    H5O_info_t oi;
    (void)li;
    if (strcmp(name, "axes") == 0 || strcmp(name, "cube") == 0 ||
        H5Oget_info_by_name(file, name, &oi, H5P_DEFAULT) < 0 || oi.type != H5O_TYPE_GROUP)
        return 0;
    return add_group(file, name, data) == 0 ? 0 : -1;
}

/* Labels of an enum axis in listed order, joined with ", ". */
static void axis_labels(hid_t d, hid_t t, int64_t n, char *buf, size_t len)
{
    long long *codes = malloc((size_t)n * sizeof *codes);
    size_t used = 0;
    buf[0] = '\0';
    if (!codes || H5Dread(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, codes) < 0) {
        free(codes);
        return;
    }
    for (int64_t i = 0; i < n && used + 8 < len; i++) {
        char name[PASCAL_INFO_NAME] = "?";
        unsigned char raw[16] = {0};
        hid_t super = H5Tget_super(t);
        memcpy(raw, &codes[i], sizeof codes[i]);
        if (super >= 0 && H5Tconvert(H5T_NATIVE_LLONG, super, 1, raw, NULL, H5P_DEFAULT) >= 0)
            H5Tenum_nameof(t, raw, name, sizeof name);
        if (super >= 0)
            H5Tclose(super);
        if (used + strlen(name) + 6 >= len) {
            snprintf(buf + used, len - used, "%s...", i ? ", " : "");
            break;
        }
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", name);
    }
    free(codes);
}

/* Values of a numeric axis (dataset or /axes/phases@values): min and max. */
static void axis_range(hid_t obj, int grp, int64_t n, double *lo, double *hi)
{
    double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    hid_t a = grp ? H5Aopen(obj, "values", H5P_DEFAULT) : -1;
    int ok = v && (grp ? a >= 0 && H5Aread(a, H5T_NATIVE_DOUBLE, v) >= 0
                       : H5Dread(obj, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    *lo = *hi = NAN;
    for (int64_t i = 0; ok && i < n; i++) {
        if (isnan(*lo) || v[i] < *lo)
            *lo = v[i];
        if (isnan(*hi) || v[i] > *hi)
            *hi = v[i];
    }
    if (a >= 0)
        H5Aclose(a);
    free(v);
}

static int read_i64(hid_t obj, const char *key, int64_t *out)
{
    hid_t a = H5Aexists(obj, key) > 0 ? H5Aopen(obj, key, H5P_DEFAULT) : -1;
    int ok = a >= 0 && H5Aread(a, H5T_NATIVE_INT64, out) >= 0;
    if (a >= 0)
        H5Aclose(a);
    return ok ? 0 : -1;
}

static int cmp_order(const void *x, const void *y)
{
    int64_t a = ((const pascal_info_axis *)x)->order, b = ((const pascal_info_axis *)y)->order;
    return (a > b) - (a < b);
}

/* One entry of /axes; a phase-list group without swept values is none. */
static int add_axis(hid_t axes, const char *name, pascal_file_info *d)
{
    hid_t obj = H5Oopen(axes, name, H5P_DEFAULT), t = -1, s = -1;
    int grp = obj >= 0 && H5Iget_type(obj) == H5I_GROUP;
    int64_t n = -1;
    pascal_info_axis *a;
    if (obj < 0)
        return 0;
    if (grp && H5Aexists(obj, "values") > 0) {
        hid_t at = H5Aopen(obj, "values", H5P_DEFAULT);
        s = at >= 0 ? H5Aget_space(at) : -1;
        n = s >= 0 ? H5Sget_simple_extent_npoints(s) : -1;
        if (at >= 0)
            H5Aclose(at);
    } else if (!grp) {
        n = rows_of(obj);
        t = H5Dget_type(obj);
    }
    if (s >= 0)
        H5Sclose(s);
    if (n < 0 || grow((void **)&d->axes, d->naxes, sizeof *d->axes) != 0) {
        if (t >= 0)
            H5Tclose(t);
        H5Oclose(obj);
        return n < 0 ? 0 : -1;
    }
    a = &d->axes[d->naxes++];
    snprintf(a->name, sizeof a->name, "%s", name);
    attr_copy(obj, "units", a->units, sizeof a->units);
    a->count = n;
    a->min = a->max = NAN;
    if (t >= 0 && H5Tget_class(t) == H5T_ENUM)
        axis_labels(obj, t, n, a->labels, sizeof a->labels);
    else
        axis_range(obj, grp, n, &a->min, &a->max);
    if (read_i64(obj, "dim", &a->dim) != 0 || read_i64(obj, "order", &a->order) != 0)
        a->dim = a->order = -1;
    if (t >= 0)
        H5Tclose(t);
    H5Oclose(obj);
    return 0;
}

static int read_axes(hid_t file, pascal_file_info *d)
{
    H5G_info_t gi;
    hid_t axes = H5Lexists(file, "axes", H5P_DEFAULT) > 0 ? H5Gopen2(file, "axes", H5P_DEFAULT) : -1;
    int rc = 0;
    if (axes < 0 || H5Gget_info(axes, &gi) < 0) {
        if (axes >= 0)
            H5Gclose(axes);
        return 0;
    }
    for (hsize_t i = 0; rc == 0 && i < gi.nlinks; i++) {
        char name[PASCAL_INFO_NAME];
        if (H5Lget_name_by_idx(axes, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name,
                               H5P_DEFAULT) >= 0)
            rc = add_axis(axes, name, d);
    }
    H5Gclose(axes);
    if (d->naxes > 0 && d->axes[0].order >= 0)
        qsort(d->axes, (size_t)d->naxes, sizeof *d->axes, cmp_order);
    return rc;
}

/* "/cube: cube (pattern x seed x C)" or "/cube: points (7 rows)". */
static void read_view(hid_t file, pascal_file_info *d)
{
    char layout[32] = "";
    hid_t cube = H5Lexists(file, "cube", H5P_DEFAULT) > 0 ? H5Gopen2(file, "cube", H5P_DEFAULT) : -1;
    size_t used;
    if (cube < 0)
        return;
    attr_copy(cube, "layout", layout, sizeof layout);
    H5Gclose(cube);
    used = (size_t)snprintf(d->view, sizeof d->view, "/cube: %s (", layout);
    if (strcmp(layout, "cube") != 0) {
        snprintf(d->view + used, sizeof d->view - used, "dimension point)");
        return;
    }
    for (int i = 0; i < d->naxes && used + 4 < sizeof d->view; i++)
        if (i == 0 || d->axes[i].dim != d->axes[i - 1].dim)
            used += (size_t)snprintf(d->view + used, sizeof d->view - used, "%s%s",
                                     i ? " x " : "", d->axes[i].name);
    if (used + 2 < sizeof d->view)
        snprintf(d->view + used, sizeof d->view - used, ")");
}

int pascal_h5_describe(const char *path, pascal_file_info *d, pascal_error *err)
{
    struct stat st;
    hsize_t idx = 0;
    hid_t file;
    int rc = 0;
    memset(d, 0, sizeof *d);
    pascal_h5_quiet();
    if (stat(path, &st) != 0)
        return pascal_error_set(err, PASCAL_EIO, "cannot open %s: no such file or not readable",
                                path);
    if (H5Fis_hdf5(path) <= 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: not an HDF5 file", path);
    if ((file = pascal_h5_open_read(path, err)) < 0)
        return file == PASCAL_H5_DAMAGED ? PASCAL_EINPUT : pascal_h5_fail(err, path, "opening as HDF5");
    if (H5Aiterate2(file, H5_INDEX_NAME, H5_ITER_INC, &idx, add_attr, d) < 0 ||
        H5Literate(file, H5_INDEX_NAME, H5_ITER_INC, NULL, add_table, d) < 0 ||
        read_axes(file, d) != 0)
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory or unreadable metadata",
                              path);
    if (rc == 0)
        read_view(file, d);
    for (int i = 0; i < d->ncols; i++)
        if (strcmp(d->cols[i].group, "points") == 0 || strcmp(d->cols[i].group, "results") == 0)
            d->rows = d->cols[i].rows > d->rows ? d->cols[i].rows : d->rows;
    H5Fclose(file);
    H5Eclear2(H5E_DEFAULT);
    if (rc)
        pascal_file_info_free(d);
    return rc;
}

const char *pascal_info_attr_value(const pascal_file_info *d, const char *key)
{
    for (int i = 0; i < d->nattrs; i++)
        if (strcmp(d->attrs[i].key, key) == 0)
            return d->attrs[i].value;
    return NULL;
}

void pascal_file_info_free(pascal_file_info *d)
{
    if (!d)
        return;
    for (int i = 0; i < d->nattrs; i++) {
        free(d->attrs[i].key);
        free(d->attrs[i].value);
    }
    free(d->attrs);
    free(d->cols);
    free(d->axes);
    memset(d, 0, sizeof *d);
}
