// Tests for model/lab.h, the cache lab: the facts of the device-cache note
// (a 4-line LRU hits 13 of 17 requests of a stride-4 cycle, a 2-line one
// none), the closed form of LRU on a cyclic stream, and random command
// sequences against a reference written here that recomputes every state
// from scratch with last-use timestamps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "model/lab.h"

namespace {

// The state a lab must be in after n requests of the stride-s cycle on an
// empty c-line LRU cache, by timestamps: a hit iff the address is resident;
// on a miss in a full cache the resident address used longest ago leaves.
struct Ref {
    int64_t requests = 0, hits = 0, misses = 0;
    std::vector<int> lines; // most recent first
    int last_address = -1;
    pascal_lab_event last = PASCAL_LAB_NONE;
};

Ref Reference(int c, int s, int64_t n)
{
    std::vector<int64_t> used(s, -1); // last use per address, -1: not resident
    Ref r;
    for (int64_t i = 0; i < n; i++) {
        int a = (int)(i % s);
        int resident = 0;
        for (int x = 0; x < s; x++)
            resident += used[x] >= 0;
        if (used[a] >= 0) {
            r.hits++;
            r.last = PASCAL_LAB_HIT;
        } else {
            r.misses++;
            r.last = PASCAL_LAB_MISS;
            if (resident == c) {
                int victim = -1;
                for (int x = 0; x < s; x++)
                    if (used[x] >= 0 && (victim < 0 || used[x] < used[victim]))
                        victim = x;
                used[victim] = -1;
            }
        }
        used[a] = i;
        r.last_address = a;
    }
    r.requests = n;
    std::vector<std::pair<int64_t, int>> order;
    for (int x = 0; x < s; x++)
        if (used[x] >= 0)
            order.push_back({used[x], x});
    std::sort(order.rbegin(), order.rend());
    for (auto &o : order)
        r.lines.push_back(o.second);
    return r;
}

void ExpectState(const pascal_lab &lab, const Ref &r, const char *where)
{
    SCOPED_TRACE(where);
    EXPECT_EQ(lab.requests, r.requests);
    EXPECT_EQ(lab.hits, r.hits);
    EXPECT_EQ(lab.misses, r.misses);
    EXPECT_EQ(std::vector<int>(lab.lines, lab.lines + lab.used), r.lines);
    EXPECT_EQ(lab.last_address, r.last_address);
    EXPECT_EQ(lab.last, r.last);
}

TEST(LabModel, SeedFacts)
{
    pascal_lab lab;
    ASSERT_EQ(pascal_lab_init(&lab, PASCAL_LAB_DEFAULT_CAPACITY, PASCAL_LAB_DEFAULT_STRIDE), 0);
    pascal_lab_reset(&lab);
    ASSERT_EQ(pascal_lab_set_capacity(&lab, 4), 0);
    ASSERT_EQ(pascal_lab_set_stride(&lab, 4), 0);
    pascal_lab_reset(&lab);
    EXPECT_EQ(lab.requests, 16); // starts empty with sixteen requests counted
    EXPECT_EQ(lab.hits, 12);
    ASSERT_EQ(pascal_lab_step(&lab, 1), 0);
    EXPECT_EQ(lab.requests, 17);
    EXPECT_EQ(lab.hits, 13); // the four-address cycle fits four lines
    EXPECT_EQ(lab.misses, 4);
    EXPECT_EQ(std::vector<int>(lab.lines, lab.lines + lab.used), (std::vector<int>{0, 3, 2, 1}));
    ASSERT_EQ(pascal_lab_set_capacity(&lab, 2), 0); // replays the 17 requests
    EXPECT_EQ(lab.requests, 17);
    EXPECT_EQ(lab.hits, 0); // ... but not two
    EXPECT_EQ(lab.misses, 17);
    EXPECT_EQ(std::vector<int>(lab.lines, lab.lines + lab.used), (std::vector<int>{0, 3}));
}

TEST(LabModel, ResetKeepsCapacityAndStride)
{
    pascal_lab lab;
    ASSERT_EQ(pascal_lab_init(&lab, 3, 7), 0);
    ASSERT_EQ(pascal_lab_step(&lab, 29), 0);
    pascal_lab_reset(&lab);
    EXPECT_EQ(lab.capacity, 3);
    EXPECT_EQ(lab.stride, 7);
    ExpectState(lab, Reference(3, 7, PASCAL_LAB_START), "after reset");
}

// LRU on a cycle of s addresses: after the s cold misses everything hits
// when s <= c, and nothing ever hits when s > c.
TEST(LabModel, CyclicStreamClosedForm)
{
    for (int c = 1; c <= 12; c++)
        for (int s = 1; s <= 14; s++) {
            pascal_lab lab;
            ASSERT_EQ(pascal_lab_init(&lab, c, s), 0);
            for (int64_t n = PASCAL_LAB_START; n <= 60; n++) {
                int64_t want = s <= c ? std::max<int64_t>(0, n - s) : 0;
                ASSERT_EQ(lab.hits, want) << "c=" << c << " s=" << s << " n=" << n;
                ASSERT_EQ(pascal_lab_address(&lab, n), (int)(n % s));
                ASSERT_EQ(pascal_lab_step(&lab, 1), 0);
            }
        }
}

TEST(LabModel, RandomCommandsMatchReference)
{
    std::mt19937 rng(2385);
    pascal_lab lab;
    ASSERT_EQ(pascal_lab_init(&lab, 5, 3), 0);
    int c = 5, s = 3;
    int64_t n = PASCAL_LAB_START;
    for (int t = 0; t < 3000; t++) {
        switch (rng() % 4) {
        case 0:
            pascal_lab_reset(&lab);
            n = PASCAL_LAB_START;
            break;
        case 1:
            c = 1 + (int)(rng() % 9);
            ASSERT_EQ(pascal_lab_set_capacity(&lab, c), 0);
            break;
        case 2:
            s = 1 + (int)(rng() % 13);
            ASSERT_EQ(pascal_lab_set_stride(&lab, s), 0);
            break;
        default: {
            int64_t k = (int64_t)(rng() % 6);
            ASSERT_EQ(pascal_lab_step(&lab, k), 0);
            n += k;
        }
        }
        ExpectState(lab, Reference(c, s, n), "random command");
        if (HasFailure())
            return;
    }
}

TEST(LabModel, OutOfRangeChangesNothing)
{
    pascal_lab lab, before;
    EXPECT_EQ(pascal_lab_init(&lab, 0, 4), -1);
    EXPECT_EQ(pascal_lab_init(&lab, PASCAL_LAB_MAX_CAPACITY + 1, 4), -1);
    EXPECT_EQ(pascal_lab_init(&lab, 4, 0), -1);
    EXPECT_EQ(pascal_lab_init(&lab, 4, PASCAL_LAB_MAX_STRIDE + 1), -1);
    ASSERT_EQ(pascal_lab_init(&lab, PASCAL_LAB_MAX_CAPACITY, PASCAL_LAB_MAX_STRIDE), 0);
    ASSERT_EQ(pascal_lab_step(&lab, 9), 0);
    before = lab;
    EXPECT_EQ(pascal_lab_set_capacity(&lab, 0), -1);
    EXPECT_EQ(pascal_lab_set_capacity(&lab, 65), -1);
    EXPECT_EQ(pascal_lab_set_stride(&lab, -3), -1);
    EXPECT_EQ(pascal_lab_step(&lab, -1), -1);
    EXPECT_EQ(pascal_lab_step(&lab, PASCAL_LAB_MAX_REQUESTS - lab.requests + 1), -1);
    EXPECT_EQ(lab.requests, before.requests);
    EXPECT_EQ(lab.hits, before.hits);
    EXPECT_EQ(lab.capacity, before.capacity);
    EXPECT_EQ(lab.stride, before.stride);
    EXPECT_EQ(pascal_lab_step(&lab, PASCAL_LAB_MAX_REQUESTS - lab.requests), 0);
    EXPECT_EQ(lab.requests, PASCAL_LAB_MAX_REQUESTS);
    EXPECT_EQ(lab.hits + lab.misses, lab.requests);
}

} // namespace
