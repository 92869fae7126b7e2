/* Internals shared by the spec parser's files (spec.c, spec_yaml.c,
 * spec_values.c, spec_axes.c, spec_point.c): the spec object itself and the
 * helpers that turn a YAML node into a located error message.  Not installed;
 * nothing outside sweeps/ includes it. */
#ifndef PASCAL_SWEEPS_SPEC_INTERNAL_H
#define PASCAL_SWEEPS_SPEC_INTERNAL_H

#include "model/phases.h"
#include <yaml.h>

#include "sweeps/devices.h"
#include "sweeps/expr.h"
#include "sweeps/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPEC_MAX_AXIS_VALUES 10000000 /* values per axis */
#define SPEC_PATH_MAX 160             /* key paths such as axes.capacity_bytes[2] */
/* YAML nodes a spec (or device profile) may hold once its aliases are
 * expanded: refuses alias fan-out ("billion laughs") before the reader
 * walks it.  A literal axis of SPEC_MAX_AXIS_VALUES values fits. */
#define SPEC_MAX_YAML_NODES 16777216
#define SPEC_MAX_YAML_DEPTH 1024      /* nesting the fan-out count follows */

/* Where something was written: one-based line and column. */
typedef struct spec_mark {
    const char *file;          /* the spec's or the device profile's name */
    int line, col;
    char path[SPEC_PATH_MAX];  /* key path */
} spec_mark;

/* A compiled where/require expression and its source. */
typedef struct spec_rule {
    pascal_expr *expr;
    char *text;
    spec_mark mark;
} spec_rule;

enum { SRC_NONE = 0, SRC_DEVICE, SRC_FIXED, SRC_AXIS, SRC_WORKLOAD };

struct pascal_spec {
    char *filename;            /* as given, or "<spec>" */
    char *text;                /* NUL-terminated copy of the spec */
    char *device_path;         /* resolved device profile path, or NULL */
    char *device_text;         /* its text, or NULL */
    char *calibration;         /* resolved calibration file path, or NULL */
    spec_mark calibration_mark;/* where `calibration` was written */
    int extrapolation_nan;     /* `extrapolation: nan` */
    char *name, *description;

    unsigned models;
    int ncolumns;
    int columns[PASCAL_NCOLUMN];

    pascal_point fixed;        /* device + fixed; NaN where unset or swept */
    int source[PASCAL_NPARAM]; /* SRC_*: who set each parameter */
    spec_mark src[PASCAL_NPARAM];

    int naxes;
    pascal_axis axes[PASCAL_NPARAM]; /* canonical order; values owned */
    int ndims;
    int64_t dim_size[PASCAL_NPARAM];
    uint64_t size;

    int64_t nphase_lists;
    int64_t *phase_data;       /* all lists back to back */
    int64_t *phase_off;        /* nphase_lists + 1 offsets into phase_data */
    int64_t phase_cap, phase_off_cap;

    int nwhere, nrequire;
    spec_rule *where, *require;

    pascal_spec_output output;
};

/* The document being read and where its errors go. */
typedef struct spec_ctx {
    pascal_spec *spec;
    yaml_document_t *doc;
    const char *file;          /* name used in messages for this document */
    pascal_error *err;
} spec_ctx;

/* spec_yaml.c */
int spec_fail(const spec_ctx *c, const yaml_node_t *node, const char *path, int code,
              const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Same message shape for a remembered mark. */
int spec_fail_mark(pascal_error *err, const spec_mark *m, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void spec_mark_of(const spec_ctx *c, const yaml_node_t *node, const char *path, spec_mark *m);
/* "\"text\"" for a scalar (truncated), "a list", "a mapping", "nothing". */
void spec_describe(const yaml_node_t *node, char *buf, size_t len);
int spec_is_null(const yaml_node_t *node);
const char *spec_scalar_text(const yaml_node_t *node); /* NULL unless a scalar */
yaml_node_t *spec_node(const spec_ctx *c, int index);
/* Child path helpers. */
void spec_path_key(char *buf, const char *path, const char *key);
void spec_path_index(char *buf, const char *path, long i);
/* Checks that node is a mapping with scalar, distinct keys; when valid is
 * not NULL, every key must be one of valid[0..nvalid). */
int spec_check_mapping(const spec_ctx *c, const yaml_node_t *node, const char *path,
                       const char *what, const char *const *valid, int nvalid);
/* Reads a whole file into a NUL-terminated buffer (PASCAL_EIO on failure). */
int spec_read_file(const char *path, char **text, size_t *len, pascal_error *err);
/* Loads a single-document YAML text; reports syntax errors with their mark. */
int spec_load_yaml(const char *text, size_t len, const char *file, yaml_document_t *doc,
                   pascal_error *err);
/* Reads the device profile named by node (a path relative to the spec, or a
 * shipped profile's name: sweeps/devices.h). */
int spec_load_device(const spec_ctx *c, const yaml_node_t *node);
/* Reads a loaded device profile document into dev; val[k] gets the value
 * node of each key present (SPEC_DEVICE_KEYS of them), for marks. */
#define SPEC_DEVICE_KEYS 6
int spec_parse_device(const spec_ctx *d, pascal_device_profile *dev, const yaml_node_t **val);

/* spec_values.c */
/* The value a parameter takes in messages: "a positive integer", ... */
const char *spec_expected(int param);
int spec_scalar_value(const spec_ctx *c, const yaml_node_t *node, int param, const char *path,
                      double *out);
int spec_string(const spec_ctx *c, const yaml_node_t *node, const char *path, const char *what,
                char **out);
/* Parses a phase list and appends it to the spec's lists; *index is its number. */
int spec_phase_list(const spec_ctx *c, const yaml_node_t *node, const char *path, int64_t *index);
/* Parses an axis (list or range) into a new array of values.  A range's
 * values are distinct; a list's are checked by spec_check_distinct once the
 * zip groups are known. */
int spec_axis_values(const spec_ctx *c, const yaml_node_t *node, int param, const char *path,
                     double **values, int64_t *count);
/* A list axis as written: its sequence node, key path and values. */
typedef struct spec_list_axis {
    const yaml_node_t *node;
    const char *path;
    int param;
    const double *values;
} spec_list_axis;
/* The k list axes read together (one ungrouped axis, or every member of a
 * zip group), n values each, give n distinct points: else an error at the
 * repeat that comes first. */
int spec_check_distinct(const spec_ctx *c, const spec_list_axis *ax, int k, int64_t n);

/* spec_axes.c */
int spec_parse_fixed(const spec_ctx *c, const yaml_node_t *node);
int spec_parse_axes(const spec_ctx *c, const yaml_node_t *axes_key, const yaml_node_t *axes,
                    const yaml_node_t *zip);
/* Static checks once everything is read: N, M and C derivable, patterns. */
int spec_check_derivable(const spec_ctx *c, const yaml_node_t *root);

/* workload.c: the `workload:` section (sweeps/workload.h) */
int spec_parse_workload(const spec_ctx *c, const yaml_node_t *node);
/* After the axes: the kind's required fields are set, no other kind's
 * fields, no N, data_bytes or block_bytes, and no causal mask with models
 * that need a ring scan. */
int spec_check_workload(const spec_ctx *c, const yaml_node_t *root);
/* Step 3 of a point with a workload: defaults, then N and block_bytes;
 * 0, or PASCAL_EINPUT for a refused shape. */
int spec_workload_point(const pascal_spec *spec, double *v, uint64_t i, pascal_error *err);

/* spec_point.c */
/* Formats a parameter's value as a spec would write it (sizes with units,
 * pattern names). */
void spec_format_value(const pascal_spec *spec, int param, double v, char *buf, size_t len);
/* "point 17 (a=1, b=2KiB, extra=3)": the axis coordinates, then the
 * parameters in `extra` (a 1 << param mask) that are not axes. */
void spec_describe_point(const pascal_spec *spec, const double *v, uint64_t i, uint64_t extra,
                         char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
