/* Small HDF5 helpers shared by the writer and the readers.
 *
 * HDF5 returns a negative value on failure and, by default, prints its whole
 * error stack to stderr.  Library code must not print, so the stack printing
 * is switched off and failures become one pascal_error line naming the file,
 * the operation and HDF5's innermost reason. */
#include "output/sink_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* HDF5 closes the files still open when the process exits, from an exit
 * handler; a file whose close already failed (a full disk) makes that
 * handler crash.  Every writer here closes its own files, and one that
 * failed is being discarded, so the handler is never installed: this runs
 * before main, before the library initialises. */
__attribute__((constructor)) static void no_exit_handler(void)
{
    H5dont_atexit();
}

typedef struct h5_reason {
    char desc[200];  /* the innermost entry's description */
    int sys_errno;   /* the system error a file driver reported, 0 if none */
} h5_reason;

/* The reason of the latest failed HDF5 call on this thread.  It is taken
 * when the call fails, because the next HDF5 call (closing a dataspace on
 * the way out) clears the library's error stack. */
static _Thread_local h5_reason last_reason;

/* Keeps the innermost (first, walking upward) description, and the errno
 * that the POSIX file driver writes into its messages ("..., errno = 28,
 * error message = 'No space left on device', ..."). */
static herr_t innermost(unsigned n, const H5E_error2_t *e, void *data)
{
    h5_reason *r = data;
    const char *at = e->desc ? strstr(e->desc, "errno = ") : NULL;
    if (n == 0 && e->desc)
        snprintf(r->desc, sizeof r->desc, "%s", e->desc);
    if (at && r->sys_errno == 0)
        r->sys_errno = atoi(at + strlen("errno = "));
    return 0;
}

/* Called by the library instead of printing its error stack. */
static herr_t remember_reason(hid_t stack, void *unused)
{
    h5_reason r = {"", 0};
    (void)unused;
    H5Ewalk2(stack, H5E_WALK_UPWARD, innermost, &r);
    last_reason = r;
    return 0;
}

/* The library is thread-safe and keeps this setting per thread: call it on
 * the thread that makes the HDF5 calls (sinks are driven from OpenMP
 * threads), before them. */
void pascal_h5_quiet(void)
{
    H5Eset_auto2(H5E_DEFAULT, remember_reason, NULL);
    last_reason = (h5_reason){"", 0};
}

int pascal_h5_fail(pascal_error *err, const char *path, const char *what)
{
    h5_reason why = last_reason;
    last_reason = (h5_reason){"", 0};
    H5Eclear2(H5E_DEFAULT);
    if (why.sys_errno > 0)
        return pascal_error_set(err, PASCAL_EIO, "%s: %s failed: %s", path, what,
                                strerror(why.sys_errno));
    if (why.desc[0])
        return pascal_error_set(err, PASCAL_EIO, "%s: %s failed (%s)", path, what, why.desc);
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
