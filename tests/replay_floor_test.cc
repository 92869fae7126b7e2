// The reuse-gap floor (model/replay_floor.c): never above the optimum,
// found here by trying every eviction on tiny traces and by the library's
// Belady on longer ones; exact where the docs say it is; its bucketed
// gaps within 1/256 of the exact gaps' floor computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <set>
#include <vector>

#include "model/replay.h"

namespace {

using Vec = std::vector<int64_t>;

// The fewest misses of any demand-paging cache of C blocks from empty,
// every eviction tried (a miss with a full cache evicts one of the C).
int64_t exhaustive_optimum(const Vec &t, size_t i, std::vector<int64_t> &cache, int64_t C)
{
    if (i == t.size())
        return 0;
    if (std::find(cache.begin(), cache.end(), t[i]) != cache.end())
        return exhaustive_optimum(t, i + 1, cache, C);
    if ((int64_t)cache.size() < C) {
        cache.push_back(t[i]);
        int64_t m = 1 + exhaustive_optimum(t, i + 1, cache, C);
        cache.pop_back();
        return m;
    }
    int64_t best = INT64_MAX;
    for (size_t k = 0; k < cache.size(); k++) {
        int64_t out = cache[k];
        cache[k] = t[i];
        best = std::min(best, 1 + exhaustive_optimum(t, i + 1, cache, C));
        cache[k] = out;
    }
    return best;
}

// The floor from the exact gaps: n less the most smallest gaps (less one)
// that fit in (C - 1)(n - 1).
int64_t exact_gap_floor(const Vec &t, int64_t C)
{
    std::vector<int64_t> last(1 << 16, -1), gaps;
    for (size_t i = 0; i < t.size(); i++) {
        if (last[(size_t)t[i]] >= 0)
            gaps.push_back((int64_t)i - last[(size_t)t[i]] - 1);
        last[(size_t)t[i]] = (int64_t)i;
    }
    std::sort(gaps.begin(), gaps.end());
    int64_t budget = (C - 1) * ((int64_t)t.size() - 1), hits = 0;
    for (int64_t g : gaps) {
        if (g > budget)
            break;
        budget -= g;
        hits++;
    }
    return (int64_t)t.size() - hits;
}

struct Rng {
    uint64_t x;
    int64_t operator()(int64_t lo, int64_t hi)
    {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return lo + (int64_t)((x >> 33) % (uint64_t)(hi - lo + 1));
    }
};

int64_t distinct(const Vec &t) { return (int64_t)std::set<int64_t>(t.begin(), t.end()).size(); }

TEST(GapFloor, NeverAboveTheOptimumOfEveryEviction)
{
    Rng draw{7};
    pascal_gapfloor *g = pascal_gapfloor_create(6);
    pascal_opt *opt = pascal_opt_create(6, 64);
    ASSERT_TRUE(g && opt);
    int64_t cases = 0, tight = 0;
    for (int k = 0; k < 1500; k++) {
        Vec t((size_t)draw(1, 11));
        int64_t alphabet = draw(1, 6);
        for (int64_t &b : t)
            b = draw(0, alphabet - 1);
        pascal_gapfloor_reset(g);
        ASSERT_EQ(pascal_gapfloor_add(g, t.data(), (int64_t)t.size()), 0);
        ASSERT_EQ(pascal_gapfloor_requests(g), (int64_t)t.size());
        int64_t D = distinct(t), prev = INT64_MAX;
        for (int64_t C = 1; C <= 6; C++) {
            std::vector<int64_t> cache;
            int64_t best = exhaustive_optimum(t, 0, cache, C), f = pascal_gapfloor_misses(g, C);
            ASSERT_EQ(pascal_opt_replay(opt, t.data(), (int64_t)t.size(), C), best);
            ASSERT_LE(f, best) << "case " << k << " C " << C;
            ASSERT_GE(f, D);
            ASSERT_LE(f, prev);   // more cache, never a higher floor
            ASSERT_EQ(f, exact_gap_floor(t, C));   // gaps this short are exact
            if (C == 1 || C >= D)
                ASSERT_EQ(f, best) << "case " << k << " C " << C;
            prev = f;
            cases++;
            tight += f == best;
        }
        ASSERT_EQ(pascal_gapfloor_misses(g, 0), (int64_t)t.size());
    }
    std::printf("floor <= optimum on %lld (trace, C) cases, equal on %lld\n", (long long)cases,
                (long long)tight);
    pascal_gapfloor_free(g);
    pascal_opt_free(opt);
}

TEST(GapFloor, BelowBeladyOnLongTracesAndAppendable)
{
    Rng draw{11};
    const int64_t B = 400;
    pascal_gapfloor *g = pascal_gapfloor_create(B);
    pascal_opt *opt = pascal_opt_create(B, 20000);
    ASSERT_TRUE(g && opt);
    double ratio = 0;
    int64_t n_ratio = 0;
    for (int k = 0; k < 30; k++) {
        // A mix of a ring scan, a hot set and noise: gaps of every size.
        Vec t;
        int64_t N = draw(10, B), hot = draw(1, 20);
        for (int64_t i = 0; i < 6000; i++) {
            int64_t r = draw(0, 9);
            t.push_back(r < 6 ? i % N : r < 9 ? draw(0, hot - 1) : draw(0, B - 1));
        }
        pascal_gapfloor_reset(g);
        // in three pieces: the floor is of the whole trace
        ASSERT_EQ(pascal_gapfloor_add(g, t.data(), 1000), 0);
        ASSERT_EQ(pascal_gapfloor_add(g, t.data() + 1000, 3000), 0);
        ASSERT_EQ(pascal_gapfloor_add(g, t.data() + 4000, 2000), 0);
        for (int64_t C : {1, 2, 5, 17, 40, 99, 200, 399, 400, 1000}) {
            int64_t f = pascal_gapfloor_misses(g, C), o = pascal_opt_replay(opt, t.data(), 6000, C);
            ASSERT_LE(f, o) << "trace " << k << " C " << C;
            ASSERT_LE(f, exact_gap_floor(t, C));
            ratio += (double)f / (double)o;
            n_ratio++;
        }
    }
    std::printf("mean floor / Belady over %lld cases: %.3f\n", (long long)n_ratio, ratio / n_ratio);
    pascal_gapfloor_free(g);
    pascal_opt_free(opt);
}

TEST(GapFloor, LongGapsAreCountedShortWithin1In256)
{
    // A ring of N blocks scanned three times, and a second with a random
    // order per scan: every gap near N, above the exact range.
    for (int64_t N : {5000, 9001, 40000}) {
        for (int shuffled = 0; shuffled < 2; shuffled++) {
            Rng draw{(uint64_t)N};
            Vec t, perm((size_t)N);
            for (int64_t i = 0; i < N; i++)
                perm[(size_t)i] = i;
            for (int r = 0; r < 3; r++) {
                if (shuffled)
                    for (int64_t i = N - 1; i > 0; i--)
                        std::swap(perm[(size_t)i], perm[(size_t)draw(0, i)]);
                t.insert(t.end(), perm.begin(), perm.end());
            }
            pascal_gapfloor *g = pascal_gapfloor_create(N);
            ASSERT_TRUE(g);
            ASSERT_EQ(pascal_gapfloor_add(g, t.data(), (int64_t)t.size()), 0);
            for (int64_t C : {(int64_t)2, (int64_t)10, (int64_t)100, (int64_t)1000, N / 2, N - 1, N}) {
                int64_t f = pascal_gapfloor_misses(g, C), exact = exact_gap_floor(t, C);
                ASSERT_LE(f, exact) << "N " << N << " C " << C;
                // hits counted at most 1/256 too many (plus one for the rounding)
                ASSERT_GE((double)f, (double)exact - ((double)t.size() - exact) / 256.0 - 1)
                    << "N " << N << " C " << C;
            }
            ASSERT_EQ(pascal_gapfloor_misses(g, N), N);
            pascal_gapfloor_free(g);
        }
    }
}

TEST(GapFloor, RejectsBadIds)
{
    pascal_gapfloor *g = pascal_gapfloor_create(4);
    ASSERT_TRUE(g);
    const int64_t t[] = {0, 1, 4, 2};
    EXPECT_EQ(pascal_gapfloor_add(g, t, 4), -1);
    EXPECT_EQ(pascal_gapfloor_requests(g), 2);   // the two before it are kept
    const int64_t neg[] = {-1};
    EXPECT_EQ(pascal_gapfloor_add(g, neg, 1), -1);
    EXPECT_EQ(pascal_gapfloor_create(0), nullptr);
    pascal_gapfloor_free(g);
}

} // namespace
