/* Calibration files (output/calibration.h): tables and root attributes in
 * HDF5, written under a temporary name and renamed into place. */
#include "output/calibration.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output/sink_internal.h"
#include "output/fs/tmpfile.h"
#include "pascal/version.h"

static int attr_f64(hid_t obj, const char *key, double v, const char *path, pascal_error *err)
{
    hid_t space = H5Screate(H5S_SCALAR), attr = -1;
    int ok = 0;
    if (space >= 0)
        attr = H5Acreate2(obj, key, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    if (attr >= 0 && H5Awrite(attr, H5T_NATIVE_DOUBLE, &v) >= 0)
        ok = 1;
    if (attr >= 0 && H5Aclose(attr) < 0)
        ok = 0;
    if (space >= 0)
        H5Sclose(space);
    return ok ? 0 : pascal_h5_fail(err, path, "writing a numeric attribute");
}

static int write_attrs(hid_t file, const char *path, const char *format, int64_t version,
                       const pascal_cal_attr *attrs, int n, pascal_error *err)
{
    char stamp[32] = "";
    struct tm tm;
    time_t now = time(NULL);
    int rc;
    if (gmtime_r(&now, &tm))
        strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if ((rc = pascal_h5_attr_str(file, "format", format, path, err)) ||
        (rc = pascal_h5_attr_i64(file, "format_version", version, path, err)) ||
        (rc = pascal_h5_attr_str(file, "pascal_version", PASCAL_VERSION_STRING, path, err)) ||
        (rc = pascal_h5_attr_str(file, "created", stamp, path, err)))
        return rc;
    for (int i = 0; i < n; i++) {
        const pascal_cal_attr *a = &attrs[i];
        if (!a->key || !a->key[0] || strchr(a->key, '/'))
            return pascal_error_set(err, PASCAL_EINPUT, "%s: attribute %d: bad name", path, i);
        if (a->text)
            rc = pascal_h5_attr_str(file, a->key, a->text, path, err);
        else if (a->integer)
            rc = pascal_h5_attr_i64(file, a->key, (int64_t)a->num, path, err);
        else
            rc = attr_f64(file, a->key, a->num, path, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* One column: enum codes are narrowed to the enum's 8- or 16-bit base. */
static int write_column(hid_t group, const pascal_column_desc *c, int64_t n, const void *data,
                        const char *path, pascal_error *err)
{
    hsize_t dims[1] = {(hsize_t)n};
    hid_t space = -1, type = -1, dset = -1;
    void *buf = NULL;
    const void *src = data;
    int rc = 0;
    if (c->type == PASCAL_COLTYPE_ENUM) {
        if ((rc = pascal_h5_enum_type(c->labels, c->nlabels, path, c->name, &type, err)))
            return rc;
        if (!(buf = malloc((size_t)(n ? n : 1) * 2))) {
            H5Tclose(type);
            return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
        }
        for (int64_t i = 0; i < n; i++) {
            int64_t v = ((const int64_t *)data)[i];
            if (c->nlabels > INT8_MAX)
                ((int16_t *)buf)[i] = (int16_t)v;
            else
                ((int8_t *)buf)[i] = (int8_t)v;
        }
        src = buf;
    }
    space = H5Screate_simple(1, dims, NULL);
    if (space >= 0)
        dset = H5Dcreate2(group, c->name,
                          type >= 0 ? type : c->type == PASCAL_COLTYPE_I64 ? H5T_STD_I64LE
                                                                           : H5T_IEEE_F64LE,
                          space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (dset < 0 ||
        (n > 0 && H5Dwrite(dset,
                           type >= 0 ? type : c->type == PASCAL_COLTYPE_I64 ? H5T_NATIVE_INT64
                                                                            : H5T_NATIVE_DOUBLE,
                           H5S_ALL, H5S_ALL, H5P_DEFAULT, src) < 0))
        rc = pascal_h5_fail(err, path, "writing a calibration column");
    if (rc == 0 && !(rc = pascal_h5_attr_str(dset, "units", c->units, path, err)))
        rc = pascal_h5_attr_str(dset, "description", c->description, path, err);
    if (dset >= 0)
        H5Dclose(dset);
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
    free(buf);
    return rc;
}

static int write_table(hid_t file, const pascal_cal_table *t, const char *path,
                       pascal_error *err)
{
    hid_t g;
    int rc = 0;
    if (!t->group || !t->group[0] || strchr(t->group, '/') || t->nrows < 0 || t->ncols < 1)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: bad table description", path);
    if ((g = H5Gcreate2(file, t->group, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        return pascal_h5_fail(err, path, "creating a group");
    for (int j = 0; rc == 0 && j < t->ncols; j++) {
        if (!t->cols[j].name || !t->cols[j].name[0] || strchr(t->cols[j].name, '/'))
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: /%s: bad column name", path, t->group);
        else
            rc = write_column(g, &t->cols[j], t->nrows, t->data[j], path, err);
    }
    if (H5Gclose(g) < 0 && rc == 0)
        rc = pascal_h5_fail(err, path, "closing a group");
    return rc;
}

int pascal_calibration_write(const char *path, const char *format, int64_t format_version,
                             const pascal_cal_attr *attrs, int nattrs,
                             const pascal_cal_table *tables, int ntables, pascal_error *err)
{
    char *tmp = NULL;
    hid_t file;
    int rc;
    if (!path || !path[0])
        return pascal_error_set(err, PASCAL_EINPUT, "calibration: no output path");
    pascal_h5_quiet();
    if ((rc = pascal_tmpfile_create(path, &tmp, err)) < 0)
        return rc;
    close(rc);
    if ((file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        rc = pascal_h5_fail(err, path, "creating the file");
    } else {
        rc = write_attrs(file, path, format, format_version, attrs, nattrs, err);
        for (int i = 0; rc == 0 && i < ntables; i++)
            rc = write_table(file, &tables[i], path, err);
        if (H5Fclose(file) < 0 && rc == 0)
            rc = pascal_h5_fail(err, path, "closing the file");
    }
    if (rc == 0)
        rc = pascal_tmpfile_commit(tmp, path, err);
    else
        pascal_tmpfile_discard(tmp);
    free(tmp);
    return rc;
}

int pascal_calibration_read_table(const char *path, const char *group, const char *const *names,
                                  int n, double **cols, int64_t *nrows, pascal_error *err)
{
    int rc = 0;
    for (int j = 0; j < n; j++)
        cols[j] = NULL;
    for (int j = 0; rc == 0 && j < n; j++) {
        int64_t len;
        rc = pascal_h5_read_column(path, group, names[j], &cols[j], &len, err);
        if (rc == 0 && j > 0 && len != *nrows)
            rc = pascal_error_set(err, PASCAL_EINPUT,
                                  "%s: /%s/%s has %lld rows, expected %lld like /%s/%s", path,
                                  group, names[j], (long long)len, (long long)*nrows, group,
                                  names[0]);
        if (rc == 0)
            *nrows = len;
    }
    if (rc)
        for (int j = 0; j < n; j++) {
            free(cols[j]);
            cols[j] = NULL;
        }
    return rc;
}

int pascal_calibration_read_num(const char *path, const char *key, double *out,
                                pascal_error *err)
{
    char *text = NULL, *end;
    int rc = pascal_h5_read_attr_alloc(path, key, &text, err);
    if (rc)
        return rc;
    *out = strtod(text, &end);
    if (end == text || *end)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: attribute %s: expected a number, got \"%.40s\"",
                              path, key, text);
    free(text);
    return rc;
}
