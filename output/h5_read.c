/* Reading a finished sweep file back (tests and `pascal report`).
 *
 * Columns come back as float64 whatever their stored type (HDF5 converts
 * int64 and the integer codes of enum columns); root attributes come back as
 * text, integers in decimal.  A missing file, group, dataset or attribute is
 * reported by name rather than as an HDF5 error stack. */
#include "output/sink_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int open_file(const char *path, hid_t *file, pascal_error *err)
{
    struct stat st;
    pascal_h5_quiet();
    if (!path)
        return pascal_error_set(err, PASCAL_EINPUT, "no file name");
    if (stat(path, &st) != 0)
        return pascal_error_set(err, PASCAL_EIO, "cannot open %s: %s", path, strerror(errno));
    if ((*file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0)
        return pascal_h5_fail(err, path, "opening as HDF5");
    return 0;
}

/* Opens /group/name, distinguishing a missing group from a missing column. */
static int open_column(hid_t file, const char *path, const char *group, const char *name,
                       hid_t *dset, pascal_error *err)
{
    char link[600];
    htri_t has;
    if (!group || !name || !group[0] || !name[0] || strchr(group, '/') || strchr(name, '/'))
        return pascal_error_set(err, PASCAL_EINPUT, "%s: bad column name", path);
    has = H5Lexists(file, group, H5P_DEFAULT);
    if (has < 0)
        return pascal_h5_fail(err, path, "looking up a group");
    if (!has)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: no group /%s", path, group);
    snprintf(link, sizeof link, "%s/%s", group, name);
    has = H5Lexists(file, link, H5P_DEFAULT);
    if (has < 0)
        return pascal_h5_fail(err, path, "looking up a dataset");
    if (!has)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: no dataset /%s", path, link);
    if ((*dset = H5Dopen2(file, link, H5P_DEFAULT)) < 0)
        return pascal_h5_fail(err, path, "opening a dataset");
    return 0;
}

/* Reads a 1-D numeric or enum dataset as doubles. */
static int read_doubles(hid_t dset, const char *path, const char *name, double **values,
                        int64_t *nrows, pascal_error *err)
{
    hid_t space = H5Dget_space(dset), ftype = H5Dget_type(dset);
    H5T_class_t cls = ftype >= 0 ? H5Tget_class(ftype) : H5T_NO_CLASS;
    hsize_t dims[1] = {0};
    double *buf = NULL;
    int rc = 0;
    if (space < 0 || ftype < 0)
        rc = pascal_h5_fail(err, path, "inspecting a dataset");
    else if (H5Sget_simple_extent_ndims(space) != 1)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: /%s is not one-dimensional", path, name);
    else if (cls != H5T_FLOAT && cls != H5T_INTEGER && cls != H5T_ENUM)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: /%s is not numeric", path, name);
    else if (H5Sget_simple_extent_dims(space, dims, NULL) < 0)
        rc = pascal_h5_fail(err, path, "inspecting a dataset");
    else if (!(buf = malloc((dims[0] > 0 ? dims[0] : 1) * sizeof *buf)))
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    /* HDF5 converts enum members to numbers by value (since 1.8.11). */
    if (rc == 0 && dims[0] > 0 &&
        H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        rc = pascal_h5_fail(err, path, "reading a dataset");
    if (space >= 0)
        H5Sclose(space);
    if (ftype >= 0)
        H5Tclose(ftype);
    if (rc) {
        free(buf);
        return rc;
    }
    *values = buf;
    *nrows = (int64_t)dims[0];
    return 0;
}

int pascal_h5_read_column(const char *path, const char *group, const char *name,
                          double **values, int64_t *nrows, pascal_error *err)
{
    hid_t file = -1, dset = -1;
    char what[600];
    int rc;
    if (!values || !nrows)
        return pascal_error_set(err, PASCAL_EINTERNAL, "pascal_h5_read_column: NULL output");
    if ((rc = open_file(path, &file, err)))
        return rc;
    if ((rc = open_column(file, path, group, name, &dset, err)) == 0) {
        snprintf(what, sizeof what, "%s/%s", group, name);
        rc = read_doubles(dset, path, what, values, nrows, err);
        H5Dclose(dset);
    }
    H5Fclose(file);
    return rc;
}

/* Reads a scalar string attribute (fixed or variable length) into a
 * malloc'd string. */
static int read_string(hid_t attr, hid_t ftype, const char *path, char **out,
                       pascal_error *err)
{
    htri_t vl = H5Tis_variable_str(ftype);
    hid_t mtype = vl > 0 ? pascal_h5_str_type() : H5Tcopy(ftype);
    char *vs = NULL;
    size_t size = vl > 0 ? 0 : H5Tget_size(ftype);
    int rc = 0;
    if (vl < 0 || mtype < 0 || (vl == 0 && size == 0))
        rc = pascal_h5_fail(err, path, "inspecting a string attribute");
    else if (vl > 0 && H5Aread(attr, mtype, &vs) < 0)
        rc = pascal_h5_fail(err, path, "reading a string attribute");
    else if (vl > 0 && !(*out = strdup(vs ? vs : "")))
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    else if (vl == 0 && !(*out = calloc(size + 1, 1)))
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    else if (vl == 0 && H5Aread(attr, mtype, *out) < 0) {
        free(*out);
        *out = NULL;
        rc = pascal_h5_fail(err, path, "reading a string attribute");
    }
    if (vs)
        H5free_memory(vs);
    if (mtype >= 0)
        H5Tclose(mtype);
    return rc;
}

/* Formats a scalar integer or float attribute as decimal text. */
static int read_number(hid_t attr, H5T_class_t cls, const char *path, char **out,
                       pascal_error *err)
{
    char text[64];
    long long i = 0;
    double d = 0;
    if (cls == H5T_INTEGER ? H5Aread(attr, H5T_NATIVE_LLONG, &i) < 0
                           : H5Aread(attr, H5T_NATIVE_DOUBLE, &d) < 0)
        return pascal_h5_fail(err, path, "reading a numeric attribute");
    if (cls == H5T_INTEGER)
        snprintf(text, sizeof text, "%lld", i);
    else
        snprintf(text, sizeof text, "%.17g", d);
    if (!(*out = strdup(text)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    return 0;
}

int pascal_h5_attr_text(hid_t file, const char *path, const char *key, char **out,
                        pascal_error *err)
{
    hid_t attr, ftype = -1, space = -1;
    H5T_class_t cls;
    int rc = 0;
    htri_t has = H5Aexists(file, key);
    if (has < 0)
        return pascal_h5_fail(err, path, "looking up a root attribute");
    if (!has)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: no root attribute %s", path, key);
    if ((attr = H5Aopen(file, key, H5P_DEFAULT)) < 0)
        return pascal_h5_fail(err, path, "opening a root attribute");
    ftype = H5Aget_type(attr);
    space = H5Aget_space(attr);
    cls = ftype >= 0 ? H5Tget_class(ftype) : H5T_NO_CLASS;
    if (ftype < 0 || space < 0)
        rc = pascal_h5_fail(err, path, "inspecting a root attribute");
    else if (H5Sget_simple_extent_npoints(space) != 1)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: attribute %s is not a single value",
                              path, key);
    else if (cls == H5T_STRING)
        rc = read_string(attr, ftype, path, out, err);
    else if (cls == H5T_INTEGER || cls == H5T_FLOAT)
        rc = read_number(attr, cls, path, out, err);
    else
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: attribute %s is not text or a number",
                              path, key);
    if (space >= 0)
        H5Sclose(space);
    if (ftype >= 0)
        H5Tclose(ftype);
    H5Aclose(attr);
    return rc;
}

int pascal_h5_read_attr_alloc(const char *path, const char *key, char **value,
                              pascal_error *err)
{
    hid_t file = -1;
    int rc;
    if (!value || !key || !key[0])
        return pascal_error_set(err, PASCAL_EINTERNAL, "pascal_h5_read_attr: bad arguments");
    *value = NULL;
    if ((rc = open_file(path, &file, err)))
        return rc;
    rc = pascal_h5_attr_text(file, path, key, value, err);
    H5Fclose(file);
    return rc;
}

int pascal_h5_read_attr(const char *path, const char *key, char *buf, int len,
                        pascal_error *err)
{
    char *value;
    size_t n;
    int rc;
    if (!buf || len < 1)
        return pascal_error_set(err, PASCAL_EINTERNAL, "pascal_h5_read_attr: no buffer");
    buf[0] = '\0';
    if ((rc = pascal_h5_read_attr_alloc(path, key, &value, err)))
        return rc;
    n = strlen(value);
    if (n >= (size_t)len)
        rc = pascal_error_set(err, PASCAL_EINPUT,
                              "%s: attribute %s is %zu bytes, longer than the %d-byte buffer",
                              path, key, n, len - 1);
    else
        memcpy(buf, value, n + 1);
    free(value);
    return rc;
}
