// `pascal calibrate` and `pascal predict` as a user runs them: summaries,
// the cross-validation table, the JSON object, exit codes, and that bad
// input creates or overwrites no file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>

#include "test_util.h"

namespace {

const std::string kSrc = PASCAL_SOURCE_DIR;
const std::string kRefs = kSrc + "/configs/calibration/synthetic-gb10-refs.csv";
const std::string kGb10 = kSrc + "/configs/devices/gb10.yaml";

using pascal_test::exists;
using pascal_test::slurp;
using Result = pascal_test::CliResult;

// One calibrated model and one directory for the whole suite.
class DynamicCli : public ::testing::Test {
protected:
    static std::string dir, model;
    static void SetUpTestSuite()
    {
        dir = pascal_test::make_temp_dir();
        model = dir + "/model.h5";
        ASSERT_EQ(run("calibrate " + kRefs + " --device " + kGb10 + " -o " + model).status, 0);
    }
    static void TearDownTestSuite() { pascal_test::remove_dir(dir); }
    static Result run(const std::string &args) { return pascal_test::run_cli(dir, args); }
};
std::string DynamicCli::dir, DynamicCli::model;

using pascal_test::json_num;
using pascal_test::json_str;

TEST_F(DynamicCli, CalibrateSummary)
{
    Result r = run("calibrate " + kRefs + " --device " + kGb10 + " -o " + dir + "/m2.h5");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("pascal calibrate: 4242 runs, 110 keys in 11 families"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("device NVIDIA GB10: sms 48, C 1280 blocks of 16KiB"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("leave-one-key-out: 110 keys"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("best:"), std::string::npos) << "the table needs --cv";
    EXPECT_TRUE(exists(dir + "/m2.h5"));
}

// A reference file says in its header what it was measured at ("# sms: 48,
// C: 320 blocks of 65536 bytes"): calibrate fits at that, not at the
// profile's L2 in 16 KiB blocks (it said "C 1280 blocks of 16KiB" for a
// file made at 320 blocks of 64 KiB), and refuses a flag or profile the
// header contradicts, naming the line.
TEST_F(DynamicCli, CalibrateTakesTheBlockSizeOfTheReferenceHeader)
{
    std::string text = slurp(kSrc + "/configs/calibration/simulated-gb10-refs.csv");
    const std::string was = "C: 1280 blocks of 16384 bytes";
    ASSERT_NE(text.find(was), std::string::npos);
    std::string refs = dir + "/r64.csv";
    std::ofstream(refs) << text.replace(text.find(was), was.size(), "C: 320 blocks of 65536 bytes");
    Result r = run("calibrate " + refs + " --device " + kGb10 + " -o " + dir + "/m64.h5");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("device NVIDIA GB10: sms 48, C 320 blocks of 64KiB"), std::string::npos) << r.out;
    struct Case {
        std::string flags, says;
    } cases[] = {
        {" --device " + kGb10 + " --block-bytes 16KiB", "r64.csv:4: expected references measured at "
         "the block size --block-bytes gives (16384), got 65536 in the file's header"},
        {" --device " + kSrc + "/configs/devices/h200.yaml", "r64.csv:4: expected references measured "
         "at the SM count the device profile gives (132), got 48"},
        {" --device " + kGb10 + " --C 1280", "r64.csv:4: expected references measured at the "
         "capacity in blocks --C gives (1280), got 320"},
    };
    for (const Case &c : cases) {
        Result bad = run("calibrate " + refs + c.flags + " -o " + dir + "/bad.h5");
        EXPECT_EQ(bad.status, 2) << c.flags;
        EXPECT_NE(bad.err.find(c.says), std::string::npos) << bad.err;
        EXPECT_FALSE(exists(dir + "/bad.h5"));
    }
}

TEST_F(DynamicCli, CalibrateCvPrintsTheTableWithBaselines)
{
    Result r = run("calibrate " + kRefs + " --device " + kGb10 + " -o " + dir + "/m3.h5 --cv");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("pascal  aligned  nearest      knn    ridge"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("overall, keys PASCAL predicts"), std::string::npos);
    EXPECT_NE(r.out.find("best: pascal"), std::string::npos) << r.out;
    // One row per key: "  2 tma   3   32 ..."
    EXPECT_TRUE(std::regex_search(r.out, std::regex("\n +2 tma +3 +32 +36 ")));
    // The split by rule, the keys across a regime among the fallbacks, and
    // as many keys in the rows of each rule as the split counts.
    std::smatch m;
    for (const char *rule : {"fallback keys", "of them across a regime"}) {
        ASSERT_TRUE(std::regex_search(r.out, m, std::regex(std::string(rule) + " \\(([0-9]+)\\)")))
            << rule << "\n" << r.out;
        int n = std::stoi(m[1]), rows = 0;
        std::regex row(std::string("\n +[0-9]+ (sync|tma) .*  (") +
                       (rule[0] == 'f' ? "compute|depth|regime" : "regime") + ")(?=\n)");
        for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), row); it != std::sregex_iterator(); ++it)
            rows++;
        EXPECT_EQ(rows, n) << rule;
    }
}

// Outside the calibrated range the answer says where it is held; with
// --extrapolation nan it is refused (null, fallback "clamped", exit 0).
TEST_F(DynamicCli, PredictSaysHowFarOutsideAndCanRefuse)
{
    // The synthetic references span x = W N / 4096 from 1 to 128; compute
    // 40 is beyond the last class-0 reference of (o 2, tma, d 3), 32.
    Result r = run("predict --model " + model + " --o 2 --path tma --d 3 --m 40 --N 8192 --W 0.25 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(json_num(r.out, "clamp_x"), 1.0) << r.out;
    EXPECT_EQ(json_num(r.out, "clamp_W"), 0.5) << r.out;
    EXPECT_EQ(json_num(r.out, "clamp_compute"), 32.0) << r.out;
    EXPECT_TRUE(std::isnan(json_num(r.out, "clamp_depth"))) << r.out;
    double K = json_num(r.out, "K");
    EXPECT_TRUE(K > 0) << r.out;
    r = run("predict --model " + model + " --o 2 --path tma --d 3 --m 32 --N 4096 --W 32 --json");
    for (const char *k : {"clamp_x", "clamp_W", "clamp_compute", "clamp_depth"})
        EXPECT_TRUE(std::isnan(json_num(r.out, k))) << k << ": " << r.out;
    r = run("predict --model " + model + " --o 2 --path tma --d 3 --m 40 --N 8192 --W 0.25 --json "
            "--extrapolation nan");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(std::isnan(json_num(r.out, "K")));
    EXPECT_EQ(json_str(r.out, "fallback"), "\"clamped\"");
    EXPECT_EQ(json_num(r.out, "clamp_x"), 1.0);
    // Inside the range nothing changes.
    Result a = run("predict --model " + model + " --o 2 --path tma --d 3 --m 32 --N 4096 --W 32 --json");
    Result b = run("predict --model " + model + " --o 2 --path tma --d 3 --m 32 --N 4096 --W 32 --json "
                   "--extrapolation nan");
    EXPECT_EQ(a.out, b.out);
    r = run("predict --model " + model + " --o 2 --path tma --d 3 --m 40 --N 8192 --W 0.25");
    EXPECT_NE(r.out.find("held: the horizon x = W N / 4096 = 0.5 lies outside the references; the value at "
                         "x = 1 (W = 0.5 at N = 8192) is held"), std::string::npos) << r.out;
    r = run("predict --model " + model + " --o 2 --path tma --d 3 --m 32 --N 4096 --W 32 --extrapolation no");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal predict: --extrapolation: expected hold or nan, got \"no\"\n");
}

TEST_F(DynamicCli, PredictJsonAtAReferenceHorizon)
{
    // o 2, tma, d 3, m 40: class 0, beyond the family's last class-0 compute
    // (32), so the m = 32 curve; at x = 32 that curve passes through the
    // geometric mean of the six runs at x = 32 (N 4096 W 32, N 8192 W 16).
    Result r = run("predict --model " + model + " --o 2 --path tma --d 3 --m 40 --N 4096 --W 32 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream f(kRefs);
    std::string line;
    double s = 0;
    int n = 0;
    while (std::getline(f, line)) {
        int o, d, m, N;
        double W, K;
        char path[8];
        if (std::sscanf(line.c_str(), "%d,%7[a-z],%d,%d,%d,%lf,%lf", &o, path, &d, &m, &N, &W, &K) == 7 &&
            o == 2 && std::string(path) == "tma" && d == 3 && m == 32 && W * N == 32 * 4096)
            s += std::log(K), n++;
    }
    ASSERT_EQ(n, 6);
    double K = json_num(r.out, "K"), rho = json_num(r.out, "rho");
    EXPECT_NEAR(K, std::exp(s / n), 1e-9);
    EXPECT_NEAR(rho, K / 96, 1e-15);
    EXPECT_LT(json_num(r.out, "band_lo"), rho);
    EXPECT_GT(json_num(r.out, "band_hi"), rho);
    EXPECT_EQ(json_num(r.out, "class"), 0);
    // m 40 is held at m 32, the last class-0 key; the keys around it (m 32
    // and m 41) agree with that within a factor 1.25: a plain compute
    // fallback, no K_alt.
    EXPECT_EQ(json_str(r.out, "fallback"), "\"compute\"");
    EXPECT_TRUE(std::isnan(json_num(r.out, "K_alt"))) << r.out;
    EXPECT_EQ(json_str(r.out, "error"), "null");
}

TEST_F(DynamicCli, PredictReportsUnsupportedFamilies)
{
    Result r = run("predict --model " + model + " --o 8 --path tma --d 3 --m 40 --N 4096 --W 32 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(std::isnan(json_num(r.out, "K")));
    EXPECT_EQ(json_str(r.out, "fallback"), "\"family\"");
    EXPECT_NE(json_str(r.out, "error").find("no reference with occupancy 8 on the tma path"),
              std::string::npos) << r.out;
    r = run("predict --model " + model + " --o 8 --path tma --d 3 --m 40 --N 4096 --W 32");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("no prediction: unsupported family"), std::string::npos) << r.out;
    r = run("predict --model " + model + " --o 1 --path sync --m 13 --N 4096 --W 8");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("rho = K / M = "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("class 1 (m mod 4 = 1); rule: "), std::string::npos) << r.out;
}

TEST_F(DynamicCli, PredictBadFlagsExitTwo)
{
    std::string base = "predict --model " + model + " --o 2 --N 4096 --W 32 --m 8 ";
    Result r = run(base + "--path ldg");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal predict: --path: expected sync or tma, got \"ldg\"\n");
    r = run(base + "--path sync --d 3");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal predict: --d: expected 0 for the sync path (no prefetch pipeline), got \"3\"\n");
    r = run(base + "--path tma");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal predict: --d: expected a depth >= 1 for the tma path, got nothing\n");
    r = run("predict --o 2 --path tma --d 2 --m 8 --N 4096 --W 32");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("pascal predict: --model: expected a calibration file", 0), 0u) << r.err;
    r = run(base + "--path tma --d 2 --W 0");
    EXPECT_EQ(r.status, 2);
    r = run("predict --model " + dir + "/none.h5 --o 2 --path tma --d 2 --m 8 --N 4096 --W 32");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("pascal predict: --model: cannot open " + dir + "/none.h5", 0), 0u) << r.err;
}

TEST_F(DynamicCli, CalibrateBadInputCreatesAndOverwritesNothing)
{
    std::string bad = dir + "/bad.csv", out = dir + "/keep.h5";
    std::ofstream(bad) << "o,path,d,m,N,W,K\n1,tma,2,8,4096,4,1.5\n1,tma,2,8,4096,four,1.5\n";
    std::ofstream(out) << "precious";
    Result r = run("calibrate " + bad + " --device " + kGb10 + " -o " + out);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, bad + ":3:16: W: expected a positive number, got \"four\"\n");
    EXPECT_EQ(slurp(out), "precious");
    r = run("calibrate " + bad + " --device " + kGb10 + " -o " + dir + "/new.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_FALSE(exists(dir + "/new.h5"));
    r = run("calibrate " + kRefs + " -o " + dir + "/new.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal calibrate: --device: expected a device profile (or --sms with --C), got nothing\n");
    r = run("calibrate " + kRefs + " --device " + kGb10);
    EXPECT_EQ(r.status, 2);
    r = run("calibrate " + kRefs + " --device " + kGb10 + " -o " + dir + "/no/dir/m.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind(dir + "/no/dir/m.h5: cannot write: No such file", 0), 0u) << r.err;
    // Device facts by flags: sms 48 with a K above M = 48 * 1 is rejected.
    std::ofstream(bad) << "o,path,d,m,N,W,K\n1,tma,2,8,4096,4,50\n";
    r = run("calibrate " + bad + " --sms 48 --C 1280 -o " + dir + "/new.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind(bad + ":2:18: K: expected at most M = sms * o = 48 * 1 = 48", 0), 0u) << r.err;
    EXPECT_FALSE(exists(dir + "/new.h5"));
}

TEST_F(DynamicCli, SweepWithTheDynamicModel)
{
    std::string spec = dir + "/sweep.yaml";
    std::ofstream(spec) << "name: dyn\ndevice: " + kGb10 +
                               "\nmodels: [dynamic]\ncalibration: model.h5\n"
                               "fixed: {block_bytes: 16KiB, N: 4096}\n"
                               "axes:\n  occupancy: [1, 2]\n  path: [sync, tma]\n  depth: [3]\n"
                               "  compute: [0, 9, 40]\n  W: [4, 64]\n";
    Result r = run("run " + spec + " -o " + dir + "/sweep.csv --format csv");
    ASSERT_EQ(r.status, 0) << r.err;
    std::string csv = slurp(dir + "/sweep.csv");
    EXPECT_EQ(csv.rfind("occupancy,path,compute,W,depth,N,M,C,K_dyn,rho_dyn,band_lo,band_hi,fallback,clamp_x,"
                        "clamp_compute,clamp_depth\n", 0), 0u)
        << csv;
    EXPECT_NE(csv.find("\n2,tma,40,64,3,4096,96,1280,"), std::string::npos) << csv;
}

} // namespace
