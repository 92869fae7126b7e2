/* The temporary-file protocol shared by every writer; see tmpfile.h. */
#include "output/fs/tmpfile.h"
#include "common/testpoint.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A ring of the latest names, in static storage for the signal handler. */
#define TRACKED 16
static char tracked[TRACKED][4096];
static volatile sig_atomic_t tracked_ok[TRACKED];
static int tracked_next;

void pascal_tmpfile_track(const char *path)
{
    int i = tracked_next++ % TRACKED;
    if (strlen(path) >= sizeof tracked[i])
        return;
    tracked_ok[i] = 0;
    strcpy(tracked[i], path);
    tracked_ok[i] = 1;
}

/* Creations in progress, and whether a handler is removing the files.
 * Each side raises its own flag before it reads the other's (sequentially
 * consistent), so either the handler sees the creation and waits for its
 * tracking, or the creator sees the handler and creates nothing. */
static int creating, exiting;

void pascal_tmpfile_guard_begin(sigset_t *old)
{
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, old);
    __atomic_add_fetch(&creating, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&exiting, __ATOMIC_SEQ_CST)) {
        __atomic_sub_fetch(&creating, 1, __ATOMIC_SEQ_CST);
        for (;;) /* the handler's thread is ending the process */
            pause();
    }
}

void pascal_tmpfile_guard_end(const sigset_t *old)
{
    __atomic_sub_fetch(&creating, 1, __ATOMIC_SEQ_CST);
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

void pascal_tmpfile_remove_all(void)
{
    __atomic_store_n(&exiting, 1, __ATOMIC_SEQ_CST);
    /* A creation on another thread takes a few system calls; the bound
     * only keeps a stuck one from holding the exit. */
    for (long spin = 0; __atomic_load_n(&creating, __ATOMIC_SEQ_CST) && spin < (1L << 30); spin++)
        ;
    for (int i = 0; i < TRACKED; i++)
        if (tracked_ok[i])
            unlink(tracked[i]);
}

int pascal_tmpfile_create(const char *dest, char **tmp, pascal_error *err)
{
    struct stat st;
    sigset_t mask;
    size_t cap = strlen(dest) + 64;
    *tmp = NULL;
    if (stat(dest, &st) == 0 && S_ISDIR(st.st_mode))
        return pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", dest, strerror(EISDIR));
    if (!(*tmp = malloc(cap)))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", dest);
    /* A name already taken (another writer of this process, or a leftover)
     * gets a numbered neighbour rather than being overwritten.  Created
     * and tracked under the guard, so that a Ctrl-C never leaves it. */
    pascal_tmpfile_guard_begin(&mask);
    for (int i = 0; i < 100; i++) {
        int fd;
        if (i == 0)
            snprintf(*tmp, cap, "%s.tmp.%ld", dest, (long)getpid());
        else
            snprintf(*tmp, cap, "%s.tmp.%ld.%d", dest, (long)getpid(), i);
        fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            pascal_testpoint("tmpfile-created");
            pascal_tmpfile_track(*tmp);
            pascal_tmpfile_guard_end(&mask);
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    pascal_error_set(err, PASCAL_EIO, "cannot create %s: %s", *tmp, strerror(errno));
    pascal_tmpfile_guard_end(&mask);
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

int pascal_tmpfile_commit(const char *tmp, const char *dest, pascal_error *err)
{
    int fd = open(tmp, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fdatasync(fd) != 0) {
        pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", dest, strerror(errno));
        if (fd >= 0)
            close(fd);
        unlink(tmp);
        return PASCAL_EIO;
    }
    close(fd);
    if (rename(tmp, dest) == 0) {
        sync_dir_of(dest);
        return 0;
    }
    pascal_error_set(err, PASCAL_EIO, "cannot rename %s to %s: %s", tmp, dest, strerror(errno));
    unlink(tmp);
    return PASCAL_EIO;
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
