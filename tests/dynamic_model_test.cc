// Dynamic PASCAL pipeline stages (model/dynamic.h) against values worked
// out by hand and against independent brute-force formulations: isotonic
// regression (the max-min formula), PCHIP (knots, monotonicity, no
// overshoot), eq. 20-22 encoding and its error bound, eq. 24 and its convex
// hull, execution classes, quantiles and horizon pooling.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "model/dynamic.h"

namespace {

const double kTol = 1e-12;

std::vector<double> iso(const std::vector<double> &y)
{
    std::vector<double> out(y.size());
    std::vector<int> work(y.size());
    pascal_dyn_isotonic(y.data(), (int)y.size(), out.data(), work.data());
    return out;
}

// Equal-weight isotonic regression by the max-min formula:
// f_i = max_{j <= i} min_{k >= i} mean(y_j..y_k).  O(n^3), independent of PAVA.
std::vector<double> iso_brute(const std::vector<double> &y)
{
    int n = (int)y.size();
    std::vector<double> f(n);
    for (int i = 0; i < n; i++) {
        double best = -INFINITY;
        for (int j = 0; j <= i; j++) {
            double lo = INFINITY;
            for (int k = i; k < n; k++) {
                double s = 0;
                for (int q = j; q <= k; q++)
                    s += y[q];
                lo = std::min(lo, s / (k - j + 1));
            }
            best = std::max(best, lo);
        }
        f[i] = best;
    }
    return f;
}

TEST(DynamicModel, IsotonicViolatingSequenceByHand)
{
    // 1 | 3 2 -> 2.5 2.5 | 4 0 -> 2, then pooled with 2.5 2.5: (5 + 4) / 4 = 2.25 | 5
    std::vector<double> f = iso({1, 3, 2, 4, 0, 5});
    std::vector<double> want = {1, 2.25, 2.25, 2.25, 2.25, 5};
    for (size_t i = 0; i < want.size(); i++)
        EXPECT_NEAR(f[i], want[i], kTol) << i;
    // Already sorted: unchanged; all decreasing: every value the mean.
    std::vector<double> up = iso({-1.5, 0.25, 0.25, 7});
    EXPECT_EQ(up, (std::vector<double>{-1.5, 0.25, 0.25, 7}));
    for (double v : iso({4, 3, 2, 1, 0.5}))
        EXPECT_NEAR(v, 2.1, kTol);
}

TEST(DynamicModel, IsotonicMatchesMaxMinFormulaOnRandomData)
{
    std::mt19937_64 rng(2385);
    std::normal_distribution<double> g(0.0, 1.3);
    for (int trial = 0; trial < 300; trial++) {
        int n = 1 + trial % 17;
        std::vector<double> y(n);
        for (int i = 0; i < n; i++)
            y[i] = g(rng) + 0.1 * i;
        std::vector<double> f = iso(y), b = iso_brute(y);
        for (int i = 0; i < n; i++)
            EXPECT_NEAR(f[i], b[i], 1e-9) << "trial " << trial << " i " << i;
        // In place (out aliases y) gives the same.
        std::vector<double> z = y;
        std::vector<int> work(n);
        pascal_dyn_isotonic(z.data(), n, z.data(), work.data());
        EXPECT_EQ(z, f);
    }
}

TEST(DynamicModel, PchipSlopesAndValueByHand)
{
    // t = 0, 1, 2; y = 0, 1, 3: secants 1 and 2.  Interior: weighted harmonic
    // mean with equal spacing, 2 * 1 * 2 / 3 = 4/3.  Ends (three-point):
    // ((2 + 1) 1 - 2) / 2 = 0.5 and ((2 + 1) 2 - 1) / 2 = 2.5.
    double t[3] = {0, 1, 2}, y[3] = {0, 1, 3}, s[3];
    pascal_dyn_pchip_slopes(t, y, 3, s);
    EXPECT_NEAR(s[0], 0.5, kTol);
    EXPECT_NEAR(s[1], 4.0 / 3.0, kTol);
    EXPECT_NEAR(s[2], 2.5, kTol);
    // Hermite basis at u = 1/2: 0.5 y0 + 0.125 s0 + 0.5 y1 - 0.125 s1.
    EXPECT_NEAR(pascal_dyn_pchip_eval(t, y, s, 3, 0.5), 0.0625 + 0.5 - 0.125 * 4.0 / 3.0, kTol);
    // Unequal spacing: t = 0, 1, 3 with y = 0, 2, 3: secants 2 and 0.5;
    // weights 2 h1 + h0 = 5 and h1 + 2 h0 = 4: 9 / (5/2 + 4/0.5) = 9 / 10.5.
    double t2[3] = {0, 1, 3}, y2[3] = {0, 2, 3};
    pascal_dyn_pchip_slopes(t2, y2, 3, s);
    EXPECT_NEAR(s[1], 9.0 / 10.5, kTol);
    // A local extremum gets slope 0.
    double y3[3] = {0, 2, 1};
    pascal_dyn_pchip_slopes(t, y3, 3, s);
    EXPECT_EQ(s[1], 0.0);
    // Outside the knots: the end values.
    pascal_dyn_pchip_slopes(t, y, 3, s);
    EXPECT_EQ(pascal_dyn_pchip_eval(t, y, s, 3, -4), 0.0);
    EXPECT_EQ(pascal_dyn_pchip_eval(t, y, s, 3, 9), 3.0);
}

TEST(DynamicModel, PchipExactAtKnotsMonotoneAndNoOvershoot)
{
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(0.05, 1.7);
    for (int trial = 0; trial < 200; trial++) {
        int n = 2 + trial % 9;
        bool monotone = trial % 2 == 0;
        std::vector<double> t(n), y(n), s(n);
        t[0] = u(rng) - 1, y[0] = u(rng);
        for (int k = 1; k < n; k++) {
            t[k] = t[k - 1] + u(rng);
            y[k] = monotone ? y[k - 1] + (k % 3 == 0 ? 0.0 : u(rng)) : u(rng) * 4;
        }
        pascal_dyn_pchip_slopes(t.data(), y.data(), n, s.data());
        for (int k = 0; k < n; k++)
            EXPECT_NEAR(pascal_dyn_pchip_eval(t.data(), y.data(), s.data(), n, t[k]), y[k], 1e-12);
        for (int k = 0; k + 1 < n; k++) {
            double lo = std::min(y[k], y[k + 1]), hi = std::max(y[k], y[k + 1]), prev = y[k];
            for (int q = 1; q < 64; q++) {
                double v = pascal_dyn_pchip_eval(t.data(), y.data(), s.data(), n,
                                                 t[k] + (t[k + 1] - t[k]) * q / 64.0);
                EXPECT_GE(v, lo - 1e-12) << "overshoot below, trial " << trial;
                EXPECT_LE(v, hi + 1e-12) << "overshoot above, trial " << trial;
                if (y[k + 1] >= y[k])
                    EXPECT_GE(v, prev - 1e-12) << "not monotone, trial " << trial;
                else
                    EXPECT_LE(v, prev + 1e-12) << "not monotone, trial " << trial;
                prev = v;
            }
        }
    }
}

TEST(DynamicModel, PchipReproducesLinesExactly)
{
    double t[5] = {0, 0.7, 1.1, 2.9, 3.0}, y[5], s[5];
    for (int k = 0; k < 5; k++)
        y[k] = 1.25 + 0.8 * t[k];
    pascal_dyn_pchip_slopes(t, y, 5, s);
    for (double q = 0; q <= 3.0; q += 0.0625)
        EXPECT_NEAR(pascal_dyn_pchip_eval(t, y, s, 5, q), 1.25 + 0.8 * q, 1e-12);
}

TEST(DynamicModel, EncodingRoundTripAndFloor)
{
    const double eps = PASCAL_DYN_EPS;
    // eq. 20: K = 3 -> a = log(2 + eps); eq. 21 gives K back.
    EXPECT_NEAR(pascal_dyn_encode(std::log(3.0), eps), std::log(2.01), kTol);
    for (double K : {1.0, 1.001, 1.7, 5.58, 40.0})
        EXPECT_NEAR(pascal_dyn_decode(pascal_dyn_encode(std::log(K), eps), eps, 192), K, 1e-12 * K);
    // Below the aligned floor the encoding saturates at log(eps) and decodes to 1.
    EXPECT_NEAR(pascal_dyn_encode(std::log(0.8), eps), std::log(eps), kTol);
    EXPECT_EQ(pascal_dyn_decode(std::log(eps) - 3, eps, 48), 1.0);
    // Clipped at M.
    EXPECT_EQ(pascal_dyn_decode(std::log(1e6), eps, 48), 48.0);
}

TEST(DynamicModel, DecodeBoundOfEq22)
{
    // |K_hat - K| / K <= (e + eps) / (1 + e) (exp(delta) - 1) when
    // |a_hat - a| <= delta and K = 1 + e in [1, M].
    std::mt19937_64 rng(22);
    std::uniform_real_distribution<double> u(0, 1);
    const double eps = PASCAL_DYN_EPS, M = 96;
    for (int trial = 0; trial < 20000; trial++) {
        double e = (M - 1) * std::pow(u(rng), 3), delta = 2 * u(rng);
        double a = std::log(e + eps), ahat = a + delta * (2 * u(rng) - 1);
        double K = 1 + e, Khat = pascal_dyn_decode(ahat, eps, M);
        double bound = (e + eps) / (1 + e) * std::expm1(delta);
        EXPECT_LE(std::fabs(Khat - K) / K, bound * (1 + 1e-12) + 1e-15)
            << "e " << e << " delta " << delta;
        EXPECT_GE(Khat, 1.0);
        EXPECT_LE(Khat, M);
    }
}

TEST(DynamicModel, HarmonicClosedFormByHand)
{
    // p = 1, aL = 2, aR = 4, dL = 1, dR = 3, c0 = 2, eta = 4:
    // (2 * 1 + 4 * 2 + (4/3) * 4) / (2 + 4 + 4/3) = (46/3) / (22/3) = 23/11.
    double lambda;
    double v = pascal_dyn_harmonic(1, 2, 4, 1, 3, 2, 4, &lambda);
    EXPECT_NEAR(v, 23.0 / 11.0, kTol);
    // lambda = eta (1/dL + 1/dR) / (c0 + eta (1/dL + 1/dR)) = (16/3) / (22/3).
    EXPECT_NEAR(lambda, 16.0 / 22.0, kTol);
    // (1 - lambda) p + lambda a_lin, a_lin = (dR aL + dL aR) / (dL + dR) = 10/4.
    EXPECT_NEAR(v, (1 - lambda) * 1 + lambda * 2.5, kTol);
}

TEST(DynamicModel, HarmonicMinimisesEq23AndStaysInTheHull)
{
    std::mt19937_64 rng(23);
    std::uniform_real_distribution<double> u(-3, 3), w(0.2, 7);
    for (int trial = 0; trial < 500; trial++) {
        double p = u(rng), aL = u(rng), aR = u(rng), dL = w(rng), dR = w(rng);
        double c0 = 1 / w(rng) + 1 / w(rng), eta = trial % 5 == 0 ? 0 : w(rng);
        double v = pascal_dyn_harmonic(p, aL, aR, dL, dR, c0, eta, nullptr);
        auto E = [&](double x) {
            return c0 * (x - p) * (x - p) + eta * ((x - aL) * (x - aL) / dL + (x - aR) * (x - aR) / dR);
        };
        double lo = std::min({p, aL, aR}), hi = std::max({p, aL, aR});
        EXPECT_GE(v, lo - 1e-12);
        EXPECT_LE(v, hi + 1e-12);
        // No grid point of [lo, hi] does better (E is convex).
        for (int q = 0; q <= 400; q++)
            EXPECT_LE(E(v), E(lo + (hi - lo) * q / 400.0) + 1e-9);
        if (eta == 0)
            EXPECT_NEAR(v, p, 1e-12); // no within-class weight: the pooled estimate
    }
}

TEST(DynamicModel, ExecutionClasses)
{
    // s(m) = min(m mod 4, 2): remainders 2 and 3 share the tail (section 4.4).
    int want[12] = {0, 1, 2, 2, 0, 1, 2, 2, 0, 1, 2, 2};
    for (int m = 0; m < 12; m++)
        EXPECT_EQ(pascal_dyn_class(m), want[m]) << m;
    EXPECT_EQ(pascal_dyn_class(41), 1);
    EXPECT_EQ(pascal_dyn_class(43), 2);
}

TEST(DynamicModel, GeomeanAndQuantile)
{
    double K[3] = {1, 4, 16};
    EXPECT_NEAR(pascal_dyn_geomean(K, 3), 4.0, kTol);
    double v[10] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    // h = 9 * 0.9 = 8.1: 9 + 0.1 (10 - 9).
    EXPECT_NEAR(pascal_dyn_quantile(v, 10, 0.9), 9.1, kTol);
    double one = 2.5;
    EXPECT_EQ(pascal_dyn_quantile(&one, 1, 0.9), 2.5);
    EXPECT_TRUE(std::isnan(pascal_dyn_quantile(v, 0, 0.9)));
}

TEST(DynamicModel, AggregatePoolsEqualWorkAcrossN)
{
    // (N 4096, W 2) and (N 8192, W 1) are the same x = 2; W 4 is x = 4.
    pascal_dyn_ref r[5] = {
        {1, PASCAL_DYN_TMA, 3, 8, 4096, 2, 2.0},
        {1, PASCAL_DYN_TMA, 3, 8, 8192, 1, 8.0},
        {1, PASCAL_DYN_TMA, 3, 8, 4096, 4, 3.0},
        {1, PASCAL_DYN_SYNC, 0, 8, 4096, 1, 1.5},
        {1, PASCAL_DYN_TMA, 3, 8, 4096, 2, 0.5},
    };
    pascal_dyn_agg *a = nullptr;
    ASSERT_EQ(pascal_dyn_aggregate(r, 5, PASCAL_DYN_N0, &a), 0);
    ASSERT_EQ(a->nkeys, 2);
    // Sorted keys: sync before tma.
    EXPECT_EQ(a->keys[0].path, PASCAL_DYN_SYNC);
    EXPECT_EQ(a->off[1] - a->off[0], 1);
    ASSERT_EQ(a->off[2] - a->off[1], 2);
    int64_t h = a->off[1];
    EXPECT_EQ(a->x[h], 2.0);
    EXPECT_NEAR(a->K[h], std::cbrt(2.0 * 8.0 * 0.5), kTol); // geometric mean of 2, 8, 0.5
    EXPECT_EQ(a->count[h], 3);
    EXPECT_EQ(a->x[h + 1], 4.0);
    pascal_dyn_key k = {1, PASCAL_DYN_TMA, 3, 8}, missing = {2, PASCAL_DYN_TMA, 3, 8};
    EXPECT_EQ(pascal_dyn_agg_find(a, &k), 1);
    EXPECT_EQ(pascal_dyn_agg_find(a, &missing), -1);
    pascal_dyn_agg_free(a);
    EXPECT_EQ(pascal_dyn_aggregate(r, 0, PASCAL_DYN_N0, &a), -1);
}

TEST(DynamicModel, CodeNames)
{
    EXPECT_STREQ(pascal_dyn_code_name(PASCAL_DYN_FB_NONE), "none");
    EXPECT_STREQ(pascal_dyn_code_name(PASCAL_DYN_FB_DEPTH), "depth");
    EXPECT_STREQ(pascal_dyn_code_name(PASCAL_DYN_ERR_CLASS), "class");
    EXPECT_STREQ(pascal_dyn_code_name(99), "?");
}

} // namespace
