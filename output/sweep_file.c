/* Reading a sweep file through the public API (pascal/sink.h): the file's
 * description (output/h5_info.c) held open as a handle, and its columns
 * read on request. */
#include "pascal/sink.h"

#include <stdlib.h>
#include <string.h>

#include "output/h5_info.h"
#include "output/sink.h"

struct pascal_sweep_file {
    char *path;
    pascal_file_info info;
};

int pascal_sweep_file_open(const char *path, pascal_sweep_file **out, pascal_error *err)
{
    pascal_sweep_file *f = calloc(1, sizeof *f);
    int rc;
    *out = NULL;
    if (!f || !(f->path = strdup(path))) {
        free(f);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    }
    if ((rc = pascal_h5_describe(path, &f->info, err)) != 0) {
        pascal_sweep_file_close(f);
        return rc;
    }
    *out = f;
    return 0;
}

void pascal_sweep_file_close(pascal_sweep_file *f)
{
    if (!f)
        return;
    pascal_file_info_free(&f->info);
    free(f->path);
    free(f);
}

int64_t pascal_sweep_file_rows(const pascal_sweep_file *f)
{
    return f->info.rows;
}

int pascal_sweep_file_columns(const pascal_sweep_file *f)
{
    return f->info.ncols;
}

const char *pascal_sweep_file_column(const pascal_sweep_file *f, int k, const char **group,
                                     const char **units)
{
    if (k < 0 || k >= f->info.ncols)
        return NULL;
    if (group)
        *group = f->info.cols[k].group;
    if (units)
        *units = f->info.cols[k].units;
    return f->info.cols[k].name;
}

const char *pascal_sweep_file_attr(const pascal_sweep_file *f, const char *key)
{
    return pascal_info_attr_value(&f->info, key);
}

int pascal_sweep_file_read(const pascal_sweep_file *f, const char *group, const char *name,
                           double **values, int64_t *n, pascal_error *err)
{
    return pascal_h5_read_column(f->path, group, name, values, n, err);
}

int pascal_sweep_merge(const char *dest, const char *const *shards, int n, pascal_error *err)
{
    return pascal_h5_merge(dest, shards, n, err);
}
