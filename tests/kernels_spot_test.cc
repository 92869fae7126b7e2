// Spot-check host arithmetic (spot/spot.h): bytes to K for the static and
// open scans, errors, the effective capacity of a capacity scan, the seeded
// sample against a brute-force definition, explicit selections, plans built
// from a spec (phases and predictions by hand), the tables read back, and
// the provenance sidecar appearing whole or not at all.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <sys/stat.h>

#include "programs/cli.h"
#include "spot/spot.h"
#include "model/phases.h"
#include "output/fs/tmpfile.h"
#include "output/sink.h"
#include "test_util.h"

namespace {

const double kTol = 1e-12;

using pascal_test::exists;
using pascal_test::list_dir;
using pascal_test::slurp;

class KernelsSpot : public pascal_test::TempDirTest {
protected:
    std::vector<double> column(const std::string &path, const char *group, const char *name)
    {
        double *v = nullptr;
        int64_t n = 0;
        pascal_error err = {};
        EXPECT_EQ(pascal_h5_read_column(path.c_str(), group, name, &v, &n, &err), 0) << err.msg;
        std::vector<double> out(v, v + n);
        free(v);
        return out;
    }
    std::string attr(const std::string &path, const char *key)
    {
        char *v = nullptr;
        pascal_error err = {};
        EXPECT_EQ(pascal_h5_read_attr_alloc(path.c_str(), key, &v, &err), 0) << err.msg;
        std::string s = v ? v : "";
        free(v);
        return s;
    }
};

TEST_F(KernelsSpot, StaticKIsFillEquivalentBlocksPerRound)
{
    // 4000 rounds, 16 KiB blocks: 3 fills a round read 3 * 16384 * 4000 bytes.
    EXPECT_DOUBLE_EQ(pascal_spot_k_static(3.0 * 16384 * 4000, 16384, 4000), 3.0);
    EXPECT_NEAR(pascal_spot_k_static(196608000.0 + 8192 * 4000, 16384, 4000), 3.5, kTol);
    EXPECT_DOUBLE_EQ(pascal_spot_k_static(4096 * 7, 4096, 1), 7.0);
    EXPECT_TRUE(std::isnan(pascal_spot_k_static(1e6, 16384, 0)));
    EXPECT_TRUE(std::isnan(pascal_spot_k_static(1e6, 0, 4000)));
}

TEST_F(KernelsSpot, DynamicKIsFillsOverHorizon)
{
    // Eq. 14: A = V / b, H = W N, K_H = A / H.  W = 8 scans of N = 4096
    // blocks that fetched 1.25 fill-equivalents per block of work.
    double V = 1.25 * 16384 * 8 * 4096;
    EXPECT_NEAR(pascal_spot_k_dynamic(V, 16384, 4096, 8), 1.25, kTol);
    EXPECT_NEAR(pascal_spot_k_dynamic(16384.0 * 3 * 32768, 16384, 4096, 8), 3.0, kTol);
    EXPECT_TRUE(std::isnan(pascal_spot_k_dynamic(V, 16384, 0, 8)));
    EXPECT_TRUE(std::isnan(pascal_spot_k_dynamic(V, 16384, 4096, 0)));
}

TEST_F(KernelsSpot, FillRatioAndErrors)
{
    EXPECT_DOUBLE_EQ(pascal_spot_fill_ratio(3.0 * (20 << 20), 20 << 20), 3.0);
    EXPECT_TRUE(std::isnan(pascal_spot_fill_ratio(1, 0)));
    EXPECT_NEAR(pascal_spot_abs_err(2.385, 2.0), 0.385, kTol);
    EXPECT_NEAR(pascal_spot_abs_err(1.5, 2.0), 0.5, kTol);
    EXPECT_NEAR(pascal_spot_rel_err(2.385, 2.0), 0.385 / 2.385, kTol);
    EXPECT_NEAR(pascal_spot_rel_err(1.6, 2.0), 0.25, kTol);
    EXPECT_TRUE(std::isnan(pascal_spot_rel_err(0.0, 2.0)));
    EXPECT_TRUE(std::isnan(pascal_spot_rel_err(NAN, 2.0)));
}

TEST_F(KernelsSpot, MeanAndSampleSdSkipNaN)
{
    double x[] = {1.0, 2.0, NAN, 4.5}, mean, sd;
    EXPECT_EQ(pascal_spot_mean_sd(x, 4, &mean, &sd), 3);
    EXPECT_NEAR(mean, 7.5 / 3, kTol);
    double m = 7.5 / 3, ss = (1 - m) * (1 - m) + (2 - m) * (2 - m) + (4.5 - m) * (4.5 - m);
    EXPECT_NEAR(sd, std::sqrt(ss / 2), kTol);
    double one[] = {2.385};
    EXPECT_EQ(pascal_spot_mean_sd(one, 1, &mean, &sd), 1);
    EXPECT_DOUBLE_EQ(mean, 2.385);
    EXPECT_TRUE(std::isnan(sd));
    double none[] = {NAN};
    EXPECT_EQ(pascal_spot_mean_sd(none, 1, &mean, &sd), 0);
    EXPECT_TRUE(std::isnan(mean));
}

TEST_F(KernelsSpot, EffectiveCapacityIsLastFootprintBeforeTheRise)
{
    const double MiB = 1 << 20;
    double fp[] = {4 * MiB, 8 * MiB, 12 * MiB, 16 * MiB, 20 * MiB, 24 * MiB};
    double rising[] = {1.0, 1.02, 1.1, 1.3, 1.8, 3.0};
    double flat[] = {1.0, 1.0, 1.01, 1.02, 1.0, 1.03};
    double early[] = {1.6, 1.0, 1.0, 1.0, 1.0, 1.0};
    double dip[] = {1.0, 1.7, 1.2, 1.0, 1.0, 1.0};
    double eff;
    int crossed;
    pascal_error err = {};
    ASSERT_EQ(pascal_spot_effective_capacity(fp, rising, 6, 1.5, &eff, &crossed, &err), 0);
    EXPECT_EQ(eff, 16 * MiB);
    EXPECT_EQ(crossed, 1);
    ASSERT_EQ(pascal_spot_effective_capacity(fp, rising, 6, 1.05, &eff, &crossed, &err), 0);
    EXPECT_EQ(eff, 8 * MiB);
    ASSERT_EQ(pascal_spot_effective_capacity(fp, flat, 6, 1.5, &eff, &crossed, &err), 0);
    EXPECT_EQ(eff, 24 * MiB);
    EXPECT_EQ(crossed, 0);
    ASSERT_EQ(pascal_spot_effective_capacity(fp, early, 6, 1.5, &eff, &crossed, &err), 0);
    EXPECT_TRUE(std::isnan(eff));
    EXPECT_EQ(crossed, 1);
    // The first rise decides, even if later footprints dip back.
    ASSERT_EQ(pascal_spot_effective_capacity(fp, dip, 6, 1.5, &eff, &crossed, &err), 0);
    EXPECT_EQ(eff, 4 * MiB);
    double bad[] = {4 * MiB, 4 * MiB};
    EXPECT_EQ(pascal_spot_effective_capacity(bad, rising, 2, 1.5, &eff, &crossed, &err),
              PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg).rfind("capacity scan: footprints must ascend", 0), 0u)
        << err.msg;
    EXPECT_EQ(pascal_spot_effective_capacity(fp, rising, 0, 1.5, &eff, &crossed, &err),
              PASCAL_EINPUT);
}

// The definition, by brute force: sort every ordinal by its key, take k.
std::vector<int64_t> brute_sample(int64_t n, int64_t k, uint64_t seed)
{
    std::vector<std::pair<uint64_t, int64_t>> all;
    for (int64_t i = 0; i < n; i++)
        all.push_back({pascal_rng_u64(seed, PASCAL_SPOT_SAMPLE_KEY, (uint64_t)i), i});
    std::sort(all.begin(), all.end());
    std::vector<int64_t> out;
    for (int64_t i = 0; i < k; i++)
        out.push_back(all[i].second);
    std::sort(out.begin(), out.end());
    return out;
}

TEST_F(KernelsSpot, SampleMatchesBruteForceDefinition)
{
    const int64_t cases[][3] = {{33, 20, 1}, {33, 33, 7}, {1000, 10, 2}, {5, 1, 99},
                                {4097, 257, 12345}, {48, 48, 0}};
    pascal_error err = {};
    for (const auto &c : cases) {
        std::vector<int64_t> got(c[1]);
        ASSERT_EQ(pascal_spot_sample(c[0], c[1], (uint64_t)c[2], got.data(), &err), 0) << err.msg;
        EXPECT_EQ(got, brute_sample(c[0], c[1], (uint64_t)c[2])) << c[0] << " " << c[1];
        for (size_t i = 1; i < got.size(); i++)
            EXPECT_LT(got[i - 1], got[i]);
    }
}

TEST_F(KernelsSpot, SampleIsUniformOverSeeds)
{
    // Each of n = 10 points is in a 3-sample with probability 0.3: over 3000
    // seeds the count is 900 +- 25 (one sd); allow 5 sd.
    std::vector<int> hits(10, 0);
    pascal_error err = {};
    for (uint64_t seed = 0; seed < 3000; seed++) {
        int64_t out[3];
        ASSERT_EQ(pascal_spot_sample(10, 3, seed, out, &err), 0);
        for (int64_t o : out)
            hits[(size_t)o]++;
    }
    for (int h : hits) {
        EXPECT_GT(h, 900 - 125);
        EXPECT_LT(h, 900 + 125);
    }
}

TEST_F(KernelsSpot, SampleRejectsImpossibleCounts)
{
    int64_t out[4];
    pascal_error err = {};
    EXPECT_EQ(pascal_spot_sample(3, 4, 1, out, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg).rfind("--sample: expected a count from 1 to 3", 0), 0u)
        << err.msg;
    EXPECT_EQ(pascal_spot_sample(3, 0, 1, out, &err), PASCAL_EINPUT);
}

std::vector<int64_t> select(const char *text, int64_t n, int *rc, std::string *msg)
{
    int64_t *v = nullptr, count = 0;
    pascal_error err = {};
    *rc = pascal_spot_parse_select(text, n, &v, &count, &err);
    *msg = err.msg;
    std::vector<int64_t> out(v, v + count);
    free(v);
    return out;
}

TEST_F(KernelsSpot, SelectParsesListsAndRanges)
{
    int rc;
    std::string msg;
    EXPECT_EQ(select("0,3,5-9", 33, &rc, &msg), (std::vector<int64_t>{0, 3, 5, 6, 7, 8, 9}));
    EXPECT_EQ(rc, 0);
    EXPECT_EQ(select("32,1", 33, &rc, &msg), (std::vector<int64_t>{1, 32}));
    EXPECT_EQ(select("4-4", 5, &rc, &msg), (std::vector<int64_t>{4}));
}

TEST_F(KernelsSpot, SelectRejectsBadLists)
{
    const struct {
        const char *text, *prefix;
    } bad[] = {
        {"33", "--select: expected point numbers below 33"},
        {"0-40", "--select: expected point numbers below 33"},
        {"3,1-4", "--select: expected each point once, got 3 twice"},
        {"a", "--select: expected a point number or a range like 5-9, got \"a\""},
        {"5-", "--select: expected a point number or a range like 5-9, got \"5-\""},
        {"9-3", "--select: expected a point number or a range like 5-9, got \"9-3\""},
        {"1,,2", "--select: expected a point number or a range like 5-9, got \"\""},
        {"-1", "--select: expected a point number or a range like 5-9"},
        {"", "--select: expected point numbers like 0,3,5-9, got nothing"},
    };
    for (const auto &b : bad) {
        int rc;
        std::string msg;
        EXPECT_TRUE(select(b.text, 33, &rc, &msg).empty());
        EXPECT_EQ(rc, PASCAL_EINPUT) << b.text;
        EXPECT_EQ(msg.rfind(b.prefix, 0), 0u) << b.text << ": " << msg;
    }
}

TEST_F(KernelsSpot, IntListsAndOutputCheck)
{
    int64_t *v = nullptr;
    int n = 0;
    pascal_error err = {};
    ASSERT_EQ(cli_int_list("occupancy", "1,2,4", 1, &v, &n, &err), 0);
    ASSERT_EQ(n, 3);
    EXPECT_EQ(v[0], 1);
    EXPECT_EQ(v[2], 4);
    free(v);
    EXPECT_EQ(cli_int_list("occupancy", "1,0", 1, &v, &n, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg).rfind("--occupancy: expected integers >= 1", 0), 0u);
    EXPECT_EQ(cli_int_list("W", "2,x", 1, &v, &n, &err), PASCAL_EINPUT);
    EXPECT_EQ(cli_int_list("W", "2,2", 1, &v, &n, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg).rfind("--W: expected each value once", 0), 0u);

    EXPECT_EQ(cli_check_output((dir + "/ok.h5").c_str(), &err), 0);
    EXPECT_FALSE(exists(dir + "/ok.h5"));
    EXPECT_EQ(cli_check_output("/nonexistent-dir/x.h5", &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg).rfind("/nonexistent-dir/x.h5: cannot create the output", 0),
              0u);
    char *argv[] = {(char *)"a.yaml", (char *)"--sample", (char *)"3"};
    char *line = cli_command_line("spotcheck", 3, argv);
    EXPECT_STREQ(line, "pascal spotcheck a.yaml --sample 3");
    free(line);
}

const char *kSpec =
    "name: spot\n"
    "models: [ttl]\n"
    "fixed:\n"
    "  N: 64\n"
    "  M: 8\n"
    "  C: 20\n"
    "  block_bytes: 4KiB\n"
    "  pattern: clusters\n"
    "axes:\n"
    "  clusters: [1, 2, 4, 8]\n"
    "where: 'clusters != 2'\n";

pascal_spot_plan *plan_of(const std::string &path, std::vector<int64_t> ord, int64_t rounds,
                          pascal_spec **spec, pascal_error *err)
{
    pascal_spot_plan *plan = nullptr;
    if (pascal_spec_load(path.c_str(), spec, err) != 0)
        return nullptr;
    if (pascal_spot_plan_build(*spec, ord.data(), (int64_t)ord.size(), rounds, &plan, err) != 0)
        return nullptr;
    return plan;
}

TEST_F(KernelsSpot, PlanFollowsRunOrdinalsWithPhasesAndPredictions)
{
    pascal_spec *spec = nullptr;
    pascal_error err = {};
    int64_t kept = 0;
    pascal_spot_plan *plan = plan_of(write("s.yaml", kSpec), {1, 2}, 4000, &spec, &err);
    ASSERT_NE(plan, nullptr) << err.msg;
    ASSERT_EQ(pascal_spot_count_kept(spec, &kept, &err), 0);
    EXPECT_EQ(kept, 3);  // clusters 1, 4, 8
    EXPECT_EQ(plan->kept, 3);
    ASSERT_EQ(plan->npoints, 2);
    const int64_t k_of[] = {4, 8}, raw_of[] = {2, 3};
    for (int i = 0; i < 2; i++) {
        const pascal_spot_point *p = &plan->points[i];
        int64_t k = k_of[i];
        EXPECT_EQ(p->ordinal, i + 1);
        EXPECT_EQ(p->raw_index, (uint64_t)raw_of[i]);
        EXPECT_EQ(p->N, 64);
        EXPECT_EQ(p->M, 8);
        EXPECT_EQ(p->C, 20);
        EXPECT_EQ(p->block_bytes, 4096);
        // Worker m joins cluster m mod k, centred at floor(c N / k).
        for (int64_t m = 0; m < 8; m++)
            EXPECT_EQ(p->phases[m], (m % k) * 64 / k) << "m=" << m;
        // k equal gaps N/k; theta = C/k; every gap exceeds floor(C/k): K = k.
        EXPECT_EQ(p->pred[PASCAL_SPOT_PRED_K_TTL], (double)k);
        EXPECT_NEAR(p->pred[PASCAL_SPOT_PRED_K_CHE], 8 * (1 - 20.0 / 64), kTol);
        EXPECT_TRUE(std::isnan(p->pred[PASCAL_SPOT_PRED_K_SDCM]));  // no assoc
        EXPECT_LE(p->pred[PASCAL_SPOT_PRED_K_LRU_LO], p->pred[PASCAL_SPOT_PRED_K_LRU]);
        EXPECT_GE(p->pred[PASCAL_SPOT_PRED_K_LRU_HI], p->pred[PASCAL_SPOT_PRED_K_LRU]);
    }
    pascal_spot_plan_free(plan);
    pascal_spec_free(spec);
}

TEST_F(KernelsSpot, PlanRejectsPointsTheKernelCannotRun)
{
    pascal_spec *spec = nullptr;
    pascal_error err = {};
    std::string no_block = "name: x\nmodels: [ttl]\nfixed: {N: 64, M: 4, C: 8}\naxes:\n  clusters: [1, 2]\n";
    EXPECT_EQ(plan_of(write("a.yaml", no_block), {0}, 10, &spec, &err), nullptr);
    EXPECT_NE(std::string(err.msg).find("point 0: block_bytes: expected a block size"),
              std::string::npos) << err.msg;
    pascal_spec_free(spec);
    spec = nullptr;
    std::string odd = "name: x\nmodels: [ttl]\nfixed: {N: 64, M: 4, C: 8, block_bytes: 4100}\n"
                      "axes:\n  clusters: [1, 2]\n";
    EXPECT_EQ(plan_of(write("b.yaml", odd), {1}, 10, &spec, &err), nullptr);
    EXPECT_NE(std::string(err.msg).find("point 1: block_bytes: expected a multiple of 16 bytes"),
              std::string::npos) << err.msg;
    pascal_spec_free(spec);
    spec = nullptr;
    EXPECT_EQ(plan_of(write("c.yaml", kSpec), {0}, 0, &spec, &err), nullptr);
    EXPECT_EQ(std::string(err.msg).rfind("--rounds: expected an integer >= 1", 0), 0u);
    pascal_spec_free(spec);
}

pascal_spot_device fake_device()
{
    pascal_spot_device d = {};
    snprintf(d.name, sizeof d.name, "Test GPU");
    d.cc_major = 9, d.sms = 132, d.l2_bytes = 50 << 20, d.driver_version = 13000;
    d.runtime_version = 13000, d.sm_clock_khz = 1980000;
    snprintf(d.meter, sizeof d.meter, "cupti");
    snprintf(d.metric, sizeof d.metric, "dram__bytes_read.sum");
    return d;
}

TEST_F(KernelsSpot, SpotTableHoldsEveryRepetitionAndTheErrors)
{
    pascal_spec *spec = nullptr;
    pascal_error err = {};
    pascal_spot_plan *plan = plan_of(write("s.yaml", kSpec), {0, 2}, 100, &spec, &err);
    ASSERT_NE(plan, nullptr) << err.msg;
    // Point 0 (k = 1): fills of 1.1, 0.9, 1.3 blocks a round; point 2 (k = 8):
    // 7.5, 8.25, 8.0 -- bytes = K * 4096 * 100.
    const double k[6] = {1.1, 0.9, 1.3, 7.5, 8.25, 8.0};
    pascal_spot_measure meas[6];
    for (int i = 0; i < 6; i++)
        meas[i] = {k[i] * 4096 * 100, 2.5 + i, i == 4 ? PASCAL_SPOT_WARM : PASCAL_SPOT_COLD, 0};
    pascal_spot_device dev = fake_device();
    pascal_attr extra[] = {{"kind", "pascal-spotcheck"}};
    std::string out = dir + "/spot.h5";
    ASSERT_EQ(pascal_spot_write(out.c_str(), plan, 3, meas, &dev, "pascal spotcheck", extra, 1,
                                &err), 0) << err.msg;
    auto point = column(out, "points", "point"), rep = column(out, "points", "rep");
    auto start = column(out, "points", "start"), kmeas = column(out, "results", "K_meas");
    auto mean = column(out, "results", "K_meas_mean"), kpred = column(out, "results", "K_pred");
    auto abs_err = column(out, "results", "abs_err"), rel = column(out, "results", "rel_err");
    auto clusters = column(out, "points", "clusters"), bb = column(out, "points", "block_bytes");
    ASSERT_EQ(point.size(), 6u);
    const double mean0 = (1.1 + 0.9 + 1.3) / 3, mean1 = (7.5 + 8.25 + 8.0) / 3;
    for (int i = 0; i < 6; i++) {
        double m = i < 3 ? mean0 : mean1, pred = i < 3 ? 1 : 8;
        EXPECT_EQ(point[i], i < 3 ? 0 : 2);
        EXPECT_EQ(rep[i], i % 3);
        EXPECT_EQ(start[i], i == 4 ? 1 : 0);
        EXPECT_EQ(clusters[i], i < 3 ? 1 : 8);
        EXPECT_EQ(bb[i], 4096);
        EXPECT_NEAR(kmeas[i], k[i], 1e-12);
        EXPECT_NEAR(mean[i], m, 1e-12);
        EXPECT_EQ(kpred[i], pred);
        EXPECT_NEAR(abs_err[i], std::fabs(m - pred), 1e-12);
        EXPECT_NEAR(rel[i], std::fabs(m - pred) / m, 1e-12);
    }
    EXPECT_EQ(attr(out, "device_name"), "Test GPU");
    EXPECT_EQ(attr(out, "kind"), "pascal-spotcheck");
    EXPECT_EQ(attr(out, "fill_metric"), "dram__bytes_read.sum");
    EXPECT_NE(attr(out, "cache_operator").find("L2 is not bypassed"), std::string::npos);
    EXPECT_NE(attr(out, "driver_version").find("13.0"), std::string::npos);
    EXPECT_EQ(attr(out, "sm_clock_peak_mhz"), "1980");
    pascal_spot_plan_free(plan);
    pascal_spec_free(spec);
}

TEST_F(KernelsSpot, CapacityTableAndRefsCsv)
{
    const double MiB = 1 << 20;
    double fp[] = {8 * MiB, 16 * MiB};
    pascal_spot_measure meas[4] = {{8 * MiB * 1.0, 1, PASCAL_SPOT_COLD, 0},
                                   {8 * MiB * 1.5, 1, PASCAL_SPOT_COLD, 0},
                                   {16 * MiB * 3.0, 1, PASCAL_SPOT_COLD, 0},
                                   {16 * MiB * 4.0, 1, PASCAL_SPOT_COLD, 0}};
    pascal_spot_capacity cap = {2, 2, 4, fp, meas, 1.5, 8 * MiB, 1};
    pascal_spot_device dev = fake_device();
    pascal_error err = {};
    std::string out = dir + "/cap.h5";
    ASSERT_EQ(pascal_spot_capacity_write(out.c_str(), &cap, &dev, "cmd", &err), 0) << err.msg;
    auto R = column(out, "results", "R"), Rm = column(out, "results", "R_mean");
    EXPECT_EQ(R, (std::vector<double>{1.0, 1.5, 3.0, 4.0}));
    EXPECT_EQ(Rm, (std::vector<double>{1.25, 1.25, 3.5, 3.5}));
    EXPECT_EQ(attr(out, "effective_l2_bytes"), "8388608");

    pascal_spot_ref refs[] = {{1, PASCAL_SPOT_SYNC, 0, 0, 4096, 1, 1.25},
                              {2, PASCAL_SPOT_TMA, 3, 40, 4096, 32, 2.375}};
    std::string csv = dir + "/refs.csv";
    ASSERT_EQ(pascal_spot_refs_write(csv.c_str(), refs, 2, &err), 0) << err.msg;
    EXPECT_EQ(slurp(csv), "o,path,d,m,N,W,K\n1,sync,0,0,4096,1,1.25\n2,tma,3,40,4096,32,2.375\n");
    std::string prov = dir + "/refs.csv.provenance.txt";
    pascal_attr extra[] = {{"repetitions", "2"}};
    ASSERT_EQ(pascal_spot_provenance_write(prov.c_str(), &dev, "pascal measure-refs", extra, 1,
                                           &err), 0);
    std::string text = slurp(prov);
    EXPECT_NE(text.find("device_name: Test GPU\n"), std::string::npos);
    EXPECT_NE(text.find("command_line: pascal measure-refs\n"), std::string::npos);
    EXPECT_NE(text.find("repetitions: 2\n"), std::string::npos);
    EXPECT_NE(text.find("cache_operator: ld.global.cg"), std::string::npos);
}

// What the provenance writer's temporary file meets when it is created (the
// files hooks of output/fs/tmpfile.h hear of it): whether the destination
// already existed, and, to make the rename fail after the file is written,
// a folder put in its way.
std::string g_prov_dest;
bool g_prov_dest_seen;
bool g_prov_block;

void provenance_created(void *, const char *path)
{
    if (!path)
        return;
    g_prov_dest_seen = exists(g_prov_dest);
    if (g_prov_block)
        mkdir(g_prov_dest.c_str(), 0777);
}

TEST_F(KernelsSpot, ProvenanceAppearsCompleteOrNotAtAll)
{
    pascal_spot_device dev = fake_device();
    pascal_attr extra[] = {{"repetitions", "2"}, {"table", "refs.csv"}};
    pascal_error err = {};
    std::string prov = dir + "/refs.csv.provenance.txt";
    g_prov_dest = prov;
    g_prov_dest_seen = true;
    g_prov_block = false;
    struct Hook {
        Hook()
        {
            pascal_files_hooks h = {nullptr, nullptr, provenance_created, nullptr};
            pascal_files_hooks_set(&h);
        }
        ~Hook() { pascal_files_hooks_set(nullptr); }
    } hook;
    // Written beside its name first: the name does not exist while the
    // lines are written, and holds every line once it does.
    ASSERT_EQ(pascal_spot_provenance_write(prov.c_str(), &dev, "pascal measure-refs", extra, 2,
                                           &err), 0) << err.msg;
    EXPECT_FALSE(g_prov_dest_seen) << "the lines went to the destination itself";
    std::string text = slurp(prov);
    EXPECT_EQ(text.rfind("created: ", 0), 0u) << text;
    EXPECT_NE(text.find("device_name: Test GPU\n"), std::string::npos) << text;
    const std::string last = "table: refs.csv\n";
    ASSERT_GE(text.size(), last.size());
    EXPECT_EQ(text.substr(text.size() - last.size()), last) << "the last line is there";
    EXPECT_EQ(list_dir(dir), std::vector<std::string>{"refs.csv.provenance.txt"});

    // Text already put into words: replaced whole, a newline added at the end.
    g_prov_dest_seen = true;
    ASSERT_EQ(pascal_spot_provenance_write_text(prov.c_str(), "SIMULATED\nsms: 132", &err), 0)
        << err.msg;
    EXPECT_TRUE(g_prov_dest_seen) << "the earlier file stays until the new one is complete";
    EXPECT_EQ(slurp(prov), "SIMULATED\nsms: 132\n");

    // A write that fails after its temporary file exists (the rename meets
    // a folder) leaves neither that file nor a partial destination.
    std::string other = dir + "/sim.csv.provenance.txt";
    g_prov_dest = other;
    g_prov_block = true;
    EXPECT_EQ(pascal_spot_provenance_write_text(other.c_str(), "SIMULATED", &err), PASCAL_EIO);
    EXPECT_NE(std::string(err.msg).find(other), std::string::npos) << err.msg;
    g_prov_block = false;
    EXPECT_EQ(pascal_spot_provenance_write(other.c_str(), &dev, "cmd", extra, 2, &err), PASCAL_EIO);
    EXPECT_NE(std::string(err.msg).find("Is a directory"), std::string::npos) << err.msg;
    for (const std::string &name : list_dir(dir))
        EXPECT_EQ(name.find(".tmp."), std::string::npos) << name;
    EXPECT_TRUE(list_dir(other).empty()) << "nothing was written into the folder";
    EXPECT_EQ(slurp(prov), "SIMULATED\nsms: 132\n");
}

}  // namespace
