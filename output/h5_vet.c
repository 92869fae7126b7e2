/* Opening a file someone else may have damaged (output/sink_internal.h:
 * pascal_h5_open_read).  HDF5 1.10 trusts a file's metadata: a flipped byte
 * in an attribute's global-heap reference or an object header can make it
 * read outside its buffers (a crash) or walk a cycle (a hang), and no return
 * code says so.  So before a file is opened for reading, a child process
 * reads everything a reader of pascal's files touches: every object's
 * header, every attribute (values included: variable-length strings live in
 * the global heap), every dataset's type, space and creation properties,
 * and the data of every dataset up to a budget.  A child that crashes, does
 * not finish within a time limit, or meets an error reading a file that
 * HDF5 opened (a checksum that fails, a header it cannot decode) makes the
 * file refused as damaged (PASCAL_EINPUT, naming what could not be read),
 * and this process is never at risk.  A file HDF5 cannot open at all is
 * left to the reader, which says what it expected.  The child reads the
 * same bytes the parent will, in the same library, so what it survives the
 * parent survives too.  Linux: the child dies with its parent
 * (PR_SET_PDEATHSIG), so a Ctrl-C leaves none behind. */
#include "output/sink_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define VET_SECONDS 30                      /* the child's time to read it all */
#define VET_DATA_BYTES ((hsize_t)8 << 20)   /* data read per dataset, at most */

typedef struct vet {
    void *buf;
    size_t cap;
    char first[PASCAL_ERROR_MAX]; /* the first thing that could not be read */
} vet;

/* Remembers the first failure, with HDF5's reason. */
static void failed(vet *v, const char *what, const char *name)
{
    char w[600];
    pascal_error e = {0};
    if (v->first[0])
        return;
    snprintf(w, sizeof w, "%s %s", what, name);
    pascal_h5_fail(&e, "", w);
    snprintf(v->first, sizeof v->first, "%s", e.msg + 2); /* less the empty path's ": " */
}

static int grow(vet *v, size_t n)
{
    void *b;
    if (n <= v->cap)
        return 0;
    if (!(b = realloc(v->buf, n)))
        return -1;
    v->buf = b, v->cap = n;
    return 0;
}

/* Reads an attribute whole, as its own type (strings and vlen included). */
static herr_t vet_attr(hid_t obj, const char *name, const H5A_info_t *info, void *data)
{
    vet *v = data;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT), t = -1, s = -1;
    hssize_t n;
    size_t size;
    (void)info;
    if (a >= 0 && (t = H5Aget_type(a)) >= 0 && (s = H5Aget_space(a)) >= 0 &&
        (n = H5Sget_simple_extent_npoints(s)) >= 0 && (size = H5Tget_size(t)) > 0 &&
        (hsize_t)n <= VET_DATA_BYTES / size && grow(v, (size_t)n * size + 16) == 0 &&
        H5Aread(a, t, v->buf) >= 0) {
        if (H5Tis_variable_str(t) > 0 || H5Tget_class(t) == H5T_VLEN)
            H5Dvlen_reclaim(t, s, H5P_DEFAULT, v->buf);
    } else {
        failed(v, "reading the attribute", name);
    }
    if (s >= 0) H5Sclose(s);
    if (t >= 0) H5Tclose(t);
    if (a >= 0) H5Aclose(a);
    return 0; /* on to the next one, whatever this one gave */
}

/* A dataset's type, space, creation properties and data (up to the
 * budget, as stored: the chunk index and every filter are exercised). */
static void vet_dataset(hid_t file, const char *name, vet *v)
{
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT), t = -1, s = -1, p = -1, ms = -1;
    hssize_t n;
    size_t size;
    int ok = d >= 0 && (t = H5Dget_type(d)) >= 0 && (s = H5Dget_space(d)) >= 0 &&
             (p = H5Dget_create_plist(d)) >= 0 && (n = H5Sget_simple_extent_npoints(s)) >= 0 &&
             (size = H5Tget_size(t)) > 0;
    if (!ok)
        failed(v, "opening", name);
    if (ok && n > 0 && H5Tis_variable_str(t) <= 0 && H5Tget_class(t) != H5T_VLEN &&
        H5Tget_class(t) != H5T_REFERENCE) {
        hsize_t count = (hsize_t)n, start = 0;
        if (count * size > VET_DATA_BYTES)
            count = VET_DATA_BYTES / size;
        /* pascal's files hold 1-D datasets only; others are not read */
        if (grow(v, (size_t)(count * size)) == 0 && H5Sget_simple_extent_ndims(s) == 1 &&
            (H5Sselect_hyperslab(s, H5S_SELECT_SET, &start, NULL, &count, NULL) < 0 ||
             (ms = H5Screate_simple(1, &count, NULL)) < 0 ||
             H5Dread(d, t, ms, s, H5P_DEFAULT, v->buf) < 0))
            failed(v, "reading", name);
    }
    if (ms >= 0) H5Sclose(ms);
    if (p >= 0) H5Pclose(p);
    if (s >= 0) H5Sclose(s);
    if (t >= 0) H5Tclose(t);
    if (d >= 0) H5Dclose(d);
}

static herr_t vet_object(hid_t file, const char *name, const H5O_info_t *info, void *data)
{
    vet *v = data;
    hid_t o = H5Oopen(file, name, H5P_DEFAULT);
    hsize_t idx = 0;
    if (o < 0 || H5Aiterate2(o, H5_INDEX_NAME, H5_ITER_NATIVE, &idx, vet_attr, v) < 0)
        failed(v, "reading the attributes of", name);
    if (o >= 0)
        H5Oclose(o);
    if (info->type == H5O_TYPE_DATASET)
        vet_dataset(file, name, v);
    return 0;
}

/* The child: it writes the first failure, if any, to fd and exits 0
 * unless it crashes or is killed. */
static int vet_child(const char *path, int fd)
{
    vet v = {NULL, 0, ""};
    hid_t f;
    pascal_h5_quiet();
    if ((f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) >= 0) {
        if (H5Ovisit(f, H5_INDEX_NAME, H5_ITER_NATIVE, vet_object, &v) < 0)
            failed(&v, "walking", "its groups");
        if (H5Fclose(f) < 0)
            failed(&v, "closing", "it");
    }
    free(v.buf);
    for (size_t n = strlen(v.first), k = 0; k < n;) {
        ssize_t w = write(fd, v.first + k, n - k);
        if (w <= 0)
            break;
        k += (size_t)w;
    }
    return 0;
}

/* 1 while the child runs, else its status in *status. */
static int still_running(pid_t pid, int *status)
{
    pid_t r;
    while ((r = waitpid(pid, status, WNOHANG)) < 0 && errno == EINTR)
        ;
    return r == 0;
}

static int vet_file(const char *path, pascal_error *err)
{
    struct timespec ms = {0, 1000000};
    pid_t parent = getpid(), pid;
    char why[PASCAL_ERROR_MAX] = "";
    int status = 0, fds[2];
    ssize_t got;
    fflush(NULL);
    if (pipe(fds) != 0)
        return pascal_error_set(err, PASCAL_EIO, "%s: cannot check the file: %s", path,
                                strerror(errno));
    if ((pid = fork()) < 0) {
        close(fds[0]), close(fds[1]);
        return pascal_error_set(err, PASCAL_EIO, "%s: cannot check the file: %s", path,
                                strerror(errno));
    }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        close(fds[0]);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1);
        if (null >= 0) { /* a crash report or an HDF5 stack would confuse the user */
            dup2(null, 1);
            dup2(null, 2);
        }
        _exit(vet_child(path, fds[1]));
    }
    close(fds[1]);
    for (long t = 0; still_running(pid, &status); t++) {
        if (t >= VET_SECONDS * 1000L) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            close(fds[0]);
            return pascal_error_set(err, PASCAL_EINPUT, "%s: expected an HDF5 file pascal can "
                                    "read, got a damaged one (reading its metadata did not "
                                    "finish in %d s)", path, VET_SECONDS);
        }
        nanosleep(&ms, NULL);
    }
    /* The message is short: the child wrote it whole before it exited. */
    got = read(fds[0], why, sizeof why - 1);
    close(fds[0]);
    why[got > 0 ? got : 0] = '\0';
    /* Only a child that finished its reading returns 0 (a sanitizer's
     * report, for one, ends it with another status). */
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !why[0])
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected an HDF5 file pascal can read, "
                                "got a damaged one (%s)", path, why);
    if (WIFEXITED(status))
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected an HDF5 file pascal can read, "
                                "got a damaged one (reading it stopped the reader, status %d)",
                                path, WEXITSTATUS(status));
    return pascal_error_set(err, PASCAL_EINPUT, "%s: expected an HDF5 file pascal can read, got "
                            "a damaged one (reading it crashed HDF5: signal %d)", path,
                            WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int pascal_h5_vet(const char *path, pascal_error *err)
{
    return vet_file(path, err);
}

hid_t pascal_h5_open_read(const char *path, pascal_error *err)
{
    if (vet_file(path, err) != 0)
        return PASCAL_H5_DAMAGED;
    pascal_h5_quiet();
    return H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
}
