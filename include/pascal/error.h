/* How every fallible libpascal call reports failure: it returns a status (0
 * on success, a negative PASCAL_E* code on failure) and fills a caller-owned
 * pascal_error, its last argument, whose message is one line a person can
 * act on, for example
 *     configs/h100.yaml:14:9: axes.capacity: expected a size like 20MiB, got "-3"
 * Fixed buffers: nothing to free.  The library never prints or exits. */
#ifndef PASCAL_ERROR_H
#define PASCAL_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

#define PASCAL_ERROR_MAX 1024

/* Failure classes; the CLI maps PASCAL_EINPUT to exit status 2. */
enum {
    PASCAL_OK = 0,
    PASCAL_EINPUT = -2,   /* bad spec, flag or file supplied by the user */
    PASCAL_EIO = -3,      /* could not read or write a file */
    PASCAL_ENOMEM = -4,   /* allocation failed */
    PASCAL_EINTERNAL = -5,/* a bug: an invariant did not hold */
    PASCAL_EINTR = -6     /* stopped on request; partial work kept to resume */
};

typedef struct pascal_error {
    int code;                    /* one of the PASCAL_E* values, 0 when unset */
    char msg[PASCAL_ERROR_MAX];  /* one line, no trailing newline */
} pascal_error;

#ifdef __cplusplus
}
#endif

#endif
