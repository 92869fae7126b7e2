// The LRU in bytes (model/replay_bytes.c) against a recency list kept here
// the slow way: every request's need is the bytes of its block and of every
// distinct block requested since its previous request, 0 for a first one.
// The traces are long enough to renumber the slots many times, and mix
// short and long reuse so that both halves of a group and the tree are
// read.
#include <gtest/gtest.h>

#include <cstdint>
#include <list>
#include <random>
#include <vector>

#include "model/replay_bytes.h"

namespace {

struct Naive {
    std::list<int64_t> stack;   // most recent first
    std::vector<int64_t> size;
    explicit Naive(int64_t n) : size((size_t)n, 0) {}
    int64_t access(int64_t b, int64_t bytes)
    {
        int64_t need = 0;
        bool seen = false;
        for (auto it = stack.begin(); it != stack.end(); ++it) {
            if (*it == b) {
                need += size[(size_t)b];
                stack.erase(it);
                seen = true;
                break;
            }
            need += size[(size_t)*it];
        }
        size[(size_t)b] = bytes;
        stack.push_front(b);
        return seen ? need : 0;
    }
};

TEST(ByteLru, EveryNeedMatchesARecencyList)
{
    std::mt19937_64 rng(20261203);
    int64_t checked = 0;
    for (int trial = 0; trial < 24; trial++) {
        int64_t nblocks = 1 + (int64_t)(rng() % 300);
        pascal_blru *ws = pascal_blru_create(nblocks);
        ASSERT_NE(ws, nullptr);
        Naive ref(nblocks);
        std::vector<int64_t> bytes((size_t)nblocks);
        for (auto &x : bytes)
            x = 1 + (int64_t)(rng() % 5000);
        int64_t hot = 1 + (int64_t)(rng() % 8);
        for (int i = 0; i < 6000; i++) {
            // a hot set reused at short distance, a ring, and noise
            int64_t r = (int64_t)(rng() % 10), b;
            if (r < 4)
                b = (int64_t)(rng() % (uint64_t)hot) % nblocks;
            else if (r < 8)
                b = i % nblocks;
            else
                b = (int64_t)(rng() % (uint64_t)nblocks);
            // a block's size changes now and then (the cache keeps the new one)
            if (rng() % 50 == 0)
                bytes[(size_t)b] = 1 + (int64_t)(rng() % 5000);
            int64_t want = ref.access(b, bytes[(size_t)b]);
            ASSERT_EQ(pascal_blru_access(ws, b, bytes[(size_t)b]), want)
                << "trial " << trial << " request " << i << " block " << b;
            checked++;
        }
        pascal_blru_reset(ws);
        EXPECT_EQ(pascal_blru_access(ws, 0, 7), 0) << "reset empties the cache";
        EXPECT_EQ(pascal_blru_access(ws, 0, 7), 7);
        pascal_blru_free(ws);
    }
    EXPECT_EQ(checked, 24 * 6000);
}

TEST(ByteLru, RefusesBadIdsAndSizes)
{
    pascal_blru *ws = pascal_blru_create(4);
    ASSERT_NE(ws, nullptr);
    EXPECT_EQ(pascal_blru_access(ws, -1, 8), -1);
    EXPECT_EQ(pascal_blru_access(ws, 4, 8), -1);
    EXPECT_EQ(pascal_blru_access(ws, 1, 0), -1);
    EXPECT_EQ(pascal_blru_access(ws, 1, 8), 0) << "a refused request changes nothing";
    pascal_blru_free(ws);
    EXPECT_EQ(pascal_blru_create(0), nullptr);
}

}  // namespace
