// Tests for the multi-stream families of `pascal validate`
// (validate/multi.c): the enumeration is complete and has no
// duplicates (its count computed here from the definition), every check
// holds, a corrupted model side is caught and the smallest failing case is
// the one found by hand, and the outcome does not depend on the thread
// count.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "validate/validate.h"

namespace {

pascal_validate_opts quick_opts()
{
    pascal_validate_opts o;
    pascal_validate_defaults(&o);
    o.seeded_cases = 10;
    o.max_N = 32;
    o.max_M = 6;
    o.histories = 4;
    o.sharp_max_s = 3;
    o.thm6_steps = 200;
    o.multi_seeded_cases = 40;
    return o;
}

struct Result {
    pascal_validate_result *r = nullptr;
    ~Result() { pascal_validate_free(r); }
};

int64_t choose(int64_t n, int64_t k)
{
    int64_t c = 1;
    for (int64_t i = 1; i <= k; i++)
        c = c * (n - k + i) / i;
    return c;
}

// From the definition: S = 2 with N_s in 1..3, M_s in 1..2; S = 3 with N_s
// in 1..2 and one request each; every order (multinomial), phase vector
// (prod N_s^M_s) and capacity 1 <= C < N_total.
int64_t expected_exhaustive()
{
    int64_t n = 0;
    for (int64_t a = 1; a <= 3; a++)
        for (int64_t b = 1; b <= 3; b++)
            for (int64_t m1 = 1; m1 <= 2; m1++)
                for (int64_t m2 = 1; m2 <= 2; m2++)
                    n += choose(m1 + m2, m1) * (int64_t)std::pow(a, m1) *
                         (int64_t)std::pow(b, m2) * (a + b - 1);
    for (int64_t a = 1; a <= 2; a++)
        for (int64_t b = 1; b <= 2; b++)
            for (int64_t c = 1; c <= 2; c++)
                n += 6 * a * b * c * (a + b + c - 1);
    return n;
}

TEST(ValidateMulti, EnumerationIsCompleteAndEveryCheckHolds)
{
    ASSERT_EQ(expected_exhaustive(), 7752);
    pascal_validate_opts o = quick_opts();
    pascal_error err = {};
    Result res;
    ASSERT_EQ(pascal_validate_run(&o, &res.r, &err), 0) << err.msg;
    const pascal_validate_result *r = res.r;
    EXPECT_EQ(r->nm_exhaustive, 7752);
    EXPECT_EQ(r->nm_seeded, 40);
    std::set<std::vector<int64_t>> seen;
    int64_t band = 0;
    for (int64_t i = 0; i < r->nmcases; i++) {
        const pascal_vcase &c = r->mcases[i];
        const int64_t *d = r->mdata + c.phase_off;
        std::vector<int64_t> key(d, d + c.S + 2 * c.M);
        key.push_back(c.C);
        int64_t Nt = 0;
        for (int64_t s = 0; s < c.S; s++)
            Nt += d[s];
        ASSERT_EQ(c.N, Nt);
        ASSERT_TRUE(c.C >= 1 && c.C < c.N);
        // D counts distinct (stream, phase) pairs.
        std::set<std::pair<int64_t, int64_t>> groups;
        for (int64_t g = 0; g < c.M; g++) {
            ASSERT_TRUE(d[c.S + g] >= 0 && d[c.S + g] < c.S);
            ASSERT_TRUE(d[c.S + c.M + g] >= 0 && d[c.S + c.M + g] < d[d[c.S + g]]);
            groups.insert({d[c.S + g], d[c.S + c.M + g]});
        }
        ASSERT_EQ(c.D, (int64_t)groups.size());
        band += c.D <= c.C;
        if (i < r->nm_exhaustive) {
            ASSERT_EQ(c.family, PASCAL_VFAMILY_MULTI_EXHAUSTIVE);
            seen.insert(key);
        } else {
            ASSERT_EQ(c.family, PASCAL_VFAMILY_MULTI_SEEDED);
            ASSERT_TRUE(c.S >= 2 && c.S <= 6);
        }
    }
    EXPECT_EQ((int64_t)seen.size(), 7752);   // no instance twice
    EXPECT_EQ(r->checked[PASCAL_VCHECK_MS_BAND], band);
    EXPECT_EQ(r->checked[PASCAL_VCHECK_MS_LRU], r->nmcases);
    EXPECT_EQ(r->checked[PASCAL_VCHECK_MS_ONE], r->ncases);
    for (int k = 0; k < PASCAL_VCHECK_COUNT; k++)
        EXPECT_EQ(r->failed[k], 0) << pascal_vcheck_names[k];
    EXPECT_EQ(r->ok, 1);
    EXPECT_EQ(r->msmallest, -1);
}

// The smallest instance with N_total >= 4 and D >= 2 (where the fault
// bites), by hand: N_total = 4 needs two streams with one request each;
// C = 1; the smallest description is N = [1, 3], order (0, 1), phases
// (0, 0).  The band needs D <= C, so C = 2.
TEST(ValidateMulti, FaultIsCaughtAndSmallestCaseDescribed)
{
    for (int k = PASCAL_VCHECK_MS_RD; k <= PASCAL_VCHECK_MS_BELADY; k++) {
        pascal_validate_opts o = quick_opts();
        o.fault = 1 + k;
        pascal_error err = {};
        Result res;
        ASSERT_EQ(pascal_validate_run(&o, &res.r, &err), 0) << err.msg;
        const pascal_validate_result *r = res.r;
        EXPECT_EQ(r->ok, 0);
        for (int j = 0; j < PASCAL_VCHECK_COUNT; j++)
            EXPECT_EQ(r->failed[j] > 0, j == k) << pascal_vcheck_names[k] << " " << j;
        ASSERT_GE(r->msmallest, 0);
        EXPECT_EQ(r->smallest, -1);
        char text[256];
        pascal_validate_multi_describe(r, r->msmallest, text, sizeof text);
        EXPECT_STREQ(text, k == PASCAL_VCHECK_MS_BAND
                               ? "S = 2, N = [1, 3], order 0,1, phases 0,0, C = 2"
                               : "S = 2, N = [1, 3], order 0,1, phases 0,0, C = 1")
            << pascal_vcheck_names[k];
    }
    // The S = 1 reduction is checked on the single-stream cases.
    pascal_validate_opts o = quick_opts();
    o.fault = 1 + PASCAL_VCHECK_MS_ONE;
    pascal_error err = {};
    Result res;
    ASSERT_EQ(pascal_validate_run(&o, &res.r, &err), 0) << err.msg;
    EXPECT_GT(res.r->failed[PASCAL_VCHECK_MS_ONE], 0);
    EXPECT_EQ(res.r->failed[PASCAL_VCHECK_MS_LRU], 0);
    ASSERT_GE(res.r->smallest, 0);
    char cmd[256];
    pascal_validate_point_command(res.r, res.r->smallest, cmd, sizeof cmd);
    EXPECT_STREQ(cmd, "pascal point --N 4 --C 1 --phases 0,1 --assoc 1 --horizon 24");
}

TEST(ValidateMulti, ThreadCountDoesNotChangeResults)
{
    pascal_validate_opts o = quick_opts();
    pascal_error err = {};
    Result a, b;
    o.threads = 1;
    ASSERT_EQ(pascal_validate_run(&o, &a.r, &err), 0);
    o.threads = 3;
    ASSERT_EQ(pascal_validate_run(&o, &b.r, &err), 0);
    ASSERT_EQ(a.r->nmcases, b.r->nmcases);
    for (int64_t i = 0; i < a.r->nmcases; i++)
        ASSERT_EQ(std::memcmp(&a.r->mcases[i], &b.r->mcases[i], sizeof(pascal_vcase)), 0) << i;
    EXPECT_EQ(std::memcmp(a.r->checked, b.r->checked, sizeof a.r->checked), 0);
}

TEST(ValidateMulti, RejectsBadOptions)
{
    pascal_validate_opts o = quick_opts();
    pascal_error err = {};
    pascal_validate_result *r = nullptr;
    o.multi_max_S = 1;
    EXPECT_EQ(pascal_validate_run(&o, &r, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg).rfind("multi-stream cases: expected", 0), 0u) << err.msg;
    o = quick_opts();
    o.multi_seeded_cases = -2;
    EXPECT_EQ(pascal_validate_run(&o, &r, &err), PASCAL_EINPUT);
    EXPECT_EQ(r, nullptr);
    EXPECT_EQ(pascal_vcheck_from_name("ms_one"), PASCAL_VCHECK_MS_ONE);
}

} // namespace
