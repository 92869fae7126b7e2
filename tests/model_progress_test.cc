// Tests for model/progress.h: Theorem 5 replayed through an LRU cache written
// here (sharpness witness and random bounded-lead histories), sigma against
// its definition, and Theorem 6's closed forms against the recurrence.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "model/progress.h"

namespace {

// Replays a progress history (worker ids) through a fully associative LRU of
// C blocks: worker i's n-th request reads index n, block n mod N.  Records
// for each event whether it hit and whether its index had been requested
// before by any worker.
struct Replay {
    std::vector<char> hit, seen_index;
};

Replay replay(const std::vector<int32_t> &ev, int32_t M, int64_t N, int64_t C)
{
    std::vector<int64_t> count((size_t)M, 0), last((size_t)N, -1);
    std::vector<char> index_seen;
    Replay out;
    int64_t resident = 0;
    for (size_t u = 0; u < ev.size(); u++) {
        int64_t k = count[(size_t)ev[u]]++, b = k % N;
        if ((int64_t)index_seen.size() <= k)
            index_seen.resize((size_t)k + 1, 0);
        out.seen_index.push_back(index_seen[(size_t)k]);
        index_seen[(size_t)k] = 1;
        bool h = last[(size_t)b] >= 0;
        out.hit.push_back(h);
        if (!h && resident == C) {
            int64_t victim = -1;
            for (int64_t x = 0; x < N; x++)
                if (last[(size_t)x] >= 0 &&
                    (victim < 0 || last[(size_t)x] < last[(size_t)victim]))
                    victim = x;
            last[(size_t)victim] = -1;
        } else if (!h) {
            resident++;
        }
        last[(size_t)b] = (int64_t)u;
    }
    return out;
}

// Eq. 8 by definition: O(E M).
int64_t sigma_by_definition(const std::vector<int32_t> &ev, int32_t M)
{
    std::vector<int64_t> n((size_t)M, 0);
    int64_t best = 0;
    for (int32_t w : ev) {
        n[(size_t)w]++;
        auto mm = std::minmax_element(n.begin(), n.end());
        best = std::max(best, *mm.second - *mm.first);
    }
    return best;
}

}  // namespace

TEST(ModelProgress, Thm5Capacity)
{
    ASSERT_EQ(pascal_thm5_capacity(1), 1);
    ASSERT_EQ(pascal_thm5_capacity(7), 13);
    ASSERT_EQ(pascal_thm5_capacity(0), -1);
    ASSERT_EQ(pascal_thm5_capacity(-3), -1);
}

// The witness has sigma = s; at C = 2s - 2 its last request misses, at
// C = 2s - 1 every request to an already-requested index hits.
TEST(ModelProgress, Thm5SharpnessWitness)
{
    for (int64_t s = 2; s <= 40; s++) {
        std::vector<int32_t> ev((size_t)(4 * s), -7);
        int64_t E = pascal_thm5_sharpness_history(s, ev.data());
        ASSERT_EQ(E, 3 * s - 1);
        ASSERT_EQ(ev[(size_t)E], -7);   // nothing written past the end
        ev.resize((size_t)E);
        std::vector<int64_t> counts(2);
        ASSERT_EQ(pascal_thm5_sigma(ev.data(), E, 2, counts.data()), s);
        ASSERT_EQ(sigma_by_definition(ev, 2), s);
        int64_t N = 2 * s;
        Replay lo = replay(ev, 2, N, 2 * s - 2);
        ASSERT_TRUE(lo.seen_index.back());
        ASSERT_FALSE(lo.hit.back()) << s;
        Replay hi = replay(ev, 2, N, pascal_thm5_capacity(s));
        for (size_t u = 0; u < ev.size(); u++)
            if (hi.seen_index[u])
                ASSERT_TRUE(hi.hit[u]) << s << " event " << u;
    }
    int32_t out[8];
    ASSERT_EQ(pascal_thm5_sharpness_history(1, out), -1);
}

// Random histories: at C = 2 sigma - 1 < N sharing is never lost.
TEST(ModelProgress, Thm5RandomHistoriesKeepSharing)
{
    constexpr int kCases = 400;
    std::mt19937_64 rng(0x7455);
    int checked = 0;
    for (int i = 0; i < kCases; i++) {
        int32_t M = 2 + (int32_t)(rng() % 3);
        int64_t E = 20 + (int64_t)(rng() % 300);
        // A random walk biased towards the laggards keeps leads bounded.
        std::vector<int32_t> ev;
        std::vector<int64_t> n((size_t)M, 0);
        double bias = std::uniform_real_distribution<double>(0.0, 0.9)(rng);
        for (int64_t u = 0; u < E; u++) {
            int32_t w = (int32_t)(rng() % (uint64_t)M);
            if (std::uniform_real_distribution<double>(0, 1)(rng) < bias)
                w = (int32_t)(std::min_element(n.begin(), n.end()) - n.begin());
            n[(size_t)w]++;
            ev.push_back(w);
        }
        std::vector<int64_t> counts((size_t)M);
        int64_t sigma = pascal_thm5_sigma(ev.data(), E, M, counts.data());
        ASSERT_EQ(sigma, sigma_by_definition(ev, M));
        int64_t C = pascal_thm5_capacity(sigma);
        int64_t N = C + 1 + (int64_t)(rng() % 12);   // theorem needs C < N
        if (C < 1)
            continue;
        Replay r = replay(ev, M, N, C);
        for (size_t u = 0; u < ev.size(); u++)
            if (r.seen_index[u])
                ASSERT_TRUE(r.hit[u]) << "case " << i << " event " << u;
        checked++;
    }
    ASSERT_GT(checked, kCases / 2);
}

TEST(ModelProgress, Thm5SigmaRejectsBadInput)
{
    int32_t ev[3] = {0, 1, 2};
    int64_t counts[3];
    ASSERT_EQ(pascal_thm5_sigma(ev, 3, 2, counts), -1);   // id 2 >= M
    ASSERT_EQ(pascal_thm5_sigma(ev, -1, 3, counts), -1);
    ASSERT_EQ(pascal_thm5_sigma(ev, 3, 0, counts), -1);
    ASSERT_EQ(pascal_thm5_sigma(nullptr, 3, 3, counts), -1);
    ASSERT_EQ(pascal_thm5_sigma(ev, 3, 3, nullptr), -1);
    ASSERT_EQ(pascal_thm5_sigma(ev, 0, 3, counts), 0);
    ASSERT_EQ(pascal_thm5_sigma(ev, 3, 3, counts), 1);
}

// Theorem 6: I_n / n of eq. 10 tends to P_d, from below (I_n <= n P_d when
// I_0..I_{r-1} = 0, by the proof's induction).
TEST(ModelProgress, Thm6SimulationApproachesPeriod)
{
    constexpr int64_t kSteps = 100000;
    constexpr double kRelTol = 1e-3, kRound = 1e-9;
    std::vector<double> scratch(16);
    for (double alpha : {0.0, 0.37, 1.3})
        for (double beta : {0.25, 1.1})
            for (double lambda : {0.0, 2.385, 17.3})
                for (int64_t d : {2, 3, 4, 7}) {
                    double P = pascal_thm6_period(alpha, beta, lambda, d);
                    double want = std::max(alpha + beta,
                                           (lambda + beta) / (double)(d - 1));
                    ASSERT_DOUBLE_EQ(P, want);
                    double sim = pascal_thm6_simulate(alpha, beta, lambda, d,
                                                      kSteps, scratch.data());
                    ASSERT_NEAR(sim, P, kRelTol * P)
                        << alpha << " " << beta << " " << lambda << " " << d;
                    ASSERT_LE(sim, P * (1 + kRound));
                }
    ASSERT_TRUE(std::isnan(pascal_thm6_period(1, 1, 1, 1)));
    ASSERT_TRUE(std::isnan(pascal_thm6_simulate(1, 1, 1, 1, 100, scratch.data())));
    ASSERT_TRUE(std::isnan(pascal_thm6_simulate(1, 1, 1, 4, 3, scratch.data())));
}

// Short runs against the recurrence unrolled by hand (d = 3, r = 2).
TEST(ModelProgress, Thm6SimulationFirstSteps)
{
    const double a = 0.37, b = 1.1, l = 2.385;
    double I[8] = {0, 0};
    for (int k = 0; k + 2 < 8; k++)
        I[k + 2] = std::max(I[k + 1] + a, I[k] + l) + b;
    std::vector<double> scratch(3);
    for (int n = 3; n < 8; n++)
        ASSERT_DOUBLE_EQ(pascal_thm6_simulate(a, b, l, 3, n, scratch.data()),
                         I[n] / n) << n;
}

// Eq. 13: G_d = P_d(lambda_m) - P_d(lambda_h); zero when misses fit within
// the overlap th.
TEST(ModelProgress, Thm6GainAndDivergence)
{
    constexpr double kTol = 1e-12;
    std::mt19937_64 rng(6);
    std::uniform_real_distribution<double> U(0.0, 10.0);
    for (int i = 0; i < 1000; i++) {
        double alpha = U(rng), beta = 0.01 + U(rng), lh = U(rng), lm = lh + U(rng);
        int64_t d = 2 + (int64_t)(rng() % 8);
        double g = pascal_thm6_gain(alpha, beta, lh, lm, d);
        ASSERT_NEAR(g, pascal_thm6_period(alpha, beta, lm, d) -
                           pascal_thm6_period(alpha, beta, lh, d), kTol);
        ASSERT_GE(g, 0.0);
        double th = (double)(d - 1) * (alpha + beta) - beta;
        if (lm <= th)
            ASSERT_EQ(g, 0.0);
        int64_t d2 = 2 + (int64_t)(rng() % 8);
        double a2 = U(rng), b2 = 0.01 + U(rng);
        ASSERT_NEAR(pascal_thm6_divergence(alpha, beta, lm, d, a2, b2, lh, d2),
                    pascal_thm6_period(a2, b2, lh, d2) -
                        pascal_thm6_period(alpha, beta, lm, d), kTol);
    }
    ASSERT_TRUE(std::isnan(pascal_thm6_gain(1, 1, 1, 2, 1)));
    // d = 2: th = alpha, so only latency above alpha is recoverable.
    ASSERT_NEAR(pascal_thm6_gain(2.0, 1.0, 1.0, 5.0, 2), 3.0, kTol);
}
