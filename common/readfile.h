/* Reading a whole file into memory, for the parsers of every input (specs,
 * device profiles, reference tables). */
#ifndef PASCAL_COMMON_READFILE_H
#define PASCAL_COMMON_READFILE_H

#include <stddef.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the file at path into a malloc'd, NUL-terminated buffer (*len
 * bytes before the NUL), refusing one of more than max bytes before it is
 * all read (a device such as /dev/zero never ends).  PASCAL_EIO "cannot
 * read PATH: reason" (a folder included), PASCAL_EINPUT for a file too
 * long, or PASCAL_ENOMEM; *text is NULL on failure. */
int pascal_read_file(const char *path, size_t max, char **text, size_t *len, pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
