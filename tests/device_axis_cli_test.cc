// A device axis (axes.device, docs/workloads.md section 9): each point
// takes its own profile's sms, L2, limits, rates and simulator timing, so
// a sweep over [h100, gb10] gives, row for row, what two specs of one
// device each give; infeasible points are refused or skipped by their own
// profile's limits; the summary and `size` answer per device; every
// misuse exits 2 naming the key.
#include <gtest/gtest.h>

#include "test_util.h"

#include <map>
#include <string>
#include <vector>

namespace {

class DeviceAxisCli : public pascal_test::TempDirTest {
protected:
    // GQA decode attention: 2 x 8 query heads over 2 KV heads, 64 steps of
    // 16 KiB tiles, on the TMA path with 3 stages.
    std::string body(const std::string &models, const std::string &fixed)
    {
        return "models: [" + models + "]\nworkload:\n  attention: {batch: 2, q_heads: 8, kv_heads: 2, "
               "seq_q: 1, seq_kv: 4096, head_dim: 128, dtype: bf16, tile_q: 64, tile_kv: 64}\n"
               "fixed: {occupancy: 1, path: tma, depth: 3, compute: 0, pattern: gaussian, sigma: 2, "
               "band_seeds: 2" + fixed + "}\n";
    }
    const std::string caps = "  capacity_bytes: [256KiB, 1MiB, 4MiB]\n";
};

TEST_F(DeviceAxisCli, EachPointIsWhatItsProfileAloneGives)
{
    const std::string models = "workload, traffic, lru_replay, simulate";
    std::string both = write("both.yaml", "name: both\n" + body(models, "") +
                                              "axes:\n  device: [h100, gb10]\n" + caps);
    auto r = run("run " + both + " -o " + dir + "/both.csv --format csv");
    ASSERT_EQ(r.status, 0) << r.err;
    // The summary sizes per device.
    EXPECT_NE(r.out.find("device h100 needs "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("device gb10 needs "), std::string::npos) << r.out;
    std::map<std::string, std::vector<std::map<std::string, std::string>>> by;
    for (auto &row : pascal_test::read_csv(dir + "/both.csv"))
        by[row["device"]].push_back(row);
    ASSERT_EQ(by.size(), 2u);
    const std::map<std::string, std::string> sms = {{"h100", "132"}, {"gb10", "48"}};
    for (auto &[dev, rows] : by) {
        std::string one = write(dev + ".yaml", "name: " + dev + "\ndevice: " + dev + "\n" + body(models, "") +
                                                   "axes:\n" + caps);
        auto s = run("run " + one + " -o " + dir + "/" + dev + ".csv --format csv");
        ASSERT_EQ(s.status, 0) << s.err;
        auto alone = pascal_test::read_csv(dir + "/" + dev + ".csv");
        ASSERT_EQ(alone.size(), rows.size()) << dev;
        for (size_t i = 0; i < rows.size(); i++) {
            EXPECT_EQ(rows[i]["sms"], sms.at(dev));
            for (auto &[col, value] : alone[i])   // every column of the one-device run
                EXPECT_EQ(rows[i][col], value) << dev << " row " << i << " column " << col;
        }
    }
    // The simulator did run with each profile's timing: the chips differ.
    EXPECT_NE(by["h100"][0]["ns_per_round_sim"], by["gb10"][0]["ns_per_round_sim"]);
    EXPECT_NE(by["h100"][0]["time_dram_s"], by["gb10"][0]["time_dram_s"]);   // their DRAM rates

    // size answers per scenario, the device among its coordinates.
    auto z = run("size " + both);
    ASSERT_EQ(z.status, 0) << z.err;
    EXPECT_NE(z.out.find("device=h100"), std::string::npos) << z.out;
    EXPECT_NE(z.out.find("device=gb10"), std::string::npos) << z.out;
}

// Two profiles written here: one holds 1 resident CTA per SM, one 4.
TEST_F(DeviceAxisCli, EachPointMeetsItsOwnProfilesLimits)
{
    for (auto [name, ctas] : std::vector<std::pair<std::string, int>>{{"small", 1}, {"big", 4}})
        write(name + ".yaml", "name: test " + name + "\nsms: 8\nl2_bytes: 2MiB\nlimits:\n  ctas_per_sm: "
                              "{value: " + std::to_string(ctas) + ", source: \"assumed: a test profile\"}\n");
    const std::string models = "workload, traffic";
    const std::string axes = "axes:\n  device: [small.yaml, big.yaml]\n  occupancy: [1, 2]\n";
    std::string refuse = write("refuse.yaml", "name: r\n" + body(models, "") .replace(
                                                  body(models, "").find("occupancy: 1, "), 14, "") + axes);
    auto r = run("run " + refuse + " -o " + dir + "/r.csv");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("expected a point the device can run, got occupancy 2, more than the device's 1 "
                         "resident CTAs per SM"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("small.yaml: assumed: a test profile"), std::string::npos) << r.err;
    EXPECT_FALSE(pascal_test::exists(dir + "/r.csv"));

    std::string skip = write("skip.yaml", "name: s\ninfeasible: skip\n" + body(models, "").replace(
                                              body(models, "").find("occupancy: 1, "), 14, "") + axes);
    auto s = run("run " + skip + " -o " + dir + "/s.csv --format csv");
    ASSERT_EQ(s.status, 0) << s.err;
    auto rows = pascal_test::read_csv(dir + "/s.csv");
    ASSERT_EQ(rows.size(), 3u);   // small at occupancy 1; big at 1 and 2
    for (auto &row : rows) {
        EXPECT_TRUE(row["device"] == "big" || row["occupancy"] == "1") << row["device"];
        EXPECT_EQ(row["capacity_bytes"], "2097152");   // the profile's L2
        EXPECT_EQ(std::stod(row["M"]), 8 * std::stod(row["occupancy"]));
    }
}

// A where rule and simulate --at name a device as the axis does.
TEST_F(DeviceAxisCli, WhereAndAtNameTheAxissDevices)
{
    const std::string models = "workload, traffic, simulate";
    std::string spec = write("w.yaml", "name: w\n" + body(models, "") +
                                           "axes:\n  device: [h100, gb10]\n" + caps +
                                           "where: ['device == \"gb10\" || capacity_bytes == 1048576']\n");
    auto r = run("run " + spec + " -o " + dir + "/w.csv --format csv");
    ASSERT_EQ(r.status, 0) << r.err;
    auto rows = pascal_test::read_csv(dir + "/w.csv");
    ASSERT_EQ(rows.size(), 4u);   // gb10's three capacities and h100's 1 MiB
    for (auto &row : rows)
        EXPECT_TRUE(row["device"] == "gb10" || row["capacity_bytes"] == "1048576") << row["device"];
    auto at = run("simulate --spec " + spec + " --at device=h100");
    ASSERT_EQ(at.status, 0) << at.err;
    EXPECT_NE(at.out.find("simulated on NVIDIA H100"), std::string::npos) << at.out;
    auto bad = run("simulate --spec " + spec + " --at device=h300");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("expected a device of the spec's device axis (h100, gb10), got \"h300\""),
              std::string::npos) << bad.err;
    std::string wrong = write("x.yaml", "name: x\n" + body(models, "") + "axes:\n  device: [h100, gb10]\n" +
                                            caps + "where: ['device == \"h300\"']\n");
    auto w = run("run " + wrong + " -o " + dir + "/x.csv");
    EXPECT_EQ(w.status, 2);
    EXPECT_NE(w.err.find("expected a device of the spec's device axis (h100, gb10)"), std::string::npos) << w.err;
}

TEST_F(DeviceAxisCli, MisusesAreRefusedAtTheirKeys)
{
    const std::string models = "workload, traffic";
    struct bad {
        std::string text, where, msg;
    };
    std::vector<bad> cases = {
        {"name: b\ndevice: h100\n" + body(models, "") + "axes:\n  device: [h100, h200]\n", ":8:11: axes.device: ",
         "expected either a top-level device: or a device axis, got both"},
        {"name: b\n" + body(models, ", device: h100") + "axes:\n" + caps, "fixed.device: ",
         "expected one device as the top-level key device: PROFILE, or several as an axis"},
        {"name: b\n" + body(models, "") + "axes:\n  device: [h100, h100]\n", "axes.device[1]: ",
         "expected distinct device profiles, got h100 again (first at index 0)"},
        {"name: b\n" + body(models, "") + "axes:\n  device: [h100, h2000]\n", "axes.device[1]: ", "h2000"},
        {"name: b\n" + body(models, "") + "axes:\n  device: h100\n", "axes.device: ",
         "expected a list of device profiles like [h100, h200, devices/mine.yaml], got"},
        {"name: b\n" + body("workload, traffic, simulate", ", sms: 64") + "axes:\n  device: [h100, gb10]\n",
         "fixed.sms: ", "expected each device's own sms with model simulate and a device axis"},
    };
    for (size_t k = 0; k < cases.size(); k++) {
        std::string spec = write("bad" + std::to_string(k) + ".yaml", cases[k].text);
        auto r = run("run " + spec + " -o " + dir + "/out.csv");
        EXPECT_EQ(r.status, 2) << k << ": " << r.err;
        EXPECT_NE(r.err.find(cases[k].where), std::string::npos) << k << ": " << r.err;
        EXPECT_NE(r.err.find(cases[k].msg), std::string::npos) << k << ": " << r.err;
        EXPECT_FALSE(pascal_test::exists(dir + "/out.csv")) << k;
    }
}

} // namespace
