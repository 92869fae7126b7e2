// Tests for `pascal simulate` and the `sim` section of device profiles: the
// static-limit equality against `pascal point` (an independent code path:
// symbolic reuse distances), the JSON keys, the trajectory file, every
// rejection with its location, and the GB10 profile against the paper's
// section 3.6 and Figure 4 facts.
#include <gtest/gtest.h>
#include <sstream>
#include <set>
#include <map>

#include "test_util.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace {

using pascal_test::json_num;

class SimCli : public pascal_test::TempDirTest {
protected:
    std::string gb10 = std::string(PASCAL_SOURCE_DIR) + "/configs/devices/gb10.yaml";

    // The GB10 profile with one line of its sim section replaced.
    std::string profile_with(const std::string &from, const std::string &to)
    {
        std::string text = pascal_test::slurp(gb10);
        size_t at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos)
            text.replace(at, from.size(), to);
        return write("dev.yaml", text);
    }
};

// K_steady of the barrier scan equals `pascal point`'s exact LRU K.
TEST_F(SimCli, BarrierEqualsPointExactLru)
{
    const char *cases[] = {
        "--N 10 --C 3 --phases 0,0,5",
        "--N 10 --C 6 --phases 0,0,5",
        "--N 97 --C 13 --phases 0,3,3,50,51,90,96",
        "--N 500 --C 77 --M 40 --pattern uniform --seed 3",
        "--N 700 --C 140 --M 24 --pattern gaussian --sigma 40.5 --seed 8",
        "--N 300 --C 61 --M 16 --pattern lag --lag 7",
        "--N 1000 --C 90 --M 30 --pattern clusters --clusters 5 --spread 40",
    };
    for (const char *c : cases) {
        auto p = run(std::string("point ") + c + " --json");
        ASSERT_EQ(p.status, 0) << c << p.err;
        auto s = run("simulate --device " + gb10 + " --barrier " + c + " --json");
        ASSERT_EQ(s.status, 0) << c << s.err;
        EXPECT_EQ(json_num(s.out, "K_steady"), json_num(p.out, "K_lru")) << c;
    }
    // The paper's cluster fact (section 5.2): k equal clusters of 48 workers
    // at N = 8192, C = 1280 cost k fills per round.
    auto s = run("simulate --device " + gb10 +
                 " --barrier --N 8192 --C 1280 --M 48 --pattern clusters --clusters 12 --json");
    ASSERT_EQ(s.status, 0) << s.err;
    EXPECT_EQ(json_num(s.out, "K_steady"), 12);
}

TEST_F(SimCli, OpenRunJson)
{
    auto r = run("simulate --device " + gb10 +
                 " --o 2 --path tma --d 3 --m 5 --N 512 --W 3 --C 160 --seed 4 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    double fills = json_num(r.out, "fills"), req = json_num(r.out, "requests");
    EXPECT_EQ(json_num(r.out, "M"), 96);
    EXPECT_EQ(req, 3 * 96 * 512);
    EXPECT_EQ(fills + json_num(r.out, "cache_hits") + json_num(r.out, "merged"), req);
    EXPECT_DOUBLE_EQ(json_num(r.out, "K_H"), fills / (3 * 512));
    EXPECT_GT(json_num(r.out, "ns_per_round"), 0);
    EXPECT_NE(r.out.find("\"K_wave\": ["), std::string::npos);
    // Same inputs, same bytes.
    EXPECT_EQ(run("simulate --device " + gb10 +
                  " --o 2 --path tma --d 3 --m 5 --N 512 --W 3 --C 160 --seed 4 --json").out,
              r.out);
    // Text form, and the capacity from the profile (20 MiB / 16 KiB).
    r = run("simulate --device " + gb10 + " --o 1 --path sync --m 0 --N 64 --W 1");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("C = 1280 blocks"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("K_H = A(H)/H = 1 "), std::string::npos) << r.out;
}

TEST_F(SimCli, TrajectoryFile)
{
    std::string csv = dir + "/traj.csv";
    auto r = run("simulate --device " + gb10 +
                 " --o 1 --path tma --d 2 --m 0 --N 256 --W 2 --C 80 --samples 8 --trajectory " +
                 csv + " --json");
    ASSERT_EQ(r.status, 0) << r.err;
    std::string text = pascal_test::slurp(csv);
    EXPECT_EQ(text.substr(0, text.find('\n')), "sample,slot,block,t_ns,rounds");
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1 + 8 * 48);
    EXPECT_NE(r.out.find("\"phase_groups\": ["), std::string::npos);
}

TEST_F(SimCli, RejectsBadInput)
{
    struct Case {
        std::string args, msg;
    };
    std::string open = " --o 1 --path tma --d 2 --m 0 --N 64 --W 1";
    std::string dev = " --device " + gb10;
    Case cases[] = {
        {open, "--device: expected a device profile"},
        {dev + " --o 1 --path dma --m 0 --N 64 --W 1", "--path: expected sync or tma, got \"dma\""},
        {dev + " --o 1 --path sync --d 2 --m 0 --N 64 --W 1", "--d: expected no depth on the sync path"},
        {dev + " --o 1 --path tma --m 0 --N 64 --W 1", "--d: expected the TMA depth"},
        {dev + open + " --C 100 --assoc 3", "--assoc: expected a divisor of C = 100"},
        {dev + open + " --timing hit=3", "--timing: expected KEY=VALUE"},
        {dev + open + " --timing sm_spread=-1", "--timing: sm_spread: expected a fraction from 0 to 1"},
        {dev + " --barrier --N 10 --phases 0,12", "--phases: expected integers from 0 to N - 1 = 9"},
        {dev + " --barrier --N 10 --phases 0,1 --W 2", "--W: expected no open-scan option with --barrier"},
        {dev + " --barrier --N 10 --M 4 --pattern spiral", "--pattern: expected one of aligned"},
    };
    for (const auto &c : cases) {
        auto r = run("simulate" + c.args);
        EXPECT_EQ(r.status, 2) << c.args;
        EXPECT_NE(r.err.find(c.msg), std::string::npos) << c.args << "\n" << r.err;
    }
}

// Profiles go by name as by path; a command's output is never its device
// profile (output/fs/lock.h), and the refusal writes nothing.
TEST_F(SimCli, ProfilesByNameAndOutputsClaimed)
{
    std::string open = " --o 1 --path tma --d 2 --m 3 --N 128 --W 2 --json";
    auto a = run("simulate --device " + gb10 + open), b = run("simulate --device gb10" + open);
    ASSERT_EQ(a.status, 0) << a.err;
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_EQ(json_num(a.out, "K_H"), json_num(b.out, "K_H"));
    EXPECT_NE(b.out.find("\"ns_per_round\": "), std::string::npos);
    std::string dev = write("dev.yaml", pascal_test::slurp(gb10));
    auto r = run("simulate --device " + dev + open + " --samples 4 --trajectory " + dev);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("expected a file that is not one of the inputs, got the device profile"),
              std::string::npos) << r.err;
    r = run("measure-refs --simulate --device " + dev + " --occupancy 1 --path sync --compute 0 "
            "--N 64 --W 1 -o " + dev);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("expected a file that is not one of the inputs, got the device profile"),
              std::string::npos) << r.err;
    EXPECT_EQ(pascal_test::slurp(dev), pascal_test::slurp(gb10));
    r = run("measure-refs --simulate --device gb10 --path tma,tma --dry-run");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--path: expected load paths (sync, tma), comma-separated, each once, got "
                         "\"tma,tma\""), std::string::npos) << r.err;
    r = run("simulate --device gb10 --o 1 --path tmaa --m 0 --N 64 --W 1");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("got \"tmaa\" (did you mean 'tma'?)"), std::string::npos) << r.err;
}

// Every profile error names the file, line, column and key.
TEST_F(SimCli, ProfileSimSectionIsChecked)
{
    struct Case {
        std::string from, to, msg;
    };
    Case cases[] = {
        {"hit_ns: {value: 159.6,", "hit_ns: {value: -2,", ":20:19: sim.hit_ns.value: expected a time >= 0 in ns, got \"-2\""},
        {"dram_bytes_per_ns: {value: 273,", "dram_bytes_per_ns: {value: 0,",
         "sim.dram_bytes_per_ns.value: expected a bandwidth > 0 in bytes per ns (GB/s), got \"0\""},
        {"source: \"datasheet: DGX", "source: \"somewhere: DGX",
         "sim.dram_bytes_per_ns.source: expected where the value comes from, starting datasheet:"},
        {"  jitter_ns:", "  jiter_ns:", "sim.jiter_ns: expected one of the keys hit_ns"},
        {"  launch_ns: {value: 200,", "  launch_ns: {source: \"assumed: x\", value: 200, unit: ns,",
         "sim.launch_ns.unit: expected one of the keys value, source"},
    };
    std::string open = " --o 1 --path tma --d 2 --m 0 --N 64 --W 1";
    for (const auto &c : cases) {
        std::string dev = profile_with(c.from, c.to);
        auto r = run("simulate --device " + dev + open);
        EXPECT_EQ(r.status, 2) << c.to;
        EXPECT_NE(r.err.find(dev + ":"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(c.msg), std::string::npos) << r.err;
        // A sweep naming the profile is rejected the same way, before any output.
        std::string spec = write("s.yaml", "name: s\ndevice: " + dev +
                                               "\nmodels: [che]\nfixed: {N: 64, occupancy: 1}\n"
                                               "axes: {seed: [1]}\n");
        r = run("run " + spec + " -o " + dir + "/out.h5");
        EXPECT_EQ(r.status, 2);
        EXPECT_NE(r.err.find(c.msg), std::string::npos) << r.err;
        EXPECT_FALSE(pascal_test::exists(dir + "/out.h5"));
    }
    std::string text = pascal_test::slurp(gb10);
    std::string dev = write("nosim.yaml", text.substr(0, text.find("\nsim:") + 1));
    auto r = run("simulate --device " + dev + open);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("sim: expected the simulator's timing section"), std::string::npos) << r.err;
}

// The GB10 profile against the paper (section 3.6, Figure 4): the fitted
// facts within 1 %, and the held-out ones it reproduces.
TEST_F(SimCli, Gb10PaperFacts)
{
    auto sim = [&](const std::string &args, const char *key) {
        auto r = run("simulate --device " + gb10 + " --N 4096 --C 1280 --m 0 " + args + " --json");
        EXPECT_EQ(r.status, 0) << r.err;
        return json_num(r.out, key);
    };
    EXPECT_NEAR(sim("--o 1 --path tma --d 2 --W 1", "first_wave_ns_per_round"), 841, 8.41);
    EXPECT_NEAR(sim("--o 1 --path tma --d 4 --W 1", "first_wave_ns_per_round"), 424, 4.24);
    // Held out: d = 3 (465 ns) within 25 %; K stays 1 in the first wave.
    EXPECT_NEAR(sim("--o 1 --path tma --d 3 --W 1", "first_wave_ns_per_round"), 465, 0.25 * 465);
    EXPECT_EQ(sim("--o 1 --path tma --d 3 --W 1", "K_H"), 1);
    // Figure 4a: the tma path diverges at occupancy 1, the sync path does not.
    EXPECT_GT(sim("--o 1 --path tma --d 4 --W 32", "K_H"), 3);
    EXPECT_EQ(sim("--o 1 --path sync --W 16", "K_H"), 1);
}

// The sweep model: every thread count writes the same bytes, and each row is
// the single run `pascal simulate` prints for that point.
TEST_F(SimCli, SweepModelMatchesSingleRuns)
{
    std::string spec = write("s.yaml", "name: s\ndevice: " + gb10 +
                                           "\nmodels: [simulate]\n"
                                           "fixed: {N: 512, C: 160, compute: 3, seed: 7}\n"
                                           "axes:\n  occupancy: [1, 2]\n  path: [sync, tma]\n"
                                           "  depth: [2, 4]\n  W: [1, 3]\n"
                                           "where: 'path == \"tma\" || depth == 2'\n");
    auto r1 = run("run " + spec + " -o " + dir + "/t1.csv --format csv --threads 1");
    ASSERT_EQ(r1.status, 0) << r1.err;
    auto r2 = run("run " + spec + " -o " + dir + "/t2.csv --format csv --threads 2");
    ASSERT_EQ(r2.status, 0) << r2.err;
    std::string csv = pascal_test::slurp(dir + "/t1.csv");
    EXPECT_EQ(csv, pascal_test::slurp(dir + "/t2.csv"));
    EXPECT_EQ(csv.substr(0, csv.find('\n')), "occupancy,path,W,depth,N,M,C,K_sim,rho_sim,ns_per_round_sim");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 12);
    // Row (occupancy 2, tma, W 3, depth 4) against the single run.
    std::string row = "2,tma,3,4,512,96,160,";
    size_t at = csv.find(row);
    ASSERT_NE(at, std::string::npos) << csv;
    double K = std::stod(csv.substr(at + row.size()));
    auto s = run("simulate --device " + gb10 +
                 " --o 2 --path tma --d 4 --m 3 --N 512 --W 3 --C 160 --seed 7 --json");
    ASSERT_EQ(s.status, 0) << s.err;
    EXPECT_EQ(K, json_num(s.out, "K_H"));
    // Without the device's timing the model cannot run: rejected before output.
    std::string text = pascal_test::slurp(gb10);
    std::string dev = write("nosim.yaml", text.substr(0, text.find("\nsim:") + 1));
    std::string bad = write("b.yaml", "name: b\ndevice: " + dev +
                                          "\nmodels: [simulate]\nfixed: {N: 64, C: 16, occupancy: 1, "
                                          "path: sync, compute: 0, W: 1}\naxes: {seed: [1]}\n");
    auto r = run("run " + bad + " -o " + dir + "/b.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("models: simulate needs the device's timing: " + dev), std::string::npos)
        << r.err;
    EXPECT_FALSE(pascal_test::exists(dir + "/b.h5"));
}

// The table below the `#` lines of a simulated reference CSV.
std::string table_of(const std::string &csv)
{
    return csv.substr(csv.find("o,path,d,m,N,W,K"));
}

TEST_F(SimCli, MeasureRefsSimulated)
{
    std::string keys = " --occupancy 1 --path sync,tma --depth 2 --compute 0,5 --N 128 --W 1,3 "
                       "--repeat 2 --seed 4 --device " + gb10;
    auto r = run("measure-refs --simulate" + keys + " --threads 2 -o " + dir + "/refs.csv");
    ASSERT_EQ(r.status, 0) << r.err;
    std::string csv = pascal_test::slurp(dir + "/refs.csv");
    EXPECT_EQ(csv.rfind("# SIMULATED reference runs: no GPU measured these numbers", 0), 0u) << csv;
    EXPECT_NE(csv.find("# device profile: " + gb10 + " (NVIDIA GB10)"), std::string::npos);
    EXPECT_NE(pascal_test::slurp(dir + "/refs.csv.provenance.txt").find("SIMULATED"),
              std::string::npos);
    std::string t = table_of(csv);
    EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), 1 + 4 * 2 * 2); // keys x W x repetitions
    // The second repetition of (1, tma, 2, 5, 128, 3) is the single run with seed 5.
    auto s = run("simulate --device " + gb10 + " --o 1 --path tma --d 2 --m 5 --N 128 --W 3 --seed 5 --json");
    ASSERT_EQ(s.status, 0) << s.err;
    char row[128];
    std::snprintf(row, sizeof row, "1,tma,2,5,128,3,%.17g\n", json_num(s.out, "K_H"));
    EXPECT_NE(t.find(row), std::string::npos) << row << t;
    // One thread, the same table; calibrate reads the file unchanged.
    r = run("measure-refs --simulate" + keys + " --threads 1 -o " + dir + "/refs1.csv");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(table_of(pascal_test::slurp(dir + "/refs1.csv")), t);
    r = run("calibrate " + dir + "/refs.csv --device " + gb10 + " -o " + dir + "/m.h5");
    EXPECT_EQ(r.status, 0) << r.err;
    // The paper's key space by default.
    r = run("measure-refs --simulate --device " + gb10 + " --dry-run");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("1188 runs"), std::string::npos) << r.out; // 11 families x 9 m x 12 (N, W)
    r = run("measure-refs --simulate -o " + dir + "/x.csv");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--device: expected a device profile"), std::string::npos) << r.err;
    r = run("measure-refs --simulate --device " + gb10 + " --meter ncu -o " + dir + "/x.csv");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--meter: expected no GPU option with --simulate"), std::string::npos);
    EXPECT_FALSE(pascal_test::exists(dir + "/x.csv"));
}

// --key-seeds: repetition r of the k-th key (file order) runs at seed
// S + R k + r, the same at every N and W of the key, so no two keys share
// a seed; without it every key repeats seeds S .. S + R - 1.  The header
// says which.
TEST_F(SimCli, KeySeedsDifferAcrossKeys)
{
    const std::string keys = " --device " + gb10 + " --path sync --occupancy 1 --compute 0,8,16 --N 4096,8192 "
                             "--W 2 --repeat 3 --seed 5";
    auto r = run("measure-refs --simulate" + keys + " --key-seeds --dry-run");
    ASSERT_EQ(r.status, 0) << r.err;
    std::map<std::string, std::set<long>> seeds;   // key -> seeds
    std::map<long, std::string> owner;
    std::istringstream in(r.out);
    std::string line;
    int rows = 0;
    while (std::getline(in, line)) {
        int o, d, m, N;
        char path[8];
        double W;
        long seed;
        if (std::sscanf(line.c_str(), " %d,%7[a-z],%d,%d,%d,%lf,%ld", &o, path, &d, &m, &N, &W, &seed) != 7)
            continue;
        rows++;
        std::string key = std::to_string(m);
        seeds[key].insert(seed);
        EXPECT_TRUE(!owner.count(seed) || owner[seed] == key) << "seed " << seed << " shared";
        owner[seed] = key;
    }
    ASSERT_EQ(rows, 3 * 2 * 3);
    const std::map<std::string, std::set<long>> want = {
        {"0", {5, 6, 7}}, {"8", {8, 9, 10}}, {"16", {11, 12, 13}}};
    EXPECT_EQ(seeds, want);
    r = run("measure-refs --simulate" + keys + " --dry-run");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find(",11\n"), std::string::npos) << r.out;   // every key at 5, 6, 7
    r = run("measure-refs --simulate" + keys + " --key-seeds -o " + dir + "/k.csv --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(pascal_test::slurp(dir + "/k.csv").find("repetitions: 3, seeds 5 + 3 k + r for the k-th key"),
              std::string::npos);
    // calibrate reports the repeated runs' spread from the file.
    r = run("calibrate " + dir + "/k.csv --device " + gb10 + " -o " + dir + "/k.h5");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("repeated runs: 6 (key, N, W) with several seeds"), std::string::npos) << r.out;
}

// Every committed simulated reference set says so in its first line, names
// the command that made it, and is a valid calibration input.
TEST_F(SimCli, CommittedSimulatedSetsSaySo)
{
    int seen = 0;
    for (const std::string &name : pascal_test::list_dir(std::string(PASCAL_SOURCE_DIR) +
                                                         "/configs/calibration")) {
        if (name.rfind("simulated-", 0) != 0 || name.size() < 4 ||
            name.compare(name.size() - 4, 4, ".csv") != 0)
            continue;
        std::string path = std::string(PASCAL_SOURCE_DIR) + "/configs/calibration/" + name;
        std::string text = pascal_test::slurp(path);
        EXPECT_EQ(text.rfind("# SIMULATED reference runs", 0), 0u) << name;
        EXPECT_NE(text.find("\n# command: pascal measure-refs --simulate"), std::string::npos) << name;
        EXPECT_TRUE(pascal_test::exists(path + ".provenance.txt")) << name;
        std::string dev = name.find("h200") != std::string::npos ? "h200" : "gb10";
        auto r = run("calibrate " + path + " --device " + std::string(PASCAL_SOURCE_DIR) +
                     "/configs/devices/" + dev + ".yaml -o " + dir + "/m.h5");
        EXPECT_EQ(r.status, 0) << name << r.err;
        seen++;
    }
    EXPECT_GE(seen, 2);
}

} // namespace
