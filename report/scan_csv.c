/* Reading a sweep written by `pascal run --format csv` for the report.
 *
 * A CSV carries only column names and values, so what the HDF5 file states
 * is rebuilt here: names, units and descriptions come from the vocabulary
 * (vocab/params.h), pattern and path labels become the codes the HDF5
 * writer uses, and the axes are the point columns, less the derived N, M
 * and C.  The writer puts every swept axis first, in canonical order, then
 * N, M and C when they are not axes (and a workload's block_bytes); so a
 * trailing run of N, M, C, block_bytes in that order is derived, except a column that varies while nothing it could be
 * derived from is in the file (N from data_bytes or block_bytes, M from
 * sms, occupancy or phases, C from capacity_bytes or block_bytes): that one
 * was swept.  A spec that sweeps N (or M) right before those columns while
 * also sweeping what would derive it is the one case read wrongly.
 *
 * The spec text, provenance, completion flag and the listed order of an
 * axis whose first values `where` dropped are not in a CSV; the page says
 * the file is a CSV.  The file is read twice, a line at a time: once here
 * for the axes' values, once by the report for the rows. */
#include "report/report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/phases.h"
#include "output/csv_read.h"
#include "vocab/params.h"

#define MAX_DISTINCT (1 << 24)   /* values of one axis */

/* Distinct values of one point column in order of first appearance. */
typedef struct distinct {
    double *v;
    int64_t n, cap;
    uint64_t *slot;   /* open addressing: index + 1, 0 empty */
    int64_t nslot;
} distinct;

static uint64_t mix(double x)
{
    uint64_t h;
    memcpy(&h, &x, sizeof h);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 33);
}

static int distinct_grow(distinct *d)
{
    int64_t ns = d->nslot ? 2 * d->nslot : 64;
    uint64_t *slot = calloc((size_t)ns, sizeof *slot);
    double *v = realloc(d->v, (size_t)(ns / 2) * sizeof *v);
    if (!slot || !v) {
        free(slot);
        if (v)
            d->v = v;
        return -1;
    }
    d->v = v, d->cap = ns / 2;
    for (int64_t i = 0; i < d->n; i++) {
        uint64_t k = mix(d->v[i]) & (uint64_t)(ns - 1);
        while (slot[k])
            k = (k + 1) & (uint64_t)(ns - 1);
        slot[k] = (uint64_t)i + 1;
    }
    free(d->slot);
    d->slot = slot, d->nslot = ns;
    return 0;
}

static int distinct_add(distinct *d, double x)
{
    uint64_t k;
    if (d->n >= d->cap && (d->n >= MAX_DISTINCT || distinct_grow(d) != 0))
        return -1;
    for (k = mix(x) & (uint64_t)(d->nslot - 1); d->slot[k];
         k = (k + 1) & (uint64_t)(d->nslot - 1))
        if (memcmp(&d->v[d->slot[k] - 1], &x, sizeof x) == 0)
            return 0;
    d->v[d->n] = x;
    d->slot[k] = (uint64_t)++d->n;
    return 0;
}

/* One CSV column: a point parameter (param >= 0) or a result column. */
typedef struct csv_col {
    int param, result;
    distinct seen;       /* point columns */
} csv_col;

static int is_label(int param)
{
    return param >= 0 && (pascal_params[param].type == PASCAL_T_PATTERN ||
                          pascal_params[param].type == PASCAL_T_PATH ||
                          pascal_params[param].type == PASCAL_T_NAME);
}

/* The names a label column's codes stand for, and how many. */
static const char *const *label_names(int param, int *n)
{
    switch (pascal_params[param].type) {
    case PASCAL_T_PATH: *n = PASCAL_PATH_COUNT; return pascal_path_names;
    case PASCAL_T_PATTERN: *n = PASCAL_PATTERN_COUNT; return pascal_pattern_names;
    default: *n = pascal_params[param].nlabels; return pascal_params[param].labels;
    }
}

/* A field as the number the HDF5 file would hold (labels as codes, empty as
 * NaN); -1 when it is not one. */
static int field_value(int param, const char *s, double *out)
{
    char *end;
    if (is_label(param)) {
        int n;
        const char *const *names = label_names(param, &n);
        for (int i = 0; i < n; i++)
            if (strcmp(names[i], s) == 0) {
                *out = i;
                return 0;
            }
        return -1;
    }
    if (!s[0]) {
        *out = NAN;
        return param >= 0 ? -1 : 0;   /* only results may be null */
    }
    *out = strtod(s, &end);
    return *end ? -1 : 0;
}

static int header_columns(pascal_csv_reader *r, csv_col *c, const char *path, pascal_error *err)
{
    int nres = 0;
    for (int j = 0; j < pascal_csv_ncols(r); j++) {
        const char *name = pascal_csv_name(r, j);
        c[j].param = pascal_param_from_name(name);
        c[j].result = c[j].param < 0 ? pascal_column_from_name(name) : -1;
        if (c[j].param < 0 && c[j].result < 0)
            return pascal_error_set(err, PASCAL_EINPUT, "%s:%lld: expected an HDF5 sweep file or "
                                    "the CSV of pascal run --format csv, got a column \"%.60s\" "
                                    "that is neither a sweep parameter nor a result column", path,
                                    (long long)pascal_csv_line(r), name);
        nres += c[j].result >= 0;
    }
    if (nres == 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected at least one result column, "
                                "got none", path);
    return 0;
}

/* Pass 1: every value checked, the point columns' distinct values kept. */
static int scan_rows(pascal_csv_reader *r, csv_col *c, rp_file *f, pascal_error *err)
{
    int n = pascal_csv_ncols(r), rc = 1;
    const char **fields = malloc((size_t)n * sizeof *fields);
    if (!fields)
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", f->path);
    while (rc == 1 && (rc = pascal_csv_next(r, fields, err)) == 1) {
        for (int j = 0; j < n && rc == 1; j++) {
            double v;
            if (field_value(c[j].param, fields[j], &v) != 0)
                rc = pascal_error_set(err, PASCAL_EINPUT, "%s:%lld: %s: expected %s, got \"%.40s\"",
                                      f->path, (long long)pascal_csv_line(r), pascal_csv_name(r, j),
                                      is_label(c[j].param) ? "a label" : "a number", fields[j]);
            else if (c[j].param >= 0 && distinct_add(&c[j].seen, v) != 0)
                rc = pascal_error_set(err, PASCAL_EINPUT, "%s: %s: expected at most %d distinct "
                                      "values, got more", f->path, pascal_csv_name(r, j),
                                      MAX_DISTINCT);
        }
        f->rows += rc == 1;
    }
    free(fields);
    if (rc == 0 && f->rows < 1)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: expected at least one row, got none",
                              f->path);
    return rc;
}

static int has_param(const csv_col *c, int n, int p1, int p2, int p3)
{
    for (int j = 0; j < n; j++)
        if (c[j].param >= 0 && (c[j].param == p1 || c[j].param == p2 || c[j].param == p3))
            return 1;
    return 0;
}

/* Marks derived[j] for the trailing N, M, C the writer appends (above). */
static void find_derived(const csv_col *c, int n, int *derived)
{
    /* a workload's block_bytes comes last, after N, M, C: derived always
     * (a workload refuses block_bytes as an axis) */
    static const int order[4] = {PASCAL_P_N, PASCAL_P_M, PASCAL_P_C, PASCAL_P_BLOCK_BYTES};
    int last = 4;
    for (int j = n - 1; j >= 0; j--) {
        int k = 0;
        if (c[j].param < 0)
            continue;   /* result columns follow the point columns */
        while (k < 4 && order[k] != c[j].param)
            k++;
        if (k >= last)
            break;
        last = k;
        derived[j] = 1;
    }
    for (int j = 0; j < n; j++) {
        int p = c[j].param, source;
        if (!derived[j] || c[j].seen.n < 2 || p == PASCAL_P_BLOCK_BYTES)
            continue;
        source = p == PASCAL_P_N   ? has_param(c, n, PASCAL_P_DATA_BYTES, PASCAL_P_BLOCK_BYTES, -1)
                 : p == PASCAL_P_M ? has_param(c, n, PASCAL_P_SMS, PASCAL_P_OCCUPANCY, PASCAL_P_PHASES)
                                   : has_param(c, n, PASCAL_P_CAPACITY_BYTES, PASCAL_P_BLOCK_BYTES, -1);
        derived[j] = source;
    }
}

static void set_column(rp_column *col, const char *name, int param, int result)
{
    snprintf(col->name, sizeof col->name, "%s", name);
    snprintf(col->units, sizeof col->units, "%s",
             param >= 0 ? pascal_params[param].units : pascal_columns[result].units);
    snprintf(col->description, sizeof col->description, "%s",
             param >= 0 ? pascal_params[param].description : pascal_columns[result].description);
}

static int cmp_column(const void *a, const void *b)
{
    return strcmp(((const rp_column *)a)->name, ((const rp_column *)b)->name);
}

static int cmp_axis(const void *a, const void *b)
{
    return strcmp(((const rp_axis *)a)->name, ((const rp_axis *)b)->name);
}

/* An axis from a point column: its distinct values, and labels for pattern,
 * path, named (dtype, raster, causal, kernel) and phase-list axes as the
 * HDF5 report shows them. */
static int make_axis(rp_file *f, const char *name, const csv_col *c, pascal_error *err)
{
    rp_axis *a = &f->axes[f->naxes++];
    int p = c->param;
    snprintf(a->name, sizeof a->name, "%s", name);
    snprintf(a->units, sizeof a->units, "%s", p == PASCAL_P_PHASES ? "list" : pascal_params[p].units);
    a->count = c->seen.n;
    if (!(a->values = malloc((size_t)a->count * sizeof *a->values)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", f->path);
    memcpy(a->values, c->seen.v, (size_t)a->count * sizeof *a->values);
    if (is_label(p) || p == PASCAL_P_PHASES) {
        int nnames = 0;
        const char *const *names = p == PASCAL_P_PHASES ? NULL : label_names(p, &nnames);
        if (!(a->labels = calloc((size_t)a->count, sizeof *a->labels)))
            return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", f->path);
        for (int64_t k = 0; k < a->count; k++) {
            char buf[40];
            int code = (int)a->values[k];
            if (p == PASCAL_P_PHASES)
                snprintf(buf, sizeof buf, "list %.0f", a->values[k]);
            else
                snprintf(buf, sizeof buf, "%s", code >= 0 && code < nnames ? names[code] : "?");
            if (!(a->labels[k] = strdup(buf)))
                return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", f->path);
        }
    }
    return 0;
}

static int add_csv_attr(rp_file *f, const char *key, const char *value)
{
    rp_attr *grown = realloc(f->attrs, (size_t)(f->nattrs + 1) * sizeof *f->attrs);
    if (!grown)
        return -1;
    f->attrs = grown;
    grown[f->nattrs].key = strdup(key);
    grown[f->nattrs].value = strdup(value);
    f->nattrs++;
    return grown[f->nattrs - 1].key && grown[f->nattrs - 1].value ? 0 : -1;
}

/* Columns, axes and attributes of the file from pass 1. */
static int build_file(pascal_csv_reader *r, csv_col *c, rp_file *f, pascal_error *err)
{
    int n = pascal_csv_ncols(r), rc = 0, derived[RP_MAX_COLUMNS * 2] = {0};
    char rows[32];
    find_derived(c, n, derived);
    for (int j = 0; j < n && rc == 0; j++) {
        const char *name = pascal_csv_name(r, j);
        if (c[j].param < 0) {
            set_column(&f->results[f->nresults++], name, -1, c[j].result);
            continue;
        }
        set_column(&f->points[f->npoints++], name, c[j].param, -1);
        if (derived[j])
            continue;
        if (f->naxes >= RP_MAX_AXES)
            return pascal_error_set(err, PASCAL_EINPUT, "%s: expected at most %d axes", f->path,
                                    RP_MAX_AXES);
        rc = make_axis(f, name, &c[j], err);
    }
    qsort(f->points, (size_t)f->npoints, sizeof *f->points, cmp_column);
    qsort(f->results, (size_t)f->nresults, sizeof *f->results, cmp_column);
    qsort(f->axes, (size_t)f->naxes, sizeof *f->axes, cmp_axis);
    for (int i = 0; rc == 0 && i < f->naxes; i++)
        rc = pascal_report_index_axis(f, &f->axes[i], err);
    snprintf(rows, sizeof rows, "%lld", (long long)f->rows);
    if (rc == 0 && (add_csv_attr(f, "format", "CSV from pascal run --format csv: no spec, "
                                 "provenance or completion flag; axes inferred from the point "
                                 "columns") ||
                    add_csv_attr(f, "points", rows)))
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", f->path);
    return rc;
}

#define MAX_CELLS ((int64_t)1 << 24) /* points counted for repetition */

/* More rows than the axes have points: a point repeats.  A sampled sweep
 * may draw a point again, but not every point the same number of times;
 * a grid written k times over (one file appended to itself, or every line
 * doubled) does exactly that, and the report would count each row k times.
 * A third read, only when rows exceed the points and these are few. */
static int check_repeats(const char *path, rp_file *f, pascal_error *err)
{
    pascal_csv_reader *r = NULL;
    const char **fields = NULL;
    int col[RP_MAX_AXES], rc;
    int64_t cells = 1, k = -1;
    uint32_t *count = NULL;
    for (int i = 0; i < f->naxes && cells <= MAX_CELLS; i++)
        cells *= f->axes[i].count;
    if (f->naxes == 0 || cells > MAX_CELLS || f->rows <= cells || f->rows % cells != 0)
        return 0;
    if ((rc = pascal_csv_open(path, &r, err)))
        return rc;
    if (!(fields = malloc((size_t)pascal_csv_ncols(r) * sizeof *fields)) ||
        !(count = calloc((size_t)cells, sizeof *count)))
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    for (int i = 0; rc == 0 && i < f->naxes; i++) {
        col[i] = -1;
        for (int j = 0; j < pascal_csv_ncols(r); j++)
            if (strcmp(pascal_csv_name(r, j), f->axes[i].name) == 0)
                col[i] = j;
    }
    while (rc == 0 && (rc = pascal_csv_next(r, fields, err)) == 1) {
        int64_t cell = 0;
        rc = 0;
        for (int i = 0; i < f->naxes && cell >= 0; i++) {
            double v;
            int param = pascal_param_from_name(f->axes[i].name);
            int64_t at = col[i] >= 0 && field_value(param, fields[col[i]], &v) == 0
                             ? pascal_report_axis_index(&f->axes[i], v)
                             : -1;
            cell = at < 0 ? -1 : cell * f->axes[i].count + at;
        }
        if (cell >= 0 && count[cell] < UINT32_MAX)
            count[cell]++;
    }
    if (rc == 0) {
        k = count[0];
        for (int64_t c = 1; c < cells && k > 1; c++)
            if (count[c] != (uint32_t)k)
                k = -1;
        if (k > 1)
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: expected each point once, got every "
                                  "one of its %lld points %lld times (%lld rows): the rows "
                                  "repeat, as in a file appended to itself; report one copy",
                                  path, (long long)cells, (long long)k, (long long)f->rows);
    }
    free(count);
    free(fields);
    pascal_csv_close(r);
    return rc;
}

int pascal_report_scan_csv(const char *path, rp_file *f, pascal_error *err)
{
    pascal_csv_reader *r = NULL;
    csv_col *c = NULL;
    int rc = pascal_csv_open(path, &r, err), n = 0;
    if (rc == 0) {
        n = pascal_csv_ncols(r);
        if (n > RP_MAX_COLUMNS)
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: expected at most %d columns, got %d",
                                  path, RP_MAX_COLUMNS, n);
        else if (!(c = calloc((size_t)n, sizeof *c)))
            rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    }
    if (rc == 0)
        rc = header_columns(r, c, path, err);
    if (rc == 0)
        rc = scan_rows(r, c, f, err);
    if (rc == 0)
        rc = build_file(r, c, f, err);
    if (rc == 0)
        rc = check_repeats(path, f, err);
    for (int j = 0; c && j < n; j++) {
        free(c[j].seen.v);
        free(c[j].seen.slot);
    }
    free(c);
    pascal_csv_close(r);
    f->csv = rc == 0;
    return rc;
}

/* ---- rows in blocks (report/read.c for CSV files) ------------------------ */

struct rp_csv_rows {
    pascal_csv_reader *r;
    const char *path;
    int n;               /* sources */
    int *col;            /* CSV column of each source */
    int *param;          /* its parameter, or -1 for a result */
    const char **fields;
    int64_t next;        /* row the reader is at */
};

void pascal_report_csv_rows_close(rp_csv_rows *c)
{
    if (!c)
        return;
    pascal_csv_close(c->r);
    free(c->col);
    free(c->param);
    free(c->fields);
    free(c);
}

int pascal_report_csv_rows_open(const rp_file *f, const rp_source *src, int n, rp_csv_rows **out,
                                pascal_error *err)
{
    rp_csv_rows *c = calloc(1, sizeof *c);
    int rc = c ? pascal_csv_open(f->path, &c->r, err)
               : pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", f->path);
    if (rc == 0 && (!(c->col = calloc((size_t)n + 1, sizeof *c->col)) ||
                    !(c->param = calloc((size_t)n + 1, sizeof *c->param)) ||
                    !(c->fields = calloc((size_t)pascal_csv_ncols(c->r) + 1, sizeof *c->fields))))
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", f->path);
    for (int i = 0; rc == 0 && i < n; i++) {
        c->col[i] = -1;
        for (int j = 0; j < pascal_csv_ncols(c->r); j++)
            if (strcmp(pascal_csv_name(c->r, j), src[i].name) == 0)
                c->col[i] = j;
        c->param[i] = strcmp(src[i].group, "points") == 0 ? pascal_param_from_name(src[i].name) : -1;
        if (c->col[i] < 0)
            rc = pascal_error_set(err, PASCAL_EIO, "%s: no column %s", f->path, src[i].name);
    }
    if (rc) {
        pascal_report_csv_rows_close(c);
        return rc;
    }
    c->path = f->path;
    c->n = n;
    *out = c;
    return 0;
}

int pascal_report_csv_rows_read(rp_csv_rows *c, int64_t start, int64_t count, double *const *bufs,
                                pascal_error *err)
{
    int rc = 0;
    if (start < c->next) {   /* read again from the top */
        if ((rc = pascal_csv_rewind(c->r, err)))
            return rc;
        c->next = 0;
    }
    for (; rc == 0 && c->next < start + count; c->next++) {
        int64_t i = c->next - start;
        if ((rc = pascal_csv_next(c->r, c->fields, err)) == 0)
            return pascal_error_set(err, PASCAL_EIO, "%s: the file ended at row %lld of %lld; "
                                    "did it change?", c->path, (long long)c->next,
                                    (long long)(start + count));
        if (rc < 0)
            return rc;
        rc = 0;
        for (int s = 0; i >= 0 && s < c->n && rc == 0; s++)
            if (field_value(c->param[s], c->fields[c->col[s]], &bufs[s][i]) != 0)
                rc = pascal_error_set(err, PASCAL_EIO, "%s:%lld: the file changed since it was "
                                      "scanned", c->path, (long long)pascal_csv_line(c->r));
    }
    return rc;
}
