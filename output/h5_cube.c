/* The labelled N-D view of a sweep file, /cube, for netCDF-4 tools
 * (xarray with h5netcdf or netCDF4, ncdump).
 *
 * The flat columns /points and /results are what pandas wants; an analyst
 * with xarray wants the cartesian sweep as a cube with named dimensions,
 * coordinates and units.  The view costs no copy of the data: every
 * variable of /cube is an HDF5 virtual dataset mapping its N-D shape onto
 * the rows of the flat column (rows are in canonical order, mixed-radix
 * over the sweep's dimensions with the last fastest, so row r is element r
 * of the cube in C order).  It is written once, from the file's own
 * contents, when a run finishes or a merge completes, so a merge of shards
 * gets the view a single run writes and nothing is ever held in memory
 * beyond one slab of rows.
 *
 * netCDF-4 conventions, as the HDF5 dimension-scale API writes them: each
 * dimension is a dimension scale (CLASS, NAME, REFERENCE_LIST) with the
 * int32 attribute _Netcdf4Dimid; each variable names its dimensions in
 * DIMENSION_LIST; coordinates that are not dimensions are listed in the
 * variables' `coordinates` attribute (CF); every variable carries `units`
 * and `long_name` (the column's description).  Enum labels become UTF-8
 * strings in a dimension's coordinate, since netCDF readers do not decode
 * HDF5 enums; along `point` they keep their codes (see commit_enum).
 *
 * Layouts (the group's attribute `layout`):
 *   "cube"    when every dimension holds axes of one length and the rows are
 *             the whole product (no `where` dropped a point): one dimension
 *             per sweep dimension, named after its first axis, whose values
 *             are its coordinate; the other axes of a zip group are 1-D
 *             coordinates along it; point columns that are not axes (N, M,
 *             C when derived) are N-D coordinates.
 *   "points"  otherwise (rows dropped by `where`, a shard's slice, no axes):
 *             one dimension `point` over the rows, without values, and every
 *             point column as a 1-D coordinate along it.
 * A file without rows, or written before the axes recorded their dimension
 * (/axes/<name>@dim), gets no /cube. */
#include "output/sink_internal.h"

#include <hdf5_hl.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIMS 32          /* HDF5's largest rank */
#define SLAB_ROWS (1 << 18)  /* labels converted at a time */
#define NC_DIM_ONLY "This is a netCDF dimension but not a netCDF variable."

typedef struct cube_axis {
    char name[256];
    int64_t dim, order, count;
} cube_axis;

typedef struct cube {
    hid_t file, grp;
    const char *path;
    pascal_error *err;
    int64_t rows;
    cube_axis *ax;           /* swept axes, in canonical order */
    int nax;
    int ndim;                /* 0: the "points" layout */
    hsize_t dims[MAX_DIMS];
    int first[MAX_DIMS];     /* per dimension: its coordinate axis (index in ax) */
    hid_t scale[MAX_DIMS];   /* per dimension ("points": scale[0] is `point`) */
    char *coords;            /* the `coordinates` attribute of the results */
    size_t ncoords;
} cube;

static int fail(cube *c, const char *what, const char *name)
{
    char buf[400];
    snprintf(buf, sizeof buf, "writing /cube/%s (%s)", name, what);
    return pascal_h5_fail(c->err, c->path, buf);
}

/* ---- recording each axis's dimension when the file is created ------------ */

static int axis_attrs(hid_t axes, const char *name, int64_t dim, int64_t order,
                      const char *path, pascal_error *err)
{
    hid_t obj = H5Oopen(axes, name, H5P_DEFAULT);
    int rc;
    if (obj < 0)
        return pascal_h5_fail(err, path, "opening an axis");
    if ((rc = pascal_h5_attr_i64(obj, "dim", dim, path, err)) == 0)
        rc = pascal_h5_attr_i64(obj, "order", order, path, err);
    H5Oclose(obj);
    return rc;
}

int pascal_h5cube_axes(hid_t file, const pascal_sink_meta *meta, const char *path,
                       pascal_error *err)
{
    hid_t axes;
    int rc = 0;
    if (meta->naxes == 0)
        return 0;
    if ((axes = H5Gopen2(file, "axes", H5P_DEFAULT)) < 0)
        return pascal_h5_fail(err, path, "opening /axes");
    for (int i = 0; rc == 0 && i < meta->naxes; i++) {
        int64_t dim = meta->axis_dims ? meta->axis_dims[i] : i;
        if (i > 0 && meta->axis_dims && dim < meta->axis_dims[i - 1])
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: axes/%s: dimension %lld after %lld; "
                                  "expected canonical order", path, meta->axes[i].name,
                                  (long long)dim, (long long)meta->axis_dims[i - 1]);
        else
            rc = axis_attrs(axes, meta->axes[i].name, dim, i, path, err);
    }
    H5Gclose(axes);
    return rc;
}

/* ---- reading the axes back ----------------------------------------------- */

/* Length of a 1-D dataset (or of /axes/phases@values); -1 when not one. */
static int64_t axis_count(hid_t obj, int is_group)
{
    hid_t a = -1, s;
    int64_t n = -1;
    if (is_group) {
        if (H5Aexists(obj, "values") <= 0 || (a = H5Aopen(obj, "values", H5P_DEFAULT)) < 0)
            return -1;
        s = H5Aget_space(a);
    } else {
        s = H5Dget_space(obj);
    }
    if (s >= 0 && H5Sget_simple_extent_ndims(s) == 1)
        n = H5Sget_simple_extent_npoints(s);
    if (s >= 0)
        H5Sclose(s);
    if (a >= 0)
        H5Aclose(a);
    return n;
}

static int read_i64_attr(hid_t obj, const char *key, int64_t *out)
{
    hid_t a;
    int ok;
    if (H5Aexists(obj, key) <= 0 || (a = H5Aopen(obj, key, H5P_DEFAULT)) < 0)
        return -1;
    ok = H5Aread(a, H5T_NATIVE_INT64, out) >= 0;
    H5Aclose(a);
    return ok ? 0 : -1;
}

static int cmp_order(const void *x, const void *y)
{
    int64_t a = ((const cube_axis *)x)->order, b = ((const cube_axis *)y)->order;
    return (a > b) - (a < b);
}

/* Fills c->ax from /axes; returns 1 when an axis lacks @dim (an older file). */
static int read_axes(cube *c)
{
    H5G_info_t gi;
    hid_t axes;
    int rc = 0;
    if (H5Lexists(c->file, "axes", H5P_DEFAULT) <= 0)
        return 0;
    if ((axes = H5Gopen2(c->file, "axes", H5P_DEFAULT)) < 0 || H5Gget_info(axes, &gi) < 0)
        return pascal_h5_fail(c->err, c->path, "reading /axes");
    if (!(c->ax = calloc(gi.nlinks + 1, sizeof *c->ax)))
        rc = pascal_error_set(c->err, PASCAL_ENOMEM, "%s: out of memory", c->path);
    for (hsize_t i = 0; rc == 0 && i < gi.nlinks; i++) {
        cube_axis *a = &c->ax[c->nax];
        hid_t obj;
        int grp;
        if (H5Lget_name_by_idx(axes, ".", H5_INDEX_NAME, H5_ITER_INC, i, a->name,
                               sizeof a->name, H5P_DEFAULT) < 0 ||
            (obj = H5Oopen(axes, a->name, H5P_DEFAULT)) < 0) {
            rc = pascal_h5_fail(c->err, c->path, "reading /axes");
            break;
        }
        grp = H5Iget_type(obj) == H5I_GROUP;
        a->count = axis_count(obj, grp);
        if (grp && a->count < 0) {
            H5Oclose(obj);   /* fixed phase lists, not an axis */
            continue;
        }
        if (read_i64_attr(obj, "dim", &a->dim) != 0 || read_i64_attr(obj, "order", &a->order) != 0)
            rc = 1;
        else if (a->count < 1)
            rc = pascal_error_set(c->err, PASCAL_EINPUT, "%s: /axes/%s: expected a list of "
                                  "values", c->path, a->name);
        c->nax++;
        H5Oclose(obj);
    }
    H5Gclose(axes);
    H5Eclear2(H5E_DEFAULT);
    if (rc == 0)
        qsort(c->ax, (size_t)c->nax, sizeof *c->ax, cmp_order);
    return rc;
}

/* The "cube" layout when the axes form whole dimensions whose product is
 * the row count; else c->ndim stays 0 ("points"). */
static void choose_layout(cube *c)
{
    unsigned __int128 product = 1;
    int nd = 0;
    for (int i = 0; i < c->nax; i++) {
        if (i == 0 || c->ax[i].dim != c->ax[i - 1].dim) {
            if (nd == MAX_DIMS)
                return;
            c->first[nd] = i;
            c->dims[nd++] = (hsize_t)c->ax[i].count;
            product *= (unsigned __int128)c->ax[i].count;
        } else if ((hsize_t)c->ax[i].count != c->dims[nd - 1]) {
            return;  /* a zip group of unequal lengths: not this writer's file */
        }
    }
    if (nd > 0 && product == (unsigned __int128)c->rows)
        c->ndim = nd;
}

/* ---- writing ---------------------------------------------------------------- */

/* A scalar string attribute of fixed length.  Variable-length strings would
 * each take a slot in a global heap collection of at least 4 KiB; one NUL
 * more than the text keeps even "" a string (not bytes) for h5netcdf. */
static int text_attr(cube *c, hid_t obj, const char *key, const char *value)
{
    size_t n = strlen(value) + 1;
    hid_t t = H5Tcopy(H5T_C_S1), s = H5Screate(H5S_SCALAR), a = -1;
    int ok = t >= 0 && s >= 0 && H5Tset_size(t, n) >= 0 &&
             H5Tset_strpad(t, H5T_STR_NULLTERM) >= 0 && H5Tset_cset(t, H5T_CSET_UTF8) >= 0 &&
             (a = H5Acreate2(obj, key, t, s, H5P_DEFAULT, H5P_DEFAULT)) >= 0 &&
             H5Awrite(a, t, value) >= 0;
    if (a >= 0) H5Aclose(a);
    if (s >= 0) H5Sclose(s);
    if (t >= 0) H5Tclose(t);
    return ok ? 0 : fail(c, "writing an attribute", key);
}

/* units and long_name (CF's label: the column's description) from the flat
 * column src. */
static int var_attrs(cube *c, hid_t dset, const char *src)
{
    char *units = NULL, *desc = NULL;
    hid_t s = H5Dopen2(c->file, src, H5P_DEFAULT);
    int rc;
    if (s < 0)
        return fail(c, "opening the column", src);
    if (H5Aexists(s, "units") > 0)
        pascal_h5_attr_text(s, c->path, "units", &units, c->err);
    if (H5Aexists(s, "description") > 0)
        pascal_h5_attr_text(s, c->path, "description", &desc, c->err);
    H5Dclose(s);
    rc = text_attr(c, dset, "units", units ? units : "");
    if (rc == 0)
        rc = text_attr(c, dset, "long_name", desc ? desc : "");
    free(units);
    free(desc);
    return rc;
}

/* Makes dset the netCDF dimension `name` with id dimid. */
static int make_scale(cube *c, hid_t dset, const char *name, int dimid)
{
    hid_t s = H5Screate(H5S_SCALAR), a = -1;
    int ok = s >= 0 && H5DSset_scale(dset, name) >= 0 &&
             (a = H5Acreate2(dset, "_Netcdf4Dimid", H5T_STD_I32LE, s, H5P_DEFAULT,
                             H5P_DEFAULT)) >= 0 &&
             H5Awrite(a, H5T_NATIVE_INT, &dimid) >= 0;
    if (a >= 0)
        H5Aclose(a);
    if (s >= 0)
        H5Sclose(s);
    return ok ? 0 : fail(c, "making a dimension scale", name);
}

/* Names dims[0..n-1] (indices into c->scale) as the dimensions of dset. */
static int attach(cube *c, hid_t dset, const char *name, const int *dims, int n)
{
    for (int i = 0; i < n; i++)
        if (H5DSattach_scale(dset, c->scale[dims[i]], (unsigned)i) < 0)
            return fail(c, "attaching a dimension", name);
    return 0;
}

/* Member names of an enum type indexed by value (codes 0..n-1). */
static char **enum_names(hid_t type, int *n)
{
    int nm = H5Tget_nmembers(type);
    char **names = nm > 0 ? calloc((size_t)nm, sizeof *names) : NULL;
    for (int i = 0; names && i < nm; i++) {
        long long v = 0;
        char *s = H5Tget_member_name(type, (unsigned)i);
        hid_t super = H5Tget_super(type);
        unsigned char raw[16] = {0};
        int ok = s && super >= 0 && H5Tget_size(type) <= sizeof raw &&
                 H5Tget_member_value(type, (unsigned)i, raw) >= 0 &&
                 H5Tconvert(super, H5T_NATIVE_LLONG, 1, raw, NULL, H5P_DEFAULT) >= 0;
        if (super >= 0)
            H5Tclose(super);
        memcpy(&v, raw, sizeof v);
        if (ok && v >= 0 && v < nm && !names[v])
            names[v] = strdup(s);
        if (s)
            H5free_memory(s);
    }
    for (int i = 0; names && i < nm; i++)
        if (!names[i]) {
            for (int j = 0; j < nm; j++)
                free(names[j]);
            free(names);
            return NULL;
        }
    *n = nm;
    return names;
}

static void free_names(char **names, int n)
{
    for (int i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}

/* Writes rows [0, n) of enum column `src` as label strings into the
 * 1-D dataset dst (variable-length strings), SLAB_ROWS at a time. */
static int copy_labels(cube *c, hid_t src, hid_t dst, hid_t stype, char **names, int nnames,
                       int64_t n, const char *name)
{
    int64_t *codes = malloc(SLAB_ROWS * sizeof *codes);
    const char **text = malloc(SLAB_ROWS * sizeof *text);
    hid_t fs = H5Dget_space(src), ts = H5Dget_space(dst);
    int rc = codes && text ? 0 : pascal_error_set(c->err, PASCAL_ENOMEM, "%s: out of memory",
                                                  c->path);
    for (hsize_t off = 0; rc == 0 && off < (hsize_t)n; off += SLAB_ROWS) {
        hsize_t cnt = (hsize_t)n - off < SLAB_ROWS ? (hsize_t)n - off : SLAB_ROWS;
        hid_t ms = H5Screate_simple(1, &cnt, NULL);
        if (ms < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, &off, NULL, &cnt, NULL) < 0 ||
            H5Dread(src, H5T_NATIVE_INT64, ms, fs, H5P_DEFAULT, codes) < 0)
            rc = fail(c, "reading the enum column", name);
        for (hsize_t i = 0; rc == 0 && i < cnt; i++) {
            if (codes[i] < 0 || codes[i] >= nnames)
                rc = pascal_error_set(c->err, PASCAL_EINPUT, "%s: /points/%s: row %llu: code "
                                      "%lld is not a label", c->path, name,
                                      (unsigned long long)(off + i), (long long)codes[i]);
            else
                text[i] = names[codes[i]];
        }
        if (rc == 0 && (H5Sselect_hyperslab(ts, H5S_SELECT_SET, &off, NULL, &cnt, NULL) < 0 ||
                        H5Dwrite(dst, stype, ms, ts, H5P_DEFAULT, text) < 0))
            rc = fail(c, "writing labels", name);
        if (ms >= 0)
            H5Sclose(ms);
    }
    if (fs >= 0)
        H5Sclose(fs);
    if (ts >= 0)
        H5Sclose(ts);
    free(codes);
    free(text);
    return rc;
}

/* /cube/<name>: the n values of the enum axis src as variable-length
 * strings, netCDF-4's own string type (netCDF-C before 4.9.1 cannot read
 * arrays of fixed-length strings). */
static int write_label_var(cube *c, hid_t src, const char *name, int64_t n, hid_t *out)
{
    hid_t ftype = H5Dget_type(src), stype = -1, space = -1, d = -1;
    hsize_t dims[1] = {(hsize_t)n};
    int nnames = 0, rc;
    char **names = ftype >= 0 ? enum_names(ftype, &nnames) : NULL;
    if (!names)
        rc = pascal_error_set(c->err, PASCAL_EINPUT, "%s: %s: expected an enum with labels "
                              "for codes 0..n-1", c->path, name);
    else if ((stype = pascal_h5_str_type()) < 0 || (space = H5Screate_simple(1, dims, NULL)) < 0)
        rc = fail(c, "creating a string type", name);
    else {
        d = H5Dcreate2(c->grp, name, stype, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        rc = d < 0 ? fail(c, "creating", name) : copy_labels(c, src, d, stype, names, nnames,
                                                                n, name);
    }
    free_names(names, nnames);
    if (ftype >= 0) H5Tclose(ftype);
    if (stype >= 0) H5Tclose(stype);
    if (space >= 0) H5Sclose(space);
    if (rc && d >= 0)
        H5Dclose(d);
    *out = rc ? -1 : d;
    return rc;
}

/* A copy of values of the numeric dataset or attribute `obj` (n of them). */
static int write_numeric_coord(cube *c, hid_t obj, int is_group, const char *name, int64_t n,
                               hid_t *out)
{
    hid_t a = is_group ? H5Aopen(obj, "values", H5P_DEFAULT) : -1;
    hid_t ftype = is_group ? (a >= 0 ? H5Aget_type(a) : -1) : H5Dget_type(obj);
    int integer = ftype >= 0 && H5Tget_class(ftype) == H5T_INTEGER;
    hid_t mtype = integer ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE;
    hsize_t dims[1] = {(hsize_t)n};
    hid_t space = H5Screate_simple(1, dims, NULL), d = -1;
    void *buf = malloc((size_t)n * 8);
    int ok = ftype >= 0 && space >= 0 && buf &&
             (is_group ? H5Aread(a, mtype, buf) : H5Dread(obj, mtype, H5S_ALL, H5S_ALL,
                                                          H5P_DEFAULT, buf)) >= 0 &&
             (d = H5Dcreate2(c->grp, name, integer ? H5T_STD_I64LE : H5T_IEEE_F64LE, space,
                             H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) >= 0 &&
             H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0;
    free(buf);
    if (space >= 0) H5Sclose(space);
    if (ftype >= 0) H5Tclose(ftype);
    if (a >= 0) H5Aclose(a);
    if (!ok && d >= 0)
        H5Dclose(d);
    *out = ok ? d : -1;
    return ok ? 0 : fail(c, "copying the axis values", name);
}

/* /cube/<name>: the values of axis a (enum labels as strings). */
static int write_axis_var(cube *c, const cube_axis *a, hid_t *out)
{
    char link[300], src[300];
    hid_t obj, t = -1;
    int grp, rc;
    snprintf(link, sizeof link, "axes/%s", a->name);
    if ((obj = H5Oopen(c->file, link, H5P_DEFAULT)) < 0)
        return fail(c, "opening the axis", a->name);
    grp = H5Iget_type(obj) == H5I_GROUP;
    if (!grp)
        t = H5Dget_type(obj);
    if (t >= 0 && H5Tget_class(t) == H5T_ENUM)
        rc = write_label_var(c, obj, a->name, a->count, out);
    else
        rc = write_numeric_coord(c, obj, grp, a->name, a->count, out);
    if (t >= 0)
        H5Tclose(t);
    H5Oclose(obj);
    snprintf(src, sizeof src, "points/%s", a->name);
    if (rc == 0)
        rc = var_attrs(c, *out, H5Lexists(c->file, src, H5P_DEFAULT) > 0 ? src : link);
    if (rc && *out >= 0)
        H5Dclose(*out);
    return rc;
}

/* An enum column along `point` keeps its codes (a virtual dataset over the
 * column, no copy) in the enum type committed as /cube/<name>_t, which
 * netCDF-4 reads as an NC_ENUM (ncdump prints the labels).  Variable-length
 * strings would cost a heap object per row; netCDF-C before 4.9.1 cannot read
 * arrays of fixed-length strings. */
static int commit_enum(cube *c, const char *name, hid_t *type)
{
    char tname[300];
    hid_t t = H5Tcopy(*type);
    snprintf(tname, sizeof tname, "%s_t", name);
    if (t < 0 || H5Tcommit2(c->grp, tname, t, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) < 0) {
        if (t >= 0)
            H5Tclose(t);
        return -1;
    }
    H5Tclose(*type);
    *type = t;
    return 0;
}

/* CF's flag_values and flag_meanings on an enum variable (codes 0..n-1). */
static int flag_attrs(cube *c, hid_t dset, const char *name)
{
    hid_t t = H5Dget_type(dset), s = -1, a = -1;
    int n = 0, ok = 1, rc = 0;
    char **names = t >= 0 && H5Tget_class(t) == H5T_ENUM ? enum_names(t, &n) : NULL;
    if (t >= 0)
        H5Tclose(t);
    if (!names)
        return 0;
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(names[i]) + 1;
    char *meanings = calloc(len, 1);
    int16_t *codes = calloc((size_t)n, sizeof *codes);
    hsize_t dims[1] = {(hsize_t)n};
    for (int i = 0; meanings && codes && i < n; i++) {
        strcat(strcat(meanings, i ? " " : ""), names[i]);
        codes[i] = (int16_t)i;
    }
    ok = meanings && codes && (s = H5Screate_simple(1, dims, NULL)) >= 0 &&
         (a = H5Acreate2(dset, "flag_values", n > INT8_MAX ? H5T_STD_I16LE : H5T_STD_I8LE, s,
                         H5P_DEFAULT, H5P_DEFAULT)) >= 0 &&
         H5Awrite(a, H5T_NATIVE_INT16, codes) >= 0;
    if (a >= 0) H5Aclose(a);
    if (s >= 0) H5Sclose(s);
    rc = ok ? text_attr(c, dset, "flag_meanings", meanings) : fail(c, "writing flags", name);
    free(meanings);
    free(codes);
    free_names(names, n);
    return rc;
}

/* /cube/<name>: a virtual dataset of shape dims[0..rank-1] over the first
 * c->rows rows of the 1-D dataset src (same file), in C order. */
static int write_virtual(cube *c, const char *src, const char *name, int rank,
                         const hsize_t *dims, hid_t *out)
{
    hsize_t start = 0, n = (hsize_t)c->rows;
    hid_t s = H5Dopen2(c->file, src, H5P_DEFAULT), ftype = -1, ss = -1, vs = -1, dcpl = -1;
    int ok = s >= 0 && (ftype = H5Dget_type(s)) >= 0 &&
             (H5Tget_class(ftype) != H5T_ENUM || commit_enum(c, name, &ftype) == 0) &&
             (ss = H5Screate_simple(1, &n, NULL)) >= 0 &&
             H5Sselect_hyperslab(ss, H5S_SELECT_SET, &start, NULL, &n, NULL) >= 0 &&
             (vs = H5Screate_simple(rank, dims, NULL)) >= 0 && H5Sselect_all(vs) >= 0 &&
             (dcpl = H5Pcreate(H5P_DATASET_CREATE)) >= 0 &&
             H5Pset_virtual(dcpl, vs, ".", src, ss) >= 0 &&
             (*out = H5Dcreate2(c->grp, name, ftype, vs, H5P_DEFAULT, dcpl, H5P_DEFAULT)) >= 0;
    if (s >= 0) H5Dclose(s);
    if (ftype >= 0) H5Tclose(ftype);
    if (ss >= 0) H5Sclose(ss);
    if (vs >= 0) H5Sclose(vs);
    if (dcpl >= 0) H5Pclose(dcpl);
    if (!ok)
        return fail(c, "creating the virtual dataset", name);
    return flag_attrs(c, *out, name) ? c->err->code : var_attrs(c, *out, src);
}

/* Appends name to the results' `coordinates` attribute. */
static int add_coord(cube *c, const char *name)
{
    size_t len = c->coords ? strlen(c->coords) : 0, n = strlen(name);
    char *grown = realloc(c->coords, len + n + 2);
    if (!grown)
        return pascal_error_set(c->err, PASCAL_ENOMEM, "%s: out of memory", c->path);
    c->coords = grown;
    if (len)
        grown[len++] = ' ';
    memcpy(grown + len, name, n + 1);
    c->ncoords++;
    return 0;
}

static int is_axis(const cube *c, const char *name)
{
    for (int i = 0; i < c->nax; i++)
        if (strcmp(c->ax[i].name, name) == 0)
            return 1;
    return 0;
}

/* One variable over every dimension for each column of group g ("points"
 * or "results"), skipping axes; point columns become coordinates.  Enum
 * point columns that are not axes exist only in the "points" layout. */
static int write_columns(cube *c, const char *g, int coords)
{
    int all[MAX_DIMS], rank = c->ndim ? c->ndim : 1, rc = 0;
    hsize_t dims1 = (hsize_t)c->rows;
    H5G_info_t gi;
    hid_t grp = H5Gopen2(c->file, g, H5P_DEFAULT);
    for (int i = 0; i < MAX_DIMS; i++)
        all[i] = i;
    if (grp < 0 || H5Gget_info(grp, &gi) < 0) {
        if (grp >= 0)
            H5Gclose(grp);
        return pascal_h5_fail(c->err, c->path, g);
    }
    for (hsize_t i = 0; rc == 0 && i < gi.nlinks; i++) {
        char name[256], src[300];
        hid_t d = -1, s, t;
        int is_enum;
        if (H5Lget_name_by_idx(grp, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name,
                               H5P_DEFAULT) < 0) {
            rc = pascal_h5_fail(c->err, c->path, g);
            break;
        }
        if (c->ndim && is_axis(c, name))
            continue;
        snprintf(src, sizeof src, "%s/%s", g, name);
        s = H5Dopen2(c->file, src, H5P_DEFAULT);
        t = s >= 0 ? H5Dget_type(s) : -1;
        is_enum = t >= 0 && H5Tget_class(t) == H5T_ENUM;
        if (s < 0 || t < 0)
            rc = fail(c, "opening the column", name);
        else if (!is_enum || !c->ndim) /* in a cube, an enum that is not an axis has no grid */
            rc = write_virtual(c, src, name, rank, c->ndim ? c->dims : &dims1, &d);
        if (t >= 0) H5Tclose(t);
        if (s >= 0) H5Dclose(s);
        if (rc == 0 && d >= 0)
            rc = attach(c, d, name, all, rank);
        if (rc == 0 && d >= 0 && coords)
            rc = add_coord(c, name);
        if (rc == 0 && d >= 0 && !coords && c->coords)
            rc = text_attr(c, d, "coordinates", c->coords);
        if (d >= 0)
            H5Dclose(d);
    }
    H5Gclose(grp);
    return rc;
}

/* "cube": a coordinate per dimension; the other axes of a zip group are
 * coordinates along it. */
static int write_dimensions(cube *c)
{
    int rc = 0, d = -1;
    for (int i = 0; rc == 0 && i < c->nax; i++) {
        hid_t v = -1;
        if (d + 1 < c->ndim && c->first[d + 1] == i)
            d++;
        if ((rc = write_axis_var(c, &c->ax[i], &v)))
            break;
        if (c->first[d] == i) {
            rc = make_scale(c, v, c->ax[i].name, d);
            c->scale[d] = v;   /* closed by pascal_h5cube_write */
            continue;
        }
        rc = attach(c, v, c->ax[i].name, &d, 1);
        if (rc == 0)
            rc = add_coord(c, c->ax[i].name);
        H5Dclose(v);
    }
    return rc;
}

/* 1 when /points or /results has a column called name. */
static int has_column(const cube *c, const char *name)
{
    char link[300];
    for (int g = 0; g < 2; g++) {
        snprintf(link, sizeof link, "%s/%s", g ? "results" : "points", name);
        if (H5Lexists(c->file, g ? "results" : "points", H5P_DEFAULT) > 0 &&
            H5Lexists(c->file, link, H5P_DEFAULT) > 0)
            return 1;
    }
    return 0;
}

/* "points": the dimension `point` (`row` when a column is called point)
 * without values (netCDF's marker for a dimension that is not a variable),
 * so nothing is written per row. */
static int write_point_dimension(cube *c)
{
    char marker[128];
    const char *name = !has_column(c, "point") ? "point" : !has_column(c, "row") ? "row" : "_row";
    hsize_t n = (hsize_t)c->rows;
    hid_t s = H5Screate_simple(1, &n, NULL);
    snprintf(marker, sizeof marker, "%s%10lld", NC_DIM_ONLY, (long long)c->rows);
    c->scale[0] = s >= 0 ? H5Dcreate2(c->grp, name, H5T_IEEE_F32LE, s, H5P_DEFAULT, H5P_DEFAULT,
                                      H5P_DEFAULT)
                         : -1;
    if (s >= 0)
        H5Sclose(s);
    if (c->scale[0] < 0)
        return fail(c, "creating the dimension", name);
    return make_scale(c, c->scale[0], marker, 0);
}

int pascal_h5cube_write(hid_t file, int64_t rows, const char *path, pascal_error *err)
{
    cube c;
    int rc;
    memset(&c, 0, sizeof c);
    c.file = file, c.path = path, c.err = err, c.rows = rows, c.grp = -1;
    for (int i = 0; i < MAX_DIMS; i++)
        c.scale[i] = -1;
    if (H5Lexists(file, "cube", H5P_DEFAULT) > 0 && H5Ldelete(file, "cube", H5P_DEFAULT) < 0)
        return pascal_h5_fail(err, path, "replacing /cube");
    if (rows < 1 || (rc = read_axes(&c)) == 1) {
        free(c.ax);   /* no rows, or an older file: no view */
        return 0;
    }
    if (rc == 0) {
        choose_layout(&c);
        if ((c.grp = H5Gcreate2(file, "cube", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
            rc = pascal_h5_fail(err, path, "creating /cube");
    }
    if (rc == 0)
        rc = text_attr(&c, c.grp, "layout", c.ndim ? "cube" : "points");
    if (rc == 0)
        rc = c.ndim ? write_dimensions(&c) : write_point_dimension(&c);
    if (rc == 0)
        rc = write_columns(&c, "points", 1);
    if (rc == 0)
        rc = write_columns(&c, "results", 0);
    for (int i = 0; i < MAX_DIMS; i++)
        if (c.scale[i] >= 0)
            H5Dclose(c.scale[i]);
    if (c.grp >= 0)
        H5Gclose(c.grp);
    free(c.ax);
    free(c.coords);
    return rc;
}
