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
 * or a shipped profile's name, `device: gb10`: sweeps/devices.h) supplies
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
#include "sweeps/params.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_spec pascal_spec;

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

/* Reads and parses a spec file.  On failure returns PASCAL_EINPUT (or
 * PASCAL_EIO when the file cannot be read) with err naming
 * file:line:column: key.path: expected ..., got ... */
int pascal_spec_load(const char *path, pascal_spec **out, pascal_error *err);
/* Parses spec text; `filename` is used in messages and to resolve the
 * device profile path (may be NULL: then relative to the working directory). */
int pascal_spec_parse(const char *text, size_t len, const char *filename,
                      pascal_spec **out, pascal_error *err);
void pascal_spec_free(pascal_spec *spec);

const char *pascal_spec_name(const pascal_spec *spec);
const char *pascal_spec_filename(const pascal_spec *spec);
const char *pascal_spec_text(const pascal_spec *spec); /* the full text as read */
const char *pascal_spec_device_text(const pascal_spec *spec); /* device profile text, or "" */
const char *pascal_spec_description(const pascal_spec *spec); /* or "" */
/* The device profile path as resolved against the spec's folder, or "". */
const char *pascal_spec_device_path(const pascal_spec *spec);

/* The calibration file of the dynamic model (`calibration:`, resolved
 * against the spec's folder), or "" when absent; *line and *col (may be
 * NULL) say where the key's value was written. */
const char *pascal_spec_calibration(const pascal_spec *spec, int *line, int *col);

/* Bit mask of requested models (1u << pascal_model_id). */
unsigned pascal_spec_models(const pascal_spec *spec);
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

/* Number of raw points (product of dimension sizes, before `where`).  The
 * parser rejects specs whose count overflows 64 bits. */
uint64_t pascal_spec_size(const pascal_spec *spec);

/* Expands raw index i (0 <= i < size) into p, with N, M and C derived.
 * Returns 1 when the point is kept, 0 when a `where` filter drops it, and
 * PASCAL_EINPUT when the point is invalid or a `require` assertion fails
 * (err says which point: its coordinates, the rule, the values); callers
 * check every point before writing any output.  Thread-safe. */
int pascal_spec_point(const pascal_spec *spec, uint64_t i, pascal_point *p,
                      pascal_error *err);

/* Output options from the spec's `output` section (defaults when absent). */
pascal_spec_output pascal_spec_output_options(const pascal_spec *spec);

#ifdef __cplusplus
}
#endif

#endif
