/* Reference measurements for calibration (calibrate/calibrate.h): the CSV
 * format `o,path,d,m,N,W,K`, the same columns from HDF5, and device facts
 * from a device profile.  Every value is checked where it is read and a bad
 * one rejects the whole file with its location: a calibration fitted from
 * silently thinned data would be wrong without anyone knowing. */
#include "calibrate/calibrate.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/readfile.h"
#include "common/suggest.h"
#include "output/h5_file.h"
#include "output/sink.h"
#include "vocab/params.h"

/* C (the capacity a run was measured at, blocks) is optional: a file
 * measured at one capacity leaves it out. */
enum { C_O, C_PATH, C_D, C_M, C_N, C_W, C_K, NCOL, C_C = NCOL, NALL };
static const char *const col_names[NALL] = {"o", "path", "d", "m", "N", "W", "K", "C"};
#define HEADER "o,path,d,m,N,W,K"
/* A reference file is read whole: 1 GiB is some 30 million runs. */
#define REFS_MAX_BYTES ((size_t)1 << 30)

void pascal_calibrate_refs_free(pascal_refs *r)
{
    if (!r)
        return;
    free(r->rows);
    free(r->line);
    r->rows = NULL;
    r->line = NULL;
    r->n = 0;
}

static int refs_grow(pascal_refs *r, int64_t *cap)
{
    int64_t ncap = *cap ? 2 * *cap : 256;
    pascal_dyn_ref *rows = realloc(r->rows, (size_t)ncap * sizeof *rows);
    int64_t *line;
    if (!rows)
        return -1;
    r->rows = rows;
    if (!(line = realloc(r->line, (size_t)ncap * sizeof *line)))
        return -1;
    r->line = line;
    *cap = ncap;
    return 0;
}

/* Whole decimal integer (no sign unless negative), |v| <= 2^53. */
static int parse_int(const char *s, double *out)
{
    char *end;
    long long v;
    if (!*s || !(isdigit((unsigned char)*s) || *s == '-'))
        return -1;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || *end || llabs(v) > (1LL << 53))
        return -1;
    *out = (double)v;
    return 0;
}

/* Decimal number: digits, sign, point and exponent only (no inf, nan, hex). */
static int parse_real(const char *s, double *out)
{
    char *end;
    if (!*s || strspn(s, "0123456789+-.eE") != strlen(s))
        return -1;
    *out = strtod(s, &end);
    return end != s && !*end && isfinite(*out) ? 0 : -1;
}

/* Checks one value of column c; returns NULL or what was expected. */
static const char *check_value(int c, const char *text, double v, int path, int isnum)
{
    switch (c) {
    case C_O:
    case C_N:
    case C_C:
        return isnum && v >= 1 && v == floor(v) ? NULL : "a positive integer";
    case C_M:
        return isnum && v >= 0 && v == floor(v) ? NULL : "a non-negative integer";
    case C_D:
        if (!isnum || v < 0 || v != floor(v))
            return "a non-negative integer";
        if (path == PASCAL_DYN_SYNC && v != 0)
            return "0 for the sync path (no prefetch pipeline)";
        if (path == PASCAL_DYN_TMA && v < 1)
            return "a depth >= 1 for the tma path";
        return NULL;
    case C_W:
    case C_K:
        return isnum && v > 0 && isfinite(v) ? NULL : "a positive number";
    default:
        (void)text;
        return NULL;
    }
}

static void store(pascal_dyn_ref *r, const double *v)
{
    r->o = (int64_t)v[C_O];
    r->path = (int)v[C_PATH];
    r->d = (int64_t)v[C_D];
    r->m = (int64_t)v[C_M];
    r->N = v[C_N];
    r->W = v[C_W];
    r->K = v[C_K];
    r->C = v[C_C];
}

/* ---- CSV ---------------------------------------------------------------- */

typedef struct csv_field {
    char text[96];
    int col;            /* 1-based column of the field's first character */
} csv_field;

/* Splits one line (without its newline) into trimmed fields. */
static int split(const char *line, size_t len, csv_field *f, int max)
{
    int n = 0;
    size_t i = 0;
    for (;;) {
        size_t a = i, b;
        while (i < len && line[i] != ',')
            i++;
        b = i;
        while (a < b && isspace((unsigned char)line[a]))
            a++;
        while (b > a && isspace((unsigned char)line[b - 1]))
            b--;
        if (n < max) {
            snprintf(f[n].text, sizeof f[n].text, "%.*s", (int)(b - a), line + a);
            f[n].col = (int)a + 1;
        }
        n++;
        if (i >= len)
            return n;
        i++;
    }
}

static int blank_or_comment(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && isspace((unsigned char)line[i]))
        i++;
    return i == len || line[i] == '#';
}

static int parse_header(const char *file, int64_t ln, const csv_field *f, int n, int *map,
                        int *ncols, pascal_error *err)
{
    int seen[NALL] = {0};
    if (n > NCOL + 8)
        n = NCOL + 8;
    *ncols = n;
    for (int j = 0; j < n; j++) {
        int c = -1;
        for (int k = 0; k < NALL; k++)
            if (strcmp(f[j].text, col_names[k]) == 0)
                c = k;
        if (c < 0)
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "%s:%lld:%d: header: expected one of o, path, d, m, N, W, K "
                                    "or C, got \"%s\"",
                                    file, (long long)ln, f[j].col, f[j].text);
        if (seen[c])
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "%s:%lld:%d: header: expected each column once, got \"%s\" again",
                                    file, (long long)ln, f[j].col, f[j].text);
        seen[c] = 1;
        map[j] = c;
    }
    for (int k = 0; k < NCOL; k++)
        if (!seen[k])
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "%s:%lld:1: header: expected the columns " HEADER
                                    ", got no column %s",
                                    file, (long long)ln, col_names[k]);
    return 0;
}

/* K above M = sms * o would be more fills than requests. */
static int over_m(double sms, const double *v)
{
    return !isnan(sms) && v[C_K] > sms * v[C_O];
}

static int parse_row(const char *file, int64_t ln, const csv_field *f, int n, const int *map,
                     int ncols, double sms, double *v, pascal_error *err)
{
    int at[NALL] = {0}, path = -1;
    if (n != ncols)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s:%lld:1: row: expected %d fields like the header, got %d", file,
                                (long long)ln, ncols, n);
    at[C_C] = -1;
    for (int j = 0; j < ncols; j++)
        at[map[j]] = j;
    v[C_C] = NAN;
    /* path first: the rule for d depends on it */
    if ((path = pascal_path_from_name(f[at[C_PATH]].text)) < 0) {
        char hint[96];
        return pascal_error_set(err, PASCAL_EINPUT, "%s:%lld:%d: path: expected sync or tma, got \"%s\"%s",
                                file, (long long)ln, f[at[C_PATH]].col, f[at[C_PATH]].text,
                                pascal_suggest_hint(f[at[C_PATH]].text, pascal_path_names,
                                                    PASCAL_PATH_COUNT, hint, sizeof hint));
    }
    v[C_PATH] = path;
    for (int c = 0; c < NALL; c++) {
        const csv_field *x = &f[at[c] >= 0 ? at[c] : 0];
        int isnum;
        const char *want;
        if (c == C_PATH || at[c] < 0)
            continue;
        isnum = (c == C_W || c == C_K ? parse_real(x->text, &v[c]) : parse_int(x->text, &v[c])) == 0;
        if ((want = check_value(c, x->text, v[c], path, isnum)))
            return pascal_error_set(err, PASCAL_EINPUT, "%s:%lld:%d: %s: expected %s, got \"%s\"", file,
                                    (long long)ln, x->col, col_names[c], want, x->text);
    }
    if (over_m(sms, v))
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s:%lld:%d: K: expected at most M = sms * o = %.0f * %.0f = %.0f "
                                "(one fill per request), got \"%s\"",
                                file, (long long)ln, f[at[C_K]].col, sms, v[C_O], sms * v[C_O],
                                f[at[C_K]].text);
    return 0;
}

int pascal_calibrate_parse_csv(const char *text, size_t len, const char *filename, double sms,
                               pascal_refs *out, pascal_error *err)
{
    const char *file = filename ? filename : "<refs>";
    int map[NCOL + 8], ncols = NCOL, have_header = 0, rc = 0;
    int64_t ln = 0, cap = 0, last = 0;
    size_t pos = 0;
    csv_field f[NCOL + 8];
    memset(out, 0, sizeof *out);
    /* A UTF-8 byte-order mark (spreadsheets write one) is not part of the
     * first column's name. */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        pos = 3;
    while (pos < len && rc == 0) {
        size_t e = pos, l;
        double v[NALL];
        int n;
        while (e < len && text[e] != '\n')
            e++;

        l = e - pos - (e > pos && text[e - 1] == '\r');
        ln++;
        if (!blank_or_comment(text + pos, l)) {
            last = ln;
            n = split(text + pos, l, f, NCOL + 8);
            if (!have_header) {
                rc = parse_header(file, ln, f, n, map, &ncols, err);
                have_header = 1;
                out->have_C = ncols > NCOL;
            } else if ((rc = parse_row(file, ln, f, n, map, ncols, sms, v, err)) == 0) {
                if (out->n == cap && refs_grow(out, &cap) != 0)
                    rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", file);
                else {
                    store(&out->rows[out->n], v);
                    out->line[out->n++] = ln;
                }
            }
            /* Every line ends with a newline (pascal writes them so): a
             * last line without one is a file cut short, whose last number
             * may be cut too (3.49678 read as 3.). */
            if (rc == 0 && e == len)
                rc = pascal_error_set(err, PASCAL_EINPUT, "%s:%lld:%zu: expected the line to end "
                                      "with a newline, got the end of the file (a file cut "
                                      "short?)", file, (long long)ln, l + 1);
        }
        pos = e + 1;
    }
    if (rc == 0 && !have_header)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s:1:1: expected a header row " HEADER ", got %s",
                              file, len ? "only comments" : "an empty file");
    else if (rc == 0 && out->n == 0)
        rc = pascal_error_set(err, PASCAL_EINPUT,
                              "%s:%lld:1: expected at least one reference row after the header, got none",
                              file, (long long)(last ? last : 1));
    if (rc)
        pascal_calibrate_refs_free(out);
    return rc;
}

/* ---- HDF5 --------------------------------------------------------------- */

static int refs_from_columns(const char *path, double **cols, int64_t n, int have_C, double sms,
                             pascal_refs *out, pascal_error *err)
{
    int64_t cap = 0;
    memset(out, 0, sizeof *out);
    if (n < 1)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s: /references: expected at least one reference row, got none", path);
    while (cap < n)
        if (refs_grow(out, &cap) != 0) {
            pascal_calibrate_refs_free(out);
            return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
        }
    for (int64_t i = 0; i < n; i++) {
        double v[NALL];
        int path_code;
        for (int c = 0; c < NCOL + have_C; c++)
            v[c] = cols[c][i];
        if (!have_C)
            v[C_C] = NAN;
        path_code = v[C_PATH] == 0 ? PASCAL_DYN_SYNC : v[C_PATH] == 1 ? PASCAL_DYN_TMA : -1;
        for (int c = 0; c < NCOL + have_C; c++) {
            const char *want = c == C_PATH ? (path_code < 0 ? "0 (sync) or 1 (tma)" : NULL)
                                           : check_value(c, "", v[c], path_code, !isnan(v[c]));
            if (want) {
                pascal_calibrate_refs_free(out);
                return pascal_error_set(err, PASCAL_EINPUT,
                                        "%s: /references/%s[%lld]: expected %s, got %.17g", path,
                                        col_names[c], (long long)i, want, v[c]);
            }
        }
        if (over_m(sms, v)) {
            pascal_calibrate_refs_free(out);
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "%s: /references/K[%lld]: expected at most M = sms * o = %.0f "
                                    "(one fill per request), got %.17g",
                                    path, (long long)i, sms * v[C_O], v[C_K]);
        }
        store(&out->rows[i], v);
        out->line[i] = i;
    }
    out->n = n;
    out->have_C = have_C;
    return 0;
}

static int read_h5(const char *path, double sms, pascal_refs *out, pascal_error *err)
{
    double *cols[NALL] = {0};
    int64_t n = 0, len;
    int rc = pascal_h5_vet(path, err), have_C = 0;
    if (rc == 0) {
        pascal_h5_file *f = NULL;
        pascal_error e2;
        if (pascal_h5_file_open(path, &f, &e2) == 0)
            have_C = pascal_h5_file_kind(f, "references/C") == PASCAL_H5_DATASET;
        pascal_h5_file_close(f);
    }
    for (int c = 0; c < NCOL + have_C && rc == 0; c++) {
        rc = pascal_h5_read_column(path, "references", col_names[c], &cols[c], &len, err);
        if (rc == 0 && c > 0 && len != n)
            rc = pascal_error_set(err, PASCAL_EINPUT,
                                  "%s: /references/%s: expected %lld rows like /references/o, got %lld",
                                  path, col_names[c], (long long)n, (long long)len);
        n = len;
    }
    if (rc == PASCAL_EIO)
        err->code = rc = PASCAL_EINPUT; /* not HDF5 we can read: bad input */
    if (rc == 0)
        rc = refs_from_columns(path, cols, n, have_C, sms, out, err);
    for (int c = 0; c < NALL; c++)
        free(cols[c]);
    return rc;
}

int pascal_calibrate_refs_facts(const char *path, pascal_refs_facts *facts)
{
    char *text = NULL;
    size_t len = 0;
    pascal_error err = {0};
    memset(facts, 0, sizeof *facts);
    if (pascal_read_file(path, REFS_MAX_BYTES, &text, &len, &err) != 0)
        return 0;
    int64_t line = 1;
    for (size_t at = 0; at < len && text[at] == '#'; line++) {
        char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        double sms, C, bb;
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)(end - at < 255 ? end - at : 255), text + at);
        if (sscanf(buf, "# sms: %lf, C: %lf blocks of %lf bytes", &sms, &C, &bb) == 3 && sms >= 1 &&
            C >= 1 && bb >= 1) {
            *facts = (pascal_refs_facts){1, sms, C, bb, line};
            break;
        }
        if (sscanf(buf, "# sms: %lf, C: per row, blocks of %lf bytes", &sms, &bb) == 2 &&
            sms >= 1 && bb >= 1) {
            *facts = (pascal_refs_facts){1, sms, NAN, bb, line};
            break;
        }
        at = end + 1;
    }
    free(text);
    return 0;
}

int pascal_calibrate_read_refs(const char *path, double sms, pascal_refs *out,
                               pascal_error *err)
{
    static const char sig[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
    char *text = NULL;
    size_t len = 0;
    int rc;
    memset(out, 0, sizeof *out);
    if ((rc = pascal_read_file(path, REFS_MAX_BYTES, &text, &len, err)))
        return rc == PASCAL_EIO ? (err->code = PASCAL_EINPUT) : rc; /* an unreadable input */
    if (len >= 8 && memcmp(text, sig, 8) == 0) {
        free(text);
        return read_h5(path, sms, out, err);
    }
    if (memchr(text, '\0', len))
        rc = pascal_error_set(err, PASCAL_EINPUT,
                              "%s:1:1: expected CSV text (" HEADER ") or HDF5, got binary data", path);
    else
        rc = pascal_calibrate_parse_csv(text, len, path, sms, out, err);
    free(text);
    return rc;
}
