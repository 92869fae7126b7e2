/* Deciding what a file is for `pascal info` (info/info.h).
 *
 * HDF5 files say what they are in their root attribute `format`; the run's
 * completion flag and shard attribute separate finished sweeps, shards and
 * partial runs.  CSV files say it only in their header: the reference-run
 * header of engine/calibrate, or column names that are all in the sweep
 * vocabulary (vocab/params.h), which also gives their units.  A killed
 * run speaks through its journal (output/h5_recover.c). */
#include "info/info.h"

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

#define NOT_ONE "not a pascal sweep, shard, partial run, calibration or reference file"

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

/* ---- HDF5 ------------------------------------------------------------------ */

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

/* A text file: reference runs, a sweep table, or neither. */
static int describe_csv(const char *path, pascal_file_info *d, pascal_error *err)
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

/* ---- what a stopped or killed run left beside the destination --------------- */

/* The destination a sweep file belongs to: OUT for OUT, OUT.partial and a
 * killed run's OUT.tmp.PID; malloc'd. */
static char *destination(const char *path)
{
    size_t n = strlen(path);
    const char *tmp = strstr(path, ".tmp.");
    char *dest;
    for (const char *t = tmp; t; t = strstr(t + 1, ".tmp."))
        tmp = t; /* the last one */
    if (n > 8 && strcmp(path + n - 8, ".partial") == 0)
        n -= 8;
    else if (tmp && tmp[5] && strspn(tmp + 5, "0123456789.") == strlen(tmp + 5))
        n = (size_t)(tmp - path);
    if ((dest = malloc(n + 1))) {
        memcpy(dest, path, n);
        dest[n] = '\0';
    }
    return dest;
}

/* DEST.journal (the rows --resume would recover) and DEST.partial (its
 * rows) when they exist and are not path itself. */
static void note_beside(const char *path, pascal_file_info *d)
{
    char *dest = destination(path), other[PASCAL_INFO_TEXT];
    pascal_file_info o;
    pascal_error sub = {0};
    d->journal_rows = d->partial_rows = -1;
    if (!dest)
        return;
    snprintf(other, sizeof other, "%s.journal", dest);
    if (pascal_journal_describe(other, &o, &sub) == 0) {
        snprintf(d->journal, sizeof d->journal, "%s", other);
        d->journal_rows = o.rows;
        pascal_file_info_free(&o);
    }
    snprintf(other, sizeof other, "%s.partial", dest);
    if (strcmp(other, path) != 0 && pascal_h5_describe(other, &o, &sub) == 0) {
        snprintf(d->partial, sizeof d->partial, "%s", other);
        d->partial_rows = o.rows;
        pascal_file_info_free(&o);
    }
    free(dest);
}

/* A killed run's own file, whose HDF5 metadata was never closed (HDF5 may
 * refuse to open it): described by DEST.journal when the journal names it. */
static int describe_killed(const char *path, pascal_file_info *d)
{
    char *dest = destination(path), jpath[PASCAL_INFO_TEXT];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path, *file, *present;
    pascal_error sub = {0};
    int rc = -1;
    if (!dest)
        return -1;
    snprintf(jpath, sizeof jpath, "%s.journal", dest);
    free(dest);
    if (pascal_journal_describe(jpath, d, &sub) != 0)
        return -1;
    file = pascal_info_attr_value(d, "file");
    present = pascal_info_attr_value(d, "file_present");
    if (file && present && strcmp(file, base) == 0 && strcmp(present, "1") == 0) {
        d->kind = "killed";
        snprintf(d->journal, sizeof d->journal, "%s", jpath);
        d->journal_rows = d->rows;
        d->partial_rows = -1;
        rc = 0;
    } else
        pascal_file_info_free(d);
    return rc;
}

/* An output that does not exist yet may have a killed run's journal beside
 * it: the message says so. */
static int missing_output(const char *path, pascal_error *err)
{
    char jpath[PASCAL_INFO_TEXT];
    pascal_file_info j;
    pascal_error sub = {0};
    int code = err->code;
    FILE *f = fopen(path, "rb");
    if (f) { /* it is there, only unreadable */
        fclose(f);
        return code;
    }
    snprintf(jpath, sizeof jpath, "%s.journal", path);
    if (pascal_journal_describe(jpath, &j, &sub) != 0)
        return code;
    pascal_error_set(err, code, "%s: no such file yet; %s: a killed run of it, pascal run SPEC "
                     "-o %s --resume recovers %lld rows", path, jpath, path, (long long)j.rows);
    pascal_file_info_free(&j);
    return code;
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
            note_beside(path, d);
        return rc;
    }
    if (describe_killed(path, d) == 0) /* HDF5 cannot read a killed run's file */
        return 0;
    if (rc != PASCAL_EINPUT) {   /* missing or unreadable */
        *err = sub;
        return rc == PASCAL_EIO ? missing_output(path, err) : rc;
    }
    if (is_binary(path))
        return pascal_error_set(err, PASCAL_EINPUT, "%s: " NOT_ONE ": a binary file that is not "
                                "HDF5", path);
    if ((rc = describe_csv(path, d, err)))
        pascal_file_info_free(d);
    return rc;
}
