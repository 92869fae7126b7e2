/* Reading a whole file (common/readfile.h). */
#include "common/readfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int pascal_read_file(const char *path, size_t max, char **text, size_t *len, pascal_error *err)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    *text = NULL;
    *len = 0;
    struct stat st;
    if (!f)
        return pascal_error_set(err, PASCAL_EIO, "cannot read %s: %s", path, strerror(errno));
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return pascal_error_set(err, PASCAL_EIO, "cannot read %s: %s", path, strerror(EISDIR));
    }
    for (;;) {
        size_t got;
        if (cap - n < 4096) {
            size_t ncap = cap ? 2 * cap : 8192;
            char *nbuf = realloc(buf, ncap + 1);
            if (!nbuf) {
                free(buf);
                fclose(f);
                return pascal_error_set(err, PASCAL_ENOMEM, "out of memory reading %s", path);
            }
            buf = nbuf;
            cap = ncap;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n > max) { /* a device or a pipe has no size to check first */
            free(buf);
            fclose(f);
            return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a file of at most %zu MiB, "
                                    "got a longer one", path, max >> 20);
        }
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        return pascal_error_set(err, PASCAL_EIO, "cannot read %s: %s", path, strerror(e ? e : EIO));
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}
