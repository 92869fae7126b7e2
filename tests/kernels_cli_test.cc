// The measuring commands on a machine without a usable GPU: capacity-scan,
// spotcheck and measure-refs each say why and exit 2, creating or touching
// no output (CUDA_VISIBLE_DEVICES is emptied, so this holds on a GPU machine
// too, and in builds without CUDA the stub answers).  Dry runs and flag
// errors work everywhere.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "spot/spot.h"
#include "test_util.h"

namespace {

using pascal_test::exists;
using pascal_test::slurp;
using Result = pascal_test::CliResult;

class KernelsCli : public pascal_test::TempDirTest {
protected:
    // pascal ARGS with no visible CUDA device.
    Result run(const std::string &args)
    {
        return pascal_test::run_command(dir, "CUDA_VISIBLE_DEVICES= PASCAL_NCU_CHILD= " +
                                                 std::string(PASCAL_CLI) + " " + args);
    }
    static std::string spec(const char *name)
    {
        return std::string(PASCAL_SOURCE_DIR) + "/configs/" + name;
    }
    std::vector<std::string> files()
    {
        std::vector<std::string> out;
        std::string r = slurp_cmd("ls " + dir);
        std::stringstream ss(r);
        std::string line;
        while (std::getline(ss, line))
            if (line != "stdout" && line != "stderr")
                out.push_back(line);
        return out;
    }
    std::string slurp_cmd(const std::string &cmd)
    {
        std::string path = dir + "/.ls";
        std::system((cmd + " >" + path).c_str());
        std::string s = slurp(path);
        unlink(path.c_str());
        return s;
    }
};

bool says_unavailable(const std::string &err)
{
    return err.find("no CUDA device available") != std::string::npos ||
           err.find("built without CUDA support") != std::string::npos;
}

TEST_F(KernelsCli, NoGpuMeansExitTwoAndNoOutput)
{
    const std::string cmds[] = {
        "capacity-scan --device auto -o " + dir + "/cap.h5",
        "spotcheck " + spec("paper-static-clusters.yaml") + " --sample 20 --seed 1 -o " + dir +
            "/spot.h5",
        "spotcheck " + spec("paper-static-clusters.yaml") + " --select 0,5-7 -o " + dir +
            "/spot.h5",
        "measure-refs -o " + dir + "/refs.csv",
    };
    for (const auto &c : cmds) {
        Result r = run(c);
        EXPECT_EQ(r.status, 2) << c << "\n" << r.err;
        EXPECT_TRUE(says_unavailable(r.err)) << r.err;
        EXPECT_EQ(r.out, "") << "no numbers without a GPU: " << r.out;
        EXPECT_TRUE(files().empty()) << c;
    }
    // An existing file stays byte-identical.
    std::ofstream(dir + "/spot.h5") << "keep me";
    Result r = run("spotcheck " + spec("paper-static-clusters.yaml") + " --sample 3 -o " + dir +
                   "/spot.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(slurp(dir + "/spot.h5"), "keep me");
}

TEST_F(KernelsCli, SpotcheckDryRunShowsTheSampleAndPredictions)
{
    // paper-static-clusters: 3 block sizes x 11 cluster counts, clusters
    // fastest; N = 8192 > C, so K_ttl = k for k equal clusters.
    const int64_t k_of[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48};
    int64_t want[5];
    pascal_error err = {};
    ASSERT_EQ(pascal_spot_sample(33, 5, 7, want, &err), 0);
    Result r = run("spotcheck " + spec("paper-static-clusters.yaml") + " --sample 5 --seed 7 "
                   "--dry-run");
    ASSERT_EQ(r.status, 0) << r.err;
    std::regex line(R"(^\s+(\d+)\s+8192\s+48\s+(\d+)\s+(\d+)\s+(\S+)\s)");
    std::stringstream ss(r.out);
    std::string l;
    int i = 0;
    while (std::getline(ss, l)) {
        std::smatch m;
        if (!std::regex_search(l, m, line))
            continue;
        ASSERT_LT(i, 5);
        int64_t ord = std::stoll(m[1]), b = std::stoll(m[3]);
        EXPECT_EQ(ord, want[i]);
        EXPECT_EQ(b, 4096 << (ord / 11));
        EXPECT_EQ(std::stoll(m[2]), (20 << 20) / b);
        EXPECT_EQ(std::stod(m[4]), (double)k_of[ord % 11]) << l;
        i++;
    }
    EXPECT_EQ(i, 5) << r.out;
}

TEST_F(KernelsCli, OtherDryRuns)
{
    Result r = run("capacity-scan --from 4MiB --to 8MiB --num 5 --dry-run");
    ASSERT_EQ(r.status, 0) << r.err;
    for (double v : {4194304.0, 5242880.0, 6291456.0, 7340032.0, 8388608.0})
        EXPECT_NE(r.out.find(std::to_string((long long)v) + " bytes"), std::string::npos) << v;
    r = run("measure-refs --dry-run");
    ASSERT_EQ(r.status, 0) << r.err;
    // o in {1,2}; sync: m in {0,8} x W in {1,4}; tma adds d in {2,4}.
    EXPECT_NE(r.out.find("24 configurations x 2 repetitions"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  1,sync,0,8,4096,4\n"), std::string::npos);
    EXPECT_NE(r.out.find("  2,tma,4,0,4096,1\n"), std::string::npos);
    r = run("measure-refs --dry-run --path tma --occupancy 1 --depth 3 --compute 40 --W 32");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("1 configurations"), std::string::npos);
    EXPECT_NE(r.out.find("  1,tma,3,40,4096,32\n"), std::string::npos);
}

TEST_F(KernelsCli, BadFlagsExitTwoWithTheReason)
{
    std::string s = spec("paper-static-clusters.yaml"), o = " -o " + dir + "/x.h5";
    const struct {
        std::string args, prefix;
    } bad[] = {
        {"spotcheck " + s + o, "pascal spotcheck: expected one of --sample K or --select LIST, got neither"},
        {"spotcheck " + s + " --sample 2 --select 1" + o, "pascal spotcheck: expected one of --sample K or --select LIST, got both"},
        {"spotcheck " + s + " --select 40" + o, "pascal spotcheck: --select: expected point numbers below 33"},
        {"spotcheck " + s + " --sample 34" + o, "pascal spotcheck: --sample: expected a count from 1 to 33"},
        {"spotcheck " + s + " --sample 2 --start tepid" + o, "pascal spotcheck: --start: expected cold or warm"},
        {"spotcheck " + s + " --sample 2", "pascal spotcheck: -o/--output: expected an output path"},
        {"spotcheck " + s + " --sample 2 --rounds 0" + o, "pascal spotcheck: --rounds: expected an integer >= 1"},
        {"spotcheck " + dir + "/missing.yaml --sample 2" + o, "cannot read " + dir + "/missing.yaml"},
        {"capacity-scan --from 8MiB --to 4MiB --dry-run", "pascal capacity-scan: --from/--to: expected 0 < from < to"},
        {"capacity-scan --passes 1" + o, "pascal capacity-scan: --passes: expected an integer >= 2"},
        {"capacity-scan --threshold 0.5" + o, "pascal capacity-scan: --threshold: expected a number >= 1"},
        {"measure-refs --path dma" + o, "pascal measure-refs: --path: expected load paths (sync, tma), comma-separated"},
        {"measure-refs --occupancy 0" + o, "pascal measure-refs: --occupancy: expected integers >= 1"},
        {"measure-refs --depth 2,17" + o, "pascal measure-refs: --depth: expected TMA depths from 1 to 16, got 17"},
        {"measure-refs --block-bytes 100" + o, "pascal measure-refs: --block-bytes: expected a multiple of 16"},
        {"measure-refs --bogus 1" + o, "pascal measure-refs: unknown option --bogus"},
    };
    for (const auto &b : bad) {
        Result r = run(b.args);
        EXPECT_EQ(r.status, 2) << b.args << "\n" << r.err;
        EXPECT_EQ(r.err.rfind(b.prefix, 0), 0u) << b.args << "\n" << r.err;
        EXPECT_FALSE(exists(dir + "/x.h5"));
    }
}

}  // namespace
