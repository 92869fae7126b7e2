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

#include "pascal/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Names used in specs and on the command line, indexed by kind:
 * aligned, clusters, equal, uniform, gaussian, lag, explicit. */
extern const char *const pascal_pattern_names[PASCAL_PATTERN_COUNT];
/* For discovery (`pascal list patterns`), indexed by kind: what the pattern
 * does, the spec parameters it reads, and its paper reference ("" for
 * pascal's own). */
extern const char *const pascal_pattern_descriptions[PASCAL_PATTERN_COUNT];
extern const char *const pascal_pattern_params[PASCAL_PATTERN_COUNT];
extern const char *const pascal_pattern_refs[PASCAL_PATTERN_COUNT];

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
