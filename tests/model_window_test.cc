// pascal_static_window (Theorems 2 and 3 from one water-filling search)
// returns exactly what the separate queries return, bit for bit, at every
// capacity from below 1 to beyond N, on seeded random phase vectors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "model/static.h"

namespace {

bool same(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(StaticWindow, EqualsTheSeparateQueries)
{
    std::mt19937_64 rng(4242);
    pascal_static *ws = pascal_static_create(64);
    ASSERT_NE(ws, nullptr);
    for (int trial = 0; trial < 200; trial++) {
        int64_t N = 1 + (int64_t)(rng() % 300), M = 1 + (int64_t)(rng() % 64);
        std::vector<int64_t> ph(M);
        int64_t spread = 1 + (int64_t)(rng() % N);   // clustered or spread phases
        for (auto &x : ph)
            x = (int64_t)(rng() % (uint64_t)spread);
        ASSERT_EQ(pascal_static_prepare(ws, ph.data(), M, N, 0), 0);
        for (int64_t C = -1; C <= N + 2; C++) {
            pascal_static_win w;
            double lo, hi;
            pascal_static_window(ws, C, &w);
            pascal_static_lru_band(ws, C, &lo, &hi);
            ASSERT_TRUE(same(w.theta, pascal_static_theta(ws, C))) << "N " << N << " C " << C;
            ASSERT_EQ(w.tstar, pascal_static_tstar(ws, C)) << "N " << N << " C " << C;
            ASSERT_EQ(w.k_ttl, pascal_static_k_ttl(ws, C)) << "N " << N << " C " << C;
            ASSERT_TRUE(same(w.band_lo, lo)) << "N " << N << " C " << C;
            ASSERT_TRUE(same(w.band_hi, hi)) << "N " << N << " C " << C;
        }
    }
    pascal_static_free(ws);
}

}  // namespace
