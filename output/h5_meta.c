/* Provenance and axes of an HDF5 sweep file (DESIGN.md section 5).
 *
 * The root attributes let a reader who has only the file know what produced
 * it: the format and its version, the pascal version, the spec text and
 * path, the command line, the thread count, when it was written, and whether
 * the run finished (complete, points: 0 until pascal_sink_finish).  /axes
 * holds each swept axis's values so that xarray-style readers can rebuild the
 * grid without the spec.  Strings are variable-length UTF-8, which h5py
 * returns as str; integers are int64.  Phase lists are /axes/phases/<i>; a
 * swept "phases" axis (indices of those lists) is then stored as the int64
 * attribute `values` of the group /axes/phases. */
#include "output/sink_internal.h"
#include "pascal/version.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PASCAL_FORMAT_NAME "pascal-sweep"
/* 2: HDF5 1.10 file format, chunks no longer than the sweep, /axes/<name>
 * @dim and @order, and the /cube view (output/h5_cube.c).  Readers of
 * version 1 files keep working; those files have no /cube. */
#define PASCAL_FORMAT_VERSION 2

static int write_created(hid_t file, const char *path, const char *given, pascal_error *err)
{
    char stamp[32];
    struct tm tm;
    time_t now = time(NULL);
    if (given)
        return pascal_h5_attr_str(file, "created", given, path, err);
    if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm))
        return pascal_error_set(err, PASCAL_EINTERNAL, "%s: cannot format the time", path);
    return pascal_h5_attr_str(file, "created", stamp, path, err);
}

static int write_extra_attrs(hid_t file, const pascal_sink_meta *meta, const char *path,
                             pascal_error *err)
{
    if (meta->nattrs > 0 && !meta->attrs)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: attrs is NULL", path);
    for (int i = 0; i < meta->nattrs; i++) {
        const char *key = meta->attrs[i].key;
        htri_t exists;
        int rc;
        if (!key || !key[0] || strchr(key, '/'))
            return pascal_error_set(err, PASCAL_EINPUT, "%s: extra attribute %d: bad name",
                                    path, i);
        if ((exists = H5Aexists(file, key)) < 0)
            return pascal_h5_fail(err, path, "checking a root attribute");
        if (exists)
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "%s: extra attribute \"%s\" is already a root attribute",
                                    path, key);
        if ((rc = pascal_h5_attr_str(file, key, meta->attrs[i].value, path, err)))
            return rc;
    }
    return 0;
}

int pascal_h5meta_root(hid_t file, const pascal_sink_meta *meta, const char *path,
                       pascal_error *err)
{
    int rc;
    if ((rc = pascal_h5_attr_str(file, "format", PASCAL_FORMAT_NAME, path, err)) ||
        (rc = pascal_h5_attr_i64(file, "format_version", PASCAL_FORMAT_VERSION, path, err)) ||
        (rc = pascal_h5_attr_str(file, "pascal_version", PASCAL_VERSION_STRING, path, err)) ||
        (rc = pascal_h5_attr_str(file, "spec", meta->spec_text, path, err)) ||
        (rc = pascal_h5_attr_str(file, "spec_path", meta->spec_path, path, err)) ||
        (rc = pascal_h5_attr_str(file, "command_line", meta->command_line, path, err)) ||
        (rc = pascal_h5_attr_i64(file, "threads", meta->threads, path, err)) ||
        (rc = pascal_h5_attr_i64(file, "complete", 0, path, err)) ||
        (rc = pascal_h5_attr_i64(file, "points", 0, path, err)) ||
        (rc = write_created(file, path, meta->created, err)))
        return rc;
    return write_extra_attrs(file, meta, path, err);
}

/* Converts an axis's double values to what its dataset stores: int64 for
 * I64, int8/int16 codes for ENUM, into a malloc'd *out. */
static int axis_values(const pascal_axis_desc *a, const char *path, void **out,
                       pascal_error *err)
{
    int64_t n = a->count > 0 ? a->count : 1;
    int wide = a->type == PASCAL_COLTYPE_ENUM && a->nlabels > INT8_MAX;
    size_t esize = a->type == PASCAL_COLTYPE_I64 ? 8 : wide ? 2 : 1;
    unsigned char *buf = malloc((size_t)n * esize);
    if (!buf)
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    for (int64_t i = 0; i < a->count; i++) {
        double v = a->values[i];
        int in_range = a->type == PASCAL_COLTYPE_I64 ? v >= -0x1p63 && v < 0x1p63
                                                     : v >= 0 && v <= a->nlabels - 1;
        if (!in_range || v != floor(v)) {
            free(buf);
            return pascal_error_set(err, PASCAL_EINPUT, "%s: axes/%s: value %lld is %.17g, not %s",
                                    path, a->name, (long long)i, v,
                                    a->type == PASCAL_COLTYPE_I64 ? "an int64" : "a label code");
        }
        if (esize == 8)
            ((int64_t *)buf)[i] = (int64_t)v;
        else if (esize == 2)
            ((int16_t *)buf)[i] = (int16_t)v;
        else
            ((int8_t *)buf)[i] = (int8_t)v;
    }
    *out = buf;
    return 0;
}

static int check_axis(const pascal_axis_desc *a, int i, const char *path, pascal_error *err)
{
    char what[300];
    if (!a->name || !a->name[0] || strchr(a->name, '/') || strcmp(a->name, ".") == 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: axis %d: bad name", path, i);
    if (a->type < PASCAL_COLTYPE_F64 || a->type > PASCAL_COLTYPE_ENUM)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: axes/%s: unknown type %d", path,
                                a->name, (int)a->type);
    if (a->count < 0 || (a->count > 0 && !a->values))
        return pascal_error_set(err, PASCAL_EINPUT, "%s: axes/%s: no values", path, a->name);
    snprintf(what, sizeof what, "%s: axes/%s", path, a->name);
    if (a->type == PASCAL_COLTYPE_ENUM && (!a->labels || a->nlabels < 1 || a->nlabels > INT16_MAX))
        return pascal_error_set(err, PASCAL_EINPUT, "%s: an enum needs 1 to %d labels", what,
                                INT16_MAX);
    return 0;
}

/* Writes a 1-D contiguous dataset of n values of mtype from buf. */
static int write_array(hid_t group, const char *name, hid_t ftype, hid_t mtype,
                       const void *buf, int64_t n, const char *path, pascal_error *err,
                       hid_t *out)
{
    char what[300];
    hsize_t dims[1] = {(hsize_t)n};
    hid_t space = H5Screate_simple(1, dims, NULL), dset = -1;
    snprintf(what, sizeof what, "writing dataset %s", name);
    if (space >= 0)
        dset = H5Dcreate2(group, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (space >= 0)
        H5Sclose(space);
    if (dset < 0)
        return pascal_h5_fail(err, path, what);
    if (n > 0 && H5Dwrite(dset, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
        H5Dclose(dset);
        return pascal_h5_fail(err, path, what);
    }
    if (out) {
        *out = dset;
        return 0;
    }
    return H5Dclose(dset) < 0 ? pascal_h5_fail(err, path, what) : 0;
}

static int write_axis(hid_t group, const pascal_axis_desc *a, const char *path,
                      pascal_error *err)
{
    void *conv = NULL;
    hid_t ftype = H5T_IEEE_F64LE, mtype = H5T_NATIVE_DOUBLE, etype = -1, dset = -1;
    int rc = 0;
    if (a->type != PASCAL_COLTYPE_F64)
        rc = axis_values(a, path, &conv, err);
    if (rc == 0 && a->type == PASCAL_COLTYPE_I64) {
        ftype = H5T_STD_I64LE;
        mtype = H5T_NATIVE_INT64;
    } else if (rc == 0 && a->type == PASCAL_COLTYPE_ENUM) {
        rc = pascal_h5_enum_type(a->labels, a->nlabels, path, a->name, &etype, err);
        ftype = mtype = etype;
    }
    if (rc == 0)
        rc = write_array(group, a->name, ftype, mtype, conv ? conv : (const void *)a->values,
                         a->count, path, err, &dset);
    if (rc == 0) {
        rc = pascal_h5_attr_str(dset, "units", a->units, path, err);
        if (H5Dclose(dset) < 0 && rc == 0)
            rc = pascal_h5_fail(err, path, "closing an axis dataset");
    }
    if (etype >= 0)
        H5Tclose(etype);
    free(conv);
    return rc;
}

/* The values of a swept "phases" axis (indices of phase lists) cannot be a
 * dataset /axes/phases when that name holds the lists, so they become the
 * int64 attribute `values` of the group. */
static int write_phase_axis(hid_t group, const pascal_axis_desc *a, int64_t nlists,
                            const char *path, pascal_error *err)
{
    void *idx = NULL;
    hsize_t dims[1] = {(hsize_t)a->count};
    hid_t space = -1, attr = -1;
    int rc = 0;
    if (a->type != PASCAL_COLTYPE_I64)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: axes/phases: expected int64 indices",
                                path);
    if ((rc = axis_values(a, path, &idx, err)))
        return rc;
    for (int64_t i = 0; rc == 0 && i < a->count; i++)
        if (((int64_t *)idx)[i] < 0 || ((int64_t *)idx)[i] >= nlists)
            rc = pascal_error_set(err, PASCAL_EINPUT,
                                  "%s: axes/phases: value %lld is %lld, not a phase list index",
                                  path, (long long)i, (long long)((int64_t *)idx)[i]);
    if (rc == 0) {
        space = a->count > 0 ? H5Screate_simple(1, dims, NULL) : H5Screate(H5S_NULL);
        if (space >= 0)
            attr = H5Acreate2(group, "values", H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
        int ok = attr >= 0 && (a->count == 0 || H5Awrite(attr, H5T_NATIVE_INT64, idx) >= 0);
        if (attr >= 0 && H5Aclose(attr) < 0)
            ok = 0;
        if (!ok)
            rc = pascal_h5_fail(err, path, "writing attribute /axes/phases@values");
        if (space >= 0)
            H5Sclose(space);
    }
    if (rc == 0)
        rc = pascal_h5_attr_str(group, "units", a->units, path, err);
    free(idx);
    return rc;
}

static int write_phases(hid_t axes, const pascal_sink_meta *meta, const pascal_axis_desc *axis,
                        const char *path, pascal_error *err)
{
    hid_t group;
    int rc = 0;
    if (!meta->phase_lists || !meta->phase_list_lens)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: phase lists missing", path);
    if ((group = H5Gcreate2(axes, "phases", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        return pascal_h5_fail(err, path, "creating group /axes/phases");
    for (int64_t i = 0; rc == 0 && i < meta->nphase_lists; i++) {
        char name[32];
        int64_t len = meta->phase_list_lens[i];
        snprintf(name, sizeof name, "%lld", (long long)i);
        if (len < 0 || (len > 0 && !meta->phase_lists[i]))
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: phase list %lld is missing", path,
                                  (long long)i);
        else
            rc = write_array(group, name, H5T_STD_I64LE, H5T_NATIVE_INT64,
                             meta->phase_lists[i], len, path, err, NULL);
    }
    if (rc == 0 && axis)
        rc = write_phase_axis(group, axis, meta->nphase_lists, path, err);
    if (H5Gclose(group) < 0 && rc == 0)
        rc = pascal_h5_fail(err, path, "closing group /axes/phases");
    return rc;
}

int pascal_h5meta_axes(hid_t file, const pascal_sink_meta *meta, const char *path,
                       pascal_error *err)
{
    const pascal_axis_desc *phase_axis = NULL;
    hid_t axes;
    int rc = 0;
    if (meta->naxes < 0 || (meta->naxes > 0 && !meta->axes))
        return pascal_error_set(err, PASCAL_EINPUT, "%s: bad axis count %d", path, meta->naxes);
    for (int i = 0; i < meta->naxes; i++) {
        if ((rc = check_axis(&meta->axes[i], i, path, err)))
            return rc;
        for (int j = 0; j < i; j++)
            if (strcmp(meta->axes[i].name, meta->axes[j].name) == 0)
                return pascal_error_set(err, PASCAL_EINPUT, "%s: axes/%s: duplicate axis name",
                                        path, meta->axes[i].name);
        if (meta->nphase_lists > 0 && strcmp(meta->axes[i].name, "phases") == 0)
            phase_axis = &meta->axes[i];
    }
    if ((axes = H5Gcreate2(file, "axes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        return pascal_h5_fail(err, path, "creating group /axes");
    for (int i = 0; rc == 0 && i < meta->naxes; i++)
        if (&meta->axes[i] != phase_axis)
            rc = write_axis(axes, &meta->axes[i], path, err);
    if (rc == 0 && meta->nphase_lists > 0)
        rc = write_phases(axes, meta, phase_axis, path, err);
    if (H5Gclose(axes) < 0 && rc == 0)
        rc = pascal_h5_fail(err, path, "closing group /axes");
    return rc;
}
