/* Small HDF5 helpers shared by the writer and the readers.
 *
 * HDF5 returns a negative value on failure and, by default, prints its whole
 * error stack to stderr.  Library code must not print, so the stack printing
 * is switched off and failures become one pascal_error line naming the file,
 * the operation and HDF5's innermost reason. */
#include "output/sink_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void pascal_h5_quiet(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* Keeps the description of the innermost (first, walking upward) entry. */
static herr_t innermost(unsigned n, const H5E_error2_t *e, void *data)
{
    char *buf = data;
    if (n == 0 && e->desc)
        snprintf(buf, 200, "%s", e->desc);
    return 0;
}

int pascal_h5_fail(pascal_error *err, const char *path, const char *what)
{
    char why[200] = "";
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost, why);
    H5Eclear2(H5E_DEFAULT);
    if (why[0])
        return pascal_error_set(err, PASCAL_EIO, "%s: %s failed (%s)", path, what, why);
    return pascal_error_set(err, PASCAL_EIO, "%s: %s failed", path, what);
}

hid_t pascal_h5_str_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return t;
    if (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0 ||
        H5Tset_strpad(t, H5T_STR_NULLTERM) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* Creates (or, when it exists, opens) attribute key and writes buf. */
static int attr_write(hid_t obj, const char *key, hid_t type, const void *buf,
                      const char *path, pascal_error *err)
{
    char what[300];
    hid_t space = -1, attr = -1;
    int ok = 0;
    htri_t exists = H5Aexists(obj, key);
    snprintf(what, sizeof what, "writing attribute %s", key);
    if (exists < 0)
        return pascal_h5_fail(err, path, what);
    if (exists) {
        attr = H5Aopen(obj, key, H5P_DEFAULT);
    } else {
        space = H5Screate(H5S_SCALAR);
        if (space >= 0)
            attr = H5Acreate2(obj, key, type, space, H5P_DEFAULT, H5P_DEFAULT);
    }
    if (attr >= 0 && H5Awrite(attr, type, buf) >= 0)
        ok = 1;
    if (attr >= 0 && H5Aclose(attr) < 0)
        ok = 0;
    if (space >= 0)
        H5Sclose(space);
    return ok ? 0 : pascal_h5_fail(err, path, what);
}

int pascal_h5_attr_str(hid_t obj, const char *key, const char *value,
                       const char *path, pascal_error *err)
{
    const char *v = value ? value : "";
    hid_t t = pascal_h5_str_type();
    int rc;
    if (t < 0)
        return pascal_h5_fail(err, path, "creating a string type");
    rc = attr_write(obj, key, t, &v, path, err);
    H5Tclose(t);
    return rc;
}

int pascal_h5_attr_i64(hid_t obj, const char *key, int64_t value,
                       const char *path, pascal_error *err)
{
    return attr_write(obj, key, H5T_NATIVE_INT64, &value, path, err);
}

int pascal_h5_enum_type(const char *const *labels, int nlabels, const char *path,
                        const char *name, hid_t *out, pascal_error *err)
{
    char what[300];
    int wide = nlabels > INT8_MAX;
    hid_t t;
    if (nlabels < 1 || nlabels > INT16_MAX)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: %s: %d labels, expected 1 to %d",
                                path, name, nlabels, INT16_MAX);
    t = H5Tenum_create(wide ? H5T_NATIVE_INT16 : H5T_NATIVE_INT8);
    for (int i = 0; t >= 0 && i < nlabels; i++) {
        int8_t v8 = (int8_t)i;
        int16_t v16 = (int16_t)i;
        if (H5Tenum_insert(t, labels[i], wide ? (void *)&v16 : (void *)&v8) < 0) {
            H5Tclose(t);
            t = -1;
        }
    }
    if (t < 0) {
        snprintf(what, sizeof what, "creating the enum type of %s", name);
        return pascal_h5_fail(err, path, what);
    }
    *out = t;
    return 0;
}
