/* Small helpers of the evaluator's files (eval.c, eval_phases.c). */
#ifndef PASCAL_ENGINE_EVAL_UTIL_H
#define PASCAL_ENGINE_EVAL_UTIL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* v, or dflt when v is unset (NaN). */
static inline double pascal_or_default(double v, double dflt)
{
    return isnan(v) ? dflt : v;
}

/* The bits of v, to key a cache by a double exactly. */
static inline uint64_t pascal_bits_of(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

#endif
