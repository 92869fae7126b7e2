// Tests for model/phases.h: every pattern stays in range, is deterministic in
// (seed, key) and changes with the key; the counter-based generator has the
// moments it should; clusters and equal spacing have the structure the
// header promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include "model/phases.h"

namespace {

using Vec = std::vector<int64_t>;

Vec generate(const pascal_pattern &pat, int64_t N, int64_t M)
{
    Vec s((size_t)M, -1);
    EXPECT_EQ(pascal_phases_generate(&pat, N, M, s.data()), 0);
    return s;
}

pascal_pattern pattern(pascal_pattern_kind kind)
{
    pascal_pattern p{};
    p.kind = kind;
    p.clusters = 3;
    p.spread = INT64_MAX / 3;
    p.sigma = 23.85;
    p.lag = 37;
    p.seed = 0x2385;
    p.key = 0xfeed;
    return p;
}

}  // namespace

TEST(ModelPhases, NamesRoundTrip)
{
    for (int k = 0; k < PASCAL_PATTERN_COUNT; k++)
        ASSERT_EQ(pascal_pattern_from_name(pascal_pattern_names[k]), k);
    ASSERT_EQ(pascal_pattern_from_name("gaussian"), PASCAL_PATTERN_GAUSSIAN);
    ASSERT_EQ(pascal_pattern_from_name("Gaussian"), -1);
    ASSERT_EQ(pascal_pattern_from_name(""), -1);
    ASSERT_EQ(pascal_pattern_from_name(nullptr), -1);
}

TEST(ModelPhases, EveryPatternInRangeAndDeterministic)
{
    Vec expl = {3, 0, 99, 42, 7};
    for (int64_t N : {(int64_t)1, (int64_t)2, (int64_t)97, (int64_t)8192,
                      INT64_MAX})
        for (int64_t M : {1, 5, 48, 193})
            for (int k = 0; k < PASCAL_PATTERN_COUNT; k++) {
                pascal_pattern pat = pattern((pascal_pattern_kind)k);
                Vec list((size_t)M);
                for (int64_t m = 0; m < M; m++)
                    list[(size_t)m] = (expl[(size_t)m % expl.size()] * 7 + m) % N;
                pat.explicit_phases = list.data();
                Vec a = generate(pat, N, M), b = generate(pat, N, M);
                ASSERT_EQ(a, b) << k;
                for (int64_t x : a) {
                    ASSERT_GE(x, 0) << k;
                    ASSERT_LT(x, N) << k;
                }
                if (k == PASCAL_PATTERN_EXPLICIT)
                    ASSERT_EQ(a, list);
            }
}

TEST(ModelPhases, SimpleFormulas)
{
    constexpr int64_t N = 8192, M = 48;
    Vec s = generate(pattern(PASCAL_PATTERN_ALIGNED), N, M);
    ASSERT_TRUE(std::all_of(s.begin(), s.end(), [](int64_t x) { return x == 0; }));
    pascal_pattern lag = pattern(PASCAL_PATTERN_LAG);
    for (int64_t l : {37, -5, 8192 * 3 + 1, 8191}) {
        lag.lag = l;
        s = generate(lag, N, M);
        for (int64_t m = 0; m < M; m++)
            ASSERT_EQ(s[(size_t)m], (((m * l) % N) + N) % N) << l;
    }
}

// Equally spaced phases: floor(m N / M), consecutive gaps differ by <= 1.
TEST(ModelPhases, EqualGapsDifferByAtMostOne)
{
    for (int64_t N : {7, 100, 8192, 10007})
        for (int64_t M : {1, 3, 48, 100}) {
            if (M > N)
                continue;
            Vec s = generate(pattern(PASCAL_PATTERN_EQUAL), N, M);
            Vec gaps;
            for (int64_t m = 0; m < M; m++) {
                ASSERT_EQ(s[(size_t)m], m * N / M);
                gaps.push_back(m + 1 < M ? s[(size_t)m + 1] - s[(size_t)m]
                                         : s[0] + N - s[(size_t)m]);
            }
            auto mm = std::minmax_element(gaps.begin(), gaps.end());
            ASSERT_LE(*mm.second - *mm.first, 1) << N << " " << M;
        }
}

TEST(ModelPhases, ClustersStructure)
{
    constexpr int64_t N = 8192, M = 48;
    pascal_pattern pat = pattern(PASCAL_PATTERN_CLUSTERS);
    pat.clusters = 1;
    pat.spread = 0;
    Vec s = generate(pat, N, M);
    ASSERT_EQ(std::set<int64_t>(s.begin(), s.end()).size(), 1u);
    // k clusters, spread 0: exactly k distinct phases at floor(c N / k).
    for (int64_t k : {2, 3, 5, 48}) {
        pat.clusters = k;
        s = generate(pat, N, M);
        std::set<int64_t> want;
        for (int64_t c = 0; c < k; c++)
            want.insert(c * N / k);
        ASSERT_EQ(std::set<int64_t>(s.begin(), s.end()), want) << k;
    }
    // Spread: members in index order at centre + floor(q spread / n).
    pat.clusters = 5;
    pat.spread = 13;
    s = generate(pat, N, M);
    for (int64_t m = 0; m < M; m++) {
        int64_t c = m % 5, q = m / 5, n = (M - c + 4) / 5;
        ASSERT_EQ(s[(size_t)m], (c * N / 5 + q * 13 / n) % N) << m;
    }
    // Spread that wraps past the end of the ring.
    pat.clusters = 2;
    pat.spread = 3 * N + 17;
    s = generate(pat, 100, 7);
    for (int64_t m = 0; m < 7; m++) {
        int64_t c = m % 2, q = m / 2, n = (7 - c + 1) / 2;
        ASSERT_EQ(s[(size_t)m], (c * 100 / 2 + q * (3 * N + 17) / n) % 100) << m;
    }
}

TEST(ModelPhases, RandomPatternsDependOnKeyAndSeed)
{
    constexpr int64_t N = 1 << 20, M = 64;
    for (int k : {PASCAL_PATTERN_UNIFORM, PASCAL_PATTERN_GAUSSIAN}) {
        pascal_pattern pat = pattern((pascal_pattern_kind)k);
        Vec a = generate(pat, N, M);
        pat.key = pascal_rng_mix(pat.key, 1);
        Vec b = generate(pat, N, M);
        pat.seed++;
        Vec c = generate(pat, N, M);
        ASSERT_NE(a, b) << k;
        ASSERT_NE(b, c) << k;
    }
    ASSERT_NE(pascal_rng_mix(pascal_rng_mix(1, 2), 3),
              pascal_rng_mix(pascal_rng_mix(1, 3), 2));
    ASSERT_EQ(pascal_rng_u64(9, 8, 7), pascal_rng_u64(9, 8, 7));
    ASSERT_NE(pascal_rng_u64(9, 8, 7), pascal_rng_u64(9, 8, 6));
    ASSERT_NE(pascal_rng_u64(9, 8, 7), pascal_rng_u64(9, 7, 7));
    ASSERT_NE(pascal_rng_u64(9, 8, 7), pascal_rng_u64(8, 8, 7));
}

// Moments of the generator: uniform mean 1/2, variance 1/12; normal mean 0,
// sd 1; tolerances are about 6 standard errors for n draws.
TEST(ModelPhases, GeneratorMoments)
{
    constexpr int kDraws = 200000;
    const double se = 1.0 / std::sqrt((double)kDraws), kSigmas = 6.0;
    double su = 0, su2 = 0, sn = 0, sn2 = 0;
    for (int i = 0; i < kDraws; i++) {
        double u = pascal_rng_uniform(11, 22, (uint64_t)i);
        ASSERT_GE(u, 0.0);
        ASSERT_LT(u, 1.0);
        su += u;
        su2 += u * u;
        double z = pascal_rng_normal(11, 22, (uint64_t)i);
        sn += z;
        sn2 += z * z;
    }
    double mu = su / kDraws, vu = su2 / kDraws - mu * mu;
    double mn = sn / kDraws, vn = sn2 / kDraws - mn * mn;
    ASSERT_NEAR(mu, 0.5, kSigmas * se * std::sqrt(1.0 / 12));
    ASSERT_NEAR(vu, 1.0 / 12, kSigmas * se * 0.075);
    ASSERT_NEAR(mn, 0.0, kSigmas * se);
    ASSERT_NEAR(vn, 1.0, kSigmas * se * std::sqrt(2.0));
}

// Wrapped Gaussian phases: unwrapped around 0 their sd is close to sigma.
TEST(ModelPhases, GaussianSampleSd)
{
    constexpr int64_t N = 100000, M = 20000;
    constexpr double kRelTol = 0.05;
    pascal_pattern pat = pattern(PASCAL_PATTERN_GAUSSIAN);
    for (double sigma : {2.385, 40.0, 517.3}) {
        pat.sigma = sigma;
        Vec s = generate(pat, N, M);
        double sum = 0, sum2 = 0;
        for (int64_t x : s) {
            double v = x >= N / 2 ? (double)(x - N) : (double)x;
            sum += v;
            sum2 += v * v;
        }
        double mean = sum / M, sd = std::sqrt(sum2 / M - mean * mean);
        // Rounding to integers adds variance 1/12.
        ASSERT_NEAR(sd, std::sqrt(sigma * sigma + 1.0 / 12), kRelTol * sigma) << sigma;
    }
    pat.sigma = 0;
    Vec s = generate(pat, N, 16);
    ASSERT_TRUE(std::all_of(s.begin(), s.end(), [](int64_t x) { return x == 0; }));
}

// A wrapped Gaussian far wider than the ring is uniform on it, however wide:
// sigma z past 2^52 keeps too few low bits to reduce mod N, so such a worker
// draws its phase uniformly (model/phases.c).  A sigma of 1e100 used to put
// every worker on one phase.
TEST(ModelPhases, WideGaussianIsUniformAtAnySigma)
{
    constexpr int64_t N = 4096, M = 64;
    pascal_pattern pat = pattern(PASCAL_PATTERN_GAUSSIAN);
    // Distinct phases of 64 uniform draws on 4096 blocks: 63.5 on average.
    for (double sigma : {1e15, 1e18, 1e20, 1e100, 1e300}) {
        pat.sigma = sigma;
        Vec s = generate(pat, N, M);
        EXPECT_GE(std::set<int64_t>(s.begin(), s.end()).size(), 60u) << sigma;
    }
    // And the histogram of many workers on a small ring is flat.
    constexpr int64_t n = 16, m = 32000;
    constexpr double kRelTol = 0.1;
    pat.sigma = 1e200;
    Vec s = generate(pat, n, m);
    std::vector<int64_t> hist(n, 0);
    for (int64_t x : s)
        hist[(size_t)x]++;
    for (int64_t h : hist)
        ASSERT_NEAR((double)h, (double)m / n, kRelTol * m / n);
}

// Below 2^52 the phases are round(sigma z) mod N exactly as before.
TEST(ModelPhases, GaussianBelowTwoTo52IsRoundedAndReduced)
{
    constexpr int64_t N = 1000;
    pascal_pattern pat = pattern(PASCAL_PATTERN_GAUSSIAN);
    for (double sigma : {23.85, 4.0e6, 1.0e14}) {
        pat.sigma = sigma;
        Vec s = generate(pat, N, 200);
        for (int64_t m = 0; m < 200; m++) {
            double x = std::round(sigma * pascal_rng_normal(pat.seed, pat.key, (uint64_t)m));
            int64_t want = (int64_t)std::fmod(std::fmod(x, (double)N) + N, (double)N);
            ASSERT_EQ(s[(size_t)m], want) << sigma << " worker " << m;
        }
    }
}

TEST(ModelPhases, UniformCoversRing)
{
    constexpr int64_t N = 16, M = 16000;
    constexpr double kRelTol = 0.1;
    Vec s = generate(pattern(PASCAL_PATTERN_UNIFORM), N, M);
    std::vector<int64_t> hist(N, 0);
    for (int64_t x : s)
        hist[(size_t)x]++;
    for (int64_t h : hist)
        ASSERT_NEAR((double)h, (double)M / N, kRelTol * M / N);
}

TEST(ModelPhases, RejectsInvalidParameters)
{
    int64_t out[4];
    pascal_pattern pat = pattern(PASCAL_PATTERN_CLUSTERS);
    pat.clusters = 0;
    ASSERT_EQ(pascal_phases_generate(&pat, 10, 4, out), -1);
    pat.clusters = 2;
    pat.spread = -1;
    ASSERT_EQ(pascal_phases_generate(&pat, 10, 4, out), -1);
    pat = pattern(PASCAL_PATTERN_GAUSSIAN);
    pat.sigma = -0.5;
    ASSERT_EQ(pascal_phases_generate(&pat, 10, 4, out), -1);
    pat.sigma = NAN;
    ASSERT_EQ(pascal_phases_generate(&pat, 10, 4, out), -1);
    pat = pattern(PASCAL_PATTERN_ALIGNED);
    ASSERT_EQ(pascal_phases_generate(&pat, 0, 4, out), -1);
    ASSERT_EQ(pascal_phases_generate(&pat, 10, 0, out), -1);
    ASSERT_EQ(pascal_phases_generate(nullptr, 10, 4, out), -1);
    pat = pattern(PASCAL_PATTERN_EXPLICIT);
    ASSERT_EQ(pascal_phases_generate(&pat, 10, 4, out), -1);   // no list
    int64_t list[4] = {1, 2, 10, 3};
    pat.explicit_phases = list;
    ASSERT_EQ(pascal_phases_generate(&pat, 10, 4, out), -1);   // 10 >= N
    list[2] = -1;
    ASSERT_EQ(pascal_phases_generate(&pat, 10, 4, out), -1);
    pat.kind = (pascal_pattern_kind)PASCAL_PATTERN_COUNT;
    ASSERT_EQ(pascal_phases_generate(&pat, 10, 4, out), -1);
}
