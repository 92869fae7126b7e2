/* Sweep specs (DESIGN.md section 4): parse a YAML spec with libyaml, validate
 * it, and expand it lazily into points.
 *
 * A spec names the models to evaluate, fixed parameters and axes.  Axes are
 * lists, linear ranges or log ranges; sizes take units; axes form a cartesian
 * product unless grouped with `zip`; `where` filters drop points; `require`
 * assertions reject the spec.  Derived values: M = sms * occupancy (or the
 * length of an explicit phase list), C = floor(capacity_bytes / block_bytes),
 * N = data_bytes / block_bytes; a value given directly overrides the derived
 * one.  A device profile (`device: devices/gb10.yaml`, relative to the spec,
 * or a shipped profile's name, `device: gb10`: devices/profile.h) supplies
 * sms and capacity_bytes (its effective L2) as defaults.
 *
 * Canonical order: each axis, or each zip group, is one dimension of a
 * mixed-radix index whose last dimension varies fastest.  Dimensions keep the
 * spec's order, except that capacity-like ones (PASCAL_PF_INNER parameters:
 * capacity, associativity, ...) move after all others, so consecutive points
 * share a phase vector.  Expansion is O(dimensions) per point and allocates
 * nothing: a billion-point spec costs no memory until evaluated. */
#ifndef PASCAL_SWEEPS_SPEC_H
#define PASCAL_SWEEPS_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "pascal/spec.h"
#include "vocab/params.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_point {
    double v[PASCAL_NPARAM];  /* indexed by pascal_param_id; NaN = not set */
    const int64_t *phases;    /* explicit pattern: M phases (owned by the spec), else NULL */
} pascal_point;

typedef struct pascal_axis {
    int param;              /* pascal_param_id */
    int dim;                /* dimension (zip group members share one) */
    int64_t count;          /* number of values, >= 1 */
    const double *values;   /* count values: numbers (sizes in bytes), pattern
                               kinds for `pattern`, list indices for `phases` */
} pascal_axis;

typedef struct pascal_spec_output {
    int compression;        /* 0: none, else deflate level 1..9 */
    int shuffle;            /* byte shuffle before deflate */
    int64_t chunk_rows;     /* HDF5 chunk length in rows */
} pascal_spec_output;

const char *pascal_spec_text(const pascal_spec *spec); /* the full text as read */
const char *pascal_spec_device_text(const pascal_spec *spec); /* device profile text, or "" */
/* A device axis (axes.device, docs/workloads.md section 9): its profiles,
 * at most PASCAL_SPEC_MAX_DEVICES; 0 without one.  Profile k's resolved
 * path, text and label (the name the axis gives it); labels as an array
 * for the output's axis labels.  With an axis, pascal_spec_device_path
 * and _text join every profile's, so that digests cover them all. */
#define PASCAL_SPEC_MAX_DEVICES 16
int pascal_spec_ndevices(const pascal_spec *spec);
const char *pascal_spec_device_path_k(const pascal_spec *spec, int k);
const char *pascal_spec_device_text_k(const pascal_spec *spec, int k);
const char *const *pascal_spec_device_labels(const pascal_spec *spec, int *n);
/* A parameter's value names (pascal_param_labels), the device axis's
 * profiles for device. */
const char *const *pascal_spec_param_labels(const pascal_spec *spec, int param, int *n);
const char *pascal_spec_description(const pascal_spec *spec); /* or "" */
/* The device profile path as resolved against the spec's folder, or "". */
const char *pascal_spec_device_path(const pascal_spec *spec);

/* The calibration file of the dynamic model (`calibration:`, resolved
 * against the spec's folder), or "" when absent; *line and *col (may be
 * NULL) say where the key's value was written. */
const char *pascal_spec_calibration(const pascal_spec *spec, int *line, int *col);

/* 1 when the spec says `extrapolation: nan`: the dynamic model refuses
 * answers held at the edge of the calibrated range (code 14) instead of
 * holding them (the default, `hold`). */
int pascal_spec_extrapolation_nan(const pascal_spec *spec);
/* 1: `infeasible: skip` (points the device cannot run are dropped). */
int pascal_spec_infeasible_skip(const pascal_spec *spec);
/* "50MB (spec.yaml:7:20) is a decimal size: ..." for the first size the
 * spec writes with a decimal unit (kB, KB, MB, GB, TB), else "". */
const char *pascal_spec_decimal_note(const pascal_spec *spec);

/* Bit mask of requested models (1u << pascal_model_id). */
unsigned pascal_spec_models(const pascal_spec *spec);
/* Whether every point is a whole model step (a model: section). */
int pascal_spec_is_step(const pascal_spec *spec);
/* Requested result columns in output order (pascal_column_id values): the
 * spec's `columns`, or every column of every requested model. */
int pascal_spec_ncolumns(const pascal_spec *spec);
const int *pascal_spec_columns(const pascal_spec *spec);

/* Fixed values (from the device profile and `fixed`), NaN where unset. */
const pascal_point *pascal_spec_fixed(const pascal_spec *spec);

int pascal_spec_naxes(const pascal_spec *spec);
/* Axis i in canonical order (dimension order, zip members in spec order). */
const pascal_axis *pascal_spec_axis(const pascal_spec *spec, int i);
int pascal_spec_ndims(const pascal_spec *spec);
int64_t pascal_spec_dim_size(const pascal_spec *spec, int dim);

/* Explicit phase lists: count, and list i with its length. */
int64_t pascal_spec_nphase_lists(const pascal_spec *spec);
const int64_t *pascal_spec_phase_list(const pascal_spec *spec, int64_t i, int64_t *len);

/* Expands raw index i (0 <= i < size) into p, with N, M and C derived.
 * Returns 1 when the point is kept, 0 when a `where` filter drops it, and
 * PASCAL_EINPUT when the point is invalid or a `require` assertion fails
 * (err says which point: its coordinates, the rule, the values); callers
 * check every point before writing any output.  Thread-safe.  In a sampled
 * spec (sweeps/sample.h) i is a draw, and a Sobol spec may first step GSL
 * up to it, once, under the spec's lock. */
int pascal_spec_point(const pascal_spec *spec, uint64_t i, pascal_point *p,
                      pascal_error *err);

/* Output options from the spec's `output` section (defaults when absent). */
pascal_spec_output pascal_spec_output_options(const pascal_spec *spec);

/* ---- planning support (sweeps/spec_deps.c) --------------------------------
 * What a point's checks read, so that a planner can run a check over the
 * values of the axes it depends on instead of over every point.  Masks are
 * (1 << pascal_param_id). */

/* The parameters whose values decide those in `params` at a point: N, M and
 * C add what they are derived from when they are not given directly
 * (data_bytes and block_bytes; sms, occupancy, and pattern and phases when a
 * phase list is set; capacity_bytes and block_bytes), and with a workload N
 * and block_bytes add every workload field. */
uint64_t pascal_spec_param_deps(const pascal_spec *spec, uint64_t params);
/* The parameters the `where` filters read (closed under derivation). */
uint64_t pascal_spec_where_deps(const pascal_spec *spec);
/* The checks pascal_spec_point makes on a kept point (N >= 1, C >= 1, M set,
 * phase list against M and N, a workload's shape, each `require`), one mask
 * of the parameters each reads (closed under derivation), into
 * masks[0..max); returns how many there are (at most 5 + the number of
 * `require` rules; with fewer slots the last takes the union of the rest,
 * a superset, which is still sound; 0 when max < 5). */
int pascal_spec_check_deps(const pascal_spec *spec, uint64_t *masks, int max);

/* Sets err to a point error in the spec's format,
 *     file:line:col: key.path: MESSAGE at point I (axis=value, ...)
 * located where `param` got its value (for a derived N, M or C: the axis or
 * key it is derived from), and returns PASCAL_EINPUT.  `extra` (a param
 * mask) adds parameters that are not axes to the point's description. */
int pascal_spec_point_error(const pascal_spec *spec, int param, const pascal_point *p,
                            uint64_t i, uint64_t extra, pascal_error *err, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* Sets err to "file:line:col: where: MESSAGE" at the first `where` rule (at
 * the spec's first line without one); returns PASCAL_EINPUT. */
int pascal_spec_where_error(const pascal_spec *spec, pascal_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

#endif
