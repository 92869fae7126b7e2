// Tests for the cache simulators of model/replay.h on hand-computed traces
// (the cache-lab facts, textbook page-replacement examples) and against
// naive simulators written here: an LRU list scanned linearly, reuse
// distances counted by walking the trace back, Belady by scanning every
// resident block's next use, set-associative LRU as one naive LRU per set.
#include <gtest/gtest.h>

#include "test_util.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "model/replay.h"

namespace {

using Vec = std::vector<int64_t>;

// Naive LRU: a recency list, most recent first; misses of a C-block cache.
int64_t naive_lru(const Vec &trace, int64_t C, std::vector<bool> *hits = nullptr)
{
    std::vector<int64_t> stack;
    int64_t misses = 0;
    for (int64_t b : trace) {
        auto it = std::find(stack.begin(), stack.end(), b);
        bool hit = it != stack.end();
        if (hit)
            stack.erase(it);
        else
            misses++;
        stack.insert(stack.begin(), b);
        if ((int64_t)stack.size() > C)
            stack.pop_back();
        if (hits)
            hits->push_back(hit);
    }
    return misses;
}

using pascal_test::naive_rd;

// Belady by definition: on a miss with a full cache, scan the residents for
// the farthest next use (never used again: farthest).
int64_t naive_opt(const Vec &trace, int64_t C)
{
    std::vector<int64_t> cache;
    int64_t misses = 0;
    for (size_t t = 0; t < trace.size(); t++) {
        if (std::find(cache.begin(), cache.end(), trace[t]) != cache.end())
            continue;
        misses++;
        if ((int64_t)cache.size() < C) {
            cache.push_back(trace[t]);
            continue;
        }
        if (C == 0)
            continue;
        size_t victim = 0, far = 0;
        for (size_t i = 0; i < cache.size(); i++) {
            size_t u = t + 1;
            while (u < trace.size() && trace[u] != cache[i])
                u++;
            if (u > far) {
                far = u;
                victim = i;
            }
        }
        cache[victim] = trace[t];
    }
    return misses;
}

Vec random_trace(std::mt19937_64 &rng, size_t n, int64_t nblocks, double locality)
{
    Vec t(n);
    std::uniform_real_distribution<double> u(0, 1);
    int64_t cur = 0;
    for (auto &x : t) {
        // Mixture of a drifting hot spot and uniform draws, so every reuse
        // distance from 0 to nblocks occurs.
        if (u(rng) < locality)
            cur = (cur + (int64_t)(rng() % 5) - 2 + nblocks) % nblocks;
        else
            cur = (int64_t)(rng() % (uint64_t)nblocks);
        x = cur;
    }
    return t;
}

struct Lru {
    pascal_lru *p;
    explicit Lru(int64_t n) : p(pascal_lru_create(n)) {}
    ~Lru() { pascal_lru_free(p); }
};

}  // namespace

// The cache lab: a stride-4 cycle (0, 4, 8, 12, 0, ...) from empty.  A
// 4-line LRU misses the first four and hits the other 13 of 17; a 2-line
// LRU hits none, since each block returns after 3 others.
TEST(ReplaySim, CacheLabStrideFourCycle)
{
    Vec trace;
    for (int i = 0; i < 17; i++)
        trace.push_back(4 * (i % 4));
    Lru lru(16);
    Vec rd(17);
    ASSERT_EQ(pascal_lru_replay(lru.p, trace.data(), 17, 4, rd.data()), 4);
    for (int i = 0; i < 17; i++)
        EXPECT_EQ(rd[(size_t)i], i < 4 ? -1 : 3) << i;
    pascal_lru_reset(lru.p);
    ASSERT_EQ(pascal_lru_replay(lru.p, trace.data(), 17, 2, nullptr), 17);

    // The same facts from the set-associative simulator with one set.
    pascal_setlru *set = pascal_setlru_create(4, 16);
    ASSERT_NE(set, nullptr);
    ASSERT_EQ(pascal_setlru_reset(set, 4, 4, PASCAL_SETMAP_MODULO, 0), 0);
    EXPECT_EQ(pascal_setlru_replay(set, trace.data(), 17, nullptr), 4);
    ASSERT_EQ(pascal_setlru_reset(set, 2, 2, PASCAL_SETMAP_RANDOM, 9), 0);
    EXPECT_EQ(pascal_setlru_replay(set, trace.data(), 17, nullptr), 17);
    pascal_setlru_free(set);
}

// a b c a b d a: distances -1 -1 -1 2 2 -1 2 by hand; C = 2 misses all
// seven, C = 3 hits the three repeats.
TEST(ReplaySim, HandTraceReuseDistances)
{
    Vec trace = {0, 1, 2, 0, 1, 3, 0};
    Vec want = {-1, -1, -1, 2, 2, -1, 2};
    Lru lru(4);
    Vec rd(7);
    ASSERT_EQ(pascal_lru_replay(lru.p, trace.data(), 7, 2, rd.data()), 7);
    EXPECT_EQ(rd, want);
    pascal_lru_reset(lru.p);
    EXPECT_EQ(pascal_lru_replay(lru.p, trace.data(), 7, 3, nullptr), 4);
    pascal_lru_reset(lru.p);
    EXPECT_EQ(pascal_lru_replay(lru.p, trace.data(), 7, 0, nullptr), 7);
}

// The textbook reference string 7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1 with
// three frames: OPT 9 faults, LRU 12.
TEST(ReplaySim, TextbookReferenceString)
{
    Vec trace = {7, 0, 1, 2, 0, 3, 0, 4, 2, 3, 0, 3, 2, 1, 2, 0, 1, 7, 0, 1};
    pascal_opt *opt = pascal_opt_create(8, 64);
    ASSERT_NE(opt, nullptr);
    EXPECT_EQ(pascal_opt_replay(opt, trace.data(), (int64_t)trace.size(), 3), 9);
    EXPECT_EQ(pascal_opt_replay(opt, trace.data(), (int64_t)trace.size(), 8), 6);
    EXPECT_EQ(pascal_opt_replay(opt, trace.data(), (int64_t)trace.size(), 0), 20);
    pascal_opt_free(opt);
    Lru lru(8);
    EXPECT_EQ(pascal_lru_replay(lru.p, trace.data(), (int64_t)trace.size(), 3, nullptr), 12);
}

// Long random traces over few blocks wrap the time slots many times (W =
// 128 slots here), so renumbering is exercised; every distance and every
// capacity's miss count must match the naive versions.
TEST(ReplaySim, StackDistanceMatchesNaiveAcrossRenumbering)
{
    std::mt19937_64 rng(0x2385);
    for (int64_t nblocks : {1, 2, 7, 40, 64, 65, 300}) {
        Vec trace = random_trace(rng, 3000, nblocks, 0.6);
        Lru lru(nblocks);
        Vec rd(trace.size());
        pascal_lru_replay(lru.p, trace.data(), (int64_t)trace.size(), 1, rd.data());
        for (size_t t = 0; t < trace.size(); t++)
            ASSERT_EQ(rd[t], naive_rd(trace, t)) << "nblocks " << nblocks << " t " << t;
        for (int64_t C : {1L, 2L, 5L, 31L, 64L, 299L}) {
            pascal_lru_reset(lru.p);
            int64_t got = pascal_lru_replay(lru.p, trace.data(), (int64_t)trace.size(), C,
                                            nullptr);
            ASSERT_EQ(got, naive_lru(trace, C)) << "nblocks " << nblocks << " C " << C;
        }
    }
}

// Reuse distances short and long on a replay of 64 words and more: a
// block last seen in one of the last words (counted by popcounts, outside
// the tree) or before them (the tree), across the boundary as words enter
// the tree, and across renumbering; each against the naive count.
TEST(ReplaySim, StackDistanceNearAndFarMatchNaive)
{
    std::mt19937_64 rng(0x5eed);
    for (int64_t nblocks : {700, 1500, 2100}) {
        Vec trace = random_trace(rng, 9000, nblocks, 0.9);
        // and bursts of a few hundred distinct blocks reread in order
        for (size_t t = 0; t + 600 < trace.size(); t += 1800)
            for (size_t k = 0; k < 300; k++)
                trace[t + 300 + k] = trace[t + k];
        Lru lru(nblocks);
        Vec rd(trace.size());
        pascal_lru_replay(lru.p, trace.data(), (int64_t)trace.size(), 1, rd.data());
        int64_t near = 0, far = 0;
        for (size_t t = 0; t < trace.size(); t++) {
            int64_t want = naive_rd(trace, t);
            ASSERT_EQ(rd[t], want) << "nblocks " << nblocks << " t " << t;
            near += want >= 0 && want < 64;
            far += want >= 9 * 64;   // beyond the last RECENT + 1 words
        }
        EXPECT_GT(near, 1000) << nblocks;
        EXPECT_GT(far, 150) << nblocks;
    }
}

// The histogram entry point counts every request's naive RD, in pieces
// that cross the renumbering (9000 requests over at most 2 x 2100 blocks'
// slots), and stops at a bad id having counted the requests before it.
TEST(ReplaySim, StackDistanceHistogramCountsEveryNaiveRd)
{
    std::mt19937_64 rng(0x4157);
    for (int64_t nblocks : {90, 700, 2100}) {
        Vec trace = random_trace(rng, 9000, nblocks, 0.85);
        Vec want((size_t)nblocks, 0), hist((size_t)nblocks, 0);
        int64_t want_cold = 0, cold = 0;
        for (size_t t = 0; t < trace.size(); t++) {
            int64_t r = naive_rd(trace, t);
            if (r < 0)
                want_cold++;
            else
                want[(size_t)r]++;
        }
        Lru lru(nblocks);
        for (size_t s = 0; s < trace.size(); s += 1234) {
            int64_t n = (int64_t)std::min<size_t>(1234, trace.size() - s);
            ASSERT_EQ(pascal_lru_replay_hist(lru.p, trace.data() + s, n, hist.data(), &cold), 0);
        }
        EXPECT_EQ(cold, want_cold) << nblocks;
        EXPECT_EQ(hist, want) << nblocks;
    }
    Lru lru(10);
    Vec hist(10, 0), bad = {1, 2, 1, 10, 2};
    int64_t cold = 0;
    EXPECT_EQ(pascal_lru_replay_hist(lru.p, bad.data(), 5, hist.data(), &cold), -1);
    EXPECT_EQ(cold, 2);
    EXPECT_EQ(hist[1], 1);
    EXPECT_EQ(pascal_lru_replay_hist(lru.p, bad.data(), 1, nullptr, &cold), -1);
}

// Feeding a trace in pieces gives the same answers as all at once.
TEST(ReplaySim, StackDistanceIsIncremental)
{
    std::mt19937_64 rng(77);
    Vec trace = random_trace(rng, 5000, 90, 0.8);
    Lru a(90), b(90);
    Vec rd_a(trace.size()), rd_b(trace.size());
    int64_t ma = pascal_lru_replay(a.p, trace.data(), (int64_t)trace.size(), 17, rd_a.data());
    int64_t mb = 0;
    for (size_t s = 0; s < trace.size(); s += 333) {
        int64_t n = (int64_t)std::min<size_t>(333, trace.size() - s);
        mb += pascal_lru_replay(b.p, trace.data() + s, n, 17, rd_b.data() + s);
    }
    EXPECT_EQ(ma, mb);
    EXPECT_EQ(rd_a, rd_b);
}

TEST(ReplaySim, BeladyMatchesNaiveAndNeverLosesToLru)
{
    std::mt19937_64 rng(0xbe1a);
    pascal_opt *opt = pascal_opt_create(50, 2000);
    ASSERT_NE(opt, nullptr);
    for (int i = 0; i < 40; i++) {
        int64_t nblocks = 2 + (int64_t)(rng() % 48);
        Vec trace = random_trace(rng, 200 + rng() % 1800, nblocks, 0.5);
        for (int64_t C : {1L, 2L, 3L, 8L, 20L, 49L}) {
            int64_t got = pascal_opt_replay(opt, trace.data(), (int64_t)trace.size(), C);
            ASSERT_EQ(got, naive_opt(trace, C)) << "case " << i << " C " << C;
            ASSERT_LE(got, naive_lru(trace, C));
        }
    }
    pascal_opt_free(opt);
}

// Set-associative LRU is one LRU per set: replay each set's subsequence
// through the naive LRU with A lines and compare hit by hit.
TEST(ReplaySim, SetAssociativeIsLruPerSet)
{
    std::mt19937_64 rng(0x5e7);
    pascal_setlru *ws = pascal_setlru_create(64, 200);
    ASSERT_NE(ws, nullptr);
    struct Geo { int64_t A, B; pascal_setmap map; };
    for (Geo g : {Geo{1, 8, PASCAL_SETMAP_MODULO}, Geo{2, 16, PASCAL_SETMAP_MODULO},
                  Geo{4, 16, PASCAL_SETMAP_RANDOM}, Geo{8, 64, PASCAL_SETMAP_RANDOM},
                  Geo{16, 16, PASCAL_SETMAP_MODULO}}) {
        ASSERT_EQ(pascal_setlru_reset(ws, g.A, g.B, g.map, 41), 0);
        Vec trace = random_trace(rng, 4000, 200, 0.7);
        std::vector<uint8_t> hit(trace.size());
        int64_t misses = pascal_setlru_replay(ws, trace.data(), (int64_t)trace.size(), hit.data());
        int64_t S = g.B / g.A, want_misses = 0;
        for (int64_t s = 0; s < S; s++) {
            Vec sub;
            std::vector<size_t> at;
            for (size_t t = 0; t < trace.size(); t++)
                if (pascal_setlru_set_of(ws, trace[t]) == s) {
                    sub.push_back(trace[t]);
                    at.push_back(t);
                }
            std::vector<bool> h;
            want_misses += naive_lru(sub, g.A, &h);
            for (size_t k = 0; k < sub.size(); k++)
                ASSERT_EQ((bool)hit[at[k]], (bool)h[k]) << "A " << g.A << " B " << g.B;
        }
        EXPECT_EQ(misses, want_misses);
    }
    pascal_setlru_free(ws);
}

// Modulo mapping by hand: direct-mapped 4 lines thrashes on 0, 4; a 2-way
// cache of 4 lines (2 sets) keeps 0 and 4 together but not 0, 2 and 4.
TEST(ReplaySim, SetAssociativeHandCases)
{
    pascal_setlru *ws = pascal_setlru_create(8, 16);
    ASSERT_NE(ws, nullptr);
    Vec t1 = {0, 4, 0, 4, 1, 2, 3, 1};
    ASSERT_EQ(pascal_setlru_reset(ws, 1, 4, PASCAL_SETMAP_MODULO, 0), 0);
    EXPECT_EQ(pascal_setlru_replay(ws, t1.data(), 8, nullptr), 7);
    ASSERT_EQ(pascal_setlru_reset(ws, 2, 4, PASCAL_SETMAP_MODULO, 0), 0);
    EXPECT_EQ(pascal_setlru_replay(ws, t1.data(), 8, nullptr), 5);
    Vec t2 = {0, 2, 4, 0};
    pascal_setlru_clear(ws);
    EXPECT_EQ(pascal_setlru_replay(ws, t2.data(), 4, nullptr), 4);
    EXPECT_EQ(pascal_setlru_set_of(ws, 7), 1);
    pascal_setlru_free(ws);
}

// Random mapping: seeded (same seed, same sets), every set used, roughly
// uniform occupancy.
TEST(ReplaySim, RandomSetMappingIsSeededAndSpread)
{
    const int64_t nblocks = 16000, S = 16;
    pascal_setlru *a = pascal_setlru_create(64, nblocks), *b = pascal_setlru_create(64, nblocks);
    ASSERT_EQ(pascal_setlru_reset(a, 4, 4 * S, PASCAL_SETMAP_RANDOM, 5), 0);
    ASSERT_EQ(pascal_setlru_reset(b, 4, 4 * S, PASCAL_SETMAP_RANDOM, 5), 0);
    std::vector<int64_t> count((size_t)S, 0);
    int differ = 0;
    for (int64_t x = 0; x < nblocks; x++) {
        ASSERT_EQ(pascal_setlru_set_of(a, x), pascal_setlru_set_of(b, x));
        count[(size_t)pascal_setlru_set_of(a, x)]++;
        differ += pascal_setlru_set_of(a, x) != x % S;
    }
    for (int64_t c : count)   // mean 1000, sd about 31: 6 sd either side
        EXPECT_NEAR((double)c, 1000.0, 190.0);
    EXPECT_GT(differ, nblocks / 2);
    ASSERT_EQ(pascal_setlru_reset(b, 4, 4 * S, PASCAL_SETMAP_RANDOM, 6), 0);
    int same = 0;
    for (int64_t x = 0; x < nblocks; x++)
        same += pascal_setlru_set_of(a, x) == pascal_setlru_set_of(b, x);
    EXPECT_LT(same, nblocks / 8);
    pascal_setlru_free(a);
    pascal_setlru_free(b);
}

// Slotted TTL by hand (T = 1): rounds [0 1] [2 0] [1 2] [5 5].
TEST(ReplaySim, SlottedTtlHandCase)
{
    pascal_ttl *ws = pascal_ttl_create(8);
    ASSERT_NE(ws, nullptr);
    pascal_ttl_reset(ws, 1);
    Vec r0 = {0, 1}, r1 = {2, 0}, r2 = {1, 2}, r3 = {5, 5};
    EXPECT_EQ(pascal_ttl_occupancy(ws), 0);
    EXPECT_EQ(pascal_ttl_round(ws, r0.data(), 2), 2);
    EXPECT_EQ(pascal_ttl_occupancy(ws), 2);        // {0, 1}
    EXPECT_EQ(pascal_ttl_round(ws, r1.data(), 2), 1);   // 0 from round 0 is held
    EXPECT_EQ(pascal_ttl_occupancy(ws), 2);        // {2, 0}
    EXPECT_EQ(pascal_ttl_round(ws, r2.data(), 2), 1);   // 1 expired, 2 held
    EXPECT_EQ(pascal_ttl_round(ws, r3.data(), 2), 1);   // the duplicate shares the fill
    // T = 0 keeps nothing across a boundary; a huge T keeps everything.
    pascal_ttl_reset(ws, 0);
    EXPECT_EQ(pascal_ttl_round(ws, r0.data(), 2), 2);
    EXPECT_EQ(pascal_ttl_round(ws, r0.data(), 2), 2);
    EXPECT_EQ(pascal_ttl_occupancy(ws), 0);
    pascal_ttl_reset(ws, INT64_MAX);
    EXPECT_EQ(pascal_ttl_round(ws, r0.data(), 2), 2);
    EXPECT_EQ(pascal_ttl_round(ws, r2.data(), 2), 1);
    EXPECT_EQ(pascal_ttl_round(ws, r0.data(), 2), 0);
    EXPECT_EQ(pascal_ttl_occupancy(ws), 3);
    pascal_ttl_free(ws);
}

TEST(ReplaySim, RejectsBadInput)
{
    EXPECT_EQ(pascal_lru_create(0), nullptr);
    EXPECT_EQ(pascal_lru_create(((int64_t)1 << 28) + 1), nullptr);
    EXPECT_EQ(pascal_setlru_create(0, 4), nullptr);
    EXPECT_EQ(pascal_ttl_create(0), nullptr);
    EXPECT_EQ(pascal_opt_create(0, 4), nullptr);
    EXPECT_EQ(pascal_opt_create(4, -1), nullptr);
    pascal_lru_free(nullptr);
    pascal_setlru_free(nullptr);
    pascal_ttl_free(nullptr);
    pascal_opt_free(nullptr);

    Vec bad = {0, 1, 4};
    Lru lru(4);
    EXPECT_EQ(pascal_lru_replay(lru.p, bad.data(), 3, 2, nullptr), -1);
    Vec neg = {-1};
    pascal_lru_reset(lru.p);
    EXPECT_EQ(pascal_lru_replay(lru.p, neg.data(), 1, 2, nullptr), -1);
    EXPECT_EQ(pascal_lru_replay(lru.p, nullptr, 3, 2, nullptr), -1);

    pascal_setlru *set = pascal_setlru_create(8, 4);
    EXPECT_EQ(pascal_setlru_reset(set, 3, 8, PASCAL_SETMAP_MODULO, 0), -1);  // 8 % 3
    EXPECT_EQ(pascal_setlru_reset(set, 4, 16, PASCAL_SETMAP_MODULO, 0), -1); // > max
    EXPECT_EQ(pascal_setlru_reset(set, 0, 8, PASCAL_SETMAP_MODULO, 0), -1);
    EXPECT_EQ(pascal_setlru_reset(set, 2, 8, (pascal_setmap)7, 0), -1);
    ASSERT_EQ(pascal_setlru_reset(set, 2, 8, PASCAL_SETMAP_MODULO, 0), 0);
    EXPECT_EQ(pascal_setlru_replay(set, bad.data(), 3, nullptr), -1);
    pascal_setlru_free(set);

    pascal_ttl *ttl = pascal_ttl_create(4);
    pascal_ttl_reset(ttl, 2);
    EXPECT_EQ(pascal_ttl_round(ttl, bad.data(), 3), -1);
    pascal_ttl_free(ttl);

    pascal_opt *opt = pascal_opt_create(4, 2);
    EXPECT_EQ(pascal_opt_replay(opt, bad.data(), 3, 2), -1);   // longer than max_len
    Vec bad2 = {0, 9};
    EXPECT_EQ(pascal_opt_replay(opt, bad2.data(), 2, 2), -1);
    pascal_opt_reset(opt, 2);
    EXPECT_EQ(pascal_opt_access(opt, 4, 10), -1);
    pascal_opt_free(opt);
}
