/* `pascal info` on a text file (info/info_internal.h): CSV files say what
 * they are only in their header, the reference-run header of
 * calibrate/, or column names that are all in the sweep vocabulary
 * (vocab/params.h), which also gives their units.  Each is read once, row by
 * row, for its row count and the columns' ranges or labels. */
#include "info/info_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "model/phases.h"
#include "output/csv_read.h"
#include "vocab/params.h"
#include "sweeps/spec.h"

static int grow_cols(pascal_file_info *d)
{
    pascal_info_column *c = realloc(d->cols, (size_t)(d->ncols + 1) * sizeof *c);
    if (!c)
        return -1;
    d->cols = c;
    memset(&c[d->ncols], 0, sizeof *c);
    c[d->ncols].min = c[d->ncols].max = NAN;
    d->ncols++;
    return 0;
}

static int add_attr(pascal_file_info *d, const char *key, const char *value)
{
    pascal_info_attr *a = realloc(d->attrs, (size_t)(d->nattrs + 1) * sizeof *a);
    if (!a)
        return -1;
    d->attrs = a;
    a[d->nattrs].key = strdup(key);
    a[d->nattrs].value = strdup(value);
    d->nattrs++;
    return a[d->nattrs - 1].key && a[d->nattrs - 1].value ? 0 : -1;
}

static void widen(pascal_info_column *c, double v)
{
    if (isnan(v))
        return;
    if (isnan(c->min) || v < c->min)
        c->min = v;
    if (isnan(c->max) || v > c->max)
        c->max = v;
}

/* Appends a label the first time its code appears (codes < 64). */
static void add_label(pascal_info_column *c, const char *label, int code, uint64_t *seen)
{
    size_t used = strlen(c->labels);
    if (code >= 64 || (*seen >> code & 1) || used + strlen(label) + 3 >= sizeof c->labels)
        return;
    *seen |= (uint64_t)1 << code;
    snprintf(c->labels + used, sizeof c->labels - used, "%s%s", used ? ", " : "", label);
}

/* ---- CSV: reference runs --------------------------------------------------- */

/* The '#' lines before the header: provenance of a reference set. */
static int leading_comments(const char *path, pascal_file_info *d)
{
    char line[512], text[2048] = "";
    size_t used = 0;
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f) && line[0] == '#') {
        char *s = line + 1 + (line[1] == ' ');
        s[strcspn(s, "\r\n")] = '\0';
        if (used + strlen(s) + 2 < sizeof text)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", used ? "\n" : "", s);
    }
    if (f)
        fclose(f);
    return used ? add_attr(d, "comments", text) : 0;
}

static int describe_refs(const char *path, pascal_file_info *d, pascal_error *err)
{
    static const char *const names[7] = {"o", "path", "d", "m", "N", "W", "K"};
    static const char *const units[7] = {"CTAs/SM", "", "buffers", "WMMA/block", "blocks",
                                         "scans", "fills per unit work"};
    static const char *const what[7] = {
        "resident CTAs per SM", "load path (sync or tma)", "prefetch depth (0 for sync)",
        "compute (WMMA operations) per block", "blocks per CTA scan",
        "CTA scans per resident worker", "measured A(H)/H"};
    pascal_refs refs;
    uint64_t seen = 0;
    int rc = pascal_calibrate_read_refs(path, NAN, &refs, err);
    if (rc)
        return rc;
    d->kind = "reference";
    d->rows = refs.n;
    for (int j = 0; j < 7 && rc == 0; j++) {
        if (grow_cols(d) != 0) {
            rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
            break;
        }
        pascal_info_column *c = &d->cols[d->ncols - 1];
        snprintf(c->group, sizeof c->group, "references");
        snprintf(c->name, sizeof c->name, "%s", names[j]);
        snprintf(c->units, sizeof c->units, "%s", units[j]);
        snprintf(c->description, sizeof c->description, "%s", what[j]);
        c->rows = refs.n;
        for (int64_t i = 0; i < refs.n; i++) {
            const pascal_dyn_ref *r = &refs.rows[i];
            double v[7] = {(double)r->o, r->path, (double)r->d, (double)r->m, r->N, r->W, r->K};
            if (j == 1)
                add_label(c, pascal_path_names[r->path == PASCAL_DYN_TMA], r->path == PASCAL_DYN_TMA,
                          &seen);
            else
                widen(c, v[j]);
        }
    }
    pascal_calibrate_refs_free(&refs);
    if (rc == 0 && (add_attr(d, "format", "reference runs (CSV)") || leading_comments(path, d)))
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    return rc;
}

/* ---- CSV: a sweep written by pascal run --format csv ------------------------ */

/* Fills the columns' names, units and descriptions from the vocabulary;
 * returns the index of the first unknown header name, or -1. */
static int sweep_columns(pascal_csv_reader *r, pascal_file_info *d, int *params)
{
    for (int j = 0; j < pascal_csv_ncols(r); j++) {
        const char *name = pascal_csv_name(r, j);
        int p = pascal_param_from_name(name), c = p < 0 ? pascal_column_from_name(name) : -1;
        pascal_info_column *col;
        if ((p < 0 && c < 0) || grow_cols(d) != 0)
            return j;
        col = &d->cols[d->ncols - 1];
        params[j] = p;
        snprintf(col->group, sizeof col->group, p >= 0 ? "points" : "results");
        snprintf(col->name, sizeof col->name, "%s", name);
        snprintf(col->units, sizeof col->units, "%s",
                 p >= 0 ? pascal_params[p].units : pascal_columns[c].units);
        snprintf(col->description, sizeof col->description, "%s",
                 p >= 0 ? pascal_params[p].description : pascal_columns[c].description);
    }
    return -1;
}

/* A label of an enum column (pattern, path) as its code, or -1. */
static int label_code(int param, const char *s)
{
    int n = param == PASCAL_P_PATH ? PASCAL_PATH_COUNT : PASCAL_PATTERN_COUNT;
    const char *const *names = param == PASCAL_P_PATH ? pascal_path_names : pascal_pattern_names;
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

static int is_label_param(int p)
{
    return p >= 0 && (pascal_params[p].type == PASCAL_T_PATTERN ||
                      pascal_params[p].type == PASCAL_T_PATH);
}

/* One pass over the rows: count them and the numeric ranges. */
static int scan_sweep_rows(pascal_csv_reader *r, pascal_file_info *d, const int *params,
                           const char *path, pascal_error *err)
{
    int n = pascal_csv_ncols(r), rc = 1;
    const char **f = malloc((size_t)(n > 0 ? n : 1) * sizeof *f);
    uint64_t *seen = calloc((size_t)(n > 0 ? n : 1), sizeof *seen);
    if (!f || !seen) {
        free(f), free(seen);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    }
    while (rc == 1 && (rc = pascal_csv_next(r, f, err)) == 1) {
        for (int j = 0; j < n && rc == 1; j++) {
            char *end;
            double v = f[j][0] ? strtod(f[j], &end) : NAN;
            if (is_label_param(params[j]))
                v = label_code(params[j], f[j]), end = (char *)"";
            if ((f[j][0] && *end) || (is_label_param(params[j]) && v < 0))
                rc = pascal_error_set(err, PASCAL_EINPUT, "%s:%lld: %s: expected %s, got \"%.40s\"",
                                      path, (long long)pascal_csv_line(r), d->cols[j].name,
                                      is_label_param(params[j]) ? "a label" : "a number", f[j]);
            else if (is_label_param(params[j]))
                add_label(&d->cols[j], f[j], (int)v, &seen[j]);
            else
                widen(&d->cols[j], v);
        }
        d->rows += rc == 1;
    }
    free(f);
    free(seen);
    for (int j = 0; j < d->ncols; j++)
        d->cols[j].rows = d->rows;
    return rc;
}

static int describe_sweep_csv(pascal_csv_reader *r, const char *path, pascal_file_info *d,
                              pascal_error *err)
{
    int params[256], bad, rc;
    if (pascal_csv_ncols(r) > 256)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: " NOT_ONE ": a CSV file of %d columns",
                                path, pascal_csv_ncols(r));
    if ((bad = sweep_columns(r, d, params)) >= 0 && pascal_csv_ncols(r) == 1)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: " NOT_ONE ": a text file whose first "
                                "line \"%.60s\" is not a CSV header of pascal columns", path,
                                pascal_csv_name(r, 0));
    if (bad >= 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: " NOT_ONE ": a CSV file whose column "
                                "\"%.60s\" is neither a sweep parameter nor a result column",
                                path, pascal_csv_name(r, bad));
    d->kind = "sweep-csv";
    if ((rc = scan_sweep_rows(r, d, params, path, err)))
        return rc;
    if (add_attr(d, "format", "pascal run --format csv"))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    return 0;
}

int pascal_info_describe_csv(const char *path, pascal_file_info *d, pascal_error *err)
{
    static const char *const refs[7] = {"o", "path", "d", "m", "N", "W", "K"};
    pascal_csv_reader *r = NULL;
    pascal_error sub = {0};
    int nref = 0, rc;
    if (pascal_csv_open(path, &r, &sub) != 0)
        return pascal_error_set(err, sub.code == PASCAL_EIO ? PASCAL_EIO : PASCAL_EINPUT,
                                "%s: " NOT_ONE ": %s", path,
                                sub.code == PASCAL_EIO ? sub.msg : "a text file without a CSV header");
    for (int j = 0; j < pascal_csv_ncols(r); j++)
        for (int k = 0; k < 7; k++)
            nref += strcmp(pascal_csv_name(r, j), refs[k]) == 0;
    if (nref == 7 && pascal_csv_ncols(r) == 7) {
        pascal_csv_close(r);
        return describe_refs(path, d, err);
    }
    rc = describe_sweep_csv(r, path, d, err);
    pascal_csv_close(r);
    return rc;
}
