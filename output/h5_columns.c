/* Reading columns of a sweep file in blocks of rows: each column is opened
 * once and read by hyperslab into caller buffers as float64 (HDF5 converts
 * integer and enum columns), so memory is bounded by the block size. */
#include "report/report_internal.h"

#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

struct rp_reader {
    const char *path;
    hid_t file;
    int n;
    hid_t dset[];
};

void pascal_report_reader_close(rp_reader *r)
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

int pascal_report_reader_open(const rp_file *f, const rp_source *src, int n,
                              rp_reader **out, pascal_error *err)
{
    rp_reader *r = calloc(1, sizeof *r + (size_t)(n > 0 ? n : 1) * sizeof(hid_t));
    if (!r)
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", f->path);
    r->path = f->path;
    r->file = H5Fopen(f->path, H5F_ACC_RDONLY, H5P_DEFAULT);
    for (int i = 0; i < n; i++)
        r->dset[i] = -1;
    if (r->file < 0) {
        free(r);
        H5Eclear2(H5E_DEFAULT);
        return pascal_error_set(err, PASCAL_EIO, "%s: cannot open as HDF5", f->path);
    }
    for (int i = 0; i < n; i++, r->n++) {
        char link[2 * RP_NAME + 8];
        snprintf(link, sizeof link, "%s/%s", src[i].group, src[i].name);
        if ((r->dset[i] = H5Dopen2(r->file, link, H5P_DEFAULT)) < 0) {
            r->n++;
            pascal_report_reader_close(r);
            H5Eclear2(H5E_DEFAULT);
            return pascal_error_set(err, PASCAL_EIO, "%s: cannot open /%s", f->path, link);
        }
    }
    *out = r;
    return 0;
}

int pascal_report_reader_read(rp_reader *r, int64_t start, int64_t count,
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
