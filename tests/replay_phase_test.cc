// Tests for the fixed-phase and history traces and the steady-state /
// empty-cache replays of model/replay.h, against traces and caches written
// out naively here (eq. 1 evaluated per request, LRU as a recency list,
// slotted TTL as a round-by-round set, next uses found by scanning forward).
#include <gtest/gtest.h>

#include "test_util.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "model/replay.h"

namespace {

using Vec = std::vector<int64_t>;

int64_t mod(int64_t a, int64_t n) { return ((a % n) + n) % n; }

Vec naive_trace(const Vec &s, int64_t N, int64_t rounds)
{
    Vec t;
    for (int64_t r = 0; r < rounds; r++)
        for (int64_t x : s)
            t.push_back(mod(r + x, N));
    return t;
}

// Misses per round of a C-block LRU recency list, from empty.
Vec naive_lru_rounds(const Vec &trace, int64_t M, int64_t C)
{
    std::vector<int64_t> stack;
    Vec per((size_t)(trace.size() / (size_t)M), 0);
    for (size_t t = 0; t < trace.size(); t++) {
        auto it = std::find(stack.begin(), stack.end(), trace[t]);
        if (it != stack.end())
            stack.erase(it);
        else
            per[t / (size_t)M]++;
        stack.insert(stack.begin(), trace[t]);
        if ((int64_t)stack.size() > C)
            stack.pop_back();
    }
    return per;
}

using pascal_test::naive_rd;

Vec random_phases(std::mt19937_64 &rng, int64_t N, int64_t M)
{
    Vec s((size_t)M);
    int64_t spread = 1 + (int64_t)(rng() % (uint64_t)N);  // clustered or spread out
    for (auto &x : s)
        x = (int64_t)(rng() % (uint64_t)spread);
    return s;
}

struct Rp {
    pascal_replay *p;
    Rp(int64_t N, int64_t M) : p(pascal_replay_create(N, M)) {}
    ~Rp() { pascal_replay_free(p); }
};

}  // namespace

TEST(ReplayPhase, TracesFollowEquationOne)
{
    Vec s = {3, 0, 6, 3};
    Vec out(4 * 9);
    ASSERT_EQ(pascal_trace_phases(s.data(), 4, 7, 5, 9, out.data()), 36);
    for (int64_t r = 0; r < 9; r++)
        for (int64_t m = 0; m < 4; m++)
            EXPECT_EQ(out[(size_t)(r * 4 + m)], (r + 5 + s[(size_t)m]) % 7);
    Vec bad = {0, 7};
    EXPECT_EQ(pascal_trace_phases(bad.data(), 2, 7, 0, 1, out.data()), -1);
    EXPECT_EQ(pascal_trace_phases(s.data(), 4, 7, -1, 1, out.data()), -1);
}

// Section 3.5: worker w's k-th request reads k mod N whatever the others do.
TEST(ReplayPhase, HistoryTraceCountsPerWorker)
{
    std::vector<int32_t> ev = {0, 0, 1, 0, 1, 0, 0};
    Vec counts(2), out(7), idx(7);
    ASSERT_EQ(pascal_trace_history(ev.data(), 7, 2, 3, counts.data(), out.data(), idx.data()), 7);
    EXPECT_EQ(idx, (Vec{0, 1, 0, 2, 1, 3, 4}));
    EXPECT_EQ(out, (Vec{0, 1, 0, 2, 1, 0, 1}));
    std::vector<int32_t> bad = {0, 2};
    EXPECT_EQ(pascal_trace_history(bad.data(), 2, 2, 3, counts.data(), out.data(), nullptr), -1);
}

// Next uses: scan the (long enough) trace forward from each worker's
// round-N request.
TEST(ReplayPhase, NextOffsetsMatchTheTrace)
{
    std::mt19937_64 rng(0x0ff5);
    Rp rp(40, 9);
    for (int i = 0; i < 300; i++) {
        int64_t N = 1 + (int64_t)(rng() % 40), M = 1 + (int64_t)(rng() % 9);
        Vec s = random_phases(rng, N, M), off((size_t)M);
        ASSERT_EQ(pascal_replay_next_offsets(rp.p, s.data(), M, N, off.data()), 0);
        Vec t = naive_trace(s, N, 3 * N + 2);
        int64_t sum = 0;
        for (int64_t m = 0; m < M; m++) {
            size_t at = (size_t)(N * M + m), u = at + 1;
            while (t[u] != t[at])
                u++;
            ASSERT_EQ(off[(size_t)m], (int64_t)(u - at)) << "case " << i << " m " << m;
            sum += off[(size_t)m];
        }
        EXPECT_EQ(sum, N * M);   // each block's next-use gaps tile N rounds
    }
}

// Steady-state LRU: after N warm-up rounds the naive LRU misses the same
// number in every round; round N's distances equal those read off the trace.
TEST(ReplayPhase, LruSteadyStateMatchesNaiveReplay)
{
    std::mt19937_64 rng(0x1a2b);
    Rp rp(30, 7);
    for (int i = 0; i < 150; i++) {
        int64_t N = 1 + (int64_t)(rng() % 30), M = 1 + (int64_t)(rng() % 7);
        Vec s = random_phases(rng, N, M);
        Vec t = naive_trace(s, N, 3 * N);
        Vec rd((size_t)M);
        for (int64_t C = 1; C <= N + 1; C++) {
            int64_t k = pascal_replay_lru_steady(rp.p, s.data(), M, N, C, rd.data());
            Vec per = naive_lru_rounds(t, M, C);
            for (int64_t r = N; r < 3 * N; r++)
                ASSERT_EQ(k, per[(size_t)r]) << "case " << i << " C " << C << " round " << r;
        }
        for (int64_t m = 0; m < M; m++)
            ASSERT_EQ(rd[(size_t)m], naive_rd(t, (size_t)(2 * N * M + m))) << "case " << i;
    }
}

// Slotted TTL: the set of blocks requested in rounds r-T .. r, per round.
TEST(ReplayPhase, TtlSteadyStateMatchesNaiveWindow)
{
    std::mt19937_64 rng(0x77e1);
    Rp rp(25, 6);
    for (int i = 0; i < 120; i++) {
        int64_t N = 1 + (int64_t)(rng() % 25), M = 1 + (int64_t)(rng() % 6);
        Vec s = random_phases(rng, N, M);
        Vec t = naive_trace(s, N, 2 * N + 1);
        for (int64_t T = 0; T <= N + 1; T++) {
            int64_t occ = -1;
            int64_t k = pascal_replay_ttl_steady(rp.p, s.data(), M, N, T, &occ);
            std::set<int64_t> window, seen;   // rounds N-T .. N-1, then round N
            for (int64_t r = std::max<int64_t>(0, N - T); r < N; r++)
                for (int64_t m = 0; m < M; m++)
                    window.insert(t[(size_t)(r * M + m)]);
            int64_t miss = 0;
            for (int64_t m = 0; m < M; m++) {
                int64_t b = t[(size_t)(N * M + m)];
                miss += !window.count(b) && !seen.count(b);
                seen.insert(b);
            }
            ASSERT_EQ(occ, (int64_t)window.size()) << "case " << i << " T " << T;
            ASSERT_EQ(k, miss) << "case " << i << " T " << T;
        }
    }
}

// A set-associative cache with one set of C lines is the fully associative
// C-block LRU; with several sets it is one LRU per set (naive, over the
// measured rounds after warm-up).
TEST(ReplayPhase, SetSteadyStateMatchesLru)
{
    std::mt19937_64 rng(0x5e75);
    Rp rp(32, 6);
    pascal_setlru *set = pascal_setlru_create(32, 32);
    ASSERT_NE(set, nullptr);
    for (int i = 0; i < 100; i++) {
        int64_t N = 2 + (int64_t)(rng() % 31), M = 1 + (int64_t)(rng() % 6);
        Vec s = random_phases(rng, N, M);
        int64_t C = 1 + (int64_t)(rng() % (uint64_t)(N - 1));
        ASSERT_EQ(pascal_setlru_reset(set, C, C, PASCAL_SETMAP_RANDOM, 3), 0);
        double k = pascal_replay_set_steady(rp.p, set, s.data(), M, N);
        ASSERT_EQ(k, (double)pascal_replay_lru_steady(rp.p, s.data(), M, N, C, nullptr))
            << "case " << i;
        // Two ways, random sets: per-set naive LRU over rounds N .. 2N-1.
        int64_t S = std::max<int64_t>(1, C / 2);
        ASSERT_EQ(pascal_setlru_reset(set, 2, 2 * S, PASCAL_SETMAP_RANDOM, 11 + i), 0);
        k = pascal_replay_set_steady(rp.p, set, s.data(), M, N);
        Vec t = naive_trace(s, N, 2 * N);
        int64_t want = 0;
        for (int64_t q = 0; q < S; q++) {
            Vec sub, round;
            for (size_t u = 0; u < t.size(); u++)
                if (pascal_setlru_set_of(set, t[u]) == q) {
                    sub.push_back(t[u]);
                    round.push_back((int64_t)(u / (size_t)M));
                }
            // Per-set misses, attributed to the round of each request.
            std::vector<int64_t> stack;
            for (size_t u = 0; u < sub.size(); u++) {
                auto it = std::find(stack.begin(), stack.end(), sub[u]);
                bool hit = it != stack.end();
                if (hit)
                    stack.erase(it);
                stack.insert(stack.begin(), sub[u]);
                if ((int64_t)stack.size() > 2)
                    stack.pop_back();
                want += !hit && round[u] >= N;
            }
        }
        ASSERT_DOUBLE_EQ(k, (double)want / (double)N) << "case " << i;
    }
    pascal_setlru_free(set);
}

// Belady from the phases (no stored trace) equals Belady on the stored
// trace, for every capacity.
TEST(ReplayPhase, BeladyFromPhasesMatchesStoredTrace)
{
    std::mt19937_64 rng(0xbe1);
    Rp rp(40, 8);
    pascal_opt *opt = pascal_opt_create(40, 6 * 40 * 8);
    ASSERT_NE(opt, nullptr);
    for (int i = 0; i < 120; i++) {
        int64_t N = 1 + (int64_t)(rng() % 40), M = 1 + (int64_t)(rng() % 8);
        Vec s = random_phases(rng, N, M);
        int64_t rounds = 1 + (int64_t)(rng() % (uint64_t)(6 * N));
        Vec t = naive_trace(s, N, rounds);
        for (int64_t C = 0; C <= N; C++) {
            int64_t a = pascal_replay_belady(rp.p, s.data(), M, N, rounds, C);
            int64_t b = pascal_opt_replay(opt, t.data(), (int64_t)t.size(), C);
            ASSERT_EQ(a, b) << "case " << i << " C " << C;
        }
    }
    pascal_opt_free(opt);
}

TEST(ReplayPhase, RejectsBadInput)
{
    EXPECT_EQ(pascal_replay_create(0, 4), nullptr);
    EXPECT_EQ(pascal_replay_create(4, 0), nullptr);
    pascal_replay_free(nullptr);
    Rp rp(8, 3);
    Vec s = {0, 9}, ok = {0, 3}, four = {0, 1, 2, 3}, off(4);
    EXPECT_EQ(pascal_replay_lru_steady(rp.p, s.data(), 2, 10, 2, nullptr), -1);  // N > max_N
    EXPECT_EQ(pascal_replay_lru_steady(rp.p, s.data(), 2, 8, 2, nullptr), -1);   // phase >= N
    EXPECT_EQ(pascal_replay_lru_steady(rp.p, four.data(), 4, 8, 2, nullptr), -1); // M > max_M
    EXPECT_EQ(pascal_replay_ttl_steady(rp.p, ok.data(), 2, 8, -1, nullptr), -1);
    EXPECT_EQ(pascal_replay_belady(rp.p, ok.data(), 2, 8, -1, 2), -1);
    EXPECT_EQ(pascal_replay_next_offsets(rp.p, s.data(), 2, 8, off.data()), -1);
    EXPECT_TRUE(std::isnan(pascal_replay_set_steady(rp.p, nullptr, ok.data(), 2, 8)));
}
