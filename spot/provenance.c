/* Provenance of spot-check measurements: the device, clocks, driver, meter
 * and cache operator as `key: value` pairs, for the HDF5 tables' root
 * attributes (table.c, capacity.c) and for the sidecar text file beside a
 * CSV output, which has no room for them.  The sidecar is written like
 * every other output (output/fs/tmpfile.h): to a temporary file beside its
 * name, renamed onto it once complete, removed on failure. */
#include "spot/spot.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output/fs/tmpfile.h"
#include "pascal/version.h"

static void put(pascal_attr *a, pascal_spot_attr_buf *buf, int *n, const char *key,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void put(pascal_attr *a, pascal_spot_attr_buf *buf, int *n, const char *key,
                const char *fmt, ...)
{
    va_list ap;
    if (*n >= PASCAL_SPOT_DEVICE_ATTRS)
        return;
    va_start(ap, fmt);
    vsnprintf(buf->text[*n], sizeof buf->text[*n], fmt, ap);
    va_end(ap);
    a[*n] = (pascal_attr){key, buf->text[*n]};
    (*n)++;
}

int pascal_spot_device_attrs(const pascal_spot_device *d, pascal_attr *a,
                             pascal_spot_attr_buf *buf)
{
    int n = 0;
    put(a, buf, &n, "device_name", "%s", d->name);
    put(a, buf, &n, "device_index", "%d", d->index);
    put(a, buf, &n, "compute_capability", "%d.%d", d->cc_major, d->cc_minor);
    put(a, buf, &n, "sms", "%d", d->sms);
    put(a, buf, &n, "l2_bytes", "%lld", (long long)d->l2_bytes);
    put(a, buf, &n, "sm_clock_peak_mhz", "%d", d->sm_clock_khz / 1000);
    put(a, buf, &n, "mem_clock_peak_mhz", "%d", d->mem_clock_khz / 1000);
    if (d->sm_clock_now_mhz > 0)
        put(a, buf, &n, "sm_clock_mhz", "%d", d->sm_clock_now_mhz);
    else
        put(a, buf, &n, "sm_clock_mhz", "unknown (NVML unavailable)");
    if (d->mem_clock_now_mhz > 0)
        put(a, buf, &n, "mem_clock_mhz", "%d", d->mem_clock_now_mhz);
    else
        put(a, buf, &n, "mem_clock_mhz", "unknown (NVML unavailable)");
    put(a, buf, &n, "driver_version", "%s (CUDA driver API %d.%d)",
        d->driver_string[0] ? d->driver_string : "unknown", d->driver_version / 1000,
        d->driver_version % 1000 / 10);
    put(a, buf, &n, "runtime_version", "%d.%d", d->runtime_version / 1000,
        d->runtime_version % 1000 / 10);
    put(a, buf, &n, "meter", "%s", d->meter);
    put(a, buf, &n, "fill_metric", "%s", d->metric);
    put(a, buf, &n, "fill_level", "%s", "bytes read from off-chip memory into L2");
    put(a, buf, &n, "cache_operator", "%s", PASCAL_SPOT_CACHE_OPERATOR);
    return n;
}

/* The temporary file beside path as a stream; NULL (err set) when it
 * cannot be made. */
static FILE *sidecar_open(const char *path, char **tmp, pascal_error *err)
{
    int fd = pascal_tmpfile_create(path, tmp, err), e;
    FILE *f;
    if (fd < 0)
        return NULL;
    if (!(f = fdopen(fd, "w"))) {
        e = errno;
        close(fd);
        unlink(*tmp);
        pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", path, strerror(e));
        free(*tmp);
        *tmp = NULL;
    }
    return f;
}

/* Closes f and renames it onto path when every write succeeded; otherwise
 * removes it, so that path never holds part of the text. */
static int sidecar_close(FILE *f, char *tmp, const char *path, pascal_error *err)
{
    int ok = !ferror(f), rc;
    ok = (fclose(f) == 0) && ok;
    if (!ok) {
        rc = pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
    } else {
        rc = pascal_tmpfile_commit(tmp, path, err);
    }
    free(tmp);
    return rc;
}

int pascal_spot_provenance_write(const char *path, const pascal_spot_device *dev,
                                 const char *command_line, const pascal_attr *extra,
                                 int nextra, pascal_error *err)
{
    pascal_attr a[PASCAL_SPOT_DEVICE_ATTRS];
    pascal_spot_attr_buf buf;
    char *tmp, when[64];
    time_t now = time(NULL);
    struct tm tm;
    int n = pascal_spot_device_attrs(dev, a, &buf);
    FILE *f = sidecar_open(path, &tmp, err);
    if (!f)
        return err->code;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fprintf(f, "created: %s\npascal_version: %s\ncommand_line: %s\n", when, PASCAL_VERSION_STRING,
            command_line ? command_line : "");
    for (int i = 0; i < n; i++)
        fprintf(f, "%s: %s\n", a[i].key, a[i].value);
    for (int i = 0; i < nextra; i++)
        fprintf(f, "%s: %s\n", extra[i].key, extra[i].value);
    return sidecar_close(f, tmp, path, err);
}

int pascal_spot_provenance_write_text(const char *path, const char *text, pascal_error *err)
{
    char *tmp;
    size_t n = strlen(text);
    FILE *f = sidecar_open(path, &tmp, err);
    if (!f)
        return err->code;
    fputs(text, f);
    if (n == 0 || text[n - 1] != '\n')
        fputc('\n', f);
    return sidecar_close(f, tmp, path, err);
}
