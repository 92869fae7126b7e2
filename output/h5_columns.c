/* Reading 1-D datasets in blocks of rows: each is opened once and read by
 * hyperslab into caller buffers as float64 (HDF5 converts integer and enum
 * columns), so memory is bounded by the block size.  See h5_file.h. */
#include "output/h5_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/sink_internal.h"

struct pascal_h5_columns {
    const char *path;
    hid_t file;
    int n;
    hid_t dset[];
};

void pascal_h5_columns_close(pascal_h5_columns *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n; i++)
        if (r->dset[i] >= 0)
            H5Dclose(r->dset[i]);
    if (r->file >= 0)
        H5Fclose(r->file);
    free(r);
}

int pascal_h5_columns_open(const char *path, const char *const *names, int n,
                           pascal_h5_columns **out, pascal_error *err)
{
    pascal_h5_columns *r = calloc(1, sizeof *r + (size_t)(n > 0 ? n : 1) * sizeof(hid_t));
    if (!r)
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    pascal_h5_quiet();
    r->path = path;
    r->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    for (int i = 0; i < n; i++)
        r->dset[i] = -1;
    if (r->file < 0) {
        free(r);
        H5Eclear2(H5E_DEFAULT);
        return pascal_error_set(err, PASCAL_EIO, "%s: cannot open as HDF5", path);
    }
    for (int i = 0; i < n; i++, r->n++) {
        if ((r->dset[i] = H5Dopen2(r->file, names[i], H5P_DEFAULT)) < 0) {
            r->n++;
            pascal_h5_columns_close(r);
            H5Eclear2(H5E_DEFAULT);
            return pascal_error_set(err, PASCAL_EIO, "%s: cannot open /%s", path, names[i]);
        }
    }
    *out = r;
    return 0;
}

int pascal_h5_columns_read(pascal_h5_columns *r, int64_t start, int64_t count,
                           double *const *bufs, pascal_error *err)
{
    hsize_t off[1] = {(hsize_t)start}, cnt[1] = {(hsize_t)count};
    hid_t mem = H5Screate_simple(1, cnt, NULL);
    int rc = 0;
    if (mem < 0)
        return pascal_error_set(err, PASCAL_EIO, "%s: cannot make a dataspace", r->path);
    for (int i = 0; i < r->n && rc == 0; i++) {
        hid_t space = H5Dget_space(r->dset[i]);
        if (space < 0 ||
            H5Sselect_hyperslab(space, H5S_SELECT_SET, off, NULL, cnt, NULL) < 0 ||
            H5Dread(r->dset[i], H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, bufs[i]) < 0)
            rc = pascal_error_set(err, PASCAL_EIO, "%s: reading rows %lld..%lld failed",
                                  r->path, (long long)start, (long long)(start + count - 1));
        if (space >= 0)
            H5Sclose(space);
    }
    H5Sclose(mem);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}
