// Sampled specs (sweeps/sample.h): Sobol draws against GSL's own sequence,
// Latin hypercube strata, random marginals, the mapping onto lists, grids
// and intervals, inner: grid, and every bad `sample` section with its
// "file:line:col: key:" prefix.  Runs (threads, shards, resume) are in
// engine_sample_test.cc.
#include <gtest/gtest.h>

#include <gsl/gsl_qrng.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "sweeps/sample.h"
#include "sweeps/spec.h"

namespace {

struct Spec {
    pascal_spec *s = nullptr;
    explicit Spec(const std::string &text)
    {
        pascal_error err{};
        if (pascal_spec_parse(text.data(), text.size(), "spec.yaml", &s, &err) != 0)
            ADD_FAILURE() << err.msg << "\n" << text;
    }
    ~Spec() { pascal_spec_free(s); }
};

std::string parse_bad(const std::string &yaml)
{
    pascal_spec *s = nullptr;
    pascal_error err{};
    EXPECT_EQ(pascal_spec_parse(yaml.data(), yaml.size(), "spec.yaml", &s, &err), PASCAL_EINPUT)
        << yaml;
    EXPECT_EQ(s, nullptr);
    pascal_spec_free(s);
    return err.msg;
}

pascal_point point(const pascal_spec *s, uint64_t i)
{
    pascal_point p;
    pascal_error err{};
    EXPECT_EQ(pascal_spec_point(s, i, &p, &err), 1) << err.msg;
    return p;
}

int axis_of(const pascal_spec *s, int param)
{
    for (int i = 0; i < pascal_spec_naxes(s); i++)
        if (pascal_spec_axis(s, i)->param == param)
            return i;
    return -1;
}

// Lines 1-4; the sample section and axes follow.
const std::string kHead = "name: s\n"                         // 1
                          "models: [ttl]\n"                   // 2
                          "fixed: {N: 4096, M: 64}\n";        // 3

// Three sampled dimensions of each kind: a real interval, a log size
// interval, a list and an integer interval.
std::string mixed_spec(const std::string &method, uint64_t n, uint64_t seed)
{
    std::string seeded = method == "sobol" ? "" : ", seed: " + std::to_string(seed);
    return kHead + "sample: {method: " + method + ", n: " + std::to_string(n) + seeded + "}\n"
           "axes:\n"
           "  alpha: {from: 0.5, to: 4.5}\n"
           "  capacity_bytes: {from: 1KiB, to: 1MiB, scale: log}\n"
           "  pattern: [aligned, uniform, equal, lag, clusters]\n"
           "  clusters: {from: 1, to: 16}\n"
           "  block_bytes: [1KiB]\n";
}

// The documented mapping of one unit coordinate, written out independently.
double expect_value(int param, double u)
{
    switch (param) {
    case PASCAL_P_ALPHA: return 0.5 + u * 4.0;
    case PASCAL_P_CAPACITY_BYTES: {
        double x = std::floor(std::exp(std::log(1024.0) + u * (std::log(1048577.0) - std::log(1024.0))));
        return std::fmin(std::fmax(x, 1024.0), 1048576.0);
    }
    case PASCAL_P_PATTERN: {
        const double codes[] = {0, 3, 2, 5, 1};
        return codes[(int)(u * 5)];
    }
    case PASCAL_P_CLUSTERS: return 1 + std::floor(u * 16);
    default: return 1024;   // block_bytes: one value
    }
}

// Draw j of a Sobol spec is GSL's (j+1)-th point, mapped onto the axes;
// GSL is stepped here independently, past the first 4096-draw checkpoint.
TEST(SpecSample, SobolIsGslSequenceMappedOntoTheAxes)
{
    const uint64_t n = 10000;
    Spec spec(mixed_spec("sobol", n, 7));
    ASSERT_NE(spec.s, nullptr);
    const pascal_sample_info *si = pascal_spec_sample(spec.s);
    ASSERT_NE(si, nullptr);
    ASSERT_EQ(si->ndims, 5);
    EXPECT_EQ(pascal_spec_size(spec.s), n);
    gsl_qrng *q = gsl_qrng_alloc(gsl_qrng_sobol, 5);
    double g[5], u[5];
    for (uint64_t j = 0; j < n; j++) {
        gsl_qrng_get(q, g);
        pascal_spec_sample_unit(spec.s, j, u);
        for (int d = 0; d < 5; d++)
            ASSERT_EQ(u[d], g[d]) << "draw " << j << " dimension " << d;
        if (j % 997 != 0 && j != n - 1)
            continue;
        pascal_point p = point(spec.s, j);
        for (int a = 0; a < pascal_spec_naxes(spec.s); a++) {
            const pascal_axis *ax = pascal_spec_axis(spec.s, a);
            EXPECT_EQ(p.v[ax->param], expect_value(ax->param, g[ax->dim]))
                << "draw " << j << " " << pascal_params[ax->param].name;
        }
        EXPECT_EQ(p.v[PASCAL_P_C], std::floor(p.v[PASCAL_P_CAPACITY_BYTES] / 1024));
    }
    gsl_qrng_free(q);
    // The first Sobol point is the cube's centre.
    pascal_spec_sample_unit(spec.s, 0, u);
    for (double x : u)
        EXPECT_EQ(x, 0.5);
}

// Random access far into the sequence, in any order, equals stepping GSL.
TEST(SpecSample, SobolRandomAccessAnyOrder)
{
    Spec spec(mixed_spec("sobol", 300000, 1));
    ASSERT_NE(spec.s, nullptr);
    std::vector<uint64_t> at = {299999, 4095, 4096, 123457, 8191, 8192, 0, 200000};
    std::vector<std::vector<double>> got;
    for (uint64_t j : at) {
        std::vector<double> u(5);
        pascal_spec_sample_unit(spec.s, j, u.data());
        got.push_back(u);
    }
    gsl_qrng *q = gsl_qrng_alloc(gsl_qrng_sobol, 5);
    double g[5];
    for (uint64_t j = 0; j < 300000; j++) {
        gsl_qrng_get(q, g);
        for (size_t k = 0; k < at.size(); k++)
            if (at[k] == j)
                for (int d = 0; d < 5; d++)
                    EXPECT_EQ(got[k][d], g[d]) << "draw " << j;
    }
    gsl_qrng_free(q);
}

// LHS: each of the n strata of every dimension holds exactly one draw;
// with n a multiple of a list's length every value gets n / length draws.
TEST(SpecSample, LatinHypercubeOnePointPerStratum)
{
    const uint64_t n = 800;
    for (uint64_t seed : {1u, 2u, 99u}) {
        Spec spec(mixed_spec("lhs", n, seed));
        ASSERT_NE(spec.s, nullptr);
        int nd = pascal_spec_sample(spec.s)->ndims;
        std::vector<std::set<uint64_t>> strata(nd);
        std::vector<int> pattern(8), clusters(17);
        for (uint64_t j = 0; j < n; j++) {
            std::vector<double> u(nd);
            pascal_spec_sample_unit(spec.s, j, u.data());
            for (int d = 0; d < nd; d++) {
                ASSERT_GE(u[d], 0.0);
                ASSERT_LT(u[d], 1.0);
                strata[d].insert((uint64_t)std::floor(u[d] * n));
            }
            pascal_point p = point(spec.s, j);
            pattern[(int)p.v[PASCAL_P_PATTERN]]++;
            clusters[(int)p.v[PASCAL_P_CLUSTERS]]++;
            double a = p.v[PASCAL_P_ALPHA];
            ASSERT_TRUE(a >= 0.5 && a < 4.5) << a;
        }
        for (int d = 0; d < nd; d++)
            EXPECT_EQ(strata[d].size(), n) << "dimension " << d << ", seed " << seed;
        for (int code : {0, 1, 2, 3, 5})
            EXPECT_EQ(pattern[code], 160) << "pattern code " << code;
        for (int k = 1; k <= 16; k++)
            EXPECT_EQ(clusters[k], 50) << "clusters " << k;
    }
}

// Random draws: deterministic for a seed, another seed gives others, and
// the marginals are uniform (10 bins, each within 5 standard deviations).
TEST(SpecSample, RandomDeterministicAndUniform)
{
    const uint64_t n = 20000;
    Spec a(mixed_spec("random", n, 5)), b(mixed_spec("random", n, 5)), c(mixed_spec("random", n, 6));
    ASSERT_NE(a.s, nullptr);
    int differ = 0;
    std::vector<std::vector<int>> bins(5, std::vector<int>(10));
    for (uint64_t j = 0; j < n; j++) {
        double ua[5], ub[5], uc[5];
        pascal_spec_sample_unit(a.s, j, ua);
        pascal_spec_sample_unit(b.s, j, ub);
        pascal_spec_sample_unit(c.s, j, uc);
        for (int d = 0; d < 5; d++) {
            ASSERT_EQ(ua[d], ub[d]);
            differ += ua[d] != uc[d];
            bins[d][(int)(ua[d] * 10)]++;
        }
    }
    EXPECT_EQ(differ, 5 * (int)n);
    double sd = std::sqrt(n * 0.1 * 0.9);
    for (int d = 0; d < 5; d++)
        for (int k = 0; k < 10; k++)
            EXPECT_NEAR(bins[d][k], n / 10.0, 5 * sd) << "dimension " << d << " bin " << k;
    // Dimensions are independent streams: no two share their draws.
    double u[5];
    pascal_spec_sample_unit(a.s, 3, u);
    for (int d = 1; d < 5; d++)
        EXPECT_NE(u[d], u[0]);
}

// inner: grid enumerates the capacity-like axes at every draw, innermost;
// a zip group is drawn as one dimension.
TEST(SpecSample, InnerGridAndZip)
{
    Spec spec(kHead +
              "sample: {method: lhs, n: 50, seed: 3, inner: grid}\n"
              "axes:\n"
              "  C: [64, 128, 256]\n"
              "  sigma: {from: 0, to: 100}\n"
              "  pattern: [gaussian, uniform]\n"
              "  seed: [1, 2, 3, 4]\n"
              "  lag: [10, 20, 30, 40]\n"
              "  assoc: [2, 4]\n"
              "zip:\n  - [seed, lag]\n");
    ASSERT_NE(spec.s, nullptr);
    const pascal_sample_info *si = pascal_spec_sample(spec.s);
    EXPECT_EQ(si->ndims, 3);   // sigma, pattern, seed+lag
    EXPECT_EQ(si->inner, 6u);  // C x assoc
    EXPECT_EQ(pascal_spec_size(spec.s), 300u);
    EXPECT_FALSE(pascal_spec_axis_sampled(spec.s, axis_of(spec.s, PASCAL_P_C)));
    EXPECT_TRUE(pascal_spec_axis_sampled(spec.s, axis_of(spec.s, PASCAL_P_SIGMA)));
    EXPECT_EQ(pascal_spec_axis_interval(spec.s, axis_of(spec.s, PASCAL_P_SIGMA)), 1);
    EXPECT_EQ(pascal_spec_axis_interval(spec.s, axis_of(spec.s, PASCAL_P_PATTERN)), 0);
    for (uint64_t j = 0; j < 50; j++) {
        pascal_point first = point(spec.s, j * 6);
        EXPECT_EQ(first.v[PASCAL_P_LAG], first.v[PASCAL_P_SEED] * 10) << "zip members move together";
        for (uint64_t r = 0; r < 6; r++) {
            pascal_point p = point(spec.s, j * 6 + r);
            const double C[] = {64, 128, 256}, A[] = {2, 4};
            // Canonical order of the grid: C then assoc, assoc fastest.
            EXPECT_EQ(p.v[PASCAL_P_C], C[r / 2]);
            EXPECT_EQ(p.v[PASCAL_P_ASSOC], A[r % 2]);
            for (int k : {PASCAL_P_SIGMA, PASCAL_P_PATTERN, PASCAL_P_SEED, PASCAL_P_LAG})
                EXPECT_EQ(p.v[k], first.v[k]) << "draw " << j << " row " << r;
        }
    }
}

TEST(SpecSample, WhereDropsDrawsAndRequireNamesThem)
{
    Spec spec(kHead + "sample: {method: random, n: 400}\naxes:\n  C: {from: 1, to: 8192}\n"
                      "where: 'C < N'\n");
    ASSERT_NE(spec.s, nullptr);
    int kept = 0;
    for (uint64_t j = 0; j < 400; j++) {
        pascal_point p;
        pascal_error err{};
        int rc = pascal_spec_point(spec.s, j, &p, &err);
        ASSERT_GE(rc, 0) << err.msg;
        kept += rc;
        EXPECT_EQ(rc == 1, p.v[PASCAL_P_C] < 4096);
    }
    EXPECT_GT(kept, 150);
    EXPECT_LT(kept, 250);
    Spec req(kHead + "sample: {method: random, n: 400}\naxes:\n  C: {from: 1, to: 8192}\n"
                     "require: 'C < N'\n");
    ASSERT_NE(req.s, nullptr);
    uint64_t j = 0;
    pascal_point p;
    pascal_error err{};
    while (pascal_spec_point(req.s, j, &p, &err) == 1)
        j++;
    EXPECT_NE(std::string(err.msg).find("spec.yaml:7:10: require: expected \"C < N\" at every point, "
                                        "got false at point " + std::to_string(j)),
              std::string::npos)
        << err.msg;
}

TEST(SpecSampleErrors, EveryBadSectionIsLocated)
{
    const std::string axes = "axes:\n  C: [8, 16]\n";
    struct Case {
        std::string section, prefix;
    } cases[] = {
        {"sample: [sobol]\n", "spec.yaml:4:9: sample: expected a mapping like {method: sobol"},
        {"sample: {method: halton, n: 10}\n",
         "spec.yaml:4:18: sample.method: expected a sampling method (random, sobol, lhs), got \"halton\""},
        {"sample: {method: lhs}\n", "spec.yaml:4:9: sample.n: expected a number of draws, got nothing"},
        {"sample: {method: Sobol, n: 10}\n",
         "spec.yaml:4:18: sample.method: expected a sampling method (random, sobol, lhs), got \"Sobol\" "
         "(did you mean 'sobol'?)"},
        {"sample: {method: lsh, n: 10}\n", "spec.yaml:4:18: sample.method: expected a sampling method "
                                           "(random, sobol, lhs), got \"lsh\" (did you mean 'lhs'?)"},
        {"sample: {n: 4}\n", "spec.yaml:4:9: sample.method: expected a sampling method"},
        {"sample: {method: lhs, n: 0}\n", "spec.yaml:4:26: sample.n: expected a number of draws"},
        {"sample: {method: lhs, n: -3}\n", "spec.yaml:4:26: sample.n: expected a number of draws"},
        {"sample: {method: lhs, n: 1e6}\n", "spec.yaml:4:26: sample.n: expected a number of draws"},
        {"sample: {method: lhs, n: \"10\"}\n", "spec.yaml:4:26: sample.n: expected a number of draws"},
        {"sample: {method: sobol, n: 1073741824}\n",
         "spec.yaml:4:28: sample.n: expected at most 1073741823 draws for sobol"},
        {"sample: {method: lhs, n: 9007199254740993}\n", "spec.yaml:4:26: sample.n: expected a number"},
        {"sample: {method: lhs, n: 10, seed: -1}\n", "spec.yaml:4:36: sample.seed: expected a seed"},
        {"sample: {method: sobol, n: 10, seed: 3}\n",
         "spec.yaml:4:38: sample.seed: expected no seed with sobol (GSL's Sobol sequence is one fixed"},
        {"sample: {method: lhs, n: 10, inner: capacity}\n",
         "spec.yaml:4:37: sample.inner: expected sample (every axis drawn) or grid"},
        {"sample: {method: lhs, n: 10, inner: gird}\n",
         "spec.yaml:4:37: sample.inner: expected sample (every axis drawn) or grid (capacity-like axes "
         "enumerated at every draw), got \"gird\" (did you mean 'grid'?)"},
        {"sample: {method: lhs, n: 10, sed: 1}\n",
         "spec.yaml:4:30: sample.sed: expected one of the keys method, n, seed, inner; got \"sed\""},
        {"sample: {method: lhs, n: 10, inner: grid}\n",
         "spec.yaml:4:9: sample: expected an axis to draw, got only capacity-like axes"},
    };
    for (const Case &c : cases) {
        std::string msg = parse_bad(kHead + c.section + axes);
        EXPECT_EQ(msg.compare(0, c.prefix.size(), c.prefix), 0) << msg << "\nwant: " << c.prefix;
    }
}

TEST(SpecSampleErrors, BadIntervals)
{
    const std::string s = kHead + "sample: {method: random, n: 10}\naxes:\n";   // axes on line 6
    struct Case {
        std::string axes, prefix;
    } cases[] = {
        {"  alpha: {from: 2, to: 2}\n", "spec.yaml:6:10: axes.alpha: expected from < to for a sampled interval"},
        {"  alpha: {from: 3, to: 2}\n", "spec.yaml:6:10: axes.alpha: expected from < to"},
        {"  alpha: {from: 0, to: 2, scale: log}\n",
         "spec.yaml:6:10: axes.alpha: expected from > 0 for scale: log, got from 0"},
        {"  alpha: {from: 1, to: 2, scale: ln}\n", "spec.yaml:6:34: axes.alpha.scale: expected linear or log"},
        {"  alpha: {to: 2}\n", "spec.yaml:6:10: axes.alpha.from: expected a non-negative number, got nothing"},
        {"  C: {from: 1.5, to: 9}\n", "spec.yaml:6:13: axes.C.from: expected a positive integer"},
        {"  C: {from: 1, to: 9, stride: 2}\n", "spec.yaml:6:23: axes.C.stride: expected one of the keys"},
        {"  C: [8]\n  alpha: {from: 1, to: 2}\n  beta: [1]\nzip:\n  - [alpha, beta]\n",
         "spec.yaml:10:6: zip[0][0]: expected axes that are lists or grid ranges (step, num or factor) "
         "in a zip group, whose axes share one index; got alpha, a sampled interval"},
        {"  pattern: {from: 1, to: 2}\n", "spec.yaml:6:12: axes.pattern: expected a list of pattern names, got a range"},
    };
    for (const Case &c : cases) {
        std::string msg = parse_bad(s + c.axes);
        EXPECT_EQ(msg.compare(0, c.prefix.size(), c.prefix), 0) << msg << "\nwant: " << c.prefix;
    }
    // An interval under inner: grid, and an interval without sample.
    std::string msg = parse_bad(kHead + "sample: {method: lhs, n: 10, inner: grid}\naxes:\n"
                                        "  seed: [1, 2]\n  C: {from: 8, to: 64}\n");
    EXPECT_EQ(msg.rfind("spec.yaml:7:6: axes.C: expected a list or a grid range (step, num or factor): "
                        "sample.inner: grid enumerates C", 0), 0u) << msg;
    msg = parse_bad(kHead + "axes:\n  C: {from: 8, to: 64}\n");
    EXPECT_EQ(msg.rfind("spec.yaml:5:6: axes.C: expected exactly one of step, num or factor, got none", 0), 0u)
        << msg;
}

}  // namespace
