/* Deciding what a file is for `pascal info` (info/info.h): its kind, and
 * the description that kind calls for.
 *
 * HDF5 files say what they are in their root attribute `format`; the run's
 * completion flag and shard attribute separate finished sweeps, shards and
 * partial runs.  A killed run speaks through its journal (output/
 * h5_recover.c), read with what else a stopped run left beside a file in
 * leftovers.c.  Text files are described by csv.c. */
#include "info/info.h"
#include "info/info_internal.h"

#include <stdio.h>
#include <string.h>

static int classify_h5(const char *path, pascal_file_info *d, pascal_error *err)
{
    const char *fmt = pascal_info_attr_value(d, "format");
    const char *complete = pascal_info_attr_value(d, "complete");
    const char *shard = pascal_info_attr_value(d, "shard");
    int k = 1, n = 1;
    if (fmt && strcmp(fmt, "pascal-calibration") == 0) {
        d->kind = "calibration";
        return 0;
    }
    if (!fmt || strcmp(fmt, "pascal-sweep") != 0) {
        char got[160];
        snprintf(got, sizeof got, fmt ? "an HDF5 file whose format attribute is \"%.100s\""
                                      : "an HDF5 file without a format attribute%s", fmt ? fmt : "");
        return pascal_error_set(err, PASCAL_EINPUT, "%s: " NOT_ONE ": %s", path, got);
    }
    if (shard && sscanf(shard, "%d/%d", &k, &n) != 2)
        k = n = 1;
    d->kind = complete && strcmp(complete, "1") == 0 ? (n > 1 ? "shard" : "sweep") : "partial";
    return 0;
}

/* 1 when the first bytes hold a NUL: not text. */
static int is_binary(const char *path)
{
    unsigned char buf[4096];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    return memchr(buf, 0, n) != NULL;
}

int pascal_info_describe(const char *path, pascal_file_info *d, pascal_error *err)
{
    pascal_error sub = {0};
    int rc = pascal_journal_describe(path, d, &sub);
    if (rc != PASCAL_EINPUT) { /* a journal, or a file that cannot be read */
        if (rc == 0)
            d->kind = "journal";
        else
            *err = sub;
        return rc;
    }
    rc = pascal_h5_describe(path, d, &sub);
    if (rc == 0) {
        if ((rc = classify_h5(path, d, err)))
            pascal_file_info_free(d);
        else if (strcmp(d->kind, "calibration") != 0)
            pascal_info_note_beside(path, d);
        return rc;
    }
    if (pascal_info_describe_killed(path, d) == 0) /* HDF5 cannot read a killed run's file */
        return 0;
    if (rc != PASCAL_EINPUT) {   /* missing or unreadable */
        *err = sub;
        return rc == PASCAL_EIO ? pascal_info_missing_output(path, err) : rc;
    }
    if (is_binary(path))
        return pascal_error_set(err, PASCAL_EINPUT, "%s: " NOT_ONE ": a binary file that is not "
                                "HDF5", path);
    if ((rc = pascal_info_describe_csv(path, d, err)))
        pascal_file_info_free(d);
    return rc;
}
