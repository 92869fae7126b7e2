// The dynamic model in sweep specs: the `calibration` key, the path,
// compute and W parameters, their error messages, and sweeps that mix the
// dynamic model with static ones (values, rejection codes, device checks,
// thread-count determinism, no output on bad input).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "calibrate/calibrate.h"
#include "engine/run.h"
#include "output/sink.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

const std::string kSrc = PASCAL_SOURCE_DIR;

#define EXPECT_PREFIX(msg, prefix) EXPECT_EQ(std::string(msg).rfind(prefix, 0), 0u) << (msg)

// One calibration for the whole suite, fitted from the synthetic set.
class SpecDynamic : public ::testing::Test {
protected:
    static std::string dir, model;
    static void SetUpTestSuite()
    {
        dir = pascal_test::make_temp_dir();
        model = dir + "/model.h5";
        std::string refs = kSrc + "/configs/calibration/synthetic-gb10-refs.csv";
        std::string dev = kSrc + "/configs/devices/gb10.yaml";
        pascal_calibrate_opts o = pascal_calibrate_default_opts();
        pascal_calibrate_result r;
        pascal_error err{};
        o.refs_path = refs.c_str();
        o.device_path = dev.c_str();
        o.out_path = model.c_str();
        ASSERT_EQ(pascal_calibrate_run(&o, &r, &err), 0) << err.msg;
        pascal_calibrate_result_free(&r);
    }
    static void TearDownTestSuite() { pascal_test::remove_dir(dir); }

    std::string write(const std::string &name, const std::string &text)
    {
        return pascal_test::write_file(dir, name, text);
    }
    std::string load_bad(const std::string &name, const std::string &text)
    {
        pascal_spec *s = nullptr;
        pascal_error err{};
        std::string p = write(name, text);
        EXPECT_EQ(pascal_spec_load(p.c_str(), &s, &err), PASCAL_EINPUT) << text;
        EXPECT_EQ(s, nullptr);
        pascal_spec_free(s);
        return std::string(err.msg).substr(dir.size() + 1); // drop the folder
    }
    pascal_spec *load_ok(const std::string &name, const std::string &text)
    {
        pascal_spec *s = nullptr;
        pascal_error err{};
        std::string p = write(name, text);
        EXPECT_EQ(pascal_spec_load(p.c_str(), &s, &err), 0) << err.msg;
        return s;
    }
    static std::vector<double> column(const std::string &file, const char *group, const char *name)
    {
        double *v = nullptr;
        int64_t n = 0;
        pascal_error err{};
        EXPECT_EQ(pascal_h5_read_column(file.c_str(), group, name, &v, &n, &err), 0) << err.msg;
        std::vector<double> out(v, v + n);
        free(v);
        return out;
    }
};
std::string SpecDynamic::dir, SpecDynamic::model;

const std::string kDevice = "device: " + kSrc + "/configs/devices/gb10.yaml\n";

TEST_F(SpecDynamic, ParsesCalibrationAndTheNewParameters)
{
    pascal_spec *s = load_ok("ok.yaml", "name: d\n" + kDevice +
                                            "models: [dynamic]\n"
                                            "calibration: model.h5\n"
                                            "fixed: {block_bytes: 16KiB, N: 4096, compute: 40, W: 32.5}\n"
                                            "axes:\n"
                                            "  occupancy: [1, 2]\n"
                                            "  path: [tma, sync]\n");
    ASSERT_NE(s, nullptr);
    int line, col;
    EXPECT_EQ(std::string(pascal_spec_calibration(s, &line, &col)), model);
    EXPECT_EQ(line, 4);
    EXPECT_EQ(col, 14);
    const pascal_axis *ax = pascal_spec_axis(s, 1);
    ASSERT_EQ(ax->param, PASCAL_P_PATH);
    EXPECT_EQ(ax->values[0], 1.0);
    EXPECT_EQ(ax->values[1], 0.0);
    EXPECT_EQ(pascal_spec_fixed(s)->v[PASCAL_P_COMPUTE], 40.0);
    EXPECT_EQ(pascal_spec_fixed(s)->v[PASCAL_P_W], 32.5);
    EXPECT_EQ(pascal_spec_ncolumns(s), 8);
    EXPECT_EQ(pascal_spec_columns(s)[0], PASCAL_COL_K_DYN);
    EXPECT_EQ(pascal_spec_columns(s)[7], PASCAL_COL_CLAMP_DEPTH);
    pascal_spec_free(s);
}

TEST_F(SpecDynamic, BadSpecsNameTheKey)
{
    const std::string head = "name: d\n" + kDevice; // lines 1-2
    const std::string fixed = "fixed: {block_bytes: 16KiB, N: 4096, compute: 4, W: 8, path: tma}\n";
    EXPECT_PREFIX(load_bad("a.yaml", head + "models: [dynamic]\n" + fixed + "axes: {occupancy: [1]}\n"),
                  "a.yaml:3:9: models: model dynamic needs a calibration: expected a top-level key "
                  "calibration: MODEL.h5 (from pascal calibrate), got none");
    EXPECT_PREFIX(load_bad("b.yaml", head + "models: [ttl]\ncalibration: model.h5\n" + fixed +
                                         "axes: {occupancy: [1]}\n"),
                  "b.yaml:4:14: calibration: expected model dynamic in models to use this calibration");
    EXPECT_PREFIX(load_bad("c.yaml", head + "models: [dynamic]\ncalibration: nope.h5\n" + fixed +
                                         "axes: {occupancy: [1]}\n"),
                  "c.yaml:4:14: calibration: expected a readable calibration file, got \"" + dir +
                      "/nope.h5\" (No such file or directory)");
    EXPECT_PREFIX(load_bad("d.yaml", head + "models: [dynamic]\ncalibration: [a, b]\n" + fixed +
                                         "axes: {occupancy: [1]}\n"),
                  "d.yaml:4:14: calibration: expected a calibration file path, got a list");
    const std::string cal = "models: [dynamic]\ncalibration: model.h5\n"; // lines 3-4
    EXPECT_PREFIX(load_bad("e.yaml", head + cal + "fixed: {block_bytes: 16KiB, N: 4096, compute: 4, W: 8}\n"
                                                  "axes: {occupancy: [1], path: [sync, ldg]}\n"),
                  "e.yaml:6:37: axes.path[1]: expected a load path (sync, tma), got \"ldg\"");
    EXPECT_PREFIX(load_bad("f.yaml", head + cal + "fixed: {block_bytes: 16KiB, N: 4096, compute: 4, W: 8}\n"
                                                  "axes: {occupancy: [1], path: {from: 0, to: 1, step: 1}}\n"),
                  "f.yaml:6:30: axes.path: expected a list of load paths (sync, tma), got a range");
    EXPECT_PREFIX(load_bad("g.yaml", head + cal + "fixed: {block_bytes: 16KiB, N: 4096, compute: -1, W: 8}\n"
                                                  "axes: {occupancy: [1], path: [tma]}\n"),
                  "g.yaml:5:47: fixed.compute: expected a non-negative integer, got -1");
    EXPECT_PREFIX(load_bad("h.yaml", head + cal + "fixed: {block_bytes: 16KiB, N: 4096, compute: 1, W: 0}\n"
                                                  "axes: {occupancy: [1], path: [tma]}\n"),
                  "h.yaml:5:53: fixed.W: expected a positive number, got 0");
    EXPECT_PREFIX(load_bad("i.yaml", head + cal + "fixed: {block_bytes: 16KiB, N: 4096, compute: 1}\n"
                                                  "axes: {occupancy: [1], path: [tma]}\n"),
                  "i.yaml:3:10: models[0]: model dynamic needs W: expected W (a positive number) in fixed "
                  "or axes, got none");
}

// A sweep mixing the dynamic model with ttl over occupancy, path, depth,
// compute, N and W.  Occupancy 8 on the TMA path needs 8 x 2 or 4 stages
// of 16 KiB, more shared memory than an SM has: those points are skipped.
std::string sweep_text(const std::string &extra_axes = "")
{
    return "name: mixed\n" + kDevice +
           "models: [ttl, dynamic]\n"
           "calibration: model.h5\n"
           "fixed: {block_bytes: 16KiB}\n"
           "axes:\n"
           "  occupancy: [1, 2, 8]\n"
           "  path: [sync, tma]\n"
           "  depth: [2, 4]\n"
           "  compute: [0, 6, 13, 40]\n"
           "  N: [4096, 8192]\n"
           "  W: [1, 7.5, 200]\n" +
           extra_axes + "infeasible: skip\n";
}

TEST_F(SpecDynamic, SweepColumnsMatchDirectPredictions)
{
    pascal_spec *s = load_ok("mixed.yaml", sweep_text());
    ASSERT_NE(s, nullptr);
    std::string out = dir + "/mixed.h5";
    pascal_run_opts o{};
    pascal_run_stats st;
    pascal_error err{};
    o.out_path = out.c_str();
    o.compression = -1;
    o.threads = 2;
    ASSERT_EQ(pascal_run(s, &o, &st, &err), 0) << err.msg;
    pascal_dyn_model *m = nullptr;
    ASSERT_EQ(pascal_calibrate_load(model.c_str(), &m, nullptr, &err), 0) << err.msg;
    auto occ = column(out, "points", "occupancy"), path = column(out, "points", "path");
    auto depth = column(out, "points", "depth"), comp = column(out, "points", "compute");
    auto N = column(out, "points", "N"), W = column(out, "points", "W"), M = column(out, "points", "M");
    auto K = column(out, "results", "K_dyn"), rho = column(out, "results", "rho_dyn");
    auto lo = column(out, "results", "band_lo"), hi = column(out, "results", "band_hi");
    auto fb = column(out, "results", "fallback"), kttl = column(out, "results", "K_ttl");
    ASSERT_EQ(K.size(), 3u * 2 * 2 * 4 * 2 * 3 - 2 * 4 * 2 * 3);
    int unsupported = 0;
    for (size_t i = 0; i < K.size(); i++) {
        EXPECT_EQ(M[i], 48 * occ[i]);
        EXPECT_TRUE(path[i] == 0 || occ[i] * depth[i] * 16384 <= 233472) << i;   // it fits
        EXPECT_EQ(kttl[i], 1.0); // aligned phases: one fill per round (static model)
        // sync ignores depth: its key is d = 0.
        pascal_dyn_query q = {(int64_t)occ[i], (int)path[i], path[i] == 1 ? (int64_t)depth[i] : 0,
                              (int64_t)comp[i], N[i], W[i], M[i]};
        pascal_dyn_pred p;
        pascal_dyn_predict(m, &q, &p);
        EXPECT_EQ(fb[i], (double)p.code) << i;
        if (p.code >= PASCAL_DYN_UNSUPPORTED) {
            EXPECT_EQ(occ[i], 8.0); // no o = 8 reference: rejected, never extrapolated
            EXPECT_EQ(fb[i], (double)PASCAL_DYN_ERR_FAMILY);
            EXPECT_TRUE(std::isnan(K[i]) && std::isnan(rho[i]) && std::isnan(lo[i]) && std::isnan(hi[i]));
            unsupported++;
            continue;
        }
        EXPECT_EQ(K[i], p.K);
        EXPECT_EQ(rho[i], K[i] / M[i]);
        EXPECT_LT(lo[i], rho[i]);
        EXPECT_GT(hi[i], rho[i]);
    }
    EXPECT_EQ(unsupported, 2 * 4 * 2 * 3);   // o = 8 on the sync path
    // The path column is an enum: sync and tma by name.
    char *attr = nullptr;
    ASSERT_EQ(pascal_h5_read_attr_alloc(out.c_str(), "calibration", &attr, &err), 0) << err.msg;
    EXPECT_EQ(std::string(attr), model);
    free(attr);
    pascal_dyn_model_free(m);
    pascal_spec_free(s);
}

// Held answers carry the nearest calibrated values as columns; with
// `extrapolation: nan` they become NaN with code 15.
TEST_F(SpecDynamic, HeldPointsSayWhereAndExtrapolationNanRefusesThem)
{
    std::string body = "models: [dynamic]\ncalibration: model.h5\n"
                       "fixed: {block_bytes: 16KiB, N: 4096, path: tma, depth: 3, occupancy: 2}\n"
                       "axes:\n  compute: [8, 40]\n  W: [0.25, 32, 1000]\n";
    std::string out[2] = {dir + "/hold.h5", dir + "/nan.h5"};
    for (int k = 0; k < 2; k++) {
        pascal_spec *s = load_ok("x.yaml", "name: x\n" + kDevice + body + (k ? "extrapolation: nan\n" : ""));
        ASSERT_NE(s, nullptr);
        pascal_run_opts o{};
        pascal_run_stats st;
        pascal_error err{};
        o.out_path = out[k].c_str();
        o.compression = -1;
        ASSERT_EQ(pascal_run(s, &o, &st, &err), 0) << err.msg;
        pascal_spec_free(s);
    }
    auto comp = column(out[0], "points", "compute"), W = column(out[0], "points", "W");
    auto cx = column(out[0], "results", "clamp_x"), cm = column(out[0], "results", "clamp_compute");
    auto cd = column(out[0], "results", "clamp_depth"), K = column(out[0], "results", "K_dyn");
    auto Kn = column(out[1], "results", "K_dyn"), fbn = column(out[1], "results", "fallback");
    ASSERT_EQ(K.size(), 6u);
    for (size_t i = 0; i < K.size(); i++) {
        // x = W: the synthetic references span 1 to 128; compute 40 is past
        // the last class-0 reference, 32; depth 3 has references.
        double want_x = W[i] < 1 ? 1 : W[i] > 128 ? 128 : NAN, want_m = comp[i] == 40 ? 32 : NAN;
        EXPECT_TRUE(std::isnan(want_x) ? std::isnan(cx[i]) : cx[i] == want_x) << i << " " << cx[i];
        EXPECT_TRUE(std::isnan(want_m) ? std::isnan(cm[i]) : cm[i] == want_m) << i << " " << cm[i];
        EXPECT_TRUE(std::isnan(cd[i]));
        EXPECT_FALSE(std::isnan(K[i]));
        if (std::isnan(want_x) && std::isnan(want_m)) {
            EXPECT_EQ(Kn[i], K[i]);
        } else {
            EXPECT_TRUE(std::isnan(Kn[i]));
            EXPECT_EQ(fbn[i], (double)PASCAL_DYN_ERR_CLAMPED);
        }
    }
    EXPECT_PREFIX(load_bad("e.yaml", "name: x\n" + kDevice + body + "extrapolation: maybe\n"),
                  "e.yaml:9:16: extrapolation: expected hold (the paper's endpoint fallback) or nan, got \"maybe\"");
}

TEST_F(SpecDynamic, OtherDevicesAreRejectedPointByPoint)
{
    // A capacity axis: only C = 1280 (20 MiB of 16 KiB blocks) is the
    // calibration's device; the other capacities get code 13 and NaN.
    pascal_spec *s = load_ok("cap.yaml", "name: cap\n" + kDevice +
                                             "models: [dynamic]\n"
                                             "calibration: model.h5\n"
                                             "fixed: {block_bytes: 16KiB, N: 4096, path: tma, depth: 3, compute: 8, W: 16}\n"
                                             "axes:\n"
                                             "  occupancy: [1, 2]\n"
                                             "  capacity_bytes: [16MiB, 20MiB, 24MiB]\n");
    ASSERT_NE(s, nullptr);
    std::string out = dir + "/cap.h5";
    pascal_run_opts o{};
    pascal_run_stats st;
    pascal_error err{};
    o.out_path = out.c_str();
    o.compression = -1;
    ASSERT_EQ(pascal_run(s, &o, &st, &err), 0) << err.msg;
    auto C = column(out, "points", "C"), K = column(out, "results", "K_dyn");
    auto fb = column(out, "results", "fallback");
    ASSERT_EQ(K.size(), 6u);
    for (size_t i = 0; i < K.size(); i++) {
        if (C[i] == 1280) {
            EXPECT_FALSE(std::isnan(K[i]));
            EXPECT_LT(fb[i], 10);
        } else {
            EXPECT_TRUE(std::isnan(K[i]));
            EXPECT_EQ(fb[i], (double)PASCAL_DYN_ERR_DEVICE);
        }
    }
    pascal_spec_free(s);
}

TEST_F(SpecDynamic, OneAndTwoThreadsWriteTheSameColumns)
{
    pascal_spec *s = load_ok("det.yaml", sweep_text());
    ASSERT_NE(s, nullptr);
    std::string a = dir + "/det1.h5", b = dir + "/det2.h5";
    for (int t = 1; t <= 2; t++) {
        pascal_run_opts o{};
        pascal_run_stats st;
        pascal_error err{};
        o.out_path = t == 1 ? a.c_str() : b.c_str();
        o.compression = -1;
        o.threads = t;
        o.batch_points = 37; // many batches, split differently across threads
        ASSERT_EQ(pascal_run(s, &o, &st, &err), 0) << err.msg;
    }
    for (const char *c : {"K_dyn", "rho_dyn", "band_lo", "band_hi", "fallback"}) {
        auto x = column(a, "results", c), y = column(b, "results", c);
        ASSERT_EQ(x.size(), y.size());
        EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size() * sizeof(double)), 0) << c;
    }
    pascal_spec_free(s);
}

TEST_F(SpecDynamic, BadCalibrationFileStopsTheRunBeforeAnyOutput)
{
    // The file exists (the spec parses) but is not a calibration.
    write("notmodel.h5", "o,path,d,m,N,W,K\n");
    std::string text = sweep_text();
    text.replace(text.find("calibration: model.h5"), 21, "calibration: notmodel.h5");
    pascal_spec *s = load_ok("badcal.yaml", text);
    ASSERT_NE(s, nullptr);
    std::string out = dir + "/badcal.h5";
    pascal_run_opts o{};
    pascal_run_stats st;
    pascal_error err{};
    o.out_path = out.c_str();
    o.compression = -1;
    EXPECT_EQ(pascal_run(s, &o, &st, &err), PASCAL_EINPUT);
    EXPECT_PREFIX(err.msg, dir + "/badcal.yaml:4:14: calibration: " + dir +
                               "/notmodel.h5: expected a pascal calibration file, got a file that is not HDF5");
    struct stat sb;
    EXPECT_NE(stat(out.c_str(), &sb), 0);
    pascal_spec_free(s);
}

} // namespace
