// Calibration (calibrate/calibrate.h, output/calibration.h): the reference CSV
// and HDF5 readers with every kind of malformed row, cross-validation
// figures recomputed independently, the baselines on cases worked out by
// hand, the model file round trip, SHA-256 against published vectors and
// against sha256sum, and device profiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "calibrate/calibrate.h"
#include "devices/profile.h"
#include "output/calibration.h"
#include "output/digest.h"
#include "test_util.h"

namespace {

const std::string kSrc = PASCAL_SOURCE_DIR;

using pascal_test::exists;

// A temporary directory for one test, removed with its contents.
struct TmpDir {
    std::string path = pascal_test::make_temp_dir();
    ~TmpDir() { pascal_test::remove_dir(path); }
    std::string file(const std::string &name, const std::string &text) const
    {
        return pascal_test::write_file(path, name, text);
    }
};

std::string csv_bad(const std::string &text, double sms = NAN)
{
    pascal_refs r;
    pascal_error err{};
    EXPECT_EQ(pascal_calibrate_parse_csv(text.data(), text.size(), "refs.csv", sms, &r, &err),
              PASCAL_EINPUT)
        << text;
    EXPECT_EQ(r.rows, nullptr);
    return err.msg;
}

#define EXPECT_PREFIX(msg, prefix) EXPECT_EQ(std::string(msg).rfind(prefix, 0), 0u) << (msg)

const std::string kHeader = "o,path,d,m,N,W,K\n";

TEST(DynamicCalibrate, CsvReadsCommentsOrderAndWhitespace)
{
    std::string text = "# synthetic\r\n\r\nK , W,N,m,d,path,o\r\n"
                       "1.25,2,4096,40,3,tma,2\r\n"
                       "  # a comment between rows\n"
                       "3.5e0,0.5,8192,0,0,sync,1\n";
    pascal_refs r;
    pascal_error err{};
    ASSERT_EQ(pascal_calibrate_parse_csv(text.data(), text.size(), "refs.csv", 48, &r, &err), 0)
        << err.msg;
    ASSERT_EQ(r.n, 2);
    EXPECT_EQ(r.rows[0].o, 2);
    EXPECT_EQ(r.rows[0].path, PASCAL_DYN_TMA);
    EXPECT_EQ(r.rows[0].d, 3);
    EXPECT_EQ(r.rows[0].m, 40);
    EXPECT_EQ(r.rows[0].N, 4096);
    EXPECT_EQ(r.rows[0].W, 2);
    EXPECT_EQ(r.rows[0].K, 1.25);
    EXPECT_EQ(r.line[0], 4);
    EXPECT_EQ(r.rows[1].path, PASCAL_DYN_SYNC);
    EXPECT_EQ(r.rows[1].W, 0.5);
    EXPECT_EQ(r.line[1], 6);
    pascal_calibrate_refs_free(&r);
}

// A file cut short (no newline after its last row) is refused, whatever its
// last number reads as; a spreadsheet's byte-order mark is skipped.
TEST(DynamicCalibrate, CsvCutShortIsRefusedAndAByteOrderMarkIsSkipped)
{
    EXPECT_PREFIX(csv_bad(kHeader + "2,tma,3,40,4096,2,1.25\n2,tma,3,40,4096,4,3."),
                  "refs.csv:3:21: expected the line to end with a newline, got the end of the file");
    EXPECT_PREFIX(csv_bad(kHeader + "2,tma,3,40,4096,2,1.25"),
                  "refs.csv:2:23: expected the line to end with a newline");
    std::string bom = "\xef\xbb\xbf" + kHeader + "2,tma,3,40,4096,2,1.25\n";
    pascal_refs r;
    pascal_error err{};
    ASSERT_EQ(pascal_calibrate_parse_csv(bom.data(), bom.size(), "refs.csv", 48, &r, &err), 0) << err.msg;
    EXPECT_EQ(r.n, 1);
    EXPECT_EQ(r.rows[0].K, 1.25);
    pascal_calibrate_refs_free(&r);
}

TEST(DynamicCalibrate, CsvRejectsEveryMalformedRowWithItsPlace)
{
    EXPECT_PREFIX(csv_bad(""), "refs.csv:1:1: expected a header row o,path,d,m,N,W,K, got an empty file");
    EXPECT_PREFIX(csv_bad("# only\n"), "refs.csv:1:1: expected a header row o,path,d,m,N,W,K, got only comments");
    EXPECT_PREFIX(csv_bad("o,path,d,m,N,W,Kx\n"),
                  "refs.csv:1:16: header: expected one of o, path, d, m, N, W, K or C, got \"Kx\"");
    EXPECT_PREFIX(csv_bad("o,path,d,m,N,W\n"), "refs.csv:1:1: header: expected the columns o,path,d,m,N,W,K, got no column K");
    EXPECT_PREFIX(csv_bad("o,path,d,m,N,W,K,o\n"), "refs.csv:1:18: header: expected each column once, got \"o\" again");
    EXPECT_PREFIX(csv_bad(kHeader), "refs.csv:1:1: expected at least one reference row after the header, got none");
    EXPECT_PREFIX(csv_bad(kHeader + "1,tma,2,8,4096,4,1.5\n1,tma,2,8,4096,4\n"),
                  "refs.csv:3:1: row: expected 7 fields like the header, got 6");
    EXPECT_PREFIX(csv_bad(kHeader + "1,ldg,0,8,4096,4,1.5\n"), "refs.csv:2:3: path: expected sync or tma, got \"ldg\"");
    EXPECT_PREFIX(csv_bad(kHeader + "1,sync,2,8,4096,4,1.5\n"),
                  "refs.csv:2:8: d: expected 0 for the sync path (no prefetch pipeline), got \"2\"");
    EXPECT_PREFIX(csv_bad(kHeader + "1,tma,0,8,4096,4,1.5\n"),
                  "refs.csv:2:7: d: expected a depth >= 1 for the tma path, got \"0\"");
    EXPECT_PREFIX(csv_bad(kHeader + "1.5,tma,2,8,4096,4,1.5\n"), "refs.csv:2:1: o: expected a positive integer, got \"1.5\"");
    EXPECT_PREFIX(csv_bad(kHeader + "0,tma,2,8,4096,4,1.5\n"), "refs.csv:2:1: o: expected a positive integer, got \"0\"");
    EXPECT_PREFIX(csv_bad(kHeader + "1,tma,2,-1,4096,4,1.5\n"), "refs.csv:2:9: m: expected a non-negative integer, got \"-1\"");
    EXPECT_PREFIX(csv_bad(kHeader + "1,tma,2,8,4096x,4,1.5\n"), "refs.csv:2:11: N: expected a positive integer, got \"4096x\"");
    EXPECT_PREFIX(csv_bad(kHeader + "1,tma,2,8,4096,0,1.5\n"), "refs.csv:2:16: W: expected a positive number, got \"0\"");
    EXPECT_PREFIX(csv_bad(kHeader + "1,tma,2,8,4096,4,-1\n"), "refs.csv:2:18: K: expected a positive number, got \"-1\"");
    EXPECT_PREFIX(csv_bad(kHeader + "1,tma,2,8,4096,4,nan\n"), "refs.csv:2:18: K: expected a positive number, got \"nan\"");
    EXPECT_PREFIX(csv_bad(kHeader + "1,tma,2,8,4096,4,inf\n"), "refs.csv:2:18: K: expected a positive number, got \"inf\"");
    EXPECT_PREFIX(csv_bad(kHeader + "1,tma,2,8,4096,4,\n"), "refs.csv:2:18: K: expected a positive number, got \"\"");
    EXPECT_PREFIX(csv_bad(kHeader + "1,tma,2,8,4096,4,60\n", 48),
                  "refs.csv:2:18: K: expected at most M = sms * o = 48 * 1 = 48 (one fill per request), got \"60\"");
    // A bad row late in the file is still found: nothing is dropped.
    std::string many = kHeader;
    for (int i = 0; i < 50; i++)
        many += "2,tma,3,8,4096,4,1.5\n";
    EXPECT_PREFIX(csv_bad(many + "2,tma,3,8,4096,4,0\n"), "refs.csv:52:18: K: expected a positive number");
}

TEST(DynamicCalibrate, ReadRefsTellsCsvFromHdf5AndRejectsBinary)
{
    TmpDir t;
    pascal_refs r;
    pascal_error err{};
    std::string bin = t.file("x.bin", std::string("o,path\0\1\2", 9));
    EXPECT_EQ(pascal_calibrate_read_refs(bin.c_str(), NAN, &r, &err), PASCAL_EINPUT);
    EXPECT_PREFIX(err.msg, bin + ":1:1: expected CSV text (o,path,d,m,N,W,K) or HDF5, got binary data");
    EXPECT_EQ(pascal_calibrate_read_refs((t.path + "/missing.csv").c_str(), NAN, &r, &err), PASCAL_EINPUT);
    EXPECT_PREFIX(err.msg, "cannot read " + t.path + "/missing.csv: ");
}

std::string synthetic_csv()
{
    return kSrc + "/configs/calibration/synthetic-gb10-refs.csv";
}

pascal_calibrate_opts gb10_opts(const std::string &refs, const std::string &out)
{
    static std::string r, o, dev;
    r = refs, o = out, dev = kSrc + "/configs/devices/gb10.yaml";
    pascal_calibrate_opts opts = pascal_calibrate_default_opts();
    opts.refs_path = r.c_str();
    opts.out_path = o.empty() ? nullptr : o.c_str();
    opts.device_path = dev.c_str();
    return opts;
}

TEST(DynamicCalibrate, ModelFileRoundTripsBitForBit)
{
    TmpDir t;
    std::string out = t.path + "/model.h5";
    pascal_calibrate_opts o = gb10_opts(synthetic_csv(), out);
    pascal_calibrate_result r;
    pascal_error err{};
    ASSERT_EQ(pascal_calibrate_run(&o, &r, &err), 0) << err.msg;
    EXPECT_EQ(r.par.sms, 48);
    EXPECT_EQ(r.par.C, 1280); // 20 MiB effective L2 / 16 KiB
    EXPECT_GT(r.anchored, 0);
    EXPECT_GT(r.templated, 0);
    pascal_dyn_model *m = nullptr;
    pascal_cal_prov prov;
    ASSERT_EQ(pascal_calibrate_load(out.c_str(), &m, &prov, &err), 0) << err.msg;
    EXPECT_EQ(pascal_dyn_model_band(m), pascal_dyn_model_band(r.model));
    EXPECT_STREQ(prov.device, "NVIDIA GB10");
    EXPECT_EQ(std::string(prov.input), synthetic_csv());
    EXPECT_EQ(strlen(prov.input_sha256), 64u);
    int checked = 0;
    for (int64_t o2 : {1, 2, 4, 8})
        for (int path : {0, 1})
            for (int64_t d : {0, 2, 4, 6})
                for (int64_t mm = 0; mm < 50; mm += 3)
                    for (double W : {1.0, 9.0, 100.0}) {
                        pascal_dyn_query q = {o2, path, path ? d : 0, mm, 4096, W, NAN};
                        pascal_dyn_pred a, b;
                        pascal_dyn_predict(r.model, &q, &a);
                        pascal_dyn_predict(m, &q, &b);
                        ASSERT_EQ(a.code, b.code);
                        ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0);
                        checked += a.code < PASCAL_DYN_UNSUPPORTED;
                    }
    EXPECT_GT(checked, 800);
    // The model file's /references is itself a valid reference input.
    pascal_refs back;
    ASSERT_EQ(pascal_calibrate_read_refs(out.c_str(), 48, &back, &err), 0) << err.msg;
    ASSERT_EQ(back.n, r.refs.n);
    for (int64_t i = 0; i < back.n; i++) {
        const pascal_dyn_ref &a = back.rows[i], &b = r.refs.rows[i];
        ASSERT_TRUE(a.o == b.o && a.path == b.path && a.d == b.d && a.m == b.m && a.N == b.N &&
                    a.W == b.W && a.K == b.K)
            << "row " << i;
    }
    pascal_calibrate_refs_free(&back);
    pascal_dyn_model_free(m);
    pascal_calibrate_result_free(&r);
}

TEST(DynamicCalibrate, CrossValidationFiguresRecomputed)
{
    pascal_calibrate_opts o = gb10_opts(synthetic_csv(), "");
    pascal_calibrate_result r;
    pascal_error err{};
    o.cv.baselines = 1;
    ASSERT_EQ(pascal_calibrate_run(&o, &r, &err), 0) << err.msg;
    const pascal_cv_result &cv = r.cv;
    ASSERT_EQ(cv.nkeys, r.agg->nkeys);
    // Per key: eq. 26's inner term from the out-of-fold predictions; aligned
    // (K = 1) from the data alone.  Overall: the mean over keys.
    std::vector<double> absres;
    double overall = 0, overall_aligned = 0;
    int64_t scored = 0;
    for (int64_t k = 0; k < cv.nkeys; k++) {
        const pascal_cv_key &z = cv.keys[k];
        double s = 0, sa = 0;
        int64_t n = 0;
        for (int64_t i = 0; i < r.refs.n; i++) {
            const pascal_dyn_ref &x = r.refs.rows[i];
            pascal_dyn_key xk = {x.o, x.path, x.d, x.m};
            if (pascal_dyn_key_cmp(&xk, &z.key) != 0)
                continue;
            if (!(x.W > 1)) {
                EXPECT_TRUE(std::isnan(cv.oof[i]));
                EXPECT_EQ(cv.oof_code[i], -1);
                continue;
            }
            s += std::fabs(cv.oof[i] / x.K - 1);
            sa += std::fabs(1 / x.K - 1);
            absres.push_back(std::fabs(std::log(x.K / cv.oof[i])));
            n++;
        }
        ASSERT_EQ(n, z.runs);
        EXPECT_NEAR(z.mape[PASCAL_CV_PASCAL], 100 * s / n, 1e-9);
        EXPECT_NEAR(z.mape[PASCAL_CV_ALIGNED], 100 * sa / n, 1e-9);
        overall += 100 * s / n, overall_aligned += 100 * sa / n;
        scored += n;
    }
    EXPECT_EQ(scored, cv.runs_scored);
    EXPECT_NEAR(cv.mape[PASCAL_CV_PASCAL], overall / cv.nkeys, 1e-9);
    EXPECT_NEAR(cv.mape[PASCAL_CV_ALIGNED], overall_aligned / cv.nkeys, 1e-9);
    std::sort(absres.begin(), absres.end());
    double h = (absres.size() - 1) * 0.9;
    size_t lo = (size_t)h;
    EXPECT_NEAR(cv.band_radius, absres[lo] + (h - lo) * (absres[lo + 1] - absres[lo]), 1e-12);
    // On this law PASCAL beats every baseline.
    for (int q = 1; q < PASCAL_CV_NMETHOD; q++)
        EXPECT_LT(cv.mape[PASCAL_CV_PASCAL], cv.mape[q]) << pascal_cv_method_names[q];
    pascal_calibrate_result_free(&r);
}

// A tiny reference set for the baselines: K constant over W.
std::vector<pascal_dyn_ref> tiny(double Ka, double Kb, double Kc)
{
    std::vector<pascal_dyn_ref> r;
    for (double W : {2.0, 4.0}) {
        r.push_back({1, PASCAL_DYN_TMA, 2, 0, 4096, W, Ka});
        r.push_back({1, PASCAL_DYN_TMA, 2, 4, 4096, W, Kb});
        r.push_back({2, PASCAL_DYN_TMA, 6, 16, 4096, W, Kc});
    }
    return r;
}

pascal_cv_result run_cv(std::vector<pascal_dyn_ref> &rows, pascal_dyn_agg **agg, double lambda = 1)
{
    pascal_refs refs = {(int64_t)rows.size(), rows.data(), nullptr};
    pascal_dyn_params par = pascal_dyn_default_params();
    pascal_cv_opts o = pascal_cv_default_opts();
    pascal_cv_result cv;
    pascal_error err{};
    par.sms = 48, par.C = 1280, par.block_bytes = 16384;
    o.baselines = 1;
    o.ridge_lambda = lambda;
    EXPECT_EQ(pascal_dyn_aggregate(rows.data(), (int64_t)rows.size(), PASCAL_DYN_N0, agg), 0);
    EXPECT_EQ(pascal_calibrate_cv(&refs, *agg, &par, &o, &cv, &err), 0) << err.msg;
    return cv;
}

TEST(DynamicCalibrate, NearestKeyAndRejectionOnATinySet)
{
    // Holding out (1, tma, 2, 0): in standardised (o, path, d, m) space its
    // nearest key is (1, tma, 2, 4), K = 2.5 against 1.5: 66.67 %.  PASCAL
    // predicts it too (same family, compute clamp: also 2.5).  Holding out
    // (2, tma, 6, 16) leaves no o = 2 reference: PASCAL rejects the key.
    std::vector<pascal_dyn_ref> rows = tiny(1.5, 2.5, 9.0);
    pascal_dyn_agg *agg = nullptr;
    pascal_cv_result cv = run_cv(rows, &agg);
    ASSERT_EQ(cv.nkeys, 3);
    EXPECT_NEAR(cv.keys[0].mape[PASCAL_CV_NEAREST], 100 * (2.5 / 1.5 - 1), 1e-9);
    EXPECT_NEAR(cv.keys[0].mape[PASCAL_CV_PASCAL], 100 * (2.5 / 1.5 - 1), 1e-9);
    EXPECT_EQ(cv.keys[0].code, PASCAL_DYN_FB_COMPUTE);
    EXPECT_EQ(cv.keys[2].code, PASCAL_DYN_ERR_FAMILY);
    EXPECT_TRUE(std::isnan(cv.keys[2].mape[PASCAL_CV_PASCAL]));
    EXPECT_EQ(cv.keys_rejected, 1);
    EXPECT_EQ(cv.keys_predicted, 2);
    // Overall figures: over the two keys PASCAL predicts, and over all three.
    EXPECT_NEAR(cv.mape[PASCAL_CV_ALIGNED], 100 * ((1 - 1 / 1.5) + (1 - 1 / 2.5)) / 2, 1e-9);
    EXPECT_NEAR(cv.mape_all[PASCAL_CV_ALIGNED], 100 * ((1 - 1 / 1.5) + (1 - 1 / 2.5) + (1 - 1 / 9.0)) / 3,
                1e-9);
    EXPECT_TRUE(std::isnan(cv.mape_all[PASCAL_CV_PASCAL]));
    pascal_calibrate_cv_free(&cv);
    pascal_dyn_agg_free(agg);
}

// The family baseline, the symmetric log error and the split by rule, by
// hand.  One family (1, tma, 3) at m = 0, 8, 16, 32 with K constant over W:
// 1.2, 2.0, 3.0, 6.0; and a key of another family (2, tma, 3, m = 0, K 4).
// Held out, each key takes the nearest compute in its family: m = 0 takes
// 8 (K 2.0); m = 8 takes 0 (1.2; its tie with 16 goes to the smaller m);
// m = 16 takes 8 (2.0); m = 32 takes 16 (3.0).  The other family's key has
// no family neighbour.
TEST(DynamicCalibrate, FamilyBaselineLogErrorAndSplitByHand)
{
    const double K[4] = {1.2, 2.0, 3.0, 6.0};
    const int64_t m[4] = {0, 8, 16, 32};
    std::vector<pascal_dyn_ref> rows;
    for (double W : {2.0, 4.0, 8.0}) {
        for (int k = 0; k < 4; k++)
            rows.push_back({1, PASCAL_DYN_TMA, 3, m[k], 4096, W, K[k]});
        rows.push_back({2, PASCAL_DYN_TMA, 3, 0, 4096, W, 4.0});
    }
    pascal_dyn_agg *agg = nullptr;
    pascal_cv_result cv = run_cv(rows, &agg);
    ASSERT_EQ(cv.nkeys, 5);
    const double family[4] = {2.0, 1.2, 2.0, 3.0};   // the neighbour each key takes
    for (int k = 0; k < 4; k++) {
        const pascal_cv_key &z = cv.keys[k];
        ASSERT_EQ(z.key.m, m[k]);
        EXPECT_NEAR(z.mape[PASCAL_CV_FAMILY], 100 * std::fabs(family[k] / K[k] - 1), 1e-9) << k;
        EXPECT_NEAR(z.sle[PASCAL_CV_FAMILY], std::fabs(std::log(family[k] / K[k])), 1e-12) << k;
        EXPECT_NEAR(z.sle[PASCAL_CV_ALIGNED], std::log(K[k]), 1e-12) << k;
    }
    EXPECT_TRUE(std::isnan(cv.keys[4].mape[PASCAL_CV_FAMILY]));
    // The split: m = 8 and 16 are bracketed (same-class neighbours on both
    // sides), m = 0 and 32 fall back to the nearest compute; each part is
    // the mean of its keys.
    double mape[PASCAL_CV_NMETHOD], sle[PASCAL_CV_NMETHOD];
    int64_t nb = 0, nf = 0, nall = 0;
    double want_b = 0, want_f = 0;
    for (int k = 0; k < 4; k++) {
        const pascal_cv_key &z = cv.keys[k];
        if (z.code == PASCAL_DYN_FB_NONE || z.code == PASCAL_DYN_FB_REFERENCE)
            want_b += z.sle[PASCAL_CV_PASCAL], nb++;
        else if (z.code == PASCAL_DYN_FB_COMPUTE || z.code == PASCAL_DYN_FB_DEPTH)
            want_f += z.mape[PASCAL_CV_FAMILY], nf++;
    }
    ASSERT_GT(nb, 0);
    ASSERT_GT(nf, 0);
    pascal_cv_split(&cv, 1u << PASCAL_DYN_FB_NONE | 1u << PASCAL_DYN_FB_REFERENCE, mape, sle, &nall);
    EXPECT_EQ(nall, nb);
    EXPECT_NEAR(sle[PASCAL_CV_PASCAL], want_b / nb, 1e-12);
    pascal_cv_split(&cv, 1u << PASCAL_DYN_FB_COMPUTE | 1u << PASCAL_DYN_FB_DEPTH, mape, sle, &nall);
    EXPECT_EQ(nall, nf);
    EXPECT_NEAR(mape[PASCAL_CV_FAMILY], want_f / nf, 1e-9);
    pascal_calibrate_cv_free(&cv);
    pascal_dyn_agg_free(agg);
}

// The reference set's distribution by hand: keys A (1, sync, 0, 0) and B
// (1, tma, 2, 8); A at W 2 three seeds K 1, 1.004, 1.2 and at W 4 one run
// K 2; B at W 2 two seeds K 3 and 4.5; a W = 1 run is not counted.  Near 1
// (K <= 1.005): 2 of 6.  Assuming K = 1: A's mean |1/K - 1| = (0 + 0.004/1.004
// + 0.2/1.2 + 0.5) / 4, B's (2/3 + 3.5/4.5) / 2, then the mean of the two.
// Spreads: A at W 2 1.2 / 1 = 1.2, B 4.5 / 3 = 1.5: median 1.35.
TEST(DynamicCalibrate, ReferenceDistributionByHand)
{
    std::vector<pascal_dyn_ref> rows = {
        {1, PASCAL_DYN_SYNC, 0, 0, 4096, 2, 1.2},   {1, PASCAL_DYN_SYNC, 0, 0, 4096, 2, 1.0},
        {1, PASCAL_DYN_SYNC, 0, 0, 4096, 2, 1.004}, {1, PASCAL_DYN_SYNC, 0, 0, 4096, 4, 2.0},
        {1, PASCAL_DYN_TMA, 2, 8, 4096, 2, 4.5},    {1, PASCAL_DYN_TMA, 2, 8, 4096, 2, 3.0},
        {1, PASCAL_DYN_TMA, 2, 8, 4096, 1, 7.0},
    };
    pascal_refs refs = {(int64_t)rows.size(), rows.data(), nullptr};
    pascal_refs_dist d;
    ASSERT_EQ(pascal_refs_distribution(&refs, 1, &d), 0);
    EXPECT_EQ(d.runs, 6);
    EXPECT_EQ(d.keys, 2);
    EXPECT_EQ(d.near_one, 2);
    double a = (0 + 0.004 / 1.004 + 0.2 / 1.2 + 0.5) / 4, b = (2.0 / 3 + 3.5 / 4.5) / 2;
    EXPECT_NEAR(d.aligned_mape, 100 * (a + b) / 2, 1e-9);
    EXPECT_EQ(d.groups, 2);
    EXPECT_NEAR(d.spread_median, 1.35, 1e-12);
    EXPECT_NEAR(d.spread_p90, 1.2 + 0.9 * 0.3, 1e-12);
    EXPECT_NEAR(d.spread_max, 1.5, 1e-12);
}

TEST(DynamicCalibrate, RidgeRecoversALogLinearLaw)
{
    // log K = 0.1 + 0.05 m + 0.2 log x exactly, with o, path, d constant
    // across the keys: ridge with a negligible penalty predicts it.
    std::vector<pascal_dyn_ref> rows;
    for (int64_t m : {0, 4, 8, 12, 16, 20})
        for (double W : {1.0, 2.0, 4.0, 8.0})
            rows.push_back({1, PASCAL_DYN_TMA, 3, m, 4096, W,
                            std::exp(0.1 + 0.05 * m + 0.2 * std::log(W))});
    pascal_dyn_agg *agg = nullptr;
    pascal_cv_result cv = run_cv(rows, &agg, 1e-9);
    for (int64_t k = 1; k + 1 < cv.nkeys; k++)
        EXPECT_LT(cv.keys[k].mape[PASCAL_CV_RIDGE], 1e-4) << k;
    pascal_calibrate_cv_free(&cv);
    pascal_dyn_agg_free(agg);
}

TEST(DynamicCalibrate, BadInputCreatesNoFile)
{
    TmpDir t;
    std::string out = t.path + "/model.h5";
    std::string bad = t.file("bad.csv", kHeader + "1,tma,2,8,4096,4,1.5\n1,tma,2,8,4096,4,-2\n");
    pascal_calibrate_opts o = gb10_opts(bad, out);
    pascal_calibrate_result r;
    pascal_error err{};
    EXPECT_EQ(pascal_calibrate_run(&o, &r, &err), PASCAL_EINPUT);
    EXPECT_PREFIX(err.msg, bad + ":3:18: K: expected a positive number, got \"-2\"");
    pascal_calibrate_result_free(&r);
    EXPECT_FALSE(exists(out));
    // Unwritable destination: bad input, nothing left behind.
    o = gb10_opts(synthetic_csv(), t.path + "/no/such/dir/model.h5");
    EXPECT_EQ(pascal_calibrate_run(&o, &r, &err), PASCAL_EINPUT);
    EXPECT_PREFIX(err.msg, t.path + "/no/such/dir/model.h5: cannot write: No such file");
    pascal_calibrate_result_free(&r);
    // An existing file survives a failed run untouched.
    std::string keep = t.file("keep.h5", "precious");
    o = gb10_opts(bad, keep);
    EXPECT_EQ(pascal_calibrate_run(&o, &r, &err), PASCAL_EINPUT);
    pascal_calibrate_result_free(&r);
    std::ifstream in(keep);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "precious");
}

TEST(DynamicCalibrate, LoadRejectsFilesThatAreNotCalibrations)
{
    TmpDir t;
    pascal_dyn_model *m = nullptr;
    pascal_error err{};
    EXPECT_EQ(pascal_calibrate_load((t.path + "/none.h5").c_str(), &m, nullptr, &err), PASCAL_EINPUT);
    EXPECT_PREFIX(err.msg, "cannot open " + t.path + "/none.h5");
    EXPECT_EQ(pascal_calibrate_load(synthetic_csv().c_str(), &m, nullptr, &err), PASCAL_EINPUT);
    // An HDF5 file of another format.
    std::string other = t.path + "/other.h5";
    pascal_cal_attr none[1] = {{"x", "y", 0, 0}};
    ASSERT_EQ(pascal_calibration_write(other.c_str(), "pascal-sweep", 1, none, 1, nullptr, 0, &err), 0)
        << err.msg;
    EXPECT_EQ(pascal_calibrate_load(other.c_str(), &m, nullptr, &err), PASCAL_EINPUT);
    EXPECT_PREFIX(err.msg, other + ": expected a pascal calibration file (format pascal-calibration), "
                                   "got format \"pascal-sweep\"");
    EXPECT_EQ(m, nullptr);
}

TEST(DynamicCalibrate, Hdf5ReferencesAreCheckedLikeCsv)
{
    TmpDir t;
    std::string p = t.path + "/refs.h5";
    static const char *const labels[2] = {"sync", "tma"};
    pascal_column_desc cols[7] = {
        {"o", "", "", PASCAL_COLTYPE_I64, nullptr, 0}, {"path", "", "", PASCAL_COLTYPE_ENUM, labels, 2},
        {"d", "", "", PASCAL_COLTYPE_I64, nullptr, 0}, {"m", "", "", PASCAL_COLTYPE_I64, nullptr, 0},
        {"N", "", "", PASCAL_COLTYPE_F64, nullptr, 0}, {"W", "", "", PASCAL_COLTYPE_F64, nullptr, 0},
        {"K", "", "", PASCAL_COLTYPE_F64, nullptr, 0},
    };
    int64_t o[2] = {1, 2}, path[2] = {1, 0}, d[2] = {3, 0}, m[2] = {8, 5};
    double N[2] = {4096, 8192}, W[2] = {2, 4}, K[2] = {1.5, -3};
    const void *data[7] = {o, path, d, m, N, W, K};
    pascal_cal_table tab = {"references", 2, 7, cols, data};
    pascal_error err{};
    ASSERT_EQ(pascal_calibration_write(p.c_str(), "refs", 1, nullptr, 0, &tab, 1, &err), 0) << err.msg;
    pascal_refs r;
    EXPECT_EQ(pascal_calibrate_read_refs(p.c_str(), NAN, &r, &err), PASCAL_EINPUT);
    EXPECT_PREFIX(err.msg, p + ": /references/K[1]: expected a positive number, got -3");
    K[1] = 3;
    std::remove(p.c_str());
    ASSERT_EQ(pascal_calibration_write(p.c_str(), "refs", 1, nullptr, 0, &tab, 1, &err), 0) << err.msg;
    ASSERT_EQ(pascal_calibrate_read_refs(p.c_str(), NAN, &r, &err), 0) << err.msg;
    ASSERT_EQ(r.n, 2);
    EXPECT_EQ(r.rows[0].path, PASCAL_DYN_TMA);
    EXPECT_EQ(r.rows[1].path, PASCAL_DYN_SYNC);
    EXPECT_EQ(r.rows[1].m, 5);
    EXPECT_EQ(r.rows[1].K, 3);
    pascal_calibrate_refs_free(&r);
    // Depth rules hold for HDF5 too.
    d[1] = 2;
    std::remove(p.c_str());
    ASSERT_EQ(pascal_calibration_write(p.c_str(), "refs", 1, nullptr, 0, &tab, 1, &err), 0);
    EXPECT_EQ(pascal_calibrate_read_refs(p.c_str(), NAN, &r, &err), PASCAL_EINPUT);
    EXPECT_PREFIX(err.msg, p + ": /references/d[1]: expected 0 for the sync path");
}

std::string sha_hex(const std::string &s)
{
    char hex[65];
    pascal_digest_bytes(s.data(), s.size(), hex);
    return hex;
}

TEST(DynamicCalibrate, Sha256PublishedVectors)
{
    EXPECT_EQ(sha_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha_hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(DynamicCalibrate, Sha256AgreesWithSha256sumAcrossBlockBoundaries)
{
    TmpDir t;
    for (size_t len : {55u, 56u, 63u, 64u, 65u, 119u, 120u, 4097u, 70001u}) {
        std::string s(len, '\0');
        for (size_t i = 0; i < len; i++)
            s[i] = (char)((i * 2654435761u) >> 13);
        std::string p = t.file("f" + std::to_string(len), s);
        char hex[65];
        pascal_error err{};
        ASSERT_EQ(pascal_digest_file(p.c_str(), hex, &err), 0) << err.msg;
        FILE *pipe = popen(("sha256sum " + p).c_str(), "r");
        ASSERT_NE(pipe, nullptr);
        char want[65] = {0};
        ASSERT_EQ(fread(want, 1, 64, pipe), 64u);
        pclose(pipe);
        EXPECT_STREQ(hex, want) << len;
    }
}

TEST(DynamicCalibrate, DeviceProfiles)
{
    pascal_device_facts d;
    pascal_error err{};
    ASSERT_EQ(pascal_device_facts_load((kSrc + "/configs/devices/gb10.yaml").c_str(), &d, &err), 0) << err.msg;
    EXPECT_EQ(d.sms, 48);
    EXPECT_EQ(d.capacity_bytes, 20.0 * 1048576);
    EXPECT_STREQ(d.name, "NVIDIA GB10");
    TmpDir t;
    std::string bad = t.file("bad.yaml", "name: x\nsms: -3\n");
    EXPECT_EQ(pascal_device_facts_load(bad.c_str(), &d, &err), PASCAL_EINPUT);
    EXPECT_PREFIX(err.msg, bad + ":2:6: sms: expected a positive integer, got -3");
    EXPECT_EQ(pascal_device_facts_load((t.path + "/nope.yaml").c_str(), &d, &err), PASCAL_EINPUT);
    EXPECT_PREFIX(err.msg, "cannot read " + t.path + "/nope.yaml: ");
}

} // namespace
