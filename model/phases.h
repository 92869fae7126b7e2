/* Phase patterns for sweeps (paper section 5.2) and the counter-based random
 * generator behind the random ones.
 *
 * A random pattern's phases are a pure function of (seed, key, m): the key is
 * built by the caller from the coordinates that define the phase vector, so a
 * point's phases never depend on thread count, batch boundaries or sharding,
 * and points that differ only in capacity share one phase vector. */
#ifndef PASCAL_MODEL_PHASES_H
#define PASCAL_MODEL_PHASES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pascal_pattern_kind {
    PASCAL_PATTERN_ALIGNED = 0,   /* every phase 0 */
    PASCAL_PATTERN_CLUSTERS = 1,  /* k equal clusters, optional spread */
    PASCAL_PATTERN_EQUAL = 2,     /* equally spaced: s_m = floor(m N / M) */
    PASCAL_PATTERN_UNIFORM = 3,   /* independent uniform on [0, N) */
    PASCAL_PATTERN_GAUSSIAN = 4,  /* wrapped Gaussian, mean 0, sd sigma */
    PASCAL_PATTERN_LAG = 5,       /* constant lag: s_m = (m lag) mod N */
    PASCAL_PATTERN_EXPLICIT = 6,  /* a given list */
    PASCAL_PATTERN_COUNT = 7
} pascal_pattern_kind;

/* Names used in specs and on the command line, indexed by kind:
 * aligned, clusters, equal, uniform, gaussian, lag, explicit. */
extern const char *const pascal_pattern_names[PASCAL_PATTERN_COUNT];
/* Kind for a name, or -1. */
int pascal_pattern_from_name(const char *name);
/* For discovery (`pascal list patterns`), indexed by kind: what the pattern
 * does, the spec parameters it reads, and its paper reference ("" for
 * pascal's own). */
extern const char *const pascal_pattern_descriptions[PASCAL_PATTERN_COUNT];
extern const char *const pascal_pattern_params[PASCAL_PATTERN_COUNT];
extern const char *const pascal_pattern_refs[PASCAL_PATTERN_COUNT];

typedef struct pascal_pattern {
    pascal_pattern_kind kind;
    int64_t clusters;        /* CLUSTERS: k >= 1; worker m joins cluster m mod k,
                                whose centre is floor(c N / k) */
    int64_t spread;          /* CLUSTERS: the q-th of n members of a cluster sits
                                floor(q spread / n) blocks ahead of its centre;
                                0 puts them all on the centre */
    double sigma;            /* GAUSSIAN: standard deviation in blocks, >= 0 */
    int64_t lag;             /* LAG: blocks between consecutive workers */
    uint64_t seed;           /* UNIFORM, GAUSSIAN: generator seed */
    uint64_t key;            /* UNIFORM, GAUSSIAN: stream key (see above) */
    const int64_t *explicit_phases; /* EXPLICIT: M values, borrowed */
} pascal_pattern;

/* Writes M phases in [0, N) to out.  Returns 0, or -1 when the pattern's
 * parameters are invalid for (N, M) (k < 1, spread < 0, sigma < 0, N < 1,
 * M < 1, an explicit phase outside [0, N), or a missing explicit list). */
int pascal_phases_generate(const pascal_pattern *pat, int64_t N, int64_t M,
                           int64_t *out);

/* Counter-based generator, defined exactly (all arithmetic mod 2^64), so
 * that a sweep's random phases can be recomputed without this code:
 *   G = 0x9e3779b97f4a7c15
 *   f(z): z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
 *         z = (z ^ (z >> 27)) * 0x94d049bb133111eb;  z ^ (z >> 31)
 *         (SplitMix64's output function: f(G) = 0xe220a8397b1dcdaf is
 *         SplitMix64's first output from state 0)
 *   u64(seed, key, c) = f(f(f(seed + G) ^ key) + (c + 1) G)
 *   uniform(seed, key, c) = (u64(seed, key, c) >> 11) * 2^-53
 *   normal(seed, key, c) = sqrt(-2 ln(1 - u1)) cos(6.283185307179586 u2),
 *         u1 = uniform(seed, k, 2c), u2 = uniform(seed, k, 2c + 1),
 *         k = mix(key, 0x6e6f726d616c)
 *   mix(key, v) = f(key + G + f(v ^ 0xd1b54a32d192ed03))
 * Worker m of the uniform pattern sits at floor(uniform(seed, key, m) N)
 * (N - 1 if the product rounds up to N); of the gaussian pattern at
 * round(sigma normal(seed, key, m)) reduced into [0, N). */
uint64_t pascal_rng_u64(uint64_t seed, uint64_t key, uint64_t counter);
/* Uniform double in [0, 1) with 53 random bits. */
double pascal_rng_uniform(uint64_t seed, uint64_t key, uint64_t counter);
/* Standard normal deviate (Box-Muller on two counter draws). */
double pascal_rng_normal(uint64_t seed, uint64_t key, uint64_t counter);
/* Mixes a 64-bit value into a running key (for building pattern keys). */
uint64_t pascal_rng_mix(uint64_t key, uint64_t value);

#ifdef __cplusplus
}
#endif

#endif
