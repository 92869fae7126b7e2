// The held-out test of `pascal calibrate --test` (calibrate/calibrate.h):
// figures recomputed from the test runs (grouping, eq. 26, the aligned
// baseline from the data alone), and the CLI's table and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "calibrate/calibrate.h"
#include "test_util.h"

namespace {

const std::string kSrc = PASCAL_SOURCE_DIR;

class Holdout : public pascal_test::TempDirTest {
protected:
    // The synthetic reference set split by compute: m in {8, 24} is held out.
    void split(std::string *refs, std::string *test)
    {
        std::string text = pascal_test::slurp(kSrc + "/configs/calibration/synthetic-gb10-refs.csv");
        std::string a = "o,path,d,m,N,W,K\n", b = a;
        size_t pos = text.find("o,path,d,m,N,W,K\n") + 17;
        while (pos < text.size()) {
            size_t e = text.find('\n', pos);
            std::string line = text.substr(pos, e - pos);
            int commas = 0;
            size_t f = 0;
            while (commas < 3)
                f = line.find(',', f) + 1, commas++;
            int m = std::stoi(line.substr(f));
            (m == 8 || m == 24 ? b : a) += line + "\n";
            pos = e + 1;
        }
        *refs = write("refs.csv", a);
        *test = write("test.csv", b);
    }
};

TEST_F(Holdout, FiguresRecomputedFromTheTestRuns)
{
    std::string rp, tp;
    split(&rp, &tp);
    std::string dev = kSrc + "/configs/devices/gb10.yaml";
    pascal_calibrate_opts o = pascal_calibrate_default_opts();
    o.refs_path = rp.c_str();
    o.device_path = dev.c_str();
    pascal_calibrate_result r;
    pascal_error err{};
    ASSERT_EQ(pascal_calibrate_run(&o, &r, &err), 0) << err.msg;
    pascal_refs test;
    ASSERT_EQ(pascal_calibrate_read_refs(tp.c_str(), 48, &test, &err), 0) << err.msg;
    pascal_cv_opts cv = o.cv;
    cv.baselines = 1;
    pascal_cv_result ho;
    ASSERT_EQ(pascal_calibrate_holdout(&r.refs, r.agg, r.model, &r.par, &cv, &test, &ho, &err), 0);
    // Group the scored test runs (W > 1) by key by hand.
    std::map<std::tuple<int64_t, int, int64_t, int64_t>, std::tuple<double, double, int64_t>> keys;
    for (int64_t i = 0; i < test.n; i++) {
        const pascal_dyn_ref &x = test.rows[i];
        if (!(x.W > 1))
            continue;
        pascal_dyn_query q = {x.o, x.path, x.d, x.m, x.N, x.W, NAN};
        pascal_dyn_pred p;
        pascal_dyn_predict(r.model, &q, &p);
        auto &k = keys[{x.o, x.path, x.d, x.m}];
        std::get<0>(k) += std::fabs(p.K / x.K - 1);
        std::get<1>(k) += std::fabs(1 / x.K - 1);
        std::get<2>(k)++;
    }
    ASSERT_EQ(ho.nkeys, (int64_t)keys.size());
    EXPECT_EQ(ho.nkeys, 22); // 11 families x 2 held-out computes
    double s = 0, sa = 0;
    int64_t z = 0;
    for (const auto &kv : keys) {
        const pascal_cv_key &k = ho.keys[z++];
        EXPECT_EQ(k.key.o, std::get<0>(kv.first));
        EXPECT_EQ(k.key.m, std::get<3>(kv.first));
        int64_t n = std::get<2>(kv.second);
        EXPECT_EQ(k.runs, n);
        EXPECT_NEAR(k.mape[PASCAL_CV_PASCAL], 100 * std::get<0>(kv.second) / n, 1e-9);
        EXPECT_NEAR(k.mape[PASCAL_CV_ALIGNED], 100 * std::get<1>(kv.second) / n, 1e-9);
        s += 100 * std::get<0>(kv.second) / n, sa += 100 * std::get<1>(kv.second) / n;
        EXPECT_LT(k.code, PASCAL_DYN_UNSUPPORTED);
        EXPECT_NE(k.code, PASCAL_DYN_FB_REFERENCE); // never a reference key
    }
    EXPECT_NEAR(ho.mape[PASCAL_CV_PASCAL], s / (double)keys.size(), 1e-9);
    EXPECT_NEAR(ho.mape[PASCAL_CV_ALIGNED], sa / (double)keys.size(), 1e-9);
    for (int q = 0; q < PASCAL_CV_NMETHOD; q++)
        EXPECT_FALSE(std::isnan(ho.mape[q])) << pascal_cv_method_names[q];
    pascal_calibrate_cv_free(&ho);
    pascal_calibrate_refs_free(&test);
    pascal_calibrate_result_free(&r);
}

TEST_F(Holdout, CliTableAndErrors)
{
    std::string rp, tp;
    split(&rp, &tp);
    std::string dev = kSrc + "/configs/devices/gb10.yaml";
    auto r = run("calibrate " + rp + " --device " + dev + " -o " + dir + "/m.h5 --test " + tp);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("held-out test on " + tp + " (924 runs, 0 of them of a reference key)"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("overall, keys PASCAL predicts"), std::string::npos);
    std::string bad = write("bad.csv", "o,path,d,m,N,W,K\n1,sync,0,8,4096,2,-1\n");
    r = run("calibrate " + rp + " --device " + dev + " -o " + dir + "/m2.h5 --test " + bad);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--test: " + bad + ":2:"), std::string::npos) << r.err;
}

} // namespace
