/* The claim on an output: not an input, one writer at a time (lock.h).
 *
 * The lock file is removed when its holder releases it.  A process that
 * opened the old file just before the removal could then lock a file that
 * no longer has the name; so after locking, the descriptor and the name
 * must still be the same file, else the claim starts again. */
#include "output/fs/lock.h"
#include "common/testpoint.h"
#include "output/fs/tmpfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct pascal_lock {
    int fd;
    char *path;   /* "<dest>.lock" */
};

int pascal_output_check_inputs(const char *dest, const pascal_input *inputs, int n,
                               pascal_error *err)
{
    struct stat d, s;
    if (!dest || strcmp(dest, "-") == 0 || stat(dest, &d) != 0)
        return 0;
    for (int i = 0; i < n; i++) {
        const char *p = inputs[i].path;
        if (!p || !p[0] || stat(p, &s) != 0)
            continue;
        if (s.st_dev == d.st_dev && s.st_ino == d.st_ino)
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "%s: -o: expected a file that is not one of the inputs, got "
                                    "the %s %s itself", dest, inputs[i].what, p);
    }
    return 0;
}

/* "pid 1234 (pascal run s.yaml -o out.h5)" from the lock file, or a note. */
static void read_holder(int fd, char *buf, size_t len)
{
    char text[512];
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    long pid = 0;
    char *nl;
    text[n > 0 ? n : 0] = '\0';
    if ((nl = strchr(text, '\n')))
        *nl = '\0';
    if (sscanf(text, "%ld", &pid) == 1 && pid > 0 && strchr(text, ' '))
        snprintf(buf, len, "pid %ld (%s)", pid, strchr(text, ' ') + 1);
    else if (pid > 0)
        snprintf(buf, len, "pid %ld", pid);
    else
        snprintf(buf, len, "a process that has not yet written its name");
}

/* Opens and locks path; 1 when another process holds it (holder filled). */
static int lock_once(const char *dest, const char *path, int *out, char *holder, size_t hlen,
                     pascal_error *err)
{
    struct stat a, b;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    *out = -1;
    if (fd < 0) /* a folder that cannot be written is bad input, like any bad -o */
        return pascal_error_set(err, PASCAL_EINPUT, "%s: cannot write: %s", dest, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        if (e == EWOULDBLOCK)
            read_holder(fd, holder, hlen);
        close(fd);
        if (e == EWOULDBLOCK)
            return 1;
        return pascal_error_set(err, PASCAL_EINPUT, "cannot lock %s: %s", path, strerror(e));
    }
    if (fstat(fd, &a) != 0 || stat(path, &b) != 0 || a.st_dev != b.st_dev ||
        a.st_ino != b.st_ino) {
        close(fd);   /* removed by its last holder meanwhile: try again */
        return 0;
    }
    *out = fd;
    return 0;
}

static int record_holder(int fd, const char *path, const char *holder, pascal_error *err)
{
    char text[2048];
    int n = snprintf(text, sizeof text, "%ld %s\n", (long)getpid(), holder ? holder : "pascal");
    if (n >= (int)sizeof text)
        text[sizeof text - 2] = '\n', n = (int)sizeof text - 1;
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)n, 0) != n)
        return pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", path, strerror(errno));
    return 0;
}

int pascal_output_claim(const char *dest, const pascal_input *inputs, int n,
                        const char *holder, pascal_lock **out, pascal_error *err)
{
    struct stat st;
    char who[600];
    pascal_lock *lk;
    int rc, fd = -1;
    *out = NULL;
    if (!dest || !dest[0])
        return pascal_error_set(err, PASCAL_EINPUT, "output: expected a path, got none");
    if (strcmp(dest, "-") == 0)
        return 0;
    if ((rc = pascal_output_check_inputs(dest, inputs, n, err)))
        return rc;
    if (stat(dest, &st) == 0 && S_ISDIR(st.st_mode))
        return pascal_error_set(err, PASCAL_EINPUT, "%s: cannot write: %s", dest, strerror(EISDIR));
    /* The file is replaced by a rename: a device or a pipe would be
     * replaced, not written to. */
    if (stat(dest, &st) == 0 && !S_ISREG(st.st_mode))
        return pascal_error_set(err, PASCAL_EINPUT, "%s: -o: expected a regular file (or - for "
                                "stdout), got a device, pipe or socket", dest);
    if (!(lk = calloc(1, sizeof *lk)) || !(lk->path = malloc(strlen(dest) + sizeof ".lock"))) {
        free(lk);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", dest);
    }
    sprintf(lk->path, "%s.lock", dest);
    /* From the lock file's creation to the hooks' end, a Ctrl-C waits: it
     * would leave the file behind (tmpfile.h). */
    if (pascal_files_begin()) {
        free(lk->path);
        free(lk);
        return pascal_error_set(err, PASCAL_EINTR, "%s: interrupted", dest);
    }
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        if ((rc = lock_once(dest, lk->path, &fd, who, sizeof who, err)) < 0)
            break;
        if (rc == 1) {
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: expected an output no other process "
                                  "is writing, got one in use by %s, which holds %s; wait for "
                                  "it or choose another -o", dest, who, lk->path);
            break;
        }
    }
    if (rc == 0 && fd < 0)
        rc = pascal_error_set(err, PASCAL_EIO, "cannot lock %s: it keeps being replaced",
                              lk->path);
    lk->fd = fd;
    if (rc == 0)
        rc = record_holder(fd, lk->path, holder, err);
    if (rc) {
        if (fd >= 0) {
            unlink(lk->path);
            close(fd);
        }
        pascal_files_end(NULL);
        free(lk->path);
        free(lk);
        return rc;
    }
    pascal_testpoint("claim-locked");
    pascal_files_end(lk->path);
    *out = lk;
    return 0;
}

void pascal_output_release(pascal_lock *lk)
{
    if (!lk)
        return;
    unlink(lk->path);   /* before unlocking: see the top of the file */
    pascal_files_done(lk->path);
    close(lk->fd);
    free(lk->path);
    free(lk);
}
