/* Phase patterns for sweeps (paper section 5.2) and the counter-based random
 * generator behind the random ones.
 *
 * The generator is stateless: every draw is a SplitMix64 output, the stream
 * start derived from (seed, key) and the position from the counter, so worker
 * m's phase is a pure function of (seed, key, m) and never depends on thread
 * count or evaluation order.  Only integer arithmetic and exactly rounded
 * IEEE-754 operations are used, so results are the same on every platform,
 * except for libm's log and cos in the Gaussian pattern (see
 * pascal_rng_normal). */
#include "model/phases.h"

#include <math.h>
#include <string.h>

const char *const pascal_pattern_names[PASCAL_PATTERN_COUNT] = {
    "aligned", "clusters", "equal", "uniform", "gaussian", "lag", "explicit"};

const char *const pascal_pattern_descriptions[PASCAL_PATTERN_COUNT] = {
    [PASCAL_PATTERN_ALIGNED] = "every phase 0: all workers read the same block each round",
    [PASCAL_PATTERN_CLUSTERS] = "k equal clusters centred at floor(c N / k); worker m joins cluster m mod k",
    [PASCAL_PATTERN_EQUAL] = "equally spaced: s_m = floor(m N / M)",
    [PASCAL_PATTERN_UNIFORM] = "independent uniform phases on [0, N)",
    [PASCAL_PATTERN_GAUSSIAN] = "wrapped Gaussian phases, mean 0, standard deviation sigma blocks",
    [PASCAL_PATTERN_LAG] = "constant lag: s_m = (m lag) mod N",
    [PASCAL_PATTERN_EXPLICIT] = "a given list of M phases",
};

const char *const pascal_pattern_params[PASCAL_PATTERN_COUNT] = {
    [PASCAL_PATTERN_ALIGNED] = "",
    [PASCAL_PATTERN_CLUSTERS] = "clusters, spread",
    [PASCAL_PATTERN_EQUAL] = "",
    [PASCAL_PATTERN_UNIFORM] = "seed",
    [PASCAL_PATTERN_GAUSSIAN] = "sigma, seed",
    [PASCAL_PATTERN_LAG] = "lag",
    [PASCAL_PATTERN_EXPLICIT] = "phases",
};

const char *const pascal_pattern_refs[PASCAL_PATTERN_COUNT] = {
    [PASCAL_PATTERN_ALIGNED] = "section 4 (aligned baseline K = 1)",
    [PASCAL_PATTERN_CLUSTERS] = "section 5.2 (cluster sweep)",
    [PASCAL_PATTERN_EQUAL] = "section 5.2 (equally spaced)",
    [PASCAL_PATTERN_UNIFORM] = "section 5.2 (uniform random)",
    [PASCAL_PATTERN_GAUSSIAN] = "section 5.2 (wrapped Gaussian)",
    [PASCAL_PATTERN_LAG] = "",
    [PASCAL_PATTERN_EXPLICIT] = "section 3.1 (phases s_m)",
};

int pascal_pattern_from_name(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < PASCAL_PATTERN_COUNT; i++)
        if (strcmp(name, pascal_pattern_names[i]) == 0)
            return i;
    return -1;
}

/* ---- counter-based generator ------------------------------------------- */

#define GOLDEN 0x9e3779b97f4a7c15ULL   /* SplitMix64 increment */
#define NORMAL_TAG 0x6e6f726d616cULL   /* "normal": stream for Box-Muller */

/* SplitMix64 finaliser (Stafford variant 13): a bijection on 64 bits with
 * full avalanche. */
static uint64_t fmix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The stream for (seed, key) starts at a hashed state; the counter-th draw is
 * the SplitMix64 output at state + (counter + 1) GOLDEN, i.e. the sequence a
 * seeded SplitMix64 would produce, but addressable at random. */
uint64_t pascal_rng_u64(uint64_t seed, uint64_t key, uint64_t counter)
{
    uint64_t state = fmix64(fmix64(seed + GOLDEN) ^ key);
    return fmix64(state + (counter + 1) * GOLDEN);
}

double pascal_rng_uniform(uint64_t seed, uint64_t key, uint64_t counter)
{
    return (double)(pascal_rng_u64(seed, key, counter) >> 11) * 0x1.0p-53;
}

/* Box-Muller on counters 2c and 2c + 1 of a stream derived from key (so the
 * normal draws never reuse the uniform draws of the same key); only the
 * cosine branch is kept, which keeps draw c independent of draw c + 1.  The
 * result goes through libm log/cos, so it is bit-identical on one platform
 * but may differ in the last bit between C libraries. */
double pascal_rng_normal(uint64_t seed, uint64_t key, uint64_t counter)
{
    uint64_t k = pascal_rng_mix(key, NORMAL_TAG);
    double u1 = pascal_rng_uniform(seed, k, 2 * counter);
    double u2 = pascal_rng_uniform(seed, k, 2 * counter + 1);
    double r = sqrt(-2.0 * log(1.0 - u1));   /* 1 - u1 in (0, 1] */
    return r * cos(6.283185307179586 * u2);
}

/* Order-dependent: mix(mix(k, a), b) != mix(mix(k, b), a) in general, so a
 * key built from a tuple of coordinates identifies the tuple. */
uint64_t pascal_rng_mix(uint64_t key, uint64_t value)
{
    return fmix64(key + GOLDEN + fmix64(value ^ 0xd1b54a32d192ed03ULL));
}

/* ---- patterns ---------------------------------------------------------- */

/* floor(a b / c) for 0 <= a <= c, b >= 0, c >= 1 without forming a b:
 * a (b / c) <= b, and a (b mod c) < c^2 (fine for c < 3e9). */
static int64_t floor_mul_div(int64_t a, int64_t b, int64_t c)
{
    return a * (b / c) + a * (b % c) / c;
}

/* (a + b) mod N for a, b in [0, N), without overflow near INT64_MAX. */
static int64_t add_mod(int64_t a, int64_t b, int64_t N)
{
    return a >= N - b ? a - (N - b) : a + b;
}

/* Worker m joins cluster c = m mod k, centred at floor(c N / k); it is the
 * q = floor(m / k)-th of that cluster's n members in index order and sits
 * floor(q spread / n) blocks ahead of the centre. */
static void gen_clusters(const pascal_pattern *pat, int64_t N, int64_t M,
                         int64_t *out)
{
    int64_t k = pat->clusters;
    for (int64_t m = 0; m < M; m++) {
        int64_t c = m % k, q = m / k;
        int64_t n = (M - 1 - c) / k + 1;   /* members m' < M with m' = c mod k */
        int64_t centre = floor_mul_div(c, N, k);
        int64_t off = floor_mul_div(q, pat->spread, n) % N;
        out[m] = add_mod(centre, off, N);
    }
}

/* Wrapped Gaussian: round(sigma z) reduced into [0, N).  fmod is exact for
 * any magnitude a double holds (and N <= 2^53); the reduction is finished in
 * integers so that no double near 2^63 is converted.
 *
 * Past 2^52 a double no longer holds every integer, so sigma z mod N would
 * keep only the few residues of its last bits (a sigma of 1e100 put every
 * worker on one phase).  There the phase is drawn uniformly instead, which
 * is the same distribution: once sigma >= 4 N the wrapped Gaussian differs
 * from uniform on [0, N) by at most 2 exp(-2 pi^2 (sigma / N)^2) < 1e-137 in
 * total variation, and a worker reaches that branch only when
 * sigma |z| >= 2^52, which for N < 2^50 needs sigma > 4 N.  The uniform
 * draw uses the uniform stream of the same (seed, key, m), independent of
 * the normal stream whose |z| chose the branch.  Below 2^52 nothing
 * changes. */
#define EXACT_INTEGERS 4503599627370496.0 /* 2^52 */

static void gen_gaussian(const pascal_pattern *pat, int64_t N, int64_t M,
                         int64_t *out)
{
    for (int64_t m = 0; m < M; m++) {
        double x = round(pat->sigma * pascal_rng_normal(pat->seed, pat->key,
                                                        (uint64_t)m));
        if (fabs(x) >= EXACT_INTEGERS && pat->sigma >= 4.0 * (double)N) {
            double u = pascal_rng_uniform(pat->seed, pat->key, (uint64_t)m) * (double)N;
            out[m] = u >= (double)N ? N - 1 : (int64_t)u;
            continue;
        }
        double r = fmod(x, (double)N);   /* |r| < (double)N <= 2^63 */
        int64_t v = (int64_t)fabs(r);
        if (v >= N)
            v -= N;
        out[m] = (r < 0.0 && v > 0) ? N - v : v;
    }
}

static int validate(const pascal_pattern *pat, int64_t N, int64_t M)
{
    switch (pat->kind) {
    case PASCAL_PATTERN_ALIGNED:
    case PASCAL_PATTERN_EQUAL:
    case PASCAL_PATTERN_UNIFORM:
    case PASCAL_PATTERN_LAG:
        return 0;
    case PASCAL_PATTERN_CLUSTERS:
        return pat->clusters >= 1 && pat->spread >= 0 ? 0 : -1;
    case PASCAL_PATTERN_GAUSSIAN:
        return pat->sigma >= 0.0 && isfinite(pat->sigma) ? 0 : -1;
    case PASCAL_PATTERN_EXPLICIT:
        if (!pat->explicit_phases)
            return -1;
        for (int64_t m = 0; m < M; m++)
            if (pat->explicit_phases[m] < 0 || pat->explicit_phases[m] >= N)
                return -1;
        return 0;
    default:
        return -1;
    }
}

int pascal_phases_generate(const pascal_pattern *pat, int64_t N, int64_t M,
                           int64_t *out)
{
    if (!pat || !out || N < 1 || M < 1 || validate(pat, N, M) != 0)
        return -1;
    int64_t step = pat->lag % N;   /* LAG: lag mod N in [0, N) */
    if (step < 0)
        step += N;
    for (int64_t m = 0; m < M; m++) {
        switch (pat->kind) {
        case PASCAL_PATTERN_EQUAL:
            out[m] = floor_mul_div(m, N, M);
            break;
        case PASCAL_PATTERN_UNIFORM: {
            /* floor(u N); the product can round up to N for some N */
            double x = pascal_rng_uniform(pat->seed, pat->key, (uint64_t)m) *
                       (double)N;
            out[m] = x >= (double)N ? N - 1 : (int64_t)x;
            break;
        }
        case PASCAL_PATTERN_LAG:   /* (m lag) mod N, accumulated: no overflow */
            out[m] = m == 0 ? 0 : add_mod(out[m - 1], step, N);
            break;
        case PASCAL_PATTERN_EXPLICIT:
            out[m] = pat->explicit_phases[m];
            break;
        default:
            out[m] = 0;
        }
    }
    if (pat->kind == PASCAL_PATTERN_CLUSTERS)
        gen_clusters(pat, N, M, out);
    else if (pat->kind == PASCAL_PATTERN_GAUSSIAN)
        gen_gaussian(pat, N, M, out);
    return 0;
}
