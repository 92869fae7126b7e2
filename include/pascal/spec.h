/* Sweep specs (sweeps/SPEC.md): a YAML file naming the models to evaluate,
 * fixed parameters and axes, checked whole when it is read (a rejection
 * names file:line:column, the key, what was expected and what was found)
 * and expanded lazily: point i of a billion-point spec is computed when it
 * is asked for, in the canonical order a run writes its rows in. */
#ifndef PASCAL_SPEC_H
#define PASCAL_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "pascal/error.h"
#include "pascal/version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_spec pascal_spec;

/* Reads and parses a spec file.  On failure returns PASCAL_EINPUT (or
 * PASCAL_EIO when the file cannot be read) with err naming
 * file:line:column: key.path: expected ..., got ... */
PASCAL_API int pascal_spec_load(const char *path, pascal_spec **out, pascal_error *err);

/* Parses spec text; `filename` is used in messages and to resolve the
 * device profile path (may be NULL: then relative to the working directory). */
PASCAL_API int pascal_spec_parse(const char *text, size_t len, const char *filename,
                                 pascal_spec **out, pascal_error *err);

PASCAL_API void pascal_spec_free(pascal_spec *spec);

PASCAL_API const char *pascal_spec_name(const pascal_spec *spec);

PASCAL_API const char *pascal_spec_filename(const pascal_spec *spec);

/* Number of raw points (product of dimension sizes, before `where`).  The
 * parser rejects specs whose count overflows 64 bits. */
PASCAL_API uint64_t pascal_spec_size(const pascal_spec *spec);

/* The value of parameter `param` (a name `pascal list axes` prints: "N", "M",
 * "C", "capacity_bytes", "occupancy", ...) at raw point i < pascal_spec_size:
 * derived values included, NaN when the point does not set it.  Returns 1,
 * or 0 when the spec's `where` drops the point (*value is then still set),
 * PASCAL_EINPUT for an unknown name or a point the spec rejects. */
PASCAL_API int pascal_spec_value(const pascal_spec *spec, uint64_t i, const char *param,
                                 double *value, pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
