/* Internals shared by the spec parser's files (spec*.c, sample.c, search.c,
 * workload.c): the spec object itself, the reading context, and the parsers
 * of each section.  YAML nodes become located messages through
 * vocab/yaml.h.  Not installed; nothing outside sweeps/ includes it. */
#ifndef PASCAL_SWEEPS_SPEC_INTERNAL_H
#define PASCAL_SWEEPS_SPEC_INTERNAL_H

#include "devices/profile.h"
#include "model/phases.h"
#include "sweeps/expr.h"
#include "sweeps/spec.h"
#include "vocab/yaml.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPEC_MAX_AXIS_VALUES 10000000 /* values per axis */

/* A compiled where/require expression and its source. */
typedef struct spec_rule {
    pascal_expr *expr;
    char *text;
    yml_mark mark;
} spec_rule;

enum { SRC_NONE = 0, SRC_DEVICE, SRC_FIXED, SRC_AXIS, SRC_WORKLOAD };

/* One profile of a device axis (spec_device.c): what a point of it takes. */
typedef struct spec_device {
    char *path, *text;         /* resolved path, its text */
    char label[64];            /* as the axis names it, without folder and .yaml */
    double sms, capacity_bytes;/* effective L2, else nominal; NaN: none */
    double limit[PASCAL_NLIMITS];
    char limit_source[PASCAL_NLIMITS][256];
    double rate[9];
    double cost[3];            /* devices/profile.h PASCAL_COST_* order, NaN: none */
} spec_device;

struct pascal_spec {
    char *filename;            /* as given, or "<spec>" */
    char *text;                /* NUL-terminated copy of the spec */
    char *device_path;         /* resolved device profile path, or NULL */
    char *device_text;         /* its text, or NULL */
    char *calibration;         /* resolved calibration file path, or NULL */
    yml_mark calibration_mark; /* where `calibration` was written */
    int extrapolation_nan;     /* `extrapolation: nan` */
    char *name, *description;

    unsigned models;
    yml_mark models_mark;      /* where `models` was written */
    /* The device's limits (its profile's `limits`, NaN when absent) and
     * what an infeasible point does: 0 refused (exit 2), 1 skipped
     * (`infeasible: skip`). */
    double limit[PASCAL_NLIMITS];
    char limit_source[PASCAL_NLIMITS][256];
    yml_mark limit_mark[PASCAL_NLIMITS];
    int infeasible_skip;
    double device_sms;         /* the device profile's sms (NaN: none) */
    double rate[9];            /* the profile's rates (devices/profile.h order), NaN: none */
    double cost[3];            /* the profile's costs (PASCAL_COST_* order), NaN: none */
    /* A device axis (axes.device): its profiles, by value; the single
     * device_path and device_text above then join them all. */
    int ndevices;
    spec_device *devices;
    const char *device_labels[PASCAL_SPEC_MAX_DEVICES];
    char decimal_note[320];    /* the first size with a decimal unit, or "" */
    int ncolumns;
    int columns[PASCAL_NCOLUMN];

    int step;                  /* a model: section: every point is a whole model step */
    yml_mark step_mark;        /* ... its key */
    pascal_point fixed;        /* device + fixed; NaN where unset or swept */
    int source[PASCAL_NPARAM]; /* SRC_*: who set each parameter */
    yml_mark src[PASCAL_NPARAM];

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

    struct spec_sample *sample; /* `sample:` (sample.c), or NULL for a grid */
    struct spec_search *search; /* `search:` (search.c), or NULL */
};

/* The spec being read: the document (vocab/yaml.h) and the spec it fills. */
typedef struct spec_ctx {
    const yml_doc *y;
    pascal_spec *spec;
} spec_ctx;

/* spec_device.c: reads the device profile named by node (a path relative
 * to the spec, or a shipped profile's name: devices/profile.h). */
int spec_load_device(const spec_ctx *c, const yaml_node_t *node);
/* A device axis: node is its list of profiles; values 0 .. n - 1. */
int spec_device_axis(const spec_ctx *c, const yaml_node_t *node, const char *path, double **values,
                     int64_t *count);
/* The profile of point v: the axis's, else NULL (the spec's own fields). */
const spec_device *spec_point_device(const pascal_spec *spec, const double *v);

/* spec_values.c */
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
/* The `model:` section (docs/workloads.md section 11): its fields, and N
 * = 1, block_bytes = the 32-byte sector for the step's own point (each
 * kernel derives its own). */
int spec_parse_model(const spec_ctx *c, const yaml_node_t *key, const yaml_node_t *node);
/* After the axes: the kind's required fields are set, no other kind's
 * fields, no N, data_bytes or block_bytes, and no causal mask with models
 * that need a ring scan. */
int spec_check_workload(const spec_ctx *c, const yaml_node_t *root);
/* Step 3 of a point with a workload: defaults, then N and block_bytes;
 * 0, or PASCAL_EINPUT for a refused shape. */
int spec_workload_point(const pascal_spec *spec, double *v, uint64_t i, pascal_error *err);
/* ... with a model step: defaults, then every kernel's shape refused or
 * kept, and its waves bounded, as a workload's; C from the sector. */
int spec_model_point(const pascal_spec *spec, double *v, uint64_t i, pascal_error *err);

/* spec_describe.c */
/* Formats a parameter's value as a spec would write it (sizes with units,
 * pattern names). */
void spec_format_value(const pascal_spec *spec, int param, double v, char *buf, size_t len);
/* "point 17 (a=1, b=2KiB, extra=3)": the axis coordinates, then the
 * parameters in `extra` (a 1 << param mask) that are not axes. */
void spec_describe_point(const pascal_spec *spec, const double *v, uint64_t i, uint64_t extra,
                         char *buf, size_t len);

/* sample.c: the `sample:` section (sweeps/sample.h). */
struct spec_sample;
/* Reads the section (before the axes, which may then be intervals). */
int spec_parse_sample(const spec_ctx *c, const yaml_node_t *node);
/* 1 when node, the value of axis `param`, is an interval {from, to} of a
 * sampled spec rather than a grid range. */
int spec_sample_is_interval(const spec_ctx *c, const yaml_node_t *node, int param);
int spec_sample_interval(const spec_ctx *c, const yaml_node_t *node, int param, const char *path,
                         double **values, int64_t *count);
/* An interval named in a zip group is an error there (a group draws one
 * index for all its axes). */
int spec_sample_check_zip(const spec_ctx *c, const yaml_node_t *zip);
/* After the dimensions are built: the sampled dimensions, the size (draws x
 * enumerated points), the checks, and GSL's Sobol tables. */
int spec_sample_finish(const spec_ctx *c);
/* Writes the axis values of raw index i into v. */
void spec_sample_values(const pascal_spec *spec, uint64_t i, double *v);
void spec_sample_free(struct spec_sample *s);

/* search.c: the `search:` section (sweeps/search.h), read after the rules. */
struct spec_search;
int spec_parse_search(const spec_ctx *c, const yaml_node_t *node);
void spec_search_free(struct spec_search *s);

#ifdef __cplusplus
}
#endif

#endif
