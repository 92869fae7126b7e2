/* Expressions of a spec's `where` filters and `require` assertions, such as
 *     C < N && clusters <= M
 *     pattern == "clusters" || capacity_bytes >= 20MiB
 * compiled once at parse time into a small stack program and evaluated per
 * point without allocating, so the evaluator can call it from every thread.
 *
 * Values are doubles.  Identifiers are parameter names (pascal_params) and
 * read a point's value after derivation (so N, M and C work); an unset
 * parameter reads NaN, and every comparison with NaN is false.  A string
 * literal is a pattern name and may only be compared with `pattern` by == or
 * !=.  Truth: a value is true when it is nonzero and not NaN; comparisons and
 * the logical operators give 1 or 0.  Grammar (C precedence, lowest first):
 *     or    := and ("||" and)*
 *     and   := eq ("&&" eq)*
 *     eq    := rel (("==" | "!=") rel)*
 *     rel   := sum (("<" | "<=" | ">" | ">=") sum)*
 *     sum   := term (("+" | "-") term)*
 *     term  := unary (("*" | "/" | "%") unary)*      % is fmod
 *     unary := ("-" | "+" | "!") unary | primary
 *     primary := number [unit] | identifier | "\"" name "\"" | "(" or ")"
 * Numbers are decimal (1, 2.5, 1e6); a unit right after a number makes it a
 * size in bytes (20MiB, 16KiB, 1.5GB) as pascal_size_parse reads it. */
#ifndef PASCAL_SWEEPS_EXPR_H
#define PASCAL_SWEEPS_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most operands an expression may hold pending at once; deeper expressions
 * are rejected at compile time so evaluation needs only a fixed stack. */
#define PASCAL_EXPR_STACK 32

typedef struct pascal_expr pascal_expr;

/* Compiles text.  On failure returns PASCAL_EINPUT (or PASCAL_ENOMEM), sets
 * *err_offset to the byte offset of the offending character in text, and
 * leaves in err->msg a message "expected ..., got ..." without any location
 * (the caller knows the file, line and key path). */
int pascal_expr_compile(const char *text, pascal_expr **out, size_t *err_offset,
                        pascal_error *err);
/* The same, with the names a spec gives its parameters' values: a device
 * axis's profiles for device (pascal_spec_param_labels). */
struct pascal_spec;
int pascal_expr_compile_for(const struct pascal_spec *spec, const char *text, pascal_expr **out,
                            size_t *err_offset, pascal_error *err);
void pascal_expr_free(pascal_expr *e);

/* Evaluates with v indexed by pascal_param_id (NaN = unset).  Pure and
 * allocation-free. */
double pascal_expr_eval(const pascal_expr *e, const double *v);
/* 1 when x counts as true: nonzero and not NaN. */
int pascal_expr_truth(double x);
/* Bit mask (1 << pascal_param_id) of the parameters the expression reads. */
uint64_t pascal_expr_params(const pascal_expr *e);

#ifdef __cplusplus
}
#endif

#endif
