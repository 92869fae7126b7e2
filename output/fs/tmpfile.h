/* Files that appear only when complete.  Every writer in pascal (sweep sinks,
 * calibration files, merged shards, report pages) writes "<dest>.tmp.<pid>"
 * beside its destination, so that rename() onto dest is atomic, and removes
 * it on failure: an existing dest is never damaged by a failed run. */
#ifndef PASCAL_OUTPUT_FS_TMPFILE_H
#define PASCAL_OUTPUT_FS_TMPFILE_H

#include <signal.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Creates the temporary file beside dest exclusively (mode 0666 & ~umask)
 * and returns its descriptor; *tmp receives its malloc'd name.  Fails with
 * PASCAL_EIO, *tmp NULL, when dest is a directory ("cannot write DEST: Is a
 * directory") or the file cannot be created ("cannot create TMP: reason"). */
int pascal_tmpfile_create(const char *dest, char **tmp, pascal_error *err);

/* Renames tmp onto dest, once its bytes are on disk (so that a power cut
 * never leaves a complete-looking but empty file); on failure removes tmp
 * and says why. */
int pascal_tmpfile_commit(const char *tmp, const char *dest, pascal_error *err);
/* Makes the bytes of the file at path, and its folder's entry, durable. */
int pascal_tmpfile_sync(const char *path, pascal_error *err);

/* Files this process is writing (temporary files, lock files), removed by
 * pascal_tmpfile_remove_all(), which a signal handler that then ends the
 * process may call (it only calls unlink).  A name already renamed or
 * removed is harmless there.  pascal_tmpfile_create tracks its files
 * itself. */
void pascal_tmpfile_track(const char *path);
void pascal_tmpfile_remove_all(void);
/* Around the creation and the tracking of such a file: a Ctrl-C between the
 * two would leave the file behind.  begin blocks SIGINT and SIGTERM in the
 * calling thread (*old receives its mask) until end; a handler running
 * meanwhile in another thread (an OpenMP worker) waits in
 * pascal_tmpfile_remove_all for end before it removes anything. */
void pascal_tmpfile_guard_begin(sigset_t *old);
void pascal_tmpfile_guard_end(const sigset_t *old);

/* Removes the temporary files of dest ("<dest>.tmp.<pid>" and its numbered
 * neighbours) except `keep` (may be NULL), and returns how many it removed.
 * Only for a caller holding dest's claim (output/fs/lock.h): every such file
 * then belongs to a process that is gone. */
int pascal_tmpfile_clean(const char *dest, const char *keep);

#ifdef __cplusplus
}
#endif

#endif
