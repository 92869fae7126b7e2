/* Error helpers: format a one-line message into a caller-owned buffer. */
#include "common/error.h"

#include <stdio.h>
#include <string.h>

int pascal_error_vset(pascal_error *err, int code, const char *fmt, va_list ap)
{
    if (err) {
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    }
    return code;
}

int pascal_error_set(pascal_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pascal_error_vset(err, code, fmt, ap);
    va_end(ap);
    return code;
}

void pascal_error_prefix(pascal_error *err, const char *fmt, ...)
{
    char head[PASCAL_ERROR_MAX], old[PASCAL_ERROR_MAX];
    va_list ap;
    if (!err)
        return;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    snprintf(err->msg, sizeof err->msg, "%.500s: %.500s", head, old);
}
