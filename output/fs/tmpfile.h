/* Files that appear only when complete.  Every writer in pascal (sweep sinks,
 * calibration files, merged shards, report pages) writes "<dest>.tmp.<pid>"
 * beside its destination, so that rename() onto dest is atomic, and removes
 * it on failure: an existing dest is never damaged by a failed run.
 *
 * Who removes such files when the process is interrupted is the program's
 * business, not the library's: libpascal installs no signal handler, blocks
 * no signal and keeps no list of files.  A program that handles Ctrl-C
 * registers hooks once (pascal_files_hooks_set, before it starts threads),
 * and the library tells them of every temporary or lock file it creates,
 * commits or removes (programs/signals.c is pascal's own).  Without hooks
 * nothing is called. */
#ifndef PASCAL_OUTPUT_FS_TMPFILE_H
#define PASCAL_OUTPUT_FS_TMPFILE_H

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_files_hooks {
    void *ctx;
    /* Before a file that must not outlive an interrupted process is
     * created.  Nonzero refuses the creation (the process is ending): the
     * call that wanted the file fails with PASCAL_EINTR. */
    int (*begin)(void *ctx);
    /* After a begin that returned 0: path is the file now created, or NULL
     * when the creation failed. */
    void (*end)(void *ctx, const char *path);
    /* The file at path was removed (dest NULL), or renamed onto dest: dest
     * is then complete. */
    void (*done)(void *ctx, const char *path, const char *dest);
} pascal_files_hooks;

/* Registers hooks (copied; NULL: none).  Not safe to call while another
 * thread uses the library. */
void pascal_files_hooks_set(const pascal_files_hooks *hooks);

/* Creates the temporary file beside dest exclusively (mode 0666 & ~umask)
 * and returns its descriptor; *tmp receives its malloc'd name.  Fails with
 * PASCAL_EIO, *tmp NULL, when dest is a directory ("cannot write DEST: Is a
 * directory") or the file cannot be created ("cannot create TMP: reason"),
 * and with PASCAL_EINTR when the hooks refuse it. */
int pascal_tmpfile_create(const char *dest, char **tmp, pascal_error *err);

/* Renames tmp onto dest, once its bytes are on disk (so that a power cut
 * never leaves a complete-looking but empty file); on failure removes tmp
 * and says why. */
int pascal_tmpfile_commit(const char *tmp, const char *dest, pascal_error *err);
/* The rename alone (from is kept on failure), between the hooks' begin and
 * end, which hear of it as done(from, dest); PASCAL_EINTR, renaming
 * nothing, when they refuse. */
int pascal_files_publish(const char *from, const char *dest, pascal_error *err);
/* Removes a temporary file that will not be committed. */
void pascal_tmpfile_discard(const char *tmp);
/* Makes the bytes of the file at path, and its folder's entry, durable. */
int pascal_tmpfile_sync(const char *path, pascal_error *err);

/* Around the creation of another such file (a lock file, output/fs/lock.h):
 * begin returns nonzero when the hooks refuse; end names the file created,
 * or NULL; done reports its removal. */
int pascal_files_begin(void);
void pascal_files_end(const char *path);
void pascal_files_done(const char *path);
void pascal_files_done_as(const char *path, const char *dest);

/* Removes the temporary files of dest ("<dest>.tmp.<pid>" and its numbered
 * neighbours) except `keep` (may be NULL), and returns how many it removed.
 * Only for a caller holding dest's claim (output/fs/lock.h): every such
 * file then belongs to a process that is gone. */
int pascal_tmpfile_clean(const char *dest, const char *keep);

#ifdef __cplusplus
}
#endif

#endif
