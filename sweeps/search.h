/* Sizing targets and the `search:` section (sweeps/SPEC.md, "Sizing by
 * search"): "the smallest capacity whose rho_lru is <= 0.05".
 *
 *   search: {target: "rho_lru <= 0.05", worst: false}
 *
 * A target is `COLUMN OP NUMBER`.  Bisection on the capacity C (whole
 * blocks) finds the smallest C that meets it exactly, provided the column is
 * monotone in C with every other parameter fixed; the table
 * pascal_search_monotone states, for every column, which direction it has
 * and why (or why it has none), and targets on a column without one are
 * refused.  OP is `<=` or `<` for a column that does not increase with C
 * (miss counts and rates), `>=` or `>` for one that does not decrease (the
 * residency V, `shares`).  A NaN value never meets a target (Theorem 3's
 * band is NaN while D > C, which keeps the predicate monotone). */
#ifndef PASCAL_SWEEPS_SEARCH_H
#define PASCAL_SWEEPS_SEARCH_H

#include <stddef.h>

#include "common/error.h"
#include "sweeps/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pascal_target_op {
    PASCAL_TARGET_LE = 0,   /* <= */
    PASCAL_TARGET_LT = 1,   /* <  */
    PASCAL_TARGET_GE = 2,   /* >= */
    PASCAL_TARGET_GT = 3    /* >  */
} pascal_target_op;

typedef struct pascal_target {
    int column;             /* pascal_column_id */
    int op;                 /* pascal_target_op */
    double value;
} pascal_target;

/* Direction of a column in C, all else fixed. */
enum { PASCAL_MONO_NONE = 0, PASCAL_MONO_DOWN = -1 /* non-increasing */,
       PASCAL_MONO_UP = 1 /* non-decreasing */ };

typedef struct pascal_monotone_info {
    int column;             /* pascal_column_id */
    int direction;          /* PASCAL_MONO_* */
    const char *why;        /* the theorem or property, or why there is none */
} pascal_monotone_info;

/* 1 when a search of column on a spec of these models probes: the column
 * is not shown monotone, but is searched as if it fell with C and checked
 * on probes (engine/size.h): the answer is the smallest C from which every
 * capacity evaluated meets the target, and where the column rises with C
 * is reported.  The simulator's columns, and the answer and its band
 * where the simulator answers. */
int pascal_search_probed(int column, unsigned models);

/* The table: one row per column of the vocabulary (a column added later
 * without a row has no stated monotonicity and is refused). */
extern const pascal_monotone_info pascal_search_monotone[];
extern const int pascal_search_nmonotone;
/* The row of a column, or NULL. */
const pascal_monotone_info *pascal_search_monotone_of(int column);

/* Parses "rho_lru <= 0.05" (spaces optional; the number may carry a size
 * unit).  On failure returns PASCAL_EINPUT with *err_offset at the
 * offending character and err->msg "expected ..., got ..." without a
 * location; a column without monotonicity, or an operator against its
 * direction, is such a failure. */
int pascal_target_parse(const char *text, pascal_target *t, size_t *err_offset,
                        pascal_error *err);
/* 1 when v meets the target (NaN never does). */
int pascal_target_meets(const pascal_target *t, double v);
/* "rho_lru <= 0.05" */
void pascal_target_format(const pascal_target *t, char *buf, size_t len);

/* The spec's `search:` section, or NULL. */
typedef struct pascal_search {
    pascal_target target;
    int worst;              /* one answer for the worst case of all scenarios */
} pascal_search;
const pascal_search *pascal_spec_search(const pascal_spec *spec);

/* Whether a search over C can run on this spec with this target: the
 * target's model is requested; no `where` or `require` reads C or
 * capacity_bytes (the search varies them); the capacity axis, if any, is on
 * a dimension of its own (not zipped with another parameter).  Errors name
 * the spec's file, line and column where the rule or axis was written. */
int pascal_search_check(const pascal_spec *spec, const pascal_target *t, pascal_error *err);

/* The capacity axis a search replaces (the C axis, else capacity_bytes),
 * or -1 when the capacity is not swept. */
int pascal_search_capacity_axis(const pascal_spec *spec);

#ifdef __cplusplus
}
#endif

#endif
