/* Walking an HDF5 file for readers outside output/; see h5_file.h.  Every
 * call clears the HDF5 error stack it may have left, so a failed lookup
 * never leaks into the next message. */
#include "output/h5_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/sink_internal.h"

struct pascal_h5_file {
    hid_t id;
};

int pascal_h5_is_hdf5(const char *path)
{
    htri_t is;
    pascal_h5_quiet();
    is = path ? H5Fis_hdf5(path) : -1;
    H5Eclear2(H5E_DEFAULT);
    return is > 0;
}

int pascal_h5_file_open(const char *path, pascal_h5_file **out, pascal_error *err)
{
    pascal_h5_file *f = malloc(sizeof *f);
    if (!f)
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    pascal_h5_quiet();
    if ((f->id = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) {
        /* An input HDF5 cannot open is bad input (exit 2), not a failure
         * while running: it was cut short, damaged or is not HDF5. */
        free(f);
        pascal_h5_fail(err, path, "opening as HDF5");
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected an HDF5 sweep file, got one "
                                "that HDF5 cannot open (cut short or damaged)", path);
    }
    *out = f;
    return 0;
}

void pascal_h5_file_close(pascal_h5_file *f)
{
    if (!f)
        return;
    H5Fclose(f->id);
    free(f);
}

/* The object at name (the root for "/" or "."), or -1. */
static hid_t open_object(pascal_h5_file *f, const char *name)
{
    if (!name || !name[0] || strcmp(name, "/") == 0 || strcmp(name, ".") == 0)
        return H5Oopen(f->id, ".", H5P_DEFAULT);
    if (H5Lexists(f->id, name, H5P_DEFAULT) <= 0)
        return -1;
    return H5Oopen(f->id, name, H5P_DEFAULT);
}

int pascal_h5_file_kind(pascal_h5_file *f, const char *name)
{
    hid_t o = open_object(f, name);
    H5I_type_t t = o >= 0 ? H5Iget_type(o) : H5I_BADID;
    if (o >= 0)
        H5Oclose(o);
    H5Eclear2(H5E_DEFAULT);
    return t == H5I_GROUP ? PASCAL_H5_GROUP : t == H5I_DATASET ? PASCAL_H5_DATASET : PASCAL_H5_NONE;
}

int64_t pascal_h5_file_nlinks(pascal_h5_file *f, const char *group)
{
    H5G_info_t gi;
    hid_t g = open_object(f, group);
    int64_t n = g >= 0 && H5Gget_info(g, &gi) >= 0 ? (int64_t)gi.nlinks : -1;
    if (g >= 0)
        H5Oclose(g);
    H5Eclear2(H5E_DEFAULT);
    return n;
}

int pascal_h5_file_link(pascal_h5_file *f, const char *group, int64_t i, char *buf,
                        size_t len)
{
    hid_t g = open_object(f, group);
    ssize_t n = g >= 0 ? H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, (hsize_t)i, buf,
                                            len, H5P_DEFAULT)
                       : -1;
    if (g >= 0)
        H5Oclose(g);
    H5Eclear2(H5E_DEFAULT);
    return n < 0 || (size_t)n >= len ? -1 : 0;
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
    return out;
}

char *pascal_h5_file_attr_text(pascal_h5_file *f, const char *name, const char *key)
{
    hid_t o = open_object(f, name);
    char *s = o >= 0 ? attr_text(o, key) : NULL;
    if (o >= 0)
        H5Oclose(o);
    H5Eclear2(H5E_DEFAULT);
    return s;
}

typedef struct attr_walk {
    int (*fn)(void *ctx, const char *key, const char *text);
    void *ctx;
    int rc;
} attr_walk;

/* H5Aiterate2 callback: one attribute, as text, to the caller's fn. */
static herr_t visit_attr(hid_t obj, const char *name, const H5A_info_t *info, void *data)
{
    attr_walk *w = data;
    char *text = attr_text(obj, name);
    (void)info;
    w->rc = w->fn(w->ctx, name, text);
    free(text);
    return w->rc ? 1 : 0;
}

int pascal_h5_file_attrs(pascal_h5_file *f, const char *name,
                         int (*fn)(void *ctx, const char *key, const char *text), void *ctx)
{
    hid_t o = open_object(f, name);
    attr_walk w = {fn, ctx, 0};
    hsize_t idx = 0;
    herr_t r = o >= 0 ? H5Aiterate2(o, H5_INDEX_NAME, H5_ITER_INC, &idx, visit_attr, &w) : -1;
    if (o >= 0)
        H5Oclose(o);
    H5Eclear2(H5E_DEFAULT);
    return w.rc ? w.rc : r < 0 ? -1 : 0;
}

/* Opens attribute key of name (numeric ones only), or -1. */
static hid_t open_numeric_attr(pascal_h5_file *f, const char *name, const char *key, hid_t *obj)
{
    hid_t a = -1, t;
    H5T_class_t cls;
    *obj = open_object(f, name);
    if (*obj < 0 || H5Aexists(*obj, key) <= 0 || (a = H5Aopen(*obj, key, H5P_DEFAULT)) < 0)
        return -1;
    t = H5Aget_type(a);
    cls = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    if (t >= 0)
        H5Tclose(t);
    if (cls != H5T_INTEGER && cls != H5T_FLOAT) {
        H5Aclose(a);
        return -1;
    }
    return a;
}

int64_t pascal_h5_file_attr_count(pascal_h5_file *f, const char *name, const char *key)
{
    hid_t obj, a = open_numeric_attr(f, name, key, &obj);
    hid_t s = a >= 0 ? H5Aget_space(a) : -1;
    int64_t n = s >= 0 ? (int64_t)H5Sget_simple_extent_npoints(s) : -1;
    if (s >= 0)
        H5Sclose(s);
    if (a >= 0)
        H5Aclose(a);
    if (obj >= 0)
        H5Oclose(obj);
    H5Eclear2(H5E_DEFAULT);
    return n;
}

int pascal_h5_file_attr_doubles(pascal_h5_file *f, const char *name, const char *key,
                                double *out)
{
    hid_t obj, a = open_numeric_attr(f, name, key, &obj);
    int rc = a >= 0 && H5Aread(a, H5T_NATIVE_DOUBLE, out) >= 0 ? 0 : -1;
    if (a >= 0)
        H5Aclose(a);
    if (obj >= 0)
        H5Oclose(obj);
    H5Eclear2(H5E_DEFAULT);
    return rc;
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

/* The dataset at name, or -1. */
static hid_t open_dataset(pascal_h5_file *f, const char *name)
{
    if (!name || H5Lexists(f->id, name, H5P_DEFAULT) <= 0)
        return -1;
    return H5Dopen2(f->id, name, H5P_DEFAULT);
}

int64_t pascal_h5_file_length(pascal_h5_file *f, const char *dset)
{
    hid_t d = open_dataset(f, dset);
    int64_t n = d >= 0 ? dataset_length(d) : -1;
    if (d >= 0)
        H5Dclose(d);
    H5Eclear2(H5E_DEFAULT);
    return n;
}

int pascal_h5_file_read(pascal_h5_file *f, const char *dset, double *out)
{
    hid_t d = open_dataset(f, dset);
    int rc = d >= 0 && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0
                 ? 0 : -1;
    if (d >= 0)
        H5Dclose(d);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}

/* Enum labels of the listed values (codes already read as doubles). */
static int enum_labels(hid_t t, const double *values, int64_t count, char **labels)
{
    int nm = H5Tget_nmembers(t), rc = 0;
    hid_t super = H5Tget_super(t);
    size_t size = H5Tget_size(t);
    if (nm < 0 || super < 0 || size > 16) {
        if (super >= 0)
            H5Tclose(super);
        return -1;
    }
    for (int i = 0; i < nm && rc == 0; i++) {
        unsigned char raw[16] = {0};
        long long code = 0;
        char *name = H5Tget_member_name(t, (unsigned)i);
        if (!name || H5Tget_member_value(t, (unsigned)i, raw) < 0 ||
            H5Tconvert(super, H5T_NATIVE_LLONG, 1, raw, NULL, H5P_DEFAULT) < 0)
            rc = -1;
        memcpy(&code, raw, sizeof code);
        for (int64_t k = 0; k < count && rc == 0; k++)
            if (values[k] == (double)code && !labels[k] && !(labels[k] = strdup(name)))
                rc = -1;
        if (name)
            H5free_memory(name);
    }
    H5Tclose(super);
    for (int64_t k = 0; k < count && rc == 0; k++)
        if (!labels[k])
            rc = -1;
    return rc;
}

int pascal_h5_file_enum_labels(pascal_h5_file *f, const char *dset, const double *values,
                               int64_t n, char **labels)
{
    hid_t d = open_dataset(f, dset), t = d >= 0 ? H5Dget_type(d) : -1;
    int rc = t < 0 ? -1 : H5Tget_class(t) != H5T_ENUM ? 1 : enum_labels(t, values, n, labels);
    if (t >= 0)
        H5Tclose(t);
    if (d >= 0)
        H5Dclose(d);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}
