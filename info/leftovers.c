/* What a stopped or killed run left beside a sweep file, for `pascal info`
 * (info/info_internal.h): its journal (the rows --resume would recover),
 * its partial file, and a killed run's own temporary file, which HDF5 may
 * refuse to open and its journal describes (output/h5_recover.c). */
#include "info/info_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void pascal_info_note_beside(const char *path, pascal_file_info *d)
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

int pascal_info_describe_killed(const char *path, pascal_file_info *d)
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

int pascal_info_missing_output(const char *path, pascal_error *err)
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
