/* Guarding an output before any work: it must not be one of the command's
 * inputs, and only one process may write it at a time.
 *
 * Every command that writes a file (run, merge, calibrate, report, validate)
 * calls pascal_output_claim() first.  It refuses, with PASCAL_EINPUT:
 *   - a destination that is the same file as an input (device and inode
 *     after resolving links, so another name for the spec is caught too);
 *   - a destination that is a directory, or whose folder cannot be written;
 *   - a destination another process is writing: the claim is an advisory
 *     lock (flock) on "<dest>.lock", which names its holder (pid and
 *     command line).  The kernel drops the lock when its holder dies, so
 *     the lock file of a killed run never blocks the next one.
 * While the claim is held, every "<dest>.tmp.*" beside the destination was
 * left by a process that is gone (a live writer would hold the lock). */
#ifndef PASCAL_OUTPUT_FS_LOCK_H
#define PASCAL_OUTPUT_FS_LOCK_H

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An input of a command: what it is, for messages ("spec", "device
 * profile", "shard"), and its path (NULL or "" entries are skipped). */
typedef struct pascal_input {
    const char *what;
    const char *path;
} pascal_input;

typedef struct pascal_lock pascal_lock;

/* PASCAL_EINPUT when dest is one of inputs[0..n-1]:
 * "DEST: -o: expected a file that is not one of the inputs, got the device
 * profile PATH itself".  A dest that does not exist yet is never an input. */
int pascal_output_check_inputs(const char *dest, const pascal_input *inputs, int n,
                               pascal_error *err);

/* Checks the inputs and that dest, when it exists, is a regular file (it is
 * replaced by a rename: a device or a pipe would be replaced, not written
 * to), then takes "<dest>.lock"; holder is recorded in it
 * ("pascal run spec.yaml -o out.h5").  *out is freed by
 * pascal_output_release.  dest "-" (stdout) needs no claim: *out is NULL. */
int pascal_output_claim(const char *dest, const pascal_input *inputs, int n,
                        const char *holder, pascal_lock **out, pascal_error *err);
/* Removes the lock file and drops the lock; NULL is a no-op. */
void pascal_output_release(pascal_lock *lock);

#ifdef __cplusplus
}
#endif

#endif
