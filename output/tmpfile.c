/* The temporary-file protocol shared by every writer; see tmpfile.h. */
#include "output/tmpfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
     * gets a numbered neighbour rather than being overwritten. */
    for (int i = 0; i < 100; i++) {
        int fd;
        if (i == 0)
            snprintf(*tmp, cap, "%s.tmp.%ld", dest, (long)getpid());
        else
            snprintf(*tmp, cap, "%s.tmp.%ld.%d", dest, (long)getpid(), i);
        fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST)
            break;
    }
    pascal_error_set(err, PASCAL_EIO, "cannot create %s: %s", *tmp, strerror(errno));
    free(*tmp);
    *tmp = NULL;
    return PASCAL_EIO;
}

int pascal_tmpfile_commit(const char *tmp, const char *dest, pascal_error *err)
{
    if (rename(tmp, dest) == 0)
        return 0;
    pascal_error_set(err, PASCAL_EIO, "cannot rename %s to %s: %s", tmp, dest, strerror(errno));
    unlink(tmp);
    return PASCAL_EIO;
}
