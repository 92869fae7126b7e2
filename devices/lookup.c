/* Device profiles by path or by name: the search folders, resolution with a
 * nearest-name suggestion, loading one profile, and listing the shipped
 * ones.  See profile.h. */
#include "devices/profile.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/suggest.h"
#include "common/readfile.h"
#include "devices/parse.h"

/* Compiled-in folders (CMakeLists.txt); empty when the build names none. */
#ifndef PASCAL_CONFIGS_DIR
#define PASCAL_CONFIGS_DIR ""
#endif
#ifndef PASCAL_DATADIR
#define PASCAL_DATADIR ""
#endif

#define SUFFIX ".yaml"
#define MAX_NAMES 256  /* names offered in a message or a suggestion */

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* base/rel, or rel alone when base is "" or rel is absolute; a path too
 * long for out is cut (and then names no file). */
static void join(char *out, size_t len, const char *base, const char *rel)
{
    size_t n = strlen(base);
    int w;
    if (!n || rel[0] == '/')
        w = snprintf(out, len, "%s", rel);
    else
        w = snprintf(out, len, "%s%s%s", base, base[n - 1] == '/' ? "" : "/", rel);
    if (w < 0 || (size_t)w >= len)
        out[len - 1] = '\0';
}

int pascal_device_dirs(const char *base, char dirs[PASCAL_DEVICE_DIRS][PASCAL_DEVICE_PATH_MAX])
{
    int n = 0;
    join(dirs[n++], PASCAL_DEVICE_PATH_MAX, base ? base : "", "devices");
    join(dirs[n++], PASCAL_DEVICE_PATH_MAX, base ? base : "", "configs/devices");
    if (*PASCAL_CONFIGS_DIR)
        snprintf(dirs[n++], PASCAL_DEVICE_PATH_MAX, "%s/devices", PASCAL_CONFIGS_DIR);
    if (*PASCAL_DATADIR)
        snprintf(dirs[n++], PASCAL_DEVICE_PATH_MAX, "%s/devices", PASCAL_DATADIR);
    return n;
}

/* A name is what a file stem may be: letters, digits, '_', '-', '.'. */
static int is_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') || ('0' <= *s && *s <= '9') ||
              *s == '_' || *s == '-' || *s == '.'))
            return 0;
    return 1;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Profile names in one folder, sorted, appended to names[*n..]; strings are
 * malloc'ed.  A missing folder adds nothing. */
static int scan_dir(const char *dir, char **names, int *n, int max)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int first = *n;
    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL && *n < max) {
        size_t len = strlen(e->d_name);
        char path[PASCAL_DEVICE_PATH_MAX];
        if (e->d_name[0] == '.' || !has_suffix(e->d_name, SUFFIX))
            continue;
        join(path, sizeof path, dir, e->d_name);
        if (!is_file(path))
            continue;
        names[*n] = strndup(e->d_name, len - strlen(SUFFIX));
        if (!names[*n]) {
            closedir(d);
            return -1;
        }
        (*n)++;
    }
    closedir(d);
    qsort(names + first, (size_t)(*n - first), sizeof *names, by_name);
    return 0;
}

/* Every name reachable from base, in search order, first of each kept;
 * dir_of[i] is the folder index names[i] was found in. */
static int all_names(const char *base, char **names, int *dir_of, int *n,
                     char dirs[PASCAL_DEVICE_DIRS][PASCAL_DEVICE_PATH_MAX], int *ndirs)
{
    *n = 0;
    *ndirs = pascal_device_dirs(base, dirs);
    for (int k = 0; k < *ndirs; k++) {
        int from = *n;
        if (scan_dir(dirs[k], names, n, MAX_NAMES))
            return -1;
        for (int i = from; i < *n; i++) {
            int seen = 0;
            for (int j = 0; j < from && !seen; j++)
                seen = strcmp(names[j], names[i]) == 0;
            dir_of[i] = seen ? -1 : k;
        }
    }
    /* drop hidden duplicates */
    for (int i = 0, o = 0, total = *n; i < total; i++) {
        if (dir_of[i] < 0) {
            free(names[i]);
            (*n)--;
            continue;
        }
        names[o] = names[i];
        dir_of[o++] = dir_of[i];
    }
    return 0;
}

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
}

/* "expected a device profile path or the name of a shipped profile (gb10,
 * h100), got "gb11" (did you mean 'gb10'?); names are looked up in ..." */
static int not_found(const char *ref, const char *base, pascal_error *err)
{
    char *names[MAX_NAMES], dirs[PASCAL_DEVICE_DIRS][PASCAL_DEVICE_PATH_MAX], list[512], where[1200], hint[160];
    int dir_of[MAX_NAMES], n = 0, ndirs = 0;
    size_t off = 0;
    if (all_names(base, names, dir_of, &n, dirs, &ndirs)) {
        free_names(names, n);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    }
    list[0] = where[0] = '\0';
    for (int i = 0; i < n && off < sizeof list; i++)
        off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", i ? ", " : "", names[i]);
    off = 0;
    for (int k = 0; k < ndirs && off < sizeof where; k++)
        off += (size_t)snprintf(where + off, sizeof where - off, "%s%s", k ? ", " : "", dirs[k]);
    pascal_suggest_hint(ref, (const char *const *)names, n, hint, sizeof hint);
    pascal_error_set(err, PASCAL_EINPUT,
                     "expected a device profile path or the name of a shipped profile (%s), got \"%s\"%s; "
                     "names are looked up in %s",
                     n ? list : "none found", ref, hint, where);
    free_names(names, n);
    return PASCAL_EINPUT;
}

int pascal_device_resolve(const char *ref, const char *base, char *path, size_t len, pascal_error *err)
{
    char dirs[PASCAL_DEVICE_DIRS][PASCAL_DEVICE_PATH_MAX], file[PASCAL_DEVICE_PATH_MAX];
    int ndirs;
    base = base ? base : "";
    if (!ref || !*ref)
        return pascal_error_set(err, PASCAL_EINPUT, "expected a device profile path or name, got nothing");
    join(path, len, base, ref);
    /* A path as before names existed: it has a '/', or the file is there,
     * or it ends in .yaml (then reading it says why it cannot be read). */
    if (strchr(ref, '/') || is_file(path) || has_suffix(ref, SUFFIX) || has_suffix(ref, ".yml"))
        return 0;
    if (!is_name(ref))
        return pascal_error_set(err, PASCAL_EINPUT,
                                "expected a device profile path or name (letters, digits, '_', '-', '.'), "
                                "got \"%s\"", ref);
    ndirs = pascal_device_dirs(base, dirs);
    for (int k = 0; k < ndirs; k++) {
        snprintf(file, sizeof file, "%s%s", ref, SUFFIX);
        join(path, len, dirs[k], file);
        if (is_file(path))
            return 0;
    }
    path[0] = '\0';
    return not_found(ref, base, err);
}

int pascal_device_load(const char *path, pascal_device_profile *out, pascal_error *err)
{
    const yaml_node_t *val[DEVICE_NKEYS];
    const char *slash = strrchr(path, '/'), *stem = slash ? slash + 1 : path;
    yaml_document_t doc;
    yml_doc d;
    char *text = NULL;
    size_t len, n;
    int rc;
    memset(out, 0, sizeof *out);
    out->sms = out->l2_bytes = out->effective_l2_bytes = NAN;
    snprintf(out->path, sizeof out->path, "%s", path);
    n = strlen(stem);
    if (has_suffix(stem, SUFFIX))
        n -= strlen(SUFFIX);
    snprintf(out->name, sizeof out->name, "%.*s", (int)n, stem);
    if ((rc = pascal_read_file(path, YML_MAX_BYTES, &text, &len, err)))
        return rc;
    rc = yml_load(text, len, path, &doc, err);
    if (!rc) {
        d.doc = &doc;
        d.file = path;
        d.err = err;
        rc = device_parse_profile(&d, out, val);
        yaml_document_delete(&doc);
    }
    free(text);
    return rc;
}

int pascal_device_list(const char *base, pascal_device_profile **out, int *n, pascal_error *err)
{
    char *names[MAX_NAMES], dirs[PASCAL_DEVICE_DIRS][PASCAL_DEVICE_PATH_MAX], file[PASCAL_DEVICE_PATH_MAX];
    int dir_of[MAX_NAMES], count = 0, ndirs = 0, rc = 0;
    pascal_device_profile *list;
    *out = NULL;
    *n = 0;
    if (all_names(base ? base : "", names, dir_of, &count, dirs, &ndirs)) {
        free_names(names, count);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    }
    list = calloc(count ? (size_t)count : 1, sizeof *list);
    if (!list) {
        free_names(names, count);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    }
    for (int i = 0; i < count && !rc; i++) {
        char name[PASCAL_DEVICE_PATH_MAX];
        snprintf(name, sizeof name, "%s%s", names[i], SUFFIX);
        join(file, sizeof file, dirs[dir_of[i]], name);
        rc = pascal_device_load(file, &list[i], err);
    }
    free_names(names, count);
    if (rc) {
        free(list);
        return rc;
    }
    *out = list;
    *n = count;
    return 0;
}
