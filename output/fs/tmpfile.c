/* The temporary-file protocol shared by every writer; see tmpfile.h. */
#include "output/fs/tmpfile.h"
#include "common/testpoint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The program's hooks (tmpfile.h), set before any thread uses them. */
static pascal_files_hooks hooks;

void pascal_files_hooks_set(const pascal_files_hooks *h)
{
    if (h)
        hooks = *h;
    else
        memset(&hooks, 0, sizeof hooks);
}

int pascal_files_begin(void)
{
    return hooks.begin ? hooks.begin(hooks.ctx) : 0;
}

void pascal_files_end(const char *path)
{
    if (hooks.end)
        hooks.end(hooks.ctx, path);
}

void pascal_files_done(const char *path)
{
    if (hooks.done)
        hooks.done(hooks.ctx, path, NULL);
}

void pascal_files_done_as(const char *path, const char *dest)
{
    if (hooks.done)
        hooks.done(hooks.ctx, path, dest);
}

void pascal_tmpfile_discard(const char *tmp)
{
    if (!tmp)
        return;
    unlink(tmp);
    pascal_files_done(tmp);
}

int pascal_tmpfile_create(const char *dest, char **tmp, pascal_error *err)
{
    struct stat st;
    size_t cap = strlen(dest) + 64;
    *tmp = NULL;
    if (stat(dest, &st) == 0 && S_ISDIR(st.st_mode))
        return pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", dest, strerror(EISDIR));
    if (!(*tmp = malloc(cap)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", dest);
    /* A name already taken (another writer of this process, or a leftover)
     * gets a numbered neighbour rather than being overwritten.  Created
     * between the hooks' begin and end, so that a Ctrl-C never leaves it. */
    if (pascal_files_begin()) {
        free(*tmp);
        *tmp = NULL;
        return pascal_error_set(err, PASCAL_EINTR, "%s: interrupted", dest);
    }
    for (int i = 0; i < 100; i++) {
        int fd;
        if (i == 0)
            snprintf(*tmp, cap, "%s.tmp.%ld", dest, (long)getpid());
        else
            snprintf(*tmp, cap, "%s.tmp.%ld.%d", dest, (long)getpid(), i);
        fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            pascal_testpoint("tmpfile-created");
            pascal_files_end(*tmp);
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    pascal_error_set(err, PASCAL_EIO, "cannot create %s: %s", *tmp, strerror(errno));
    pascal_files_end(NULL);
    free(*tmp);
    *tmp = NULL;
    return PASCAL_EIO;
}

static void sync_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
    int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

int pascal_tmpfile_sync(const char *path, pascal_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
    if (fd < 0 || fdatasync(fd) != 0)
        rc = pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", path, strerror(errno));
    if (fd >= 0)
        close(fd);
    if (rc == 0)
        sync_dir_of(path);
    return rc;
}

/* The rename that publishes a file, between the hooks' begin and end: a
 * signal handler then sees the file either still at `from` (nothing
 * written) or at `dest` and reported done, never between the two. */
int pascal_files_publish(const char *from, const char *dest, pascal_error *err)
{
    int e;
    if (pascal_files_begin())
        return pascal_error_set(err, PASCAL_EINTR, "%s: interrupted before it was written", dest);
    if (rename(from, dest) == 0) {
        pascal_files_done_as(from, dest);
        pascal_files_end(NULL);
        sync_dir_of(dest);
        return 0;
    }
    e = errno;
    pascal_files_end(NULL);
    return pascal_error_set(err, PASCAL_EIO, "cannot rename %s to %s: %s", from, dest, strerror(e));
}

int pascal_tmpfile_commit(const char *tmp, const char *dest, pascal_error *err)
{
    int fd = open(tmp, O_RDONLY | O_CLOEXEC), rc;
    if (fd < 0 || fdatasync(fd) != 0) {
        pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", dest, strerror(errno));
        if (fd >= 0)
            close(fd);
        pascal_tmpfile_discard(tmp);
        return PASCAL_EIO;
    }
    close(fd);
    if ((rc = pascal_files_publish(tmp, dest, err)) != 0)
        pascal_tmpfile_discard(tmp);
    else
        pascal_testpoint("tmpfile-published");
    return rc;
}

/* "<digits>" or "<digits>.<digits>": the tail pascal_tmpfile_create adds. */
static int is_tmp_tail(const char *s)
{
    int dots = 0, digits = 0;
    for (; *s; s++) {
        if (*s == '.' && digits > 0 && dots == 0)
            dots++, digits = 0;
        else if (*s >= '0' && *s <= '9')
            digits++;
        else
            return 0;
    }
    return digits > 0;
}

int pascal_tmpfile_clean(const char *dest, const char *keep)
{
    const char *slash = strrchr(dest, '/');
    const char *base = slash ? slash + 1 : dest;
    size_t dirlen = slash ? (size_t)(slash - dest) + 1 : 0, blen = strlen(base);
    char *dirname = strndup(dest, dirlen ? dirlen : 0), *path;
    const char *keep_base = keep ? (strrchr(keep, '/') ? strrchr(keep, '/') + 1 : keep) : NULL;
    struct dirent *e;
    DIR *d;
    int removed = 0;
    if (!dirname || !(d = opendir(dirlen ? dirname : "."))) {
        free(dirname);
        return 0;
    }
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        if (strncmp(n, base, blen) != 0 || strncmp(n + blen, ".tmp.", 5) != 0 ||
            !is_tmp_tail(n + blen + 5) || (keep_base && strcmp(n, keep_base) == 0))
            continue;
        if (!(path = malloc(dirlen + strlen(n) + 1)))
            break;
        memcpy(path, dest, dirlen);
        strcpy(path + dirlen, n);
        removed += unlink(path) == 0;
        free(path);
    }
    closedir(d);
    free(dirname);
    return removed;
}
