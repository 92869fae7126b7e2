// Tests for validate/validate.h: the case list (counted and enumerated here
// independently), one case's values against a hand computation, the
// verdicts on corrupted values, fault injection and the smallest failing
// case, thread-count independence, the HDF5 file and bad options.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "validate/validate.h"
#include "output/sink.h"

namespace {

struct Result {
    pascal_validate_result *r = nullptr;
    ~Result() { pascal_validate_free(r); }
};

pascal_validate_opts small_opts()
{
    pascal_validate_opts o;
    pascal_validate_defaults(&o);
    o.seeded_cases = 60;
    o.max_N = 96;
    o.max_M = 12;
    o.histories = 40;
    o.sharp_max_s = 8;
    o.thm6_steps = 20000;
    return o;
}

int64_t distinct(const int64_t *ph, int64_t M)
{
    return (int64_t)std::set<int64_t>(ph, ph + M).size();
}

}  // namespace

// The paper's count: N = 2..6, M = 1..3, all N^M vectors, 1 <= C < N.
TEST(ValidateCampaign, ExhaustiveEnumerationIsComplete)
{
    int64_t want = 0, band = 0;
    for (int N = 2; N <= 6; N++)
        for (int M = 1; M <= 3; M++)
            want += (int64_t)std::pow(N, M) * (N - 1);
    ASSERT_EQ(want, 2254);
    pascal_validate_opts o = small_opts();
    pascal_error err = {};
    Result res;
    ASSERT_EQ(pascal_validate_run(&o, &res.r, &err), 0) << err.msg;
    const pascal_validate_result *r = res.r;
    EXPECT_EQ(r->n_exhaustive, 2254);
    EXPECT_EQ(r->n_seeded, 60);
    EXPECT_EQ(r->ncases, 2314);
    std::set<std::tuple<int64_t, int64_t, int64_t, std::vector<int64_t>>> seen;
    for (int64_t i = 0; i < r->ncases; i++) {
        const pascal_vcase &c = r->cases[i];
        const int64_t *ph = r->phases + c.phase_off;
        ASSERT_GE(c.C, 1);
        ASSERT_LT(c.C, c.N);
        for (int64_t m = 0; m < c.M; m++)
            ASSERT_TRUE(ph[m] >= 0 && ph[m] < c.N);
        ASSERT_EQ(c.D, distinct(ph, c.M));
        band += c.D <= c.C;
        if (i < r->n_exhaustive) {
            ASSERT_EQ(c.family, PASCAL_VFAMILY_EXHAUSTIVE);
            ASSERT_TRUE(c.N <= 6 && c.M <= 3);
            seen.insert({c.N, c.M, c.C, std::vector<int64_t>(ph, ph + c.M)});
        } else {
            ASSERT_EQ(c.family, PASCAL_VFAMILY_SEEDED);
            ASSERT_TRUE(c.N <= 96 && c.M <= 12);
        }
    }
    EXPECT_EQ((int64_t)seen.size(), 2254);   // no case twice
    EXPECT_EQ(r->cases[r->n_exhaustive].N, 96);   // the first seeded case is the largest
    EXPECT_EQ(r->cases[r->n_exhaustive].M, 12);
    EXPECT_EQ(r->checked[PASCAL_VCHECK_BAND], band);
    EXPECT_EQ(r->checked[PASCAL_VCHECK_LRU], r->ncases);
    EXPECT_EQ(r->checked[PASCAL_VCHECK_THM5], 40);
    EXPECT_EQ(r->checked[PASCAL_VCHECK_THM5_SHARP], 7);   // s = 2..8
    EXPECT_EQ(r->checked[PASCAL_VCHECK_THM6], 450);
    for (int k = 0; k < PASCAL_VCHECK_COUNT; k++)
        EXPECT_EQ(r->failed[k], 0) << pascal_vcheck_names[k];
    EXPECT_EQ(r->ok, 1);
    EXPECT_EQ(r->smallest, -1);
    EXPECT_GE(r->belady_min_slack, 0.0);
    EXPECT_GT(r->thm5_events, 0);
}

// N = 4, phases (0, 1), C = 1, by hand: the stream is 0 1 1 2 2 3 3 0 ...
// Worker 0 re-reads the block worker 1 just read (RD 0, hit); worker 1's
// block was last read by worker 0 three rounds earlier with 2, 3, 0 (or
// their shifts) in between (RD 3, miss): K_lru = 1.  Gaps 1 and 3 give
// T* = 0, K_ttl = 2, U(0) = 0.  Belady with one block over 24 rounds misses
// the first request and then every odd one: 25 misses.  Residency deltas
// 1/2 and 7/2: V(1) = 1 + 1/7, bound 2 - 8/7 - 4/24.
TEST(ValidateCampaign, HandComputedCase)
{
    pascal_vws *w = pascal_vws_create(8, 4);
    ASSERT_NE(w, nullptr);
    const int64_t ph[] = {0, 1};
    pascal_vcase c = {};
    c.N = 4;
    c.M = 2;
    c.C = 1;
    ASSERT_EQ(pascal_validate_case(w, ph, 0, &c), 0);
    const double *v = c.v;
    EXPECT_EQ(c.D, 2);
    EXPECT_EQ(v[PASCAL_VCOL_RD_MISMATCH], 0);
    EXPECT_EQ(v[PASCAL_VCOL_K_LRU], 1);
    EXPECT_EQ(v[PASCAL_VCOL_K_LRU_REPLAY], 1);
    EXPECT_EQ(v[PASCAL_VCOL_K_SDCM_FA], 1);
    EXPECT_EQ(v[PASCAL_VCOL_K_SET_REPLAY], 1);
    EXPECT_TRUE(std::isnan(v[PASCAL_VCOL_K_LRU_LO]));   // D > C
    EXPECT_EQ(v[PASCAL_VCOL_T_STAR], 0);
    EXPECT_EQ(v[PASCAL_VCOL_K_TTL], 2);
    EXPECT_EQ(v[PASCAL_VCOL_K_TTL_REPLAY], 2);
    EXPECT_EQ(v[PASCAL_VCOL_OCCUPANCY], 0);
    EXPECT_EQ(v[PASCAL_VCOL_U_TSTAR], 0);
    EXPECT_EQ(v[PASCAL_VCOL_HORIZON], 24);
    EXPECT_DOUBLE_EQ(v[PASCAL_VCOL_K_BELADY], 25.0 / 24.0);
    EXPECT_NEAR(v[PASCAL_VCOL_K_BOUND], 2.0 - 8.0 / 7.0 - 4.0 / 24.0, 1e-12);
    EXPECT_EQ(c.failed, 0u);

    // Outside the campaign's domain: C >= N, M above the workspace.
    c.C = 4;
    EXPECT_EQ(pascal_validate_case(w, ph, 0, &c), -1);
    c.C = 1;
    c.M = 5;
    EXPECT_EQ(pascal_validate_case(w, ph, 0, &c), -1);
    pascal_vws_free(w);
}

// Each verdict fires on the value it guards, and only there.
TEST(ValidateCampaign, JudgeFlagsEachDisagreement)
{
    pascal_vcase good = {};
    good.N = 8, good.M = 3, good.C = 4, good.D = 3;
    double *v = good.v;
    v[PASCAL_VCOL_RD_MISMATCH] = 0;
    v[PASCAL_VCOL_K_LRU] = v[PASCAL_VCOL_K_LRU_REPLAY] = v[PASCAL_VCOL_K_SDCM_FA] = 2;
    v[PASCAL_VCOL_K_SET_REPLAY] = 2;
    v[PASCAL_VCOL_K_LRU_LO] = 1, v[PASCAL_VCOL_K_LRU_HI] = 3;
    v[PASCAL_VCOL_K_TTL] = v[PASCAL_VCOL_K_TTL_REPLAY] = 2;
    v[PASCAL_VCOL_OCCUPANCY] = v[PASCAL_VCOL_U_TSTAR] = 4;
    v[PASCAL_VCOL_K_BELADY] = 1.25, v[PASCAL_VCOL_K_BOUND] = 1.25;
    pascal_validate_judge(&good);
    ASSERT_EQ(good.failed, 0u);
    struct Bad { int col; double value; int check; };
    const Bad bads[] = {
        {PASCAL_VCOL_RD_MISMATCH, 1, PASCAL_VCHECK_RD},
        {PASCAL_VCOL_K_LRU, 3, PASCAL_VCHECK_LRU},
        {PASCAL_VCOL_K_SDCM_FA, 2.001, PASCAL_VCHECK_SDCM},
        {PASCAL_VCOL_K_SET_REPLAY, NAN, PASCAL_VCHECK_SET},
        {PASCAL_VCOL_K_LRU_HI, 1.5, PASCAL_VCHECK_BAND},
        {PASCAL_VCOL_K_LRU_LO, 2.5, PASCAL_VCHECK_BAND},
        {PASCAL_VCOL_K_TTL_REPLAY, 1, PASCAL_VCHECK_TTL},
        {PASCAL_VCOL_U_TSTAR, 3, PASCAL_VCHECK_TTL},
        {PASCAL_VCOL_K_BELADY, 1.249, PASCAL_VCHECK_BELADY},
    };
    for (const Bad &b : bads) {
        pascal_vcase c = good;
        c.v[b.col] = b.value;
        pascal_validate_judge(&c);
        EXPECT_EQ(c.failed, 1u << b.check) << pascal_vcol_names[b.col];
    }
    // Occupancy above C breaks Theorem 2's feasibility even if U(T*) agrees.
    pascal_vcase c = good;
    c.v[PASCAL_VCOL_OCCUPANCY] = c.v[PASCAL_VCOL_U_TSTAR] = 5;
    pascal_validate_judge(&c);
    EXPECT_EQ(c.failed, 1u << PASCAL_VCHECK_TTL);
    // Where D > C Theorem 3 claims nothing: a NaN band is no failure.
    c = good;
    c.D = 5;
    c.v[PASCAL_VCOL_K_LRU_LO] = c.v[PASCAL_VCOL_K_LRU_HI] = NAN;
    pascal_validate_judge(&c);
    EXPECT_EQ(c.failed, 0u);
}

// A corrupted model side is caught in every affected case, nothing else
// fails, and the smallest failing case is the smallest with N >= 4, D >= 2
// (and D <= C for the band): N = 4, M = 2, phases (0, 1), C = 1 (C = 2).
TEST(ValidateCampaign, FaultIsCaughtAndSmallestCaseReported)
{
    for (int k = 0; k <= PASCAL_VCHECK_BELADY; k++) {
        pascal_validate_opts o = small_opts();
        o.seeded_cases = 20;
        o.fault = 1 + k;
        pascal_error err = {};
        Result res;
        ASSERT_EQ(pascal_validate_run(&o, &res.r, &err), 0) << err.msg;
        const pascal_validate_result *r = res.r;
        EXPECT_EQ(r->ok, 0);
        for (int j = 0; j < PASCAL_VCHECK_COUNT; j++)
            EXPECT_EQ(r->failed[j] > 0, j == k) << pascal_vcheck_names[k] << " " << j;
        ASSERT_GE(r->smallest, 0);
        char cmd[256];
        pascal_validate_point_command(r, r->smallest, cmd, sizeof cmd);
        EXPECT_STREQ(cmd, k == PASCAL_VCHECK_BAND
                              ? "pascal point --N 4 --C 2 --phases 0,1 --assoc 2 --horizon 24"
                              : "pascal point --N 4 --C 1 --phases 0,1 --assoc 1 --horizon 24")
            << pascal_vcheck_names[k];
    }
}

TEST(ValidateCampaign, ProgressFaultIsReported)
{
    pascal_validate_opts o = small_opts();
    o.seeded_cases = 0;
    o.fault = 1 + PASCAL_VCHECK_THM6;
    pascal_error err = {};
    Result res;
    ASSERT_EQ(pascal_validate_run(&o, &res.r, &err), 0) << err.msg;
    EXPECT_EQ(res.r->ok, 0);
    EXPECT_EQ(res.r->failed[PASCAL_VCHECK_THM6], 450);
    EXPECT_EQ(res.r->smallest, -1);
    EXPECT_EQ(std::string(res.r->progress_failure).rfind("Theorem 6 at alpha = 0,", 0), 0u)
        << res.r->progress_failure;
}

// Same seed, 1 and 3 threads: identical cases, verdicts and tallies.
TEST(ValidateCampaign, ThreadCountDoesNotChangeResults)
{
    pascal_validate_opts o = small_opts();
    pascal_error err = {};
    Result a, b;
    o.threads = 1;
    ASSERT_EQ(pascal_validate_run(&o, &a.r, &err), 0);
    o.threads = 3;
    ASSERT_EQ(pascal_validate_run(&o, &b.r, &err), 0);
    ASSERT_EQ(a.r->ncases, b.r->ncases);
    for (int64_t i = 0; i < a.r->ncases; i++)
        ASSERT_EQ(std::memcmp(&a.r->cases[i], &b.r->cases[i], sizeof(pascal_vcase)), 0) << i;
    EXPECT_EQ(std::memcmp(a.r->checked, b.r->checked, sizeof a.r->checked), 0);
    EXPECT_EQ(a.r->thm5_events, b.r->thm5_events);
    EXPECT_EQ(a.r->thm6_max_error, b.r->thm6_max_error);
    // Another seed draws other seeded cases.
    o.seed = 2;
    Result c;
    ASSERT_EQ(pascal_validate_run(&o, &c.r, &err), 0);
    int differ = 0;
    for (int64_t i = a.r->n_exhaustive + 1; i < a.r->ncases; i++)
        differ += a.r->cases[i].N != c.r->cases[i].N;
    EXPECT_GT(differ, 30);
}

TEST(ValidateCampaign, WritesOneRowPerCase)
{
    char dir[] = "/tmp/pascal-validate-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    std::string path = std::string(dir) + "/v.h5";
    pascal_validate_opts o = small_opts();
    o.seeded_cases = 10;
    o.out_path = path.c_str();
    o.command_line = "pascal validate -o v.h5";
    pascal_error err = {};
    Result res;
    ASSERT_EQ(pascal_validate_run(&o, &res.r, &err), 0) << err.msg;
    double *n = nullptr, *pass = nullptr, *kb = nullptr;
    int64_t rows = 0;
    ASSERT_EQ(pascal_h5_read_column(path.c_str(), "points", "N", &n, &rows, &err), 0) << err.msg;
    EXPECT_EQ(rows, 2264);
    EXPECT_EQ(n[0], 2);
    EXPECT_EQ(n[2263], res.r->cases[2263].N);
    ASSERT_EQ(pascal_h5_read_column(path.c_str(), "results", "pass", &pass, &rows, &err), 0);
    ASSERT_EQ(pascal_h5_read_column(path.c_str(), "results", "K_belady", &kb, &rows, &err), 0);
    for (int64_t i = 0; i < rows; i++) {
        ASSERT_EQ(pass[i], 1.0);
        ASSERT_EQ(kb[i], res.r->cases[i].v[PASCAL_VCOL_K_BELADY]);
    }
    char attr[64];
    ASSERT_EQ(pascal_h5_read_attr(path.c_str(), "exhaustive_cases", attr, sizeof attr, &err), 0);
    EXPECT_STREQ(attr, "2254");
    ASSERT_EQ(pascal_h5_read_attr(path.c_str(), "passed", attr, sizeof attr, &err), 0);
    EXPECT_STREQ(attr, "1");
    std::free(n);
    std::free(pass);
    std::free(kb);
    std::system((std::string("rm -rf ") + dir).c_str());
}

TEST(ValidateCampaign, RejectsBadOptions)
{
    pascal_validate_opts o = small_opts();
    pascal_error err = {};
    pascal_validate_result *r = nullptr;
    o.seeded_cases = -1;
    EXPECT_EQ(pascal_validate_run(&o, &r, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg).rfind("seeded cases: expected", 0), 0u) << err.msg;
    o = small_opts();
    o.max_N = 1;
    EXPECT_EQ(pascal_validate_run(&o, &r, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg).rfind("seeded sizes: expected", 0), 0u) << err.msg;
    o = small_opts();
    o.fault = 1 + PASCAL_VCHECK_THM5;
    EXPECT_EQ(pascal_validate_run(&o, &r, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg).rfind("fault: expected", 0), 0u) << err.msg;
    o = small_opts();
    o.out_path = "/nonexistent-dir-for-pascal/v.h5";
    EXPECT_EQ(pascal_validate_run(&o, &r, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg),
              "/nonexistent-dir-for-pascal/v.h5: cannot write: No such file or directory");
    EXPECT_EQ(r, nullptr);
    EXPECT_EQ(pascal_vcheck_from_name("belady"), PASCAL_VCHECK_BELADY);
    EXPECT_EQ(pascal_vcheck_from_name("nope"), -1);
    EXPECT_EQ(pascal_vws_create(0, 3), nullptr);
}
