/* Sampling a spec's space instead of enumerating it: the `sample:` section
 * (sweeps/SPEC.md, "Sampling").
 *
 *   sample: {method: sobol, n: 100000, seed: 7, inner: sample}
 *
 * A sampled spec has n draws.  Draw j is a point u_j of the unit cube, one
 * coordinate per sampled dimension (canonical dimension order: an axis, or a
 * zip group, is one dimension), and each coordinate picks the dimension's
 * value: a list or a grid range (step, num, factor) is a set of categories,
 * index floor(u count); an interval `{from, to}` (`scale: log` optional; only
 * in sampled specs) is continuous, integers and sizes drawn as whole
 * numbers, log intervals uniform in log space.
 *
 * The cube points:
 *   random  u_jd = uniform(seed, dimension d, draw j) from the counter-based
 *           generator of model/phases.h;
 *   lhs     u_jd = (pi_d(j) + uniform(seed, d, j)) / n with pi_d a keyed
 *           permutation of [0, n) (a Feistel network with cycle walking):
 *           exactly one draw in each of the n strata of every dimension;
 *   sobol   GSL's Sobol sequence (gsl_qrng_sobol): draw j is the (j+1)-th
 *           point gsl_qrng_get returns.
 * Every draw is a pure function of (spec, j): rows never depend on thread
 * count, batch size or sharding, and a raw index can be expanded alone.
 *
 * GSL's generator is sequential and its numerators have 30 bits, so
 * `sobol` allows at most 40 sampled dimensions and 2^30 - 1 draws.  Random
 * access uses the Gray-code construction GSL follows: x_t = XOR of the
 * direction numbers v_k over the bits of gray(t).  The spec keeps GSL's
 * point at every multiple of 4096 (a checkpoint) and v_0..v_11; any draw is
 * then its block's checkpoint XOR at most 12 direction numbers.  The
 * checkpoints are produced by stepping GSL, lazily and once, up to the
 * highest draw asked for: reaching draw j costs j GSL steps (about 0.1 us
 * each at 8 dimensions), paid once per process, so shard K of N pays for the
 * draws before its slice.
 *
 * `inner: grid` keeps capacity-like axes (PASCAL_PF_INNER) enumerated:
 * every draw of the other axes is evaluated at every value of them,
 * innermost, so the phase vector of a draw is built once (raw index =
 * j * inner + grid index).  The default `inner: sample` samples every axis:
 * one row per draw. */
#ifndef PASCAL_SWEEPS_SAMPLE_H
#define PASCAL_SWEEPS_SAMPLE_H

#include <stdint.h>

#include "sweeps/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pascal_sample_method {
    PASCAL_SAMPLE_RANDOM = 0,
    PASCAL_SAMPLE_SOBOL = 1,
    PASCAL_SAMPLE_LHS = 2,
    PASCAL_SAMPLE_COUNT = 3
} pascal_sample_method;

/* "random", "sobol", "lhs", indexed by method. */
extern const char *const pascal_sample_method_names[PASCAL_SAMPLE_COUNT];

/* GSL's Sobol limits (30-bit numerators; its table of 40 dimensions). */
#define PASCAL_SAMPLE_SOBOL_MAX_N ((UINT64_C(1) << 30) - 1)
#define PASCAL_SAMPLE_SOBOL_MAX_DIMS 40
/* random and lhs: draws are indexed by integers up to 2^53. */
#define PASCAL_SAMPLE_MAX_N (UINT64_C(1) << 53)

typedef struct pascal_sample_info {
    int method;             /* pascal_sample_method */
    uint64_t n;             /* draws */
    uint64_t seed;          /* random and lhs; 0 for sobol (unseeded) */
    int inner_grid;         /* 1: capacity-like axes enumerated at every draw */
    int ndims;              /* sampled dimensions: canonical dimensions [0, ndims) */
    uint64_t inner;         /* rows per draw (product of the enumerated dimensions) */
} pascal_sample_info;

/* The spec's sampling, or NULL for a grid spec. */
const pascal_sample_info *pascal_spec_sample(const pascal_spec *spec);
/* 1 when axis i (canonical order) is drawn rather than enumerated. */
int pascal_spec_axis_sampled(const pascal_spec *spec, int i);
/* 1 when axis i is an interval (its values are {from, to}), 2 for a log
 * interval, 0 for a list or grid range. */
int pascal_spec_axis_interval(const pascal_spec *spec, int i);
/* The unit-cube point of draw j (j < n): u[0..ndims-1], each in [0, 1).
 * Thread-safe; for sobol it may step GSL up to draw j first. */
void pascal_spec_sample_unit(const pascal_spec *spec, uint64_t j, double *u);

#ifdef __cplusplus
}
#endif

#endif
