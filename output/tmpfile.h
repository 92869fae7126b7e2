/* Files that appear only when complete.  Every writer in pascal (sweep sinks,
 * calibration files, merged shards, report pages) writes "<dest>.tmp.<pid>"
 * beside its destination, so that rename() onto dest is atomic, and removes
 * it on failure: an existing dest is never damaged by a failed run. */
#ifndef PASCAL_OUTPUT_TMPFILE_H
#define PASCAL_OUTPUT_TMPFILE_H

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Creates the temporary file beside dest exclusively (mode 0666 & ~umask)
 * and returns its descriptor; *tmp receives its malloc'd name.  Fails with
 * PASCAL_EIO, *tmp NULL, when dest is a directory ("cannot write DEST: Is a
 * directory") or the file cannot be created ("cannot create TMP: reason"). */
int pascal_tmpfile_create(const char *dest, char **tmp, pascal_error *err);

/* Renames tmp onto dest; on failure removes tmp and says why. */
int pascal_tmpfile_commit(const char *tmp, const char *dest, pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
