/* Error reporting shared by every libpascal module (the error type and
 * codes are public: pascal/error.h; setting them is the library's).
 *
 * Functions that can fail return a status (0 on success, negative on failure)
 * and take a caller-owned pascal_error as their last argument.  The message is
 * one compiler-style line a person can act on, for example
 *     configs/h100.yaml:14:9: axes.capacity: expected a size like 20MiB, got "-3"
 * Fixed buffers: nothing to free.  Library code never prints or exits; the CLI
 * prints err.msg and chooses the exit status. */
#ifndef PASCAL_COMMON_ERROR_H
#define PASCAL_COMMON_ERROR_H

#include <stdarg.h>

#include "pascal/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sets err (when not NULL) and returns code, so callers can write
 * `return pascal_error_set(err, PASCAL_EINPUT, "...", ...);`. */
int pascal_error_set(pascal_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int pascal_error_vset(pascal_error *err, int code, const char *fmt, va_list ap);

/* Prepends "prefix: " to an existing message (for adding file names). */
void pascal_error_prefix(pascal_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
}
#endif

#endif
