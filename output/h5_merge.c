/* Merging shard files: `pascal run --shard k/n` writes the rows of one slice
 * of a sweep's raw indices; concatenating the n finished shards in order
 * gives exactly the rows of a single run.  The merged file starts as a copy
 * of shard 1 (axes, attributes, column types and attributes) and every
 * /points and /results column is extended with the other shards' rows.
 * Written to a temporary name beside the destination and renamed into place
 * only when complete. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/digest.h"
#include "output/fs/lock.h"
#include "output/h5_file.h"
#include "output/sink.h"
#include "output/sink_internal.h"
#include "output/fs/tmpfile.h"

#define COPY_ROWS (1 << 18)

typedef struct shard {
    const char *path;
    int k, n;
    unsigned long long begin, end;
    char *spec;
    pascal_attr inputs[2 * PASCAL_DIGEST_NKEYS]; /* digest.h */
    int ninputs;
} shard;

static int read_shard(const char *path, shard *s, pascal_error *err)
{
    char buf[64], range[64];
    int rc;
    memset(s, 0, sizeof *s);
    s->path = path;
    if (pascal_h5_is_hdf5(path) && (rc = pascal_h5_vet(path, err)) != 0)
        return rc;
    if ((rc = pascal_h5_read_attr(path, "complete", buf, sizeof buf, err)) != 0)
        /* A shard that is missing or not HDF5 is bad input, not a failure. */
        return rc == PASCAL_EIO ? (err->code = PASCAL_EINPUT) : rc;
    if (strcmp(buf, "1") != 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a complete sweep file "
                                "(complete = 1), got complete = %s", path, buf);
    if (pascal_h5_read_attr(path, "shard", buf, sizeof buf, err) != 0 ||
        pascal_h5_read_attr(path, "raw_range", range, sizeof range, err) != 0)
        return err->code;
    if (sscanf(buf, "%d/%d", &s->k, &s->n) != 2 || s->k < 1 || s->k > s->n ||
        sscanf(range, "%llu %llu", &s->begin, &s->end) != 2)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected shard attributes like "
                                "\"2/4\", got shard = \"%s\", raw_range = \"%s\"", path, buf,
                                range);
    if ((rc = pascal_h5_read_attr_alloc(path, "spec", &s->spec, err)))
        return rc;
    s->ninputs = pascal_digest_read_file(path, s->inputs, 2 * PASCAL_DIGEST_NKEYS, err);
    return s->ninputs < 0 ? err->code : 0;
}

static int cmp_shard(const void *a, const void *b)
{
    return ((const shard *)a)->k - ((const shard *)b)->k;
}

/* Every shard of one spec, each once, slices adjacent. */
static int check_shards(shard *s, int n, pascal_error *err)
{
    char label[600], change[200];
    qsort(s, (size_t)n, sizeof *s, cmp_shard);
    /* A shard given twice is that, before any count is compared. */
    for (int i = 1; i < n; i++)
        if (s[i].k == s[i - 1].k && s[i].n == s[i - 1].n)
            return pascal_error_set(err, PASCAL_EINPUT, "%s: expected each shard once, got shard "
                                    "%d/%d twice (also %s)", s[i].path, s[i].k, s[i].n,
                                    s[i - 1].path);
    for (int i = 0; i < n; i++) {
        if (s[i].n != n)
            return pascal_error_set(err, PASCAL_EINPUT, "%s: shard %d/%d: expected %d shards "
                                    "as given on the command line, got a split into %d",
                                    s[i].path, s[i].k, s[i].n, n, s[i].n);
        if (s[i].k != i + 1)
            return pascal_error_set(err, PASCAL_EINPUT, "%s: expected shard %d/%d, got shard "
                                    "%d/%d %s", s[i].path, i + 1, n, s[i].k, s[i].n,
                                    s[i].k == i ? "again" : "(one is missing)");
        if (strcmp(s[i].spec, s[0].spec) != 0)
            return pascal_error_set(err, PASCAL_EINPUT, "%s: expected the spec of %s, got a "
                                    "different spec text", s[i].path, s[0].path);
        /* Shards of a pascal from before input digests cannot be shown to
         * share the inputs of newer ones: one of them is run again. */
        if (pascal_digest_recorded(s[0].inputs, s[0].ninputs) &&
            !pascal_digest_recorded(s[i].inputs, s[i].ninputs))
            return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a shard that records the "
                                    "digests of its inputs, as %s does, got one written before "
                                    "pascal recorded them; run it again", s[i].path, s[0].path);
        if (!pascal_digest_recorded(s[0].inputs, s[0].ninputs) &&
            pascal_digest_recorded(s[i].inputs, s[i].ninputs))
            return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a shard without input "
                                    "digests, as %s (written before pascal recorded them), got "
                                    "one that records them; run %s again", s[i].path, s[0].path,
                                    s[0].path);
        if (pascal_digest_diff(s[0].inputs, s[0].ninputs, s[i].inputs, s[i].ninputs, label,
                               sizeof label, change, sizeof change))
            return pascal_error_set(err, PASCAL_EINPUT, "%s: expected the inputs of %s, got "
                                    "another %s (%s)", s[i].path, s[0].path, label, change);
        if (i > 0 && s[i].begin != s[i - 1].end)
            return pascal_error_set(err, PASCAL_EINPUT, "%s: expected raw indices from %llu, "
                                    "got %llu", s[i].path, s[i - 1].end, s[i].begin);
    }
    return 0;
}

/* Copies the bytes of `from` into the open descriptor `out` (closed here). */
static int copy_file(const char *from, int out, const char *to, pascal_error *err)
{
    char buf[1 << 16];
    ssize_t r = 0;
    int in = open(from, O_RDONLY), rc = 0;
    if (in < 0) {
        close(out);
        return pascal_error_set(err, PASCAL_EIO, "cannot read %s: %s", from, strerror(errno));
    }
    while (rc == 0 && (r = read(in, buf, sizeof buf)) > 0)
        for (ssize_t done = 0, w; rc == 0 && done < r; done += w)
            if ((w = write(out, buf + done, (size_t)(r - done))) <= 0)
                rc = pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", to,
                                      strerror(w == 0 ? ENOSPC : errno));
    if (rc == 0 && r < 0)
        rc = pascal_error_set(err, PASCAL_EIO, "cannot read %s: %s", from, strerror(errno));
    close(in);
    if (close(out) != 0 && rc == 0)
        rc = pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", to, strerror(errno));
    return rc;
}

/* Appends the rows of column `name` of file `in` to the same column of
 * `out`; the two must have the same HDF5 type.  buf holds COPY_ROWS values. */
static int append_column(hid_t out, hid_t in, const char *name, const char *inpath,
                         const char *outpath, void *buf, pascal_error *err)
{
    hid_t dout = H5Dopen2(out, name, H5P_DEFAULT), din = -1, tout = -1, tin = -1, mt = -1;
    hid_t fs = -1, os = -1, ms = -1;
    hsize_t nin = 0, nout = 0, off, cnt;
    int rc = 0;
    if (dout < 0)
        return pascal_h5_fail(err, outpath, name);
    din = H5Dopen2(in, name, H5P_DEFAULT);
    if (din < 0) {
        H5Dclose(dout);
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a column %s as in the "
                                "first shard, got none", inpath, name);
    }
    tout = H5Dget_type(dout), tin = H5Dget_type(din);
    if (tout < 0 || tin < 0 || H5Tequal(tout, tin) <= 0)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: column %s: expected the type it has in "
                              "the first shard, got another", inpath, name);
    if (rc == 0 && ((mt = H5Tget_native_type(tout, H5T_DIR_DEFAULT)) < 0 ||
                    H5Tget_size(mt) > 8 || (fs = H5Dget_space(din)) < 0 ||
                    (os = H5Dget_space(dout)) < 0 ||
                    H5Sget_simple_extent_dims(fs, &nin, NULL) != 1 ||
                    H5Sget_simple_extent_dims(os, &nout, NULL) != 1))
        rc = pascal_h5_fail(err, inpath, name);
    if (rc == 0 && nin > 0) {
        hsize_t total = nout + nin;
        if (H5Dset_extent(dout, &total) < 0)
            rc = pascal_h5_fail(err, outpath, name);
        H5Sclose(os);
        os = rc == 0 ? H5Dget_space(dout) : -1;
        for (off = 0; rc == 0 && off < nin; off += cnt) {
            hsize_t at = nout + off;
            cnt = nin - off < COPY_ROWS ? nin - off : COPY_ROWS;
            ms = H5Screate_simple(1, &cnt, NULL);
            if (ms < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, &off, NULL, &cnt, NULL) < 0 ||
                H5Dread(din, mt, ms, fs, H5P_DEFAULT, buf) < 0)
                rc = pascal_h5_fail(err, inpath, name);
            else if (H5Sselect_hyperslab(os, H5S_SELECT_SET, &at, NULL, &cnt, NULL) < 0 ||
                     H5Dwrite(dout, mt, ms, os, H5P_DEFAULT, buf) < 0)
                rc = pascal_h5_fail(err, outpath, name);
            if (ms >= 0)
                H5Sclose(ms);
        }
    }
    if (fs >= 0) H5Sclose(fs);
    if (os >= 0) H5Sclose(os);
    if (mt >= 0) H5Tclose(mt);
    if (tin >= 0) H5Tclose(tin);
    if (tout >= 0) H5Tclose(tout);
    H5Dclose(din);
    H5Dclose(dout);
    return rc;
}

/* Appends every column of group `g` ("/points" or "/results") of `in`. */
static int append_group(hid_t out, hid_t in, const char *g, const char *inpath,
                        const char *outpath, void *buf, pascal_error *err)
{
    H5G_info_t gi, gin;
    hid_t go = H5Gopen2(out, g, H5P_DEFAULT), gn = H5Gopen2(in, g, H5P_DEFAULT);
    int rc = 0;
    if (go < 0 || gn < 0 || H5Gget_info(go, &gi) < 0 || H5Gget_info(gn, &gin) < 0)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: expected a group %s, got none", inpath, g);
    else if (gi.nlinks != gin.nlinks)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: expected %llu columns in %s as in the "
                              "first shard, got %llu", inpath, (unsigned long long)gi.nlinks, g,
                              (unsigned long long)gin.nlinks);
    for (hsize_t i = 0; rc == 0 && i < gi.nlinks; i++) {
        char name[256], full[300];
        if (H5Lget_name_by_idx(go, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name,
                               H5P_DEFAULT) < 0)
            rc = pascal_h5_fail(err, outpath, g);
        snprintf(full, sizeof full, "%s/%s", g, name);
        if (rc == 0)
            rc = append_column(out, in, full, inpath, outpath, buf, err);
    }
    if (go >= 0) H5Gclose(go);
    if (gn >= 0) H5Gclose(gn);
    return rc;
}

/* Shard 1's copy becomes the whole sweep: its slice widens to every shard's. */
/* tmp is written; messages name dest. */
static int merge_into(const char *tmp, const char *dest, const shard *s, int n,
                      pascal_error *err)
{
    void *buf = malloc((size_t)COPY_ROWS * 8);
    hid_t out = buf ? H5Fopen(tmp, H5F_ACC_RDWR, H5P_DEFAULT) : -1;
    unsigned long long rows = 0;
    char range[64], merged[32];
    int rc = buf ? 0 : pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    if (rc == 0 && out < 0)
        rc = pascal_h5_fail(err, dest, "opening");
    for (int i = 1; rc == 0 && i < n; i++) {
        hid_t in = H5Fopen(s[i].path, H5F_ACC_RDONLY, H5P_DEFAULT);
        if (in < 0)
            rc = pascal_h5_fail(err, s[i].path, "opening");
        if (rc == 0)
            rc = append_group(out, in, "/points", s[i].path, dest, buf, err);
        if (rc == 0)
            rc = append_group(out, in, "/results", s[i].path, dest, buf, err);
        if (in >= 0)
            H5Fclose(in);
    }
    if (rc == 0) {
        hid_t d = H5Dopen2(out, "/points/N", H5P_DEFAULT), sp = d >= 0 ? H5Dget_space(d) : -1;
        hsize_t len = 0;
        if (sp >= 0 && H5Sget_simple_extent_dims(sp, &len, NULL) == 1)
            rows = len;
        if (sp >= 0) H5Sclose(sp);
        if (d >= 0) H5Dclose(d);
        snprintf(range, sizeof range, "%llu %llu", s[0].begin, s[n - 1].end);
        snprintf(merged, sizeof merged, "%d", n);
        if (pascal_h5_attr_i64(out, "points", (int64_t)rows, dest, err) ||
            pascal_h5_attr_str(out, "shard", "1/1", dest, err) ||
            pascal_h5_attr_str(out, "raw_range", range, dest, err) ||
            pascal_h5_attr_str(out, "merged_shards", merged, dest, err))
            rc = err->code;
    }
    if (rc == 0) /* the view of the whole sweep replaces shard 1's */
        rc = pascal_h5cube_write(out, (int64_t)rows, dest, err);
    if (out >= 0 && H5Fclose(out) < 0 && rc == 0)
        rc = pascal_h5_fail(err, dest, "closing");
    free(buf);
    return rc;
}

int pascal_h5_merge(const char *dest, const char *const *inputs, int n, pascal_error *err)
{
    shard *s;
    char *tmp = NULL;
    pascal_input *in;
    pascal_lock *lock = NULL;
    int rc = 0, fd;
    if (!dest || !inputs || n < 1)
        return pascal_error_set(err, PASCAL_EINPUT, "merge: expected an output and shard files, "
                                "got none");
    pascal_h5_quiet();
    s = calloc((size_t)n, sizeof *s);
    in = calloc((size_t)n, sizeof *in);
    if (!s || !in)
        rc = pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    for (int i = 0; rc == 0 && i < n; i++)
        in[i] = (pascal_input){"shard", inputs[i]};
    /* Before any work: dest is no shard, and no one else writes it. */
    if (rc == 0 && (rc = pascal_output_claim(dest, in, n, "pascal merge", &lock, err)) == 0)
        pascal_tmpfile_clean(dest, NULL);
    for (int i = 0; rc == 0 && i < n; i++)
        rc = read_shard(inputs[i], &s[i], err);
    if (rc == 0)
        rc = check_shards(s, n, err);
    if (rc == 0 && (fd = pascal_tmpfile_create(dest, &tmp, err)) < 0)
        rc = fd;
    else if (rc == 0) {
        rc = copy_file(s[0].path, fd, dest, err);
        if (rc == 0)
            rc = merge_into(tmp, dest, s, n, err);
        if (rc == 0)
            rc = pascal_tmpfile_commit(tmp, dest, err);
        else
            pascal_tmpfile_discard(tmp);
    }
    for (int i = 0; s && i < n; i++) {
        free(s[i].spec);
        pascal_digest_free(s[i].inputs, s[i].ninputs);
    }
    pascal_output_release(lock);
    free(s);
    free(in);
    free(tmp);
    return rc;
}
