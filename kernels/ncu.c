/* Nsight Compute fallback: command line, CSV report parser and the mapping
 * of report rows to measurements.  See ncu.h. */
#include "kernels/ncu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const pascal_ncu_metric hopper[] = {
    {"dram__bytes_read.sum", 1},
};
static const pascal_ncu_metric blackwell[] = {
    {"dram__bytes_read.sum", 1},
    {"lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", 32},
};

const pascal_ncu_metric *pascal_ncu_metric_candidates(int cc_major, int *n)
{
    if (cc_major == 9) {
        *n = (int)(sizeof hopper / sizeof hopper[0]);
        return hopper;
    }
    *n = (int)(sizeof blackwell / sizeof blackwell[0]);
    return blackwell;
}

double pascal_ncu_metric_scale(const char *metric)
{
    if (strstr(metric, "bytes"))
        return 1;
    if (strstr(metric, "sectors"))
        return 32;
    return NAN;
}

int pascal_ncu_scan_launches(pascal_spot_start start)
{
    return start == PASCAL_SPOT_WARM ? 2 : 1;
}

char **pascal_ncu_argv(const char *ncu, const char *metric, const char *log_path,
                       const char *self, int argc, char **argv)
{
    const char *fixed[] = {ncu, "--csv", "--print-units", "base", "--metrics", metric,
                           "--cache-control", "none", "--clock-control", "none",
                           "--replay-mode", "kernel", "--target-processes", "all",
                           "-k", PASCAL_NCU_KERNEL_REGEX, "--log-file", log_path, self};
    int nf = (int)(sizeof fixed / sizeof fixed[0]);
    char **out = calloc((size_t)(nf + argc + 1), sizeof *out);
    if (!out)
        return NULL;
    for (int i = 0; i < nf + argc; i++)
        if (!(out[i] = strdup(i < nf ? fixed[i] : argv[i - nf]))) {
            pascal_ncu_argv_free(out);
            return NULL;
        }
    return out;
}

void pascal_ncu_argv_free(char **argv)
{
    if (!argv)
        return;
    for (char **p = argv; *p; p++)
        free(*p);
    free(argv);
}

/* ---- CSV --------------------------------------------------------------- */

#define NCU_MAX_FIELDS 64
#define NCU_FIELD_MAX 512

/* Splits one line into fields (quoted with "" escapes, or bare).  Returns
 * the field count, or -1 for a line that is not a CSV row. */
static int split_line(const char *s, const char *end, char f[][NCU_FIELD_MAX])
{
    int n = 0;
    while (s < end && n < NCU_MAX_FIELDS) {
        size_t k = 0;
        if (*s == '"') {
            for (s++; s < end; s++) {
                if (*s == '"' && s + 1 < end && s[1] == '"')
                    s++;
                else if (*s == '"')
                    break;
                if (k + 1 < NCU_FIELD_MAX)
                    f[n][k++] = *s;
            }
            if (s >= end)
                return -1;
            s++;
        } else {
            for (; s < end && *s != ','; s++)
                if (k + 1 < NCU_FIELD_MAX)
                    f[n][k++] = *s;
        }
        f[n++][k] = 0;
        if (s < end && *s != ',')
            return -1;
        if (s < end)
            s++;
    }
    return n;
}

static int find_col(char f[][NCU_FIELD_MAX], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(f[i], name) == 0)
            return i;
    return -1;
}

/* Unit multiplier to bytes (ncu's units are decimal); NaN if unknown. */
static double unit_bytes(const char *u)
{
    static const struct { const char *u; double b; } t[] = {
        {"byte", 1}, {"Kbyte", 1e3}, {"Mbyte", 1e6}, {"Gbyte", 1e9}, {"Tbyte", 1e12},
        {"sector", 32}, {"Ksector", 32e3}, {"Msector", 32e6}, {"Gsector", 32e9},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(u, t[i].u) == 0)
            return t[i].b;
    return NAN;
}

/* "1,234,567.5" -> 1234567.5; -1 when not a number. */
static int parse_value(const char *s, double *v)
{
    char buf[NCU_FIELD_MAX], *end;
    size_t k = 0;
    for (; *s; s++)
        if (*s != ',' && k + 1 < sizeof buf)
            buf[k++] = *s;
    buf[k] = 0;
    *v = strtod(buf, &end);
    return (end == buf || *end) ? -1 : 0;
}

typedef struct ncu_cols {
    int kernel, metric, unit, value;
} ncu_cols;

static int push(double **vals, int64_t *n, int64_t *cap, double v)
{
    if (*n == *cap) {
        int64_t nc = *cap ? *cap * 2 : 64;
        double *p = realloc(*vals, (size_t)nc * sizeof *p);
        if (!p)
            return -1;
        *vals = p, *cap = nc;
    }
    (*vals)[(*n)++] = v;
    return 0;
}

/* A scan kernel's name: pascal_k_<name>_scan, maybe followed by "(...)". */
static int is_scan_kernel(const char *name)
{
    size_t n = strcspn(name, "(");
    return strncmp(name, PASCAL_NCU_KERNEL_PREFIX, strlen(PASCAL_NCU_KERNEL_PREFIX)) == 0 &&
           n >= 5 && strncmp(name + n - 5, "_scan", 5) == 0;
}

/* One data row: appends the metric's value in bytes when the row is a scan
 * kernel's row for `metric`. */
static int take_row(char f[][NCU_FIELD_MAX], int nf, const ncu_cols *c, const char *metric,
                    int line, double **vals, int64_t *n, int64_t *cap, pascal_error *err)
{
    double v, scale;
    if (nf <= c->value || nf <= c->kernel || nf <= c->metric || nf <= c->unit)
        return pascal_error_set(err, PASCAL_EIO, "ncu report line %d: expected %d fields, got %d",
                                line, c->value + 1, nf);
    if (!is_scan_kernel(f[c->kernel]) || strcmp(f[c->metric], metric) != 0)
        return 0;
    if (parse_value(f[c->value], &v) != 0)
        return pascal_error_set(err, PASCAL_EIO,
                                "ncu report line %d: %s: expected a number, got \"%s\" (the "
                                "counter may not exist on this GPU: try --metric)",
                                line, metric, f[c->value]);
    scale = unit_bytes(f[c->unit]);
    if (isnan(scale))
        return pascal_error_set(err, PASCAL_EIO,
                                "ncu report line %d: %s: expected a unit in bytes or sectors, "
                                "got \"%s\"", line, metric, f[c->unit]);
    if (push(vals, n, cap, v * scale) != 0)
        return pascal_error_set(err, PASCAL_ENOMEM, "ncu report: out of memory");
    return 0;
}

int pascal_ncu_parse(const char *text, size_t len, const char *metric, double **values,
                     int64_t *n, pascal_error *err)
{
    char (*f)[NCU_FIELD_MAX] = malloc(NCU_MAX_FIELDS * sizeof *f);
    const char *s = text, *end = text + len;
    ncu_cols c = {-1, -1, -1, -1};
    int64_t cap = 0;
    int line = 0, rc = 0, header = 0;
    *values = NULL, *n = 0;
    if (!f)
        return pascal_error_set(err, PASCAL_ENOMEM, "ncu report: out of memory");
    while (s < end && rc == 0) {
        const char *eol = memchr(s, '\n', (size_t)(end - s)), *stop;
        int nf;
        eol = eol ? eol : end;
        stop = (eol > s && eol[-1] == '\r') ? eol - 1 : eol;
        line++;
        nf = (*s == '"') ? split_line(s, stop, f) : -1;
        if (nf > 0 && !header && find_col(f, nf, "ID") >= 0) {
            c = (ncu_cols){find_col(f, nf, "Kernel Name"), find_col(f, nf, "Metric Name"),
                           find_col(f, nf, "Metric Unit"), find_col(f, nf, "Metric Value")};
            if (c.kernel < 0 || c.metric < 0 || c.unit < 0 || c.value < 0)
                rc = pascal_error_set(err, PASCAL_EIO,
                                      "ncu report line %d: expected the columns Kernel Name, "
                                      "Metric Name, Metric Unit, Metric Value", line);
            header = 1;
        } else if (nf > 0 && header) {
            rc = take_row(f, nf, &c, metric, line, values, n, &cap, err);
        }
        s = eol + 1;
    }
    if (rc == 0 && !header)
        rc = pascal_error_set(err, PASCAL_EIO,
                              "ncu report: expected a CSV table, got none (did ncu profile "
                              "anything?)");
    free(f);
    if (rc != 0) {
        free(*values);
        *values = NULL, *n = 0;
    }
    return rc;
}

int pascal_ncu_assign(const double *values, int64_t nvalues, const pascal_spot_start *starts,
                      int64_t nmeas, double *fill_bytes, pascal_error *err)
{
    int64_t want = 0, k = 0;
    for (int64_t i = 0; i < nmeas; i++)
        want += pascal_ncu_scan_launches(starts[i]);
    if (want != nvalues)
        return pascal_error_set(err, PASCAL_EIO,
                                "ncu report: expected %lld scan-kernel launches, got %lld",
                                (long long)want, (long long)nvalues);
    for (int64_t i = 0; i < nmeas; i++) {
        k += pascal_ncu_scan_launches(starts[i]);
        fill_bytes[i] = values[k - 1];
    }
    return 0;
}

static int executable(const char *dir, size_t dlen, const char *name, char *buf, size_t len)
{
    int w = snprintf(buf, len, "%.*s/%s", (int)dlen, dir, name);
    return w > 0 && (size_t)w < len && access(buf, X_OK) == 0;
}

int pascal_ncu_find(char *buf, size_t len)
{
    const char *env = getenv("PASCAL_NCU"), *path = getenv("PATH");
    if (env && *env) {
        snprintf(buf, len, "%s", env);
        return access(buf, X_OK) == 0 ? 0 : -1;
    }
    while (path && *path) {
        size_t dlen = strcspn(path, ":");
        if (dlen && executable(path, dlen, "ncu", buf, len))
            return 0;
        path += dlen + (path[dlen] == ':');
    }
    return executable("/usr/local/cuda/bin", 19, "ncu", buf, len) ? 0 : -1;
}
